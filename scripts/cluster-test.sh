#!/usr/bin/env bash
# The cluster fault test by itself (crates/cli/tests/cluster.rs): three `arbiter serve --cluster`
# nodes over a throw-away PostgreSQL and one nats-server, ~100 games played by WebSocket clients
# while owners are killed and restarted, frozen past their lease, NATS and PostgreSQL restarted;
# then every acknowledged move, every game's log and every socket's stream is checked against the
# database. About 1.5 minutes after the build.
#
# Needs nats-server and PostgreSQL's initdb/pg_ctl (PATH or /usr/lib/postgresql/*/bin); without
# them the test is skipped, unless ARBITER_STRICT=1. Environment: ARBITER_CLUSTER_GAMES (games
# at once, default 100), ARBITER_CLUSTER_SEED (decimal or 0x…), ARBITER_CLUSTER_ROUNDS (rounds of
# the four faults, default 2). Extra arguments go to cargo test (e.g. -j1).
set -euo pipefail
cd "$(dirname "$0")/.."
exec cargo test --profile ci -p arbiter --test cluster "$@" -- --ignored --nocapture
