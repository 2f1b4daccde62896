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
                            return Some(Step::eliminating(
                                Technique::UniqueRectangle1,
                                self.elims_of(std::iter::once(k), m),
                                format!("on {{{}}} at {}", digits_of(m), names.join(",")),
                            ));
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
            let mut units = [units_of(c), 0];
            self.loops_from(
                c,
                v1,
                v2,
                &mut path,
                &mut units,
                2,
                0,
                usize::MAX,
                &mut loops,
            );
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
                let detail = |kind: &str| {
                    let names: Vec<String> = lp.iter().map(|&x| cell_name(x)).collect();
                    format!("type {kind} on {{{v1}{v2}}} at {}", names.join(","))
                };
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
    /// `units`: the units holding a cell of the path at an even, and at an
    /// odd position. A loop's every unit holds one of each, so a path with
    /// two at positions of the same parity in one unit is not followed.
    #[allow(clippy::too_many_arguments)]
    fn loops_from(
        &self,
        c: usize,
        v1: u8,
        v2: u8,
        path: &mut Vec<usize>,
        units: &mut [u32; 2],
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
                    // A loop through a bivalue cell before the start was
                    // found (first) from that cell.
                    if m.count_ones() == 2 && next < path[0] {
                        continue;
                    }
                    let new_extra = (extra | m) & !(bit(v1) | bit(v2));
                    let card = m.count_ones();
                    let parity = path.len() % 2;
                    if units[parity] & units_of(next) != 0 {
                        continue;
                    }
                    if card == 2 || new_extra.count_ones() == 1 || allowed > 0 {
                        let a = allowed - i32::from(card > 2);
                        units[parity] |= units_of(next);
                        self.loops_from(next, v1, v2, path, units, a, new_extra, kind, out);
                        units[parity] &= !units_of(next);
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

/// What [`Board::bug_cells`] found: the BUG cells, the digits each holds
/// beyond its pair, their union, and the cells that see every BUG cell.
struct Bug {
    cells: Vec<usize>,
    values: [u16; 81],
    all_values: u16,
    common: u128,
}

/// Bivalue universal grave, types 1–4, as Sudoku Explainer's BUG rule
/// finds them (SukakuExplainer's default, lkSudoku's variant).
///
/// A BUG is a grid whose every empty cell has two candidates and every
/// digit two places in every unit: it has two solutions or none, so a
/// puzzle with one solution never reaches it. Units are read boxes, rows,
/// columns; in each, a digit with other than 0 or 2 places marks its
/// places among cells with three or more candidates as *BUG cells* of that
/// digit (when it has exactly one there; with none, no BUG). Without their
/// BUG digits, the grid must be a BUG; so one of the BUG cells holds its
/// BUG digit:
///
/// - type 1 (5.6): one BUG cell: its other candidates go;
/// - type 2 (5.7): one BUG digit: it goes from the cells seeing every BUG
///   cell;
/// - type 4 (5.7): two BUG cells in one unit, sharing one other digit: that
///   digit and the BUG digits are all each may keep;
/// - type 3 (5.8 for a pair … 6.2 for a sextuple): the BUG digits with
///   other cells of a unit holding every BUG cell form a naked set: its
///   digits go from the cells seeing every cell holding them.
///
/// The first of these found (in that order: type 2, then 4, then 3) is
/// the step.
impl Board {
    pub(crate) fn se_bug(&self) -> Option<Step> {
        let places = places_of(&self.cand);
        let Bug {
            cells,
            values,
            all_values,
            common,
        } = self.bug_cells(&places)?;
        let names = || {
            cells
                .iter()
                .map(|&c| cell_name(c))
                .collect::<Vec<_>>()
                .join(",")
        };
        let step = |tenths: u8, eliminations: Vec<(usize, u8)>, detail: String| Step {
            technique: Technique::Bug,
            tenths,
            placement: None,
            eliminations,
            detail,
        };
        if cells.len() == 1 {
            let c = cells[0];
            let el = self.elims_of(std::iter::once(c), !all_values & 0x1ff);
            if el.is_empty() {
                return None;
            }
            return Some(step(
                56,
                el,
                format!("type 1: {} must be {}", cell_name(c), digits_of(all_values)),
            ));
        }
        if all_values.count_ones() == 1 {
            let d = all_values.trailing_zeros() as u8 + 1;
            let victims = common & places[d as usize - 1];
            if victims != 0 {
                let el = cells_of_mask(victims).map(|c| (c, d)).collect();
                return Some(step(57, el, format!("type 2: {} on {d}", names())));
            }
            if cells.len() == 2 {
                return self
                    .bug4(&cells, &values, all_values)
                    .map(|(el, what)| step(57, el, what));
            }
            return None;
        }
        if common == 0 {
            return None;
        }
        if cells.len() == 2 {
            if let Some((el, what)) = self.bug4(&cells, &values, all_values) {
                return Some(step(57, el, what));
            }
        }
        self.bug3(&cells, all_values, common, &places)
            .map(|(degree, el, what)| step(57 + degree as u8 - 1, el, what))
    }

    /// The BUG cells (those left with three candidates or more once the
    /// digits beyond a bivalue grave are taken out), if taking those digits
    /// out leaves a bivalue universal grave and a type 1 to 4 can still
    /// follow.
    fn bug_cells(&self, places: &[u128; 9]) -> Option<Bug> {
        const ORDER: [usize; 27] = [
            18, 19, 20, 21, 22, 23, 24, 25, 26, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14,
            15, 16, 17,
        ];
        let many = (0..81)
            .filter(|&c| self.cand[c].count_ones() >= 3)
            .fold(0u128, |m, c| m | 1 << c);
        let mut temp = self.cand;
        let mut cells: Vec<usize> = Vec::new();
        let mut values = [0u16; 81];
        let mut all_values = 0u16;
        let mut common: Option<u128> = None;
        let (mut extra, mut only, mut one_value): (Option<u128>, u8, bool) = (None, 0, true);
        // Adds a BUG cell to the cells seen by all: None when no type 1, 2
        // or 3 is possible any more.
        let see = |common: &mut Option<u128>, cells: &[usize], c: usize| -> Option<()> {
            let mut m = common.unwrap_or(PEERS[c]) & PEERS[c];
            for &b in cells {
                m &= !(1 << b);
            }
            *common = Some(m);
            (cells.len() <= 1 || m != 0).then_some(())
        };
        for u in ORDER {
            for d in 1..=9u8 {
                let pos = places[d as usize - 1] & UNIT_MASKS[u];
                let n = pos.count_ones();
                if n == 0 || n == 2 {
                    continue;
                }
                let new = pos & many;
                match &mut extra {
                    None => {
                        extra = Some(new);
                        only = d;
                    }
                    Some(e) if one_value => {
                        if only == d {
                            *e |= new;
                        } else {
                            one_value = false;
                        }
                    }
                    _ => {}
                }
                if new.count_ones() == 1 {
                    let c = new.trailing_zeros() as usize;
                    if !cells.contains(&c) {
                        cells.push(c);
                    }
                    values[c] |= bit(d);
                    all_values |= bit(d);
                    temp[c] &= !bit(d);
                    if see(&mut common, &cells, c).is_none() && all_values.count_ones() > 1 {
                        return None;
                    }
                }
                if new == 0 {
                    return None;
                }
            }
        }
        if let (true, Some(e)) = (one_value, extra) {
            if e.count_ones() as usize > cells.len() {
                let known = cells.iter().fold(0u128, |m, &c| m | 1 << c);
                let mut rest = e & !known;
                while rest != 0 {
                    let c = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    cells.push(c);
                    values[c] = bit(only);
                    temp[c] &= !bit(only);
                    if see(&mut common, &cells, c).is_none() && all_values.count_ones() > 1 {
                        return None;
                    }
                }
            }
        }
        // Without the BUG digits: a BUG?
        if (0..81).any(|c| self.value[c] == 0 && temp[c].count_ones() != 2) {
            return None;
        }
        let temp_places = places_of(&temp);
        for u in 0..27 {
            for p in &temp_places {
                if !matches!((p & UNIT_MASKS[u]).count_ones(), 0 | 2) {
                    return None;
                }
            }
        }
        Some(Bug {
            cells,
            values,
            all_values,
            common: common.unwrap_or(0),
        })
    }

    /// BUG type 4: the two BUG cells share a unit and one digit besides the
    /// BUG digits; each keeps only its BUG digits and that one.
    fn bug4(
        &self,
        cells: &[usize],
        values: &[u16; 81],
        all_values: u16,
    ) -> Option<(Vec<(usize, u8)>, String)> {
        let (a, b) = (cells[0], cells[1]);
        let shared = self.cand[a] & self.cand[b] & !all_values;
        if shared.count_ones() != 1 {
            return None;
        }
        let unit = [18 + boxi(a), row(a), 9 + col(a)]
            .into_iter()
            .find(|&u| UNIT_MASKS[u] >> b & 1 == 1)?;
        let mut el = self.elims_of(std::iter::once(a), !values[a] & !shared & 0x1ff);
        el.extend(self.elims_of(std::iter::once(b), !values[b] & !shared & 0x1ff));
        if el.is_empty() {
            return None;
        }
        let d = shared.trailing_zeros() as u8 + 1;
        Some((
            el,
            format!(
                "type 4: {},{} on {d} in {}",
                cell_name(a),
                cell_name(b),
                unit_name(unit)
            ),
        ))
    }

    /// BUG type 3: with `degree - 1` other cells of a unit holding every
    /// BUG cell (and seeing them all), the BUG digits form a naked set of
    /// `degree` digits.
    fn bug3(
        &self,
        cells: &[usize],
        all_values: u16,
        common: u128,
        places: &[u128; 9],
    ) -> Option<(usize, Elims, String)> {
        if all_values.count_ones() < 2 {
            return None;
        }
        for degree in 2..=6usize {
            for kind in 0..3 {
                let unit_of = |c: usize| match kind {
                    0 => 18 + boxi(c),
                    1 => row(c),
                    _ => 9 + col(c),
                };
                let u = unit_of(cells[0]);
                if cells.iter().any(|&c| unit_of(c) != u) {
                    continue;
                }
                let region: Vec<usize> = (0..81)
                    .filter(|&c| common >> c & 1 == 1 && UNIT_MASKS[u] >> c & 1 == 1)
                    .collect();
                if region.len() < degree {
                    continue;
                }
                let k = degree - 1;
                let mut m: u64 = (1 << k) - 1;
                let top: u64 = 1 << region.len();
                while m < top {
                    let chosen: Vec<usize> = (0..region.len())
                        .filter(|&i| m >> i & 1 == 1)
                        .map(|i| region[i])
                        .collect();
                    let other = chosen.iter().fold(0u16, |a, &c| a | self.cand[c]);
                    let naked = other | all_values;
                    if other.count_ones() as usize == degree
                        && chosen.iter().all(|&c| self.cand[c].count_ones() > 1)
                        && naked.count_ones() as usize == degree
                    {
                        let mut el = Vec::new();
                        for c in 0..81 {
                            for d in 1..=9u8 {
                                if naked & bit(d) == 0 || places[d as usize - 1] >> c & 1 == 0 {
                                    continue;
                                }
                                let seen = chosen
                                    .iter()
                                    .chain(cells)
                                    .filter(|&&h| self.cand[h] & bit(d) != 0)
                                    .all(|&h| PEERS[h] >> c & 1 == 1);
                                if seen {
                                    el.push((c, d));
                                }
                            }
                        }
                        if !el.is_empty() {
                            let names: Vec<String> = chosen.iter().map(|&c| cell_name(c)).collect();
                            return Some((
                                degree,
                                el,
                                format!(
                                    "type 3: naked {{{}}} with {} in {}",
                                    digits_of(naked),
                                    names.join(","),
                                    unit_name(u)
                                ),
                            ));
                        }
                    }
                    // Next mask with k bits (Gosper's hack).
                    let low = m & m.wrapping_neg();
                    let ripple = m + low;
                    m = ripple | (((m ^ ripple) >> 2) / low);
                }
            }
        }
        None
    }
}
