//! A fast Sudoku solver on band bitboards.
//!
//! # Representation
//!
//! The grid is cut into three horizontal *bands* of three rows (27 cells).
//! For every digit `d` (0..9) and band `b` (0..3) one `u32` holds a 27-bit
//! mask of the cells of that band where `d` may still go: bit
//! `9 * row_in_band + column`. These 27 words (`cand[9 * b + d]`,
//! band-major: a band's nine words are contiguous, so a placement clears
//! its cells from them in a vector operation or two) are the whole
//! candidate state; a copy of each word as last processed (`prev`), the
//! per-band mask of unsolved cells and a small cache for the column step and
//! the configuration choice complete it. The state is 320 bytes (five cache
//! lines) and is copied on every guess, so backtracking needs no undo log.
//! This digit-by-band layout is the one of JCZSolve (zhouyundong_2012,
//! champagne, JasonLion), whose key idea is that one 27-bit word lets all of
//! "digit `d` in band `b`" be reasoned about with a handful of bit
//! operations and table look-ups. The code here is an
//! independent implementation of that idea, with its own guess heuristic.
//!
//! # Propagation (`State::update`)
//!
//! Sweeps over the 27 words process every word that changed since it was
//! last processed, until a sweep finds none. For a word `m` of digit `d` in
//! band `b`:
//!
//! 1. **Inside the band.** In a band, `d` occupies one cell in each of the
//!    three rows and one in each of the three boxes, so the rows map to the
//!    boxes by a permutation. The 3x3 "mini-row" occupancy (row `r` meets box
//!    `k` in a candidate cell; computed with shifts, `minirow_key`) indexes
//!    a table (`MINIROW_MASK`) that keeps only the mini-rows used by some
//!    permutation allowed by the occupancy. This one look-up performs hidden
//!    singles in boxes, pointing and claiming (locked candidates) between
//!    rows and boxes, and detects a row or box with no place left for `d`
//!    (the table gives 0: contradiction).
//! 2. **Across bands.** If in some box the remaining cells of `m` lie in a
//!    single column, `d` is in that column in this band, so it is removed
//!    from that column in the two other bands (`LOCKED_COLS`). This also
//!    keeps a digit from being placed twice in a column.
//! 3. **Placements.** A row of `m` with exactly one candidate cell is a
//!    placement (`multi_rows` finds the others with a borrow-free
//!    subtraction): the cell is removed from the other eight digits' words of
//!    the band and marked solved. With step 1 this covers hidden singles in
//!    rows and boxes.
//!
//! Then naked singles are applied (`State::singles`): in each band,
//! ripple-carry accumulators over the nine digit words give the cells with at
//! least one, two and three candidates; an unsolved cell with none is a
//! contradiction, a cell with exactly one is placed (its digit word is cut
//! to the cell within its row and box), and propagation runs again. The
//! third count only finds the bivalue cells to branch on, so configuration
//! mode (below), which branches on a cell only once every band and stack is
//! fixed, skips it.
//!
//! **Column step** (`State::columns`, sparse puzzles only: in configuration
//! mode and for 18 givens before every guess and again after anything it or
//! the triads change, to a fixed point; else once before a guess while at
//! least `COLUMN_STEP_MIN_OPEN` cells are open). The transpose of step 1: in each
//! stack of three columns a digit takes one column in each band, one band
//! per column, so (column, band) pairs outside every such permutation are
//! removed. This adds hidden singles in columns and column-wise locked
//! candidates; it is too costly to run on every word update, but before a
//! guess it cuts the search on sparse grids.
//!
//! **Triads** (`State::triads`, configuration mode and puzzles of 18
//! givens, once per node after the column step). A mini-row (the three cells of a row in one box)
//! holds exactly three digits. A digit must go in mini-row `(r, k)` when
//! every band configuration it has left puts it there (equivalently: row `r`
//! has it only in box `k`, or box `k` only in row `r`), and may go there
//! when some configuration does. *Hidden*: when three digits must go in a
//! mini-row, no other digit can (and four is a contradiction). *Naked*:
//! when only three digits may go in it, each must (fewer is a
//! contradiction), which confines each to that mini-row within its row and
//! its box. Likewise for mini-columns with the stack configurations. All
//! are read from the configuration sets the search keeps anyway, and
//! bit-sliced counters count all 27 mini-rows and all 27 mini-columns over
//! the nine digits at once (both kinds in one 64-bit word). This is tdoku's
//! triad reasoning, read from configurations. The hidden half cuts the
//! configuration search's branches to about tdoku's; the naked half cuts
//! fewer, and pays only because it looks at the mini-rows that three digits
//! do not already fill (docs/benchmarks.md, "The engine's design figures").
//!
//! # Search
//!
//! When propagation stalls the solver guesses, depth-first, copying the
//! state (64-byte aligned) for each alternative but the last. What it
//! branches on depends on the puzzle:
//!
//! * **Band configurations** (tdoku's branching; puzzles with
//!   `CONFIG_MIN_CLUES..=RICH_MAX_CLUES` = 19..=32 givens). In a band a digit takes one box per row: its
//!   *configuration* is one of the six row→box permutations, read from the
//!   in-band step's mini-row occupancy (`CONFIGS`); in a stack it takes one
//!   column per band (`VCONFIGS`, from the column step, which in this mode
//!   runs before every guess, to a fixed point). Of the bands and stacks not
//!   yet fixed, tdoku takes the one with the fewest configurations over its
//!   nine digits, and in it the digit with the fewest (at least two). That
//!   is the choice here too once fewer than `WIDE_OPEN` = 50 cells are open;
//!   near the root (50 or more open) the band or stack with the fewest
//!   *unfixed* digits is taken instead (ties: the most configurations), and
//!   in it the digit with the most. Such a band is nearly decided: its few
//!   unfixed digits share the few mini-row places left, so the triads and
//!   the in-band step refute most of that digit's configurations at once,
//!   and the search takes its big steps where they cost the least. On the
//!   forum_hardest sets this cuts the alternatives tried by a third to a
//!   half, but it adds some on magictour, whose searches are short. So a
//!   solve uses it only if its first such choice finds a band of at most
//!   six unfixed digits and at least 27 configurations; the others take
//!   tdoku's choice throughout (see `WIDE_OPEN`). Each branch restricts the
//!   digit to one configuration (`CONFIG_MASK`), fixing three mini-rows or
//!   mini-columns at once. On the hardest benchmark sets tdoku's choice
//!   alone makes fewer branches than the cell branching below, at more
//!   time per branch. After `CONFIG_BRANCH_BUDGET` branches in one solve the
//!   search falls back to cells. Sparser grids never use it: without
//!   tdoku's triad step, configuration branching on near-empty grids fixes
//!   digits far ahead of any cell and searches huge trees, and on 17- and
//!   18-clue puzzles it measured more branches than cells.
//! * **Cells** (other puzzles, and when no band or stack is left open): a
//!   bivalue cell (two candidates; found with the same accumulators). For
//!   sparse puzzles (at most `RICH_MAX_CLUES` givens) it takes, among the
//!   first `GUESS_SCAN_LIMIT` bivalue cells, the one with the most unsolved
//!   peers (the degree heuristic of constraint solving), which makes far
//!   fewer guesses than taking the first bivalue cell; fuller puzzles
//!   take the first one (their searches are too short to repay the
//!   scoring). Without a bivalue cell (rare) it takes, of the first unsolved
//!   cell of each band, the one with the fewest candidates. The two digits of
//!   a bivalue cell are tried in order of their remaining candidates in the
//!   band, more first (first solutions come sooner); other cells'
//!   digits in ascending order.
//!
//! The first solution is returned, or solutions are counted up to a limit
//! (2 proves uniqueness). Heuristics change only the search order and
//! effort, never the answers.
//!
//! Measured against this and not kept (docs/benchmarks.md has the
//! figures): triads with cell branching (they cost more than they save
//! there), naked triads, starting
//! configuration branching only after some cell branches, scoring bivalue
//! cells by the bivalue peers that share a digit, scanning the most open
//! band first, other digit orders, a dirty-word mask or a branch-free
//! changed-word snapshot instead of the sweeps, failed-literal probing.
//! Choices that cut branches mostly pick branches whose propagation runs
//! longer, so the time per puzzle moves less than the branch count.
//!
//! References: tdoku's write-up on fast Sudoku solvers (singles
//! propagation, guessing, benchmark data) and the enjoysudoku forum thread
//! on JCZSolve (the band layout).

