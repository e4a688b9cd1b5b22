#!/usr/bin/env bash
# Rebuilds the web UI and fails if crates/server/assets differs from the committed build
# (CI runs this so that the embedded UI is always the build of web/src). `npm run build` builds
# the WebAssembly module first (scripts/build-wasm.sh: paths remapped, so its bytes do not depend
# on the checkout's path; they do depend on the Rust toolchain's version).
# Usage: bash web/scripts/check-build.sh   (after `npm ci` in web/)
set -euo pipefail
cd "$(dirname "$0")/.."
npm run --silent build >/dev/null
cd ..
if ! git diff --quiet --exit-code -- crates/server/assets \
   || [ -n "$(git ls-files --others --exclude-standard -- crates/server/assets)" ]; then
  echo "crates/server/assets is not the build of web/: run 'npm run build' in web/ and commit." >&2
  git status --short -- crates/server/assets >&2
  exit 1
fi
echo "web build: crates/server/assets is current"
