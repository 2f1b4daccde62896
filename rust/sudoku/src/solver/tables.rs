//! The solver's look-up tables, built at compile time.

use crate::const_table;
use crate::geometry::{common_of, union_of, PERM3};

/// All 27 cells of a band.
pub(super) const BAND: u32 = 0o777_777_777;

/// [`PERM3`] as `u32`s, for the shifts below: a digit's row → box maps in
/// a band, or band → column maps in a stack.
pub(super) const PERMS: [[u32; 3]; 6] = const_table!([[0u32; 3]; 6], |p| {
    let [a, b, c] = PERM3[p];
    [a as u32, b as u32, c as u32]
});

/// Permutation `PERMS[p]` as a 3x3 0/1 matrix: bit `3r + PERMS[p][r]`.
pub(super) const fn perm_bits(p: usize) -> usize {
    let perm = PERMS[p];
    (1 << perm[0]) | (1 << (3 + perm[1])) | (1 << (6 + perm[2]))
}

/// For a 3x3 0/1 matrix `s` (bit `3r + k` = entry `(r, k)`), the
/// permutations `r -> k` inside it (all three `(r, k(r))` set): bit `p` for
/// `PERMS[p]`.
pub(super) const fn perms_inside(s: usize) -> u8 {
    let mut inside = 0u8;
    let mut p = 0;
    while p < 6 {
        let bits = perm_bits(p);
        if s & bits == bits {
            inside |= 1 << p;
        }
        p += 1;
    }
    inside
}

/// `PERM_BITS[p]` = [`perm_bits`]`(p)`.
const PERM_BITS: [u64; 6] = const_table!([0u64; 6], |p| perm_bits(p) as u64);

/// For a 3x3 0/1 matrix `s` (same layout), the entries that lie on at least
/// one permutation inside it, as a mask of the same layout; 0 when `s`
/// contains no permutation.
pub(super) const fn perm_keep(s: usize) -> u16 {
    union_of(perms_inside(s) as usize, &PERM_BITS) as u16
}

/// `PERM_KEEP[s]` = [`perm_keep`]`(s)`.
pub(super) const PERM_KEEP: [u16; 512] = const_table!([0u16; 512], |s| perm_keep(s));

/// The mini-row occupancy key of a band word: bit `3k + r` is set iff row
/// `r` has a candidate in box `k`. Computed without look-ups: `t` marks each
/// non-empty mini-row at its first cell (bits `9r + 3k`), and the three
/// shifts fold rows 1 and 2 onto bits `3k + 1` and `3k + 2`.
#[inline(always)]
pub(super) const fn minirow_key(m: u32) -> u32 {
    let t = (m | (m >> 1) | (m >> 2)) & 0o111_111_111;
    (t | (t >> 8) | (t >> 16)) & 0o777
}

/// A 3x3 0/1 matrix transposed: bit `3k + r` moves to bit `3r + k` (a
/// [`minirow_key`] into [`perm_keep`]'s layout).
pub(super) const fn transpose3(key: usize) -> usize {
    union_of(key, &TRANSPOSED_BIT) as usize
}

/// `TRANSPOSED_BIT[3k + r]` = bit `3r + k`.
const TRANSPOSED_BIT: [u64; 9] = const_table!([0u64; 9], |i| 1 << (3 * (i % 3) + i / 3));

/// `MINIROW_MASK[key]` for a [`minirow_key`]: the 27-bit mask of the cells
/// of every mini-row that lies on at least one row→box permutation inside
/// the occupancy; 0 when there is none (a contradiction).
pub(super) const MINIROW_MASK: [u32; 512] = const_table!([0u32; 512], |key| {
    MINIROW_SET[transpose3(perm_keep(transpose3(key)) as usize)]
});

/// `LOCKED_COLS[c]` for the 9-bit column projection `c` of a digit in a band:
/// the columns that are the only candidate column of their box (3-column
/// group). The digit is certainly in such a column within this band.
pub(super) const LOCKED_COLS: [u16; 512] = const_table!([0u16; 512], |c| {
    let mut locked = 0u16;
    let mut k = 0;
    while k < 3 {
        let g = (c >> (3 * k)) & 7;
        if g == 1 || g == 2 || g == 4 {
            locked |= (g << (3 * k)) as u16;
        }
        k += 1;
    }
    locked
});

