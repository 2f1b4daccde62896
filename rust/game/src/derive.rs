//! Each address's puzzle: a catalogue index and a Sudoku isomorphism, derived
//! from `h = SHA-256(app_id as 8 bytes big-endian || 32-byte address)`.
//!
//! * index = `uint64(h[0..8]) % 49 158`;
//! * transpose = `h[8] & 1`; band = `h[9] % 6`, stack = `h[10] % 6`, the row
//!   permutations of bands 0, 1, 2 = `h[11..14] % 6`, the column permutations
//!   of stacks 0, 1, 2 = `h[14..17] % 6` (each picks one of [`PERM3`]);
//! * the digit relabelling, built like the rows: the digits 1..9 form three
//!   triples {1,2,3}, {4,5,6}, {7,8,9}; triple `i` goes to triple
//!   `PERM3[h[17] % 6][i]`, inside it digit `j` to `PERM3[h[18 + i] % 6][j]`,
//!   and the result is rotated by `k = h[21] % 9`: digit `d = 3i + j + 1`
//!   becomes `(3 * PERM3[q][i] + PERM3[p_i][j] + k) % 9 + 1`. These are 3 888
//!   distinct relabellings (the 1 296 that keep the triples, times 9
//!   rotations, of which 3 keep the triples too): 17 table look-ups on the
//!   AVM instead of a 9-step shuffle, which would not fit a solve in two app
//!   calls' budget.
//!
//! One byte per choice keeps the contract cheap (no long division); `% 6` of
//! a byte picks 4 of the 6 permutations with probability 43/256 and 2 with
//! 42/256, `% 9` one rotation with 28/256 and the others 29/256: every
//! isomorphism stays possible.
//!
//! Catalogue row `r = 3i + j` (band `i`) goes to player row
//! `R = 3 * PERM3[band][i] + PERM3[row_i][j]`, column `k = 3s + t` to
//! `C = 3 * PERM3[stack][s] + PERM3[column_s][t]`; cell `(r, k)` goes to `(R,
//! C)`, or to `(C, R)` when transposed. Each step maps a valid grid to a valid
//! grid and is a bijection on cells, so a puzzle with one solution becomes a
//! puzzle with one solution (the image of that solution), with the same 17
//! givens, and minimality is kept too.
//!
//! How rarely two addresses share a puzzle: the distinct choices number
//! `49 158 * 2 * 6^8 * 3 888 ≈ 6.4e14`; two puzzles of the same index
//! coincide only when the two isomorphisms differ by an automorphism of the
//! puzzle, which almost no 17-clue puzzle has. Two addresses draw the same
//! choices with probability at most that of the likeliest outcome times the
//! 3 ways to reach one relabelling, `3 (1/49 158) (1/2) (43/256)^12 (29/256)
//! ≈ 1.7e-15`: one pair in 500 trillion; among 10 000 players some two share a
//! puzzle with probability below `1e-7`, among a million below `1e-3`.

pub use algoku_sudoku::geometry::PERM3;
use sha2::{Digest, Sha256};

use crate::catalogue::COUNT;

/// An address's puzzle: the catalogue index and the isomorphism.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Derived {
    /// The catalogue index.
    pub index: usize,
    /// Whether rows and columns are exchanged last.
    pub transpose: bool,
    /// Catalogue row → player row before the transpose.
    pub rows: [u8; 9],
    /// Catalogue column → player column before the transpose.
    pub columns: [u8; 9],
    /// Digit `d` (1..9) becomes `digits[d]`; `digits[0] = 0`.
    pub digits: [u8; 10],
}

/// `SHA-256(app_id (8 bytes, big-endian) || address)`.
pub fn seed(app_id: u64, address: &[u8; 32]) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(app_id.to_be_bytes());
    h.update(address);
    h.finalize().into()
}

fn line_map(outer: usize, inner: [usize; 3]) -> [u8; 9] {
    let mut out = [0u8; 9];
    for i in 0..3 {
        for j in 0..3 {
            out[3 * i + j] = 3 * PERM3[outer][i] + PERM3[inner[i]][j];
        }
    }
    out
}

/// The derivation for `address` on app `app_id` (see the module docs).
pub fn derive(app_id: u64, address: &[u8; 32]) -> Derived {
    let h = seed(app_id, address);
    let word = |k: usize| u64::from_be_bytes(h[8 * k..8 * k + 8].try_into().expect("8 bytes"));
    let index = (word(0) % COUNT as u64) as usize;
    let six = |k: usize| (h[k] % 6) as usize;
    let (band, stack) = (six(9), six(10));
    let row_perms = [six(11), six(12), six(13)];
    let column_perms = [six(14), six(15), six(16)];
    let (q, k) = (six(17), h[21] % 9);
    let mut digits = [0u8; 10];
    for i in 0..3 {
        let p = six(18 + i);
        for j in 0..3 {
            digits[3 * i + j + 1] = (3 * PERM3[q][i] + PERM3[p][j] + k) % 9 + 1;
        }
    }
    Derived {
        index,
        transpose: h[8] & 1 == 1,
        rows: line_map(band, row_perms),
        columns: line_map(stack, column_perms),
        digits,
    }
}

impl Derived {
    /// Where catalogue cell `c` goes in the player's grid.
    pub fn cell(&self, c: usize) -> usize {
        let (r, k) = (self.rows[c / 9] as usize, self.columns[c % 9] as usize);
        if self.transpose {
            9 * k + r
        } else {
            9 * r + k
        }
    }

    /// The image of a catalogue grid (puzzle or solution) in the player's frame.
    pub fn map(&self, cells: &[u8; 81]) -> [u8; 81] {
        let mut out = [0u8; 81];
        for (c, &d) in cells.iter().enumerate() {
            out[self.cell(c)] = self.digits[d as usize];
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_are_permutations() {
        for n in 0..500u64 {
            let mut addr = [0u8; 32];
            addr[..8].copy_from_slice(&n.to_be_bytes());
            let d = derive(1000 + n, &addr);
            assert!(d.index < COUNT);
            let mut cells: Vec<usize> = (0..81).map(|c| d.cell(c)).collect();
            cells.sort_unstable();
            assert_eq!(cells, (0..81).collect::<Vec<_>>());
            let mut digits = d.digits;
            digits.sort_unstable();
            assert_eq!(digits, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
            for band in 0..3 {
                let b: Vec<u8> = (0..3).map(|j| d.rows[3 * band + j] / 3).collect();
                assert!(
                    b.iter().all(|&x| x == b[0]),
                    "rows of a band stay in one band"
                );
            }
        }
    }
}
