//! Algoku's engine for the web page: the game's derivation (rust/game), the
//! mirror's verdict and reason (rust/avm), the solver (rust/sudoku), the
//! rater's next step (rust/rate) and the 8x8 game (rust/curta), compiled for
//! `wasm32-unknown-unknown`.
//!
//! # Two modules
//!
//! The crate builds two modules from its features (scripts/build-wasm.sh):
//! `play` (the board's needs: the game, the mirror, the solver, the 8x8 game)
//! is what a first view loads; `rate` (the rater: difficulty and hints, most
//! of the code) is loaded later, in a worker. Native builds and tests have
//! both.
//!
//! # The boundary
//!
//! No generated glue: the module exports plain functions and two buffers.
//! The page asks for an input buffer of `n` bytes ([`input`] returns its
//! address in the module's memory), writes the request there, calls a
//! function with `n` (and the app id, a 64-bit integer: a `BigInt` in
//! JavaScript), and reads the answer from the output buffer ([`output`],
//! [`output_len`]): JSON text, or bytes for [`game_args`]. The buffers are
//! plain `Vec`s owned here, so the module has no unsafe block (only the
//! exports' `no_mangle`) and the page no allocator; each call overwrites the
//! previous answer. What each request holds is in the [`engine`] functions'
//! docs.
//!
//! # The catalogue is not in the module
//!
//! The 17-clue catalogue would be most of the module's bytes. The page
//! fetches the one shard an address's puzzle is in ([`game_shard`] names
//! it, [`catalogue_shard`] takes it, checked against the committed root;
//! see `algoku_game::shard`), so a first view loads one 256-puzzle shard of 193.

#![warn(missing_docs)]

#[cfg(feature = "play")]
pub mod curta;
#[cfg(feature = "play")]
pub mod engine;
mod json;
#[cfg(feature = "rate")]
pub mod rater;

use std::cell::RefCell;

thread_local! {
    static INPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static OUTPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Makes the input buffer `len` bytes long (zeroed) and returns its address.
#[no_mangle]
pub extern "C" fn input(len: usize) -> *mut u8 {
    INPUT.with(|b| {
        let mut b = b.borrow_mut();
        b.clear();
        b.resize(len, 0);
        b.as_mut_ptr()
    })
}

/// The address of the last answer.
#[no_mangle]
pub extern "C" fn output() -> *const u8 {
    OUTPUT.with(|b| b.borrow().as_ptr())
}

/// The length in bytes of the last answer.
#[no_mangle]
pub extern "C" fn output_len() -> usize {
    OUTPUT.with(|b| b.borrow().len())
}

/// Runs `f` on the first `len` input bytes and stores its answer.
fn answer(len: usize, f: impl FnOnce(&[u8]) -> Vec<u8>) -> usize {
    let out = INPUT.with(|b| {
        let b = b.borrow();
        f(&b[..len.min(b.len())])
    });
    OUTPUT.with(|b| {
        let mut b = b.borrow_mut();
        *b = out;
        b.len()
    })
}

/// [`engine::game_puzzle`]: input the 32-byte address.
#[cfg(feature = "play")]
#[no_mangle]
pub extern "C" fn game_puzzle(app_id: u64, len: usize) -> usize {
    answer(len, |i| engine::game_puzzle(app_id, i).into_bytes())
}

/// [`engine::game_check`]: input the address ‖ the player's 81 cells.
#[cfg(feature = "play")]
#[no_mangle]
pub extern "C" fn game_check(app_id: u64, len: usize) -> usize {
    answer(len, |i| engine::game_check(app_id, i).into_bytes())
}

/// [`engine::game_args`]: input the address ‖ the solution; bytes out.
#[cfg(feature = "play")]
#[no_mangle]
pub extern "C" fn game_args(app_id: u64, len: usize) -> usize {
    answer(len, |i| engine::game_args(app_id, i))
}

/// [`engine::game_shard`]: input the 32-byte address.
#[cfg(feature = "play")]
#[no_mangle]
pub extern "C" fn game_shard(app_id: u64, len: usize) -> usize {
    answer(len, |i| engine::game_shard(app_id, i).into_bytes())
}

/// [`engine::catalogue_shard`]: input the shard's records.
#[cfg(feature = "play")]
#[no_mangle]
pub extern "C" fn catalogue_shard(number: usize, len: usize) -> usize {
    answer(len, |i| engine::catalogue_shard(number, i).into_bytes())
}

/// [`engine::address_key`]: input the address's 58 characters.
#[cfg(feature = "play")]
#[no_mangle]
pub extern "C" fn address_key(len: usize) -> usize {
    answer(len, |i| engine::address_key(i).into_bytes())
}

/// [`engine::mirror`]: input `0` ‖ grid bytes, or `1` ‖ puzzle ‖ grid bytes.
#[cfg(feature = "play")]
#[no_mangle]
pub extern "C" fn mirror(len: usize) -> usize {
    answer(len, |i| engine::mirror(i).into_bytes())
}

/// [`engine::solve`]: input the 81-byte puzzle.
#[cfg(feature = "play")]
#[no_mangle]
pub extern "C" fn solve(len: usize) -> usize {
    answer(len, |i| engine::solve(i).into_bytes())
}

/// [`rater::hint`]: input the puzzle ‖ the current grid.
#[cfg(feature = "rate")]
#[no_mangle]
pub extern "C" fn hint(len: usize) -> usize {
    answer(len, |i| rater::hint(i).into_bytes())
}

/// [`rater::rate`]: input the 81-byte puzzle.
#[cfg(feature = "rate")]
#[no_mangle]
pub extern "C" fn rate(len: usize) -> usize {
    answer(len, |i| rater::rate(i).into_bytes())
}

/// [`curta::curta_start`]: input the 32-byte address.
#[cfg(feature = "play")]
#[no_mangle]
pub extern "C" fn curta_start(len: usize) -> usize {
    answer(len, |i| curta::curta_start(i).into_bytes())
}

/// [`curta::curta_check`]: input the start ‖ the board, 64 bytes each.
#[cfg(feature = "play")]
#[no_mangle]
pub extern "C" fn curta_check(len: usize) -> usize {
    answer(len, |i| curta::curta_check(i).into_bytes())
}
