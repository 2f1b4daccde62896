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
//!
//! The crate has no dependencies and never panics, whatever the input.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod algoku;
pub mod ops;

pub use algoku::{
    original, project, rule, Outcome, ParseOutcomeError, Rejection, BOX, COLUMN, GRID_SIZE, GROUP,
    LENGTH_MESSAGE, MASKS, ROW,
};
pub use ops::{AvmError, UnknownAvmError};
