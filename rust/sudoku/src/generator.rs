//! Random complete grids and random puzzles with a unique solution.
//!
//! # Complete grids: [`solution_grid`]
//!
//! A randomized depth-first fill of the empty grid, self-contained in this
//! file (it does not use the fast solver, so tuning the solver can never
//! change its output). State: one 9-bit "digits used" mask per row, column and
//! box. At each step the blank cell with the fewest candidates is chosen
//! (ties: lowest cell index), its candidate digits are listed in ascending
//! order and shuffled with [`SplitMix64::shuffle`], and each is tried in that
//! order, backtracking on a dead end. The generator is seeded with
//! `SplitMix64::new(seed)`. On the empty grid this almost never backtracks, so
//! it is fast, and grids are spread widely (not exactly uniformly) over all
//! ~6.67e21 solution grids.
//!
//! **Stability:** `solution_grid(seed)` is pinned byte-for-byte by tests and
//! other crates' fixtures depend on it. Do not change this algorithm.
//!
//! # Puzzles: [`generate_puzzle`]
//!
//! Start from `solution_grid(seed)` and visit the cells once, in an order
//! shuffled by a second generator (`SplitMix64::new(seed ^ REMOVAL_STREAM)`).
//! Each visited clue is removed if the puzzle keeps a unique solution; with
//! `symmetric`, cells are visited as 180° rotation pairs `{i, 80 - i}` (the
//! centre, cell 40, alone) and a pair is removed together or not at all.
//!
//! Uniqueness is tested against the known solution `S`: after removing `X`
//! (and `Y`), any other solution must differ from `S` at a removed cell
//! (otherwise it would also solve the previous, unique puzzle), so one
//! search for a solution with `X != S[X]`, and for a pair one more with
//! `X = S[X], Y != S[Y]`, decides it. These first-solution searches are
//! faster than counting solutions up to 2.
//!
//! **Minimality.** A puzzle is *minimal* when removing any single clue gives
//! more than one solution ([`is_minimal`]). With `symmetric`, minimality is
//! with respect to symmetric pairs: no pair (or the centre) can be removed,
//! though a single cell of a pair might be. One full pass suffices: if
//! removing `X` failed, it also fails for every later, smaller puzzle (fewer
//! clues never mean fewer solutions).
//!
//! **Options.** `minimal: true` visits every cell, so the result is minimal
//! unless `target_clues` stopped it first. `minimal: false` stops at the first
//! removal that would break uniqueness (quick, more clues, usually not
//! minimal), unless `target_clues` is set, in which case the pass continues
//! past failures towards the target. `target_clues: Some(t)` never removes
//! below `t` clues and stops when `t` is reached; it is best effort: when
//! uniqueness blocks further removal the puzzle keeps more than `t` clues,
//! and with `symmetric` (pairs remove two clues at a time) it can end one
//! above `t`.
//!
//! **Grade.** [`Grade::Singles`] if naked and hidden singles alone (a plain
//! propagator in this file) solve the puzzle; otherwise
//! [`Grade::Guesses`]`(n)` with `n` the guesses the solver makes to find the
//! solution ([`crate::solver::Solver::solve_with_stats`], limit 1). `n` can be
//! 0: singles stall but the solver's locked-candidate propagation finishes.
//! `n` follows the solver's heuristics and may change when the solver is
//! tuned; the puzzle and solution bytes never depend on the solver (its
//! only input to them is the yes/no uniqueness answer).

use crate::grid::{Grid, UNIT_CELLS};
use crate::rng::SplitMix64;
use crate::solver::{count_solutions, has_solution_avoiding, Solver};

/// Returns a random complete valid grid, deterministic per `seed` and stable
/// forever (see the module documentation for the algorithm).
pub fn solution_grid(seed: u64) -> Grid {
    let mut rng = SplitMix64::new(seed);
    let mut fill = Filler {
        cells: [0; 81],
        rows: [0; 9],
        cols: [0; 9],
        boxes: [0; 9],
    };
    if fill.run(&mut rng) {
        if let Ok(g) = Grid::from_cells(fill.cells) {
            return g;
        }
    }
    // Unreachable: the empty grid is solvable and the search is exhaustive.
    // Fall back to a fixed valid grid rather than panic.
    let mut cells = [0u8; 81];
    for (i, c) in cells.iter_mut().enumerate() {
        let (r, col) = (i / 9, i % 9);
        *c = ((r * 3 + r / 3 + col) % 9 + 1) as u8;
    }
    Grid::from_cells(cells).unwrap_or_default()
}

/// Search state of [`solution_grid`]: bit `d` of a mask set = digit `d` used.
struct Filler {
    cells: [u8; 81],
    rows: [u16; 9],
    cols: [u16; 9],
    boxes: [u16; 9],
}

