//! Wings: XY-Wing, XYZ-Wing and the ALS wings (WXYZ to TUVWXYZ).

use crate::*;

impl Board {
    pub(crate) fn seeing_all(&self, cells: &[usize], mask: u16) -> Vec<(usize, u8)> {
        let seeing = cells.iter().fold(ALL_CELLS, |m, &x| m & PEERS[x]);
        self.elims_of(cells_of_mask(seeing), mask)
    }

    /// The step of an XY- or XYZ-Wing: its pivot and pincers with their
    /// candidates.
    fn wing_step(&self, t: Technique, el: Elims, [p, a, b]: [usize; 3]) -> Step {
        let [cp, ca, cb] = [p, a, b].map(|c| digits_of(self.cand[c]));
        let (p, a, b) = (cell_name(p), cell_name(a), cell_name(b));
        let detail = format!("pivot {p} {{{cp}}}, pincers {a} {{{ca}}}, {b} {{{cb}}}");
        Step::eliminating(t, el, detail)
    }

    pub(crate) fn xy_wing(&self) -> Option<Step> {
        let bivalue = (0..81)
            .filter(|&c| self.cand[c].count_ones() == 2)
            .fold(0u128, |m, c| m | 1 << c);
        for p in cells_of_mask(bivalue) {
            let cp = self.cand[p];
            for a in cells_of_mask(PEERS[p] & bivalue) {
                let ca = self.cand[a];
                if (ca & cp).count_ones() != 1 {
                    continue;
                }
                let z = ca & !cp;
                let want = (cp & !ca) | z;
                let others = PEERS[p] & bivalue & !(1 << a);
                for b in cells_of_mask(others).filter(|&c| self.cand[c] == want) {
                    let el = self.seeing_all(&[a, b], z);
                    if !el.is_empty() {
                        return Some(self.wing_step(Technique::XyWing, el, [p, a, b]));
                    }
                }
            }
        }
        None
    }

    pub(crate) fn xyz_wing(&self) -> Option<Step> {
        for p in (0..81).filter(|&c| self.cand[c].count_ones() == 3) {
            let cp = self.cand[p];
            let pincers: Vec<usize> = cells_of_mask(PEERS[p])
                .filter(|&c| self.cand[c].count_ones() == 2 && self.cand[c] & !cp == 0)
                .collect();
            for (i, &a) in pincers.iter().enumerate() {
                for &b in &pincers[i + 1..] {
                    if self.cand[a] == self.cand[b] {
                        continue;
                    }
                    let z = self.cand[a] & self.cand[b];
                    let el = self.seeing_all(&[p, a, b], z);
                    if !el.is_empty() {
                        return Some(self.wing_step(Technique::XyzWing, el, [p, a, b]));
                    }
                }
            }
        }
        None
    }
}

/// Sudoku Explainer's wings.
impl Board {
    /// XY-Wing (4.2).
    pub(crate) fn se_xy_wing(&self) -> Option<Step> {
        self.xy_wing()
    }

    /// XYZ-Wing (4.4).
    pub(crate) fn se_xyz_wing(&self) -> Option<Step> {
        self.xyz_wing()
    }
}

