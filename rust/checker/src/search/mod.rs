//! Every puzzle with exactly N givens whose unique solution is a given grid.
//!
//! # The problem
//!
//! A set P of cells of a solved grid G is a puzzle for G (G is its unique
//! solution) iff P hits every unavoidable set of G (see [`crate::ua`]). So
//! the N-clue puzzles of G are the N-cell hitting sets of G's UA sets that
//! also pass a uniqueness check (the known UA list is never complete).
//!
//! # The search (McGuire's hitting-set search with dead clues and higher
//! degree sets, in GridChecker's bitmap mode)
//!
//! A node is (P = givens chosen, D = dead cells, k = givens still to place,
//! the set of known UA sets not hit by P).
//!
//! 1. **Branch.** Take an unhit UA set U (the smallest; with 2–5 givens
//!    left, the one with the fewest live cells among the first 16); its live cells
//!    (not dead) are c1..cm. Every solution contains one of them; branch i
//!    adds ci and marks c1..c(i-1) dead ("dead clues": the solutions
//!    containing an earlier cell were enumerated in an earlier sibling). The
//!    branches partition the solutions: each puzzle is found exactly once.
//!    A UA set whose live part is empty cannot be hit any more: prune.
//! 2. **Bound.** Pairwise disjoint unhit UA sets each need their own
//!    given, so more of them than k prunes the node (upper levels: a greedy
//!    pass over every unhit set; lower levels: composites, below, and with
//!    2–5 givens left a greedy pass over the live parts of the first 16).
//! 3. **Leaf.** When every known UA set is hit, check that P has G as its
//!    unique solution ([`crate::unique`], the project's bitboard solver
//!    asked for two solutions). A second
//!    solution S ≠ G differs from G on a set of cells that is unavoidable
//!    and not hit by P: it is *learned* and the search goes on from step 1.
//!    If P is unique, every way to add the k remaining givens among the live
//!    cells is a puzzle.
//!
//! # Bitmap mode
//!
//! The UA sets live in a `Table`: the sets (`u128` cell masks) by index,
//! sorted by size, and per cell a bitmap of the indices of the sets that
//! contain it. A node's unhit sets are a bitmap over indices ("alive");
//! adding given c is `alive & !cell[c]`, the smallest unhit set is the first
//! set bit, and "c hits every unhit set" is `alive ⊆ cell[c]` — no list is
//! copied per node.
//!
//! Two tables are used, as in GridChecker. The *global* table holds the
//! initial list (up to [`GLOBAL_SETS`] sets) for the upper levels, where the
//! disjoint-set bound runs over every unhit set. When [`LOCAL_AT`] givens
//! are left, a *local* table is built for the subtree: the live parts of
//! the unhit global sets (dead cells never come back in the subtree),
//! smallest first, the first [`LOCAL_WORDS`]·64 of them in a small fixed
//! bitmap that the hot lower levels update with a few word operations; the
//! others wait in a *rest* list. When every local set is hit, the rest is
//! checked before the solver: an unhit rest set joins the local table, like
//! a learned one. Only the parts that go to the local table are sorted by
//! (size, mask) and rid of duplicates; the rest is in size order only
//! (global table order within a size), which saves most of the sorting.
//!
//! # Composites (McGuire's sets of higher degree)
//!
//! A composite of degree d is a union of d pairwise disjoint UA sets; while
//! none of its cells is given it needs d givens. Lists of them are made
//! once per search ([`crate::composite`], GridChecker's global lists). At
//! `COMP_LEVEL` = 12 / 11 / 10 / 10 givens left (degrees 5 / 4 / 3 / 2, as
//! GridChecker; degree 4's at 10 from 17 givens) the first ones in list
//! order that the node's givens do not hit (at most `COMP_CAP`: 1 792 /
//! 4 096 / 1 792 / 1 024, twice as many but degree 4's from 17 givens) get
//! a table like
//! the UA tables (per-cell bitmaps); the global lists have per-cell bitmaps
//! too, so those composites are found 64 at a time (the and-not of the
//! givens' rows) rather than by testing each of up to 65 536, and
//! every node below keeps their "unhit" bitmap in a stack indexed by
//! givens left (one word-wise and-not per placement and degree still
//! needed). With k givens left, an unhit composite of degree k takes all k
//! of them (one in each of its disjoint sets), so **every remaining given
//! lies in the intersection I of the unhit composites of degree k**: a node
//! whose branch set misses I is pruned, and the cells outside I are dead
//! for the whole subtree (fewer branches below, and a later branch set
//! with no live cell prunes). I is computed once per node from the bitmap
//! (one pass over its set bits, stopping at the first composite after
//! which the branch set misses it; the bitmap is sparse, a composite or two
//! in each non-zero word, so the pass is one loop over all the set bits
//! that moves to the next non-zero word with masks rather than a loop per
//! word whose exit was mispredicted at almost every composite read); for
//! a child the parent computes it
//! while and-not-ing the child's bitmap of that degree (which nothing else
//! reads, so it is not stored), as the child's branch set is known by
//! then, and runs the child's scan (step 2, below) too, so that a child
//! pruned there costs no composite bitmaps.
//!
//! # Cell numbering
//!
//! The search runs on renumbered cells ([`crate::remap`], GridChecker's
//! remapping): cells in many small UA sets first, so the branches over a
//! set's cells take those first and leave them dead for the later
//! siblings.
//!
//! A learned set (or a rest set promoted) is unhit by the givens of every
//! ancestor of the node that found it, so after each child returns the
//! parent sets the alive bits of the sets added meanwhile: the remaining
//! siblings at every level are pruned by it (one costly solve teaches the
//! rest of the subtree). Learned sets also go to the global table while it
//! has room. When a table is full, the node branches on the new set
//! directly (correct, only less pruning for the siblings).
//!
//! # Machine code
//!
//! The lower levels are most of the time: their recursion (`inner` ↔
//! `branch_on`, with the scans and composite intersections inlined) is
//! generic over an instruction set and compiled twice, for the build's
//! target and for AVX2 ([`algoku_sudoku::isa`]); the AVX2 code runs when
//! the CPU has its features ([`Code`]). Both give the same search, node
//! for node. The `code` module has the details.
//!
//! # Parallelism and determinism
//!
//! The tree is expanded sequentially to the depth of `split_depth` (4
//! for 16 clues, 5 for 17); the subtrees are independent tasks (each
//! starting from a copy of the table as it was at the end of the
//! expansion) run on `threads` threads of a rayon pool, one worker and one
//! reused context per thread, each taking the next task of one queue in
//! expansion order (the first subtrees, with the fewest dead cells, are
//! the largest: taking them first leaves small ones for the end, where
//! rayon's splitting of the task list left a thread idle). The
//! decomposition does not depend on the thread count, so puzzles and node
//! counts are the same on 1 or many threads; puzzles are reported sorted.
//! Only a `max_found` stop depends on timing.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;

