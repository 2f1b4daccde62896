//! Every minimal unavoidable set of at most k cells (k = 12 by default),
//! exhaustively: the solutions *near* the grid.
//!
//! # Idea
//!
//! A minimal UA set U of a solved grid G is exactly the set of cells where
//! some other solution S differs from G (blank U: the puzzle has a second
//! solution S, whose difference from G is unavoidable and inside U, hence U
//! by minimality). So the minimal UA sets of at most k cells are the
//! inclusion-minimal difference sets of the solutions S ≠ G that differ
//! from G in at most k cells. This module enumerates those solutions — not
//! by blanking chosen regions (which finds only the sets inside them, see
//! [`crate::ua`]) but all of them, whatever digits and boxes they span.
//!
//! # Solutions as digit templates
//!
//! A *template* is one way to place a digit once in every row, column and
//! box: 9 cells, one per row (46 656 of them). A solution is 9 disjoint
//! templates, one per digit; G's own template of digit d is `own[d]`, the
//! cells where G has d. If S puts d on template T, S and G differ on the
//! cells of T outside `own[d]`: the *distance* of T, the number of rows
//! where T and `own[d]` differ (0, or at least 2: a template cannot differ
//! in a single row). |diff(S)| is the sum of the distances of S's templates,
//! and the digits S moves ("changed digits", C) are those with distance > 0.
//!
//! # The search
//!
//! Let d₁ = min C. Choose d₁'s template; every digit whose cell it takes
//! must move too, so it joins the *required* digits. Repeatedly take the
//! required digit that has no template yet (by a fixed rule) and choose one for it,
//! disjoint from the templates chosen so far and using no cell of a digit
//! below d₁ (those do not move). When every required digit has its template,
//! the chosen templates are disjoint and lie inside the cells of the
//! required digits, 9 per digit: they tile those cells exactly, and with
//! the other digits left in place they form a solution S. Each S is reached
//! once (d₁ and the order of choice are fixed by S) — except that the
//! search stops at the first closed group of digits: when S moves two
//! independent groups it yields each group alone, whose difference sets
//! are proper subsets of S's and are the only ones that can be minimal.
//!
//! # Bound
//!
//! A required digit e still without a template will move at least
//! `max(2, |own[e] ∩ used|)` cells, where `used` is the union of the chosen
//! templates (its new template must avoid them). The sum of the chosen
//! distances and these lower bounds must stay ≤ k, or the branch is cut.
//! The same bound, taken for one template alone, keeps a digit's candidate
//! list short: a template T for d with x_e cells on digit e's own cells has
//! distance m = Σ x_e and needs m + Σ max(2, x_e) ≤ k, so m ≤ k/2 (≤ 6 for
//! k = 12) and it touches at most k/2 − 1 other digits. Each digit's
//! candidates are grouped by the rows where they move: the open digit taken
//! next is the one with the most own cells already taken (by used
//! templates), and its template must move on each of their rows, so only
//! the groups of those rows' supersets within the budget are read.
//!
//! Candidates come in about 730 per digit at k = 12; the search visits
//! about 7 600 nodes on the grid with 421 sets. The time per grid against
//! GridChecker's `--unav12` is in docs/benchmarks.md (`cargo bench -p
//! algoku-bench --bench ua`).
//!
//! # Minimal sets
//!
//! The difference sets found (at most k cells each) are sorted by size and
//! de-duplicated; a set is kept when it contains no kept set. Every
//! non-minimal one contains a smaller minimal UA, which is itself a
//! difference set found, so what is kept is exactly the minimal UA sets of
//! at most k cells.

use std::sync::OnceLock;

use rayon::prelude::*;

use crate::Cells;

/// Largest `k` accepted by [`minimal_uas`] (the search grows quickly with k).
pub const MAX_K: usize = 16;

/// The 46 656 digit templates as cell lists (cell of row r at index r).
fn templates() -> &'static [[u8; 9]] {
    static T: OnceLock<Vec<[u8; 9]>> = OnceLock::new();
    T.get_or_init(|| {
        let mut out = Vec::with_capacity(46_656);
        let mut cur = [0u8; 9];
        fn rec(row: usize, cols: u16, boxes: u16, cur: &mut [u8; 9], out: &mut Vec<[u8; 9]>) {
            if row == 9 {
                out.push(*cur);
                return;
            }
            for c in 0..9 {
                let b = (row / 3) * 3 + c / 3;
                if cols >> c & 1 == 0 && boxes >> b & 1 == 0 {
                    cur[row] = (9 * row + c) as u8;
                    rec(row + 1, cols | 1 << c, boxes | 1 << b, cur, out);
                }
            }
        }
        rec(0, 0, 0, &mut cur, &mut out);
        out
    })
}

