//! Every puzzle with exactly N givens whose unique solution is a given grid.
//!
//! # The problem
//!
//! A set P of cells of a solved grid G is a puzzle for G (G is its unique
//! solution) iff P hits every unavoidable set of G (see [`crate::ua`]). So
//! the N-clue puzzles of G are the N-cell hitting sets of G's UA sets that
//! also pass a uniqueness check (the known UA list is never complete).
//!
//! # The search (McGuire's hitting-set search with dead clues and higher
//! degree sets, in GridChecker's bitmap mode)
//!
//! A node is (P = givens chosen, D = dead cells, k = givens still to place,
//! the set of known UA sets not hit by P).
//!
//! 1. **Branch.** Take an unhit UA set U (the smallest; with 2–5 givens
//!    left, the one with the fewest live cells among the first 16); its live cells
//!    (not dead) are c1..cm. Every solution contains one of them; branch i
//!    adds ci and marks c1..c(i-1) dead ("dead clues": the solutions
//!    containing an earlier cell were enumerated in an earlier sibling). The
//!    branches partition the solutions: each puzzle is found exactly once.
//!    A UA set whose live part is empty cannot be hit any more: prune.
//! 2. **Bound.** Pairwise disjoint unhit UA sets each need their own
//!    given, so more of them than k prunes the node (upper levels: a greedy
//!    pass over every unhit set; lower levels: composites, below, and with
//!    2–5 givens left a greedy pass over the live parts of the first 16).
//! 3. **Leaf.** When every known UA set is hit, check that P has G as its
//!    unique solution ([`crate::unique`], the project's bitboard solver
//!    asked for two solutions). A second
//!    solution S ≠ G differs from G on a set of cells that is unavoidable
//!    and not hit by P: it is *learned* and the search goes on from step 1.
//!    If P is unique, every way to add the k remaining givens among the live
//!    cells is a puzzle.
//!
//! # Bitmap mode
//!
//! The UA sets live in a `Table`: the sets (`u128` cell masks) by index,
//! sorted by size, and per cell a bitmap of the indices of the sets that
//! contain it. A node's unhit sets are a bitmap over indices ("alive");
//! adding given c is `alive & !cell[c]`, the smallest unhit set is the first
//! set bit, and "c hits every unhit set" is `alive ⊆ cell[c]` — no list is
//! copied per node.
//!
//! Two tables are used, as in GridChecker. The *global* table holds the
//! initial list (up to [`GLOBAL_SETS`] sets) for the upper levels, where the
//! disjoint-set bound runs over every unhit set. When [`LOCAL_AT`] givens
//! are left, a *local* table is built for the subtree: the live parts of
//! the unhit global sets (dead cells never come back in the subtree),
//! smallest first, the first [`LOCAL_WORDS`]·64 of them in a small fixed
//! bitmap that the hot lower levels update with a few word operations; the
//! others wait in a *rest* list. When every local set is hit, the rest is
//! checked before the solver: an unhit rest set joins the local table, like
//! a learned one. Only the parts that go to the local table are sorted by
//! (size, mask) and rid of duplicates; the rest is in size order only
//! (global table order within a size), which saves most of the sorting.
//!
//! # Composites (McGuire's sets of higher degree)
//!
//! A composite of degree d is a union of d pairwise disjoint UA sets; while
//! none of its cells is given it needs d givens. Lists of them are made
//! once per search ([`crate::composite`], GridChecker's global lists). At
//! `COMP_LEVEL` = 12 / 11 / 10 / 10 givens left (degrees 5 / 4 / 3 / 2, as
//! GridChecker; degree 4's at 10 from 17 givens) the first ones in list
//! order that the node's givens do not hit (at most `COMP_CAP`: 1 792 /
//! 4 096 / 1 792 / 1 024, twice as many but degree 4's from 17 givens) get
//! a table like
//! the UA tables (per-cell bitmaps); the global lists have per-cell bitmaps
//! too, so those composites are found 64 at a time (the and-not of the
//! givens' rows) rather than by testing each of up to 65 536, and
//! every node below keeps their "unhit" bitmap in a stack indexed by
//! givens left (one word-wise and-not per placement and degree still
//! needed). With k givens left, an unhit composite of degree k takes all k
//! of them (one in each of its disjoint sets), so **every remaining given
//! lies in the intersection I of the unhit composites of degree k**: a node
//! whose branch set misses I is pruned, and the cells outside I are dead
//! for the whole subtree (fewer branches below, and a later branch set
//! with no live cell prunes). I is computed once per node from the bitmap
//! (one pass over its set bits, stopping at the first composite after
//! which the branch set misses it; the bitmap is sparse, a composite or two
//! in each non-zero word, so the pass is one loop over all the set bits
//! that moves to the next non-zero word with masks rather than a loop per
//! word whose exit was mispredicted at almost every composite read); for
//! a child the parent computes it
//! while and-not-ing the child's bitmap of that degree (which nothing else
//! reads, so it is not stored), as the child's branch set is known by
//! then, and runs the child's scan (step 2, below) too, so that a child
//! pruned there costs no composite bitmaps.
//!
//! # Cell numbering
//!
//! The search runs on renumbered cells ([`crate::remap`], GridChecker's
//! remapping): cells in many small UA sets first, so the branches over a
//! set's cells take those first and leave them dead for the later
//! siblings.
//!
//! A learned set (or a rest set promoted) is unhit by the givens of every
//! ancestor of the node that found it, so after each child returns the
//! parent sets the alive bits of the sets added meanwhile: the remaining
//! siblings at every level are pruned by it (one costly solve teaches the
//! rest of the subtree). Learned sets also go to the global table while it
//! has room. When a table is full, the node branches on the new set
//! directly (correct, only less pruning for the siblings).
//!
//! # Machine code
//!
//! The lower levels are most of the time: their recursion (`inner` ↔
//! `branch_on`, with the scans and composite intersections inlined) is
//! generic over an instruction set (`Isa`) and compiled twice, for the
//! build's target and for AVX2 (+BMI1/2, LZCNT, POPCNT); the AVX2 code
//! runs when the CPU has those features ([`Code`]). Both give the same
//! search, node for node. The bitmaps' and-nots (and the composite pass's
//! mask of non-zero words) are the instruction set's own methods: in the
//! AVX2 code, aligned 32-byte loads and stores written out (the bitmaps
//! are cache-line aligned, and a composite row is kept 0 up to its word
//! count rounded up to 4). Compiled from plain loops, they were split
//! into 16-byte halves, as the build's target (x86-64-v2) tunes for CPUs
//! whose unaligned 32-byte accesses are slow: 8–9 % of the time.
//!
//! # Parallelism and determinism
//!
//! The tree is expanded sequentially to the depth of `split_depth` (4
//! for 16 clues, 5 for 17); the subtrees are independent tasks (each
//! starting from a copy of the table as it was at the end of the
//! expansion) run on `threads` threads of a rayon pool, one worker and one
//! reused context per thread, each taking the next task of one queue in
//! expansion order (the first subtrees, with the fewest dead cells, are
//! the largest: taking them first leaves small ones for the end; rayon's
//! splitting of the task list left one thread idle for up to 4 % of a
//! quick search). The
//! decomposition does not depend on the thread count, so puzzles and node
//! counts are the same on 1 or many threads; puzzles are reported sorted.
//! Only a `max_found` stop depends on timing.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;

