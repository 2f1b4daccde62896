//! The static single chains: X-, Y- and bidirectional cycles and forcing
//! (X-)chains, and the per-digit memory of nested searches' X-hints.

use super::*;

impl Engine {
    /// Breadth-first search for cycles back to `start`. With `bar`, stops
    /// once every chain still to be found would score worse than the bar:
    /// a round follows two links, no potential repeats on a path, and a
    /// cycle closed in the round ending at `length` links has `length`
    /// distinct potentials (its complexity).
    pub(super) fn cycles(
        &mut self,
        links: &StaticLinks,
        start: u32,
        y: bool,
        x: bool,
        bar: Option<Key>,
        found: &mut Vec<u32>,
    ) {
        let base = if x && y { 70 } else { 65 };
        let source = self.nodes[start as usize].pot;
        let mut ons = self.new_set();
        ons.add(source, start);
        let Scratch {
            mut pending_on,
            mut pending_off,
            mut layer,
            targets,
            mut path_bits,
        } = std::mem::take(&mut self.scratch);
        pending_on.push(start);
        let mut length = 0;
        let mut path = [0u64; NPOT.div_ceil(64)];
        let mut seen = [0u64; NPOT.div_ceil(64)];
        while !pending_on.is_empty() || !pending_off.is_empty() {
            let least = length + 2;
            if !beats((base + length_tenths(least), least, 0), bar) {
                break;
            }
            length += 1;
            std::mem::swap(&mut layer, &mut pending_on);
            for &p in &layer {
                let from = self.nodes[p as usize].pot.cell();
                self.first_path(p, &mut path, &mut path_bits);
                for &q in links.offs_of(self.nodes[p as usize].pot) {
                    let (w, b) = (q.0 as usize / 64, q.0 % 64);
                    if path[w] >> b & 1 == 1 {
                        continue;
                    }
                    // An off reached before has implied all its ons
                    // already: again, it can only close a cycle.
                    if seen[w] >> b & 1 == 1 && !links.ons_of(q).iter().any(|&(o, _)| o == source) {
                        continue;
                    }
                    seen[w] |= 1 << b;
                    let k = self.node(q, &[p]);
                    self.nodes[k as usize].cause = link_unit(from, q.cell());
                    pending_off.push(k);
                }
                for b in path_bits.drain(..) {
                    path[b as usize / 64] = 0;
                }
            }
            length += 1;
            layer.clear();
            std::mem::swap(&mut layer, &mut pending_off);
            for &p in &layer {
                let pot = self.nodes[p as usize].pot;
                for &(q, cause) in links.ons_of(pot) {
                    let back = length >= 4 && q == source;
                    if !back && ons.contains(q) {
                        continue;
                    }
                    let k = self.node(q, &[p]);
                    self.nodes[k as usize].cause = cause;
                    if back {
                        found.push(k);
                    }
                    if ons.add(q, k) {
                        pending_on.push(k);
                    }
                }
            }
            layer.clear();
        }
        self.recycle([ons]);
        pending_on.clear();
        pending_off.clear();
        layer.clear();
        self.scratch = Scratch {
            pending_on,
            pending_off,
            layer,
            targets,
            path_bits,
        };
    }