mod code;
mod state;
mod tables;
#[cfg(test)]
mod tests;

use crate::grid::Grid;
#[cfg(target_arch = "x86_64")]
use code::Avx2;
use code::{Baseline, Isa};
use state::{State, Step};
use tables::*;

/// The result of [`Solver::solve_with_stats`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolveResult {
    /// Number of solutions found, at most the limit.
    pub solutions: usize,
    /// The first solution found, if any.
    pub first: Option<Grid>,
    /// Number of guesses made: each tentative placement at a branch point
    /// counts one. Deterministic for a given puzzle and limit.
    pub guesses: u64,
    /// Number of branch points: cells guessed on, each counted once however
    /// many of its digits were tried (tdoku's `num_guesses` counts the same
    /// way: one per binary branch). Deterministic for a given puzzle and limit.
    pub branches: u64,
}

/// A reusable solver that also reports search statistics.
#[derive(Clone, Debug, Default)]
pub struct Solver {
    limit: usize,
    want_first: bool,
    rich: bool,
    /// Branch on band/stack configurations (see [`State::config_choice`]).
    configs: bool,
    solutions: usize,
    first: Option<Grid>,
    /// Also keep the second solution (set by [`two_solutions`]).
    want_second: bool,
    second: Option<Grid>,
    guesses: u64,
    branches: u64,
    /// A grid whose digit is tried first at every cell branch (see
    /// [`has_solution_avoiding`]).
    hint: Option<Grid>,
    /// Whether this solve uses the near-root rule.
    near: Near,
    /// Triads (and the configuration sets they read) with cell branching
    /// ([`TRIAD_CELL_CLUES`]).
    tri: bool,
}

