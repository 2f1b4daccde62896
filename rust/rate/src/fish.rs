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
                        tenths: t.score_tenths(),
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

/// Sudoku Explainer's basic fish search.
impl Board {
    /// A fish of `n` base lines (X-Wing 3.2, Swordfish 3.8, Jellyfish
    /// 5.2): columns as base lines first, then rows; line sets in
    /// increasing mask order, digits inside; only digits placed at most
    /// 9 - 2n times.
    pub(crate) fn se_fish(&self, n: u32) -> Option<Step> {
        let t = match n {
            2 => Technique::XWing,
            3 => Technique::Swordfish,
            _ => Technique::Jellyfish,
        };
        let mut placed = [0usize; 10];
        for c in 0..81 {
            placed[self.value[c] as usize] += 1;
        }
        for (base, cover) in [(9usize, 0usize), (0, 9)] {
            for m in crate::subsets::masks_of_size(n) {
                for d in 1..=9u8 {
                    if placed[d as usize] + 2 * n as usize > 9 {
                        continue;
                    }
                    let lines: Vec<usize> = (0..9).filter(|i| m & (1 << i) != 0).collect();
                    let pos: Vec<u16> =
                        lines.iter().map(|&i| self.positions(base + i, d)).collect();
                    if pos.iter().any(|p| p.count_ones() < 2) {
                        continue;
                    }
                    let union = pos.iter().fold(0u16, |a, p| a | p);
                    if union.count_ones() != n {
                        continue;
                    }
                    let mut el = Vec::new();
                    for j in (0..9).filter(|j| union & (1 << j) != 0) {
                        for (i, &c) in UNITS[cover + j].iter().enumerate() {
                            if m & (1 << i) == 0 && self.cand[c] & bit(d) != 0 {
                                el.push((c, d));
                            }
                        }
                    }
                    if el.is_empty() {
                        continue;
                    }
                    el.sort_unstable();
                    let (kind, other) = if base == 0 {
                        ("rows", "columns")
                    } else {
                        ("columns", "rows")
                    };
                    let b: Vec<String> = lines.iter().map(|i| (i + 1).to_string()).collect();
                    let cv: Vec<String> = (0..9)
                        .filter(|j| union & (1 << j) != 0)
                        .map(|j| (j + 1).to_string())
                        .collect();
                    return Some(Step {
                        technique: t,
                        tenths: t.score_tenths(),
                        placement: None,
                        eliminations: el,
                        detail: format!(
                            "on {d} in {kind} {} / {other} {}",
                            b.join(","),
                            cv.join(",")
                        ),
                    });
                }
            }
        }
        None
    }
}

