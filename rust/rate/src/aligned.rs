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
                // A triple's common excluders are among the pair's.
                if pair.count_ones() < 2 {
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
        let n = cells.len();
        let mut cand = [0u16; 3];
        for (m, &c) in cand.iter_mut().zip(cells) {
            *m = self.cand[c];
        }
        let union = cand[0] | cand[1] | cand[2];
        // Only an excluder whose candidates all lie among the base cells'
        // can be left empty by a combination; the others never exclude.
        let mut excl = [0u16; 20];
        let mut k = 0;
        for e in cells_of_mask(common) {
            if self.cand[e] & !union == 0 {
                excl[k] = self.cand[e];
                k += 1;
            }
        }
        let excl = &excl[..k];
        // Pairs of base cells that see each other: bit i·3 + j.
        let mut seeing = 0u32;
        for i in 0..n {
            for j in i + 1..n {
                if PEERS[cells[i]] >> cells[j] & 1 != 0 {
                    seeing |= 1 << (i * 3 + j);
                }
            }
        }
        if excl.is_empty() && seeing == 0 {
            return None;
        }
        // The last cell's digits that an excluder leaves empty once the
        // other cells hold the digits of `m`: all of them when the
        // excluder has no other candidate, else its one other candidate.
        let blocked_last = |m: u16| {
            excl.iter().fold(0u16, |b, &e| {
                let rest = e & !m;
                if rest == 0 {
                    0x1ff
                } else if rest & (rest - 1) == 0 {
                    b | rest
                } else {
                    b
                }
            })
        };
        // Per combination of the other cells' digits, the last cell's
        // digits that complete a possible combination.
        let mut used = [0u16; 3];
        if n == 2 {
            for d0 in digit_bits(cand[0]) {
                let mut free = cand[1] & !blocked_last(d0);
                if seeing & 1 << 1 != 0 {
                    free &= !d0;
                }
                if free != 0 {
                    used[0] |= d0;
                    used[1] |= free;
                }
            }
        } else {
            let (mut u0, mut u1, mut u2) = (0u16, 0u16, 0u16);
            'pairs: for d0 in digit_bits(cand[0]) {
                for d1 in digit_bits(cand[1]) {
                    if d0 == d1 && seeing & 1 << 1 != 0 {
                        continue;
                    }
                    let mut free = cand[2] & !blocked_last(d0 | d1);
                    if seeing & 1 << 2 != 0 {
                        free &= !d0;
                    }
                    if seeing & 1 << 5 != 0 {
                        free &= !d1;
                    }
                    if free != 0 {
                        u0 |= d0;
                        u1 |= d1;
                        u2 |= free;
                        // Every candidate used: nothing to remove. (Kept in
                        // three locals: an array compared whole after
                        // 16-bit stores stalls on store forwarding.)
                        if u0 == cand[0] && u1 == cand[1] && u2 == cand[2] {
                            break 'pairs;
                        }
                    }
                }
            }
            used = [u0, u1, u2];
        }
        let digits = |m: u16| (1..=9u8).filter(move |&d| m & bit(d) != 0);
        let eliminations: Vec<(usize, u8)> = cells
            .iter()
            .zip(&cand[..n])
            .zip(&used[..n])
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

/// The single-bit masks of a candidate mask, lowest digit first.
fn digit_bits(m: u16) -> impl Iterator<Item = u16> {
    let mut m = m;
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let b = m & m.wrapping_neg();
            m &= m - 1;
            b
        })
    })
}
