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

/// Sudoku Explainer's unique rectangles and loops (types 1 to 4).
///
/// A *loop* of cells all holding two digits {a,b} where each step moves
/// along a unit of another kind than the last, and every unit the loop
/// touches holds exactly two of its cells (one at an odd, one at an even
/// position) would be a deadly pattern: a and b could swap. A unique
/// puzzle cannot end like that, so the cells with extra candidates must
/// keep one: type 1 (one such cell: it loses a and b), type 2 (the extra
/// cells share one extra digit: it leaves every cell seeing them all),
/// type 3 (see [`Board::loop_type3`]), type 4 (two extra cells in a unit
/// where a is nowhere else: b leaves both). Score: 4.5 for a rectangle (4 cells), 4.6 for 6 cells, 4.7 for 8,
/// 5.0 from 10.
impl Board {
    pub(crate) fn se_unique_loops(&self) -> Option<Step> {
        let mut hints: Vec<(u8, u8, Step)> = Vec::new();
        for c in 0..81 {
            if self.cand[c].count_ones() != 2 {
                continue;
            }
            let v1 = self.cand[c].trailing_zeros() as u8 + 1;
            let v2 = 16 - self.cand[c].leading_zeros() as u8;
            let mut loops = Vec::new();
            let mut path = Vec::new();
            self.loops_from(c, v1, v2, &mut path, 2, 0, usize::MAX, &mut loops);
            for lp in loops {
                if !valid_loop(&lp) {
                    continue;
                }
                let extra: Vec<usize> = lp
                    .iter()
                    .copied()
                    .filter(|&x| self.cand[x].count_ones() > 2)
                    .collect();
                let base = 45
                    + if lp.len() >= 10 { 3 } else { 0 }
                    + if lp.len() >= 8 {
                        2
                    } else if lp.len() >= 6 {
                        1
                    } else {
                        0
                    };
                let pair = bit(v1) | bit(v2);
                let names: Vec<String> = lp.iter().map(|&x| cell_name(x)).collect();
                let detail =
                    |kind: &str| format!("type {kind} on {{{v1}{v2}}} at {}", names.join(","));
                let mut add = |ty: u8, more: u8, el: Vec<(usize, u8)>, kind: &str| {
                    if !el.is_empty() {
                        hints.push((
                            base + more,
                            ty,
                            Step {
                                technique: Technique::UniqueLoop,
                                tenths: base + more,
                                placement: None,
                                eliminations: el,
                                detail: detail(kind),
                            },
                        ));
                    }
                };
                let extra_values = extra.iter().fold(0u16, |m, &x| m | self.cand[x]) & !pair;
                match extra.len() {
                    1 => add(1, 0, self.elims_of(std::iter::once(extra[0]), pair), "1"),
                    0 => {}
                    n => {
                        if extra_values.count_ones() == 1 {
                            let d = extra_values.trailing_zeros() as u8 + 1;
                            let el = (0..81)
                                .filter(|&o| {
                                    !extra.contains(&o)
                                        && self.cand[o] & bit(d) != 0
                                        && extra.iter().all(|&x| sees(o, x))
                                })
                                .map(|o| (o, d))
                                .collect();
                            add(2, 0, el, "2");
                        }
                        if n == 2 && extra_values.count_ones() >= 2 {
                            for (ty, more, el, what) in
                                self.loop_type3(extra[0], extra[1], v1, v2, extra_values)
                            {
                                add(ty, more, el, &what);
                            }
                        }
                        if n == 2 {
                            let (c1, c2) = (extra[0], extra[1]);
                            let mut locked = [false, false];
                            for u in [18 + boxi(c1), row(c1), 9 + col(c1)] {
                                if !UNITS[u].contains(&c2) {
                                    continue;
                                }
                                for (k, v) in [v1, v2].into_iter().enumerate() {
                                    if !UNITS[u]
                                        .iter()
                                        .any(|&o| o != c1 && o != c2 && self.cand[o] & bit(v) != 0)
                                    {
                                        locked[k] = true;
                                    }
                                }
                            }
                            let rem = if locked[0] {
                                Some(v2)
                            } else if locked[1] {
                                Some(v1)
                            } else {
                                None
                            };
                            if let Some(r) = rem {
                                add(4, 0, vec![(c1, r), (c2, r)], "4");
                            }
                        }
                    }
                }
            }
        }
        hints.sort_by_key(|h| (h.0, h.1));
        hints.into_iter().next().map(|h| h.2)
    }

    /// Sudoku Explainer's loop search: every path back to the start over
    /// cells holding both digits, alternating unit kinds, at most two cells
    /// with extra candidates (more if they add the same single digit).
    #[allow(clippy::too_many_arguments)]
    fn loops_from(
        &self,
        c: usize,
        v1: u8,
        v2: u8,
        path: &mut Vec<usize>,
        allowed: i32,
        extra: u16,
        last: usize,
        out: &mut Vec<Vec<usize>>,
    ) {
        path.push(c);
        for kind in 0..3 {
            if kind == last {
                continue;
            }
            let u = [18 + boxi(c), row(c), 9 + col(c)][kind];
            for &next in &UNITS[u] {
                if next == path[0] && path.len() >= 4 {
                    out.push(path.clone());
                } else if !path.contains(&next) {
                    let m = self.cand[next];
                    if m & bit(v1) == 0 || m & bit(v2) == 0 {
                        continue;
                    }
                    let new_extra = (extra | m) & !(bit(v1) | bit(v2));
                    let card = m.count_ones();
                    if card == 2 || new_extra.count_ones() == 1 || allowed > 0 {
                        let a = allowed - i32::from(card > 2);
                        self.loops_from(next, v1, v2, path, a, new_extra, kind, out);
                    }
                }
            }
        }
        path.pop();
    }
}

