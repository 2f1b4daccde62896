//! Naked and hidden subsets (pairs, triples, quads) of a unit.

use crate::*;

impl Board {
    pub(crate) fn naked_subset(&self, n: usize, t: Technique) -> Option<Step> {
        for u in 0..27 {
            let cells: Vec<usize> = UNITS[u]
                .iter()
                .copied()
                .filter(|&c| (2..=n as u32).contains(&self.cand[c].count_ones()))
                .collect();
            let mut found = None;
            combinations(cells.len(), n, &mut |idx| {
                let union = idx.iter().fold(0u16, |m, &i| m | self.cand[cells[i]]);
                if union.count_ones() as usize != n {
                    return false;
                }
                let chosen: Vec<usize> = idx.iter().map(|&i| cells[i]).collect();
                let el = self.elims_of(
                    UNITS[u].iter().copied().filter(|c| !chosen.contains(c)),
                    union,
                );
                if el.is_empty() {
                    return false;
                }
                found = Some(subset_step(t, union, &chosen, u, el));
                true
            });
            if found.is_some() {
                return found;
            }
        }
        None
    }

    pub(crate) fn hidden_subset(&self, n: usize, t: Technique) -> Option<Step> {
        for u in 0..27 {
            // Positions (bit i = UNITS[u][i]) of each digit still to place.
            let all = self.unit_positions(u);
            let mut digits = Vec::new();
            for d in 1..=9u8 {
                let pos = all[d as usize - 1];
                if (2..=n as u32).contains(&pos.count_ones()) {
                    digits.push((d, pos));
                }
            }
            let mut found = None;
            combinations(digits.len(), n, &mut |idx| {
                let pos = idx.iter().fold(0u16, |m, &i| m | digits[i].1);
                if pos.count_ones() as usize != n {
                    return false;
                }
                let mask = idx.iter().fold(0u16, |m, &i| m | bit(digits[i].0));
                let cells: Vec<usize> = (0..9)
                    .filter(|i| pos & (1 << i) != 0)
                    .map(|i| UNITS[u][i])
                    .collect();
                let el = self.elims_of(cells.iter().copied(), !mask & 0x1ff);
                if el.is_empty() {
                    return false;
                }
                found = Some(subset_step(t, mask, &cells, u, el));
                true
            });
            if found.is_some() {
                return found;
            }
        }
        None
    }
}

/// A naked or hidden subset's step: digits `digits` confined to `cells` of unit `u`.
pub(crate) fn subset_step(
    t: Technique,
    digits: u16,
    cells: &[usize],
    u: usize,
    eliminations: Vec<(usize, u8)>,
) -> Step {
    let names: Vec<String> = cells.iter().map(|&c| cell_name(c)).collect();
    Step::eliminating(
        t,
        eliminations,
        format!(
            "{{{}}} at {} in {}",
            digits_of(digits),
            names.join(","),
            unit_name(u)
        ),
    )
}

/// The k-subsets of 0..9 as bit masks, in increasing numeric order (the
/// order Sudoku Explainer enumerates them in).
pub(crate) fn masks_of_size(k: u32) -> impl Iterator<Item = u16> {
    MASKS[k as usize].iter().copied()
}

/// [`masks_of_size`]'s lists, built once (sizes 0..=9).
static MASKS: std::sync::LazyLock<[Vec<u16>; 10]> = std::sync::LazyLock::new(|| {
    std::array::from_fn(|k| (1u16..512).filter(|m| m.count_ones() == k as u32).collect())
});

/// The cells of unit `u` at the positions of `pos` (bit i = `UNITS[u][i]`).
fn cells_at(u: usize, pos: u16) -> Vec<usize> {
    (0..9)
        .filter(|i| pos & (1 << i) != 0)
        .map(|i| UNITS[u][i])
        .collect()
}

/// Sudoku Explainer's naked and hidden sets (and the direct hidden ones).
impl Board {
    /// Positions (bit i = `UNITS[u][i]`) of digit `d` in unit `u`.
    pub(crate) fn positions(&self, u: usize, d: u8) -> u16 {
        let mut m = 0;
        for (i, &c) in UNITS[u].iter().enumerate() {
            if self.cand[c] & bit(d) != 0 {
                m |= 1 << i;
            }
        }
        m
    }