impl Filler {
    fn run(&mut self, rng: &mut SplitMix64) -> bool {
        // Most constrained blank cell, lowest index on ties.
        let mut best: Option<(usize, u16)> = None;
        let mut best_count = u32::MAX;
        for i in 0..81 {
            if self.cells[i] != 0 {
                continue;
            }
            let (r, c, b) = crate::grid::unit_of(i);
            let free = !(self.rows[r] | self.cols[c] | self.boxes[b]) & 0x3FE;
            let n = free.count_ones();
            if n < best_count {
                best_count = n;
                best = Some((i, free));
                if n == 0 {
                    return false;
                }
                if n == 1 {
                    // Stopping early here cannot change the result: a later
                    // cell with 0 candidates stays at 0 and fails one level
                    // down, and one-candidate levels draw no random numbers.
                    break;
                }
            }
        }
        let Some((i, free)) = best else {
            return true; // no blank cell left
        };
        let mut digits = [0u8; 9];
        let mut k = 0;
        for d in 1..=9u8 {
            if free & (1 << d) != 0 {
                digits[k] = d;
                k += 1;
            }
        }
        rng.shuffle(&mut digits[..k]);
        let (r, c, b) = crate::grid::unit_of(i);
        for &d in &digits[..k] {
            let bit = 1u16 << d;
            self.cells[i] = d;
            self.rows[r] |= bit;
            self.cols[c] |= bit;
            self.boxes[b] |= bit;
            if self.run(rng) {
                return true;
            }
            self.cells[i] = 0;
            self.rows[r] &= !bit;
            self.cols[c] &= !bit;
            self.boxes[b] &= !bit;
        }
        false
    }
}

/// Xor-ed into the seed for the generator that orders clue removal, so that
/// it is a different stream from the one `solution_grid` uses.
const REMOVAL_STREAM: u64 = 0x05EE_D0FC_10E5;

/// Options for [`generate_puzzle`]. See the module documentation for the
/// exact meaning of each option.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PuzzleOptions {
    /// Seed for both the solution grid and the removal order.
    pub seed: u64,
    /// Keep the givens symmetric under 180° rotation (remove cells in pairs).
    pub symmetric: bool,
    /// Visit every cell, so that no clue (pair) can be removed at the end.
    pub minimal: bool,
    /// Stop removing at this many clues (best effort, never below it).
    pub target_clues: Option<usize>,
}

impl Default for PuzzleOptions {
    /// Seed 0, not symmetric, minimal, no target.
    fn default() -> Self {
        PuzzleOptions {
            seed: 0,
            symmetric: false,
            minimal: true,
            target_clues: None,
        }
    }
}

/// How hard a puzzle is for this crate's solver.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Grade {
    /// Naked and hidden singles alone solve it.
    Singles,
    /// Singles alone stall; the solver needs this many guesses (deterministic).
    Guesses(u32),
}

/// A generated puzzle with its unique solution.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Puzzle {
    /// The givens (blanks are 0).
    pub puzzle: Grid,
    /// The unique solution.
    pub solution: Grid,
    /// Number of givens in `puzzle`.
    pub clues: usize,
    /// Difficulty grade.
    pub grade: Grade,
}

/// Generates a puzzle with a unique solution; deterministic per options
/// (the same options always give a byte-identical puzzle).
pub fn generate_puzzle(options: &PuzzleOptions) -> Puzzle {
    let solution = solution_grid(options.seed);
    let mut rng = SplitMix64::new(options.seed ^ REMOVAL_STREAM);
    let mut order: Vec<usize> = if options.symmetric {
        (0..=40).collect()
    } else {
        (0..81).collect()
    };
    rng.shuffle(&mut order);
    let target = options.target_clues.unwrap_or(0);
    let mut puzzle = solution;
    let mut clues = 81usize;
    let s = solution.cells();
    for &x in &order {
        if clues <= target {
            break;
        }
        let y = 80 - x;
        let pair = options.symmetric && y != x;
        let k = if pair { 2 } else { 1 };
        if clues < target + k {
            continue; // would go below the target
        }
        let mut trial = puzzle;
        // Cells are < 81 and values 0, so these cannot fail.
        let _ = trial.set(x, 0);
        let unique = if pair {
            let _ = trial.set(y, 0);
            let mut only_y = puzzle;
            let _ = only_y.set(y, 0);
            !has_solution_avoiding(&trial, &[(x, s[x])])
                && !has_solution_avoiding(&only_y, &[(y, s[y])])
        } else {
            !has_solution_avoiding(&trial, &[(x, s[x])])
        };
        if unique {
            puzzle = trial;
            clues -= k;
        } else if !options.minimal && options.target_clues.is_none() {
            break;
        }
    }
    Puzzle {
        puzzle,
        solution,
        clues,
        grade: grade(&puzzle),
    }
}

/// True iff `puzzle` has exactly one solution and removing any single given
/// makes the solution non-unique.
pub fn is_minimal(puzzle: &Grid) -> bool {
    let Some(solution) = crate::solver::solve(puzzle) else {
        return false;
    };
    if count_solutions(puzzle, 2) != 1 {
        return false;
    }
    let s = solution.cells();
    (0..81).filter(|&i| puzzle.cells()[i] != 0).all(|i| {
        let mut p = *puzzle;
        let _ = p.set(i, 0);
        has_solution_avoiding(&p, &[(i, s[i])])
    })
}