type Type3 = Vec<(u8, u8, Vec<(usize, u8)>, String)>;

impl Board {
    /// Type 3: the two cells with extra candidates act as one cell holding
    /// their extra digits, which with other cells of a shared unit forms a
    /// naked set (its digits leave the unit's other cells; +0.1 per digit
    /// beyond one) or, with the loop's digits, a hidden set (the set's cells
    /// lose their other digits; +0.1 per cell beyond two).
    fn loop_type3(&self, c1: usize, c2: usize, v1: u8, v2: u8, extra: u16) -> Type3 {
        let mut out = Vec::new();
        let pair = bit(v1) | bit(v2);
        for degree in 2..=7u32 {
            for u in [18 + boxi(c1), row(c1), 9 + col(c1)] {
                let Some(i2) = UNITS[u].iter().position(|&c| c == c2) else {
                    continue;
                };
                let i1 = UNITS[u]
                    .iter()
                    .position(|&c| c == c1)
                    .expect("in its units");
                let empty = UNITS[u].iter().filter(|&&c| self.value[c] == 0).count() as u32;
                if degree * 2 <= empty && degree >= extra.count_ones() {
                    for m in crate::subsets::masks_of_size(degree) {
                        if m & (1 << i1) == 0 || m & (1 << i2) != 0 {
                            continue;
                        }
                        let mut naked = extra & self.cand[c1] & self.cand[c2];
                        let mut union = 0u16;
                        let mut ok = true;
                        for i in (0..9).filter(|i| m & (1 << i) != 0) {
                            let p = if i == i1 {
                                extra
                            } else {
                                self.cand[UNITS[u][i]]
                            };
                            if i != i1 {
                                naked |= p;
                            }
                            ok &= p.count_ones() >= 2;
                            union |= p;
                        }
                        if !ok || naked.count_ones() != degree || union.count_ones() != degree {
                            continue;
                        }
                        let el = self.elims_of(
                            (0..9)
                                .filter(|&i| m & (1 << i) == 0 && i != i2)
                                .map(|i| UNITS[u][i]),
                            union,
                        );
                        let what =
                            format!("3 (naked {{{}}} in {})", digits_of(union), unit_name(u));
                        out.push((3, (degree - 1) as u8, el, what));
                    }
                }
                if degree * 2 < empty {
                    let rem: Vec<u8> = (1..=9u8)
                        .filter(|&d| (pair | extra) & bit(d) == 0)
                        .collect();
                    if (degree - 2) as usize > rem.len() {
                        continue;
                    }
                    let subsets: Vec<u16> = if degree == 2 {
                        vec![0]
                    } else {
                        (1u16..(1 << rem.len()))
                            .filter(|s| s.count_ones() == degree - 2)
                            .collect()
                    };
                    for sub in subsets {
                        let mut hidden = pair;
                        for (k, &d) in rem.iter().enumerate() {
                            if sub & (1 << k) != 0 {
                                hidden |= bit(d);
                            }
                        }
                        let mut union = 0u16;
                        let mut ok = true;
                        for d in (1..=9u8).filter(|&d| hidden & bit(d) != 0) {
                            let p = self.positions(u, d) & !(1 << i2);
                            ok &= p != 0;
                            union |= p;
                        }
                        if !ok || union.count_ones() != degree {
                            continue;
                        }
                        let cells: Vec<usize> = (0..9)
                            .filter(|&i| union & (1 << i) != 0 && i != i1 && i != i2)
                            .map(|i| UNITS[u][i])
                            .collect();
                        let el = self.elims_of(cells.iter().copied(), !hidden & 0x1ff);
                        let what =
                            format!("3 (hidden {{{}}} in {})", digits_of(hidden), unit_name(u));
                        out.push((3, cells.len().saturating_sub(1) as u8, el, what));
                    }
                }
            }
        }
        out
    }
}

/// Every unit the loop touches holds exactly two of its cells, one at an
/// odd and one at an even position.
fn valid_loop(lp: &[usize]) -> bool {
    let mut odd = [false; 27];
    let mut even = [false; 27];
    for (i, &c) in lp.iter().enumerate() {
        let set = if i % 2 == 1 { &mut odd } else { &mut even };
        for u in [18 + boxi(c), row(c), 9 + col(c)] {
            if set[u] {
                return false;
            }
            set[u] = true;
        }
    }
    odd == even
}

/// BUG type 1 (Sudoku Explainer 5.6): every empty cell has two candidates
/// but one, which has three, and every digit has two places in every unit
/// but one digit, with three in that cell's units. Without that digit the
/// cell would leave a bivalue universal grave (a grid with two solutions),
/// so the cell holds it: its other candidates go.
impl Board {
    pub(crate) fn se_bug(&self) -> Option<Step> {
        let mut odd = None;
        for c in 0..81 {
            match self.cand[c].count_ones() {
                0 | 2 => {}
                3 if odd.is_none() => odd = Some(c),
                _ => return None,
            }
        }
        let c = odd?;
        let mut extra = 0u16;
        for u in 0..27 {
            for d in 1..=9u8 {
                match self.places(u, d).len() {
                    0 | 2 => {}
                    3 if UNITS[u].contains(&c) && self.cand[c] & bit(d) != 0 => extra |= bit(d),
                    _ => return None,
                }
            }
        }
        if extra.count_ones() != 1 {
            return None;
        }
        let d = extra.trailing_zeros() as u8 + 1;
        Some(Step {
            technique: Technique::Bug,
            tenths: 56,
            placement: None,
            eliminations: self.elims_of(std::iter::once(c), !extra & 0x1ff),
            detail: format!("type 1: {} must be {d}", cell_name(c)),
        })
    }
}