/// Sudoku Explainer's two strong links (skyscraper 4.0, two-string kite
/// and turbot fish 4.1): one digit, two units with exactly two places
/// each, one end of each sharing a unit; the two other ends cannot both be
/// false, so the digit leaves every cell seeing both (outside the two link
/// units and the shared unit).
impl Board {
    pub(crate) fn se_two_strong_links(&self) -> Option<Step> {
        let mut best: Option<(u8, usize, Step)> = None;
        for d in 1..=9u8 {
            let links: Vec<(usize, [usize; 2])> = SE_UNIT_ORDER
                .iter()
                .filter_map(|&u| {
                    let p = self.places(u, d);
                    (p.len() == 2).then(|| (u, [p[0], p[1]]))
                })
                .collect();
            for (i, &(u1, c1)) in links.iter().enumerate() {
                for &(u2, c2) in &links[i + 1..] {
                    for k1 in 0..2 {
                        for k2 in 0..2 {
                            let (x1, s1) = (c1[k1], c1[1 - k1]);
                            let (x2, e2) = (c2[k2], c2[1 - k2]);
                            let cells = [x1, s1, x2, e2];
                            if (0..4).any(|a| (a + 1..4).any(|b| cells[a] == cells[b])) {
                                continue;
                            }
                            let Some(shared) = [9 + col(x1), row(x1), 18 + boxi(x1)]
                                .into_iter()
                                .find(|&u| UNITS[u].contains(&x2))
                            else {
                                continue;
                            };
                            let el: Vec<(usize, u8)> = (0..81)
                                .filter(|&c| {
                                    self.cand[c] & bit(d) != 0
                                        && sees(c, s1)
                                        && sees(c, e2)
                                        && ![u1, u2, shared].iter().any(|&u| UNITS[u].contains(&c))
                                })
                                .map(|c| (c, d))
                                .collect();
                            if el.is_empty() {
                                continue;
                            }
                            let kind = |u: usize| match u {
                                0..=8 => 1,
                                9..=17 => 2,
                                _ => 0,
                            };
                            let (a, b) = (kind(u1), kind(u2));
                            let tenths = if a == 1 && b == 1 || a == 2 && b == 2 {
                                // Two parallel lines: rows (1,1) score 4.0;
                                // columns normalise to rows too.
                                40
                            } else {
                                41
                            };
                            let t = Technique::TwoStrongLinks;
                            let n = el.len();
                            let step = Step {
                                technique: t,
                                tenths,
                                placement: None,
                                eliminations: el,
                                detail: format!(
                                    "on {d}: {}={} in {}, {}-{} in {}, {}={} in {}",
                                    cell_name(s1),
                                    cell_name(x1),
                                    unit_name(u1),
                                    cell_name(x1),
                                    cell_name(x2),
                                    unit_name(shared),
                                    cell_name(x2),
                                    cell_name(e2),
                                    unit_name(u2)
                                ),
                            };
                            if best.as_ref().is_none_or(|b| {
                                (tenths, std::cmp::Reverse(n)) < (b.0, std::cmp::Reverse(b.1))
                            }) {
                                best = Some((tenths, n, step));
                            }
                        }
                    }
                }
            }
        }
        best.map(|b| b.2)
    }
}

/// Sudoku Explainer's name digits of a chain of strong links' unit kinds
/// (box 0, row 1, column 2), read in the direction that sorts first, rows
/// and columns swapped when that sorts first.
fn link_kinds_text(kinds: &[u8]) -> String {
    let fwd: String = kinds.iter().map(|k| k.to_string()).collect();
    let rev: String = kinds.iter().rev().map(|k| k.to_string()).collect();
    let set: Vec<u8> = if fwd <= rev {
        kinds.to_vec()
    } else {
        kinds.iter().rev().copied().collect()
    };
    let original: String = set.iter().map(|k| k.to_string()).collect();
    let (mut lines, mut reverse_swap, mut current_swap) =
        (String::new(), String::new(), String::new());
    let mut has_row = false;
    for &k in &set {
        let swapped = match k {
            1 => {
                has_row = true;
                '2'
            }
            2 => '1',
            _ => char::from(b'0' + k),
        };
        reverse_swap.insert(0, swapped);
        current_swap.push(swapped);
        lines.push(if k == 2 { '1' } else { char::from(b'0' + k) });
    }
    if reverse_swap > current_swap {
        reverse_swap = current_swap;
    }
    if has_row {
        original.min(reverse_swap)
    } else {
        lines
    }
}

/// The score of `k` strong links with these unit kinds: the base (4.0, 5.4,
/// 5.8 for 2, 3, 4 links), +0.1 with boxes or columns, +0.2 with both.
pub(crate) fn strong_links_tenths(kinds: &[u8]) -> u8 {
    let base = [0u8, 40, 54, 58, 62][kinds.len() - 1];
    let text = link_kinds_text(kinds);
    match (text.contains('0'), text.contains('2')) {
        (false, false) => base,
        (true, true) => base + 2,
        _ => base + 1,
    }
}

