//! The exhaustive list of small minimal UA sets ([`algoku_checker::near`])
//! against an independent brute force, and against GridChecker's counts.
//!
//! The brute force is the definition, written plainly: for every subset D
//! of 2..=k/2 digits, blank the cells of G holding a digit of D and list,
//! by a cell-by-cell backtracking in row-major order, every completion that
//! differs from G in at most k cells (a branch is cut as soon as it has
//! more than k differences). Every solution S ≠ G within k cells is among
//! them (take D = the digits G has where S differs: outside their cells S
//! equals G, and each moved digit moves at least 2 cells, so |D| ≤ k/2).
//! The inclusion-minimal difference sets are then the minimal UA sets of at
//! most k cells.

use std::collections::BTreeSet;

use algoku_checker::{is_minimal_ua, minimal_uas, Cells};
use algoku_sudoku::generator::solution_grid;
use algoku_sudoku::Grid;

/// Every completion of `grid` with the digits of `digits` (bit d = digit
/// d) blanked that differs from it in 1..=k cells: their difference sets.
fn brute_subset(grid: &Cells, digits: u16, k: usize, out: &mut Vec<u128>) {
    let blank: Vec<usize> = (0..81).filter(|&i| digits >> grid[i] & 1 == 1).collect();
    // Digits present in each row, column and box (the kept cells).
    let mut rows = [0u16; 9];
    let mut cols = [0u16; 9];
    let mut boxes = [0u16; 9];
    for i in 0..81 {
        if digits >> grid[i] & 1 == 0 {
            let bit = 1u16 << grid[i];
            rows[i / 9] |= bit;
            cols[i % 9] |= bit;
            boxes[(i / 27) * 3 + (i % 9) / 3] |= bit;
        }
    }
    struct State<'a> {
        grid: &'a Cells,
        blank: &'a [usize],
        k: usize,
        rows: [u16; 9],
        cols: [u16; 9],
        boxes: [u16; 9],
    }
    fn go(s: &mut State, at: usize, diff: u128, out: &mut Vec<u128>) {
        if diff.count_ones() as usize > s.k {
            return;
        }
        if at == s.blank.len() {
            if diff != 0 {
                out.push(diff);
            }
            return;
        }
        let i = s.blank[at];
        let (r, c, b) = (i / 9, i % 9, (i / 27) * 3 + (i % 9) / 3);
        for d in 1..=9u8 {
            let bit = 1u16 << d;
            if (s.rows[r] | s.cols[c] | s.boxes[b]) & bit != 0 {
                continue;
            }
            s.rows[r] |= bit;
            s.cols[c] |= bit;
            s.boxes[b] |= bit;
            let moved = if d == s.grid[i] { 0 } else { 1u128 << i };
            go(s, at + 1, diff | moved, out);
            s.rows[r] &= !bit;
            s.cols[c] &= !bit;
            s.boxes[b] &= !bit;
        }
    }
    let mut s = State {
        grid,
        blank: &blank,
        k,
        rows,
        cols,
        boxes,
    };
    go(&mut s, 0, 0, out);
}

/// The minimal UA sets of at most `k` cells, by brute force.
fn brute(grid: &Cells, k: usize) -> BTreeSet<u128> {
    let mut diffs = Vec::new();
    for digits in 0u16..512 {
        let n = digits.count_ones() as usize;
        if n >= 2 && n <= k / 2 {
            brute_subset(grid, digits << 1, k, &mut diffs);
        }
    }
    let all: BTreeSet<u128> = diffs.into_iter().collect();
    all.iter()
        .copied()
        .filter(|&d| !all.iter().any(|&e| e != d && e & !d == 0))
        .collect()
}

fn random_grid(seed: u64) -> Cells {
    *solution_grid(seed).cells()
}

fn check(grid: &Cells, k: usize) {
    let fast = minimal_uas(grid, k);
    let as_set: BTreeSet<u128> = fast.iter().copied().collect();
    assert_eq!(as_set.len(), fast.len(), "a set listed twice");
    let slow = brute(grid, k);
    assert_eq!(
        as_set,
        slow,
        "k = {k}, grid {}: fast {} sets, brute force {}",
        Grid::from_cells(*grid).unwrap(),
        fast.len(),
        slow.len()
    );
    assert!(fast
        .windows(2)
        .all(|w| (w[0].count_ones(), w[0]) < (w[1].count_ones(), w[1])));
}

#[test]
fn agrees_with_brute_force_up_to_8_cells() {
    for seed in 0..6 {
        check(&random_grid(seed), 8);
    }
}

#[test]
fn agrees_with_brute_force_up_to_10_cells() {
    for seed in 100..104 {
        check(&random_grid(seed), 10);
    }
}

/// k = 12 (minutes: `cargo test -p algoku-checker --release --test near --
/// --ignored`).
#[test]
#[ignore]
fn agrees_with_brute_force_up_to_12_cells() {
    for seed in 200..203 {
        check(&random_grid(seed), 12);
    }
}

/// GridChecker's `--unav --count --unav12` counts on three anchor grids
/// (421, 370 and 258 sets of at most 12 cells), and every set minimal.
#[test]
fn matches_gridchecker_counts_up_to_12_cells() {
    for (g, n) in [
        (
            "123456789456789132789213645275941368638527914941638257394175826517862493862394571",
            421,
        ),
        (
            "873569241625134987149278356931857624782496513456321798598713462364982175217645839",
            370,
        ),
        (
            "123456789457189236689372145245798361378261954961543827512637498796824513834915672",
            258,
        ),
    ] {
        let grid = *Grid::parse(g).unwrap().cells();
        let sets = minimal_uas(&grid, 12);
        assert_eq!(sets.len(), n, "{g}");
        for (i, &s) in sets.iter().enumerate() {
            if i % 7 == 0 {
                assert!(is_minimal_ua(&grid, s));
            }
        }
    }
}
