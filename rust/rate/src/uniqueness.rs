//! Uniqueness techniques: patterns that would give the puzzle two
//! solutions, so cannot be (the puzzle is checked to be unique first).

use crate::*;

impl Board {
    pub(crate) fn unique_rectangle(&self) -> Option<Step> {
        for r1 in 0..9 {
            for r2 in r1 + 1..9 {
                for c1 in 0..9 {
                    for c2 in c1 + 1..9 {
                        if (r1 / 3 == r2 / 3) == (c1 / 3 == c2 / 3) {
                            continue; // must span exactly two boxes
                        }
                        let corners = [r1 * 9 + c1, r1 * 9 + c2, r2 * 9 + c1, r2 * 9 + c2];
                        if corners.iter().any(|&c| self.value[c] != 0) {
                            continue;
                        }
                        for &k in &corners {
                            let others: Vec<usize> =
                                corners.iter().copied().filter(|&c| c != k).collect();
                            let m = self.cand[others[0]];
                            if m.count_ones() != 2
                                || others.iter().any(|&c| self.cand[c] != m)
                                || self.cand[k] & m != m
                                || self.cand[k] == m
                            {
                                continue;
                            }
                            let names: Vec<String> =
                                corners.iter().map(|&c| cell_name(c)).collect();
                            return Some(Step {
                                technique: Technique::UniqueRectangle1,
                                tenths: Technique::UniqueRectangle1.score_tenths(),
                                placement: None,
                                eliminations: self.elims_of(std::iter::once(k), m),
                                detail: format!("on {{{}}} at {}", digits_of(m), names.join(",")),
                            });
                        }
                    }
                }
            }
        }
        None
    }
}
