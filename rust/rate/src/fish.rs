//! Basic fish: X-Wing, Swordfish, Jellyfish (rows or columns as base lines).

use crate::*;

impl Board {
    pub(crate) fn fish(&self, n: usize, t: Technique) -> Option<Step> {
        for d in 1..=9u8 {
            // base = 0: rows are the base lines, columns the cover lines.
            for base in [0usize, 9] {
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
                    let bases = idx.iter().fold(0u16, |m, &k| m | 1 << lines[k].0);
                    found = self.fish_step(t, d, base, bases, pos);
                    found.is_some()
                });
                if found.is_some() {
                    return found;
                }
            }
        }
        None
    }

    /// The step of a fish on digit `d` with base lines `bases` and cover
    /// lines `covers` (bit `i` for line `i`; `base`: 0 when rows are the
    /// base lines, 9 for columns), if it eliminates anything.
    fn fish_step(&self, t: Technique, d: u8, base: usize, bases: u16, covers: u16) -> Option<Step> {
        let cover = 9 - base;
        let mut el = Vec::new();
        for j in (0..9).filter(|j| covers & (1 << j) != 0) {
            for (i, &c) in UNITS[cover + j].iter().enumerate() {
                if bases & (1 << i) == 0 && self.cand[c] & bit(d) != 0 {
                    el.push((c, d));
                }
            }
        }
        if el.is_empty() {
            return None;
        }
        el.sort_unstable();
        let (kind, other) = if base == 0 {
            ("rows", "columns")
        } else {
            ("columns", "rows")
        };
        let numbers = |m: u16| {
            let n: Vec<String> = (0..9)
                .filter(|i| m & (1 << i) != 0)
                .map(|i| (i + 1).to_string())
                .collect();
            n.join(",")
        };
        let detail = format!(
            "on {d} in {kind} {} / {other} {}",
            numbers(bases),
            numbers(covers)
        );
        Some(Step::eliminating(t, el, detail))
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
        // Positions of each digit in each line: rows 0–8 (bit = column),
        // columns 9–17 (bit = row).
        let mut pos = [[0u16; 9]; 18];
        for (i, row) in places_of(&self.cand).iter().enumerate() {
            let mut m = *row;
            while m != 0 {
                let c = m.trailing_zeros() as usize;
                m &= m - 1;
                pos[c / 9][i] |= 1 << (c % 9);
                pos[9 + c % 9][i] |= 1 << (c / 9);
            }
        }
        for base in [9usize, 0] {
            // For each digit, the base lines where it has 2..=n places (a
            // fish's lines all do).
            let fit: [u16; 9] = std::array::from_fn(|i| {
                (0..9).fold(0u16, |m, l| {
                    let k = pos[base + l][i].count_ones();
                    m | u16::from((2..=n).contains(&k)) << l
                })
            });
            for m in crate::subsets::masks_of_size(n) {
                for d in 1..=9u8 {
                    if placed[d as usize] + 2 * n as usize > 9 || m & !fit[d as usize - 1] != 0 {
                        continue;
                    }
                    let mut union = 0u16;
                    let mut thin = false;
                    for i in (0..9).filter(|i| m & (1 << i) != 0) {
                        let p = pos[base + i][d as usize - 1];
                        thin |= p.count_ones() < 2;
                        union |= p;
                    }
                    if thin || union.count_ones() != n {
                        continue;
                    }
                    if let Some(step) = self.fish_step(t, d, base, m, union) {
                        return Some(step);
                    }
                }
            }
        }
        None
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

/// Chains of `k` strong links (two: 4.0–4.1, three: 5.4–5.6, four:
/// 5.8–6.0; +0.3 when a link is grouped): one digit; each link is a unit
/// whose places for it fall into two groups, one of which must hold it —
/// two single cells, or (grouped) the two box segments a line's places lie
/// in, or the row and column parts of a box whose places lie on one row and
/// one column (an empty rectangle). Each link's far group shares a unit with
/// the next link's near group (so they cannot both hold the digit); the
/// chain's two free groups cannot both be empty of it, so the digit leaves
/// every cell seeing all their cells (outside the link units and the shared
/// units).
impl Board {
    pub(crate) fn se_strong_links(&self, k: usize) -> Option<Step> {
        // The links of the last board asked about (the searches for two,
        // three and four links ask about the same board in turn).
        thread_local! {
            static LINKS: std::cell::RefCell<([u16; 81], [LinkEnds; 2])> =
                const { std::cell::RefCell::new(([0; 81], [Vec::new(), Vec::new()])) };
        }
        LINKS.with(|cache| {
            let mut cache = cache.borrow_mut();
            if cache.1[0].is_empty() || cache.0 != self.cand {
                cache.0 = self.cand;
                cache.1 = [self.link_ends(Rules::Turbot), self.link_ends(Rules::Links)];
            }
            self.strong_link_chains(k, &cache.1[usize::from(k > 2)])
        })
    }

    /// Each digit's links read both ways (near group, far group), in the
    /// order the chains are enumerated in.
    fn link_ends(&self, rules: Rules) -> LinkEnds {
        let places = places_of(&self.cand);
        (0..9)
            .map(|i| {
                let mut ends = Vec::new();
                for l in SE_UNIT_ORDER
                    .iter()
                    .flat_map(|&u| strong_links(places[i], u, rules))
                    .flatten()
                {
                    for (forward, near, far) in [(true, l.a, l.b), (false, l.b, l.a)] {
                        ends.push(End {
                            forward,
                            unit: l.unit,
                            near,
                            far,
                            near_units: units_holding(near),
                            far_units: units_holding(far),
                            near_peers: peers_of_all(near),
                            far_peers: peers_of_all(far),
                            grouped: l.grouped,
                        });
                    }
                }
                ends
            })
            .collect()
    }

    fn strong_link_chains(&self, k: usize, all_ends: &[Vec<End>]) -> Option<Step> {
        let mut best: Option<(u8, usize, String, Step)> = None;
        let places = places_of(&self.cand);
        let mut chain: Vec<usize> = Vec::with_capacity(k);
        let mut shared: Vec<usize> = Vec::with_capacity(k);
        for d in 1..=9u8 {
            let digit = places[d as usize - 1];
            let ends = &all_ends[d as usize - 1];
            if ends.len() < 2 * k {
                continue;
            }
            // For each unit, the ends whose near group it holds (bit j =
            // end j; at most 2 * 18 + 4 * 9 ends).
            let mut near_in = [0u128; 27];
            for (j, e) in ends.iter().enumerate() {
                let mut units = e.near_units;
                while units != 0 {
                    near_in[units.trailing_zeros() as usize] |= 1u128 << j;
                    units &= units - 1;
                }
            }
            // For each cell, the ends with a group holding it: a chain
            // takes no end meeting a cell it holds (nor its own links'
            // other ends, which hold the same cells).
            let mut touch = [0u128; 81];
            for (j, e) in ends.iter().enumerate() {
                for c in cells_of_mask(e.near | e.far) {
                    touch[c] |= 1u128 << j;
                }
            }
            let search = LinkSearch {
                d,
                k,
                ends,
                near_in: &near_in,
                touch: &touch,
            };
            for first in 0..ends.len() {
                let e = &ends[first];
                let victims = digit & e.near_peers & !UNIT_MASKS[e.unit];
                if victims == 0 {
                    continue;
                }
                chain.push(first);
                let used = search.touching(e);
                search.extend(&mut chain, &mut shared, victims, used, &mut best);
                chain.pop();
            }
            // Rings (the two free groups share a unit), three links or
            // more: serate lists each once, from its link in the unit of
            // least number, read forward.
            if k > 2 {
                for (first, e) in ends.iter().enumerate() {
                    if e.forward {
                        chain.push(first);
                        search.ring_extend(&mut chain, search.touching(e), digit, &mut best);
                        chain.pop();
                    }
                }
            }
        }
        best.map(|b| b.3)
    }
}

/// Which of serate's two searches the links are for: `Turbot` (two strong
/// links, its TurbotFish) or `Links` (three and four, its StrongLinks).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Rules {
    Turbot,
    Links,
}