/// Chains of `k` strong links (three: 5.4–5.6, four: 5.8–6.0): one digit,
/// k units with exactly two places each, each link's far end sharing a unit
/// with the next link's near end; the chain's two free ends cannot both be
/// false, so the digit leaves every cell seeing both (outside the link
/// units and the shared units).
impl Board {
    pub(crate) fn se_strong_links(&self, k: usize) -> Option<Step> {
        let mut best: Option<(u8, usize, Step)> = None;
        for d in 1..=9u8 {
            let links: Vec<(usize, [usize; 2])> = SE_UNIT_ORDER
                .iter()
                .filter_map(|&u| {
                    let p = self.places(u, d);
                    (p.len() == 2).then(|| (u, [p[0], p[1]]))
                })
                .collect();
            let mut chain: Vec<(usize, usize, usize)> = Vec::new(); // (unit, near, far)
            let mut shared: Vec<usize> = Vec::new();
            self.extend_links(d, k, &links, &mut chain, &mut shared, &mut best);
        }
        best.map(|b| b.2)
    }

    fn extend_links(
        &self,
        d: u8,
        k: usize,
        links: &[(usize, [usize; 2])],
        chain: &mut Vec<(usize, usize, usize)>,
        shared: &mut Vec<usize>,
        best: &mut Option<(u8, usize, Step)>,
    ) {
        if chain.len() == k {
            self.strong_links_hint(d, chain, shared, best);
            return;
        }
        for &(u, ends) in links {
            if chain.iter().any(|l| l.0 == u) {
                continue;
            }
            for (near, far) in [(ends[0], ends[1]), (ends[1], ends[0])] {
                let used = |c: usize| chain.iter().any(|l| l.1 == c || l.2 == c);
                if used(near) || used(far) {
                    continue;
                }
                let link_unit = chain.last().map(|&(_, _, prev_far)| {
                    [9 + col(prev_far), row(prev_far), 18 + boxi(prev_far)]
                        .into_iter()
                        .find(|&s| UNITS[s].contains(&near))
                });
                match link_unit {
                    Some(None) => continue,
                    Some(Some(s)) => shared.push(s),
                    None => {}
                }
                chain.push((u, near, far));
                self.extend_links(d, k, links, chain, shared, best);
                chain.pop();
                if matches!(link_unit, Some(Some(_))) {
                    shared.pop();
                }
            }
        }
    }

    fn strong_links_hint(
        &self,
        d: u8,
        chain: &[(usize, usize, usize)],
        shared: &[usize],
        best: &mut Option<(u8, usize, Step)>,
    ) {
        let (s, e) = (chain[0].1, chain[chain.len() - 1].2);
        let el: Vec<(usize, u8)> = (0..81)
            .filter(|&c| {
                self.cand[c] & bit(d) != 0
                    && sees(c, s)
                    && sees(c, e)
                    && !chain.iter().any(|l| UNITS[l.0].contains(&c))
                    && !shared.iter().any(|&u| UNITS[u].contains(&c))
            })
            .map(|c| (c, d))
            .collect();
        if el.is_empty() {
            return;
        }
        let kinds: Vec<u8> = chain
            .iter()
            .map(|l| match l.0 {
                0..=8 => 1,
                9..=17 => 2,
                _ => 0,
            })
            .collect();
        let tenths = strong_links_tenths(&kinds);
        let n = el.len();
        if best
            .as_ref()
            .is_some_and(|b| (b.0, std::cmp::Reverse(b.1)) <= (tenths, std::cmp::Reverse(n)))
        {
            return;
        }
        let parts: Vec<String> = chain
            .iter()
            .map(|l| {
                format!(
                    "{}={} in {}",
                    cell_name(l.1),
                    cell_name(l.2),
                    unit_name(l.0)
                )
            })
            .collect();
        let t = if chain.len() == 3 {
            Technique::ThreeStrongLinks
        } else {
            Technique::FourStrongLinks
        };
        *best = Some((
            tenths,
            n,
            Step {
                technique: t,
                tenths,
                placement: None,
                eliminations: el,
                detail: format!("on {d}: {}", parts.join(", ")),
            },
        ));
    }
}
