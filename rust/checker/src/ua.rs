//! Minimal unavoidable sets (UA) of a solved grid.
//!
//! # What a UA set is
//!
//! A set U of cells of a solved grid G is *unavoidable* when blanking U
//! (keeping every other cell of G) leaves a puzzle with a second solution:
//! every puzzle whose unique solution is G must then have a given in U. It is
//! *minimal* when no proper subset is unavoidable. The smallest are the
//! "unavoidable rectangles" (4 cells, two digits swapped on two rows, two
//! columns and two boxes). A puzzle's givens must hit every UA set, which is
//! what makes the N-clue search ([`crate::search`](mod@crate::search)) a hitting-set problem.
//!
//! # How they are found (GridChecker's method, step 1)
//!
//! Blank every cell of G holding a digit of a subset D (or every cell of a
//! subset of boxes), and enumerate **all** completions of that puzzle with a
//! small backtracking solver (most constrained cell first). Each completion
//! S ≠ G differs from G on a set diff(S) that is unavoidable (S is the second
//! solution). Keep the diffs that contain no other diff.
//!
//! Why the kept sets are exactly the minimal UA sets inside the blanked
//! region R: (a) if U ⊆ R is a minimal UA, blanking U has a second solution
//! S, and diff(S) ⊆ U is unavoidable, so diff(S) = U by minimality; S agrees
//! with G outside R, so S is one of the completions enumerated, and U is
//! found. (b) A kept diff X that were not minimal would contain a minimal UA
//! U ⊊ X, also inside R, hence also a diff, and X would have been dropped.
//! Minimality does not depend on R, so the union over all subsets needs only
//! de-duplication, no global superset filtering.
//!
//! For digit subsets of up to 4 digits the completions are not searched
//! cell by cell but as exact covers of the blanked cells by digit
//! *templates* (`Templates`); box subsets and larger digit subsets
//! use the plain [`Enumerator`]. Both give the same sets.
//!
//! Digit subsets of up to `digits` digits (default 4: every minimal UA made
//! of ≤ 4 digits, sizes 4 to about 16) and box subsets of up to `boxes`
//! boxes (4 as GridChecker brings the sets of sizes 13–19 to GridChecker's
//! counts, and without `complete` the search visits fewer nodes; the
//! default is 3 since with `complete` = 14 the fourth box adds no pruning,
//! see below) are enumerated; a completion count above
//! `max_completions` for one subset abandons that subset (its sets are then
//! not guaranteed complete, but are still minimal only if filtered, so the
//! whole subset is skipped). The search does not need every UA set: it
//! learns the missing ones when a candidate puzzle turns out not unique.
//!
//! Blanking finds only the sets inside the subsets tried: on some grids
//! 15–38 of the minimal sets of 12 cells span more digits and boxes. With
//! `complete` = K the list starts from [`crate::near`], which lists every
//! minimal UA set of at most K cells, and blanking adds the larger ones.
//!
//! The defaults are K = 14, 4 digits and 3 boxes: quicker per grid than 4
//! digits and 4 boxes alone, and the N-clue search visits fewer nodes and
//! learns far fewer sets. A fourth box then changes no node count. The
//! search starts from [`UaOptions::for_clues`]: the same with 3 digits and
//! K = 13 for 16 clues or fewer. There the subsets of 4 digits (most of
//! their sets beyond the 1 500 the search keeps) hardly change the nodes
//! but cost a large share of a quick search, and the sets of 14 cells save
//! nodes but cost more time than they save; K = 12 adds nodes. 17 clues
//! keep K = 14. docs/benchmarks.md has the figures.

use std::collections::HashSet;

use rayon::prelude::*;

use algoku_sudoku::{count_solutions, Grid};

use crate::{cells_of, minimal_sets, Cells};

/// What to enumerate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UaOptions {
    /// Largest digit subset whose cells are blanked together (2..=9).
    pub digits: usize,
    /// Largest box subset whose cells are blanked together (0 or 2..=9).
    pub boxes: usize,
    /// Keep only sets of at most this many cells.
    pub max_size: usize,
    /// Completions above which one subset is abandoned.
    pub max_completions: usize,
    /// List every minimal UA set of at most this many cells, whatever its
    /// digits and boxes ([`crate::near`]; 0: none, at most
    /// [`crate::near::MAX_K`]); the subsets above add larger ones.
    pub complete: usize,
}

