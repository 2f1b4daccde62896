//! Basic fish: X-Wing, Swordfish, Jellyfish (rows or columns as base lines).

use crate::*;

impl Board {
    pub(crate) fn fish(&self, n: usize, t: Technique) -> Option<Step> {
        for d in 1..=9u8 {
            // base = 0: rows are the base lines, columns the cover lines.
            for base in [0usize, 9] {
                let cover = 9 - base;
                let mut lines = Vec::new();
                for i in 0..9 {
                    let pos = (0..9).fold(0u16, |m, j| {
                        m | (u16::from(self.cand[UNITS[base + i][j]] & bit(d) != 0) << j)
                    });
                    if (2..=n as u32).contains(&pos.count_ones()) {
                        lines.push((i, pos));
                    }
                }
                let mut found = None;
                combinations(lines.len(), n, &mut |idx| {
                    let pos = idx.iter().fold(0u16, |m, &k| m | lines[k].1);
                    if pos.count_ones() as usize != n {
                        return false;
                    }
                    let bases: Vec<usize> = idx.iter().map(|&k| lines[k].0).collect();
                    let mut el = Vec::new();
                    for j in (0..9).filter(|j| pos & (1 << j) != 0) {
                        for (i, &c) in UNITS[cover + j].iter().enumerate() {
                            if !bases.contains(&i) && self.cand[c] & bit(d) != 0 {
                                el.push((c, d));
                            }
                        }
                    }
                    if el.is_empty() {
                        return false;
                    }
                    el.sort_unstable();
                    let kind = if base == 0 { "rows" } else { "columns" };
                    let other = if base == 0 { "columns" } else { "rows" };
                    let b: Vec<String> = bases.iter().map(|i| (i + 1).to_string()).collect();
                    let cv: Vec<String> = (0..9)
                        .filter(|j| pos & (1 << j) != 0)
                        .map(|j| (j + 1).to_string())
                        .collect();
                    found = Some(Step {
                        technique: t,
                        placement: None,
                        eliminations: el,
                        detail: format!(
                            "on {d} in {kind} {} / {other} {}",
                            b.join(","),
                            cv.join(",")
                        ),
                    });
                    true
                });
                if found.is_some() {
                    return found;
                }
            }
        }
        None
    }
}