/// Whether a solve uses the near-root rule ([`State::config_choice`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Near {
    #[default]
    Undecided,
    On,
    Off,
}

impl Solver {
    /// Creates a solver.
    pub fn new() -> Self {
        Solver::default()
    }

    /// Solves `puzzle`, stopping after `limit` solutions (a limit of 0 is
    /// treated as 1). Never panics; contradictory givens give 0 solutions.
    pub fn solve_with_stats(&mut self, puzzle: &Grid, limit: usize) -> SolveResult {
        self.run(puzzle, limit, true)
    }

    /// Runs the search; `want_first` says whether to extract the first
    /// solution (counting alone is a little faster without).
    fn run(&mut self, puzzle: &Grid, limit: usize, want_first: bool) -> SolveResult {
        #[cfg(target_arch = "x86_64")]
        if let Some(isa) = Avx2::detect() {
            return self.run_in(isa, puzzle, limit, want_first);
        }
        self.run_in(Baseline, puzzle, limit, want_first)
    }

    /// [`Solver::run`] in the code of `isa`.
    #[inline(always)]
    fn run_in<I: Isa>(
        &mut self,
        isa: I,
        puzzle: &Grid,
        limit: usize,
        want_first: bool,
    ) -> SolveResult {
        self.limit = limit.max(1);
        self.want_first = want_first;
        let clues = puzzle.clue_count();
        self.rich = clues <= RICH_MAX_CLUES;
        self.configs = self.rich && clues >= CONFIG_MIN_CLUES;
        self.tri = clues == TRIAD_CELL_CLUES;
        self.solutions = 0;
        self.first = None;
        self.guesses = 0;
        self.branches = 0;
        self.near = Near::Undecided;
        let mut state = isa.start(puzzle);
        isa.search(self, &mut state);
        SolveResult {
            solutions: self.solutions,
            first: self.first,
            guesses: self.guesses,
            branches: self.branches,
        }
    }

