//! Singles and intersections: hidden and naked singles, pointing and
//! box/line reduction (claiming).

use crate::*;

impl Board {
    pub(crate) fn hidden_single(
        &self,
        units: std::ops::Range<usize>,
        t: Technique,
    ) -> Option<Step> {
        units
            .map(|u| (u, self.unit_singles(u)))
            .find(|&(_, single)| single != 0)
            .map(|(u, single)| self.single_step(t, u, single.trailing_zeros() as u8 + 1))
    }

    /// The digits with exactly one place in unit `u`.
    fn unit_singles(&self, u: usize) -> u16 {
        let (mut once, mut twice) = (0u16, 0u16);
        for &c in &UNITS[u] {
            twice |= once & self.cand[c];
            once |= self.cand[c];
        }
        once & !twice
    }

    /// The step placing `d` at its one place in unit `u`.
    fn single_step(&self, t: Technique, u: usize, d: u8) -> Step {
        Step::placing(t, (self.places(u, d)[0], d), format!("in {}", unit_name(u)))
    }

    pub(crate) fn naked_single(&self) -> Option<Step> {
        (0..81).find(|&c| self.cand[c].count_ones() == 1).map(|c| {
            let d = self.cand[c].trailing_zeros() as u8 + 1;
            Step::placing(Technique::NakedSingle, (c, d), String::new())
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
                            return Some(Step::eliminating(
                                Technique::Pointing,
                                el,
                                format!("in box {} ({})", b + 1, unit_name(u)),
                            ));
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
                    return Some(Step::eliminating(
                        Technique::BoxLine,
                        el,
                        format!("in {} (box {})", unit_name(u), b + 1),
                    ));
                }
            }
        }
        None
    }
}

/// Sudoku Explainer's singles and intersections, in its search order.
impl Board {
    /// Full house (1.0), then hidden single in a box (1.2), a column or a
    /// row (1.5): the units are searched boxes, columns, rows; a unit with
    /// one empty cell first over all units.
    pub(crate) fn se_hidden_single(&self) -> Option<Step> {
        // For each unit: its empty cells, and the digits with exactly one
        // place in it.
        let empty: [usize; 27] =
            std::array::from_fn(|u| UNITS[u].iter().filter(|&&c| self.value[c] == 0).count());
        let single: [u16; 27] = std::array::from_fn(|u| self.unit_singles(u));
        for alone in [true, false] {
            for u in SE_UNIT_ORDER {
                if (empty[u] == 1) != alone || single[u] == 0 {
                    continue;
                }
                let t = if alone {
                    Technique::FullHouse
                } else if u >= 18 {
                    Technique::HiddenSingleBox
                } else {
                    Technique::HiddenSingleLine
                };
                return Some(self.single_step(t, u, single[u].trailing_zeros() as u8 + 1));
            }
        }
        None
    }

    /// The first cell (in cell order) with one candidate left (2.3).
    pub(crate) fn se_naked_single(&self) -> Option<Step> {
        self.naked_single()
    }

    /// Intersections (pointing 2.6, claiming 2.8) or, with `direct`, the
    /// direct ones: an intersection whose eliminations leave a digit one
    /// place in another unit of the first kind, which is then placed
    /// (direct pointing 1.7, direct claiming 1.9).
    pub(crate) fn se_locking(&self, direct: bool) -> Option<Step> {
        let places = places_of(&self.cand);
        for (r1, r2, d, gone) in lockings(&places) {
            let k1 = r1 / 9 * 9;
            let i1 = r1 - k1;
            let digit = places[d as usize - 1];
            let pointing = k1 == 18;
            if !direct {
                let el = cells_of_mask(gone).map(|c| (c, d)).collect();
                let t = if pointing {
                    Technique::Pointing
                } else {
                    Technique::BoxLine
                };
                return Some(Step::eliminating(
                    t,
                    el,
                    format!("on {d} in {} ({})", unit_name(r1), unit_name(r2)),
                ));
            }
            for i3 in (0..9).filter(|&i| i != i1) {
                let r3 = k1 + i3;
                if !crosses(r3, r2) {
                    continue;
                }
                let p3 = digit & UNIT_MASKS[r3];
                if p3.count_ones() < 2 {
                    continue;
                }
                let rest = p3 & !UNIT_MASKS[r2];
                if rest.count_ones() == 1 {
                    let t = if pointing {
                        Technique::DirectPointing
                    } else {
                        Technique::DirectClaiming
                    };
                    // Only the placement: the eliminations are the
                    // reasoning, not the step.
                    return Some(Step::placing(
                        t,
                        (rest.trailing_zeros() as usize, d),
                        format!(
                            "on {d} in {} ({}), then hidden single in {}",
                            unit_name(r1),
                            unit_name(r2),
                            unit_name(r3)
                        ),
                    ));
                }
            }
        }
        None
    }
}

/// Whether two units share a cell (and are different).
pub(crate) fn crosses(a: usize, b: usize) -> bool {
    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
    match (lo, hi) {
        _ if lo == hi => false,
        // Row and column: always one cell.
        (0..=8, 9..=17) => true,
        // Row r and box b: the box's band.
        (0..=8, 18..=26) => lo / 3 == (hi - 18) / 3,
        // Column c and box b: the box's stack.
        (9..=17, 18..=26) => (lo - 9) / 3 == (hi - 18) % 3,
        _ => false,
    }
}

/// Every intersection with eliminations, in Sudoku Explainer's order (box
/// to row, box to column, row to box, column to box; digits; units): the
/// unit holding the digit's places, the unit of the other kind holding them
/// all, the digit, and its places in the second unit outside the first.
pub(crate) fn lockings(places: &[u128; 9]) -> impl Iterator<Item = (usize, usize, u8, u128)> {
    // (kind of the unit holding the digit, kind of the unit cleared).
    const PAIRS: [(usize, usize); 4] = [(18, 9), (18, 0), (9, 18), (0, 18)];
    let mut out = Vec::new();
    for (k1, k2) in PAIRS {
        for d in 1..=9u8 {
            let digit = places[d as usize - 1];
            for r1 in k1..k1 + 9 {
                let p1 = digit & UNIT_MASKS[r1];
                if p1.count_ones() < 2 {
                    continue;
                }
                // The unit of the second kind holding every place (at most
                // one): the first cell's.
                let first = p1.trailing_zeros() as usize;
                let r2 = match k2 {
                    0 => row(first),
                    9 => 9 + col(first),
                    _ => 18 + boxi(first),
                };
                let gone = digit & UNIT_MASKS[r2] & !UNIT_MASKS[r1];
                if p1 & !UNIT_MASKS[r2] == 0 && gone != 0 {
                    out.push((r1, r2, d, gone));
                }
            }
        }
    }
    out.into_iter()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crosses_is_sharing_a_cell() {
        for a in 0..27 {
            for b in 0..27 {
                let share = a != b && UNITS[a].iter().any(|c| UNITS[b].contains(c));
                assert_eq!(crosses(a, b), share, "{a} {b}");
            }
        }
    }
}
