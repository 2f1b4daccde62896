//! Wings: XY-Wing, XYZ-Wing and W-Wing.

use crate::*;

impl Board {
    pub(crate) fn seeing_all(&self, cells: &[usize], mask: u16) -> Vec<(usize, u8)> {
        self.elims_of((0..81).filter(|&c| cells.iter().all(|&x| sees(c, x))), mask)
    }

    pub(crate) fn xy_wing(&self) -> Option<Step> {
        for p in (0..81).filter(|&c| self.cand[c].count_ones() == 2) {
            let cp = self.cand[p];
            for a in (0..81).filter(|&c| sees(p, c) && self.cand[c].count_ones() == 2) {
                let ca = self.cand[a];
                if (ca & cp).count_ones() != 1 {
                    continue;
                }
                let z = ca & !cp;
                let want = (cp & !ca) | z;
                for b in (0..81).filter(|&c| c != a && sees(p, c) && self.cand[c] == want) {
                    let el = self.seeing_all(&[a, b], z);
                    if !el.is_empty() {
                        return Some(Step {
                            technique: Technique::XyWing,
                            tenths: Technique::XyWing.score_tenths(),
                            placement: None,
                            eliminations: el,
                            detail: format!(
                                "pivot {} {{{}}}, pincers {} {{{}}}, {} {{{}}}",
                                cell_name(p),
                                digits_of(cp),
                                cell_name(a),
                                digits_of(ca),
                                cell_name(b),
                                digits_of(want)
                            ),
                        });
                    }
                }
            }
        }
        None
    }

    pub(crate) fn xyz_wing(&self) -> Option<Step> {
        for p in (0..81).filter(|&c| self.cand[c].count_ones() == 3) {
            let cp = self.cand[p];
            let pincers: Vec<usize> = (0..81)
                .filter(|&c| {
                    sees(p, c) && self.cand[c].count_ones() == 2 && self.cand[c] & !cp == 0
                })
                .collect();
            for (i, &a) in pincers.iter().enumerate() {
                for &b in &pincers[i + 1..] {
                    if self.cand[a] == self.cand[b] {
                        continue;
                    }
                    let z = self.cand[a] & self.cand[b];
                    let el = self.seeing_all(&[p, a, b], z);
                    if !el.is_empty() {
                        return Some(Step {
                            technique: Technique::XyzWing,
                            tenths: Technique::XyzWing.score_tenths(),
                            placement: None,
                            eliminations: el,
                            detail: format!(
                                "pivot {} {{{}}}, pincers {} {{{}}}, {} {{{}}}",
                                cell_name(p),
                                digits_of(cp),
                                cell_name(a),
                                digits_of(self.cand[a]),
                                cell_name(b),
                                digits_of(self.cand[b])
                            ),
                        });
                    }
                }
            }
        }
        None
    }