impl UaOptions {
    /// What the search for puzzles of `clues` givens starts from: the
    /// defaults, with digit subsets of 3 digits only and the exhaustive
    /// list to 13 cells below 17 clues (see the module documentation).
    pub fn for_clues(clues: usize) -> UaOptions {
        let sparse = clues <= 16;
        UaOptions {
            digits: if sparse { 3 } else { 4 },
            complete: if sparse { 13 } else { 14 },
            ..UaOptions::default()
        }
    }

    /// The size up to which [`collect`] lists every minimal UA set (0:
    /// no such guarantee).
    pub fn complete_up_to(&self) -> usize {
        let k = self.complete.min(self.max_size).min(crate::near::MAX_K);
        if k >= 4 {
            k
        } else {
            0
        }
    }
}

impl Default for UaOptions {
    fn default() -> Self {
        UaOptions {
            digits: 4,
            boxes: 3,
            max_size: 81,
            max_completions: 2_000_000,
            complete: 14,
        }
    }
}

/// The UA sets the search for puzzles of `clues` givens starts from: the
/// smallest [`SEARCH_SETS`] that [`collect`] finds with
/// [`UaOptions::for_clues`].
pub fn search_sets(grid: &Cells, clues: usize) -> Vec<u128> {
    let mut sets = collect(grid, &UaOptions::for_clues(clues));
    sets.truncate(SEARCH_SETS);
    sets
}

/// Sets [`search_sets`] keeps: the smallest prune best, large ones only slow
/// each node down.
pub const SEARCH_SETS: usize = 1500;

/// The minimal UA sets of `grid` found by the method above (and, with
/// `opts.complete`, every one up to that size), sorted by size then by
/// mask (deterministic).
pub fn collect(grid: &Cells, opts: &UaOptions) -> Vec<u128> {
    let complete = opts.complete_up_to();
    if complete > 0 && opts.max_size <= complete {
        return crate::near::minimal_uas(grid, complete);
    }
    // The exhaustive list and the blanked regions are independent: both run
    // on the current rayon pool (one thread: one after the other).
    let (near, regions) = rayon::join(
        || {
            if complete > 0 {
                crate::near::minimal_uas(grid, complete)
            } else {
                Vec::new()
            }
        },
        || blanked(grid, opts),
    );
    let mut all: HashSet<u128> = near.into_iter().collect();
    all.extend(regions.into_iter().flatten());
    let mut v: Vec<u128> = all.into_iter().collect();
    v.sort_by_key(|&m| (m.count_ones(), m));
    v
}

/// The minimal UA sets inside the digit and box subsets of `opts`, one
/// list per subset (in parallel on the current rayon pool).
fn blanked(grid: &Cells, opts: &UaOptions) -> Vec<Vec<u128>> {
    let templates = Templates::new(grid, opts.digits.min(9));
    let mut regions: Vec<(bool, u32)> = Vec::new();
    for size in 2..=opts.digits.min(9) {
        regions.extend(subsets(9, size).map(|s| (true, s)));
    }
    for size in 2..=opts.boxes.min(9) {
        regions.extend(subsets(9, size).map(|s| (false, s)));
    }
    regions
        .into_par_iter()
        .map(|(digits, subset)| {
            let mut region = 0u128;
            let mut out = HashSet::new();
            if digits {
                for (i, &v) in grid.iter().enumerate() {
                    if subset >> (v - 1) & 1 == 1 {
                        region |= 1u128 << i;
                    }
                }
                match templates.region_diffs(grid, subset as u16, opts.max_completions) {
                    Some(diffs) => keep_minimal(diffs, opts, &mut out),
                    None => region_sets(grid, region, opts, &mut out),
                }
            } else {
                for i in 0..81 {
                    let b = (i / 27) * 3 + (i % 9) / 3;
                    if subset >> b & 1 == 1 {
                        region |= 1u128 << i;
                    }
                }
                region_sets(grid, region, opts, &mut out);
            }
            out.into_iter().collect()
        })
        .collect()
}

