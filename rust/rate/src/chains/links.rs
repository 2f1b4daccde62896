//! The static links of a grid, listed once per search, and the bit sets
//! that say whether a static search can find anything at all.

use super::*;

/// Every static link of the grid, listed once per search: for each
/// candidate, the offs its truth implies (its cell's other candidates
/// first, the Y-links, then the X-links) and the ons its falsity implies
/// (the cell's last other candidate first, then the unit links). A search
/// mode ([`StaticLinks::set_mode`]) reads the part of each list it uses,
/// and the reachability sets of its links.
pub(super) struct StaticLinks {
    /// The grid's candidates numbered 0..n, by candidate index (`u16::MAX`
    /// if not in the grid).
    pub(super) local: [u16; NPOT / 2],
    /// Where each candidate's offs start in `offs` (one more entry at the
    /// end), and how many of them are its cell's.
    pub(super) start: Vec<u32>,
    pub(super) in_cell: Vec<u8>,
    pub(super) offs: Vec<Pot>,
    pub(super) ons: Vec<Small<(Pot, u8), 4>>,
    /// The mode: Y-links, X-links.
    pub(super) y: bool,
    pub(super) x: bool,
    /// Words per bit set over the candidates.
    pub(super) words: usize,
    /// The candidates some off implies: a search can only come back to
    /// these (a cycle, or a chain proving one true).
    pub(super) implied: Vec<u64>,
    /// For each candidate: the candidates whose truth its truth implies in
    /// one round (on ⇒ off ⇒ on).
    pub(super) succ: Vec<u64>,
    /// `offs` by local number.
    pub(super) off_local: Vec<u16>,
    /// Scratch for [`StaticLinks::reachable`].
    pub(super) seen: Vec<u64>,
    pub(super) todo: Vec<u16>,
}

impl StaticLinks {
    pub(super) fn new(engine: &Engine) -> StaticLinks {
        let mut local = [u16::MAX; NPOT / 2];
        let mut n = 0usize;
        engine.for_each_candidate(|c, d, _| {
            local[c * 9 + d as usize - 1] = n as u16;
            n += 1;
        });
        let mut start = Vec::with_capacity(n + 1);
        let mut in_cell = Vec::with_capacity(n);
        let mut offs = Vec::with_capacity(n * 16);
        let mut ons = Vec::with_capacity(n);
        engine.for_each_candidate(|c, d, cand| {
            start.push(offs.len() as u32);
            // On ⇒ off: the cell's others, then the digit's other places in
            // the box, the row and the column.
            in_cell.push(cand.count_ones() as u8 - 1);
            let places = engine.places[d as usize - 1];
            offs_of_on(cand, places, c, d, true, |q| offs.push(q));
            // Off ⇒ on: the cell's last other, the unit's last place.
            ons.push(ons_of_off(cand, places, c, d));
        });
        start.push(offs.len() as u32);
        let off_local = offs.iter().map(|r| local[r.0 as usize / 2]).collect();
        let words = n.div_ceil(64).max(1);
        StaticLinks {
            local,
            start,
            in_cell,
            offs,
            ons,
            y: true,
            x: true,
            words,
            implied: vec![0; words],
            succ: vec![0; n * words],
            off_local,
            seen: vec![0; words],
            todo: Vec::new(),
        }
    }

    pub(super) fn index(&self, p: Pot) -> usize {
        self.local[p.0 as usize / 2] as usize
    }

    /// Reads the links of one mode (Y-links, X-links), and lists for each
    /// candidate what its truth implies one round on. (What turns a
    /// candidate off is what it turns off: the links are symmetric.)
    pub(super) fn set_mode(&mut self, y: bool, x: bool) {
        (self.y, self.x) = (y, x);
        let w = self.words;
        let mut implied = std::mem::take(&mut self.implied);
        let mut succ = std::mem::take(&mut self.succ);
        implied.fill(0);
        succ.fill(0);
        let n = self.ons.len();
        // a's truth turns b off and b's falsity makes its ons true; the
        // links are symmetric, so a is among the offs of b.
        for b in 0..n {
            let list = self.ons_at(b);
            if list.is_empty() {
                continue;
            }
            let mut targets = [0u16; 4];
            for (t, &(q, _)) in targets.iter_mut().zip(list) {
                *t = self.index(q) as u16;
                implied[*t as usize / 64] |= 1 << (*t % 64);
            }
            let targets = &targets[..list.len()];
            let from = self.start[b] as usize + if y { 0 } else { self.in_cell[b] as usize };
            for &a in &self.off_local[from..self.start[b + 1] as usize] {
                let row = &mut succ[a as usize * w..a as usize * w + w];
                for &t in targets {
                    row[t as usize / 64] |= 1 << (t % 64);
                }
            }
        }
        (self.implied, self.succ) = (implied, succ);
    }