    /// Depth-first search from `state`, in the best code this CPU runs
    /// ([`Isa`]).
    fn search(&mut self, state: &mut State) {
        #[cfg(target_arch = "x86_64")]
        if let Some(isa) = Avx2::detect() {
            return isa.search(self, state);
        }
        Baseline.search(self, state)
    }

    /// The body of [`Solver::search`] for one code path: recursion and the
    /// off-path steps go through `isa`, so the whole search is compiled
    /// for its target features.
    #[inline(always)]
    fn search_body<I: Isa>(&mut self, isa: I, state: &mut State) {
        let mut cols_done = false;
        let mut triads_done = false;
        let mut choice;
        loop {
            let configs = self.configs && self.branches < CONFIG_BRANCH_BUDGET;
            // Configuration sets kept, column step to a fixed point and
            // triads: configuration mode, and cell branching with triads.
            let prop = configs || self.tri;
            let consistent = if prop {
                state.update::<true>()
            } else {
                state.update::<false>()
            };
            if !consistent {
                return;
            }
            let step = if configs {
                state.singles::<false>(false)
            } else {
                isa.cell_singles(state, self.rich)
            };
            match step {
                Step::Progress => {}
                Step::Dead => return,
                Step::Solved => {
                    if self.solutions == 0 && self.want_first {
                        self.first = Some(state.extract());
                    } else if self.solutions == 1 && self.want_second {
                        self.second = Some(state.extract());
                    }
                    self.solutions += 1;
                    return;
                }
                // Before guessing, try the column step (cheap next to a guess).
                Step::Guess(..) | Step::Stall
                    if (!cols_done || prop)
                        && self.rich
                        && (prop || state.open_cells() >= COLUMN_STEP_MIN_OPEN)
                        && match isa.columns(state) {
                            None => return,
                            Some(changed) => {
                                cols_done = true;
                                changed
                            }
                        } => {}
                Step::Guess(..) | Step::Stall
                    if prop
                        && !triads_done
                        && match isa.triads(state) {
                            None => return,
                            Some(changed) => {
                                triads_done = true;
                                changed
                            }
                        } => {}
                Step::Guess(..) | Step::Stall
                    if configs && {
                        choice = isa.config_choice(state, &mut self.near);
                        choice.is_some()
                    } =>
                {
                    let Some((d, band, set)) = choice else {
                        return;
                    };
                    if !self.branch_config(isa, state, d, band, set) {
                        return;
                    }
                    cols_done = false;
                    triads_done = false;
                }
                step => {
                    let (b, p) = match step {
                        Step::Guess(b, p) => (b, p),
                        // Configuration mode with every band and stack fixed.
                        _ => state.cell_guess(self.rich && !configs),
                    };
                    if !self.branch_cell(isa, state, b, p) {
                        return;
                    }
                    triads_done = false;
                }
            }
        }
    }

    /// Branches on the configurations `set` of digit `d` in band or stack
    /// `band`: every alternative but the last searched from a copy, the
    /// last applied to `state` in place. False when the search is over
    /// (the limit reached).
    #[inline(always)]
    fn branch_config<I: Isa>(
        &mut self,
        isa: I,
        state: &mut State,
        d: usize,
        band: usize,
        mut set: u8,
    ) -> bool {
        self.branches += 1;
        loop {
            let p = set.trailing_zeros() as usize;
            set &= set - 1;
            self.guesses += 1;
            if set == 0 {
                // Last alternative: continue in place.
                state.apply_config(d, band, p);
                return true;
            }
            let mut next = *state;
            next.apply_config(d, band, p);
            isa.search(self, &mut next);
            if self.solutions >= self.limit {
                return false;
            }
        }
    }