/// A candidate template for one digit.
#[derive(Clone, Copy)]
struct Cand {
    /// Its cells.
    cells: u128,
    /// Its cells not on the digit's own cells (the cells it changes).
    moved: u128,
    /// The other digits whose own cells it takes (bit d-1 = digit d).
    digits: u16,
    /// The rows of the moved cells (bit r = row r); its distance is the
    /// count.
    rows: u16,
}

/// Candidate templates of one digit, grouped by their moved rows: a digit
/// whose own cells on rows R are taken needs a template that moves on
/// every row of R, so only the groups of supersets of R are read.
#[derive(Default)]
struct Cands {
    /// Sorted by (number of moved rows, moved rows).
    list: Vec<Cand>,
    /// The non-empty groups in `list` order: (moved rows, start, end).
    groups: Vec<(u16, u32, u32)>,
}

impl Cands {
    fn new(mut list: Vec<Cand>) -> Cands {
        list.sort_by_key(|c| (c.rows.count_ones(), c.rows));
        let mut groups: Vec<(u16, u32, u32)> = Vec::new();
        for (i, c) in list.iter().enumerate() {
            match groups.last_mut() {
                Some(g) if g.0 == c.rows => g.2 = i as u32 + 1,
                _ => groups.push((c.rows, i as u32, i as u32 + 1)),
            }
        }
        Cands { list, groups }
    }
}

/// Per-grid state of the search.
struct Near {
    k: usize,
    /// `own[d]`: the cells of digit d+1.
    own: [u128; 9],
    /// Candidate templates of each digit.
    cands: [Cands; 9],
}

impl Near {
    fn new(grid: &Cells, k: usize) -> Near {
        let mut own = [0u128; 9];
        for (i, &v) in grid.iter().enumerate() {
            own[usize::from(v) - 1] |= 1u128 << i;
        }
        let mut lists: [Vec<Cand>; 9] = Default::default();
        let min_own = 9 - k / 2; // own cells a useful template keeps
        for t in templates() {
            let mut count = [0u8; 9];
            for &c in t {
                count[usize::from(grid[usize::from(c)]) - 1] += 1;
            }
            for d in 0..9 {
                let keep = usize::from(count[d]);
                if keep < min_own || keep > 7 {
                    continue;
                }
                let mut need = 9 - keep; // its own distance
                let mut digits = 0u16;
                for (e, &x) in count.iter().enumerate() {
                    if e != d && x > 0 {
                        need += usize::from(x).max(2);
                        digits |= 1 << e;
                    }
                }
                if need > k {
                    continue;
                }
                let cells = t.iter().fold(0u128, |m, &c| m | 1u128 << c);
                let moved = cells & !own[d];
                let rows = (0..9)
                    .filter(|&r| moved >> t[r] & 1 == 1)
                    .fold(0u16, |m, r| m | 1 << r);
                lists[d].push(Cand {
                    cells,
                    moved,
                    digits,
                    rows,
                });
            }
        }
        let cands = lists.map(Cands::new);
        Near { k, own, cands }
    }

    /// Every closed group of moved digits with lowest digit `d1`.
    fn lowest_moved(&self, d1: usize, range: std::ops::Range<usize>, found: &mut Vec<u128>) {
        let below: u16 = (1 << d1) - 1;
        for t in &self.cands[d1].list[range] {
            if t.digits & below != 0 {
                continue;
            }
            let required = t.digits | 1 << d1;
            let dist = t.rows.count_ones() as usize;
            if self.bound(dist, required, 1 << d1, t.cells) > self.k {
                continue;
            }
            self.extend(found, below, t.cells, 1 << d1, required, dist, t.moved);
        }
    }

    /// Lower bound on the total distance: `spent` plus, for each required
    /// digit without a template, max(2, its own cells already taken).
    fn bound(&self, spent: usize, required: u16, assigned: u16, used: u128) -> usize {
        let mut b = spent;
        let mut open = required & !assigned;
        while open != 0 {
            let e = open.trailing_zeros() as usize;
            open &= open - 1;
            b += ((self.own[e] & used).count_ones() as usize).max(2);
        }
        b
    }

