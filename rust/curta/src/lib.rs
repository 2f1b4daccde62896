//! fiveoutofnine's Curta puzzle #1, "two times four is eight": an 8x8 Sudoku whose boxes are 2 rows by
//! 4 columns, reproduced bit-for-bit with the Solidity contract `TwoTimesFourIsEight`.
//!
//! * [`generate()`] / [`generate_from_seed`]: the player's start position from
//!   `keccak256(address bytes)` ([`parse_address`] reads Ethereum and Algorand addresses);
//! * [`verify()`]: the contract's check of a solution against a start, with its exact
//!   `uint256` semantics; [`is_valid_solution`] states the same rule mathematically and
//!   names the first [`Violation`] — the two agree on every input (proof in [`mod@verify`]);
//! * [`solve`] / [`count_solutions`]: an exact solver, which also detects the generated
//!   starts that have no solution at all (the contract's comment claims there are none);
//! * [`break_solution`]: deterministic broken solutions by [`BreakKind`], for tests.
//!
//! A board is a [`U256`] with 4 bits per square, square 0 in the least significant nibble;
//! see [`mod@board`] for the layout and the hex and grid text forms.
//!
//! ```
//! use algoku_curta::{generate, parse_address, solve, verify, Board};
//!
//! let start = generate(&parse_address("0x0000000000000000000000000000000000000000").unwrap());
//! assert_eq!(
//!     start,
//!     Board::from_hex("0000000000003000007001000000000000000040500000060000000000020008").unwrap()
//! );
//! let solution = solve(&start).expect("this start is solvable");
//! assert!(verify(&start, &solution));
//! ```

#![warn(missing_docs)]

pub mod address;
pub mod board;
pub mod broken;
pub mod error;
pub mod generate;
pub mod solver;
pub mod u256;
pub mod units;
pub mod verify;

pub use address::{algorand_address, parse_address};
pub use board::Board;
pub use broken::{break_solution, BreakKind};
pub use error::ParseError;
pub use generate::{generate, generate_from_seed, keccak256};
pub use solver::{count_solutions, solve};
pub use u256::U256;
pub use units::Unit;
pub use verify::{is_valid_solution, verify, Violation};
