//! Following implications: the dynamic searches update the grid as offs
//! are found, and the (+) and nested levels add the eliminations of basic
//! and nested rules when the implications stop.

use super::*;

impl Engine {
    /// Follows every implication of `ons`/`offs` (ons first); in dynamic
    /// searches, offs are removed from the grid as they are processed (the
    /// grid is restored at the end). A contradiction returns the (on, off)
    /// nodes of the same candidate.
    pub(super) fn follow(
        &mut self,
        mode: Mode,
        ons: &mut PotSet,
        offs: &mut PotSet,
    ) -> Option<(u32, u32)> {
        let saved = (self.grid, self.places);
        let mut scratch = std::mem::take(&mut self.follow_scratch);
        let result = self.follow_inner(mode, ons, offs, &mut scratch);
        scratch.pending_on.clear();
        scratch.pending_off.clear();
        self.follow_scratch = scratch;
        (self.grid, self.places) = saved;
        result
    }

    pub(super) fn follow_inner(
        &mut self,
        mode: Mode,
        ons: &mut PotSet,
        offs: &mut PotSet,
        scratch: &mut FollowScratch,
    ) -> Option<(u32, u32)> {
        let source = self.grid;
        let source_places = self.places;
        let FollowScratch {
            pending_on,
            pending_off,
            made,
        } = scratch;
        let y = !mode.nishio;
        pending_on.extend(ons.order.iter().map(|&p| ons.get(p).expect("in set")));
        pending_off.extend(offs.order.iter().map(|&p| offs.get(p).expect("in set")));
        loop {
            if let Some(p) = pending_on.pop_front() {
                for &q in self.on_to_off(self.nodes[p as usize].pot, y).as_slice() {
                    if let Some(on) = ons.get(q.conj()) {
                        let k = self.node(q, &[p]);
                        return Some((on, k));
                    }
                    if !offs.contains(q) {
                        let k = self.node(q, &[p]);
                        offs.add(q, k);
                        pending_off.push_back(k);
                    }
                }
                continue;
            }
            if let Some(p) = pending_off.pop_front() {
                self.off_to_on(
                    p,
                    mode.dynamic.then_some((&source, &source_places)),
                    ons,
                    offs,
                    y,
                    true,
                    made,
                );
                if mode.dynamic {
                    let pot = self.nodes[p as usize].pot;
                    self.grid[pot.cell()] &= !bit(pot.digit());
                    self.places[pot.digit() as usize - 1] &= !(1 << pot.cell());
                }
                for &(q, parents, cause) in made.iter() {
                    if let Some(off) = offs.get(q.conj()) {
                        let k = self.node(q, parents.as_slice());
                        self.nodes[k as usize].cause = cause;
                        return Some((k, off));
                    }
                    if !ons.contains(q) {
                        let k = self.node(q, parents.as_slice());
                        self.nodes[k as usize].cause = cause;
                        ons.add(q, k);
                        pending_on.push_back(k);
                    }
                }
                continue;
            }
            if mode.level > 0 {
                let mut any = false;
                let adv = self.advanced(mode, &source, offs);
                for &(q, from, count, nested, id) in &adv.items {
                    if !offs.contains(q) {
                        let parents = &adv.parents[from as usize..(from + count) as usize];
                        let k = self.node(q, parents);
                        self.nodes[k as usize].nested = nested;
                        self.nodes[k as usize].nested_id = id;
                        offs.add(q, k);
                        pending_off.push_back(k);
                        any = true;
                    }
                }
                self.advanced_out = adv;
                if any {
                    continue;
                }
            }
            return None;
        }
    }