    /// [`Board::positions`] of every digit (index d - 1) in unit `u`.
    pub(crate) fn unit_positions(&self, u: usize) -> [u16; 9] {
        let mut pos = [0u16; 9];
        for (i, &c) in UNITS[u].iter().enumerate() {
            let mut m = self.cand[c] & 0x1ff;
            while m != 0 {
                pos[m.trailing_zeros() as usize] |= 1 << i;
                m &= m - 1;
            }
        }
        pos
    }

    fn empty_in(&self, u: usize) -> usize {
        UNITS[u].iter().filter(|&&c| self.value[c] == 0).count()
    }

    /// A naked set of `n` cells of one unit (pair 3.0, triple 3.6, quad
    /// 5.0), in units with at least 2n empty cells.
    pub(crate) fn se_naked_set(&self, n: u32) -> Option<Step> {
        let t = match n {
            2 => Technique::NakedPair,
            3 => Technique::NakedTriple,
            _ => Technique::NakedQuad,
        };
        for u in SE_UNIT_ORDER {
            if self.empty_in(u) < 2 * n as usize {
                continue;
            }
            let cand: [u16; 9] = std::array::from_fn(|i| self.cand[UNITS[u][i]]);
            // Positions whose cell has at least two candidates.
            let open = (0..9).fold(0u16, |m, i| m | u16::from(cand[i].count_ones() >= 2) << i);
            for m in masks_of_size(n) {
                if m & !open != 0 {
                    continue;
                }
                let union = (0..9)
                    .filter(|i| m & (1 << i) != 0)
                    .fold(0u16, |a, i| a | cand[i]);
                if union.count_ones() != n {
                    continue;
                }
                if !(0..9).any(|i| m & (1 << i) == 0 && cand[i] & union != 0) {
                    continue;
                }
                let cells = cells_at(u, m);
                let el = self.elims_of(
                    UNITS[u].iter().copied().filter(|c| !cells.contains(c)),
                    union,
                );
                return Some(subset_step(t, union, &cells, u, el));
            }
        }
        None
    }

    /// A hidden set of `n` digits of one unit (pair 3.4, triple 4.0, quad
    /// 5.4) in units with more than 2n empty cells; with `direct`, one
    /// whose eliminations leave another digit a single place in the unit,
    /// which is placed (direct hidden pair 2.0, triple 2.5), in units with
    /// more than n empty cells.
    pub(crate) fn se_hidden_set(&self, n: u32, direct: bool) -> Option<Step> {
        for u in SE_UNIT_ORDER {
            let empty = self.empty_in(u);
            if !(empty > 2 * n as usize || (direct && empty > n as usize)) {
                continue;
            }
            let pos: [u16; 9] = self.unit_positions(u);
            // Digits with at least two places.
            let open = (0..9).fold(0u16, |a, i| a | u16::from(pos[i].count_ones() >= 2) << i);
            for m in masks_of_size(n) {
                if m & !open != 0 {
                    continue;
                }
                let union = (0..9)
                    .filter(|i| m & (1 << i) != 0)
                    .fold(0u16, |a, i| a | pos[i]);
                if union.count_ones() != n {
                    continue;
                }
                // Other digits in the set's cells (the eliminations).
                let others = (0..9).any(|i| m & (1 << i) == 0 && pos[i] & union != 0);
                if !others {
                    continue;
                }
                if direct
                    && !(0..9).any(|i| {
                        let p = pos[i];
                        m & (1 << i) == 0 && p.count_ones() > 1 && (p & !union).count_ones() == 1
                    })
                {
                    continue;
                }
                let cells = cells_at(u, union);
                let el = self.elims_of(cells.iter().copied(), !m & 0x1ff);
                if !direct {
                    if el.is_empty() {
                        continue;
                    }
                    let t = match n {
                        2 => Technique::HiddenPair,
                        3 => Technique::HiddenTriple,
                        _ => Technique::HiddenQuad,
                    };
                    return Some(subset_step(t, m, &cells, u, el));
                }
                for v in (1..=9u8).filter(|v| m & bit(*v) == 0) {
                    let p = pos[v as usize - 1];
                    if p.count_ones() > 1 && (p & !union).count_ones() == 1 {
                        let i = (p & !union).trailing_zeros() as usize;
                        let t = if n == 2 {
                            Technique::DirectHiddenPair
                        } else {
                            Technique::DirectHiddenTriple
                        };
                        // Only the placement: the eliminations are the
                        // reasoning, not the step.
                        let mut s = subset_step(t, m, &cells, u, Vec::new());
                        s.placement = Some((UNITS[u][i], v));
                        return Some(s);
                    }
                }
            }
        }
        None
    }
}