    /// The ons the falsity of candidate `b` (local number) implies in this
    /// mode, with their link's unit.
    pub(super) fn ons_at(&self, b: usize) -> &[(Pot, u8)] {
        let list = self.ons[b].as_slice();
        let cell = usize::from(list.first().is_some_and(|e| e.1 == CELL));
        match (self.y, self.x) {
            (true, true) => list,
            (true, false) => &list[..cell],
            _ => &list[cell..],
        }
    }

    /// Whether some off implies the on potential `p`.
    pub(super) fn is_implied(&self, p: Pot) -> bool {
        let i = self.index(p);
        self.implied[i / 64] >> (i % 64) & 1 == 1
    }

    /// The offs an on potential implies.
    pub(super) fn offs_of(&self, p: Pot) -> &[Pot] {
        let a = self.index(p);
        let from = self.start[a] as usize + if self.y { 0 } else { self.in_cell[a] as usize };
        &self.offs[from..self.start[a + 1] as usize]
    }

    /// The ons an off potential implies, with their link's unit.
    pub(super) fn ons_of(&self, p: Pot) -> &[(Pot, u8)] {
        self.ons_at(self.index(p))
    }

    /// Adds to `seen` the candidates whose truth follows, one round or
    /// more on, from the truth of those in `todo`, until `done` holds of
    /// `seen` (then `todo` is emptied).
    pub(super) fn close(&mut self, done: impl Fn(&[u64]) -> bool) {
        let w = self.words;
        while let Some(a) = self.todo.pop() {
            if done(&self.seen) {
                self.todo.clear();
                return;
            }
            let row = &self.succ[a as usize * w..a as usize * w + w];
            for (i, (s, &r)) in self.seen.iter_mut().zip(row).enumerate() {
                let mut new = r & !*s;
                *s |= new;
                while new != 0 {
                    self.todo
                        .push((i * 64 + new.trailing_zeros() as usize) as u16);
                    new &= new - 1;
                }
            }
        }
    }

    /// Which searches from candidate (`c`, `d`) can find anything at all:
    /// (a cycle back to its truth, a chain from its truth to its falsity,
    /// a chain from its falsity to its truth), each asked for in `want`
    /// (an answer not asked for is false). A search follows these links
    /// only, so one whose target is unreachable finds nothing.
    pub(super) fn reachable(&mut self, c: usize, d: u8, want: [bool; 3]) -> [bool; 3] {
        let w = self.words;
        let a = self.local[c * 9 + d as usize - 1] as usize;
        let has = |seen: &[u64], t: usize| seen[t / 64] >> (t % 64) & 1 == 1;
        let mut out = [false; 3];
        // Its falsity is reached when a candidate it turns off is true (a
        // never turns itself off; the links are symmetric), which only one
        // some off implies can be.
        let mut offs = [0u64; 12];
        let mut off = false;
        if want[1] {
            let from = self.start[a] as usize + if self.y { 0 } else { self.in_cell[a] as usize };
            for &b in &self.off_local[from..self.start[a + 1] as usize] {
                let b = b as usize;
                if self.implied[b / 64] >> (b % 64) & 1 == 1 {
                    offs[b / 64] |= 1 << (b % 64);
                    off = true;
                }
            }
        }
        if want[0] || off {
            // From its truth: what is true one round or more on (itself
            // only if it comes back: a cycle; a loop of one round is none).
            self.seen.iter_mut().for_each(|s| *s = 0);
            // (At most 729 candidates: 12 words.)
            let mut m = [0u64; 12];
            m[..w].copy_from_slice(&self.succ[a * w..a * w + w]);
            m[a / 64] &= !(1 << (a % 64));
            for (i, &r) in m[..w].iter().enumerate() {
                self.seen[i] = r;
                let mut r = r;
                while r != 0 {
                    self.todo
                        .push((i * 64 + r.trailing_zeros() as usize) as u16);
                    r &= r - 1;
                }
            }
            let hit = |seen: &[u64]| seen.iter().zip(&offs).any(|(s, o)| s & o != 0);
            let cycle = want[0];
            self.close(|seen| (!cycle || has(seen, a)) && (!off || hit(seen)));
            out[0] = cycle && has(&self.seen, a);
            out[1] = off && hit(&self.seen);
        }
        if want[2] {
            // From its falsity: the ons it implies, and on.
            self.seen.iter_mut().for_each(|s| *s = 0);
            for k in 0..self.ons_at(a).len() {
                let t = self.index(self.ons_at(a)[k].0);
                if !has(&self.seen, t) {
                    self.seen[t / 64] |= 1 << (t % 64);
                    self.todo.push(t as u16);
                }
            }
            self.close(|seen| has(seen, a));
            out[2] = has(&self.seen, a);
        }
        out
    }
}

