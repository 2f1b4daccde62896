//! The bitmap tables of the search: UA sets by index with per-cell
//! bitmaps, and the global composite lists.

use crate::cells_of;
use crate::composite::ND;

/// UA sets by index, and per cell the bitmap of the sets containing it.
#[derive(Clone)]
pub(super) struct Table<const W: usize> {
    pub(super) sets: Vec<u128>,
    pub(super) cell: Box<[Bits<W>; 81]>,
}

impl<const W: usize> Table<W> {
    pub(super) fn new() -> Self {
        Table {
            sets: Vec::with_capacity(W * 64),
            cell: Box::new([Bits::ZERO; 81]),
        }
    }

    pub(super) fn len(&self) -> usize {
        self.sets.len()
    }

    pub(super) fn full(&self) -> bool {
        self.sets.len() >= W * 64
    }

    /// Replaces the content with `sets` (at most `W`·64 of them), building
    /// the cell bitmaps 64 sets at a time by bit-matrix transposition.
    /// With `tail`, the words after the last set are zeroed too (readers
    /// of whole rows need it; the composite tables are read up to their
    /// last set only).
    #[inline(always)]
    pub(super) fn fill(&mut self, sets: &[u128], tail: bool) {
        let n = sets.len().min(W * 64);
        self.sets.clear();
        self.sets.extend_from_slice(&sets[..n]);
        for (w, block) in sets[..n].chunks(64).enumerate() {
            let mut lo = [0u64; 64];
            let mut hi = [0u32; 64];
            for (k, &m) in block.iter().enumerate() {
                lo[k] = m as u64;
                hi[k] = (m >> 64) as u32;
            }
            transpose(&mut lo);
            let hi = transpose_hi(&mut hi);
            for (cell, &bits) in self.cell.iter_mut().zip(lo.iter().chain(hi.iter())) {
                cell[w] = bits;
            }
        }
        if tail {
            let used = n.div_ceil(64);
            for c in self.cell.iter_mut() {
                for x in &mut c[used..] {
                    *x = 0;
                }
            }
        }
    }

    /// Makes this table a copy of `other`, reusing the allocations.
    pub(super) fn copy_from(&mut self, other: &Self) {
        self.sets.clear();
        self.sets.extend_from_slice(&other.sets);
        *self.cell = *other.cell;
    }

    /// Appends `set` (the caller checked there is room); returns its index.
    pub(super) fn push(&mut self, set: u128) -> usize {
        let j = self.sets.len();
        self.sets.push(set);
        for c in cells_of(set) {
            self.cell[c][j / 64] |= 1 << (j % 64);
        }
        j
    }
}

/// Transposes the square bit matrix of 64 words: afterwards bit k of row c is what bit
/// c of row k was (rows are words, bit 0 the lowest).
#[inline(always)]
pub(super) fn transpose(a: &mut [u64; 64]) {
    // Swap the off-diagonal j×j blocks for j = 32, 16, …, 1; each step's
    // inner loop runs over j consecutive rows (vectorised for j ≥ 4).
    #[inline(always)]
    fn step<const J: usize>(a: &mut [u64; 64], m: u64) {
        for block in a.chunks_exact_mut(2 * J) {
            let (x, y) = block.split_at_mut(J);
            for (p, q) in x.iter_mut().zip(y.iter_mut()) {
                let t = ((*p >> J) ^ *q) & m;
                *p ^= t << J;
                *q ^= t;
            }
        }
    }
    step::<32>(a, 0x0000_0000_ffff_ffff);
    step::<16>(a, 0x0000_ffff_0000_ffff);
    step::<8>(a, 0x00ff_00ff_00ff_00ff);
    step::<4>(a, 0x0f0f_0f0f_0f0f_0f0f);
    step::<2>(a, 0x3333_3333_3333_3333);
    step::<1>(a, 0x5555_5555_5555_5555);
}

/// The transposition of the high halves (cells 64–80) of 64 sets: `hi[k]`
/// holds bits 64.. of set k (17 bits); row r of the result is the bitmap
/// of the sets holding cell 64 + r. The 17 bits fit 32-bit rows, so two
/// square transpositions of 32 rows each (eight rows to a 256-bit vector)
/// replace one on 64-bit rows.
#[inline(always)]
pub(super) fn transpose_hi(hi: &mut [u32; 64]) -> [u64; 17] {
    #[inline(always)]
    fn step<const J: usize>(a: &mut [u32; 64], m: u32) {
        // Both 32-row halves at once: blocks of 2J rows never straddle them.
        for block in a.chunks_exact_mut(2 * J) {
            let (x, y) = block.split_at_mut(J);
            for (p, q) in x.iter_mut().zip(y.iter_mut()) {
                let t = ((*p >> J) ^ *q) & m;
                *p ^= t << J;
                *q ^= t;
            }
        }
    }
    step::<16>(hi, 0x0000_ffff);
    step::<8>(hi, 0x00ff_00ff);
    step::<4>(hi, 0x0f0f_0f0f);
    step::<2>(hi, 0x3333_3333);
    step::<1>(hi, 0x5555_5555);
    std::array::from_fn(|r| hi[r] as u64 | (hi[32 + r] as u64) << 32)
}

/// A bitmap of `W` words, aligned to a cache line (the AVX2 code reads
/// and writes it 32 bytes at a time, aligned).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(C, align(64))]
pub(super) struct Bits<const W: usize>(pub(super) [u64; W]);

impl<const W: usize> Bits<W> {
    pub(super) const ZERO: Self = Bits([0; W]);
}