/// Adds to `out` the minimal UA sets inside `region` (of at most
/// `max_size` cells).
fn region_sets(grid: &Cells, region: u128, opts: &UaOptions, out: &mut HashSet<u128>) {
    let mut cells = *grid;
    for c in cells_of(region) {
        cells[c] = 0;
    }
    let mut diffs: Vec<u128> = Vec::new();
    let mut n = 0usize;
    let complete = Enumerator::new(&cells).for_each(Some(grid), &mut |s| {
        n += 1;
        if n > opts.max_completions {
            return false;
        }
        let mut d = 0u128;
        for c in cells_of(region) {
            if s[c] != grid[c] {
                d |= 1u128 << c;
            }
        }
        if d != 0 {
            diffs.push(d);
        }
        true
    });
    if !complete {
        return;
    }
    keep_minimal(diffs, opts, out);
}

/// Adds to `out` the diffs that contain no other diff (of at most
/// `max_size` cells).
fn keep_minimal(diffs: Vec<u128>, opts: &UaOptions, out: &mut HashSet<u128>) {
    out.extend(
        minimal_sets(diffs)
            .into_iter()
            .filter(|m| m.count_ones() as usize <= opts.max_size),
    );
}

/// The digit templates of a grid: the 46 656 ways to place one digit
/// once in every row, column and box, kept when the grid's digits on
/// them are few (at most `max_digits` different ones).
///
/// A completion of the grid with the digits of a subset D blanked puts
/// each digit of D on a template inside the blanked region R (the cells of
/// D's digits), and those templates partition R; conversely any partition
/// of R into |D| templates with any assignment of D's digits to them is a
/// completion (outside R no cell holds a digit of D). So the completions
/// are enumerated as exact covers of R by the templates whose grid digits
/// all lie in D — far fewer steps than a cell-by-cell search.
struct Templates {
    /// (template cells, mask of the grid digits on them, bit d-1 = digit d).
    list: Vec<(u128, u16)>,
}

impl Templates {
    fn new(grid: &Cells, max_digits: usize) -> Templates {
        let mut list = Vec::new();
        // Row by row: a column per row, all columns and boxes distinct.
        #[allow(clippy::too_many_arguments)]
        fn rec(
            row: usize,
            cols: u16,
            boxes: u16,
            cells: u128,
            digits: u16,
            grid: &Cells,
            max_digits: usize,
            out: &mut Vec<(u128, u16)>,
        ) {
            if digits.count_ones() as usize > max_digits {
                return;
            }
            if row == 9 {
                out.push((cells, digits));
                return;
            }
            for c in 0..9 {
                let b = (row / 3) * 3 + c / 3;
                if cols >> c & 1 == 1 || boxes >> b & 1 == 1 {
                    continue;
                }
                let i = 9 * row + c;
                rec(
                    row + 1,
                    cols | 1 << c,
                    boxes | 1 << b,
                    cells | 1u128 << i,
                    digits | 1 << (grid[i] - 1),
                    grid,
                    max_digits,
                    out,
                );
            }
        }
        // Only worth it for small subsets (the count of templates and of
        // covers grows fast with |D|).
        if max_digits <= 4 {
            rec(0, 0, 0, 0, 0, grid, max_digits, &mut list);
        }
        Templates { list }
    }