/// `LOCK_KEEP[c]`: the band cells a digit keeps in the other bands when
/// its column projection in this band is `c` (every cell but those of
/// [`LOCKED_COLS`]'s columns).
pub(super) const LOCK_KEEP: [u32; 512] =
    const_table!([0u32; 512], |c| BAND & !spread_cols(LOCKED_COLS[c] as u32));

/// The cells of the rows of band word `m` that hold two or more candidates.
/// Every row of `m` is non-empty here (the in-band step guarantees it), so
/// subtracting 1 from each 9-bit row cannot borrow across rows and `y` keeps
/// a bit in a row iff that row has at least two. The shifts OR each row's 9
/// bits of `y` down onto the row's lowest bit, which the multiply spreads
/// back over the row.
#[inline(always)]
pub(super) const fn multi_rows(m: u32) -> u32 {
    let y = m & m.wrapping_sub(0o001_001_001);
    let a = y | (y >> 4);
    let b = a | (a >> 2);
    let c = b | (b >> 1) | (y >> 8);
    (c & 0o001_001_001) * 0o777
}

/// `ROWS_OF[s]`: the band cells of the rows in the 3-bit set `s`.
pub(super) const ROWS_OF: [u32; 8] = const_table!([0u32; 8], |s| {
    union_of(s, &[0o777, 0o777 << 9, 0o777 << 18]) as u32
});

/// Spreads a 9-bit column set over the three rows of a band.
#[inline(always)]
pub(super) const fn spread_cols(c: u32) -> u32 {
    c * 0o001_001_001
}

/// Projects a band word onto its 9 columns.
#[inline(always)]
pub(super) const fn project(m: u32) -> u32 {
    (m | (m >> 9) | (m >> 18)) & 0o777
}

/// `PLACE_MASK[p]` for a band position `p` (0..27): the band cells that stay
/// possible for a digit placed at `p`: `p` itself and every cell outside its
/// row and its box.
pub(super) const PLACE_MASK: [u32; 27] = const_table!([0u32; 27], |p| {
    let (r, c) = (p / 9, p % 9);
    let row = 0o777 << (9 * r);
    let bx = 0o007_007_007 << (3 * (c / 3));
    (BAND & !(row | bx)) | (1 << p)
});

/// At most this many bivalue cells are scored when choosing a guess (the
/// scan costs time). Only puzzles of at most 18 givens branch on cells with
/// scores (the others on configurations, or on the first bivalue cell);
/// fewer than 12 lose time on them, more gain nothing (docs/benchmarks.md).
pub(super) const GUESS_SCAN_LIMIT: usize = 16;

/// The column step ([`State::columns`]) runs before a guess only while at
/// least this many cells are open: it pays off on sparse grids (e.g. 17-clue
/// puzzles at the root) and costs more than it saves on fuller ones.
pub(super) const COLUMN_STEP_MIN_OPEN: u32 = 40;

/// Puzzles with at most this many givens are searched with the heavier
/// heuristics (degree-based choice among bivalue cells, the column step);
/// fuller puzzles take the first bivalue cell and skip the column step.
/// Their searches are short, so the heuristics' cost is not repaid there
/// (tdoku's hard benchmark sets have 17-28 givens, the multi-solution
/// `serg` set 34-35).
pub(super) const RICH_MAX_CLUES: usize = 32;

/// `VCONFIGS[s]` for a stack occupancy in [`perm_keep`]'s layout (bit
/// `3 * band + column`): bit `p` set iff `PERMS[p]` (band → column) fits
/// (a stack configuration of the digit: which column holds it in each band).
pub(super) const VCONFIGS: [u8; 512] = const_table!([0u8; 512], |s| perms_inside(s));

/// `CONFIGS[key]` for a [`minirow_key`]: bit `p` set iff permutation
/// `PERMS[p]` (row → box) lies inside the occupancy: a band configuration of
/// the digit, which box holds it in each row of the band. The same test as
/// [`VCONFIGS`] on the transposed key.
pub(super) const CONFIGS: [u8; 512] = const_table!([0u8; 512], |key| VCONFIGS[transpose3(key)]);

/// [`MINIROW_MASK`] in bits 0..27 and [`CONFIGS`] in bits 32..38 of one
/// entry: the in-band step reads both with one load.
pub(super) const MINIROW_ENTRY: [u64; 512] = const_table!([0u64; 512], |key| {
    MINIROW_MASK[key] as u64 | (CONFIGS[key] as u64) << 32
});

