//! Solve a puzzle and check its solution is unique, then generate a puzzle
//! from a seed: the same seed always gives the same puzzle.
//!
//! ```sh
//! cargo run -p algoku-sudoku --example solve_generate
//! ```

use algoku_sudoku::generator::{generate_puzzle, PuzzleOptions};
use algoku_sudoku::{count_solutions, solve, Grid};

/// A hard puzzle with 18 givens (a unique Sudoku has at least 17).
const PUZZLE: &str =
    "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";

fn main() {
    let puzzle: Grid = PUZZLE.parse().expect("the puzzle parses");
    println!("puzzle:    {puzzle} ({} clues)", puzzle.clue_count());
    match solve(&puzzle) {
        Some(solution) => println!("solution:  {solution}"),
        None => println!("solution:  none"),
    }
    // Counting stops at 2: enough to tell unique from several.
    println!("solutions: {}", count_solutions(&puzzle, 2));

    let seed = 7;
    let generated = generate_puzzle(&PuzzleOptions {
        seed,
        symmetric: true,
        ..PuzzleOptions::default()
    });
    println!(
        "generated: {} ({} clues, seed {seed}, symmetric)",
        generated.puzzle, generated.clues
    );
    println!("its solution: {}", generated.solution);
    println!("its solutions: {}", count_solutions(&generated.puzzle, 2));
}