mod code;
mod lower;
mod table;
mod upper;

#[cfg(target_arch = "x86_64")]
use code::Avx2;
use table::{set_range, Bits, Composites, Table};

use crate::composite::{self, ND};
use crate::remap::Remap;
use crate::unique::Uniqueness;
use crate::{Cells, ALL};

/// Depth to which the tree is expanded before the subtrees run in
/// parallel, at least (see `split_depth`).
pub const SPLIT_DEPTH: usize = 3;
/// Depth to which the tree is expanded at most.
const MAX_SPLIT_DEPTH: usize = 6;

/// The depth of the tasks for a root with `left` givens to place: as deep
/// as the composite tables allow (the tasks start at or above
/// [`COMP_TOP`] givens left, where the first table is built, so the
/// tables and the nodes are those of one sequential search), at least
/// [`SPLIT_DEPTH`], at most [`MAX_SPLIT_DEPTH`]. Hundreds of tasks (16
/// clues: depth 4, 17 clues: 5) rather than about 40 at depth 3, whose
/// largest left a thread idle at the end.
fn split_depth(left: usize) -> usize {
    left.saturating_sub(COMP_TOP)
        .clamp(SPLIT_DEPTH, MAX_SPLIT_DEPTH)
}
/// Initial UA sets kept in the global table at most (the smallest).
pub const GLOBAL_SETS: usize = 2048;
/// Room kept in the global table for learned sets.
const GLOBAL_RESERVE: usize = 512;
/// Words of the global bitmaps (`GLOBAL_SETS + GLOBAL_RESERVE` bits).
const GW: usize = (GLOBAL_SETS + GLOBAL_RESERVE) / 64;
/// Givens left at which a subtree gets its local table.
pub const LOCAL_AT: usize = 9;
/// Givens left at which the composite table of each degree is built (at or
/// above [`LOCAL_AT`], at most [`COMP_TOP`]), for searches of up to 16
/// givens.
const COMP_LEVEL: [usize; ND] = [10, 10, 11, 12];
/// [`COMP_LEVEL`] for 17 givens or more: degree 4's table one level lower
/// (made for smaller subtrees, so fewer of its composites are hit
/// already): 17-clue searches are large enough to repay the extra tables,
/// quick 16-clue ones are not (docs/benchmarks.md).
const COMP_LEVEL_DEEP: [usize; ND] = [10, 10, 10, 12];
/// The highest of [`COMP_LEVEL`] and [`COMP_LEVEL_DEEP`].
const COMP_TOP: usize = 12;
/// Words of the local bitmaps (64 sets each).
pub const LOCAL_WORDS: usize = 4;
/// Room kept in a local table for learned and promoted sets.
const LOCAL_RESERVE: usize = 40;

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

