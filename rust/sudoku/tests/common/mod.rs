//! Helpers shared by the integration tests: fixture loading and a small,
//! obviously-correct reference solver to cross-check the fast one.
#![allow(dead_code)]

use algoku_sudoku::Grid;

/// Reads `tests/data/<name>`: one puzzle per line (first 81 characters),
/// skipping empty lines and `#` comments.
pub fn fixture(name: &str) -> Vec<Grid> {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .map(|l| l.trim_end_matches('\r'))
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let head: String = l.chars().take(81).collect();
            Grid::parse(&head).unwrap_or_else(|e| panic!("{path}: {e}"))
        })
        .collect()
}

/// Counts solutions up to `limit` by plain backtracking on candidate masks,
/// choosing the cell with the fewest candidates. Slow but simple.
pub fn reference_count(puzzle: &Grid, limit: usize) -> usize {
    if puzzle.check().is_err() {
        return 0;
    }
    let mut cells = *puzzle.cells();
    let mut n = 0;
    rec(&mut cells, limit, &mut n);
    n
}

fn rec(cells: &mut [u8; 81], limit: usize, n: &mut usize) {
    let mut best: Option<(usize, u16, u32)> = None;
    for i in 0..81 {
        if cells[i] != 0 {
            continue;
        }
        let (r, c) = (i / 9, i % 9);
        let mut used = 0u16;
        for k in 0..9 {
            used |= 1 << cells[r * 9 + k];
            used |= 1 << cells[k * 9 + c];
            used |= 1 << cells[(r / 3 * 3 + k / 3) * 9 + c / 3 * 3 + k % 3];
        }
        let free = !used & 0x3FE;
        let cnt = free.count_ones();
        if best.is_none_or(|b| cnt < b.2) {
            best = Some((i, free, cnt));
        }
    }
    let Some((i, free, _)) = best else {
        *n += 1;
        return;
    };
    for d in 1..=9u8 {
        if free & (1 << d) != 0 {
            cells[i] = d;
            rec(cells, limit, n);
            cells[i] = 0;
            if *n >= limit {
                return;
            }
        }
    }
}