    /// The eliminations of the first of the basic rules (and, at nested
    /// levels, chaining rules) that has any on the current grid, each with
    /// the offs it relied on (candidates of `source` gone from the grid).
    pub(super) fn advanced(&mut self, mode: Mode, source: &[u16; 81], offs: &PotSet) -> Advanced {
        let board = Board {
            value: self.value,
            cand: self.grid,
        };
        let mut out = std::mem::take(&mut self.advanced_out);
        out.items.clear();
        out.parents.clear();
        debug_assert_eq!(self.places, places_of(&board.cand));
        let rule = Rule {
            board: &board,
            source,
            offs,
        };
        if rule.basic(&self.places, &mut out) || mode.level < 2 {
            return out;
        }
        rule.nested(mode, &mut out);
        out
    }
}

/// A rule's eliminations on the grid a search has reached, and the offs of
/// the search they rely on.
struct Rule<'a> {
    /// The grid reached.
    board: &'a Board,
    /// The grid the search started from.
    source: &'a [u16; 81],
    /// The search's offs.
    offs: &'a PotSet,
}

impl Rule<'_> {
    /// Whether candidate (`c`, `d`) of the source is gone from the grid.
    fn gone(&self, c: usize, d: u8) -> bool {
        self.source[c] & bit(d) != 0 && self.board.cand[c] & bit(d) == 0
    }

    /// Adds eliminations `el` relying on the missing candidates `parents`
    /// (of a nested chain `nested`: complexity and id) to `out`. A rule
    /// that relies on no candidate the search removed held before it:
    /// Sudoku Explainer leaves it out of the chain.
    fn push(
        &self,
        el: &mut dyn Iterator<Item = (usize, u8)>,
        parents: &mut dyn Iterator<Item = (usize, u8)>,
        nested: (u32, u32),
        out: &mut Advanced,
    ) {
        let from = out.parents.len();
        let mut any = false;
        for (c, d) in parents {
            any = true;
            if let Some(k) = self.offs.get(Pot::new(c, d, false)) {
                out.parents.push(k);
            }
        }
        if !any {
            return;
        }
        let count = (out.parents.len() - from) as u32;
        for (c, d) in el {
            out.items.push((
                Pot::new(c, d, false),
                from as u32,
                count,
                nested.0,
                nested.1,
            ));
        }
    }

    /// [`push`](Self::push) for a basic rule (no nested complexity).
    fn push_basic(
        &self,
        el: &Elims,
        mut parents: impl Iterator<Item = (usize, u8)>,
        out: &mut Advanced,
    ) {
        self.push(&mut el.iter().copied(), &mut parents, (0, 0), out);
    }

    /// Adds to `out` the eliminations of the first basic rule that has any
    /// (pointing and claiming, hidden pairs, naked pairs, X-Wings); whether
    /// one had.
    fn basic(&self, places: &[u128; 9], out: &mut Advanced) -> bool {
        let (board, source) = (self.board, self.source);
        for (el, r1, r2, d) in board.all_locking(places) {
            let parents = UNITS[r1]
                .iter()
                .filter(|&&c| self.gone(c, d) && !UNITS[r2].contains(&c))
                .map(|&c| (c, d));
            self.push_basic(&el, parents, out);
        }
        if !out.items.is_empty() {
            return true;
        }
        for (el, u, digits, union) in board.all_hidden_pairs() {
            let mut parents = Vec::new();
            for i in (0..9).filter(|i| union & (1 << i) == 0) {
                for &d in &digits {
                    if source[UNITS[u][i]] & bit(d) != 0 {
                        parents.push((UNITS[u][i], d));
                    }
                }
            }
            self.push_basic(&el, parents.into_iter(), out);
        }
        if !out.items.is_empty() {
            return true;
        }
        for (el, cells, digits) in board.all_naked_pairs() {
            let mut parents = Vec::new();
            for &c in &cells {
                for v in 1..=9u8 {
                    if source[c] & bit(v) != 0 && digits & bit(v) == 0 {
                        parents.push((c, v));
                    }
                }
            }
            self.push_basic(&el, parents.into_iter(), out);
        }
        if !out.items.is_empty() {
            return true;
        }
        for (el, bases, covers, d) in board.all_x_wings(places) {
            let mut parents = Vec::new();
            for &b in &bases {
                for &c in &UNITS[b] {
                    if self.gone(c, d) && !covers.iter().any(|&v| UNITS[v].contains(&c)) {
                        parents.push((c, d));
                    }
                }
            }
            self.push_basic(&el, parents.into_iter(), out);
        }
        !out.items.is_empty()
    }

    /// Adds to `out` the eliminations of the first nested rule of `mode`'s
    /// level that has any, parents = the outer search's offs their links
    /// relied on (of the hint's `parents`, those this search removed).
    fn nested(&self, mode: Mode, out: &mut Advanced) {
        for m in nested_modes(mode) {
            let hints = nested_hints(m, self.board);
            for h in hints.iter() {
                let wide = |&(c, d): &(u8, u8)| (c as usize, d);
                // Of the missing candidates the hint relies on, those this
                // search removed.
                let removed = |&(c, d): &(usize, u8)| self.source[c] & bit(d) != 0;
                self.push(
                    &mut h.eliminations.iter().map(wide),
                    &mut h.parents.iter().map(wide).filter(removed),
                    (h.complexity, h.key),
                    out,
                );
            }
            if !out.items.is_empty() {
                return;
            }
        }
    }
}

