//! Validity-preserving Sudoku transformations (isomorphs), for benchmarks and
//! tests that must not depend on a puzzle's orientation or digit names.
//!
//! A [`Transform`] relabels the digits, permutes the bands and the rows within
//! each band, the stacks and the columns within each stack, and optionally
//! transposes the grid. Each of these maps a valid grid to a valid grid and a
//! puzzle with `n` solutions to a puzzle with `n` solutions, so a solver's
//! answers carry over while its search order (and so its effort) changes.
//! tdoku's benchmark measures solvers on such randomly transformed copies; a
//! file's own order can flatter a search whose choices depend on orientation.
//!
//! [`Transform::random`] draws every part uniformly from a [`SplitMix64`], so
//! the same seed gives the same copies byte for byte ([`isomorphs`] draws one
//! transform per puzzle from one generator seeded with `seed`).

use crate::grid::Grid;
use crate::rng::SplitMix64;

/// A Sudoku isomorphism: cell `(r, c)` of the output holds
/// `digits[v]` where `v` is the input's cell `(rows[r], cols[c])`, read after
/// transposing the input when `transpose` is set (0 stays 0).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Transform {
    /// `digits[v]` is the new name of digit `v` (1..=9); `digits[0] == 0`.
    pub digits: [u8; 10],
    /// Source row of each output row (bands and rows within bands permuted).
    pub rows: [u8; 9],
    /// Source column of each output column (stacks and columns within them).
    pub cols: [u8; 9],
    /// Transpose the input first.
    pub transpose: bool,
}

impl Transform {
    /// The identity transform.
    pub const IDENTITY: Transform = Transform {
        digits: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
        rows: [0, 1, 2, 3, 4, 5, 6, 7, 8],
        cols: [0, 1, 2, 3, 4, 5, 6, 7, 8],
        transpose: false,
    };

    /// A uniformly random transform drawn from `rng` (digits, then rows, then
    /// columns, then the transpose bit; the draw order is fixed forever).
    pub fn random(rng: &mut SplitMix64) -> Transform {
        let mut names = [1u8, 2, 3, 4, 5, 6, 7, 8, 9];
        rng.shuffle(&mut names);
        let mut digits = [0u8; 10];
        digits[1..].copy_from_slice(&names);
        let rows = line_permutation(rng);
        let cols = line_permutation(rng);
        let transpose = rng.next_u64() & 1 == 1;
        Transform {
            digits,
            rows,
            cols,
            transpose,
        }
    }

    /// Applies the transform to `grid`.
    pub fn apply(&self, grid: &Grid) -> Grid {
        let src = grid.cells();
        let mut out = [0u8; 81];
        for (r, row) in out.chunks_exact_mut(9).enumerate() {
            for (c, cell) in row.iter_mut().enumerate() {
                let (sr, sc) = (usize::from(self.rows[r]), usize::from(self.cols[c]));
                let v = if self.transpose {
                    src[9 * sc + sr]
                } else {
                    src[9 * sr + sc]
                };
                *cell = self.digits[usize::from(v.min(9))];
            }
        }
        Grid::from_cells(out).expect("a permutation of a grid's digits is a grid")
    }
}

/// A permutation of 9 lines that keeps bands (or stacks) together: the three
/// groups are permuted, then the three lines within each group.
fn line_permutation(rng: &mut SplitMix64) -> [u8; 9] {
    let mut groups = [0u8, 1, 2];
    rng.shuffle(&mut groups);
    let mut out = [0u8; 9];
    for (i, &g) in groups.iter().enumerate() {
        let mut inner = [0u8, 1, 2];
        rng.shuffle(&mut inner);
        for (j, &k) in inner.iter().enumerate() {
            out[3 * i + j] = 3 * g + k;
        }
    }
    out
}

/// One random isomorph per puzzle, all drawn from one generator seeded with
/// `seed`, in order (a prefix of the input gets a prefix of the output).
pub fn isomorphs(puzzles: &[Grid], seed: u64) -> Vec<Grid> {
    let mut rng = SplitMix64::new(seed);
    puzzles
        .iter()
        .map(|p| Transform::random(&mut rng).apply(p))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generator::solution_grid;

    #[test]
    fn identity_and_validity() {
        let s = solution_grid(5);
        assert_eq!(Transform::IDENTITY.apply(&s), s);
        let mut rng = SplitMix64::new(9);
        let mut moved = 0;
        for _ in 0..200 {
            let t = Transform::random(&mut rng);
            let g = t.apply(&s);
            assert_eq!(g.check_solution(), Ok(()));
            moved += usize::from(g != s);
        }
        assert!(moved > 190);
    }

    #[test]
    fn isomorphs_are_deterministic_prefixes() {
        let grids: Vec<Grid> = (0..10).map(solution_grid).collect();
        let a = isomorphs(&grids, 3);
        assert_eq!(a, isomorphs(&grids, 3));
        assert_eq!(a[..4], isomorphs(&grids[..4], 3)[..]);
        assert_ne!(a, isomorphs(&grids, 4));
    }
}
