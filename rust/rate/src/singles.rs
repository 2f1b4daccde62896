//! Singles and intersections: hidden and naked singles, pointing and
//! box/line reduction (claiming).

use crate::*;

impl Board {
    pub(crate) fn hidden_single(
        &self,
        units: std::ops::Range<usize>,
        t: Technique,
    ) -> Option<Step> {
        for u in units {
            // Digits seen once and at least twice in the unit.
            let (mut once, mut twice) = (0u16, 0u16);
            for &c in &UNITS[u] {
                twice |= once & self.cand[c];
                once |= self.cand[c];
            }
            let single = once & !twice;
            if single != 0 {
                let d = single.trailing_zeros() as u8 + 1;
                let p = self.places(u, d);
                return Some(Step {
                    technique: t,
                    placement: Some((p[0], d)),
                    eliminations: Vec::new(),
                    detail: format!("in {}", unit_name(u)),
                });
            }
        }
        None
    }

    pub(crate) fn naked_single(&self) -> Option<Step> {
        (0..81).find(|&c| self.cand[c].count_ones() == 1).map(|c| {
            let d = self.cand[c].trailing_zeros() as u8 + 1;
            Step {
                technique: Technique::NakedSingle,
                placement: Some((c, d)),
                eliminations: Vec::new(),
                detail: String::new(),
            }
        })
    }

    pub(crate) fn pointing(&self) -> Option<Step> {
        for b in 0..9 {
            for d in 1..=9u8 {
                let p = self.places(18 + b, d);
                if p.is_empty() {
                    continue;
                }
                for (line, unit) in [(row as fn(usize) -> usize, 0), (col, 9)] {
                    if p.iter().all(|&c| line(c) == line(p[0])) {
                        let u = unit + line(p[0]);
                        let el = self
                            .elims_of(UNITS[u].iter().copied().filter(|&c| boxi(c) != b), bit(d));
                        if !el.is_empty() {
                            return Some(Step {
                                technique: Technique::Pointing,
                                placement: None,
                                eliminations: el,
                                detail: format!("in box {} ({})", b + 1, unit_name(u)),
                            });
                        }
                    }
                }
            }
        }
        None
    }

    pub(crate) fn box_line(&self) -> Option<Step> {
        for u in 0..18 {
            for d in 1..=9u8 {
                let p = self.places(u, d);
                if p.is_empty() || !p.iter().all(|&c| boxi(c) == boxi(p[0])) {
                    continue;
                }
                let b = boxi(p[0]);
                let el = self.elims_of(
                    UNITS[18 + b]
                        .iter()
                        .copied()
                        .filter(|c| !UNITS[u].contains(c)),
                    bit(d),
                );
                if !el.is_empty() {
                    return Some(Step {
                        technique: Technique::BoxLine,
                        placement: None,
                        eliminations: el,
                        detail: format!("in {} (box {})", unit_name(u), b + 1),
                    });
                }
            }
        }
        None
    }
}