/// The searches nested in one of `mode`'s level: forcing chains (9.5),
/// and multiple forcing chains (10.0), or dynamic forcing chains of the
/// nesting limit's level (10.5 and up).
fn nested_modes(mode: Mode) -> Vec<Mode> {
    let plain = Mode {
        multiple: false,
        dynamic: false,
        nishio: false,
        level: 0,
        nesting_limit: 0,
    };
    if mode.level >= 4 {
        return vec![Mode {
            multiple: true,
            dynamic: true,
            level: mode.nesting_limit,
            ..plain
        }];
    }
    let mut v = vec![plain];
    if mode.level >= 3 {
        v.push(Mode {
            multiple: true,
            ..plain
        });
    }
    v
}

impl Board {
    /// Every pointing/claiming with eliminations: (eliminations, unit
    /// holding the digit, unit cleared, digit).
    pub(super) fn all_locking(&self, places: &[u128; 9]) -> Vec<(Elims, usize, usize, u8)> {
        crate::singles::lockings(places)
            .map(|(r1, r2, d, gone)| (cells_of_mask(gone).map(|c| (c, d)).collect(), r1, r2, d))
            .collect()
    }

    /// Every hidden pair with eliminations: (eliminations, unit, digits,
    /// positions).
    pub(super) fn all_hidden_pairs(&self) -> Vec<(Elims, usize, Vec<u8>, u16)> {
        let mut out = Vec::new();
        for u in SE_UNIT_ORDER {
            if UNITS[u].iter().filter(|&&c| self.value[c] == 0).count() <= 4 {
                continue;
            }
            let pos: [u16; 9] = self.unit_positions(u);
            for (m, i, j, union) in twin_pairs(&pos) {
                let cells = (0..9)
                    .filter(|i| union & (1 << i) != 0)
                    .map(|i| UNITS[u][i]);
                let el = self.elims_of(cells, !m & 0x1ff);
                if !el.is_empty() {
                    out.push((el, u, vec![i as u8 + 1, j as u8 + 1], union));
                }
            }
        }
        out
    }

    /// Every naked pair with eliminations: (eliminations, cells, digits).
    pub(super) fn all_naked_pairs(&self) -> Vec<(Elims, Vec<usize>, u16)> {
        let mut out = Vec::new();
        for u in SE_UNIT_ORDER {
            if UNITS[u].iter().filter(|&&c| self.value[c] == 0).count() < 4 {
                continue;
            }
            let cand: [u16; 9] = std::array::from_fn(|i| self.cand[UNITS[u][i]]);
            for (_, i, j, union) in twin_pairs(&cand) {
                if !(0..9).any(|k| k != i && k != j && cand[k] & union != 0) {
                    continue;
                }
                let cells = vec![UNITS[u][i], UNITS[u][j]];
                let el = self.elims_of(
                    UNITS[u].iter().copied().filter(|c| !cells.contains(c)),
                    union,
                );
                out.push((el, cells, union));
            }
        }
        out
    }

