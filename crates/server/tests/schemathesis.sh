#!/usr/bin/env bash
# Schemathesis against a fresh `arbiter serve`: no 5xx, and every response conforms to the
# OpenAPI document served at /api/openapi.json (status codes, content types, schemas).
#
#   crates/server/tests/schemathesis.sh            # builds `arbiter` (debug) if needed
#   ARBITER_BIN=target/release/arbiter crates/server/tests/schemathesis.sh
#
# Needs Schemathesis (PyPI `schemathesis`); by default the one in the repository's .venv.
# ST_DB may name a database (e.g. a postgres:// URL); default: a temporary SQLite file.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$root"
st=${SCHEMATHESIS:-$root/.venv/bin/schemathesis}
if [ -z "${ARBITER_BIN:-}" ]; then
    cargo build -q -p arbiter
    target=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
    ARBITER_BIN=$target/debug/arbiter
fi
tmp=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
db=${ST_DB:-$tmp/st.db}
# Generated games against the computer think in the background: one engine thread, short searches.
RUST_LOG=warn "$ARBITER_BIN" serve --addr "127.0.0.1:$port" --db "$db" \
    --engine-threads 1 --engine-max-think 2 >"$tmp/server.log" 2>&1 &
pid=$!
cleanup() { kill -TERM "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$tmp"; }
trap cleanup EXIT
base=http://127.0.0.1:$port
for _ in $(seq 100); do
    curl -fs "$base/api/openapi.json" >/dev/null 2>&1 && break
    sleep 0.1
done
# A real game, so that operations on {id} with a token reach the game logic too.
game=$(curl -fs -XPOST "$base/api/games" -H 'content-type: application/json' \
    -d '{"time_control":"10+5","color":"white"}')
token=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["token"])' "$game")
id=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["id"])' "$game")
curl -fs -XPOST "$base/api/games/$id/join" >/dev/null
echo "schemathesis: server on $base, game $id"
# Streams (NDJSON) never end while the client reads: left out, or a request on the real game
# would wait for ever.
"$st" run "$base/api/openapi.json" \
    --exclude-path '/api/games/{id}/chat/stream' \
    --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance \
    --max-examples "${ST_MAX_EXAMPLES:-60}" \
    --header "Authorization: Bearer $token" \
    --seed "${ST_SEED:-20181}" \
    --phases examples,coverage,fuzzing \
    --no-color \
    --warnings off
