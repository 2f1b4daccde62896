//! Multiple and dynamic forcing chains: from every candidate of a cell or
//! every place of a digit in a unit, what all branches imply; and the
//! contradictions and double implications of one candidate.

use super::*;

/// How a forcing-chain hint proves its target: the branches whose chains
/// it rests on, the cause of their start, and its sort key among hints of
/// one score.
struct Proof<'a> {
    branches: &'a [u32],
    start_cause: u8,
    sort_key: u8,
}

impl Engine {
    /// What proving `target` removes: its cell's other candidates if it is
    /// proved true (`on`), else the candidate itself.
    fn proved_eliminations(&self, target: Pot, on: bool) -> Vec<(usize, u8)> {
        let (c, d) = (target.cell(), target.digit());
        if on {
            (1..=9u8)
                .filter(|&v| v != d && self.has(c, v))
                .map(|v| (c, v))
                .collect()
        } else {
            vec![(c, d)]
        }
    }

    /// A contradiction or double-implication hint (`set_on`: the target is
    /// proved true, so the cell's other candidates go).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn binary_hint(
        &self,
        mode: Mode,
        on: u32,
        off: u32,
        target: Pot,
        set_on: bool,
        absurd: bool,
        bar: Option<Key>,
    ) -> Option<ChainHint> {
        let sort_key = if absurd { 7 } else { 1 };
        let kind = if mode.nishio {
            "forcing"
        } else if absurd {
            "contradiction"
        } else {
            "double"
        };
        let proof = Proof {
            branches: &[on, off],
            start_cause: NO_CAUSE,
            sort_key,
        };
        self.proved_hint(mode, target, set_on, proof, bar, || {
            format!(
                "{kind}: {} and {}",
                self.chain_text(on),
                self.chain_text(off)
            )
        })
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn reduction_hint(
        &self,
        mode: Mode,
        target: Pot,
        branches: &[u32],
        what: impl FnOnce() -> String,
        sort_key: u8,
        start_cause: u8,
        bar: Option<Key>,
    ) -> Option<ChainHint> {
        let proof = Proof {
            branches,
            start_cause,
            sort_key,
        };
        self.proved_hint(mode, target, target.on(), proof, bar, || {
            let chains: Vec<String> = branches.iter().map(|&n| self.chain_text(n)).collect();
            format!("{}: {}", what(), chains.join("; "))
        })
    }

    /// The hint that proves `target` true (`on`) or false through `proof`,
    /// if it eliminates anything and beats `bar`.
    fn proved_hint(
        &self,
        mode: Mode,
        target: Pot,
        on: bool,
        proof: Proof<'_>,
        bar: Option<Key>,
        detail: impl FnOnce() -> String,
    ) -> Option<ChainHint> {
        let eliminations = self.proved_eliminations(target, on);
        if eliminations.is_empty() {
            return None;
        }
        let (complexity, parents, chain_key) =
            self.complexity_and_parents(proof.branches, proof.start_cause, false);
        let tenths = mode.base_tenths() + length_tenths(complexity);
        if !beats((tenths, complexity, proof.sort_key), bar) {
            return None;
        }
        Some(ChainHint {
            step: Step {
                technique: mode.technique(),
                tenths,
                placement: on.then_some((target.cell(), target.digit())),
                eliminations,
                detail: self.describe(detail),
            },
            complexity,
            sort_key: proof.sort_key,
            rule_parents: parents,
            chain_key,
        })
    }

    /// Multiple, Nishio and dynamic forcing chains (see the module docs).
    pub(super) fn multiple_hints(&mut self, mode: Mode, all: bool) -> Vec<ChainHint> {
        let mut hints = Hints::new(all);
        let mark = self.nodes.len();
        self.on_cache.clear();
        self.on_cache.resize_with(NPOT / 2, || None);
        let mut reach = None;
        if !mode.dynamic {
            self.static_ons = self.list_static_ons();
            if !mode.nishio {
                let mut links = StaticLinks::new(self);
                links.set_mode(true, true);
                reach = Some(Reach::new(links));
            }
        }
        for c in 0..81 {
            let card = self.grid[c].count_ones();
            if self.value[c] != 0 || !(card > 2 || (card > 1 && mode.dynamic)) {
                continue;
            }
            if let Some(reach) = &mut reach {
                if !reach.any_common(self, c) {
                    continue;
                }
            }
            self.cell_hints(mode, c, card, &mut hints);
        }
        // The hints are written out: the followed sets and their nodes can
        // go.
        let cached: Vec<OnFollow> = self
            .on_cache
            .drain(..)
            .flatten()
            .filter_map(|f| Rc::try_unwrap(f).ok())
            .collect();
        self.recycle(cached.into_iter().flat_map(|f| [f.ons, f.offs]));
        self.truncate(mark);
        self.static_ons.clear();
        hints.list
    }

    /// What assuming candidate (c, d) true implies in this search (see
    /// [`Engine::on_cache`]): the ons and offs, and the contradiction
    /// found, if any (shared, read only).
    pub(super) fn on_follow(&mut self, mode: Mode, c: usize, d: u8) -> Rc<OnFollow> {
        let i = c * 9 + d as usize - 1;
        if let Some(f) = &self.on_cache[i] {
            return f.clone();
        }
        let p = Pot::new(c, d, true);
        let node = self.node(p, &[]);
        let mut ons = self.new_set();
        let mut offs = self.new_set();
        ons.add(p, node);
        let absurd = self.follow(mode, &mut ons, &mut offs);
        let f = Rc::new(OnFollow { ons, offs, absurd });
        self.on_cache[i] = Some(f.clone());
        f
    }

    pub(super) fn cell_hints(&mut self, mode: Mode, c: usize, card: u32, hints: &mut Hints) {
        let mut values: Vec<Rc<OnFollow>> = Vec::with_capacity(9);
        for d in (1..=9u8)
            .filter(|&d| self.grid[c] & bit(d) != 0)
            .collect::<Vec<u8>>()
        {
            let p_on = Pot::new(c, d, true);
            let p_off = Pot::new(c, d, false);
            let off_node = self.node(p_off, &[]);
            let mut off_on = self.new_set();
            let mut off_off = self.new_set();
            let double = card >= 3 && !mode.nishio && mode.dynamic;
            let contradiction = mode.dynamic || mode.nishio;
            let f = self.on_follow(mode, c, d);
            let (on_on, on_off) = (&f.ons, &f.offs);
            if let Some((a, b)) = f.absurd {
                if contradiction {
                    let h = self.binary_hint(mode, a, b, p_on, false, true, hints.bar());
                    hints.push(h);
                }
            }
            off_off.add(p_off, off_node);
            // What the candidate's falsity implies serves contradictions and
            // double implications only (dynamic searches, Nishio).
            if contradiction || double {
                if let Some((a, b)) = self.follow(mode, &mut off_on, &mut off_off) {
                    if contradiction {
                        let h = self.binary_hint(mode, a, b, p_off, true, true, hints.bar());
                        hints.push(h);
                    }
                }
            }
            if double {
                for &p in &on_on.order {
                    if let Some(f) = off_on.get(p) {
                        let n = on_on.get(p).expect("in set");
                        let h = self.binary_hint(mode, n, f, p, true, false, hints.bar());
                        hints.push(h);
                    }
                }
                for &p in &on_off.order {
                    if let Some(f) = off_off.get(p) {
                        let n = on_off.get(p).expect("in set");
                        let h = self.binary_hint(mode, n, f, p, false, false, hints.bar());
                        hints.push(h);
                    }
                }
            }
            if !mode.nishio {
                self.region_hints(mode, c, d, &f, hints);
            }
            self.recycle([off_on, off_off]);
            values.push(f);
        }
        if mode.nishio || !(card == 2 || (mode.multiple && card > 2)) {
            return;
        }
        // What every value of the cell implies.
        let what = || format!("cell forcing on {}", cell_name(c));
        self.reduction_hints(mode, &values, what, 5, CELL, hints);
    }

    /// The hints of what every branch implies (the first branch's order):
    /// cell forcing chains (`sort_key` 5, `cause` [`CELL`]) or region
    /// forcing chains (6, the unit).
    pub(super) fn reduction_hints(
        &self,
        mode: Mode,
        branches: &[Rc<OnFollow>],
        what: impl Fn() -> String,
        sort_key: u8,
        cause: u8,
        hints: &mut Hints,
    ) {
        for on in [true, false] {
            for &p in &branches[0].set(on).order {
                let mut nodes = Small::<u32, 9>::new();
                for f in branches {
                    match f.set(on).get(p) {
                        Some(n) => nodes.push(n),
                        None => break,
                    }
                }
                if nodes.len < branches.len() {
                    continue;
                }
                let h = self.reduction_hint(
                    mode,
                    p,
                    nodes.as_slice(),
                    &what,
                    sort_key,
                    cause,
                    hints.bar(),
                );
                hints.push(h);
            }
        }
    }

    pub(super) fn region_hints(
        &mut self,
        mode: Mode,
        c: usize,
        d: u8,
        own: &Rc<OnFollow>,
        hints: &mut Hints,
    ) {
        for u in [18 + boxi(c), row(c), 9 + col(c)] {
            let mut places = Small::<usize, 9>::new();
            for &o in &UNITS[u] {
                if self.has(o, d) {
                    places.push(o);
                }
            }
            let places = places.as_slice();
            let n = places.len();
            if !(n == 2 || (mode.multiple && n > 2)) || places[0] != c {
                continue;
            }
            let mut pos: Vec<Rc<OnFollow>> = Vec::with_capacity(9);
            for &o in places {
                if o == c {
                    pos.push(own.clone());
                } else {
                    pos.push(self.on_follow(mode, o, d));
                }
            }
            // What every place of the digit in the unit implies.
            let what = || format!("region forcing on {d} in {}", unit_name(u));
            self.reduction_hints(mode, &pos, what, 6, u as u8, hints);
        }
    }
}