    /// Every X-Wing with eliminations: (eliminations, base units, cover
    /// units, digit).
    pub(super) fn all_x_wings(
        &self,
        places: &[u128; 9],
    ) -> Vec<(Elims, Vec<usize>, Vec<usize>, u8)> {
        let mut out = Vec::new();
        let mut placed = [0usize; 10];
        for c in 0..81 {
            placed[self.value[c] as usize] += 1;
        }
        // Positions of each digit in each line (bit i = the line's cell i).
        let mut pos = [[0u16; 9]; 18];
        for (d, row) in places.iter().enumerate() {
            let mut m = *row;
            while m != 0 {
                let c = m.trailing_zeros() as usize;
                m &= m - 1;
                pos[row_of(c)][d] |= 1 << col_of(c);
                pos[9 + col_of(c)][d] |= 1 << row_of(c);
            }
        }
        for (base, cover) in [(9usize, 0usize), (0, 9)] {
            // An X-Wing needs two lines holding the digit in the same two
            // places.
            let any = (0..9).any(|d| {
                let lines: [u16; 9] = std::array::from_fn(|i| pos[base + i][d]);
                placed[d + 1] + 4 <= 9 && has_twin_pair(&lines)
            });
            if !any {
                continue;
            }
            for m in crate::subsets::masks_of_size(2) {
                let (i, j) = (m.trailing_zeros() as usize, 15 - m.leading_zeros() as usize);
                for d in 1..=9u8 {
                    if placed[d as usize] + 4 > 9 {
                        continue;
                    }
                    let (a, b) = (pos[base + i][d as usize - 1], pos[base + j][d as usize - 1]);
                    if a.count_ones() < 2 || b.count_ones() < 2 {
                        continue;
                    }
                    let union = a | b;
                    if union.count_ones() != 2 {
                        continue;
                    }
                    let covers: Vec<usize> = (0..9)
                        .filter(|j| union & (1 << j) != 0)
                        .map(|j| cover + j)
                        .collect();
                    let mut el = Vec::new();
                    for &v in &covers {
                        for (k, &c) in UNITS[v].iter().enumerate() {
                            if m & (1 << k) == 0 && self.cand[c] & bit(d) != 0 {
                                el.push((c, d));
                            }
                        }
                    }
                    if !el.is_empty() {
                        out.push((el, vec![base + i, base + j], covers, d));
                    }
                }
            }
        }
        out
    }
}

/// The positions `i < j` (as the mask `m`) whose masks are the same pair
/// (`union`, two bits), in [`crate::subsets::masks_of_size`] order: a
/// hidden pair's digits or a naked pair's cells.
fn twin_pairs(masks: &[u16; 9]) -> impl Iterator<Item = (u16, usize, usize, u16)> + '_ {
    let any = has_twin_pair(masks);
    crate::subsets::masks_of_size(2)
        .take_while(move |_| any)
        .filter_map(move |m| {
            let (i, j) = (m.trailing_zeros() as usize, 15 - m.leading_zeros() as usize);
            if masks[i].count_ones() < 2 || masks[j].count_ones() < 2 {
                return None;
            }
            let union = masks[i] | masks[j];
            (union.count_ones() == 2).then_some((m, i, j, union))
        })
}

/// Whether two of the masks are the same pair (two bits): a hidden or
/// naked pair, or an X-Wing's two lines.
pub(super) fn has_twin_pair(masks: &[u16; 9]) -> bool {
    let mut seen = [0u16; 9];
    let mut n = 0;
    for &m in masks {
        if m.count_ones() == 2 {
            if seen[..n].contains(&m) {
                return true;
            }
            seen[n] = m;
            n += 1;
        }
    }
    false
}

/// The row of a cell.
pub(super) fn row_of(c: usize) -> usize {
    c / 9
}

/// The column of a cell.
pub(super) fn col_of(c: usize) -> usize {
    c % 9
}
