#!/usr/bin/env bash
# Builds the rules core and engine for the browser (crates/wasm, wasm32-unknown-unknown) and
# copies the module to web/src/rules/arbiter.wasm, where Vite picks it up (as a hashed asset)
# and vitest loads it. The bytes do not depend on where the repository is checked out: paths
# are remapped and symbols stripped (web/scripts/check-build.sh compares whole builds).
# Needs: rustup target add wasm32-unknown-unknown
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
target_dir="${CARGO_TARGET_DIR:-$root/target}"
cargo_home="${CARGO_HOME:-$HOME/.cargo}"
# RUSTFLAGS with --target reach only the wasm code, not build scripts.
# The last matching prefix wins: the target directory (generated sources) may lie inside root.
RUSTFLAGS="--remap-path-prefix=$root=/arbiter --remap-path-prefix=$cargo_home=/cargo --remap-path-prefix=$target_dir=/target" \
  cargo build --quiet --locked -p arbiter-wasm --target wasm32-unknown-unknown --release \
  --config 'profile.release.strip=true'
install -m 644 "$target_dir/wasm32-unknown-unknown/release/arbiter_wasm.wasm" web/src/rules/arbiter.wasm