    pub(crate) fn w_wing(&self) -> Option<Step> {
        let bivalue: Vec<usize> = (0..81)
            .filter(|&c| self.cand[c].count_ones() == 2)
            .collect();
        for (i, &a) in bivalue.iter().enumerate() {
            for &b in &bivalue[i + 1..] {
                if self.cand[a] != self.cand[b] || sees(a, b) {
                    continue;
                }
                let m = self.cand[a];
                for x in (1..=9u8).filter(|&x| m & bit(x) != 0) {
                    let y = m & !bit(x);
                    for u in 0..27 {
                        let p = self.places(u, x);
                        if p.len() != 2 || p.contains(&a) || p.contains(&b) {
                            continue;
                        }
                        let linked =
                            (sees(p[0], a) && sees(p[1], b)) || (sees(p[0], b) && sees(p[1], a));
                        if !linked {
                            continue;
                        }
                        let el = self.seeing_all(&[a, b], y);
                        if !el.is_empty() {
                            return Some(Step {
                                technique: Technique::WWing,
                                tenths: Technique::WWing.score_tenths(),
                                placement: None,
                                eliminations: el,
                                detail: format!(
                                    "{},{} {{{}}}, strong link on {x} in {}",
                                    cell_name(a),
                                    cell_name(b),
                                    digits_of(m),
                                    unit_name(u)
                                ),
                            });
                        }
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

/// WXYZ-Wing (5.5–5.6, an ALS-XZ with a bivalue cell): three cells seeing
/// each other hold exactly four digits between them (an almost locked
/// set); a bivalue cell {x,z} outside sees every one of them holding x. If
/// the bivalue cell is not x it is z, and if it is x the three cells hold
/// z: z leaves every cell seeing the bivalue cell and the three cells'
/// z-cells. When z also links (doubly linked), the other two digits leave
/// every cell seeing all the cells holding them, and x and z every cell
/// seeing the bivalue cell and their cells. Score: 5.5, 5.6 when the
/// largest of the three cells has three candidates.
impl Board {
    pub(crate) fn se_wxyz_wing(&self) -> Option<Step> {
        let mut best: Option<(u8, usize, Step)> = None;
        let cells: Vec<usize> = (0..81)
            .filter(|&c| self.cand[c].count_ones() >= 2)
            .collect();
        for (a, &c1) in cells.iter().enumerate() {
            if self.cand[c1].count_ones() > 4 {
                continue;
            }
            for (b, &c2) in cells.iter().enumerate().skip(a + 1) {
                if !sees(c1, c2) || (self.cand[c1] | self.cand[c2]).count_ones() > 4 {
                    continue;
                }
                for &c3 in &cells[b + 1..] {
                    let union = self.cand[c1] | self.cand[c2] | self.cand[c3];
                    if !sees(c1, c3) || !sees(c2, c3) || union.count_ones() != 4 {
                        continue;
                    }
                    let als = [c1, c2, c3];
                    let big = als
                        .iter()
                        .map(|&c| self.cand[c].count_ones())
                        .max()
                        .unwrap_or(0);
                    let tenths = if big == 3 { 56 } else { 55 };
                    for yz in 0..81 {
                        let m = self.cand[yz];
                        if m.count_ones() != 2 || m & !union != 0 || als.contains(&yz) {
                            continue;
                        }
                        if !als.iter().any(|&c| sees(c, yz)) {
                            continue;
                        }
                        let lo = m.trailing_zeros() as u8 + 1;
                        let hi = 16 - m.leading_zeros() as u8;
                        let linked = |d: u8| {
                            als.iter()
                                .filter(|&&c| self.cand[c] & bit(d) != 0)
                                .all(|&c| sees(c, yz))
                        };
                        let (lo_l, hi_l) = (linked(lo), linked(hi));
                        let (x, z, double) = match (lo_l, hi_l) {
                            (true, true) => (lo, hi, true),
                            (true, false) => (lo, hi, false),
                            (false, true) => (hi, lo, false),
                            _ => continue,
                        };
                        let seeing = |d: u8, with_yz: bool| -> Vec<usize> {
                            (0..81)
                                .filter(|&o| {
                                    !als.contains(&o)
                                        && o != yz
                                        && self.cand[o] & bit(d) != 0
                                        && (!with_yz || sees(o, yz))
                                        && als
                                            .iter()
                                            .filter(|&&c| self.cand[c] & bit(d) != 0)
                                            .all(|&c| sees(o, c))
                                })
                                .collect()
                        };
                        let mut el: Vec<(usize, u8)> =
                            seeing(z, true).into_iter().map(|o| (o, z)).collect();
                        if double {
                            el.extend(seeing(x, true).into_iter().map(|o| (o, x)));
                            for w in (1..=9u8).filter(|&w| union & bit(w) != 0 && m & bit(w) == 0) {
                                el.extend(seeing(w, false).into_iter().map(|o| (o, w)));
                            }
                        }
                        if el.is_empty() {
                            continue;
                        }
                        el.sort_unstable();
                        el.dedup();
                        let n = el.len();
                        if best.as_ref().is_some_and(|b| {
                            (b.0, std::cmp::Reverse(b.1)) <= (tenths, std::cmp::Reverse(n))
                        }) {
                            continue;
                        }
                        let step = Step {
                            technique: Technique::WxyzWing,
                            tenths,
                            placement: None,
                            eliminations: el,
                            detail: format!(
                                "{},{},{} {{{}}} with {} {{{}}}, x={x} z={z}{}",
                                cell_name(c1),
                                cell_name(c2),
                                cell_name(c3),
                                digits_of(union),
                                cell_name(yz),
                                digits_of(m),
                                if double { " (doubly linked)" } else { "" }
                            ),
                        };
                        best = Some((tenths, n, step));
                    }
                }
            }
        }
        best.map(|b| b.2)
    }
}
