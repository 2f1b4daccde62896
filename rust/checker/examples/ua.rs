//! The minimal unavoidable sets of a solved grid: cell sets whose digits can
//! be rearranged into another valid grid, so that every puzzle with a unique
//! solution keeps at least one given in each. Prints how many there are by
//! size, then the smallest ones as patterns (the grid's digits on the set's
//! cells). Takes well under a second.
//!
//! ```sh
//! cargo run -p algoku-checker --example ua [GRID]
//! ```

use std::collections::BTreeMap;
use std::process::ExitCode;

use algoku_checker::{collect, pattern, Cells, UaOptions};
use algoku_sudoku::Grid;

/// A solved grid, row by row.
const GRID: &str =
    "953168742862734951417952836746893125281645397395271468138529674574386219629417583";

fn main() -> ExitCode {
    let text = std::env::args().nth(1).unwrap_or_else(|| GRID.to_string());
    let grid = match Grid::parse(&text) {
        Ok(g) if g.is_complete() && g.check_solution().is_ok() => g,
        _ => {
            eprintln!("error: not a solved grid (81 digits 1-9): {text}");
            return ExitCode::from(2);
        }
    };
    let cells: &Cells = grid.cells();
    // Sets of up to 12 cells, from blanking up to 4 digits or 4 boxes at a time.
    let options = UaOptions {
        max_size: 12,
        ..UaOptions::default()
    };
    let sets = collect(cells, &options);
    println!("grid: {grid}");
    println!(
        "minimal unavoidable sets of at most {} cells: {}",
        options.max_size,
        sets.len()
    );
    let mut by_size = BTreeMap::new();
    for s in &sets {
        *by_size.entry(s.count_ones()).or_insert(0) += 1;
    }
    for (size, n) in &by_size {
        println!("size {size}: {n}");
    }
    // Sorted by size: the first ones are the smallest.
    for &s in sets.iter().take(5) {
        println!("set: {}", pattern(cells, s));
    }
    ExitCode::SUCCESS
}
