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

echo "==> Rust workspace (cargo test)"
cargo test --workspace --locked "$@"
