//! An exact solver for the 8x8 puzzle: [`solve`] and [`count_solutions`].
//!
//! # Rules
//!
//! Fill every blank square with a digit 1..=8 so that each row, column and 2x4 box holds
//! 1..=8 once, keeping the givens (the nonzero nibbles of the start).
//!
//! # Algorithm
//!
//! Depth-first search over a small copyable state:
//!
//! * `cells[k]`: the digit of square k, 0 if blank;
//! * `used[u]`: for each of the 24 units (rows 0..8, columns 8..16, boxes 16..24), a `u8`
//!   bitmask of the digits already in it (bit `d - 1` for digit `d`). The candidates of a
//!   blank square are `!(used[row] | used[col] | used[box])`.
//!
//! At every node, constraint propagation runs to a fixed point:
//!
//! * **naked singles**: a blank square with one candidate gets it; with none, the node is
//!   a dead end;
//! * **hidden singles**: in each unit, a missing digit that fits only one blank square goes
//!   there; a missing digit that fits none is a dead end.
//!
//! Then the blank square with the fewest candidates (MRV; lowest index on ties) is branched
//! on, digits in increasing order, on copies of the state. The search is exhaustive, so
//! "no solution" is a proof; [`count_solutions`] stops as soon as it reaches its limit.
//! Results are deterministic.
//!
//! # Invalid starts
//!
//! A start with a nibble 9..=15, or whose givens already repeat a digit in a unit, has no
//! solution: [`solve`] returns `None` and [`count_solutions`] 0. (The contract's `verify`
//! rejects every solution for such a start too.)
//!
//! # Unsolvable generated starts
//!
//! The contract's comment says every generated start is solvable; it is not: a few random
//! addresses give a dead start (docs/benchmarks.md has the share). A start with 8 distinct
//! digits can still be
//! dead, e.g. when the squares seen by one blank square hold all 8 digits, or by
//! pigeonhole: for address `0x1c8471dc1afc82e8e1e87f7e3e1567f10c11707d` (a ground-truth
//! vector) row 3 holds 8, 4, 3 in its right half and box 2 holds 1, 2 in row 2, so the 4
//! blank squares of row 3's left half can only take 5, 6, 7. All dead generated starts
//! seen so far are refuted by propagation at the root, so a dead start costs no search.

use crate::board::Board;
use crate::units::{box_of, Unit};

/// The 3 units (row, 8 + column, 16 + box) of each square.
fn units_of(k: usize) -> [usize; 3] {
    [k / 8, 8 + k % 8, 16 + box_of(k)]
}

/// The squares of each unit, indexed as in [`State::used`].
fn unit_squares(u: usize) -> [usize; 8] {
    match u {
        0..=7 => Unit::Row(u).squares(),
        8..=15 => Unit::Column(u - 8).squares(),
        _ => Unit::Box(u - 16).squares(),
    }
}

#[derive(Clone, Copy)]
struct Tables {
    units_of: [[usize; 3]; 64],
    squares: [[usize; 8]; 24],
}

impl Tables {
    fn new() -> Tables {
        Tables {
            units_of: core::array::from_fn(units_of),
            squares: core::array::from_fn(unit_squares),
        }
    }
}

#[derive(Clone, Copy)]
struct State {
    cells: [u8; 64],
    used: [u8; 24],
}

const ALL: u8 = 0xFF;

impl State {
    /// The state of a start, or `None` if it has a non-digit nibble or repeated givens.
    fn from_start(start: &Board, t: &Tables) -> Option<State> {
        let mut s = State {
            cells: [0; 64],
            used: [0; 24],
        };
        for (k, v) in start.cells().into_iter().enumerate() {
            match v {
                0 => {}
                1..=8 => {
                    if s.candidates(k, t) & (1 << (v - 1)) == 0 {
                        return None;
                    }
                    s.place(k, v, t);
                }
                _ => return None,
            }
        }
        Some(s)
    }

    fn candidates(&self, k: usize, t: &Tables) -> u8 {
        let [r, c, b] = t.units_of[k];
        !(self.used[r] | self.used[c] | self.used[b])
    }

    fn place(&mut self, k: usize, d: u8, t: &Tables) {
        self.cells[k] = d;
        let bit = 1 << (d - 1);
        for u in t.units_of[k] {
            self.used[u] |= bit;
        }
    }

