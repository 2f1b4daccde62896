//! The search state: the grid, the implication nodes and their parents,
//! and the links from a potential to what it implies.

use super::*;

/// One search's state: the grid (updated in dynamic searches) and the
/// nodes of every implication found.
pub(super) struct Engine {
    pub(super) grid: [u16; 81],
    /// For each digit, the cells holding it in `grid` (kept in step).
    pub(super) places: [u128; 9],
    pub(super) value: [u8; 81],
    pub(super) nodes: Vec<Node>,
    /// Every node's parents, one after the other.
    pub(super) pool: Vec<u32>,
    /// By digit, the cells where it was missing when this search started.
    pub(super) missing: [u128; 9],
    /// Whether this search is nested in another (its hints then carry the
    /// candidates their links relied on, [`Engine::complexity_and_parents`]).
    pub(super) nested: bool,
    /// Empty sets to reuse (a set is 6 KB: made once, cleared after use).
    pub(super) spare: Vec<PotSet>,
    /// The static searches' queues and lists, kept between searches.
    pub(super) scratch: Scratch,
    pub(super) follow_scratch: FollowScratch,
    /// The buffer [`Engine::advanced`] fills (kept between stalls).
    pub(super) advanced_out: Advanced,
    /// In a multiple or dynamic search: what assuming each candidate true
    /// implies (by candidate index), followed once and reused by its cell's
    /// and its units' forcing chains.
    pub(super) on_cache: Vec<Option<Rc<OnFollow>>>,
    /// In a static multiple search (the grid fixed): the ons each
    /// candidate's falsity implies, by candidate index, in
    /// [`Engine::off_to_on`]'s order (empty when not in such a search).
    pub(super) static_ons: Vec<Small<(Pot, u8), 4>>,
}

