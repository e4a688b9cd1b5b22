#!/usr/bin/env bash
# lichess's API driven by real lichess clients against a fresh `arbiter serve`: berserk
# (PyPI) plays seeks, challenges, draws, resignations and a bot's game (lichess/berserk_clients.py).
#
#   ARBITER_BIN=target/ci/arbiter crates/server/tests/lichess_clients.sh
#
# Needs berserk and python-chess in the repository's .venv (or PYTHON=...).
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$root"
py=${PYTHON:-$root/.venv/bin/python}
: "${ARBITER_BIN:?set ARBITER_BIN to the arbiter binary}"
tmp=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
RUST_LOG=warn "$ARBITER_BIN" serve --addr "127.0.0.1:$port" --db "$tmp/lichess.db" \
    --engine-threads 1 >"$tmp/server.log" 2>&1 &
pid=$!
cleanup() { kill -TERM "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$tmp"; }
trap cleanup EXIT
base=http://127.0.0.1:$port
for _ in $(seq 100); do
    curl -fs "$base/api/openapi.json" >/dev/null 2>&1 && break
    sleep 0.1
done
if ! timeout 300 "$py" "$root/crates/server/tests/lichess/berserk_clients.py" "$base"; then
    echo "== server log:"; tail -50 "$tmp/server.log"
    exit 1
fi
