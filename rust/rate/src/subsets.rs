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
                let chosen: Vec<usize> = idx.iter().map(|&i| cells[i]).collect();
                let union = chosen.iter().fold(0u16, |m, &c| m | self.cand[c]);
                if union.count_ones() as usize != n {
                    return false;
                }
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
            let mut digits = Vec::new();
            for d in 1..=9u8 {
                let pos = (0..9).fold(0u16, |m, i| {
                    m | (u16::from(self.cand[UNITS[u][i]] & bit(d) != 0) << i)
                });
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
    Step {
        technique: t,
        placement: None,
        eliminations,
        detail: format!(
            "{{{}}} at {} in {}",
            digits_of(digits),
            names.join(","),
            unit_name(u)
        ),
    }
}