impl<const W: usize> std::ops::Deref for Bits<W> {
    type Target = [u64; W];
    #[inline(always)]
    fn deref(&self) -> &[u64; W] {
        &self.0
    }
}

impl<const W: usize> std::ops::DerefMut for Bits<W> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [u64; W] {
        &mut self.0
    }
}

#[inline(always)]
pub(super) fn first_bit<const W: usize>(a: &Bits<W>) -> Option<usize> {
    // The first non-zero word from a mask of them (no branch per word).
    debug_assert!(W <= 64);
    let mut nz = 0u64;
    for (w, &x) in a.iter().enumerate() {
        nz |= ((x != 0) as u64) << w;
    }
    if nz == 0 {
        return None;
    }
    let w = nz.trailing_zeros() as usize;
    Some(w * 64 + a[w].trailing_zeros() as usize)
}

#[inline(always)]
pub(super) fn and_not<const W: usize>(a: &Bits<W>, b: &Bits<W>) -> Bits<W> {
    Bits(std::array::from_fn(|w| a[w] & !b[w]))
}

/// Whether every set of `a` is in `b`.
#[inline(always)]
pub(super) fn subset<const W: usize>(a: &Bits<W>, b: &Bits<W>) -> bool {
    a.iter().zip(b.iter()).all(|(&x, &y)| x & !y == 0)
}

/// Sets the bits `from..to`.
pub(super) fn set_range<const W: usize>(a: &mut Bits<W>, from: usize, to: usize) {
    let mut j = from;
    while j < to {
        let w = j / 64;
        let lo = j % 64;
        let hi = (to - w * 64).min(64);
        let bits = if hi - lo == 64 {
            u64::MAX
        } else {
            ((1u64 << (hi - lo)) - 1) << lo
        };
        a[w] |= bits;
        j = w * 64 + hi;
    }
}

/// The global composite lists of each degree ([`composite::global`]) with,
/// per cell, the bitmap of the composites holding it, so that a subtree's
/// unhit composites are found a word (64 composites) at a time: and-not
/// of its givens' bitmaps, then only the set bits are read, rather than
/// scanning the lists one composite at a time.
pub(super) struct Composites {
    pub(super) sets: [Vec<u128>; ND],
    /// Composites kept per degree in a subtree's table.
    pub(super) caps: [usize; ND],
    /// Givens left at which each degree's subtree table is made.
    pub(super) levels: [usize; ND],
    /// Per degree, 81 rows of `words[d]` words: bit j of row c is set when
    /// composite j holds cell c.
    pub(super) cell: [Vec<u64>; ND],
    pub(super) words: [usize; ND],
}

impl Composites {
    pub(super) fn new(sets: [Vec<u128>; ND], caps: [usize; ND], levels: [usize; ND]) -> Self {
        let words: [usize; ND] = std::array::from_fn(|d| sets[d].len().div_ceil(64));
        let cell = std::array::from_fn(|d| {
            let n = words[d];
            let mut cell = vec![0u64; 81 * n];
            for (w, block) in sets[d].chunks(64).enumerate() {
                let mut lo = [0u64; 64];
                let mut hi = [0u64; 64];
                for (k, &m) in block.iter().enumerate() {
                    lo[k] = m as u64;
                    hi[k] = (m >> 64) as u64;
                }
                transpose(&mut lo);
                transpose(&mut hi);
                for (c, &bits) in lo.iter().chain(hi.iter()).take(81).enumerate() {
                    cell[c * n + w] = bits;
                }
            }
            cell
        });
        Composites {
            sets,
            caps,
            levels,
            cell,
            words,
        }
    }

    /// Calls `f` on the first `cap` composites of degree index `d` that no
    /// cell of `chosen` hits, in list order.
    #[inline(always)]
    pub(super) fn unhit(&self, d: usize, chosen: u128, cap: usize, mut f: impl FnMut(u128)) {
        let n = self.words[d];
        let sets = &self.sets[d];
        let mut rows = [0usize; 81];
        let mut k = 0;
        for c in cells_of(chosen) {
            rows[k] = c * n;
            k += 1;
        }
        let rows = &rows[..k];
        let cell = &self.cell[d];
        let mut left = cap;
        for w in 0..n {
            let mut x = if w + 1 == n && !sets.len().is_multiple_of(64) {
                (1u64 << (sets.len() % 64)) - 1
            } else {
                u64::MAX
            };
            for &r in rows {
                x &= !cell[r + w];
            }
            while x != 0 {
                if left == 0 {
                    return;
                }
                left -= 1;
                f(sets[w * 64 + x.trailing_zeros() as usize]);
                x &= x - 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ALL;

    #[test]
    fn fill_builds_the_same_cell_bitmaps_as_push() {
        let mut rng = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        let sets: Vec<u128> = (0..200)
            .map(|_| ((next() as u128) << 64 | next() as u128) & ALL)
            .collect();
        let mut a = Table::<4>::new();
        let mut b = Table::<4>::new();
        for (from, to) in [(0, 0), (0, 64), (3, 70), (64, 256), (5, 6), (100, 200)] {
            let mut x = Bits([0u64; 4]);
            set_range(&mut x, from, to);
            let mut y = [0u64; 4];
            for j in from..to {
                y[j / 64] |= 1 << (j % 64);
            }
            assert_eq!(x.0, y, "{from}..{to}");
        }
        b.fill(&[ALL; 256], true);
        b.fill(&sets, true);
        for &s in &sets {
            a.push(s);
        }
        assert_eq!(a.sets, b.sets);
        assert_eq!(a.cell, b.cell);
    }
}