use crate::composite::{self, ND};
use crate::remap::Remap;
use crate::unique::Uniqueness;
use crate::{cells_of, Cells, ALL};

/// Depth to which the tree is expanded before the subtrees run in
/// parallel, at least (see `split_depth`).
pub const SPLIT_DEPTH: usize = 3;
/// Depth to which the tree is expanded at most.
const MAX_SPLIT_DEPTH: usize = 6;

/// The depth of the tasks for a root with `left` givens to place: as deep
/// as the composite tables allow (the tasks start at or above
/// [`COMP_TOP`] givens left, where the first table is built, so the
/// tables and the nodes are those of one sequential search), at least
/// [`SPLIT_DEPTH`], at most [`MAX_SPLIT_DEPTH`]. Hundreds of tasks (16
/// clues: depth 4, 17 clues: 5) rather than about 40 at depth 3, whose
/// largest took 5–8 % of the search and left a thread idle at the end.
fn split_depth(left: usize) -> usize {
    left.saturating_sub(COMP_TOP)
        .clamp(SPLIT_DEPTH, MAX_SPLIT_DEPTH)
}
/// Initial UA sets kept in the global table at most (the smallest).
pub const GLOBAL_SETS: usize = 2048;
/// Room kept in the global table for learned sets.
const GLOBAL_RESERVE: usize = 512;
/// Words of the global bitmaps (`GLOBAL_SETS + GLOBAL_RESERVE` bits).
const GW: usize = (GLOBAL_SETS + GLOBAL_RESERVE) / 64;
/// Givens left at which a subtree gets its local table.
pub const LOCAL_AT: usize = 9;
/// Givens left at which the composite table of each degree is built (at or
/// above [`LOCAL_AT`], at most [`COMP_TOP`]), for searches of up to 16
/// givens.
const COMP_LEVEL: [usize; ND] = [10, 10, 11, 12];
/// [`COMP_LEVEL`] for 17 givens or more: degree 4's table one level lower
/// (made for smaller subtrees, so fewer of its composites are hit
/// already): 2–5 % less time on three 17-clue grids, while quick 16-clue
/// searches lose 10 % to the extra tables.
const COMP_LEVEL_DEEP: [usize; ND] = [10, 10, 10, 12];
/// The highest of [`COMP_LEVEL`] and [`COMP_LEVEL_DEEP`].
const COMP_TOP: usize = 12;
/// Words of the local bitmaps (64 sets each).
pub const LOCAL_WORDS: usize = 4;
/// Room kept in a local table for learned and promoted sets.
const LOCAL_RESERVE: usize = 40;

/// What to search.
#[derive(Clone, Debug)]
pub struct SearchOptions {
    /// Exact number of givens.
    pub clues: usize,
    /// Cells every puzzle must contain (must be cells of the grid).
    pub given: u128,
    /// Worker threads (1 = the calling thread's pool of one).
    pub threads: usize,
    /// Stop after this many puzzles.
    pub max_found: u64,
}

/// The outcome of a search.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchResult {
    /// The puzzles as cell masks, sorted.
    pub puzzles: Vec<u128>,
    /// Search nodes visited.
    pub nodes: u64,
    /// UA sets learned from non-unique candidates.
    pub learned: u64,
    /// Solver calls.
    pub solves: u64,
    /// Whether the search stopped at `max_found` (then it is incomplete).
    pub stopped: bool,
}

/// UA sets by index, and per cell the bitmap of the sets containing it.
#[derive(Clone)]
struct Table<const W: usize> {
    sets: Vec<u128>,
    cell: Box<[Bits<W>; 81]>,
}

impl<const W: usize> Table<W> {
    fn new() -> Self {
        Table {
            sets: Vec::with_capacity(W * 64),
            cell: Box::new([Bits::ZERO; 81]),
        }
    }

    fn len(&self) -> usize {
        self.sets.len()
    }

    fn full(&self) -> bool {
        self.sets.len() >= W * 64
    }