/// Unit `u` as strong links on a digit with places `digit`: each link's
/// two groups of places (a box may give two links).
///
/// Lines: two cells, or the places in two of the three box segments. Boxes,
/// in serate's order: two cells; else the first heart (in cell order) whose
/// row and column inside the box hold every place, each arm (the row or the
/// column without the heart) holding a place — an empty rectangle; else,
/// for `Links` and four places or more, the first pair of the box's rows
/// (its third row empty: rows 1–2, 1–3, 2–3), then of its columns, holding
/// every place, the places of each line a group (four places on two rows and
/// two columns are read by rows, then by columns).
///
/// An empty rectangle's groups are serate's, which depend on the search and
/// on how many places each arm has (the heart goes with an arm only as
/// below): `Turbot`: one place in each arm, two links (the column arm against
/// the heart and the row arm, then the row arm against the heart and the
/// column arm); one in the column arm, that against the heart and the row
/// arm; one in the row arm, that against the heart and the column arm; else
/// the two arms. `Links`: one place in the column arm and more in the row
/// arm, that against the heart and the row arm; one place in the row arm,
/// that against the heart and the column arm; else each arm with the heart.
fn strong_links(digit: u128, u: usize, rules: Rules) -> [Option<Link>; 2] {
    let all = digit & UNIT_MASKS[u];
    let n = all.count_ones();
    let link = |a: u128, b: u128, grouped: bool| {
        Some(Link {
            unit: u,
            a,
            b,
            grouped,
        })
    };
    if n == 2 {
        let a = 1u128 << all.trailing_zeros();
        return [link(a, all & !a, false), None];
    }
    if !(3..=6).contains(&n) {
        return [None, None];
    }
    if u >= 18 {
        for &h in &UNITS[u] {
            let r = UNIT_MASKS[row(h)] & UNIT_MASKS[u];
            let c = UNIT_MASKS[9 + col(h)] & UNIT_MASKS[u];
            if all & !(r | c) != 0 {
                continue;
            }
            let heart = all & 1u128 << h;
            let (row_arm, col_arm) = (all & r & !heart, all & c & !heart);
            if row_arm == 0 || col_arm == 0 {
                return [None, None];
            }
            let (rn, cn) = (row_arm.count_ones(), col_arm.count_ones());
            return match rules {
                Rules::Turbot if rn == 1 && cn == 1 => [
                    link(col_arm, heart | row_arm, true),
                    link(row_arm, heart | col_arm, true),
                ],
                Rules::Turbot if cn == 1 => [link(col_arm, heart | row_arm, true), None],
                Rules::Turbot if rn == 1 => [link(row_arm, heart | col_arm, true), None],
                Rules::Turbot => [link(col_arm, row_arm, true), None],
                Rules::Links if cn == 1 && rn >= 2 => [link(col_arm, heart | row_arm, true), None],
                Rules::Links if rn == 1 => [link(row_arm, heart | col_arm, true), None],
                Rules::Links => [link(row_arm | heart, col_arm | heart, true), None],
            };
        }
        if rules == Rules::Turbot || n < 4 {
            return [None, None];
        }
        // The box's rows and columns, top to bottom, left to right.
        let first = UNITS[u][0];
        let rows: [u128; 3] =
            std::array::from_fn(|i| UNIT_MASKS[row(first) + i] & UNIT_MASKS[u] & all);
        let cols: [u128; 3] =
            std::array::from_fn(|i| UNIT_MASKS[9 + col(first) + i] & UNIT_MASKS[u] & all);
        for (lines, step) in [(rows, 9), (cols, 1)] {
            for (x, y, empty) in [(0, 1, 2), (0, 2, 1), (1, 2, 0)] {
                let (a, b) = (lines[x], lines[y]);
                if lines[empty] != 0 || a == 0 || b == 0 {
                    continue;
                }
                // A rectangle: line y's two places are line x's moved
                // across; then also read by the other lines.
                let rectangle = n == 4 && a.count_ones() == 2 && a << (step * (y - x)) == b;
                let across = if rectangle {
                    let ends = 1u128 << a.trailing_zeros() | 1u128 << b.trailing_zeros();
                    link(ends, all & !ends, true)
                } else {
                    None
                };
                return [link(a, b, true), across];
            }
        }
        return [None, None];
    }
    // A line: its places in two of its three box segments.
    let segs: [u128; 3] = std::array::from_fn(|s| {
        UNITS[u][3 * s..3 * s + 3]
            .iter()
            .fold(0u128, |m, &c| m | 1 << c)
            & all
    });
    for e in 0..3 {
        if segs[e] != 0 {
            continue;
        }
        let (x, y) = (segs[(e + 1) % 3], segs[(e + 2) % 3]);
        if x != 0 && y != 0 {
            let (a, b) = if e == 0 {
                (x, y)
            } else if e == 1 {
                (y, x)
            } else {
                (x, y)
            };
            return [link(a, b, true), None];
        }
        return [None, None];
    }
    [None, None]
}

