#!/usr/bin/env bash
# The main job: generate a puzzle, solve it, verify the solution on chain,
# change one cell and see it rejected. Uses LocalNet when it answers, else the
# embedded go-algorand evaluator. Extra arguments go to `algoku demo`.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
ensure_venv
cd "$ROOT"
export ALGOKU_PYTHON="$VENV/bin/python"
cargo build --release --locked --quiet --bin algoku
exec "$ROOT/target/release/algoku" demo "$@"
