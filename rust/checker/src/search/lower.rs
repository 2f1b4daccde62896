//! The lower levels: the recursion over a subtree's local table, with the
//! composite intersections and the scans.

use std::sync::atomic::Ordering;

use super::code::{Baseline, Isa, Words};
use super::table::{first_bit, set_range, subset, Bits};
use super::{Ctx, Pre, CW, LOCAL_WORDS};
use crate::composite::ND;
use crate::{cells_of, ALL};

/// The cells of `u` in every composite of the bitmap `alive` (minus those
/// in `hit`, if given: the bitmap after a given), as cell masks by index in
/// `sets`; 0 if none of `u` is left (checked after each non-empty word).
///
/// The bitmaps are sparse (a few unhit composites over up to 64 words), so
/// the words are first and-not-ed into a buffer with a mask of the
/// non-zero ones, branch-free (vectorised where the CPU allows), and only
/// those are read bit by bit.
///
/// The buffer is left uninitialised past what is written (zeroing its 512
/// bytes per call would cost more than the pass), so it is read only at
/// the words the returned mask names: the one `unsafe` of the generic
/// search, with its invariant checked in debug builds.
#[inline(always)]
#[allow(unsafe_code)]
pub(super) fn composite_cells<I: Isa>(
    isa: I,
    alive: &Bits<CW>,
    hit: Option<&Bits<CW>>,
    n: usize,
    sets: &[u128],
    u: u128,
) -> u128 {
    if u == 0 {
        return 0;
    }
    // `alive` is a row of the stack, 0 past its `n` words up to `n`
    // rounded to 4 (what the AVX2 code reads), so the mask names only words
    // below `n`, and every word below `n` is written.
    debug_assert!(
        n <= CW
            && alive[n..(n.div_ceil(4) * 4).min(CW)]
                .iter()
                .all(|&x| x == 0)
    );
    let mut xs = Words::new();
    let nonzero = isa.and_not_nonzero(alive, hit, n, &mut xs);
    debug_assert!(n >= 64 || nonzero >> n == 0);
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
    debug_assert!(w < n);
    // SAFETY: bit w of `nonzero` is set only for a word written above.
    let mut x = unsafe { xs.0.get_unchecked(w).assume_init() };
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
        debug_assert!(next < n);
        // SAFETY: word `next` was written: a bit of `nonzero` when `nz` is
        // not 0, else word 0 (`n` ≥ 1 as `nonzero` is not 0).
        let y = unsafe { xs.0.get_unchecked(next).assume_init() };
        x |= y & done;
        base = (base & !(done as usize)) | ((next * 64) & done as usize);
        nz &= !(done & nz.wrapping_neg() & nz);
    }
}

/// What [`scan_unhit`] found.
pub(super) struct Scan {
    /// The first set with the fewest live cells, live cells only.
    pub(super) best: u128,
    /// Its live cells (`u32::MAX` if no set was scanned).
    pub(super) best_n: u32,
    /// The live cells common to every scanned set.
    pub(super) inter: u128,
}

/// One pass over the sets of the bitmap `alive` (the first `budget` of
/// them, in index order), live cells (`live`) only: `None` if one has no
/// live cell or more than `left` are pairwise disjoint (each needs a given
/// of its own; greedy), which prunes the node; else the smallest and the
/// intersection.
#[inline(always)]
pub(super) fn scan_unhit(
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

impl<'a> Ctx<'a> {
    /// The local subtree of a node: the lower levels' code compiled for
    /// AVX2 when the CPU has it, else for the build's target.
    pub(super) fn lower(
        &mut self,
        chosen: u128,
        dead: u128,
        left: usize,
        a: &mut Bits<LOCAL_WORDS>,
    ) {
        #[cfg(target_arch = "x86_64")]
        if let Some(isa) = self.avx2 {
            return isa.inner(self, chosen, dead, left, a, None);
        }
        Baseline.inner(self, chosen, dead, left, a, None)
    }

    /// The search below a node of a local subtree (its children through
    /// `I`, see [`Isa`]).
    #[inline(always)]
    pub(super) fn inner<I: Isa>(
        &mut self,
        isa: I,
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
                            isa.branch_on(self, set & !dead, chosen, dead, left, a, None);
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
        isa.branch_on(self, u, chosen, dead, left, a, pre);
    }

    /// Branches on the cells of `u` (live cells of an unhit set). With k
    /// givens left (2 ≤ k ≤ 5), only cells in every unhit composite of
    /// degree k are tried (`pre`: those cells, if the parent computed them
    /// already).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)] // `isa` is a zero-sized token
    pub(super) fn branch_on<I: Isa>(
        &mut self,
        isa: I,
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
            return self.children(isa, p.branch, p.allowed, chosen, dead, left, a);
        }
        let allowed = match pre {
            Some(p) => p.allowed,
            None if (2..=ND + 1).contains(&left) => {
                let d = left - 2;
                let n = self.cwords[d];
                let allowed =
                    composite_cells(isa, &self.cstack[left][d], None, n, &self.comps[d].sets, u);
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
        self.children(isa, u, allowed, chosen, dead, left, a);
    }

    /// The children of a node: a given on each cell of `u` in `allowed`
    /// (the cells before it dead).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)] // `isa` is a zero-sized token
    pub(super) fn children<I: Isa>(
        &mut self,
        isa: I,
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
            let mut ca = isa.and_not_local(a, &self.local.cell[c]);
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
                    let ok = composite_cells(
                        isa,
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
            self.hit_composites(isa, c, left, degrees);
            isa.inner(self, chosen | bit, dead, kid, &mut ca, kid_pre);
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
    pub(super) fn last(&mut self, u: u128, chosen: u128, alive: &mut Bits<LOCAL_WORDS>) {
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
    pub(super) fn check(&mut self, chosen: u128) -> Option<u128> {
        self.solves += 1;
        let diff = self.checker.second(self.remap.back(chosen))?;
        self.learned_count += 1;
        Some(self.remap.fwd(diff))
    }

    /// Records every puzzle `chosen` + `left` cells of `free`.
    pub(super) fn emit_all(&mut self, chosen: u128, free: u128, left: usize) {
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