    /// The diffs of every completion of the grid with the digits of
    /// `subset` blanked, or `None` if more than `max` completions (or not
    /// prepared for subsets this large).
    fn region_diffs(&self, grid: &Cells, subset: u16, max: usize) -> Option<Vec<u128>> {
        let k = subset.count_ones() as usize;
        if self.list.is_empty() || k > 4 {
            return None;
        }
        let usable: Vec<u128> = self
            .list
            .iter()
            .filter(|&&(_, d)| d & !subset == 0)
            .map(|&(t, _)| t)
            .collect();
        let digits: Vec<u8> = (1..=9u8).filter(|d| subset >> (d - 1) & 1 == 1).collect();
        // The grid's own cells of each digit of D.
        let own: Vec<u128> = digits
            .iter()
            .map(|&d| {
                (0..81)
                    .filter(|&i| grid[i] == d)
                    .fold(0u128, |m, i| m | 1u128 << i)
            })
            .collect();
        let full: u128 = own.iter().fold(0, |a, &m| a | m);
        // Exact covers of `full` by k templates (each cover listed once:
        // the template covering the lowest uncovered cell is chosen next).
        let mut covers: Vec<[u128; 4]> = Vec::new();
        let mut stack = [0u128; 4];
        let mut count = 0usize;
        let mut fact = 1usize;
        for i in 2..=k {
            fact *= i;
        }
        #[allow(clippy::too_many_arguments)]
        fn cover(
            usable: &[u128],
            left: u128,
            depth: usize,
            stack: &mut [u128; 4],
            covers: &mut Vec<[u128; 4]>,
            count: &mut usize,
            fact: usize,
            max: usize,
        ) -> bool {
            if left == 0 {
                *count += fact;
                if *count > max {
                    return false;
                }
                covers.push(*stack);
                return true;
            }
            let low = 1u128 << left.trailing_zeros();
            for &t in usable {
                if t & low != 0 && t & !left == 0 {
                    stack[depth] = t;
                    if !cover(
                        usable,
                        left & !t,
                        depth + 1,
                        stack,
                        covers,
                        count,
                        fact,
                        max,
                    ) {
                        return false;
                    }
                }
            }
            true
        }
        if !cover(
            &usable,
            full,
            0,
            &mut stack,
            &mut covers,
            &mut count,
            fact,
            max,
        ) {
            return None;
        }
        // Every assignment of D's digits to the templates of a cover.
        let mut diffs = Vec::new();
        let mut perm: Vec<usize> = (0..k).collect();
        for cv in &covers {
            permutations(&mut perm, 0, &mut |p| {
                let mut d = 0u128;
                for (j, &t) in p.iter().enumerate() {
                    // Template cv[j] gets digit digits[t]: cells of it that
                    // did not hold that digit change.
                    d |= cv[j] & !own[t];
                }
                if d != 0 {
                    diffs.push(d);
                }
            });
        }
        Some(diffs)
    }
}

/// Calls `f` on every permutation of `v[from..]` (with `v[..from]` fixed).
fn permutations(v: &mut [usize], from: usize, f: &mut dyn FnMut(&[usize])) {
    if from == v.len() {
        f(v);
        return;
    }
    for i in from..v.len() {
        v.swap(from, i);
        permutations(v, from + 1, f);
        v.swap(from, i);
    }
}

/// The bitmasks of `k`-element subsets of `0..n`, in increasing order.
fn subsets(n: u32, k: usize) -> impl Iterator<Item = u32> {
    (0u32..1 << n).filter(move |m| m.count_ones() as usize == k)
}

/// `grid` with the cells of `mask` blanked.
fn blank(grid: &Cells, mask: u128) -> Grid {
    let mut cells = *grid;
    for c in cells_of(mask) {
        cells[c] = 0;
    }
    Grid::from_cells(cells).expect("digits 0..=9")
}

/// Whether blanking `set` in `grid` leaves at least two solutions.
pub fn is_unavoidable(grid: &Cells, set: u128) -> bool {
    count_solutions(&blank(grid, set), 2) >= 2
}

/// Whether `set` is unavoidable and each proper subset missing one cell is
/// not (blanking it leaves a unique solution).
pub fn is_minimal_ua(grid: &Cells, set: u128) -> bool {
    is_unavoidable(grid, set)
        && cells_of(set).all(|c| count_solutions(&blank(grid, set & !(1u128 << c)), 2) == 1)
}

/// A plain backtracking solver that enumerates every completion of a
/// partial grid: most constrained empty cell first, digits of a preferred
/// grid tried first (so that grid comes out first and nearby completions
/// next).
pub struct Enumerator {
    cells: Cells,
    rows: [u16; 9],
    cols: [u16; 9],
    boxes: [u16; 9],
    empty: Vec<usize>,
}