    /// Replaces the content with `sets` (at most `W`·64 of them), building
    /// the cell bitmaps 64 sets at a time by bit-matrix transposition.
    /// With `tail`, the words after the last set are zeroed too (readers
    /// of whole rows need it; the composite tables are read up to their
    /// last set only).
    #[inline(always)]
    fn fill(&mut self, sets: &[u128], tail: bool) {
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
    fn copy_from(&mut self, other: &Self) {
        self.sets.clear();
        self.sets.extend_from_slice(&other.sets);
        *self.cell = *other.cell;
    }

    /// Appends `set` (the caller checked there is room); returns its index.
    fn push(&mut self, set: u128) -> usize {
        let j = self.sets.len();
        self.sets.push(set);
        for c in cells_of(set) {
            self.cell[c][j / 64] |= 1 << (j % 64);
        }
        j
    }
}

/// Transposes a 64×64 bit matrix: afterwards bit k of row c is what bit
/// c of row k was (rows are words, bit 0 the lowest).
#[inline(always)]
fn transpose(a: &mut [u64; 64]) {
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
/// of the sets holding cell 64 + r. Two 32×32 transpositions on 32-bit
/// rows (eight to a 256-bit vector) instead of a 64×64 one on 64-bit rows.
#[inline(always)]
fn transpose_hi(hi: &mut [u32; 64]) -> [u64; 17] {
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
struct Bits<const W: usize>([u64; W]);

impl<const W: usize> Bits<W> {
    const ZERO: Self = Bits([0; W]);
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
fn first_bit<const W: usize>(a: &Bits<W>) -> Option<usize> {
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
fn and_not<const W: usize>(a: &Bits<W>, b: &Bits<W>) -> Bits<W> {
    Bits(std::array::from_fn(|w| a[w] & !b[w]))
}

/// Whether every set of `a` is in `b`.
#[inline(always)]
fn subset<const W: usize>(a: &Bits<W>, b: &Bits<W>) -> bool {
    a.iter().zip(b.iter()).all(|(&x, &y)| x & !y == 0)
}

/// Sets the bits `from..to`.
fn set_range<const W: usize>(a: &mut Bits<W>, from: usize, to: usize) {
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

/// The cells of `u` in every composite of the bitmap `alive` (minus those
/// in `hit`, if given: the bitmap after a given), as cell masks by index in
/// `sets`; 0 if none of `u` is left (checked after each non-empty word).
///
/// The bitmaps are sparse (a few unhit composites over up to 64 words), so
/// the words are first and-not-ed into a buffer with a mask of the
/// non-zero ones, branch-free (vectorised where the CPU allows), and only
/// those are read bit by bit.
#[inline(always)]
fn composite_cells<I: Isa>(
    alive: &Bits<CW>,
    hit: Option<&Bits<CW>>,
    n: usize,
    sets: &[u128],
    u: u128,
) -> u128 {
    if u == 0 {
        return 0;
    }
    // Only the first `n` words (rounded up to 4 by the AVX2 code) are
    // written, and only those are read.
    let mut xs = std::mem::MaybeUninit::<Bits<CW>>::uninit();
    // SAFETY: `I` was chosen by `lower` for this CPU; `alive` is a row of
    // the stack, 0 past its `n` words.
    let nonzero = unsafe { I::and_not_nonzero(alive, hit, n, &mut xs) };
    // Read word by word below, only the words written.
    let xs = xs.as_ptr() as *const u64;
    if nonzero == 0 {
        return ALL;
    }
    // One loop over the set bits of all the words, moving to the next
    // non-zero word without a branch (a word holds one or two unhit
    // composites, so a loop per word mispredicted its exit at almost
    // every read); the early exit and the end are the only branches.
    let mut allowed = ALL;
    let w = nonzero.trailing_zeros() as usize;
    let mut nz = nonzero & (nonzero - 1);
    // SAFETY: bit w of `nonzero` is set only for a word written above.
    let mut x = unsafe { *xs.add(w) };
    let mut base = w * 64;
    loop {
        allowed &= sets[base + x.trailing_zeros() as usize];
        if allowed & u == 0 {
            return 0;
        }
        x &= x.wrapping_sub(1);
        if x == 0 && nz == 0 {
            return allowed;
        }
        // If this word is done, the next non-zero one (masks, no branch).
        let next = (nz.trailing_zeros() & 63) as usize;
        let done = ((x == 0) as u64).wrapping_neg();
        // SAFETY: word `next` was written: a bit of `nonzero` when `nz` is
        // not 0, else word 0 (`n` ≥ 1 as `nonzero` is not 0).
        let y = unsafe { *xs.add(next) };
        x |= y & done;
        base = (base & !(done as usize)) | ((next * 64) & done as usize);
        nz &= !(done & nz.wrapping_neg() & nz);
    }
}

/// What a parent found out about a child at 2–5 givens left before
/// entering it: the cells its givens must lie in (every unhit composite
/// of its degree) and the cells to branch on (live cells of the unhit set
/// with the fewest among the first 16).
#[derive(Clone, Copy)]
struct Pre {
    allowed: u128,
    branch: u128,
}

/// What [`scan_unhit`] found.
struct Scan {
    /// The first set with the fewest live cells, live cells only.
    best: u128,
    /// Its live cells (`u32::MAX` if no set was scanned).
    best_n: u32,
    /// The live cells common to every scanned set.
    inter: u128,
}

/// One pass over the sets of the bitmap `alive` (the first `budget` of
/// them, in index order), live cells (`live`) only: `None` if one has no
/// live cell or more than `left` are pairwise disjoint (each needs a given
/// of its own; greedy), which prunes the node; else the smallest and the
/// intersection.
#[inline(always)]
fn scan_unhit(
    sets: &[u128],
    alive: &[u64],
    live: u128,
    left: usize,
    budget: usize,
) -> Option<Scan> {
    let mut scan = Scan {
        best: 0,
        best_n: u32::MAX,
        inter: ALL & live,
    };
    let mut acc = 0u128;
    let mut disjoint = 0usize;
    let mut budget = budget;
    // The smallest is kept as an index (one register, not two).
    let mut best_j = usize::MAX;
    'words: for (w, &word) in alive.iter().enumerate() {
        let mut x = word;
        while x != 0 {
            if budget == 0 {
                break 'words;
            }
            budget -= 1;
            let j = w * 64 + x.trailing_zeros() as usize;
            let l = sets[j] & live;
            x &= x - 1;
            let n = l.count_ones();
            if n == 0 {
                return None;
            }
            // Branch-free bookkeeping (the comparisons are unpredictable).
            let better = n < scan.best_n;
            scan.best_n = if better { n } else { scan.best_n };
            best_j = if better { j } else { best_j };
            scan.inter &= l;
            let fresh = l & acc == 0;
            acc |= l & (fresh as u128).wrapping_neg();
            disjoint += fresh as usize;
            if disjoint > left {
                return None;
            }
        }
    }
    if best_j != usize::MAX {
        scan.best = sets[best_j] & live;
    }
    Some(scan)
}

/// The lower levels' recursion (`inner` ↔ `branch_on`, with what they
/// inline: `last`, the composite intersections, the scans) compiled for
/// one instruction set. The bodies are `#[inline(always)]` generics; each
/// implementation is the pair of functions the recursion goes through, so
/// an implementation with target features compiles the whole lower search
/// for them. [`Ctx::lower`] picks one at run time.
trait Isa {
    /// # Safety
    /// The CPU has the target features the implementation enables.
    unsafe fn inner(
        ctx: &mut Ctx<'_>,
        chosen: u128,
        dead: u128,
        left: usize,
        a: &mut Bits<LOCAL_WORDS>,
        pre: Option<Pre>,
    );
    /// # Safety
    /// As for [`Isa::inner`].
    unsafe fn branch_on(
        ctx: &mut Ctx<'_>,
        u: u128,
        chosen: u128,
        dead: u128,
        left: usize,
        a: &mut Bits<LOCAL_WORDS>,
        pre: Option<Pre>,
    );

    /// `a & !b` on the local bitmaps.
    ///
    /// # Safety
    /// As for [`Isa::inner`].
    #[inline(always)]
    unsafe fn and_not_local(a: &Bits<LOCAL_WORDS>, b: &Bits<LOCAL_WORDS>) -> Bits<LOCAL_WORDS> {
        and_not(a, b)
    }

    /// `dst = src & !hit` on the first `n` words of composite bitmaps,
    /// rounded up to 4 (the stack's rows are 0 from `n` to there, as the
    /// AVX2 code reads them whole).
    ///
    /// # Safety
    /// As for [`Isa::inner`].
    #[inline(always)]
    unsafe fn and_not_rows(dst: &mut Bits<CW>, src: &Bits<CW>, hit: &Bits<CW>, n: usize) {
        for w in 0..(n.div_ceil(4) * 4).min(CW) {
            dst[w] = src[w] & !hit[w];
        }
    }

    /// Writes `alive & !hit` (`hit` absent: 0) on the first `n` words to
    /// `out` and returns the mask of its non-zero words (the AVX2 code
    /// writes up to `n` rounded up to 4: `alive`'s words there must be 0).
    ///
    /// # Safety
    /// As for [`Isa::inner`].
    #[inline(always)]
    unsafe fn and_not_nonzero(
        alive: &Bits<CW>,
        hit: Option<&Bits<CW>>,
        n: usize,
        out: &mut std::mem::MaybeUninit<Bits<CW>>,
    ) -> u64 {
        let out = out.as_mut_ptr() as *mut u64;
        let mut nonzero = 0u64;
        for w in 0..n.min(CW) {
            let x = alive[w] & !hit.map_or(0, |h| h[w]);
            // SAFETY: w < CW, inside `out`.
            unsafe { out.add(w).write(x) };
            nonzero |= ((x != 0) as u64) << w;
        }
        nonzero
    }
}

/// Implements [`Isa`] for `$isa`: both functions carry the attributes given
/// (the target features) and run the generic bodies for `$isa`.
macro_rules! isa {
    ($isa:ty $(, #[$attr:meta])* $(; $($item:item)*)?) => {
        impl Isa for $isa {
            $($($item)*)?
            $(#[$attr])*
            unsafe fn inner(
                ctx: &mut Ctx<'_>,
                chosen: u128,
                dead: u128,
                left: usize,
                a: &mut Bits<LOCAL_WORDS>,
                pre: Option<Pre>,
            ) {
                ctx.inner::<Self>(chosen, dead, left, a, pre)
            }
            $(#[$attr])*
            unsafe fn branch_on(
                ctx: &mut Ctx<'_>,
                u: u128,
                chosen: u128,
                dead: u128,
                left: usize,
                a: &mut Bits<LOCAL_WORDS>,
                pre: Option<Pre>,
            ) {
                ctx.branch_on::<Self>(u, chosen, dead, left, a, pre)
            }
        }
    };
}

/// The build's target (x86-64-v2 on x86-64: see `.cargo/config.toml`).
struct Baseline;

isa!(Baseline);

/// x86-64 with AVX2, BMI1/2, LZCNT and POPCNT (x86-64-v3's core): the
/// bitmap operations 32 bytes at a time (below), and the compiler's own
/// vectorisation elsewhere.
#[cfg(target_arch = "x86_64")]
struct Avx2;

#[cfg(target_arch = "x86_64")]
isa!(Avx2, #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")];
    // The bitmaps' 32-byte chunks are read and written whole, aligned (see
    // "Machine code" at the top of this file).
    #[inline]
    #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
    unsafe fn and_not_local(
        a: &Bits<LOCAL_WORDS>,
        b: &Bits<LOCAL_WORDS>,
    ) -> Bits<LOCAL_WORDS> {
        use std::arch::x86_64::*;
        const { assert!(LOCAL_WORDS == 4) };
        let mut out = Bits::ZERO;
        // SAFETY: `Bits` is 64-byte aligned and 32 bytes long here.
        unsafe {
            let x = _mm256_load_si256(a.as_ptr() as *const __m256i);
            let y = _mm256_load_si256(b.as_ptr() as *const __m256i);
            _mm256_store_si256(out.as_mut_ptr() as *mut __m256i, _mm256_andnot_si256(y, x));
        }
        out
    }

    #[inline]
    #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
    unsafe fn and_not_rows(dst: &mut Bits<CW>, src: &Bits<CW>, hit: &Bits<CW>, n: usize) {
        use std::arch::x86_64::*;
        let (d, s, h) = (
            dst.as_mut_ptr() as *mut __m256i,
            src.as_ptr() as *const __m256i,
            hit.as_ptr() as *const __m256i,
        );
        for i in 0..n.div_ceil(4).min(CW / 4) {
            // SAFETY: chunk i < CW / 4 of 64-byte aligned bitmaps.
            unsafe {
                let x = _mm256_load_si256(s.add(i));
                let x = _mm256_andnot_si256(_mm256_load_si256(h.add(i)), x);
                _mm256_store_si256(d.add(i), x);
            }
        }
    }

    #[inline]
    #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
    unsafe fn and_not_nonzero(
        alive: &Bits<CW>,
        hit: Option<&Bits<CW>>,
        n: usize,
        out: &mut std::mem::MaybeUninit<Bits<CW>>,
    ) -> u64 {
        use std::arch::x86_64::*;
        let a = alive.as_ptr() as *const __m256i;
        let o = out.as_mut_ptr() as *mut __m256i;
        let zero = _mm256_setzero_si256();
        let mut nonzero = 0u64;
        for i in 0..n.div_ceil(4).min(CW / 4) {
            // SAFETY: chunk i < CW / 4 of 64-byte aligned bitmaps.
            let x = unsafe {
                let x = _mm256_load_si256(a.add(i));
                let x = match hit {
                    Some(h) => {
                        let h = h.as_ptr() as *const __m256i;
                        _mm256_andnot_si256(_mm256_load_si256(h.add(i)), x)
                    }
                    None => x,
                };
                _mm256_store_si256(o.add(i), x);
                x
            };
            let zero_words = _mm256_castsi256_pd(_mm256_cmpeq_epi64(x, zero));
            let zeros = _mm256_movemask_pd(zero_words) as u64;
            nonzero |= (!zeros & 15) << (4 * i);
        }
        nonzero
    }
);

/// Words of the bitmaps of composites (64 composites each).
const CW: usize = 64;
/// Composites kept per degree in a subtree's table (GridChecker's sizes),
/// for searches of up to 16 givens.
const COMP_CAP: [usize; ND] = [1024, 1792, 4096, 1792];
/// [`COMP_CAP`] for 17 givens or more, whose subtrees are larger: 2–3 %
/// less time on 17-clue grids (13–23 % fewer nodes), while quick 16-clue
/// searches lose up to 5 % to the larger tables' making.
const COMP_CAP_DEEP: [usize; ND] = [2048, 3584, 4096, 3584];
/// Unhit composites of the nodes below the tables' levels, by givens left.
type CompStack = [[Bits<CW>; ND]; COMP_TOP + 1];

/// The global composite lists of each degree ([`composite::global`]) with,
/// per cell, the bitmap of the composites holding it, so that a subtree's
/// unhit composites are found a word (64 composites) at a time: and-not
/// of its givens' bitmaps, then only the set bits are read. Scanning the
/// lists one composite at a time cost up to 16 % of a quick search.
struct Composites {
    sets: [Vec<u128>; ND],
    /// Composites kept per degree in a subtree's table.
    caps: [usize; ND],
    /// Givens left at which each degree's subtree table is made.
    levels: [usize; ND],
    /// Per degree, 81 rows of `words[d]` words: bit j of row c is set when
    /// composite j holds cell c.
    cell: [Vec<u64>; ND],
    words: [usize; ND],
}

impl Composites {
    fn new(sets: [Vec<u128>; ND], caps: [usize; ND], levels: [usize; ND]) -> Self {
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
    fn unhit(&self, d: usize, chosen: u128, cap: usize, mut f: impl FnMut(u128)) {
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

/// One subtree to search.
#[derive(Clone)]
struct Task {
    chosen: u128,
    dead: u128,
    left: usize,
    alive: Bits<GW>,
}

/// Per-task state.
struct Ctx<'a> {
    checker: Uniqueness,
    global: Table<GW>,
    local: Table<LOCAL_WORDS>,
    comps: [Table<CW>; ND],
    cstack: Box<CompStack>,
    cwords: [usize; ND],
    rest: Vec<u128>,
    scratch: Vec<u128>,
    parts_scratch: Vec<u128>,
    comp_scratch: Vec<u128>,
    found: Vec<u128>,
    nodes: u64,
    solves: u64,
    learned_count: u64,
    max_found: u64,
    total_found: &'a AtomicU64,
    stop: &'a AtomicBool,
    gcomps: &'a Composites,
    remap: &'a Remap,
    /// Whether the lower levels run [`Avx2`]'s code.
    avx2: bool,
}

/// Searches every puzzle of `opts.clues` givens of `grid` containing
/// `opts.given`, with `uas` as the initial UA list (any unavoidable sets;
/// completeness does not depend on it; the smallest [`GLOBAL_SETS`] are
/// used). `tick(done, total)` is called as subtrees finish.
pub fn search(
    grid: &Cells,
    uas: &[u128],
    opts: &SearchOptions,
    tick: &(dyn Fn(u64, u64) + Sync),
) -> SearchResult {
    search_with(grid, uas, opts, tick, Code::Auto)
}

/// Which machine code the lower levels run (the results are the same).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Code {
    /// AVX2 code when the CPU has AVX2, BMI1/2, LZCNT and POPCNT (what
    /// [`search`] does).
    Auto,
    /// The build's target only.
    Baseline,
}

impl Code {
    /// Whether this choice runs the AVX2 code on this CPU.
    pub fn uses_avx2(self) -> bool {
        if self == Code::Baseline {
            return false;
        }
        #[cfg(target_arch = "x86_64")]
        {
            std::is_x86_feature_detected!("avx2")
                && std::is_x86_feature_detected!("bmi1")
                && std::is_x86_feature_detected!("bmi2")
                && std::is_x86_feature_detected!("lzcnt")
                && std::is_x86_feature_detected!("popcnt")
        }
        #[cfg(not(target_arch = "x86_64"))]
        false
    }
}

/// [`search`] with the lower levels' code chosen by `code`.
pub fn search_with(
    grid: &Cells,
    uas: &[u128],
    opts: &SearchOptions,
    tick: &(dyn Fn(u64, u64) + Sync),
    code: Code,
) -> SearchResult {
    let avx2 = code.uses_avx2();
    let remap = Remap::new(uas);
    let given = remap.fwd(opts.given & ALL);
    let placed = given.count_ones() as usize;
    let mut result = SearchResult::default();
    if placed > opts.clues {
        return result;
    }
    let mut initial: Vec<u128> = uas
        .iter()
        .map(|&u| remap.fwd(u))
        .filter(|&u| u & given == 0 && u != 0)
        .collect();
    initial.sort_unstable_by_key(|&m| (m.count_ones(), m));
    initial.dedup();
    initial.truncate(GLOBAL_SETS);
    let mut table = Table::<GW>::new();
    for &u in &initial {
        table.push(u);
    }
    let mut alive = Bits::<GW>::ZERO;
    set_range(&mut alive, 0, table.len());
    let root_left = opts.clues - placed;
    let root = Task {
        chosen: given,
        dead: 0,
        left: root_left,
        alive,
    };
    let total_found = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    // Expand to SPLIT_DEPTH; leaves met on the way are searched here.
    let (caps, levels) = if opts.clues >= 17 {
        (COMP_CAP_DEEP, COMP_LEVEL_DEEP)
    } else {
        (COMP_CAP, COMP_LEVEL)
    };
    let gcomps = Composites::new(composite::global(&initial), caps, levels);
    let mut ctx = Ctx::new(
        grid,
        table,
        opts.max_found,
        &total_found,
        &stop,
        &gcomps,
        &remap,
    );
    let mut tasks = vec![root];
    for _ in 0..split_depth(root_left) {
        let mut next = Vec::new();
        for t in tasks {
            ctx.expand(t, &mut next);
        }
        tasks = next;
    }
    let total = tasks.len() as u64;
    let done = AtomicU64::new(0);
    let table = ctx.global.clone();
    // One context per worker, reused from task to task; each task starts
    // from the table as it was after the expansion (so what a task learns
    // does not depend on which tasks ran before it on the same worker).
    let new_ctx = || {
        let mut c = Ctx::new(
            grid,
            table.clone(),
            opts.max_found,
            &total_found,
            &stop,
            &gcomps,
            &remap,
        );
        c.avx2 = avx2;
        c
    };
    let run = |c: &mut Ctx<'_>, t: Task| {
        c.global.copy_from(&table);
        let (nodes, solves, learned) = (c.nodes, c.solves, c.learned_count);
        let mut alive = t.alive;
        c.top(t.chosen, t.dead, t.left, &mut alive, 0);
        tick(done.fetch_add(1, Ordering::Relaxed) + 1, total);
        (
            std::mem::take(&mut c.found),
            c.nodes - nodes,
            c.solves - solves,
            c.learned_count - learned,
        )
    };
    // A task's puzzles, nodes, solver calls and learned sets.
    type Part = (Vec<u128>, u64, u64, u64);
    let parallel = |tasks: Vec<Task>| -> Vec<Part> {
        // One queue in expansion order (the first subtrees, with the fewest
        // dead cells, are the largest), taken a task at a time by one
        // worker per thread, each with its own context; results by index.
        let next = AtomicUsize::new(0);
        let slots: Vec<Mutex<Option<Part>>> = tasks.iter().map(|_| Mutex::new(None)).collect();
        rayon::scope(|s| {
            for _ in 0..rayon::current_num_threads() {
                s.spawn(|_| {
                    let mut c = new_ctx();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(t) = tasks.get(i).cloned() else {
                            break;
                        };
                        let r = run(&mut c, t);
                        *slots[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(r);
                    }
                });
            }
        });
        slots
            .into_iter()
            .filter_map(|m| m.into_inner().unwrap_or_else(|e| e.into_inner()))
            .collect()
    };
    let parts: Vec<Part> = if opts.threads <= 1 {
        let mut c = new_ctx();
        tasks.into_iter().map(|t| run(&mut c, t)).collect()
    } else if rayon::current_thread_index().is_some()
        && rayon::current_num_threads() == opts.threads
    {
        // Already on a pool of that size (see [`crate::with_threads`]).
        parallel(tasks)
    } else {
        match rayon::ThreadPoolBuilder::new()
            .num_threads(opts.threads)
            .build()
        {
            Ok(pool) => pool.install(|| parallel(tasks)),
            Err(_) => {
                let mut c = new_ctx();
                tasks.into_iter().map(|t| run(&mut c, t)).collect()
            }
        }
    };
    result.puzzles = ctx.found;
    result.nodes = ctx.nodes;
    result.solves = ctx.solves;
    result.learned = ctx.learned_count;
    for (f, n, s, l) in parts {
        result.puzzles.extend(f);
        result.nodes += n;
        result.solves += s;
        result.learned += l;
    }
    for p in result.puzzles.iter_mut() {
        *p = remap.back(*p);
    }
    result.puzzles.sort_unstable();
    result.stopped = stop.load(Ordering::Relaxed);
    if result.stopped {
        result.puzzles.truncate(opts.max_found as usize);
    }
    result
}

/// What a node does after step 1/2 at the upper levels.
enum Step {
    /// Pruned, or fully handled.
    Done,
    /// Branch on these cells.
    Branch(u128),
}

impl<'a> Ctx<'a> {
    fn new(
        grid: &'a Cells,
        global: Table<GW>,
        max_found: u64,
        total_found: &'a AtomicU64,
        stop: &'a AtomicBool,
        gcomps: &'a Composites,
        remap: &'a Remap,
    ) -> Self {
        Ctx {
            checker: Uniqueness::new(grid),
            global,
            local: Table::new(),
            comps: std::array::from_fn(|_| Table::new()),
            cstack: Box::new([[Bits::ZERO; ND]; COMP_TOP + 1]),
            cwords: [0; ND],
            rest: Vec::new(),
            scratch: Vec::new(),
            parts_scratch: Vec::new(),
            comp_scratch: Vec::new(),
            found: Vec::new(),
            nodes: 0,
            solves: 0,
            learned_count: 0,
            max_found,
            total_found,
            stop,
            gcomps,
            remap,
            avx2: false,
        }
    }

    /// One level of the search as tasks: the children of `t` go to `out`
    /// (leaves are handled here).
    fn expand(&mut self, t: Task, out: &mut Vec<Task>) {
        if t.left <= LOCAL_AT {
            // Small enough: one task.
            out.push(t);
            return;
        }
        let mut alive = t.alive;
        self.nodes += 1;
        if let Step::Branch(branch) = self.prepare(t.chosen, t.dead, t.left, &mut alive) {
            let mut dead = t.dead;
            for c in cells_of(branch) {
                out.push(Task {
                    chosen: t.chosen | 1u128 << c,
                    dead,
                    left: t.left - 1,
                    alive: and_not(&alive, &self.global.cell[c]),
                });
                dead |= 1u128 << c;
            }
        }
    }

    /// Adds a learned set to the global table if it has room and is fresh.
    fn learn_global(&mut self, set: u128) -> Option<usize> {
        if self.global.full() {
            return None;
        }
        Some(self.global.push(set))
    }

    /// Steps 1–3 at an upper node: the cells to branch on, or `Done`.
    /// May add learned sets to the global table and `alive`.
    fn prepare(&mut self, chosen: u128, dead: u128, left: usize, alive: &mut Bits<GW>) -> Step {
        if self.stop.load(Ordering::Relaxed) {
            return Step::Done;
        }
        // Fewer live cells than givens to place: no puzzle below. Rare for
        // 16 or 17 clues; with many givens (70 and more) almost every node
        // has it, and without it the search runs for hours.
        if ((ALL & !chosen & !dead).count_ones() as usize) < left {
            return Step::Done;
        }
        if first_bit(alive).is_none() {
            match self.check(chosen) {
                None => {
                    self.emit_all(chosen, ALL & !chosen & !dead, left);
                    return Step::Done;
                }
                Some(ua) => {
                    if left == 0 {
                        return Step::Done;
                    }
                    match self.learn_global(ua) {
                        Some(j) => alive[j / 64] |= 1 << (j % 64),
                        None => return Step::Branch(ua & !dead),
                    }
                }
            }
        }
        if left == 0 {
            return Step::Done;
        }
        let Some(scan) = scan_unhit(&self.global.sets, &alive[..], !dead, left, usize::MAX) else {
            return Step::Done;
        };
        if left == 1 {
            return Step::Branch(scan.inter);
        }
        Step::Branch(scan.best)
    }

    /// The search below an upper node. `have`: the composite degrees (bit
    /// d for degree d+2) whose tables hold this node's state in `cstack`.
    fn top(&mut self, chosen: u128, dead: u128, left: usize, alive: &mut Bits<GW>, have: u8) {
        let mut have = have;
        for (d, &level) in self.gcomps.levels.iter().enumerate() {
            if have >> d & 1 == 0 && left <= level {
                if !self.build_comp(d, chosen, dead, left) {
                    return;
                }
                have |= 1 << d;
            }
        }
        if left <= LOCAL_AT {
            let room = LOCAL_WORDS * 64 - LOCAL_RESERVE;
            let Some(parts) = self.live_parts(dead, alive, room) else {
                return;
            };
            self.nodes += 1;
            let keep = parts.len().min(room);
            self.fill_local(&parts[..keep]);
            self.rest.clear();
            self.rest.extend_from_slice(&parts[keep..]);
            self.scratch = parts;
            let mut a = Bits::<LOCAL_WORDS>::ZERO;
            set_range(&mut a, 0, self.local.len());
            self.lower(chosen, dead, left, &mut a);
            return;
        }
        self.top_branch(chosen, dead, left, alive, have);
    }

    /// Given `c` placed with `left` givens left: for each composite degree
    /// in `degrees` (bit d for degree d+2), the child's unhit bitmap (slot
    /// `left - 1` of `cstack`) is the node's without the composites holding `c`.
    #[inline(always)]
    fn hit_composites<I: Isa>(&mut self, c: usize, left: usize, degrees: u8) {
        for d in 0..ND {
            if degrees >> d & 1 == 0 {
                continue;
            }
            let n = self.cwords[d];
            let (lower, upper) = self.cstack.split_at_mut(left);
            let (src, dst) = (&upper[0][d], &mut lower[left - 1][d]);
            // SAFETY: `I` is `Baseline` or was chosen by `lower` for this
            // CPU; `src` is 0 past its `n` words (see `build_comp`).
            unsafe { I::and_not_rows(dst, src, &self.comps[d].cell[c], n) };
        }
    }

    /// Steps 1-3 at an upper node, then its children.
    fn top_branch(
        &mut self,
        chosen: u128,
        dead: u128,
        left: usize,
        alive: &mut Bits<GW>,
        have: u8,
    ) {
        self.nodes += 1;
        let Step::Branch(branch) = self.prepare(chosen, dead, left, alive) else {
            return;
        };
        let mut dead = dead;
        for c in cells_of(branch) {
            let bit = 1u128 << c;
            let before = self.global.len();
            let mut child = and_not(alive, &self.global.cell[c]);
            self.hit_composites::<Baseline>(c, left, have);
            self.top(chosen | bit, dead, left - 1, &mut child, have);
            dead |= bit;
            if self.stop.load(Ordering::Relaxed) {
                break;
            }
            // Sets learned below are unhit by `chosen` too.
            set_range(alive, before, self.global.len());
        }
    }

    /// Fills the local table with `sets` (AVX2 code when the CPU has it).
    fn fill_local(&mut self, sets: &[u128]) {
        #[cfg(target_arch = "x86_64")]
        if self.avx2 {
            #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
            unsafe fn fill_avx2(t: &mut Table<LOCAL_WORDS>, sets: &[u128]) {
                t.fill(sets, true)
            }
            // SAFETY: `avx2` is set only when the CPU has Avx2's features.
            unsafe { fill_avx2(&mut self.local, sets) };
            return;
        }
        self.local.fill(sets, true);
    }

    /// The live parts of the unhit global sets, smallest first (in
    /// `scratch`, taken), or `None` when one has no live cell (prune). The
    /// first `room` (at least) are sorted by (size, mask) without
    /// duplicates; the others by size only, in global table order.
    fn live_parts(&mut self, dead: u128, alive: &Bits<GW>, room: usize) -> Option<Vec<u128>> {
        let live = !dead;
        let mut parts = std::mem::take(&mut self.scratch);
        parts.clear();
        for (w, &word) in alive.iter().enumerate() {
            let mut x = word;
            while x != 0 {
                let j = w * 64 + x.trailing_zeros() as usize;
                x &= x - 1;
                let l = self.global.sets[j] & live;
                if l == 0 {
                    self.scratch = parts;
                    return None;
                }
                parts.push(l);
            }
        }
        // Sorted by (size, mask): counted into size buckets, then each
        // bucket sorted (a few dozen sets each instead of one sort of all).
        let mut start = [0u32; 83];
        for &p in &parts {
            start[p.count_ones() as usize + 1] += 1;
        }
        for i in 1..83 {
            start[i] += start[i - 1];
        }
        let bounds = start;
        let mut sorted = std::mem::take(&mut self.parts_scratch);
        sorted.clear();
        sorted.resize(parts.len(), 0);
        for &p in &parts {
            let k = &mut start[p.count_ones() as usize];
            sorted[*k as usize] = p;
            *k += 1;
        }
        // Only the buckets that fill the local table (`room` sets) are
        // sorted and rid of duplicates; the rest (checked only when every
        // local set is hit) keep the global table's order: most of the
        // parts, most of the sorting time.
        let mut kept = 0;
        for w in bounds.windows(2) {
            let (from, to) = (w[0] as usize, w[1] as usize);
            if kept >= room {
                let to_end = bounds[82] as usize;
                sorted.copy_within(from..to_end, kept);
                kept += to_end - from;
                break;
            }
            let bucket = &mut sorted[from..to];
            bucket.sort_unstable();
            let mut last = None;
            for i in from..to {
                let p = sorted[i];
                if last != Some(p) {
                    sorted[kept] = p;
                    kept += 1;
                    last = Some(p);
                }
            }
        }
        sorted.truncate(kept);
        self.parts_scratch = parts;
        Some(sorted)
    }

    /// The composite table of degree index `d` for the subtree at (`dead`,
    /// `left`): the global composites not hit by `chosen`, live cells
    /// only. Every puzzle of the subtree has d+2 givens in each. Returns
    /// false if one needs more givens than are left (prune).
    fn build_comp(&mut self, d: usize, chosen: u128, dead: u128, left: usize) -> bool {
        #[cfg(target_arch = "x86_64")]
        if self.avx2 {
            // SAFETY: `avx2` is set only when the CPU has Avx2's features.
            return unsafe { self.build_comp_avx2(d, chosen, dead, left) };
        }
        self.build_comp_body(d, chosen, dead, left)
    }

    /// [`Ctx::build_comp`] compiled for AVX2 (the transpositions of the
    /// table's bitmaps vectorise 256 bits wide).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
    unsafe fn build_comp_avx2(&mut self, d: usize, chosen: u128, dead: u128, left: usize) -> bool {
        self.build_comp_body(d, chosen, dead, left)
    }

    #[inline(always)]
    fn build_comp_body(&mut self, d: usize, chosen: u128, dead: u128, left: usize) -> bool {
        let degree = d + 2;
        let mut out = std::mem::take(&mut self.comp_scratch);
        out.clear();
        let cap = if degree <= left + 1 {
            self.gcomps.caps[d]
        } else {
            1
        };
        self.gcomps.unhit(d, chosen, cap, |c| out.push(c & !dead));
        if degree > left && !out.is_empty() {
            self.comp_scratch = out;
            return false;
        }
        self.comps[d].fill(&out, false);
        let n = self.comps[d].len();
        self.cwords[d] = n.div_ceil(64);
        self.cstack[left][d] = Bits::ZERO;
        set_range(&mut self.cstack[left][d], 0, n);
        self.comp_scratch = out;
        true
    }

    /// Adds a set to the local table (learned or promoted); returns its
    /// index, or `None` when the table is full.
    fn add_local(&mut self, set: u128, alive: &mut Bits<LOCAL_WORDS>) -> Option<usize> {
        if self.local.full() {
            return None;
        }
        let j = self.local.push(set);
        alive[j / 64] |= 1 << (j % 64);
        Some(j)
    }

    /// When every local set is hit: a rest set not hit by `chosen`, else
    /// the solver's verdict. Returns the set to hit next, or `None` if
    /// `chosen` is a puzzle with a unique solution.
    fn missing(&mut self, chosen: u128) -> Option<u128> {
        if let Some(i) = self.rest.iter().position(|&r| r & chosen == 0) {
            return Some(self.rest.swap_remove(i));
        }
        let ua = self.check(chosen)?;
        let _ = self.learn_global(ua);
        Some(ua)
    }

    /// The local subtree of a node: the lower levels' code compiled for
    /// AVX2 when the CPU has it, else for the build's target.
    fn lower(&mut self, chosen: u128, dead: u128, left: usize, a: &mut Bits<LOCAL_WORDS>) {
        #[cfg(target_arch = "x86_64")]
        if self.avx2 {
            // SAFETY: `avx2` is set only when the CPU has Avx2's features.
            unsafe { Avx2::inner(self, chosen, dead, left, a, None) };
            return;
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = self.avx2; // never set off x86-64
                           // SAFETY: Baseline enables no feature beyond the build's target.
        unsafe { Baseline::inner(self, chosen, dead, left, a, None) };
    }

    /// The search below a node of a local subtree (its children through
    /// `I`, see [`Isa`]).
    #[inline(always)]
    fn inner<I: Isa>(
        &mut self,
        chosen: u128,
        dead: u128,
        left: usize,
        a: &mut Bits<LOCAL_WORDS>,
        pre: Option<Pre>,
    ) {
        self.nodes += 1;
        let mut first = first_bit(a);
        if first.is_none() {
            if self.stop.load(Ordering::Relaxed) {
                return;
            }
            match self.missing(chosen) {
                None => {
                    self.emit_all(chosen, ALL & !chosen & !dead, left);
                    return;
                }
                Some(set) => {
                    if left == 0 {
                        return;
                    }
                    match self.add_local(set, a) {
                        Some(j) => first = Some(j),
                        None => {
                            // SAFETY: `I` was chosen by `lower` for this CPU.
                            unsafe { I::branch_on(self, set & !dead, chosen, dead, left, a, None) };
                            return;
                        }
                    }
                }
            }
        }
        if left == 0 {
            return;
        }
        let Some(j) = first else { return };
        if left == 1 {
            let u = self.local.sets[j] & !dead;
            self.last(u, chosen, a);
            return;
        }
        let u = self.local.sets[j] & !dead;
        // SAFETY: as above.
        unsafe { I::branch_on(self, u, chosen, dead, left, a, pre) };
    }

    /// Branches on the cells of `u` (live cells of an unhit set). With k
    /// givens left (2 ≤ k ≤ 5), only cells in every unhit composite of
    /// degree k are tried (`pre`: those cells, if the parent computed them
    /// already).
    #[inline(always)]
    fn branch_on<I: Isa>(
        &mut self,
        u: u128,
        chosen: u128,
        dead: u128,
        left: usize,
        a: &mut Bits<LOCAL_WORDS>,
        pre: Option<Pre>,
    ) {
        let mut dead = dead;
        // With k givens left, a given must lie in every unhit composite of
        // degree k (else k disjoint unhit sets would remain for k-1).
        if let Some(p) = pre {
            // The parent tested this node already (composites and scan).
            dead |= ALL & !p.allowed;
            return self.children::<I>(p.branch, p.allowed, chosen, dead, left, a);
        }
        let allowed = match pre {
            Some(p) => p.allowed,
            None if (2..=ND + 1).contains(&left) => {
                let d = left - 2;
                let n = self.cwords[d];
                let allowed =
                    composite_cells::<I>(&self.cstack[left][d], None, n, &self.comps[d].sets, u);
                if allowed == 0 {
                    return;
                }
                allowed
            }
            None => ALL,
        };
        // Every remaining given lies in `allowed`: the others are dead.
        dead |= ALL & !allowed;
        let mut u = u & !dead;
        if (2..=ND + 1).contains(&left) {
            // Among the first few (smallest) unhit sets, live cells only
            // (the cells outside `allowed` are dead): branch on the one with
            // the fewest, prune if one has none or if more than `left` of
            // them are pairwise disjoint.
            if u == 0 {
                return;
            }
            let Some(scan) = scan_unhit(&self.local.sets, &a[..], !dead, left, 16) else {
                return;
            };
            if scan.best_n < u.count_ones() {
                u = scan.best;
            }
        }
        self.children::<I>(u, allowed, chosen, dead, left, a);
    }

    /// The children of a node: a given on each cell of `u` in `allowed`
    /// (the cells before it dead).
    #[inline(always)]
    fn children<I: Isa>(
        &mut self,
        u: u128,
        allowed: u128,
        chosen: u128,
        dead: u128,
        left: usize,
        a: &mut Bits<LOCAL_WORDS>,
    ) {
        let mut dead = dead;
        let keep = ND.min(left.saturating_sub(2));
        let kid = left - 1;
        for c in cells_of(u) {
            let bit = 1u128 << c;
            if allowed & bit == 0 {
                dead |= bit;
                continue;
            }
            let before = self.local.len();
            // SAFETY: `I` was chosen by `lower` for this CPU.
            let mut ca = unsafe { I::and_not_local(a, &self.local.cell[c]) };
            let mut degrees = (1u8 << keep) - 1;
            let mut kid_pre = None;
            if (2..=ND + 1).contains(&kid) {
                if let Some(j) = first_bit(&ca) {
                    // The child's test, fused with the and-not that would
                    // give its degree-`kid` bitmap (which nothing else
                    // reads): its branch set is known already.
                    let uk = self.local.sets[j] & !dead;
                    let d = kid - 2;
                    let n = self.cwords[d];
                    let ok = composite_cells::<I>(
                        &self.cstack[left][d],
                        Some(&self.comps[d].cell[c]),
                        n,
                        &self.comps[d].sets,
                        uk,
                    );
                    if ok == 0 {
                        dead |= bit;
                        continue;
                    }
                    // The child's scan too, before its composite bitmaps
                    // are made: a child it prunes costs no more.
                    // Its first set is `uk`: the scan's smallest is `uk`'s
                    // live part unless a later set has fewer live cells.
                    let kdead = dead | (ALL & !ok);
                    let Some(scan) = scan_unhit(&self.local.sets, &ca[..], !kdead, kid, 16) else {
                        self.nodes += 1;
                        dead |= bit;
                        continue;
                    };
                    kid_pre = Some(Pre {
                        allowed: ok,
                        branch: scan.best,
                    });
                    degrees &= !(1 << d);
                }
            }
            self.hit_composites::<I>(c, left, degrees);
            // SAFETY: `I` was chosen by `lower` for this CPU.
            unsafe { I::inner(self, chosen | bit, dead, kid, &mut ca, kid_pre) };
            dead |= bit;
            if self.stop.load(Ordering::Relaxed) {
                return;
            }
            set_range(a, before, self.local.len());
        }
    }

    /// One given left: each cell of `u` that hits every unhit set is a
    /// candidate.
    #[inline(always)]
    fn last(&mut self, u: u128, chosen: u128, alive: &mut Bits<LOCAL_WORDS>) {
        for c in cells_of(u) {
            if !subset(alive, &self.local.cell[c]) {
                continue;
            }
            let p = chosen | 1u128 << c;
            if self.stop.load(Ordering::Relaxed) {
                return;
            }
            match self.missing(p) {
                None => self.emit_all(p, 0, 0),
                Some(set) => {
                    // Learned (or promoted): later candidates must hit it.
                    let _ = self.add_local(set, alive);
                }
            }
        }
    }

    /// `None` if the givens `chosen` have the grid as unique solution, else
    /// the cells where a second solution differs (a new UA set, learned).
    fn check(&mut self, chosen: u128) -> Option<u128> {
        self.solves += 1;
        let diff = self.checker.second(self.remap.back(chosen))?;
        self.learned_count += 1;
        Some(self.remap.fwd(diff))
    }

    /// Records every puzzle `chosen` + `left` cells of `free`.
    fn emit_all(&mut self, chosen: u128, free: u128, left: usize) {
        if self.stop.load(Ordering::Relaxed) {
            return;
        }
        if left == 0 {
            self.found.push(chosen);
            if self.total_found.fetch_add(1, Ordering::Relaxed) + 1 >= self.max_found {
                self.stop.store(true, Ordering::Relaxed);
            }
            return;
        }
        if (free.count_ones() as usize) < left {
            return;
        }
        let mut rest = free;
        while rest != 0 {
            let c = rest.trailing_zeros();
            let bit = 1u128 << c;
            rest &= !bit;
            self.emit_all(chosen | bit, rest, left - 1);
            if self.stop.load(Ordering::Relaxed) {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    /// The AVX2 bitmap operations give the build's results on every word
    /// count (rows 0 past their words, as the search keeps them).
    #[test]
    #[cfg(target_arch = "x86_64")]
    fn avx2_bitmap_operations_match_the_baseline() {
        if !Code::Auto.uses_avx2() {
            eprintln!("no AVX2 on this CPU: nothing to compare");
            return;
        }
        let mut rng = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        for n in 0..=CW {
            for sparse in [false, true] {
                let mut src = Bits::<CW>::ZERO;
                let mut hit = Bits::<CW>::ZERO;
                for w in 0..CW {
                    let x = next();
                    // Sparse rows: most words 0 (the search's case).
                    src[w] = if w < n && (!sparse || x % 5 == 0) {
                        next()
                    } else {
                        0
                    };
                    hit[w] = next();
                }
                let mut rows = [Bits::<CW>([7; CW]), Bits::<CW>([7; CW])];
                let mut outs = [std::mem::MaybeUninit::<Bits<CW>>::uninit(); 4];
                // SAFETY: the CPU has Avx2's features (checked above).
                let (masks, local) = unsafe {
                    Baseline::and_not_rows(&mut rows[0], &src, &hit, n);
                    Avx2::and_not_rows(&mut rows[1], &src, &hit, n);
                    let masks = [
                        Baseline::and_not_nonzero(&src, Some(&hit), n, &mut outs[0]),
                        Avx2::and_not_nonzero(&src, Some(&hit), n, &mut outs[1]),
                        Baseline::and_not_nonzero(&src, None, n, &mut outs[2]),
                        Avx2::and_not_nonzero(&src, None, n, &mut outs[3]),
                    ];
                    let a = Bits([src[0], src[1], src[2], src[3]]);
                    let b = Bits([hit[0], hit[1], hit[2], hit[3]]);
                    (
                        masks,
                        [Baseline::and_not_local(&a, &b), Avx2::and_not_local(&a, &b)],
                    )
                };
                let m = (n.div_ceil(4) * 4).min(CW);
                assert_eq!(rows[0][..m], rows[1][..m], "{n} words");
                assert_eq!(masks[0], masks[1], "{n} words");
                assert_eq!(masks[2], masks[3], "{n} words");
                assert_eq!(local[0], local[1]);
                for (k, out) in outs.iter().enumerate() {
                    let mut want = 0u64;
                    for w in 0..n {
                        let x = src[w] & if k < 2 { !hit[w] } else { !0 };
                        want |= ((x != 0) as u64) << w;
                        // SAFETY: word w < n was written by both.
                        assert_eq!(unsafe { (out.as_ptr() as *const u64).add(w).read() }, x);
                    }
                    assert_eq!(masks[k], want, "{n} words");
                }
            }
        }
    }
}
