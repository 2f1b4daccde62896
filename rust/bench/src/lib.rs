//! Benchmarks of Algoku's Sudoku engine against a peer, the `sudoku` crate.
//!
//! The benchmark is the harness-less bench target `benches/versus_sudoku.rs`:
//!
//! ```text
//! cargo bench -p algoku-bench -- all --passes 3     # solver (both modes) and generator
//! cargo bench -p algoku-bench -- solve --json       # machine-readable
//! ```
//!
//! It reads the puzzle files in `../shared/data/sudoku/` (or `--data DIR`), checks
//! that both solvers agree on every puzzle, and prints puzzles/s for both and the
//! ratio ours / peer, all measured in the same run.
//!
//! The peer is AGPL-3.0, so it is a dev-dependency of this unpublished crate only:
//! nothing that ships links it. This library is empty on purpose.