/// Words of the bitmaps of composites (64 composites each).
const CW: usize = 64;
/// Composites kept per degree in a subtree's table (GridChecker's sizes),
/// for searches of up to 16 givens.
const COMP_CAP: [usize; ND] = [1024, 1792, 4096, 1792];
/// [`COMP_CAP`] for 17 givens or more, whose subtrees are larger and
/// repay the larger tables' making with fewer nodes; quick 16-clue
/// searches do not (docs/benchmarks.md).
const COMP_CAP_DEEP: [usize; ND] = [2048, 3584, 4096, 3584];
/// Unhit composites of the nodes below the tables' levels, by givens left.
type CompStack = [[Bits<CW>; ND]; COMP_TOP + 1];

/// What a parent found out about a child at 2–5 givens left before
/// entering it: the cells its givens must lie in (every unhit composite
/// of its degree) and the cells to branch on (live cells of the unhit set
/// with the fewest among the first 16).
#[derive(Clone, Copy)]
struct Pre {
    allowed: u128,
    branch: u128,
}

/// One subtree to search.
#[derive(Clone)]
struct Task {
    chosen: u128,
    dead: u128,
    left: usize,
    alive: Bits<GW>,
}

/// Per-task state.
struct Ctx<'a> {
    checker: Uniqueness,
    global: Table<GW>,
    local: Table<LOCAL_WORDS>,
    comps: [Table<CW>; ND],
    cstack: Box<CompStack>,
    cwords: [usize; ND],
    rest: Vec<u128>,
    scratch: Vec<u128>,
    parts_scratch: Vec<u128>,
    comp_scratch: Vec<u128>,
    found: Vec<u128>,
    nodes: u64,
    solves: u64,
    learned_count: u64,
    max_found: u64,
    total_found: &'a AtomicU64,
    stop: &'a AtomicBool,
    gcomps: &'a Composites,
    remap: &'a Remap,
    /// The lower levels run [`Avx2`]'s code when set.
    #[cfg(target_arch = "x86_64")]
    avx2: Option<Avx2>,
}