thread_local! {
    /// Empty sets left by finished searches, for the next ones (each set
    /// is 6 KB to clear when new).
    static SPARE_SETS: std::cell::RefCell<Vec<PotSet>> = const { std::cell::RefCell::new(Vec::new()) };
    /// The buffers of finished searches, for the next ones: a nested
    /// search starts with its lists grown to size, not empty.
    static SPARE_BUFFERS: std::cell::RefCell<Vec<Buffers>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// An engine's growing lists, empty (kept in [`SPARE_BUFFERS`]).
#[derive(Default)]
pub(super) struct Buffers {
    pub(super) nodes: Vec<Node>,
    pub(super) pool: Vec<u32>,
    pub(super) scratch: Scratch,
    pub(super) follow_scratch: FollowScratch,
    pub(super) advanced_out: Advanced,
    pub(super) on_cache: Vec<Option<Rc<OnFollow>>>,
}

impl Drop for Engine {
    fn drop(&mut self) {
        let spare = std::mem::take(&mut self.spare);
        SPARE_SETS.with(|s| {
            let mut s = s.borrow_mut();
            // Keep at most a few thousand (about 20 MB).
            let room = 4096usize.saturating_sub(s.len());
            s.extend(spare.into_iter().take(room));
        });
        let mut b = Buffers {
            nodes: std::mem::take(&mut self.nodes),
            pool: std::mem::take(&mut self.pool),
            scratch: std::mem::take(&mut self.scratch),
            follow_scratch: std::mem::take(&mut self.follow_scratch),
            advanced_out: std::mem::take(&mut self.advanced_out),
            on_cache: std::mem::take(&mut self.on_cache),
        };
        b.nodes.clear();
        b.pool.clear();
        b.on_cache.clear();
        SPARE_BUFFERS.with(|s| {
            let mut s = s.borrow_mut();
            // One per nesting level is all that is ever in use.
            if s.len() < 8 {
                s.push(b);
            }
        });
    }
}

/// What a candidate assumed true implies: the ons and offs, and the
/// contradiction that stopped the search, if one did.
pub(super) struct OnFollow {
    pub(super) ons: PotSet,
    pub(super) offs: PotSet,
    pub(super) absurd: Option<(u32, u32)>,
}

impl OnFollow {
    /// The ons (`on`) or the offs.
    pub(super) fn set(&self, on: bool) -> &PotSet {
        if on {
            &self.ons
        } else {
            &self.offs
        }
    }
}

/// Buffers of the static searches (empty between searches).
#[derive(Default)]
pub(super) struct Scratch {
    pub(super) pending_on: Vec<u32>,
    pub(super) pending_off: Vec<u32>,
    pub(super) layer: Vec<u32>,
    pub(super) targets: Vec<Pot>,
    pub(super) path_bits: Vec<u16>,
}

/// Buffers of [`Engine::follow`] (empty between follows).
#[derive(Default)]
pub(super) struct FollowScratch {
    pub(super) pending_on: VecDeque<u32>,
    pub(super) pending_off: VecDeque<u32>,
    pub(super) made: Vec<(Pot, Parents, u8)>,
}

impl Engine {
    pub(super) fn new(board: &Board) -> Engine {
        let b = SPARE_BUFFERS
            .with(|s| s.borrow_mut().pop())
            .unwrap_or_default();
        let places = places_of(&board.cand);
        Engine {
            grid: board.cand,
            places,
            missing: places.map(|p| !p & ALL_CELLS),
            value: board.value,
            nodes: b.nodes,
            pool: b.pool,
            nested: false,
            spare: Vec::new(),
            scratch: b.scratch,
            follow_scratch: b.follow_scratch,
            advanced_out: b.advanced_out,
            on_cache: b.on_cache,
            static_ons: Vec::new(),
        }
    }

    /// An empty set (a spare one if any).
    pub(super) fn new_set(&mut self) -> PotSet {
        self.spare
            .pop()
            .or_else(|| SPARE_SETS.with(|s| s.borrow_mut().pop()))
            .unwrap_or_else(PotSet::new)
    }

    /// Gives sets back for reuse.
    pub(super) fn recycle(&mut self, sets: impl IntoIterator<Item = PotSet>) {
        for mut s in sets {
            s.clear();
            self.spare.push(s);
        }
    }

    /// The missing candidates a nested hint relies on: for every on
    /// potential behind its targets (and, for cycles, every off), the
    /// candidates missing from this search's grid that made its link — the
    /// cell's other candidates for a cell link, the digit's other places in
    /// the unit for a unit link — each once, in the order of the walk. The
    /// outer search keeps those it removed itself ([`Engine::advanced`]):
    /// so the list depends on this grid only, and the hints of a grid serve
    /// every outer search that stops at it. `start_cause` is the
    /// assumption's (cell and region forcing chains).
    ///
    /// Returned with the hint's complexity ([`Engine::complexity_of`]),
    /// counted in the same walk (at the top level, where there are no
    /// parents, the complexity alone).
    pub(super) fn complexity_and_parents(
        &self,
        targets: &[u32],
        start_cause: u8,
        offs_too: bool,
    ) -> (u32, Vec<(usize, u8)>, u32) {
        if !self.nested {
            return (self.complexity_of(targets), Vec::new(), 0);
        }
        let mut key = 0x811c_9dc5u32;
        let mut count = 0;
        let mut nested = 0;
        let mut nested_seen: Vec<u32> = Vec::new();
        let mut out: Vec<(usize, u8)> = Vec::new();
        // By digit, the places missing when this search started (the outer
        // search keeps those it removed itself, [`Engine::advanced`]), and
        // those listed.
        let gone = &self.missing;
        let mut taken = [0u128; 9];
        for &t in targets {
            key = (key ^ 0xffff).wrapping_mul(0x0100_0193);
            self.for_each_ancestor(t, |k, node| {
                count += 1;
                key = (key ^ u32::from(node.pot.0)).wrapping_mul(0x0100_0193);
                if node.nested_id != 0 && !nested_seen.contains(&node.nested_id) {
                    nested_seen.push(node.nested_id);
                    nested += node.nested;
                }
                let cause = if self.parents(k).is_empty() {
                    start_cause
                } else {
                    node.cause
                };
                if (node.pot.on() || offs_too) && cause != NO_CAUSE {
                    let (c, d) = (node.pot.cell(), node.pot.digit());
                    if cause == CELL {
                        for (v, (g, t)) in gone.iter().zip(&mut taken).enumerate() {
                            if (g & !*t) >> c & 1 == 1 {
                                *t |= 1 << c;
                                out.push((c, v as u8 + 1));
                            }
                        }
                    } else {
                        let i = d as usize - 1;
                        let mut m = UNIT_MASKS[cause as usize] & gone[i] & !taken[i];
                        taken[i] |= m;
                        while m != 0 {
                            out.push((m.trailing_zeros() as usize, d));
                            m &= m - 1;
                        }
                    }
                }
            });
        }
        (count + nested, out, key | 1)
    }

    /// Calls `f` with every node behind `target`, itself included, once per
    /// distinct potential (depth first, a node before its parents).
    pub(super) fn for_each_ancestor(&self, target: u32, mut f: impl FnMut(u32, &Node)) {
        thread_local! {
            static TODO: std::cell::Cell<Vec<u32>> = const { std::cell::Cell::new(Vec::new()) };
        }
        let mut seen = [0u64; NPOT.div_ceil(64)];
        let mut todo = TODO.take();
        todo.push(target);
        while let Some(k) = todo.pop() {
            let node = &self.nodes[k as usize];
            let (w, b) = (node.pot.0 as usize / 64, node.pot.0 % 64);
            if seen[w] >> b & 1 == 1 {
                continue;
            }
            seen[w] |= 1 << b;
            f(k, node);
            todo.extend(self.parents(k).iter().copied());
        }
        TODO.set(todo);
    }

    pub(super) fn node(&mut self, pot: Pot, parents: &[u32]) -> u32 {
        self.nodes.push(Node {
            pot,
            first: self.pool.len() as u32,
            count: parents.len() as u8,
            nested: 0,
            nested_id: 0,
            cause: NO_CAUSE,
        });
        self.pool.extend_from_slice(parents);
        (self.nodes.len() - 1) as u32
    }

    pub(super) fn parents(&self, k: u32) -> &[u32] {
        let n = &self.nodes[k as usize];
        &self.pool[n.first as usize..n.first as usize + n.count as usize]
    }

    /// Drops the nodes from `mark` on (and their parents).
    pub(super) fn truncate(&mut self, mark: usize) {
        if let Some(n) = self.nodes.get(mark) {
            self.pool.truncate(n.first as usize);
        }
        self.nodes.truncate(mark);
    }

    pub(super) fn has(&self, c: usize, d: u8) -> bool {
        self.grid[c] & bit(d) != 0
    }

    /// The potentials an on potential turns off.
    pub(super) fn on_to_off(&self, p: Pot, y: bool) -> Small<Pot, 32> {
        let (c, d) = (p.cell(), p.digit());
        let mut out = Small::new();
        offs_of_on(self.grid[c], self.places[d as usize - 1], c, d, y, |q| {
            out.push(q)
        });
        out
    }

    /// The potentials an off potential (node `n`) turns on, with their
    /// parents (the node, and in dynamic searches the offs that made the
    /// link: candidates of `source` (whose places per digit are
    /// `source_places`) gone from the grid).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn off_to_on(
        &self,
        n: u32,
        source: Option<(&[u16; 81], &[u128; 9])>,
        ons: &PotSet,
        offs: &PotSet,
        y: bool,
        x: bool,
        out: &mut Vec<(Pot, Parents, u8)>,
    ) {
        out.clear();
        let p = self.nodes[n as usize].pot;
        let (c, d) = (p.cell(), p.digit());
        // An on already implied matters only if its off is too (a
        // contradiction).
        let known = |q: Pot| ons.contains(q) && !offs.contains(q.conj());
        if source.is_none() && !self.static_ons.is_empty() && y && x {
            let mut parents = Parents::new();
            parents.push(n);
            for &(q, cause) in self.static_ons[c * 9 + d as usize - 1].as_slice() {
                if !known(q) {
                    out.push((q, parents, cause));
                }
            }
            return;
        }
        if y && self.grid[c].count_ones() == 2 {
            let other = (self.grid[c] & !bit(d)).trailing_zeros() as u8 + 1;
            if known(Pot::new(c, other, true)) {
                return self.off_to_on_x(n, source, ons, offs, x, out);
            }
            let mut parents = Parents::new();
            parents.push(n);
            let mut gone = source.map_or(0, |s| s.0[c] & !self.grid[c]);
            while gone != 0 {
                let v = gone.trailing_zeros() as u8 + 1;
                gone &= gone - 1;
                if let Some(q) = offs.get(Pot::new(c, v, false)) {
                    parents.push(q);
                }
            }
            out.push((Pot::new(c, other, true), parents, CELL));
        }
        self.off_to_on_x(n, source, ons, offs, x, out);
    }

    /// Calls `f` with every candidate of the grid as (cell, digit, the
    /// cell's candidates): cell by cell, digits ascending. A loop rather
    /// than an iterator, so that callers' loops compile as written.
    #[inline(always)]
    pub(super) fn for_each_candidate(&self, mut f: impl FnMut(usize, u8, u16)) {
        for c in 0..81 {
            let cand = self.grid[c];
            let mut m = cand;
            while m != 0 {
                let d = m.trailing_zeros() as u8 + 1;
                m &= m - 1;
                f(c, d, cand);
            }
        }
    }

    /// What each candidate's falsity implies on this grid (the cell's last
    /// other candidate, then the digit's last other place in the box, the
    /// row, the column), by candidate index.
    pub(super) fn list_static_ons(&self) -> Vec<Small<(Pot, u8), 4>> {
        let mut all = vec![Small::new(); NPOT / 2];
        self.for_each_candidate(|c, d, cand| {
            all[c * 9 + d as usize - 1] = ons_of_off(cand, self.places[d as usize - 1], c, d);
        });
        all
    }

    /// The X part of [`Engine::off_to_on`], appended to `out`.
    pub(super) fn off_to_on_x(
        &self,
        n: u32,
        source: Option<(&[u16; 81], &[u128; 9])>,
        ons: &PotSet,
        offs: &PotSet,
        x: bool,
        out: &mut Vec<(Pot, Parents, u8)>,
    ) {
        let p = self.nodes[n as usize].pot;
        let (c, d) = (p.cell(), p.digit());
        let known = |q: Pot| ons.contains(q) && !offs.contains(q.conj());
        if x {
            let i = d as usize - 1;
            let places = self.places[i] & !(1 << c);
            for u in [18 + boxi(c), row(c), 9 + col(c)] {
                let m = places & UNIT_MASKS[u];
                if m.count_ones() != 1 {
                    continue;
                }
                let other = m.trailing_zeros() as usize;
                if known(Pot::new(other, d, true)) {
                    continue;
                }
                let mut parents = Parents::new();
                parents.push(n);
                if let Some((_, source_places)) = source {
                    let mut gone = source_places[i] & UNIT_MASKS[u] & !self.places[i];
                    while gone != 0 {
                        let o = gone.trailing_zeros() as usize;
                        gone &= gone - 1;
                        if let Some(q) = offs.get(Pot::new(o, d, false)) {
                            parents.push(q);
                        }
                    }
                }
                out.push((Pot::new(other, d, true), parents, u as u8));
            }
        }
    }

    /// A hint's complexity: the ancestors of each target (counted per
    /// target), plus each nested chain among them once.
    pub(super) fn complexity_of(&self, targets: &[u32]) -> u32 {
        let mut count = 0;
        let mut nested = 0;
        let mut nested_seen: Vec<u32> = Vec::new();
        for &n in targets {
            self.for_each_ancestor(n, |_, node| {
                count += 1;
                if node.nested_id != 0 && !nested_seen.contains(&node.nested_id) {
                    nested_seen.push(node.nested_id);
                    nested += node.nested;
                }
            });
        }
        count + nested
    }

    /// A hint's text, written only for a top-level search: a nested
    /// search's hints are used for their eliminations, never shown.
    pub(super) fn describe(&self, text: impl FnOnce() -> String) -> String {
        if self.nested {
            String::new()
        } else {
            text()
        }
    }

    /// The chain to a node along first parents, from its source: `r1c2=4
    /// => r1c5<>4 => ...`.
    pub(super) fn chain_text(&self, n: u32) -> String {
        let mut path = vec![self.nodes[n as usize].pot];
        let mut k = n;
        let mut guard = 0;
        while let Some(&p) = self.parents(k).first() {
            path.push(self.nodes[p as usize].pot);
            k = p;
            guard += 1;
            if guard > 2000 {
                break;
            }
        }
        path.reverse();
        let parts: Vec<String> = path.iter().map(|p| p.text()).collect();
        parts.join(" => ")
    }

    /// The potentials on a node's first-parent path (itself excluded), in
    /// a bit set over the potentials, written into `set`; the bits set
    /// are listed in `bits` so they can be cleared.
    pub(super) fn first_path(
        &self,
        n: u32,
        set: &mut [u64; NPOT.div_ceil(64)],
        bits: &mut Vec<u16>,
    ) {
        let mut k = n;
        while let Some(&p) = self.parents(k).first() {
            k = p;
            let pot = self.nodes[k as usize].pot.0;
            set[pot as usize / 64] |= 1 << (pot % 64);
            bits.push(pot);
        }
    }
}

