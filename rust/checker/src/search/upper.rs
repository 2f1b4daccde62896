//! The upper levels: the expansion into tasks, the global table, the
//! composite tables' making and the local table's filling.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use super::code::{Baseline, Isa};
use super::lower::scan_unhit;
use super::table::{and_not, first_bit, set_range, Bits, Composites, Table};
use super::{Ctx, Task, COMP_TOP, GW, LOCAL_AT, LOCAL_RESERVE, LOCAL_WORDS};
use crate::composite::ND;
use crate::remap::Remap;
use crate::unique::Uniqueness;
use crate::{cells_of, Cells, ALL};

/// What a node does after step 1/2 at the upper levels.
pub(super) enum Step {
    /// Pruned, or fully handled.
    Done,
    /// Branch on these cells.
    Branch(u128),
}

impl<'a> Ctx<'a> {
    pub(super) fn new(
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
            #[cfg(target_arch = "x86_64")]
            avx2: None,
        }
    }

    /// One level of the search as tasks: the children of `t` go to `out`
    /// (leaves are handled here).
    pub(super) fn expand(&mut self, t: Task, out: &mut Vec<Task>) {
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
    pub(super) fn learn_global(&mut self, set: u128) -> Option<usize> {
        if self.global.full() {
            return None;
        }
        Some(self.global.push(set))
    }

    /// Steps 1–3 at an upper node: the cells to branch on, or `Done`.
    /// May add learned sets to the global table and `alive`.
    pub(super) fn prepare(
        &mut self,
        chosen: u128,
        dead: u128,
        left: usize,
        alive: &mut Bits<GW>,
    ) -> Step {
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
    pub(super) fn top(
        &mut self,
        chosen: u128,
        dead: u128,
        left: usize,
        alive: &mut Bits<GW>,
        have: u8,
    ) {
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
    pub(super) fn hit_composites<I: Isa>(&mut self, isa: I, c: usize, left: usize, degrees: u8) {
        for d in 0..ND {
            if degrees >> d & 1 == 0 {
                continue;
            }
            let n = self.cwords[d];
            let (lower, upper) = self.cstack.split_at_mut(left);
            let (src, dst) = (&upper[0][d], &mut lower[left - 1][d]);
            // `src` is 0 past its `n` words (see `build_comp`).
            isa.and_not_rows(dst, src, &self.comps[d].cell[c], n);
        }
    }

    /// Steps 1-3 at an upper node, then its children.
    pub(super) fn top_branch(
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
            self.hit_composites(Baseline, c, left, have);
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
    pub(super) fn fill_local(&mut self, sets: &[u128]) {
        #[cfg(target_arch = "x86_64")]
        if let Some(isa) = self.avx2 {
            return isa.fill_local(&mut self.local, sets);
        }
        Baseline.fill_local(&mut self.local, sets)
    }

    /// The live parts of the unhit global sets, smallest first (in
    /// `scratch`, taken), or `None` when one has no live cell (prune). The
    /// first `room` (at least) are sorted by (size, mask) without
    /// duplicates; the others by size only, in global table order.
    pub(super) fn live_parts(
        &mut self,
        dead: u128,
        alive: &Bits<GW>,
        room: usize,
    ) -> Option<Vec<u128>> {
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
    pub(super) fn build_comp(&mut self, d: usize, chosen: u128, dead: u128, left: usize) -> bool {
        #[cfg(target_arch = "x86_64")]
        if let Some(isa) = self.avx2 {
            return isa.build_comp(self, d, chosen, dead, left);
        }
        Baseline.build_comp(self, d, chosen, dead, left)
    }

    /// [`Ctx::build_comp`] in the code of the caller ([`Isa::build_comp`]).
    #[inline(always)]
    pub(super) fn build_comp_body(
        &mut self,
        d: usize,
        chosen: u128,
        dead: u128,
        left: usize,
    ) -> bool {
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
    pub(super) fn add_local(&mut self, set: u128, alive: &mut Bits<LOCAL_WORDS>) -> Option<usize> {
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
    pub(super) fn missing(&mut self, chosen: u128) -> Option<u128> {
        if let Some(i) = self.rest.iter().position(|&r| r & chosen == 0) {
            return Some(self.rest.swap_remove(i));
        }
        let ua = self.check(chosen)?;
        let _ = self.learn_global(ua);
        Some(ua)
    }
}
