//! Test-only generators and oracles, independent of the mirror's mask code.
//!
//! * [`Rng`]: a tiny SplitMix64 so that every generator is a pure function of
//!   a `u64` seed (proptest then only draws seeds and small parameters, which
//!   keeps 100 000+ cases fast in a debug build).
//! * [`solution`]: a valid grid, a seeded permutation of a base grid (digit
//!   relabeling, row swaps within bands, band swaps, column swaps within
//!   stacks, stack swaps, transpose).
//! * [`latin`]: a Latin square (rows and columns right) whose boxes are almost
//!   always wrong: a cyclic square `(s·r + c) mod 9` with rows, columns and
//!   digits permuted freely.
//! * [`original_oracle`]: what the original Algoku must do, predicted cell by
//!   cell from the arithmetic of `LOOKUP - cell` rather than by running masks.
#![allow(dead_code)]

use algoku_avm::{rule, AvmError, Rejection};

/// SplitMix64 (Vigna's constants).
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A value in `0..n` (slightly biased; fine for tests). `n > 0`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// Fisher–Yates.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }

    /// A random permutation of `0..n`.
    pub fn permutation(&mut self, n: usize) -> Vec<usize> {
        let mut p: Vec<usize> = (0..n).collect();
        self.shuffle(&mut p);
        p
    }
}

/// The canonical valid grid: `(3 (r mod 3) + r / 3 + c) mod 9 + 1`.
pub fn base_grid() -> [u8; 81] {
    let mut g = [0u8; 81];
    for (i, v) in g.iter_mut().enumerate() {
        let (r, c) = (i / 9, i % 9);
        *v = ((3 * (r % 3) + r / 3 + c) % 9 + 1) as u8;
    }
    g
}

/// A permutation of 0..9 that keeps the three bands (or stacks) of three:
/// the bands are shuffled, and the lines inside each.
fn band_permutation(rng: &mut Rng) -> Vec<usize> {
    let bands = rng.permutation(3);
    let mut out = Vec::with_capacity(9);
    for b in bands {
        for k in rng.permutation(3) {
            out.push(3 * b + k);
        }
    }
    out
}

/// A valid solution grid, a pure function of `seed`.
pub fn solution(seed: u64) -> [u8; 81] {
    let mut rng = Rng::new(seed);
    let base = base_grid();
    let digits = rng.permutation(9);
    let rows = band_permutation(&mut rng);
    let cols = band_permutation(&mut rng);
    let transpose = rng.below(2) == 1;
    let mut g = [0u8; 81];
    for r in 0..9 {
        for c in 0..9 {
            let v = base[9 * rows[r] + cols[c]];
            let v = digits[usize::from(v) - 1] as u8 + 1;
            let at = if transpose { 9 * c + r } else { 9 * r + c };
            g[at] = v;
        }
    }
    g
}

/// A Latin square with (almost always) broken boxes, a pure function of
/// `seed`: `(s·r + c) mod 9` for `s` coprime to 9, then rows, columns and
/// digits permuted freely.
pub fn latin(seed: u64) -> [u8; 81] {
    let mut rng = Rng::new(seed);
    let s = [1usize, 2, 4, 5, 7, 8][rng.below(6)];
    let rows = rng.permutation(9);
    let cols = rng.permutation(9);
    let digits = rng.permutation(9);
    let mut g = [0u8; 81];
    for r in 0..9 {
        for c in 0..9 {
            g[9 * r + c] = digits[(s * rows[r] + cols[c]) % 9] as u8 + 1;
        }
    }
    g
}

/// True iff every row and every column of an 81-byte grid holds 1..=9 once.
pub fn rows_and_columns_ok(g: &[u8]) -> bool {
    (0..9).all(|u| {
        let mut row = 0u16;
        let mut col = 0u16;
        for k in 0..9 {
            row |= 1 << g[9 * u + k].min(15);
            col |= 1 << g[9 * k + u].min(15);
        }
        row == 0x3fe && col == 0x3fe
    })
}

/// What the original Algoku does, predicted from arithmetic alone: the first
/// cell (in order), and within it the first of row, column, box, whose
/// `16 (unit + 1) - cell` is negative or is bit 144 (past an 18-byte mask)
/// decides the error; without one, the verdict is the rule's (the theorem of
/// contract.py's docstring).
pub fn original_oracle(g: &[u8]) -> Result<bool, Rejection> {
    if g.len() != 81 {
        return Err(Rejection::WrongLength { len: g.len() });
    }
    for (i, &cell) in g.iter().enumerate() {
        let units = [i / 9, i % 9, 3 * (i / 27) + (i % 9) / 3];
        for unit in units {
            let lookup = 16 * (unit as i64 + 1);
            let index = lookup - i64::from(cell);
            if index < 0 {
                return Err(Rejection::Avm(AvmError::MinusNegative));
            }
            if index >= 144 {
                return Err(Rejection::Avm(AvmError::SetbitIndex));
            }
        }
    }
    Ok(rule(g))
}