/// `CONFIG_MASK[p]`: the band cells of the mini-rows of permutation `PERMS[p]`.
pub(super) const CONFIG_MASK: [u32; 6] = const_table!([0u32; 6], |p| {
    let perm = PERMS[p];
    (7 << (3 * perm[0])) | (7 << (9 + 3 * perm[1])) | (7 << (18 + 3 * perm[2]))
});

/// Puzzles with exactly this many givens branch on cells (as all below
/// [`CONFIG_MIN_CLUES`]) but propagate as configuration mode does: the
/// configuration sets kept, the column step to a fixed point and the
/// triads before every guess. Their cell searches are long enough to repay
/// it; with 17 givens (half a branch point a puzzle) they are not, and
/// deciding by the open cells at the first stall instead was no better
/// (docs/benchmarks.md).
pub(super) const TRIAD_CELL_CLUES: usize = 18;

/// Puzzles with `CONFIG_MIN_CLUES..=RICH_MAX_CLUES` givens branch on band
/// and stack configurations (see [`State::config_choice`]). Sparser grids
/// keep cell branching: on near-empty grids configuration branching fixes
/// digits' configurations far ahead of any cell and searches huge trees
/// (hundreds of thousands of branches on 9-given grids), and even on proper
/// 17- and 18-clue puzzles it branches more, while from 20 givens up it
/// branches less everywhere (docs/benchmarks.md).
pub(super) const CONFIG_MIN_CLUES: usize = 19;

/// After this many branches in one solve the search falls back to cell
/// branching (sound at any point: only the order changes), so that an input
/// on which configuration branching goes astray still finishes quickly. The
/// benchmark sets average under 150 branches per puzzle.
pub(super) const CONFIG_BRANCH_BUDGET: u64 = 2000;

/// Configuration choices at stalls with at least this many open cells
/// (near the root of a search) take the band or stack with the fewest
/// unfixed digits and its digit with the most configurations; further down
/// the band with the fewest configurations and its digit with the fewest
/// ([`State::config_choice`]). Of the thresholds tried, 50 tries the
/// fewest alternatives on the forum_hardest sets for the least added on
/// magictour (docs/benchmarks.md).
///
/// Whether a solve uses that rule is decided once, at its first choice
/// with this many open cells: only if the band it would take has at most
/// [`NEAR_MAX_UNFIXED`] unfixed digits and at least [`NEAR_MIN_CONFIGS`]
/// configurations over its nine digits (else tdoku's choice throughout):
/// the rule wins on the forum_hardest roots of that kind and loses on roots
/// whose best band has seven or more unfixed digits or few configurations
/// (docs/benchmarks.md has the timings and the thresholds tried).
pub(super) const WIDE_OPEN: u32 = 50;
/// The near-root rule's band has at most this many unfixed digits…
pub(super) const NEAR_MAX_UNFIXED: u32 = 6;
/// …and at least this many configurations over its nine digits.
pub(super) const NEAR_MIN_CONFIGS: u32 = 27;

/// `FORCED_ROWS[c]` for a set `c` of band configurations ([`CONFIGS`]
/// bits): the mini-rows every one of them uses, as [`minirow_key`] bits
/// (`3k + r`); 0 for the empty set.
pub(super) const FORCED_ROWS: [u32; 64] =
    const_table!([0u32; 64], |c| common_of(c, &PERM_MINIROWS) as u32);

/// The mini-rows of permutation `PERMS[p]` (row `r` → box `PERMS[p][r]`),
/// as [`minirow_key`] bits (`3k + r`).
pub(super) const fn perm_minirows(p: usize) -> u32 {
    let perm = PERMS[p];
    (1 << (3 * perm[0])) | (1 << (3 * perm[1] + 1)) | (1 << (3 * perm[2] + 2))
}

/// `PERM_MINIROWS[p]` = [`perm_minirows`]`(p)`.
const PERM_MINIROWS: [u64; 6] = const_table!([0u64; 6], |p| perm_minirows(p) as u64);

/// The mini-columns of permutation `PERMS[p]` (band `b` → column
/// `PERMS[p][b]` of stack 0), as bits `9 * band + column`.
const PERM_MINICOLS: [u64; 6] = const_table!([0u64; 6], |p| {
    let perm = PERMS[p];
    (1 << perm[0]) | (1 << (9 + perm[1])) | (1 << (18 + perm[2]))
});

/// `FORCED_COLS[c]` for a set `c` of stack configurations ([`VCONFIGS`]
/// bits) of stack 0: the mini-columns every one of them uses, as bits
/// `9 * band + column` (shift by `3 * stack` for the other stacks); 0 for
/// the empty set.
pub(super) const FORCED_COLS: [u32; 64] =
    const_table!([0u32; 64], |c| common_of(c, &PERM_MINICOLS) as u32);