/// For a static multiple search: whether a cell's forcing chains, or the
/// region forcing chains it starts, can find anything at all. Its value's
/// branches must imply a common potential; what a candidate's truth
/// implies is at most every on its links reach and every off those ons
/// imply (the follow may stop earlier, at a contradiction). Most cells of
/// a nested grid have no common potential: their follows are not made.
pub(super) struct Reach {
    pub(super) links: StaticLinks,
    /// By local candidate number, `words` words each: the ons reachable
    /// from its truth (itself included), and the offs they imply.
    pub(super) ons: Vec<u64>,
    pub(super) offs: Vec<u64>,
    pub(super) done: Vec<bool>,
    pub(super) todo: Vec<u16>,
}

impl Reach {
    pub(super) fn new(links: StaticLinks) -> Reach {
        let n = links.ons.len();
        let w = links.words;
        Reach {
            links,
            ons: vec![0; n * w],
            offs: vec![0; n * w],
            done: vec![false; n],
            todo: Vec::new(),
        }
    }

    /// Lists what candidate `a`'s truth reaches (once).
    pub(super) fn fill(&mut self, a: usize) {
        if self.done[a] {
            return;
        }
        self.done[a] = true;
        let w = self.links.words;
        let l = &self.links;
        let (ons, offs) = (
            &mut self.ons[a * w..a * w + w],
            &mut self.offs[a * w..a * w + w],
        );
        ons[a / 64] |= 1 << (a % 64);
        self.todo.push(a as u16);
        while let Some(o) = self.todo.pop() {
            let o = o as usize;
            for &b in &l.off_local[l.start[o] as usize..l.start[o + 1] as usize] {
                offs[b as usize / 64] |= 1 << (b % 64);
            }
            for (i, (s, &r)) in ons.iter_mut().zip(&l.succ[o * w..o * w + w]).enumerate() {
                let mut new = r & !*s;
                *s |= new;
                while new != 0 {
                    self.todo
                        .push((i * 64 + new.trailing_zeros() as usize) as u16);
                    new &= new - 1;
                }
            }
        }
    }

    /// Whether the candidates `group` (local numbers) all reach a common
    /// on or a common off.
    pub(super) fn common(&mut self, group: &[usize]) -> bool {
        for &a in group {
            self.fill(a);
        }
        let w = self.links.words;
        for sets in [&self.ons, &self.offs] {
            let mut all = [u64::MAX; 12];
            for &a in group {
                for (x, &y) in all[..w].iter_mut().zip(&sets[a * w..a * w + w]) {
                    *x &= y;
                }
            }
            if all[..w].iter().any(|&x| x != 0) {
                return true;
            }
        }
        false
    }

    /// Whether cell `c`'s forcing chains or a region forcing chain it
    /// starts (as [`Engine::cell_hints`] looks for them in a static
    /// multiple search) can find anything.
    pub(super) fn any_common(&mut self, e: &Engine, c: usize) -> bool {
        let mut group = Small::<usize, 9>::new();
        for d in (1..=9u8).filter(|&d| e.has(c, d)) {
            group.push(self.links.index(Pot::new(c, d, true)));
        }
        if self.common(group.as_slice()) {
            return true;
        }
        for d in (1..=9u8).filter(|&d| e.has(c, d)) {
            for u in [18 + boxi(c), row(c), 9 + col(c)] {
                let mut group = Small::<usize, 9>::new();
                for &o in UNITS[u].iter().filter(|&&o| e.has(o, d)) {
                    group.push(self.links.index(Pot::new(o, d, true)));
                }
                // Only the unit's first place starts its region chains.
                let g = group.as_slice();
                let first = self.links.index(Pot::new(c, d, true));
                if g.len() >= 2 && g[0] == first && self.common(g) {
                    return true;
                }
            }
        }
        false
    }
}