/// The offs candidate (`c`, `d`) implies if true, on a grid where its cell
/// holds `cand` and the digit's places are `places`: with `y`, the cell's
/// other candidates first (Y-links), then the digit's other places in the
/// box, the row and the column (X-links), each cell once.
pub(super) fn offs_of_on(
    cand: u16,
    places: u128,
    c: usize,
    d: u8,
    y: bool,
    mut f: impl FnMut(Pot),
) {
    if y {
        let mut others = cand & !bit(d);
        while others != 0 {
            let v = others.trailing_zeros() as u8 + 1;
            others &= others - 1;
            f(Pot::new(c, v, false));
        }
    }
    let mut added: u128 = 1 << c;
    for u in [18 + boxi(c), row(c), 9 + col(c)] {
        let mut m = places & UNIT_MASKS[u] & !added;
        added |= m;
        while m != 0 {
            let o = m.trailing_zeros() as usize;
            m &= m - 1;
            f(Pot::new(o, d, false));
        }
    }
}

/// The ons candidate (`c`, `d`) implies if false, on the same grid, with
/// their link's unit: the cell's last other candidate ([`CELL`]), then the
/// digit's last other place in the box, the row, the column.
pub(super) fn ons_of_off(cand: u16, places: u128, c: usize, d: u8) -> Small<(Pot, u8), 4> {
    let mut list = Small::new();
    if cand.count_ones() == 2 {
        let other = (cand & !bit(d)).trailing_zeros() as u8 + 1;
        list.push((Pot::new(c, other, true), CELL));
    }
    let rest = places & !(1u128 << c);
    for u in [18 + boxi(c), row(c), 9 + col(c)] {
        let p = rest & UNIT_MASKS[u];
        if p.count_ones() == 1 {
            list.push((Pot::new(p.trailing_zeros() as usize, d, true), u as u8));
        }
    }
    list
}