impl Enumerator {
    /// The enumerator of the completions of `cells` (0 = blank). Givens
    /// that conflict simply give no completion.
    pub fn new(cells: &Cells) -> Enumerator {
        let mut e = Enumerator {
            cells: *cells,
            rows: [0; 9],
            cols: [0; 9],
            boxes: [0; 9],
            empty: Vec::new(),
        };
        let mut conflict = false;
        for (i, &v) in cells.iter().enumerate() {
            if v == 0 {
                e.empty.push(i);
                continue;
            }
            let bit = 1u16 << v;
            let (r, c, b) = (i / 9, i % 9, (i / 27) * 3 + (i % 9) / 3);
            conflict |= (e.rows[r] | e.cols[c] | e.boxes[b]) & bit != 0;
            e.rows[r] |= bit;
            e.cols[c] |= bit;
            e.boxes[b] |= bit;
        }
        if conflict {
            // Make every completion impossible.
            e.rows = [0x3fe; 9];
            if e.empty.is_empty() {
                e.empty.push(0);
                e.cells[0] = 0;
            }
        }
        e
    }

    /// Calls `f` on every completion until it returns false; returns
    /// whether the enumeration ran to its end.
    pub fn for_each(mut self, prefer: Option<&Cells>, f: &mut dyn FnMut(&Cells) -> bool) -> bool {
        let n = self.empty.len();
        self.rec(n, prefer, f)
    }

    fn rec(
        &mut self,
        open: usize,
        prefer: Option<&Cells>,
        f: &mut dyn FnMut(&Cells) -> bool,
    ) -> bool {
        if open == 0 {
            return f(&self.cells);
        }
        // Most constrained open cell (the open cells are empty[..open]).
        let mut best = 0usize;
        let mut best_cand = 0u16;
        let mut best_n = 10;
        for k in 0..open {
            let i = self.empty[k];
            let cand = self.cand(i);
            let n = cand.count_ones();
            if n < best_n {
                best_n = n;
                best = k;
                best_cand = cand;
                if n <= 1 {
                    break;
                }
            }
        }
        if best_n == 0 {
            return true;
        }
        self.empty.swap(best, open - 1);
        let i = self.empty[open - 1];
        let (r, c, b) = (i / 9, i % 9, (i / 27) * 3 + (i % 9) / 3);
        let mut order = [0u8; 9];
        let mut k = 0;
        if let Some(p) = prefer {
            if best_cand >> p[i] & 1 == 1 {
                order[k] = p[i];
                k += 1;
            }
        }
        for d in 1..=9u8 {
            if best_cand >> d & 1 == 1 && prefer.is_none_or(|p| p[i] != d) {
                order[k] = d;
                k += 1;
            }
        }
        let mut go_on = true;
        for &d in &order[..k] {
            let bit = 1u16 << d;
            self.cells[i] = d;
            self.rows[r] |= bit;
            self.cols[c] |= bit;
            self.boxes[b] |= bit;
            go_on = self.rec(open - 1, prefer, f);
            self.rows[r] &= !bit;
            self.cols[c] &= !bit;
            self.boxes[b] &= !bit;
            if !go_on {
                break;
            }
        }
        self.cells[i] = 0;
        go_on
    }

    fn cand(&self, i: usize) -> u16 {
        let (r, c, b) = (i / 9, i % 9, (i / 27) * 3 + (i % 9) / 3);
        !(self.rows[r] | self.cols[c] | self.boxes[b]) & 0x3fe
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const G: &str =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

    fn cells(s: &str) -> Cells {
        let mut c = [0u8; 81];
        for (i, b) in s.bytes().enumerate() {
            c[i] = b - b'0';
        }
        c
    }

    #[test]
    fn every_set_found_is_a_minimal_ua() {
        let g = cells(G);
        let sets = collect(
            &g,
            &UaOptions {
                digits: 3,
                boxes: 2,
                ..UaOptions::default()
            },
        );
        assert!(!sets.is_empty());
        for &s in &sets {
            assert!(is_minimal_ua(&g, s), "{}", crate::pattern(&g, s));
        }
    }

    #[test]
    fn enumerator_counts_completions() {
        let g = cells(G);
        let mut n = 0;
        assert!(Enumerator::new(&g).for_each(None, &mut |_| {
            n += 1;
            true
        }));
        assert_eq!(n, 1);
        let mut empty = [0u8; 81];
        empty[..9].copy_from_slice(&g[..9]);
        empty[9..18].copy_from_slice(&g[9..18]);
        let mut k = 0;
        Enumerator::new(&empty).for_each(None, &mut |_| {
            k += 1;
            k < 10
        });
        assert_eq!(k, 10);
    }
}
