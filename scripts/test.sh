#!/usr/bin/env bash
# Runs every test of Arbiter. Without ../shared/data (a fresh clone elsewhere) the tests that
# need the shared corpora are skipped; with it (CI), they run too.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

if [[ -z "${ARBITER_DATA:-}" && -d "$root/../shared/data" ]]; then
  export ARBITER_DATA="$root/../shared/data"
fi
if [[ -z "${ARBITER_PYTHON:-}" && -x "$root/.venv/bin/python" ]]; then
  export ARBITER_PYTHON="$root/.venv/bin/python"
fi

extra=()
if [[ -n "${ARBITER_DATA:-}" ]]; then
  echo "== shared data: $ARBITER_DATA (ignored tests included)"
  extra=(-- --include-ignored)
else
  echo "== no shared data: ignored tests skipped"
fi
cargo test --workspace --profile ci "${extra[@]}"