/// Grades a puzzle (see [`Grade`]). Meant for uniquely solvable puzzles; for
/// others it reports the work to find the first solution (or to fail).
pub fn grade(puzzle: &Grid) -> Grade {
    if solves_with_singles(puzzle) {
        return Grade::Singles;
    }
    let r = Solver::new().solve_with_stats(puzzle, 1);
    Grade::Guesses(u32::try_from(r.guesses).unwrap_or(u32::MAX))
}

/// The 20 peers (same row, column or box) of every cell.
const PEERS: [[u8; 20]; 81] = {
    let mut t = [[0u8; 20]; 81];
    let mut i = 0;
    while i < 81 {
        let (r, c) = (i / 9, i % 9);
        let mut n = 0;
        let mut j = 0;
        while j < 81 {
            let (rj, cj) = (j / 9, j % 9);
            let same_box = r / 3 == rj / 3 && c / 3 == cj / 3;
            if j != i && (rj == r || cj == c || same_box) {
                t[i][n] = j as u8;
                n += 1;
            }
            j += 1;
        }
        i += 1;
    }
    t
};

/// True iff naked singles (a cell with one candidate left) and hidden
/// singles (a digit with one place left in a row, column or box), applied
/// until neither finds anything, fill the whole grid without contradiction.
///
/// A plain candidate-mask propagator (one `u16` per cell), independent of
/// the fast solver, so that [`Grade::Singles`] means exactly this.
pub fn solves_with_singles(puzzle: &Grid) -> bool {
    if puzzle.check().is_err() {
        return false;
    }
    let mut cells = *puzzle.cells();
    // Candidate digits of each blank cell: bit d for digit d.
    let mut cand = [0u16; 81];
    for (i, c) in cand.iter_mut().enumerate() {
        if cells[i] == 0 {
            *c = 0x3FE;
        }
    }
    for i in 0..81 {
        if cells[i] != 0 {
            let bit = 1u16 << cells[i];
            for &j in &PEERS[i] {
                cand[j as usize] &= !bit;
            }
        }
    }
    let mut open = cells.iter().filter(|&&c| c == 0).count();
    // Places `d` at `i`; false if `i` cannot take it.
    let place = |cells: &mut [u8; 81], cand: &mut [u16; 81], i: usize, d: u8| -> bool {
        if cells[i] != 0 || cand[i] & (1 << d) == 0 {
            return false;
        }
        cells[i] = d;
        cand[i] = 0;
        for &j in &PEERS[i] {
            cand[j as usize] &= !(1u16 << d);
        }
        true
    };
    while open > 0 {
        let mut progress = false;
        // Naked singles.
        for i in 0..81 {
            if cells[i] != 0 {
                continue;
            }
            let m = cand[i];
            if m == 0 {
                return false;
            }
            if m & (m - 1) == 0 {
                if !place(&mut cells, &mut cand, i, m.trailing_zeros() as u8) {
                    return false;
                }
                open -= 1;
                progress = true;
            }
        }
        // Hidden singles: digits with exactly one candidate cell in a unit.
        for unit in &UNIT_CELLS {
            let (mut one, mut two, mut placed) = (0u16, 0u16, 0u16);
            for &c in unit {
                let c = c as usize;
                two |= one & cand[c];
                one |= cand[c];
                placed |= (1u16 << cells[c]) & 0x3FE;
            }
            if (one | placed) != 0x3FE {
                return false; // some digit has no place left in this unit
            }
            let mut hidden = one & !two & !placed;
            while hidden != 0 {
                let d = hidden.trailing_zeros() as u8;
                hidden &= hidden - 1;
                let Some(&c) = unit.iter().find(|&&c| cand[c as usize] & (1 << d) != 0) else {
                    return false;
                };
                if !place(&mut cells, &mut cand, c as usize, d) {
                    return false;
                }
                open -= 1;
                progress = true;
            }
        }
        if !progress {
            return false;
        }
    }
    Grid::from_cells(cells).is_ok_and(|g| g.check_solution().is_ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pinned forever: other crates' fixtures depend on these bytes.
    #[test]
    fn solution_grid_is_pinned() {
        let pinned = [
            (
                0,
                "317246985564389217928571463671893524259164378483752691136427859795638142842915736",
            ),
            (
                1,
                "189367524274895136365412897846521973793684215521739468618953742432178659957246381",
            ),
            (
                2,
                "126358497583749621947621538639815742251437869874962315398274156412586973765193284",
            ),
            (
                3,
                "416873592935162874827954613689415327374289156152736489241698735763521948598347261",
            ),
            (
                u64::MAX,
                "728953164539164287641872395813647529975238416264519738386725941152496873497381652",
            ),
        ];
        for (seed, want) in pinned {
            assert_eq!(solution_grid(seed).to_string(), want, "seed {seed}");
        }
    }

    #[test]
    fn solution_grids_are_valid_and_deterministic() {
        for seed in 0..200 {
            let g = solution_grid(seed);
            assert_eq!(g.check_solution(), Ok(()), "seed {seed}");
            assert_eq!(g, solution_grid(seed));
        }
        assert_ne!(solution_grid(0), solution_grid(1));
    }
}
