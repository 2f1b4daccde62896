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
