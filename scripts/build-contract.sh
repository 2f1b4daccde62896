#!/usr/bin/env bash
# Compile smart_contracts/ with the pinned puyapy into smart_contracts/artifacts/.
# `--check` compiles to a temporary folder and fails if the committed artifacts differ.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
ensure_venv
cd "$ROOT"
exec "$VENV/bin/python" -m smart_contracts build "$@"
