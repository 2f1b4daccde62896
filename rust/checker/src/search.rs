//! Every puzzle with exactly N givens whose unique solution is a given grid.
//!
//! # The problem
//!
//! A set P of cells of a solved grid G is a puzzle for G (G is its unique
//! solution) iff P hits every unavoidable set of G (see [`crate::ua`]). So
//! the N-clue puzzles of G are the N-cell hitting sets of G's UA sets that
//! also pass a uniqueness check (the known UA list is never complete).
//!
//! # The search (McGuire's hitting-set search with dead clues, plus
//! GridChecker's solver that knows the grid)
//!
//! A node is (P = givens chosen, D = dead cells, k = givens still to place,
//! the list of known UA sets not hit by P, sorted by size).
//!
//! 1. **Bound.** Greedily collect pairwise disjoint unhit UA sets
//!    (restricted to live cells: not dead), smallest first. Each needs its
//!    own given, so more of them than k prunes the node. A UA set whose live
//!    part is empty cannot be hit any more: prune.
//! 2. **Branch.** Take the unhit UA set U with the fewest live cells
//!    c1..cm. Every solution contains one of them; branch i adds ci and marks
//!    c1..c(i-1) dead ("dead clues": the solutions containing an earlier
//!    cell were enumerated in an earlier sibling). The branches thus
//!    partition the solutions: each puzzle is found exactly once. With
//!    k = 1 the branch set is the intersection of all unhit live sets.
//! 3. **Leaf.** When every known UA set is hit, solve P counting up to two
//!    solutions (rust/sudoku's bitboard solver). A second solution S ≠ G
//!    differs from G on a set of cells that is unavoidable and not hit by P:
//!    it is *learned* (kept for the rest of this subtree's search, where it
//!    prunes) and the search goes on from step 1. If P is unique, every way
//!    to add the k remaining givens among the live cells is a puzzle.
//!
//! A learned set is unhit by the givens of every ancestor of the leaf, so
//! it is appended to each ancestor's list on the way back up: the remaining
//! siblings at every level are pruned by it (one costly solve teaches the
//! rest of the subtree).
//!
//! # Parallelism and determinism
//!
//! The tree is expanded sequentially to depth [`SPLIT_DEPTH`]; the subtrees
//! are independent tasks (each with its own learned list) run with rayon on
//! `threads` threads. The decomposition does not depend on the thread count,
//! so puzzles and node counts are the same on 1 or many threads; puzzles are
//! reported sorted. Only a `max_found` stop depends on timing.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use algoku_sudoku::{two_solutions, Grid};
use rayon::prelude::*;

use crate::{cells_of, Cells, ALL};

/// Depth to which the tree is expanded before the subtrees run in parallel.
pub const SPLIT_DEPTH: usize = 2;
/// Learned UA sets kept per task at most.
const MAX_LEARNED: usize = 1 << 20;

/// What to search.
#[derive(Clone, Debug)]
pub struct SearchOptions {
    /// Exact number of givens.
    pub clues: usize,
    /// Cells every puzzle must contain (must be cells of the grid).
    pub given: u128,
    /// Worker threads (1 = the calling thread's pool of one).
    pub threads: usize,
    /// Stop after this many puzzles.
    pub max_found: u64,
}

/// The outcome of a search.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchResult {
    /// The puzzles as cell masks, sorted.
    pub puzzles: Vec<u128>,
    /// Search nodes visited.
    pub nodes: u64,
    /// UA sets learned from non-unique candidates.
    pub learned: u64,
    /// Solver calls.
    pub solves: u64,
    /// Whether the search stopped at `max_found` (then it is incomplete).
    pub stopped: bool,
}

/// One subtree to search.
#[derive(Clone, Debug)]
struct Task {
    chosen: u128,
    dead: u128,
    left: usize,
    active: Vec<u128>,
}

/// Per-task state.
struct Ctx<'a> {
    grid: &'a Cells,
    learned: Vec<u128>,
    pool: Vec<Vec<u128>>,
    found: Vec<u128>,
    nodes: u64,
    solves: u64,
    learned_count: u64,
    max_found: u64,
    total_found: &'a AtomicU64,
    stop: &'a AtomicBool,
}

