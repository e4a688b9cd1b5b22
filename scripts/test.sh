#!/usr/bin/env bash
# Runs every test of Arbiter.
#
# Always: `cargo test --workspace` (profile `ci`: optimised, debug assertions on).
# When present, also: the ignored tests over the shared corpora in ../shared/data (perft
# suites, PGN corpora, oracles, dead-position vectors), the differential tests against
# python-chess (.venv), PostgreSQL tests (ARBITER_TEST_POSTGRES_URL), the web UI's unit tests,
# committed-build check and browser end-to-end tests (web/node_modules, /usr/bin/chromium),
# Schemathesis against the OpenAPI document (.venv/bin/schemathesis), lichess's API driven by
# the berserk client (.venv) and a build of the fuzz
# targets (cargo-fuzz). `.ci/run` installs all of these and sets ARBITER_STRICT=1, which turns
# a missing one into a failure instead of a skip.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
strict=${ARBITER_STRICT:-0}

skip() {
  if [[ "$strict" == 1 ]]; then
    echo "== MISSING: $1" >&2
    exit 1
  fi
  echo "== skipped: $1"
}

if [[ -z "${ARBITER_DATA:-}" && -d "$root/../shared/data" ]]; then
  export ARBITER_DATA="$root/../shared/data"
fi
if [[ -z "${ARBITER_PYTHON:-}" && -x "$root/.venv/bin/python" ]]; then
  export ARBITER_PYTHON="$root/.venv/bin/python"
fi

echo "== cargo test"
extra=()
if [[ -n "${ARBITER_DATA:-}" ]]; then
  echo "   shared data: $ARBITER_DATA (ignored tests included)"
  extra=(-- --include-ignored)
else
  skip "shared data (../shared/data): ignored tests"
fi
cargo test --workspace --profile ci "${extra[@]}"

bin="${CARGO_TARGET_DIR:-$root/target}/ci/arbiter"
# arbiter, and arbiter-uci (our engine as an external UCI program, for the e2e engine test)
cargo build --profile ci -p arbiter -p arbiter-server --bins

if [[ -x .venv/bin/schemathesis ]]; then
  echo "== schemathesis against /api/openapi.json"
  ARBITER_BIN="$bin" bash crates/server/tests/schemathesis.sh
else
  skip "schemathesis (.venv/bin/schemathesis)"
fi

if [[ -x .venv/bin/python ]] && .venv/bin/python -c 'import berserk, chess' 2>/dev/null; then
  echo "== lichess's API driven by berserk (PyPI)"
  ARBITER_BIN="$bin" bash crates/server/tests/lichess_clients.sh
else
  skip "berserk (.venv: pip install berserk chess): lichess client tests"
fi

if [[ -d web/node_modules ]]; then
  echo "== web UI: unit tests and committed-build check"
  (cd web && npm test && bash scripts/check-build.sh)
  if [[ -x /usr/bin/chromium ]]; then
    echo "== web UI: browser end-to-end"
    (cd web && ARBITER_BIN="$bin" npm run e2e)
  else
    skip "chromium: browser end-to-end tests"
  fi
else
  skip "web/node_modules (run npm ci in web/): web tests"
fi

if command -v cargo-fuzz >/dev/null 2>&1; then
  echo "== fuzz targets build"
  (cd fuzz && RUSTC_BOOTSTRAP=1 cargo fuzz build -O)
else
  skip "cargo-fuzz: fuzz targets build"
fi
echo "== all tests passed"