/// The cells seeing every cell of a cell mask.
fn peers_of_all(cells: u128) -> u128 {
    let mut m = cells;
    let mut seen = !0u128;
    while m != 0 {
        seen &= PEERS[m.trailing_zeros() as usize];
        m &= m - 1;
    }
    seen
}

/// The units (bit u) holding every cell of a cell mask.
fn units_holding(cells: u128) -> u32 {
    let mut units = (1u32 << 27) - 1;
    let mut m = cells;
    while m != 0 {
        let c = m.trailing_zeros() as usize;
        m &= m - 1;
        units &= units_of(c);
    }
    units
}

impl Board {}

/// Each digit's link ends (index d - 1), under one search's rules.
type LinkEnds = Vec<Vec<End>>;

/// A link read one way: its near and far groups, and the units holding
/// all of each.
struct End {
    /// Read as serate lists the link (its first group near).
    forward: bool,
    unit: usize,
    near: u128,
    far: u128,
    near_units: u32,
    far_units: u32,
    /// The cells seeing every cell of the near, of the far group.
    near_peers: u128,
    far_peers: u128,
    grouped: bool,
}

/// One digit's chains of strong links, enumerated depth first: each end,
/// then each end that may follow the last one, and so on (ends in
/// [`SE_UNIT_ORDER`], near before far), up to `k` links.
struct LinkSearch<'a> {
    d: u8,
    k: usize,
    ends: &'a [End],
    /// For each unit, the ends whose near group it holds.
    near_in: &'a [u128; 27],
    /// For each cell, the ends with a group holding it.
    touch: &'a [u128; 81],
}

