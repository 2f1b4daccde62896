//! Algoku's 9x9 Sudoku engine: the [`Grid`] type and its text format,
//! validity checks, a fast bitboard solver, and a deterministic puzzle
//! generator built on the [`SplitMix64`] generator.
//!
//! Modules:
//! - [`rng`]: [`SplitMix64`], a deterministic PRNG whose output is fixed forever.
//! - [`grid`]: [`Grid`], parsing/printing, [`grid::Grid::check`], the solution rule and
//!   [`grid::Grid::check_solution_of`] (a solution of a puzzle, or the [`Violation`]).
//! - [`solver`]: [`solve`], [`count_solutions`] and [`Solver`] (band bitboards).
//! - [`generator`]: random complete grids and unique-solution puzzles.
//! - [`geometry`]: units, peers and the permutations of three as compile-time tables.
//! - [`isa`]: the AVX2 token and feature list the solver and the grid checker share.
//! - [`transform`]: digit relabelling, row/column/band/stack permutations, transpose.
//!
//! ```
//! use algoku_sudoku::{count_solutions, solve, Grid};
//! use algoku_sudoku::generator::{generate_puzzle, solution_grid, PuzzleOptions};
//!
//! let p: Grid = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"
//!     .parse()
//!     .unwrap();
//! let s = solve(&p).unwrap();
//! assert!(s.check_solution().is_ok() && p.is_subset_of(&s));
//! assert_eq!(s.check_solution_of(&p), Ok(())); // both at once, or the reason
//! assert_eq!(count_solutions(&p, 2), 1); // unique
//!
//! // Deterministic generation: the same seed always gives the same bytes.
//! let g = generate_puzzle(&PuzzleOptions { seed: 7, ..Default::default() });
//! assert_eq!(g.solution, solution_grid(7));
//! assert_eq!(count_solutions(&g.puzzle, 2), 1);
//! ```
// The one exception, with its safety argument: the calls into the AVX2
// copy of the search (`solver::code`), which hold an `isa::Avx2`.
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod generator;
pub mod geometry;
pub mod grid;
pub mod isa;
pub mod rng;
pub mod solver;
pub mod transform;

pub use grid::{is_valid_solution_bytes, Grid, ParseError, Unit, Violation};
pub use rng::SplitMix64;
pub use solver::{count_solutions, solve, two_solutions, SolveResult, Solver};