/// The ALS wings (WXYZ 5.5–5.6, VWXYZ 6.2–6.4, UVWXYZ 6.6, TUVWXYZ 7.5):
/// n cells seeing each other hold exactly n + 1 digits between them (an
/// almost locked set); a bivalue cell {x,z} outside sees every one of them
/// holding x. If the bivalue cell is not x it is z, and if it is x the set
/// holds z: z leaves every cell seeing the bivalue cell and the set's
/// z-cells. When z also links (doubly linked), the set's other digits leave
/// every cell seeing all the set's cells holding them, and x and z every
/// cell seeing the bivalue cell and their cells. Sudoku Explainer scores
/// WXYZ (3 cells) 5.5 + 0.1 × (1 − |3 − m|) and VWXYZ (4 cells)
/// 6.2 + 0.1 × (2 − |3 − m|), m the most candidates in one of the cells;
/// UVWXYZ (5 cells) 6.6 and TUVWXYZ (6 cells) 7.5.
impl Board {
    pub(crate) fn se_als_wing(&self, n: usize) -> Option<Step> {
        let (t, base) = match n {
            3 => (Technique::WxyzWing, 55i32),
            4 => (Technique::VwxyzWing, 62),
            5 => (Technique::UvwxyzWing, 66),
            _ => (Technique::TuvwxyzWing, 75),
        };
        let cells = (0..81)
            .filter(|&c| (2..=n as u32 + 1).contains(&self.cand[c].count_ones()))
            .fold(0u128, |m, c| m | 1 << c);
        let places = places_of(&self.cand);
        let bivalue = (0..81)
            .filter(|&c| self.cand[c].count_ones() == 2)
            .fold(0u128, |m, c| m | 1 << c);
        let mut best: Option<(u8, usize, String, Step)> = None;
        let mut set = Vec::with_capacity(n);
        self.als_sets(cells, n, 0, ALL_CELLS, &mut set, &mut |als, union| {
            let big = als
                .iter()
                .map(|&c| self.cand[c].count_ones() as i32)
                .max()
                .unwrap_or(0);
            let tenths = match n {
                3 => base + (1 - (3 - big).abs()),
                4 => base + (2 - (3 - big).abs()),
                _ => base,
            } as u8;
            let als_mask = als.iter().fold(0u128, |m, &c| m | 1 << c);
            let near = als.iter().fold(0u128, |m, &c| m | PEERS[c]);
            // For each digit: the set's cells holding it, and the cells
            // seeing all of those.
            let mut holding = [0u128; 9];
            let mut seen = [ALL_CELLS; 9];
            for i in 0..9 {
                holding[i] = places[i] & als_mask;
                let mut h = holding[i];
                while h != 0 {
                    seen[i] &= PEERS[h.trailing_zeros() as usize];
                    h &= h - 1;
                }
            }
            let mut yzs = bivalue & near & !als_mask;
            while yzs != 0 {
                let yz = yzs.trailing_zeros() as usize;
                yzs &= yzs - 1;
                let m = self.cand[yz];
                let Some((x, z, double, gone)) =
                    self.als_wing_gone(yz, union, als_mask, &holding, &seen, &places)
                else {
                    continue;
                };
                let k = gone.iter().map(|g| g.count_ones() as usize).sum::<usize>();
                if k == 0 {
                    continue;
                }
                // serate's order among hints: easiest, most eliminations,
                // then the name's suffix (doubly linked, the largest cell's
                // size, the cells' candidates in all) in reverse text order.
                let size: u32 = als.iter().map(|&c| self.cand[c].count_ones()).sum();
                let suffix = format!("{}{big}{size}", if double { 2 } else { 1 });
                if best.as_ref().is_some_and(|b| {
                    (b.0, std::cmp::Reverse(b.1), std::cmp::Reverse(b.2.as_str()))
                        <= (
                            tenths,
                            std::cmp::Reverse(k),
                            std::cmp::Reverse(suffix.as_str()),
                        )
                }) {
                    continue;
                }
                let mut el: Vec<(usize, u8)> = Vec::with_capacity(k);
                for c in 0..81 {
                    for (i, g) in gone.iter().enumerate() {
                        if g >> c & 1 == 1 {
                            el.push((c, i as u8 + 1));
                        }
                    }
                }
                let names: Vec<String> = als.iter().map(|&c| cell_name(c)).collect();
                let step = Step {
                    technique: t,
                    tenths,
                    placement: None,
                    eliminations: el,
                    detail: format!(
                        "{} {{{}}} with {} {{{}}}, x={x} z={z}{}",
                        names.join(","),
                        digits_of(union),
                        cell_name(yz),
                        digits_of(m),
                        if double { " (doubly linked)" } else { "" }
                    ),
                };
                best = Some((tenths, k, suffix, step));
            }
        });
        best.map(|b| b.3)
    }

    /// For the bivalue cell `yz` next to an almost locked set (its cells
    /// `als_mask`, its digits `union`; by digit, the set's cells holding it
    /// and the cells seeing all of those): x, z, whether doubly linked, and
    /// by digit the cells that lose it. `None` when `yz` is not linked.
    fn als_wing_gone(
        &self,
        yz: usize,
        union: u16,
        als_mask: u128,
        holding: &[u128; 9],
        seen: &[u128; 9],
        places: &[u128; 9],
    ) -> Option<(u8, u8, bool, [u128; 9])> {
        let m = self.cand[yz];
        if m & !union != 0 {
            return None;
        }
        let lo = m.trailing_zeros() as u8 + 1;
        let hi = 16 - m.leading_zeros() as u8;
        let linked = |d: u8| holding[d as usize - 1] & !PEERS[yz] == 0;
        let (x, z, double) = match (linked(lo), linked(hi)) {
            (true, true) => (lo, hi, true),
            (true, false) => (lo, hi, false),
            (false, true) => (hi, lo, false),
            _ => return None,
        };
        let outside = !als_mask & !(1u128 << yz);
        let seeing = |d: u8, with_yz: bool| -> u128 {
            let i = d as usize - 1;
            let m = places[i] & seen[i] & outside;
            if with_yz {
                m & PEERS[yz]
            } else {
                m
            }
        };
        let mut gone = [0u128; 9];
        gone[z as usize - 1] |= seeing(z, true);
        if double {
            gone[x as usize - 1] |= seeing(x, true);
            for w in (1..=9u8).filter(|&w| union & bit(w) != 0 && m & bit(w) == 0) {
                gone[w as usize - 1] |= seeing(w, false);
            }
        }
        Some((x, z, double, gone))
    }

    /// Calls `f` with every set of `n` cells of `cells` (from index
    /// `from`) that see each other and hold exactly n + 1 digits.
    #[allow(clippy::too_many_arguments)]
    fn als_sets(
        &self,
        cells: u128,
        n: usize,
        union: u16,
        common: u128,
        set: &mut Vec<usize>,
        f: &mut dyn FnMut(&[usize], u16),
    ) {
        if set.len() == n {
            if union.count_ones() as usize == n + 1 {
                f(set, union);
            }
            return;
        }
        // Candidates after the last cell taken that see every cell taken.
        let mut next = cells & common;
        if let Some(&last) = set.last() {
            next &= !((2u128 << last) - 1);
        }
        while next != 0 {
            let c = next.trailing_zeros() as usize;
            next &= next - 1;
            let u = union | self.cand[c];
            if u.count_ones() as usize > n + 1 {
                continue;
            }
            set.push(c);
            self.als_sets(cells, n, u, common & PEERS[c], set, f);
            set.pop();
        }
    }
}