/// `POSSIBLE_ROWS[c]`: the mini-rows some configuration of `c` uses.
pub(super) const POSSIBLE_ROWS: [u32; 64] =
    const_table!([0u32; 64], |c| union_of(c, &PERM_MINIROWS) as u32);

/// [`FORCED_ROWS`] in bits 0..9 and [`POSSIBLE_ROWS`] in bits 32..41.
pub(super) const ROWS_FP: [u64; 64] = const_table!([0u64; 64], |c| {
    FORCED_ROWS[c] as u64 | (POSSIBLE_ROWS[c] as u64) << 32
});

/// `ROW_CUT[x]` for mini-rows `x` a digit must take: the band cells it
/// cannot then take (its rows outside those boxes, its boxes outside
/// those rows).
pub(super) const ROW_CUT: [u32; 512] = const_table!([0u32; 512], |x| {
    union_of(
        x,
        &const_table!([0u64; 9], |m| {
            let (k, r) = (m / 3, m % 3);
            let row = 0o777 << (9 * r);
            let boxc = 0o007_007_007 << (3 * k);
            (row | boxc) & !(7 << (9 * r + 3 * k))
        }),
    ) as u32
});

/// `COL_CUT[x]` for columns `x` (9 bits) a digit must take in a band: the
/// band cells of those columns' boxes outside them.
pub(super) const COL_CUT: [u32; 512] = const_table!([0u32; 512], |x| {
    union_of(
        x,
        &const_table!([0u64; 9], |c| {
            let stack = 0o007_007_007 << (3 * (c / 3));
            stack & !(0o001_001_001 << c)
        }),
    ) as u32
});

/// `MINIROW_SET[x]` for a set `x` of [`minirow_key`] bits (`3k + r`): the
/// band cells of those mini-rows.
pub(super) const MINIROW_SET: [u32; 512] = const_table!([0u32; 512], |x| {
    union_of(
        x,
        &const_table!([0u64; 9], |m| 7 << (9 * (m % 3) + 3 * (m / 3))),
    ) as u32
});

/// Bit-sliced counters over 64-bit masks: after `add`ing masks, bit `i`
/// of `(c1 c0)` counts the masks with bit `i` set, up to three, and `c2`
/// says more than three.
#[derive(Default, Clone, Copy)]
pub(super) struct Count64 {
    pub(super) c0: u64,
    pub(super) c1: u64,
    pub(super) c2: u64,
}

impl Count64 {
    #[inline(always)]
    pub(super) fn add(&mut self, x: u64) {
        let k0 = self.c0 & x;
        self.c0 ^= x;
        let k1 = self.c1 & k0;
        self.c1 ^= k0;
        self.c2 |= k1;
    }
    /// Positions counted exactly three times.
    #[inline(always)]
    pub(super) fn three(&self) -> u64 {
        self.c0 & self.c1 & !self.c2
    }
    /// Positions counted more than three times.
    #[inline(always)]
    pub(super) fn over_three(&self) -> u64 {
        self.c2
    }
    /// Positions counted fewer than three times.
    #[inline(always)]
    pub(super) fn under_three(&self) -> u64 {
        !(self.c2 | (self.c0 & self.c1))
    }
}

/// `NIBBLES[x]`: bit `c` of a 9-bit row moved to the low bit of nibble `c`
/// of a `u64`, so that adding rows counts per column.
pub(super) const NIBBLES: [u64; 512] = const_table!([0u64; 512], |x| {
    union_of(x, &const_table!([0u64; 9], |c| 1 << (4 * c)))
});

/// `ROW_BOX[p]`: the band cells in the row or the box of band position `p`.
pub(super) const ROW_BOX: [u32; 27] =
    const_table!([0u32; 27], |p| BAND & !PLACE_MASK[p] | (1 << p));

/// The word of digit `d` (0..9) in band `b` (0..3).
#[inline(always)]
pub(super) const fn wi(d: usize, b: usize) -> usize {
    9 * b + d
}

/// For word index `i = 9b + d`, the word indices of the same digit in the
/// two other bands.
pub(super) const OTHER_BANDS: [[u8; 2]; 27] = const_table!([[0u8; 2]; 27], |i| {
    [((i + 9) % 27) as u8, ((i + 18) % 27) as u8]
});