    #[allow(clippy::too_many_arguments)]
    fn extend(
        &self,
        found: &mut Vec<u128>,
        below: u16,
        used: u128,
        assigned: u16,
        required: u16,
        spent: usize,
        diff: u128,
    ) {
        let open = required & !assigned;
        if open == 0 {
            found.push(diff);
            return;
        }
        // The open digit with the most own cells taken (fewest templates).
        let mut e = 0;
        let mut taken = 0u128;
        let mut o = open;
        while o != 0 {
            let d = o.trailing_zeros() as usize;
            o &= o - 1;
            let t = self.own[d] & used;
            if t.count_ones() > taken.count_ones() {
                e = d;
                taken = t;
            }
        }
        // Budget left for e's template, after the others' lower bounds.
        let others = self.bound(0, required, assigned | 1 << e, used);
        let Some(room) = self.k.checked_sub(spent + others) else {
            return;
        };
        let must = rows_of(taken);
        let cands = &self.cands[e];
        // The groups of supersets of `must` within `room` moved rows.
        for &(rows, start, end) in &cands.groups {
            let dist = rows.count_ones() as usize;
            if dist > room {
                break;
            }
            if rows & must != must {
                continue;
            }
            for t in &cands.list[start as usize..end as usize] {
                if t.cells & used != 0 || t.digits & below != 0 {
                    continue;
                }
                let used2 = used | t.cells;
                let assigned2 = assigned | 1 << e;
                let required2 = required | t.digits;
                let spent2 = spent + dist;
                if self.bound(spent2, required2, assigned2, used2) > self.k {
                    continue;
                }
                self.extend(
                    found,
                    below,
                    used2,
                    assigned2,
                    required2,
                    spent2,
                    diff | t.moved,
                );
            }
        }
    }
}

/// The rows (bit r = row r) of the cells of `mask`.
fn rows_of(mask: u128) -> u16 {
    let mut rows = 0u16;
    for r in 0..9 {
        if mask >> (9 * r) & 0x1ff != 0 {
            rows |= 1 << r;
        }
    }
    rows
}

/// Every minimal UA set of `grid` with at most `k` cells (4 ≤ k ≤
/// [`MAX_K`]), each once, sorted by size then by mask.
///
/// # Panics
///
/// If `k` is above [`MAX_K`] (callers check it first).
pub fn minimal_uas(grid: &Cells, k: usize) -> Vec<u128> {
    assert!(k <= MAX_K, "k = {k} above {MAX_K}");
    if k < 4 {
        return Vec::new();
    }
    let near = Near::new(grid, k);
    // One search per lowest moved digit and first template, in parallel on
    // the current rayon pool, CHUNK first templates per job (the order of
    // the finds does not matter: they are sorted).
    const CHUNK: usize = 32;
    let jobs: Vec<(usize, usize)> = (0..9)
        .flat_map(|d1| {
            (0..near.cands[d1].list.len())
                .step_by(CHUNK)
                .map(move |i| (d1, i))
        })
        .collect();
    let found: Vec<Vec<u128>> = jobs
        .into_par_iter()
        .with_max_len(1)
        .map(|(d1, i)| {
            let mut found = Vec::new();
            let end = (i + CHUNK).min(near.cands[d1].list.len());
            near.lowest_moved(d1, i..end, &mut found);
            found
        })
        .collect();
    crate::minimal_sets(found.concat())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::is_minimal_ua;

    const G: &str =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

    fn cells(s: &str) -> Cells {
        std::array::from_fn(|i| s.as_bytes()[i] - b'0')
    }

    #[test]
    fn there_are_46656_templates() {
        assert_eq!(templates().len(), 46_656);
    }

    #[test]
    fn every_set_is_minimal_and_sizes_grow_with_k() {
        let g = cells(G);
        let small = minimal_uas(&g, 8);
        let large = minimal_uas(&g, 10);
        assert!(!small.is_empty());
        for &s in &large {
            assert!(is_minimal_ua(&g, s));
            assert!(s.count_ones() <= 10);
        }
        let cut: Vec<u128> = large
            .iter()
            .copied()
            .filter(|s| s.count_ones() <= 8)
            .collect();
        assert_eq!(cut, small);
    }
}