/// Searches every puzzle of `opts.clues` givens of `grid` containing
/// `opts.given`, with `uas` as the initial UA list (any unavoidable sets;
/// completeness does not depend on it). `tick(done, total)` is called as
/// subtrees finish.
pub fn search(
    grid: &Cells,
    uas: &[u128],
    opts: &SearchOptions,
    tick: &(dyn Fn(u64, u64) + Sync),
) -> SearchResult {
    let given = opts.given & ALL;
    let placed = given.count_ones() as usize;
    let mut result = SearchResult::default();
    if placed > opts.clues {
        return result;
    }
    let mut active: Vec<u128> = uas.iter().copied().filter(|&u| u & given == 0).collect();
    active.sort_by_key(|&m| (m.count_ones(), m));
    let root = Task {
        chosen: given,
        dead: 0,
        left: opts.clues - placed,
        active,
    };
    let total_found = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    // Expand to SPLIT_DEPTH; leaves met on the way are searched here.
    let mut ctx = Ctx::new(grid, opts.max_found, &total_found, &stop);
    let mut tasks = vec![root];
    for _ in 0..SPLIT_DEPTH {
        let mut next = Vec::new();
        for t in tasks {
            ctx.expand(t, &mut next);
        }
        tasks = next;
    }
    let total = tasks.len() as u64;
    let done = AtomicU64::new(0);
    let run = |t: Task| {
        let mut c = Ctx::new(grid, opts.max_found, &total_found, &stop);
        let mut active = t.active;
        c.node(t.chosen, t.dead, t.left, &mut active);
        tick(done.fetch_add(1, Ordering::Relaxed) + 1, total);
        (c.found, c.nodes, c.solves, c.learned_count)
    };
    let parts: Vec<(Vec<u128>, u64, u64, u64)> = if opts.threads <= 1 {
        tasks.into_iter().map(run).collect()
    } else {
        match rayon::ThreadPoolBuilder::new()
            .num_threads(opts.threads)
            .build()
        {
            Ok(pool) => pool.install(|| tasks.into_par_iter().map(run).collect()),
            Err(_) => tasks.into_iter().map(run).collect(),
        }
    };
    result.puzzles = ctx.found;
    result.nodes = ctx.nodes;
    result.solves = ctx.solves;
    result.learned = ctx.learned_count;
    for (f, n, s, l) in parts {
        result.puzzles.extend(f);
        result.nodes += n;
        result.solves += s;
        result.learned += l;
    }
    result.puzzles.sort_unstable();
    result.stopped = stop.load(Ordering::Relaxed);
    if result.stopped {
        result.puzzles.truncate(opts.max_found as usize);
    }
    result
}

impl<'a> Ctx<'a> {
    fn new(
        grid: &'a Cells,
        max_found: u64,
        total_found: &'a AtomicU64,
        stop: &'a AtomicBool,
    ) -> Self {
        Ctx {
            grid,
            learned: Vec::new(),
            pool: Vec::new(),
            found: Vec::new(),
            nodes: 0,
            solves: 0,
            learned_count: 0,
            max_found,
            total_found,
            stop,
        }
    }

    /// One level of the search as tasks: the children of `t` go to `out`
    /// (leaves are handled here).
    fn expand(&mut self, t: Task, out: &mut Vec<Task>) {
        let mut active = t.active;
        self.nodes += 1;
        if let Some((branch, left)) = self.prepare(t.chosen, t.dead, t.left, &mut active) {
            let mut dead = t.dead;
            for c in cells_of(branch) {
                let bit = 1u128 << c;
                out.push(Task {
                    chosen: t.chosen | bit,
                    dead,
                    left: left - 1,
                    active: active.iter().copied().filter(|&u| u & bit == 0).collect(),
                });
                dead |= bit;
            }
        }
    }