    /// Branches on the digits of band `b`'s position `p`: every digit but
    /// the last searched from a copy, the last placed in `state`. False
    /// when the search is over (no digit, or the limit reached).
    #[inline(always)]
    fn branch_cell<I: Isa>(&mut self, isa: I, state: &mut State, b: usize, p: usize) -> bool {
        // The cell's candidate digits, collected without
        // data-dependent branches.
        let mut digits = [0usize; 10];
        let mut n = 0;
        for d in 0..9 {
            digits[n] = d;
            n += ((state.cand[wi(d, b)] >> p) & 1) as usize;
        }
        if n == 0 {
            return false;
        }
        self.branches += 1;
        // For a bivalue cell, try first the digit with more candidates
        // left in this band: first solutions come sooner (the order cannot
        // change counts).
        if n == 2
            && state.cand[wi(digits[1], b)].count_ones() > state.cand[wi(digits[0], b)].count_ones()
        {
            digits.swap(0, 1);
        }
        if let Some(hint) = &self.hint {
            // Try the hinted digit first (see `has_solution_avoiding`).
            let h = usize::from(hint.cells()[27 * b + p]).wrapping_sub(1);
            if let Some(k) = digits[..n].iter().position(|&d| d == h) {
                digits.swap(0, k);
            }
        }
        for &d in &digits[..n - 1] {
            let mut next = *state;
            let w = wi(d, b);
            next.cand[w] &= PLACE_MASK[p];
            self.guesses += 1;
            isa.search(self, &mut next);
            if self.solutions >= self.limit {
                return false;
            }
        }
        // Last alternative: continue in place.
        let w = wi(digits[n - 1], b);
        state.cand[w] &= PLACE_MASK[p];
        self.guesses += 1;
        true
    }
}

/// True iff `puzzle` has a solution in which none of the `(cell, digit)`
/// pairs of `forbidden` holds (cells 0..81, digits 1..=9; other pairs are
/// ignored). The generator uses this to test uniqueness against a known
/// solution with a single first-solution search.
///
/// With a `hint` (the known solution), every cell branch tries the hint's
/// digit first. A solution that avoids the forbidden pairs but differs
/// from the hint on few cells (an unavoidable set through the removed
/// clue) is then found after few wrong turns; when there is none the whole
/// tree is searched either way, so the answer and that cost do not change.
pub(crate) fn has_solution_avoiding(
    puzzle: &Grid,
    forbidden: &[(usize, u8)],
    hint: Option<&Grid>,
) -> bool {
    let mut state = State::from_grid(puzzle);
    for &(cell, digit) in forbidden {
        if cell < 81 && (1..=9).contains(&digit) {
            state.cand[wi(digit as usize - 1, cell / 27)] &= !(1u32 << (cell % 27));
        }
    }
    let mut solver = Solver {
        limit: 1,
        // With a hint the plain cell choice is faster: the hinted digit
        // finds a second solution without the degree scores' help.
        rich: hint.is_none() && puzzle.clue_count() <= RICH_MAX_CLUES,
        hint: hint.copied(),
        ..Solver::default()
    };
    solver.search(&mut state);
    solver.solutions > 0
}

/// The first two solutions found: `(None, None)` when there is none,
/// `(Some(s), None)` when the solution is unique, both when there are
/// several (the grid checker uses the second to learn a new unavoidable set).
pub fn two_solutions(puzzle: &Grid) -> (Option<Grid>, Option<Grid>) {
    let mut solver = Solver {
        want_second: true,
        ..Solver::default()
    };
    solver.run(puzzle, 2, true);
    (solver.first, solver.second)
}

/// Returns the first solution found, or `None` if the puzzle has none
/// (including puzzles whose givens contradict each other).
pub fn solve(puzzle: &Grid) -> Option<Grid> {
    Solver::new().solve_with_stats(puzzle, 1).first
}

/// Counts the solutions of `puzzle`, stopping at `limit` (so
/// `count_solutions(p, 2) == 1` means `p` has a unique solution). A limit of
/// 0 returns 0 without solving.
pub fn count_solutions(puzzle: &Grid, limit: usize) -> usize {
    if limit == 0 {
        return 0;
    }
    Solver::new().run(puzzle, limit, false).solutions
}