    /// Naked and hidden singles to a fixed point; `false` on a contradiction.
    fn propagate(&mut self, t: &Tables) -> bool {
        loop {
            let mut progress = false;
            for k in 0..64 {
                if self.cells[k] != 0 {
                    continue;
                }
                let c = self.candidates(k, t);
                if c == 0 {
                    return false;
                }
                if c.is_power_of_two() {
                    self.place(k, c.trailing_zeros() as u8 + 1, t);
                    progress = true;
                }
            }
            for u in 0..24 {
                loop {
                    // Digits that fit at least one / at least two blank squares of the unit.
                    let (mut one, mut two) = (0u8, 0u8);
                    for &k in &t.squares[u] {
                        if self.cells[k] == 0 {
                            let c = self.candidates(k, t);
                            two |= one & c;
                            one |= c;
                        }
                    }
                    let missing = ALL & !self.used[u];
                    if missing & !one != 0 {
                        return false;
                    }
                    let singles = missing & one & !two;
                    if singles == 0 {
                        break;
                    }
                    let bit = singles & singles.wrapping_neg();
                    let d = bit.trailing_zeros() as u8 + 1;
                    let Some(&k) = t.squares[u]
                        .iter()
                        .find(|&&k| self.cells[k] == 0 && self.candidates(k, t) & bit != 0)
                    else {
                        return false;
                    };
                    self.place(k, d, t);
                    progress = true;
                }
            }
            if !progress {
                return true;
            }
        }
    }

    /// The blank square with the fewest candidates, or `None` if the grid is full.
    fn most_constrained(&self, t: &Tables) -> Option<(usize, u8)> {
        let mut best: Option<(usize, u8)> = None;
        for k in 0..64 {
            if self.cells[k] == 0 {
                let c = self.candidates(k, t);
                if best.is_none_or(|(_, b)| c.count_ones() < b.count_ones()) {
                    best = Some((k, c));
                    if c.count_ones() <= 2 {
                        break;
                    }
                }
            }
        }
        best
    }
}

/// Depth-first search; counts solutions into `found` (stopping at `limit`) and keeps the
/// first one.
fn search(mut s: State, t: &Tables, limit: usize, found: &mut usize, first: &mut Option<Board>) {
    if !s.propagate(t) {
        return;
    }
    let Some((k, mut cands)) = s.most_constrained(t) else {
        *found += 1;
        if first.is_none() {
            *first = Some(Board::from_cells(s.cells));
        }
        return;
    };
    while cands != 0 && *found < limit {
        let d = cands.trailing_zeros() as u8 + 1;
        cands &= cands - 1;
        let mut next = s;
        next.place(k, d, t);
        search(next, t, limit, found, first);
    }
}

fn run(start: &Board, limit: usize) -> (usize, Option<Board>) {
    let t = Tables::new();
    let mut found = 0;
    let mut first = None;
    if limit > 0 {
        if let Some(s) = State::from_start(start, &t) {
            search(s, &t, limit, &mut found, &mut first);
        }
    }
    (found, first)
}

/// A solution of `start` (deterministic: always the same one for the same start), or
/// `None` if it has none — including starts with a nibble 9..=15 or repeated givens.
///
/// The result, when there is one, satisfies `verify(start, &solution)`.
pub fn solve(start: &Board) -> Option<Board> {
    run(start, 1).1
}

/// The number of solutions of `start`, counting no further than `limit` (so the result is
/// `min(actual, limit)`; `limit == 0` returns 0 at once). Use `limit = 2` to test
/// uniqueness. Starts with a nibble 9..=15 or repeated givens have 0 solutions.
pub fn count_solutions(start: &Board, limit: usize) -> usize {
    run(start, limit).0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify::verify;

    #[test]
    fn empty_board_is_solvable_with_many_solutions() {
        let s = solve(&Board::EMPTY).unwrap();
        assert!(verify(&Board::EMPTY, &s));
        assert_eq!(count_solutions(&Board::EMPTY, 1000), 1000);
        assert_eq!(count_solutions(&Board::EMPTY, 0), 0);
    }

    #[test]
    fn a_full_valid_grid_has_exactly_one_solution() {
        let s = solve(&Board::EMPTY).unwrap();
        assert_eq!(count_solutions(&s, 10), 1);
        assert_eq!(solve(&s), Some(s));
        // Remove one square: still unique.
        assert_eq!(count_solutions(&s.with_cell(27, 0), 10), 1);
    }

    #[test]
    fn invalid_starts_have_no_solution() {
        // Two 5s in row 0.
        let b = Board::EMPTY.with_cell(0, 5).with_cell(7, 5);
        assert_eq!(count_solutions(&b, 10), 0);
        assert_eq!(solve(&b), None);
        // Two 5s in box 0 (squares 0 and 11).
        let b = Board::EMPTY.with_cell(0, 5).with_cell(11, 5);
        assert_eq!(count_solutions(&b, 10), 0);
        // A non-digit nibble.
        for v in 9..16 {
            assert_eq!(count_solutions(&Board::EMPTY.with_cell(40, v), 10), 0);
        }
    }

    #[test]
    fn a_square_that_sees_all_digits_is_dead() {
        // Square 0 sees 1..4 in row 0 (squares 4..7), 5, 6 in column 0, 7, 8 in box 0.
        let mut b = Board::EMPTY;
        for (k, d) in [
            (4, 1),
            (5, 2),
            (6, 3),
            (7, 4),
            (16, 5),
            (24, 6),
            (9, 7),
            (10, 8),
        ] {
            b = b.with_cell(k, d);
        }
        assert_eq!(b.givens(), 8);
        assert_eq!(solve(&b), None);
        assert_eq!(count_solutions(&b, 2), 0);
    }
}
