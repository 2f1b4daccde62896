#!/usr/bin/env bash
# Every test: the contract on go-algorand's evaluator (pytest), then the Rust
# workspace (mirror, engine, client on the embedded evaluator and through
# algod's HTTP API on the local node, and on LocalNet when one answers).
# Sets up what it needs: the pinned venv and the cargo build. Arguments go to
# every Rust test binary (a test name filter, `--nocapture`).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
ensure_venv
cd "$ROOT"
export ALGOKU_PYTHON="$VENV/bin/python"

# A worker per core, each with its own evaluator slot; a file's tests stay together, in order,
# on one worker (a module's fixtures and its last test's checks see the tests before it).
echo "==> contract: artifacts, budget and verdicts on go-algorand's evaluator (pytest, a worker per core)"
"$VENV/bin/python" -m pytest -q -n auto --dist loadfile --durations=10

# The algod road (HTTP, KMD) always runs through the local node (`algoku node`,
# started by the tests on free ports); on a LocalNet too when one answers.
algod="${ALGOD_SERVER:-http://localhost}:${ALGOD_PORT:-4001}"
host_port="${algod#*://}"
if (exec 3<>"/dev/tcp/${host_port%:*}/${host_port##*:}") 2>/dev/null; then
    echo "==> LocalNet answered at $algod: the algod-path tests run on it as well as on the local node"
else
    echo "==> the algod-path tests run on the local node (no LocalNet at $algod; with one up" \
         "(\`docker compose up -d\` or \`algokit localnet start\`) they run on it too)"
fi

echo "==> [${SECONDS} s] Rust workspace (cargo test: the test binaries side by side, then the doc tests)"
"$VENV/bin/python" scripts/cargo_tests.py -- "$@"

echo "==> [${SECONDS} s] API docs (cargo doc, warnings are errors)"
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --locked

echo "==> [${SECONDS} s] the library crates package (cargo package: metadata, embedded files)"
cargo package --workspace --exclude algoku --no-verify --allow-dirty --locked --quiet

echo "==> [${SECONDS} s] web page in a browser (scripts/test-web.sh: wasm engine, typed clients, build, Chromium)"
bash scripts/test-web.sh
echo "==> every test passed in ${SECONDS} s"