/// Searches every puzzle of `opts.clues` givens of `grid` containing
/// `opts.given`, with `uas` as the initial UA list (any unavoidable sets;
/// completeness does not depend on it; the smallest [`GLOBAL_SETS`] are
/// used). `tick(done, total)` is called as subtrees finish.
pub fn search(
    grid: &Cells,
    uas: &[u128],
    opts: &SearchOptions,
    tick: &(dyn Fn(u64, u64) + Sync),
) -> SearchResult {
    search_with(grid, uas, opts, tick, Code::Auto)
}

/// Which machine code the lower levels run (the results are the same).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Code {
    /// AVX2 code when the CPU has AVX2, BMI1/2, LZCNT and POPCNT (what
    /// [`search`] does).
    Auto,
    /// The build's target only.
    Baseline,
}

impl Code {
    /// Whether this choice runs the AVX2 code on this CPU.
    pub fn uses_avx2(self) -> bool {
        #[cfg(target_arch = "x86_64")]
        return self.avx2().is_some();
        #[cfg(not(target_arch = "x86_64"))]
        false
    }

    /// The AVX2 token when this choice runs the AVX2 code on this CPU.
    #[cfg(target_arch = "x86_64")]
    fn avx2(self) -> Option<Avx2> {
        match self {
            Code::Auto => Avx2::detect(),
            Code::Baseline => None,
        }
    }
}

/// [`search`] with the lower levels' code chosen by `code`.
pub fn search_with(
    grid: &Cells,
    uas: &[u128],
    opts: &SearchOptions,
    tick: &(dyn Fn(u64, u64) + Sync),
    code: Code,
) -> SearchResult {
    let remap = Remap::new(uas);
    let given = remap.fwd(opts.given & ALL);
    let placed = given.count_ones() as usize;
    if placed > opts.clues {
        return SearchResult::default();
    }
    let initial = initial_sets(uas, &remap, given);
    let mut table = Table::<GW>::new();
    for &u in &initial {
        table.push(u);
    }
    let mut alive = Bits::<GW>::ZERO;
    set_range(&mut alive, 0, table.len());
    let root_left = opts.clues - placed;
    let root = Task {
        chosen: given,
        dead: 0,
        left: root_left,
        alive,
    };
    let total_found = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let (caps, levels) = if opts.clues >= 17 {
        (COMP_CAP_DEEP, COMP_LEVEL_DEEP)
    } else {
        (COMP_CAP, COMP_LEVEL)
    };
    let gcomps = Composites::new(composite::global(&initial), caps, levels);
    let new_ctx = |table: Table<GW>| {
        Ctx::new(
            grid,
            table,
            opts.max_found,
            &total_found,
            &stop,
            &gcomps,
            &remap,
        )
    };
    // Expand to the tasks' depth; leaves met on the way are searched here.
    let mut ctx = new_ctx(table);
    let mut tasks = vec![root];
    for _ in 0..split_depth(root_left) {
        let mut next = Vec::new();
        for t in tasks {
            ctx.expand(t, &mut next);
        }
        tasks = next;
    }
    let total = tasks.len() as u64;
    let done = AtomicU64::new(0);
    let table = ctx.global.clone();
    // One context per worker, reused from task to task; each task starts
    // from the table as it was after the expansion (so what a task learns
    // does not depend on which tasks ran before it on the same worker).
    let worker_ctx = || {
        let mut c = new_ctx(table.clone());
        #[cfg(target_arch = "x86_64")]
        {
            c.avx2 = code.avx2();
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = code;
        c
    };
    let run = |c: &mut Ctx<'_>, t: Task| {
        c.global.copy_from(&table);
        let (nodes, solves, learned) = (c.nodes, c.solves, c.learned_count);
        let mut alive = t.alive;
        c.top(t.chosen, t.dead, t.left, &mut alive, 0);
        tick(done.fetch_add(1, Ordering::Relaxed) + 1, total);
        Part {
            found: std::mem::take(&mut c.found),
            nodes: c.nodes - nodes,
            solves: c.solves - solves,
            learned: c.learned_count - learned,
        }
    };
    let parts = run_tasks(tasks, opts.threads, &worker_ctx, &run);
    let first = Part {
        found: ctx.found,
        nodes: ctx.nodes,
        solves: ctx.solves,
        learned: ctx.learned_count,
    };
    let stopped = stop.load(Ordering::Relaxed);
    merge(first, parts, &remap, stopped, opts.max_found)
}

