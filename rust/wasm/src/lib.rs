//! Algoku's engine for the web page: the game's derivation (rust/game), the
//! mirror's verdict and reason (rust/avm), the solver (rust/sudoku), the
//! rater's next step (rust/rate) and the 8x8 game (rust/curta), compiled for
//! `wasm32-unknown-unknown`.
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
//! exports' `no_mangle`) and the page
//! no allocator; each call overwrites the previous answer. What each request
//! holds is in the [`engine`] functions' docs.

#![warn(missing_docs)]

pub mod curta;
pub mod engine;

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
#[no_mangle]
pub extern "C" fn game_puzzle(app_id: u64, len: usize) -> usize {
    answer(len, |i| engine::game_puzzle(app_id, i).into_bytes())
}

/// [`engine::game_check`]: input the address ‖ the player's 81 cells.
#[no_mangle]
pub extern "C" fn game_check(app_id: u64, len: usize) -> usize {
    answer(len, |i| engine::game_check(app_id, i).into_bytes())
}

/// [`engine::game_args`]: input the address ‖ the solution; bytes out.
#[no_mangle]
pub extern "C" fn game_args(app_id: u64, len: usize) -> usize {
    answer(len, |i| engine::game_args(app_id, i))
}

/// [`engine::prepare`]: builds the catalogue tree now.
#[no_mangle]
pub extern "C" fn prepare() {
    engine::prepare();
}

/// [`engine::mirror`]: input `0` ‖ grid bytes, or `1` ‖ puzzle ‖ grid bytes.
#[no_mangle]
pub extern "C" fn mirror(len: usize) -> usize {
    answer(len, |i| engine::mirror(i).into_bytes())
}

/// [`engine::solve`]: input the 81-byte puzzle.
#[no_mangle]
pub extern "C" fn solve(len: usize) -> usize {
    answer(len, |i| engine::solve(i).into_bytes())
}

/// [`engine::hint`]: input the puzzle ‖ the current grid.
#[no_mangle]
pub extern "C" fn hint(len: usize) -> usize {
    answer(len, |i| engine::hint(i).into_bytes())
}

/// [`engine::rate`]: input the 81-byte puzzle.
#[no_mangle]
pub extern "C" fn rate(len: usize) -> usize {
    answer(len, |i| engine::rate(i).into_bytes())
}

/// [`curta::curta_start`]: input the 32-byte address.
#[no_mangle]
pub extern "C" fn curta_start(len: usize) -> usize {
    answer(len, |i| curta::curta_start(i).into_bytes())
}

/// [`curta::curta_check`]: input the start ‖ the board, 64 bytes each.
#[no_mangle]
pub extern "C" fn curta_check(len: usize) -> usize {
    answer(len, |i| curta::curta_check(i).into_bytes())
}
