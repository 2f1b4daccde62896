//! The grid's geometry as compile-time tables, the one home of each: the 27
//! units, every cell's 20 peers, the six permutations of three things; and
//! [`const_table!`](crate::const_table), the loop that builds such tables.
//!
//! Cells are numbered 0..81 row by row; units are rows 0..9, columns
//! 9..18, boxes 18..27 (the order [`Grid::check`](crate::Grid::check)
//! scans them), each unit's cells ascending.

/// Builds a look-up table at compile time: `const_table!(init, |i| entry)`
/// is `init` with entry `i` replaced by `entry` for every index. A macro
/// because a `const` cannot call a closure.
#[macro_export]
macro_rules! const_table {
    ($init:expr, |$i:ident| $entry:expr) => {{
        let mut table = $init;
        let mut $i = 0;
        while $i < table.len() {
            table[$i] = $entry;
            $i += 1;
        }
        table
    }};
}

/// The union of `part[i]` over the set bits `i` of `x` (0 for none).
pub const fn union_of(x: usize, part: &[u64]) -> u64 {
    let mut out = 0;
    let mut i = 0;
    while i < part.len() {
        if x & (1 << i) != 0 {
            out |= part[i];
        }
        i += 1;
    }
    out
}

/// The intersection of `part[i]` over the set bits `i` of `x` (0 for none).
pub const fn common_of(x: usize, part: &[u64]) -> u64 {
    if x == 0 {
        return 0;
    }
    let mut out = !0;
    let mut i = 0;
    while i < part.len() {
        if x & (1 << i) != 0 {
            out &= part[i];
        }
        i += 1;
    }
    out
}

/// The six permutations of 0, 1, 2 in lexicographic order, as `[image of
/// 0, 1, 2]`: band, row, stack and column permutations, and the solver's
/// band and stack configurations.
pub const PERM3: [[u8; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// The 81 cell indices of the 27 units: rows 0..9, columns 9..18, boxes
/// 18..27; each unit's cells ascending.
pub const UNITS: [[u8; 9]; 27] = const_table!([[0u8; 9]; 27], |u| {
    let mut cells = [0u8; 9];
    let mut k = 0;
    while k < 9 {
        let i = u % 9;
        cells[k] = match u / 9 {
            0 => i * 9 + k,
            1 => k * 9 + i,
            _ => ((i / 3) * 3 + k / 3) * 9 + (i % 3) * 3 + k % 3,
        } as u8;
        k += 1;
    }
    cells
});

/// Whether two distinct cells share a row, column or box.
pub const fn sees(a: usize, b: usize) -> bool {
    let same_box = a / 27 == b / 27 && (a % 9) / 3 == (b % 9) / 3;
    a != b && (a / 9 == b / 9 || a % 9 == b % 9 || same_box)
}

/// The 20 peers (same row, column or box) of every cell, ascending.
pub const PEERS: [[u8; 20]; 81] = const_table!([[0u8; 20]; 81], |i| {
    let mut peers = [0u8; 20];
    let (mut n, mut j) = (0, 0);
    while j < 81 {
        if sees(i, j) {
            peers[n] = j as u8;
            n += 1;
        }
        j += 1;
    }
    peers
});

/// Every cell's peers as a cell mask (bit `j` for cell `j`).
pub const PEER_MASKS: [u128; 81] = const_table!([0u128; 81], |i| cell_mask(&PEERS[i]));

/// Every unit's cells as a cell mask.
pub const UNIT_MASKS: [u128; 27] = const_table!([0u128; 27], |u| cell_mask(&UNITS[u]));

/// The cell mask of `cells`.
const fn cell_mask(cells: &[u8]) -> u128 {
    let mut mask = 0;
    let mut k = 0;
    while k < cells.len() {
        mask |= 1 << cells[k];
        k += 1;
    }
    mask
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_and_peers_agree() {
        for (c, &peers) in PEER_MASKS.iter().enumerate() {
            let holding: Vec<usize> = (0..27).filter(|&u| UNIT_MASKS[u] >> c & 1 == 1).collect();
            assert_eq!(holding, [c / 9, 9 + c % 9, 18 + (c / 27) * 3 + (c % 9) / 3]);
            let union = holding.iter().fold(0, |m, &u| m | UNIT_MASKS[u]);
            assert_eq!(peers, union & !(1 << c));
            assert_eq!(peers.count_ones(), 20);
        }
    }

    #[test]
    fn folds_over_bits() {
        let part = [1, 3, 6];
        assert_eq!((union_of(0, &part), common_of(0, &part)), (0, 0));
        assert_eq!((union_of(0b110, &part), common_of(0b110, &part)), (7, 2));
        assert_eq!(
            PERM3
                .iter()
                .collect::<std::collections::BTreeSet<_>>()
                .len(),
            6
        );
    }
}
