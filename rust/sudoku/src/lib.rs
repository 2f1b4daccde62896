//! Algoku's 9×9 Sudoku engine: the [`Grid`] type and its text format,
//! validity checks, a fast bitboard solver, and a deterministic puzzle
//! generator built on the [`SplitMix64`] generator.
//!
//! Modules:
//! - [`rng`]: [`SplitMix64`], a deterministic PRNG whose output is fixed forever.
//! - [`grid`]: [`Grid`], parsing/printing, [`grid::Grid::check`] and the solution rule.
//! - [`solver`]: [`solve`], [`count_solutions`] and [`Solver`] (band bitboards).
//! - [`generator`]: random complete grids and unique-solution puzzles.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod generator;
pub mod grid;
pub mod rng;
pub mod solver;

pub use grid::{is_valid_solution_bytes, Grid, ParseError, Unit, Violation};
pub use rng::SplitMix64;
pub use solver::{count_solutions, solve, SolveResult, Solver};