    /// Breadth-first search for a chain from `start` to its negation. With
    /// `bar`, stops once every chain still to be found would score worse
    /// than the bar. A round follows two links (on to off, off to on) and
    /// every potential gets one node, so the path to a target found in round
    /// r has 2r - 1 links and 2r distinct potentials: its complexity.
    pub(super) fn forcing_chains(
        &mut self,
        links: &StaticLinks,
        start: u32,
        y: bool,
        bar: Option<Key>,
        found: &mut Vec<u32>,
    ) {
        let base = if y { 70 } else { 66 };
        let mut depth = 0u32;
        let source = self.nodes[start as usize].pot;
        let mut ons = self.new_set();
        let mut offs = self.new_set();
        let Scratch {
            mut pending_on,
            mut pending_off,
            mut layer,
            mut targets,
            path_bits,
        } = std::mem::take(&mut self.scratch);
        if source.on() {
            ons.add(source, start);
            pending_on.push(start);
        } else {
            offs.add(source, start);
            pending_off.push(start);
        }
        // The search has one target (the start's negation): it ends when
        // it finds it.
        'search: while !pending_on.is_empty() || !pending_off.is_empty() {
            let least = 2 * (depth + 1);
            if !beats((base + length_tenths(least), least, 0), bar) {
                break;
            }
            depth += 1;
            std::mem::swap(&mut layer, &mut pending_on);
            for &p in &layer {
                for &q in links.offs_of(self.nodes[p as usize].pot) {
                    let target = q.conj() == source && !targets.contains(&q);
                    if !target && offs.contains(q) {
                        continue;
                    }
                    let k = self.node(q, &[p]);
                    if target {
                        targets.push(q);
                        found.push(k);
                        break 'search;
                    }
                    if offs.add(q, k) {
                        pending_off.push(k);
                    }
                }
            }
            layer.clear();
            std::mem::swap(&mut layer, &mut pending_off);
            for &p in &layer {
                let pot = self.nodes[p as usize].pot;
                for &(q, cause) in links.ons_of(pot) {
                    let target = q.conj() == source && !targets.contains(&q);
                    if !target && ons.contains(q) {
                        continue;
                    }
                    let k = self.node(q, &[p]);
                    self.nodes[k as usize].cause = cause;
                    if target {
                        targets.push(q);
                        found.push(k);
                        break 'search;
                    }
                    if ons.add(q, k) {
                        pending_on.push(k);
                    }
                }
            }
            layer.clear();
        }
        self.recycle([ons, offs]);
        pending_on.clear();
        pending_off.clear();
        layer.clear();
        targets.clear();
        self.scratch = Scratch {
            pending_on,
            pending_off,
            layer,
            targets,
            path_bits,
        };
    }

    pub(super) fn cycle_hint(
        &self,
        dst: u32,
        y: bool,
        x: bool,
        bar: Option<Key>,
    ) -> Option<ChainHint> {
        let (complexity, parents, chain_key) = self.complexity_and_parents(&[dst], NO_CAUSE, true);
        let (t, base) = match (y, x) {
            (true, true) => (Technique::BidirectionalCycle, 70),
            (true, false) => (Technique::YCycle, 65),
            _ => (Technique::XCycle, 65),
        };
        let sort_key = if y && x {
            4
        } else if y {
            3
        } else {
            2
        };
        if !beats(
            (base + length_tenths(complexity), complexity, sort_key),
            bar,
        ) {
            return None;
        }
        // The cycle's cells, then for each digit the cells outside them
        // seeing an on (forward) and an off (backward) node of the digit.
        let mut cells = 0u128;
        let mut k = dst;
        while let Some(&p) = self.parents(k).first() {
            cells |= 1 << self.nodes[k as usize].pot.cell();
            k = p;
        }
        let mut forw = [0u128; 9];
        let mut back = [0u128; 9];
        let mut k = dst;
        while let Some(&p) = self.parents(k).first() {
            let pot = self.nodes[k as usize].pot;
            let i = pot.digit() as usize - 1;
            let seen = PEERS[pot.cell()] & self.places[i] & !cells;
            if pot.on() {
                forw[i] |= seen;
            } else {
                back[i] |= seen;
            }
            k = p;
        }
        let mut el: Vec<(usize, u8)> = Vec::new();
        for i in 0..9 {
            el.extend(cells_of_mask(forw[i] & back[i]).map(|c| (c, i as u8 + 1)));
        }
        if el.is_empty() {
            return None;
        }
        el.sort_unstable();
        Some(ChainHint {
            step: Step {
                technique: t,
                tenths: base + length_tenths(complexity),
                placement: None,
                eliminations: el,
                detail: self.describe(|| format!("{} (cycle)", self.chain_text(dst))),
            },
            complexity,
            sort_key,
            rule_parents: parents,
            chain_key,
        })
    }

    pub(super) fn forcing_chain_hint(
        &self,
        target: u32,
        y: bool,
        bar: Option<Key>,
    ) -> Option<ChainHint> {
        let pot = self.nodes[target as usize].pot;
        let (complexity, parents, chain_key) =
            self.complexity_and_parents(&[target], NO_CAUSE, false);
        let (t, base) = if y {
            (Technique::ForcingChain, 70)
        } else {
            (Technique::ForcingXChain, 66)
        };
        let sort_key = if y { 4 } else { 2 };
        if !beats(
            (base + length_tenths(complexity), complexity, sort_key),
            bar,
        ) {
            return None;
        }
        let (placement, eliminations) = if pot.on() {
            let c = pot.cell();
            let el = (1..=9u8)
                .filter(|&v| v != pot.digit() && self.has(c, v))
                .map(|v| (c, v))
                .collect();
            (Some((c, pot.digit())), el)
        } else {
            (None, vec![(pot.cell(), pot.digit())])
        };
        Some(ChainHint {
            step: Step {
                technique: t,
                tenths: base + length_tenths(complexity),
                placement,
                eliminations,
                detail: self.describe(|| self.chain_text(target)),
            },
            complexity,
            sort_key,
            rule_parents: parents,
            chain_key,
        })
    }

    /// Sudoku Explainer's "Forcing Chains & Cycles": every X-cycle, Y-cycle,
    /// bidirectional cycle and forcing (X-)chain. A nested search takes the
    /// X-cycles and X-chains digit by digit from [`x_hints`], which keeps
    /// them (they depend on the digit's places only).
    pub(super) fn unary_hints(&mut self, all: bool) -> Vec<ChainHint> {
        let mut hints = Hints::new(all);
        let mut links = StaticLinks::new(self);
        let by_digit = all && self.nested;
        for (y, x) in [(false, true), (true, false), (true, true)] {
            if by_digit && !y {
                self.x_hints_by_digit(&mut links, &mut hints);
                continue;
            }
            links.set_mode(y, x);
            for c in 0..81 {
                let card = self.grid[c].count_ones();
                if self.value[c] != 0 || card < 2 || (!x && card > 2) {
                    continue;
                }
                let mut digits = self.grid[c];
                while digits != 0 {
                    let d = digits.trailing_zeros() as u8 + 1;
                    digits &= digits - 1;
                    self.unary_from(&mut links, c, d, y, x, &mut hints);
                }
            }
        }
        hints.list
    }

    /// The cycles and chains from candidate (`c`, `d`) in one mode.
    pub(super) fn unary_from(
        &mut self,
        links: &mut StaticLinks,
        c: usize,
        d: u8,
        y: bool,
        x: bool,
        hints: &mut Hints,
    ) {
        let (mut cycles, mut chains) = (Vec::new(), Vec::new());
        let mark = self.nodes.len();
        let start = self.node(Pot::new(c, d, true), &[]);
        // Nothing leads back to an on no off implies: no cycle through it,
        // no chain proving it.
        let back = links.is_implied(Pot::new(c, d, true));
        // Nor can it find a target it cannot reach.
        let [cycle, to_off, to_on] = links.reachable(c, d, [back, x, x && back]);
        if back && cycle {
            self.cycles(links, start, y, x, hints.bar(), &mut cycles);
        }
        if x {
            if to_off {
                self.forcing_chains(links, start, y, hints.bar(), &mut chains);
            }
            if back && to_on {
                let off = self.node(Pot::new(c, d, false), &[]);
                self.forcing_chains(links, off, y, hints.bar(), &mut chains);
            }
        }
        for &k in &cycles {
            let h = self.cycle_hint(k, y, x, hints.bar());
            hints.push(h);
        }
        for &k in &chains {
            let h = self.forcing_chain_hint(k, y, hints.bar());
            hints.push(h);
        }
        // The hints are written out: their nodes can go.
        self.truncate(mark);
    }

    /// The X-mode hints of a nested search, in the order the search finds
    /// them (cell by cell, digits ascending), each digit's from [`x_hints`]
    /// or found afresh and kept there. A chain proving a candidate true
    /// takes its cell's other candidates on this grid.
    pub(super) fn x_hints_by_digit(&mut self, links: &mut StaticLinks, hints: &mut Hints) {
        let mut found: Vec<(u8, u8, usize, XHints)> = Vec::new();
        let mut links_set = false;
        for d in 1..=9u8 {
            let i = d as usize - 1;
            let mut singles = 0u128;
            let mut m = self.places[i];
            while m != 0 {
                let c = m.trailing_zeros() as usize;
                m &= m - 1;
                if self.grid[c] == bit(d) {
                    singles |= 1 << c;
                }
            }
            let key = (d, self.places[i], singles);
            let list = match x_hints(&key) {
                Some(list) => list,
                None => {
                    if !links_set {
                        links.set_mode(false, true);
                        links_set = true;
                    }
                    let mut own = Hints::new(true);
                    let mut list = Vec::new();
                    let mut m = self.places[i] & !singles;
                    while m != 0 {
                        let c = m.trailing_zeros() as usize;
                        m &= m - 1;
                        if self.value[c] != 0 {
                            continue;
                        }
                        self.unary_from(links, c, d, false, true, &mut own);
                        list.extend(own.list.drain(..).map(|h| (c as u8, h)));
                    }
                    let list = Rc::new(list);
                    keep_x_hints(key, list.clone());
                    list
                }
            };
            for k in 0..list.len() {
                found.push((list[k].0, d, k, list.clone()));
            }
        }
        found.sort_unstable_by_key(|&(c, d, k, _)| (c, d, k));
        for (_, _, k, list) in found {
            let mut h = list[k].1.clone();
            if let Some((c, d)) = h.step.placement {
                h.step.eliminations = (1..=9u8)
                    .filter(|&v| v != d && self.has(c, v))
                    .map(|v| (c, v))
                    .collect();
            }
            hints.push(Some(h));
        }
    }
}

/// A digit, its places, and those that are their cell's last candidate:
/// all its X-cycles and X-chains depend on.
pub(super) type XKey = (u8, u128, u128);

/// A digit's X-mode hints, each with its start cell.
pub(super) type XHints = Rc<Vec<(u8, ChainHint)>>;

thread_local! {
    static X_KEPT: std::cell::RefCell<std::collections::HashMap<XKey, XHints>> =
        std::cell::RefCell::new(std::collections::HashMap::new());
}

/// The X-mode hints kept for a digit (see [`Engine::x_hints_by_digit`]),
/// with their start cells.
pub(super) fn x_hints(key: &XKey) -> Option<XHints> {
    X_KEPT.with(|k| k.borrow().get(key).cloned())
}

pub(super) fn keep_x_hints(key: XKey, list: XHints) {
    X_KEPT.with(|k| {
        let mut k = k.borrow_mut();
        // Some sixty thousand digits (a few MB), then start afresh.
        if k.len() >= 1 << 16 {
            k.clear();
        }
        k.insert(key, list);
    });
}
