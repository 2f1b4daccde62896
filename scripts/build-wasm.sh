#!/usr/bin/env bash
# Builds the engine for the web page: rust/wasm for wasm32-unknown-unknown
# (release, size-optimised) into web/src/engine/algoku.wasm, where Vite picks it
# up. Only the Rust toolchain and crates.io: the target is added with rustup if
# missing, and the module needs no generated glue (see rust/wasm/src/lib.rs).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
    rustup target add wasm32-unknown-unknown
fi
target_dir="${CARGO_TARGET_DIR:-$ROOT/target}"
# The x86-64 rustflags of .cargo/config.toml do not apply to this target;
# opt-level s and one codegen unit keep the module small, LTO drops unused code.
CARGO_PROFILE_RELEASE_OPT_LEVEL=s CARGO_PROFILE_RELEASE_LTO=true \
CARGO_PROFILE_RELEASE_CODEGEN_UNITS=1 CARGO_PROFILE_RELEASE_DEBUG=0 \
CARGO_PROFILE_RELEASE_PANIC=abort CARGO_PROFILE_RELEASE_STRIP=true \
    cargo build --locked --release --target wasm32-unknown-unknown -p algoku-wasm --quiet
mkdir -p web/src/engine
cp "$target_dir/wasm32-unknown-unknown/release/algoku_wasm.wasm" web/src/engine/algoku.wasm
echo "web/src/engine/algoku.wasm: $(wc -c < web/src/engine/algoku.wasm) bytes"