    /// Steps 1 and 3 of the search at a node: returns the branch set and
    /// the givens left, or `None` when the node is finished (pruned or a
    /// leaf fully handled). May append learned sets to `active`.
    fn prepare(
        &mut self,
        chosen: u128,
        dead: u128,
        left: usize,
        active: &mut Vec<u128>,
    ) -> Option<(u128, usize)> {
        if self.stop.load(Ordering::Relaxed) {
            return None;
        }
        if active.is_empty() {
            match self.check(chosen) {
                None => {
                    self.emit_all(chosen, ALL & !chosen & !dead, left);
                    return None;
                }
                Some(ua) => active.push(ua),
            }
        }
        if left == 0 {
            return None;
        }
        let live = !dead;
        if left == 1 {
            let mut inter = ALL & live;
            for &u in active.iter() {
                inter &= u;
                if inter == 0 {
                    return None;
                }
            }
            return Some((inter, left));
        }
        let mut acc = 0u128;
        let mut disjoint = 0usize;
        let mut best = 0u128;
        let mut best_n = u32::MAX;
        for &u in active.iter() {
            let l = u & live;
            let n = l.count_ones();
            if n < best_n {
                if n == 0 {
                    return None;
                }
                best_n = n;
                best = l;
            }
            if l & acc == 0 {
                acc |= l;
                disjoint += 1;
                if disjoint > left {
                    return None;
                }
            }
        }
        Some((best, left))
    }

    /// The search below one node (steps 1–3).
    fn node(&mut self, chosen: u128, dead: u128, left: usize, active: &mut Vec<u128>) {
        self.nodes += 1;
        let Some((branch, left)) = self.prepare(chosen, dead, left, active) else {
            return;
        };
        let mut dead = dead;
        // Child lists come from a pool: no allocation per node.
        let mut child: Vec<u128> = self.pool.pop().unwrap_or_default();
        for c in cells_of(branch) {
            let bit = 1u128 << c;
            child.clear();
            child.extend(active.iter().copied().filter(|&u| u & bit == 0));
            let before = self.learned.len();
            self.node(chosen | bit, dead, left - 1, &mut child);
            dead |= bit;
            if self.stop.load(Ordering::Relaxed) {
                break;
            }
            // Sets learned below are unhit by `chosen` too (they were unhit
            // by a superset of it): they prune the remaining siblings.
            if self.learned.len() > before {
                active.extend_from_slice(&self.learned[before..]);
            }
        }
        self.pool.push(child);
    }

    /// `None` if the givens `chosen` have the grid as unique solution, else
    /// the cells where a second solution differs (a new UA set, learned).
    fn check(&mut self, chosen: u128) -> Option<u128> {
        let mut cells = [0u8; 81];
        for c in cells_of(chosen) {
            cells[c] = self.grid[c];
        }
        let puzzle = Grid::from_cells(cells).expect("digits 1..=9");
        self.solves += 1;
        let (first, second) = two_solutions(&puzzle);
        let other = match (first, second) {
            (Some(a), _) if a.cells() != self.grid => a,
            (_, Some(b)) => b,
            _ => return None,
        };
        let mut diff = 0u128;
        for (i, (&a, &b)) in other.cells().iter().zip(self.grid.iter()).enumerate() {
            if a != b {
                diff |= 1u128 << i;
            }
        }
        if self.learned.len() < MAX_LEARNED {
            self.learned.push(diff);
            self.learned_count += 1;
        }
        Some(diff)
    }

    /// Records every puzzle `chosen` + `left` cells of `free`.
    fn emit_all(&mut self, chosen: u128, free: u128, left: usize) {
        if self.stop.load(Ordering::Relaxed) {
            return;
        }
        if left == 0 {
            self.found.push(chosen);
            if self.total_found.fetch_add(1, Ordering::Relaxed) + 1 >= self.max_found {
                self.stop.store(true, Ordering::Relaxed);
            }
            return;
        }
        if (free.count_ones() as usize) < left {
            return;
        }
        let mut rest = free;
        while rest != 0 {
            let c = rest.trailing_zeros();
            let bit = 1u128 << c;
            rest &= !bit;
            self.emit_all(chosen | bit, rest, left - 1);
            if self.stop.load(Ordering::Relaxed) {
                return;
            }
        }
    }
}