/// The initial UA sets in the search's cell numbering: those `given` does
/// not hit, smallest first (then by mask), without duplicates, at most
/// [`GLOBAL_SETS`].
fn initial_sets(uas: &[u128], remap: &Remap, given: u128) -> Vec<u128> {
    let mut initial: Vec<u128> = uas
        .iter()
        .map(|&u| remap.fwd(u))
        .filter(|&u| u & given == 0 && u != 0)
        .collect();
    initial.sort_unstable_by_key(|&m| (m.count_ones(), m));
    initial.dedup();
    initial.truncate(GLOBAL_SETS);
    initial
}

/// What a task (or the expansion) found: its puzzles, nodes, solver calls
/// and learned sets.
struct Part {
    found: Vec<u128>,
    nodes: u64,
    solves: u64,
    learned: u64,
}

/// Runs `tasks` on `threads` threads (see "Parallelism and determinism"
/// above): the results in task order.
fn run_tasks<'a>(
    tasks: Vec<Task>,
    threads: usize,
    new_ctx: &(dyn Fn() -> Ctx<'a> + Sync),
    run: &(dyn Fn(&mut Ctx<'a>, Task) -> Part + Sync),
) -> Vec<Part> {
    let sequential = |tasks: Vec<Task>| -> Vec<Part> {
        let mut c = new_ctx();
        tasks.into_iter().map(|t| run(&mut c, t)).collect()
    };
    let parallel = |tasks: Vec<Task>| -> Vec<Part> {
        // One queue in expansion order (the first subtrees, with the fewest
        // dead cells, are the largest), taken a task at a time by one
        // worker per thread, each with its own context; results by index.
        let next = AtomicUsize::new(0);
        let slots: Vec<Mutex<Option<Part>>> = tasks.iter().map(|_| Mutex::new(None)).collect();
        rayon::scope(|s| {
            for _ in 0..rayon::current_num_threads() {
                s.spawn(|_| {
                    let mut c = new_ctx();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(t) = tasks.get(i).cloned() else {
                            break;
                        };
                        let r = run(&mut c, t);
                        *slots[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(r);
                    }
                });
            }
        });
        slots
            .into_iter()
            .filter_map(|m| m.into_inner().unwrap_or_else(|e| e.into_inner()))
            .collect()
    };
    if threads <= 1 {
        sequential(tasks)
    } else if rayon::current_thread_index().is_some() && rayon::current_num_threads() == threads {
        // Already on a pool of that size (see [`crate::with_threads`]).
        parallel(tasks)
    } else {
        match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
            Ok(pool) => pool.install(|| parallel(tasks)),
            Err(_) => sequential(tasks),
        }
    }
}

/// The search's result from the expansion's part and the tasks': puzzles
/// back in the grid's cell numbering, sorted (cut at `max_found` when the
/// search `stopped` there).
fn merge(
    first: Part,
    parts: Vec<Part>,
    remap: &Remap,
    stopped: bool,
    max_found: u64,
) -> SearchResult {
    let mut result = SearchResult {
        puzzles: first.found,
        nodes: first.nodes,
        learned: first.learned,
        solves: first.solves,
        stopped,
    };
    for p in parts {
        result.puzzles.extend(p.found);
        result.nodes += p.nodes;
        result.solves += p.solves;
        result.learned += p.learned;
    }
    for p in result.puzzles.iter_mut() {
        *p = remap.back(*p);
    }
    result.puzzles.sort_unstable();
    if result.stopped {
        result.puzzles.truncate(max_found as usize);
    }
    result
}
