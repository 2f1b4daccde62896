//! The 24 units of the 8x8 grid: 8 rows, 8 columns and 8 boxes of 2 rows × 4 columns.
//!
//! Box `b` (0..8) covers rows `2(b/2)` and `2(b/2)+1` and columns `4(b%2)..4(b%2)+3`; its
//! top-left squares are 0, 4, 16, 20, 32, 36, 48, 52. Numbering is 0-based everywhere.

use core::fmt;

/// A row, column or box, each numbered 0..8.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Unit {
    /// Row `r`: squares `8r..8r+7`.
    Row(usize),
    /// Column `c`: squares `c, c+8, ..., c+56`.
    Column(usize),
    /// Box `b`: 2 rows × 4 columns, see the module docs.
    Box(usize),
}

impl Unit {
    /// The 8 squares of the unit in increasing order.
    pub fn squares(self) -> [usize; 8] {
        match self {
            Unit::Row(r) => core::array::from_fn(|i| 8 * r + i),
            Unit::Column(c) => core::array::from_fn(|i| c + 8 * i),
            Unit::Box(b) => {
                let top = 16 * (b / 2) + 4 * (b % 2);
                core::array::from_fn(|i| top + 8 * (i / 4) + i % 4)
            }
        }
    }

    /// All 24 units: rows 0..8, then columns 0..8, then boxes 0..8.
    pub fn all() -> impl Iterator<Item = Unit> {
        (0..8)
            .map(Unit::Row)
            .chain((0..8).map(Unit::Column))
            .chain((0..8).map(Unit::Box))
    }
}

/// Displays 1-based, as `algoku check` does: `Unit::Row(0)` is "row 1".
impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unit::Row(i) => write!(f, "row {}", i + 1),
            Unit::Column(i) => write!(f, "column {}", i + 1),
            Unit::Box(i) => write!(f, "box {}", i + 1),
        }
    }
}

/// The box (0..8) of square `k`.
pub(crate) const fn box_of(k: usize) -> usize {
    (k / 16) * 2 + (k % 8) / 4
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_partition_the_grid() {
        let mut count = [0u8; 64];
        for u in Unit::all() {
            for k in u.squares() {
                count[k] += 1;
            }
        }
        assert!(count.iter().all(|&c| c == 3));
        let tops: Vec<usize> = (0..8).map(|b| Unit::Box(b).squares()[0]).collect();
        assert_eq!(tops, [0, 4, 16, 20, 32, 36, 48, 52]);
        assert_eq!(Unit::Box(2).squares(), [16, 17, 18, 19, 24, 25, 26, 27]);
        for b in 0..8 {
            assert!(Unit::Box(b).squares().iter().all(|&k| box_of(k) == b));
        }
    }
}
