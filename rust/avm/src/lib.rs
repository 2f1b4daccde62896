//! The native mirror of Algoku: an AVM-exact Rust model of the contract.
//!
//! * [`ops`]: the AVM operations Algoku uses (`setbit`, `getbit`, `bitlen`,
//!   `b|`, `b&`, uint64 `-` and `+`, `getbyte`, `btoi`), with go-algorand's
//!   semantics and its exact error messages ([`AvmError`]).
//! * [`algoku`]: the verifier built from those operations, in two flavours —
//!   [`original`] (the original Algoku, which fails on some inputs) and
//!   [`project`] (this project's `contract.py`, which answers on every
//!   81-byte input) — the independent Sudoku [`rule`], and [`Outcome`], the
//!   serializable result of a call shared by the fixtures and the client.
//! * [`lanes`](mod@lanes): the one-call methods — [`lanes()`]
//!   (`is_valid_solution_lanes`) and [`solution_of`] (`is_solution_of`) — with
//!   [`solution_rule`], the plain rule `is_solution_of` answers. Both return
//!   `Result<bool, Rejection>` like [`project`]; `Outcome::from(..)` turns that
//!   into the serializable form.
//! * [`batch`]: `are_valid_solutions`, up to [`BATCH_MAX`] grids in one call
//!   ([`are_valid_solutions`]), the batch encoding ([`encode_grid`]) and the
//!   plain rule it answers ([`batch_rule`]).
//!
//! The crate has no dependencies and never panics, whatever the input.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod algoku;
pub mod batch;
pub mod lanes;
pub mod ops;
pub mod reason;

pub use algoku::{
    original, project, rule, Outcome, ParseOutcomeError, Rejection, BOX, COLUMN, GRID_SIZE, GROUP,
    LENGTH_MESSAGE, MASKS, ROW,
};
pub use batch::{are_valid_solutions, batch_rule, encode_grid, BATCH_MAX};
pub use lanes::{
    lanes, solution_of, solution_rule, PUZZLE_LENGTH_MESSAGE, SOLUTION_LENGTH_MESSAGE,
};
pub use ops::{AvmError, UnknownAvmError};
pub use reason::{violation, why_false, REJECTED};
