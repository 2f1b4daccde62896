//! Uniqueness check for a set of givens of a known grid.

use algoku_sudoku::{two_solutions, Grid};

use crate::{cells_of, Cells};

/// Checks givens of one grid.
pub struct Uniqueness {
    grid: Cells,
}

impl Uniqueness {
    /// The checker of `grid`'s givens.
    pub fn new(grid: &Cells) -> Self {
        Uniqueness { grid: *grid }
    }

    /// `None` if the grid's digits on `chosen` have the grid as unique
    /// solution, else the cells where another solution differs from it.
    pub fn second(&mut self, chosen: u128) -> Option<u128> {
        let mut cells = [0u8; 81];
        for c in cells_of(chosen) {
            cells[c] = self.grid[c];
        }
        let puzzle = Grid::from_cells(cells).expect("digits 1..=9");
        let (first, second) = two_solutions(&puzzle);
        let other = match (first, second) {
            (Some(a), _) if a.cells() != &self.grid => a,
            (_, Some(b)) => b,
            _ => return None,
        };
        let mut diff = 0u128;
        for (i, (&a, &b)) in other.cells().iter().zip(self.grid.iter()).enumerate() {
            if a != b {
                diff |= 1u128 << i;
            }
        }
        Some(diff)
    }
}
