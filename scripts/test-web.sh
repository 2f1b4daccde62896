#!/usr/bin/env bash
# The web page's tests: the engine built for WebAssembly, the typed clients
# generated from the ARC-56 specs, the TypeScript checked, the
# production build, then the page in Debian's Chromium (web/tests, node's test
# runner with playwright-core). Installs what it needs on a fresh machine:
# chromium (apt), web/node_modules (npm ci, pinned by web/package-lock.json),
# the wasm32 target (rustup). Screenshots and measurements: web/test-results/.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
ensure_venv
cd "$ROOT"
export ALGOKU_PYTHON="${ALGOKU_PYTHON:-$VENV/bin/python}"

if [ ! -x /usr/bin/chromium ]; then
    echo "==> installing Debian's chromium (apt-get)"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi

stamp="web/node_modules/.lock.sha256"
want="$(sha256sum web/package-lock.json | cut -d' ' -f1)"
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    echo "==> npm ci in web/ (pinned by web/package-lock.json)"
    npm ci --prefix web --no-audit --no-fund --loglevel=error
    echo "$want" > "$stamp"
fi

echo "==> web: the engine for wasm32-unknown-unknown"
bash scripts/build-wasm.sh
echo "==> web: typed clients from the ARC-56 specs"
node web/scripts/generate-clients.mjs
echo "==> web: TypeScript and the production build"
(cd web && node_modules/.bin/tsc --noEmit -p . && node_modules/.bin/vite build --logLevel error)

# The tests ask the CLI for each address's puzzle and for fixtures.
cargo build --locked --quiet --bin algoku
export ALGOKU_BIN="${CARGO_TARGET_DIR:-$ROOT/target}/debug/algoku"
echo "==> web: the page in Chromium (playwright-core, node --test)"
cd web
timeout 900 node --test --test-concurrency=1 --test-timeout=240000 tests/
