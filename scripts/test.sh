#!/usr/bin/env bash
# Every test: the contract on go-algorand's evaluator (pytest), then the Rust
# workspace (mirror, engine, client on the embedded evaluator, and on LocalNet
# when one answers). Sets up what it needs: the pinned venv and the cargo build.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
ensure_venv
cd "$ROOT"
export ALGOKU_PYTHON="$VENV/bin/python"

echo "==> contract: artifacts, budget and verdicts on go-algorand's evaluator (pytest)"
"$VENV/bin/python" -m pytest -q

# The chain tests run on go-algorand's evaluator; say plainly whether LocalNet is there too.
algod="${ALGOD_SERVER:-http://localhost}:${ALGOD_PORT:-4001}"
host_port="${algod#*://}"
if (exec 3<>"/dev/tcp/${host_port%:*}/${host_port##*:}") 2>/dev/null; then
    echo "==> LocalNet answered at $algod: the client and differential tests also run on it"
else
    echo "==> SKIPPED: the client and differential tests on LocalNet (no algod at $algod;" \
         "start it with \`docker compose up -d\` or \`algokit localnet start\`). They run on the embedded evaluator."
fi

echo "==> Rust workspace (cargo test)"
cargo test --workspace --locked "$@"

echo "==> API docs (cargo doc, warnings are errors)"
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --locked

echo "==> the library crates package (cargo package: metadata, embedded files)"
cargo package --workspace --exclude algoku --no-verify --allow-dirty --locked --quiet

echo "==> web page in a browser (scripts/test-web.sh: wasm engine, typed clients, build, Chromium)"
bash scripts/test-web.sh
