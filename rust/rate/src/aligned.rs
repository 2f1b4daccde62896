//! Aligned pair and triple exclusion, as Sudoku Explainer finds them
//! (SE 6.2 and 7.5; serate's default settings have both).
//!
//! A *base* cell has two or more candidates; its *excluders* are the cells it
//! sees with two candidates (pairs), or two or three (triples). Take two
//! base cells (pairs: any two; triples: two, then a third among the
//! excluders of either that is a base cell too) with at least two excluders
//! in common. A combination of one candidate per base cell is impossible
//! when two cells that see each other take the same digit, or when it covers
//! every candidate of a common excluder (that cell would be left empty). A
//! candidate of a base cell that no possible combination uses is removed.
//!
//! Order, which decides the hint taken: base cells in cell order; pairs of
//! them by their second then their first index (0-1, 0-2, 1-2, 0-3, …); a
//! triple's third cell among the first cell's excluders in cell order, then
//! the second's; the first pair or triple that removes something is the step.
//! The combinations and excluders are read as bit masks.

use crate::*;

impl Board {
    /// Sudoku Explainer's aligned exclusion of `degree` (2 or 3) cells.
    pub(crate) fn se_aligned_exclusion(&self, degree: usize) -> Option<Step> {
        let card = |c: usize| self.cand[c].count_ones() as usize;
        let mut base: Vec<usize> = Vec::new();
        let mut base_mask = 0u128;
        let mut excluders = [0u128; 81];
        for c in 0..81 {
            if card(c) < 2 {
                continue;
            }
            let (mut naked_single, mut ex) = (false, 0u128);
            for p in cells_of_mask(PEERS[c]) {
                match card(p) {
                    1 => naked_single = true,
                    k if (2..=degree).contains(&k) => ex |= 1 << p,
                    _ => {}
                }
            }
            if !naked_single && ex != 0 {
                base.push(c);
                base_mask |= 1 << c;
                excluders[c] = ex;
            }
        }
        if base.len() < degree {
            return None;
        }
        for second in 1..base.len() {
            for first in 0..second {
                let (c0, c1) = (base[first], base[second]);
                let pair = excluders[c0] & excluders[c1];
                if degree == 2 {
                    if pair.count_ones() >= 2 {
                        if let Some(step) = self.exclusion(&[c0, c1], pair) {
                            return Some(step);
                        }
                    }
                    continue;
                }
                let twins = (excluders[c0] | excluders[c1]) & base_mask & !(1 << c0 | 1 << c1);
                let (by_first, by_second) = (twins & excluders[c0], twins & !excluders[c0]);
                for c2 in cells_of_mask(by_first).chain(cells_of_mask(by_second)) {
                    let common = pair & excluders[c2];
                    if common.count_ones() >= 2 {
                        if let Some(step) = self.exclusion(&[c0, c1, c2], common) {
                            return Some(step);
                        }
                    }
                }
            }
        }
        None
    }

    /// The step removing the candidates of `cells` that no possible
    /// combination uses, given the common excluders `common`; `None` if
    /// every candidate is used.
    fn exclusion(&self, cells: &[usize], common: u128) -> Option<Step> {
        let excl: Vec<u16> = cells_of_mask(common).map(|e| self.cand[e]).collect();
        let cand: Vec<u16> = cells.iter().map(|&c| self.cand[c]).collect();
        let digits = |m: u16| (1..=9u8).filter(move |&d| m & bit(d) != 0);
        let mut used = [0u16; 3];
        let mut pick = [0u8; 3];
        let n = cells.len();
        // Every combination, the first cell's digit outermost.
        let mut stack: Vec<(usize, u16)> = vec![(0, cand[0])];
        while let Some((i, left)) = stack.pop() {
            if left == 0 {
                continue;
            }
            let d = left.trailing_zeros() as u8 + 1;
            stack.push((i, left & (left - 1)));
            // The same digit in two cells that see each other.
            if (0..i).any(|j| pick[j] == d && sees(cells[j], cells[i])) {
                continue;
            }
            pick[i] = d;
            if i + 1 < n {
                stack.push((i + 1, cand[i + 1]));
                continue;
            }
            let m = pick[..n].iter().fold(0u16, |m, &d| m | bit(d));
            if excl.iter().any(|&e| e & !m == 0) {
                continue;
            }
            for j in 0..n {
                used[j] |= bit(pick[j]);
            }
        }
        let eliminations: Vec<(usize, u8)> = cells
            .iter()
            .zip(&cand)
            .zip(&used)
            .flat_map(|((&c, &m), &u)| digits(m & !u).map(move |d| (c, d)))
            .collect();
        if eliminations.is_empty() {
            return None;
        }
        let (technique, tenths) = if n == 2 {
            (Technique::AlignedPairExclusion, 62)
        } else {
            (Technique::AlignedTripleExclusion, 75)
        };
        let names: Vec<String> = cells.iter().map(|&c| cell_name(c)).collect();
        let held: Vec<String> = cells_of_mask(common).map(cell_name).collect();
        Some(Step {
            technique,
            tenths,
            placement: None,
            eliminations,
            detail: format!("{} (excluders {})", names.join(","), held.join(",")),
        })
    }
}
