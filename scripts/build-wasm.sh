#!/usr/bin/env bash
# Builds the engine for the web page: rust/wasm for wasm32-unknown-unknown
# (release, size-optimised) into web/src/engine/algoku.wasm and rater.wasm,
# and the catalogue's shards into web/public/catalogue/, where Vite picks them
# up. Only the Rust toolchain and crates.io: the target is added with rustup if
# missing, and the modules need no generated glue (see rust/wasm/src/lib.rs).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
    rustup target add wasm32-unknown-unknown
fi
target_dir="${CARGO_TARGET_DIR:-$ROOT/target}"
# The x86-64 rustflags of .cargo/config.toml do not apply to this target;
# opt-level s and one codegen unit keep the module small, LTO drops unused code.
# Two modules from the crate's features: the board's (play, the first load)
# and the rater's (rate, loaded later in a worker).
build() {
    CARGO_PROFILE_RELEASE_OPT_LEVEL=s CARGO_PROFILE_RELEASE_LTO=true \
    CARGO_PROFILE_RELEASE_CODEGEN_UNITS=1 CARGO_PROFILE_RELEASE_DEBUG=0 \
    CARGO_PROFILE_RELEASE_PANIC=abort CARGO_PROFILE_RELEASE_STRIP=true \
        cargo build --locked --release --target wasm32-unknown-unknown -p algoku-wasm \
        --no-default-features --features "$1" --quiet
    mkdir -p web/src/engine
    cp "$target_dir/wasm32-unknown-unknown/release/algoku_wasm.wasm" "web/src/engine/$2"
    echo "web/src/engine/$2: $(wc -c < "web/src/engine/$2") bytes"
}
build play algoku.wasm
build rate rater.wasm
# The catalogue is not in the module: the page fetches the one shard of 256
# records (19 bytes each) its puzzle is in (rust/game/src/shard.rs).
rm -rf web/public/catalogue
mkdir -p web/public/catalogue
split -b $((256 * 19)) -d -a 3 --additional-suffix=.bin rust/game/data/catalogue.bin web/public/catalogue/
echo "web/public/catalogue: $(ls web/public/catalogue | wc -l) shards"