impl LinkSearch<'_> {
    /// Extends `chain` by every link that may follow; `victims`: the
    /// digit's cells seeing the first group, outside the chain's and the
    /// shared units so far (only fewer as the chain grows: when none are
    /// left, no chain with this start eliminates anything; at the last link
    /// they also see its far group). `used`: the ends meeting the chain's
    /// cells.
    fn extend(
        &self,
        chain: &mut Vec<usize>,
        shared: &mut Vec<usize>,
        victims: u128,
        used: u128,
        best: &mut Option<(u8, usize, String, Step)>,
    ) {
        if chain.len() == self.k {
            if self.k == 2 || !self.is_ring(chain) {
                self.hint(chain, victims, victims.count_ones() as usize, false, best);
            }
            return;
        }
        let last = &self.ends[chain[chain.len() - 1]];
        for (j, f) in self.followers(last, used) {
            // The unit holding the last far group and this near group:
            // the first of column, row, box of their first cell.
            let both = last.far_units & f.near_units;
            if both == 0 {
                continue;
            }
            let s = if both & 0x3fe00 != 0 {
                (both & 0x3fe00).trailing_zeros() as usize
            } else if both & 0x1ff != 0 {
                (both & 0x1ff).trailing_zeros() as usize
            } else {
                both.trailing_zeros() as usize
            };
            let mut left = victims & !UNIT_MASKS[f.unit] & !UNIT_MASKS[s];
            // The last link: its far group must see a victim too.
            if chain.len() + 1 == self.k {
                left &= f.far_peers;
            }
            if left == 0 {
                continue;
            }
            chain.push(j);
            shared.push(s);
            let more = used | self.touching(f);
            self.extend(chain, shared, left, more, best);
            chain.pop();
            shared.pop();
        }
    }

    /// Whether the chain's two free groups share a unit (a ring).
    fn is_ring(&self, chain: &[usize]) -> bool {
        let (a, b) = (&self.ends[chain[0]], &self.ends[chain[chain.len() - 1]]);
        a.near_units & b.far_units != 0
    }

    /// Every ring that extends `chain` (no eliminations known before the
    /// end): each link in a unit of higher number than the first link's
    /// (serate's boxes 1–9, rows 11–19, columns 21–29). Its eliminations:
    /// the digit leaves the cells seeing both free groups, and the cells
    /// seeing both groups of each weak link, outside the link units
    /// (serate counts a cell once per such pair).
    fn ring_extend(
        &self,
        chain: &mut Vec<usize>,
        used: u128,
        digit: u128,
        best: &mut Option<(u8, usize, String, Step)>,
    ) {
        let number = |u: usize| match u {
            0..=8 => 11 + u,
            9..=17 => 12 + u,
            _ => u - 17,
        };
        if chain.len() == self.k {
            if !self.is_ring(chain) {
                return;
            }
            let links = chain
                .iter()
                .fold(0u128, |m, &e| m | UNIT_MASKS[self.ends[e].unit]);
            let (a, b) = (&self.ends[chain[0]], &self.ends[chain[self.k - 1]]);
            // The free groups, then the two groups of each weak link.
            let weak = chain.windows(2).map(|w| {
                let (x, y) = (&self.ends[w[0]], &self.ends[w[1]]);
                (x.far_peers, y.near_peers)
            });
            let (mut victims, mut n) = (0u128, 0usize);
            for (p, q) in std::iter::once((a.near_peers, b.far_peers)).chain(weak) {
                let v = digit & p & q & !links;
                victims |= v;
                n += v.count_ones() as usize;
            }
            self.hint(chain, victims, n, true, best);
            return;
        }
        let first = number(self.ends[chain[0]].unit);
        let last = &self.ends[chain[chain.len() - 1]];
        for (j, f) in self.followers(last, used) {
            if number(f.unit) <= first {
                continue;
            }
            chain.push(j);
            self.ring_extend(chain, used | self.touching(f), digit, best);
            chain.pop();
        }
    }

    /// The ends not in `used` whose near group shares a unit with `last`'s
    /// far group, with their indices, lowest first: the links that may
    /// follow it.
    fn followers(&self, last: &End, used: u128) -> impl Iterator<Item = (usize, &End)> {
        let mut next = 0u128;
        let mut units = last.far_units;
        while units != 0 {
            next |= self.near_in[units.trailing_zeros() as usize];
            units &= units - 1;
        }
        next &= !used;
        std::iter::from_fn(move || {
            (next != 0).then(|| {
                let j = next.trailing_zeros() as usize;
                next &= next - 1;
                (j, &self.ends[j])
            })
        })
    }

    /// The ends meeting a cell of end `e`.
    fn touching(&self, e: &End) -> u128 {
        cells_of_mask(e.near | e.far).fold(0, |m, c| m | self.touch[c])
    }

    /// A complete chain; `victims`: the digit's cells seeing every cell of
    /// both free groups, outside the link and shared units.
    fn hint(
        &self,
        chain: &[usize],
        victims: u128,
        n: usize,
        ring: bool,
        best: &mut Option<(u8, usize, String, Step)>,
    ) {
        if victims == 0 {
            return;
        }
        let kinds: Vec<u8> = chain
            .iter()
            .map(|&e| match self.ends[e].unit {
                0..=8 => 1,
                9..=17 => 2,
                _ => 0,
            })
            .collect();
        let grouped = chain.iter().filter(|&&e| self.ends[e].grouped).count();
        let tenths = if grouped > 0 {
            [0u8, 40, 54, 58, 62][chain.len() - 1] + 3
        } else {
            strong_links_tenths(&kinds)
        };
        // serate's order among hints: easiest, then most eliminations, then
        // its name's suffix (grouped links, then the unit kinds).
        let suffix = format!("{grouped}{}", link_kinds_text(&kinds));
        if best.as_ref().is_some_and(|b| {
            (b.0, std::cmp::Reverse(b.1), b.2.as_str())
                <= (tenths, std::cmp::Reverse(n), suffix.as_str())
        }) {
            return;
        }
        let d = self.d;
        let el: Vec<(usize, u8)> = cells_of_mask(victims).map(|c| (c, d)).collect();
        let group = |m: u128| -> String {
            let names: Vec<String> = cells_of_mask(m).map(cell_name).collect();
            names.join("|")
        };
        let parts: Vec<String> = chain
            .iter()
            .map(|&e| {
                let l = &self.ends[e];
                format!(
                    "{}={} in {}",
                    group(l.near),
                    group(l.far),
                    unit_name(l.unit)
                )
            })
            .collect();
        let t = match chain.len() {
            2 => Technique::TwoStrongLinks,
            3 => Technique::ThreeStrongLinks,
            _ => Technique::FourStrongLinks,
        };
        *best = Some((
            tenths,
            n,
            suffix,
            Step {
                technique: t,
                tenths,
                placement: None,
                eliminations: el,
                detail: format!(
                    "on {d}: {}{}",
                    parts.join(", "),
                    if ring { " (a ring)" } else { "" }
                ),
            },
        ));
    }
}

/// A unit as a strong link: its places for a digit in two groups.
struct Link {
    unit: usize,
    a: u128,
    b: u128,
    grouped: bool,
}
