//! A renumbering of the cells for the search (GridChecker's remapping).
//!
//! The search branches on the live cells of an unhit UA set lowest number
//! first, and each later sibling has the earlier cells dead. Numbering
//! first the cells that lie in many small UA sets makes the first branch
//! hit the most sets and gives the later siblings dead cells that empty
//! or shrink the most sets, which prunes more (far fewer nodes:
//! docs/benchmarks.md).
//!
//! The weight of a cell is the sum over the UA sets containing it of
//! 10⁶ / 10⁴ / 10² / 1 for a set of size 4 / 6 / 8 / 9. Then six times the
//! most connected set of size 4–6 (sum of its cells' weights over its size
//! squared) is picked and its cells get a decreasing boost (1.6·10⁸, then
//! half of it each time), so that sets sharing cells with the first ones
//! come next. Cells are numbered by weight, heaviest first (ties by cell).
//! The search works in the new numbering: UA sets and `--given` are mapped
//! in, the solver's candidates and the puzzles found are mapped back.

use crate::{cells_of, ALL};

/// A permutation of the 81 cells.
pub struct Remap {
    /// New number of each cell.
    to_new: [u8; 81],
    /// Cell of each new number.
    to_old: [u8; 81],
}

/// Boosts of the six most connected small sets.
const BOOST: [i64; 6] = [
    160_000_000,
    80_000_000,
    40_000_000,
    20_000_000,
    10_000_000,
    5_000_000,
];

impl Remap {
    /// The renumbering for a grid with UA sets `uas` (any order).
    pub fn new(uas: &[u128]) -> Self {
        let weight = |n: u32| -> i64 {
            match n {
                4 => 1_000_000,
                6 => 10_000,
                8 => 100,
                9 => 1,
                _ => 0,
            }
        };
        let mut pop = [0i64; 81];
        for &u in uas {
            let w = weight(u.count_ones());
            for c in cells_of(u & ALL) {
                pop[c] += w;
            }
        }
        let mut small: Vec<u128> = uas
            .iter()
            .map(|&u| u & ALL)
            .filter(|u| (1..=6).contains(&u.count_ones()))
            .collect();
        small.sort_unstable_by_key(|&m| (m.count_ones(), m));
        small.dedup();
        for boost in BOOST.iter().take(small.len()) {
            let score = |u: u128| -> i64 {
                let n = u.count_ones() as i64;
                cells_of(u).map(|c| pop[c]).sum::<i64>() / (n * n)
            };
            let mut best = 0;
            for (i, &u) in small.iter().enumerate() {
                if score(u) > score(small[best]) {
                    best = i;
                }
            }
            let u = small.remove(best);
            for c in cells_of(u) {
                pop[c] += boost;
            }
        }
        let mut order: Vec<usize> = (0..81).collect();
        order.sort_by_key(|&c| (std::cmp::Reverse(pop[c]), c));
        let mut to_new = [0u8; 81];
        let mut to_old = [0u8; 81];
        for (n, &c) in order.iter().enumerate() {
            to_new[c] = n as u8;
            to_old[n] = c as u8;
        }
        Remap { to_new, to_old }
    }

    fn map(tab: &[u8; 81], m: u128) -> u128 {
        cells_of(m & ALL).fold(0, |acc, c| acc | 1u128 << tab[c])
    }

    /// A mask of grid cells in the search's numbering.
    pub fn fwd(&self, m: u128) -> u128 {
        Self::map(&self.to_new, m)
    }

    /// A mask in the search's numbering as grid cells.
    pub fn back(&self, m: u128) -> u128 {
        Self::map(&self.to_old, m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn is_a_permutation_and_puts_the_small_sets_first() {
        let rect: u128 = 1 << 0 | 1 << 1 | 1 << 9 | 1 << 10;
        let other: u128 = 1 << 70 | 1 << 71 | 1 << 79 | 1 << 80;
        let r = Remap::new(&[rect, other, (1u128 << 40) | (1 << 41) | (1 << 42)]);
        let mut seen = 0u128;
        for c in 0..81 {
            assert_eq!(r.to_old[r.to_new[c] as usize] as usize, c);
            seen |= 1u128 << r.to_new[c];
        }
        assert_eq!(seen, ALL);
        assert_eq!(
            r.back(r.fwd(0x1234_5678_9abc_def0_1234)),
            0x1234_5678_9abc_def0_1234
        );
        // Both rectangles' cells come first (the first boosted one lowest).
        assert_eq!(r.fwd(rect) | r.fwd(other), 0xff);
    }
}
