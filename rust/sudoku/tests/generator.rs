//! Generator tests: determinism, uniqueness, minimality, symmetry, targets.

mod common;

use algoku_sudoku::generator::{
    generate_puzzle, grade, is_minimal, solution_grid, solves_with_singles, Grade, PuzzleOptions,
};
use algoku_sudoku::{count_solutions, solve, Grid};
use common::fixture;

fn opts(seed: u64, symmetric: bool, minimal: bool, target: Option<usize>) -> PuzzleOptions {
    PuzzleOptions {
        seed,
        symmetric,
        minimal,
        target_clues: target,
    }
}

/// Pinned forever, like `solution_grid`: fixtures may depend on these bytes.
/// (Puzzle and solution depend only on the seed stream and on uniqueness,
/// which is a mathematical fact, never on solver heuristics; the grade's
/// guess count can change with the solver, so it is not pinned here.)
#[test]
fn pinned_puzzles() {
    let cases = [
        (
            0,
            false,
            None,
            "3...4.....6.......9.85..46...18.3.2.2.9.........7...9..3...7.5...56.....8..91.7..",
        ),
        (
            0,
            true,
            None,
            "3.......5.643..21....57.....71.....4..9.6.3..4.....69.....27....95..814.8.......6",
        ),
        (
            1,
            false,
            None,
            "..936.5...7.89.........2.....6...97......4.1.5...3.......9...4.4....8....57..6.81",
        ),
        (
            7,
            true,
            None,
            "5.196.....8......3.63.....51....2.....7.3.1.....7....87.....65.2......8.....813.2",
        ),
        (
            3,
            false,
            Some(30),
            ".1..735..9..16.8...2.95.6..........7..4...15.......4.9..1..8..57..52.9..59...7.61",
        ),
    ];
    for (seed, symmetric, target, want) in cases {
        let p = generate_puzzle(&opts(seed, symmetric, true, target));
        assert_eq!(
            p.puzzle.to_string(),
            want,
            "seed {seed} symmetric {symmetric}"
        );
    }
}

#[test]
fn default_options() {
    let d = PuzzleOptions::default();
    assert_eq!(d, opts(0, false, true, None));
}

#[test]
fn deterministic() {
    for seed in [0u64, 1, 42, u64::MAX] {
        for symmetric in [false, true] {
            let o = opts(seed, symmetric, true, None);
            let a = generate_puzzle(&o);
            let b = generate_puzzle(&o);
            assert_eq!(a, b);
            assert_eq!(a.puzzle.to_string(), b.puzzle.to_string());
        }
    }
    assert_ne!(
        generate_puzzle(&opts(1, false, true, None)).puzzle,
        generate_puzzle(&opts(2, false, true, None)).puzzle
    );
}

#[test]
fn minimal_unique_puzzles() {
    for seed in 0..12u64 {
        let p = generate_puzzle(&opts(seed, false, true, None));
        assert_eq!(p.solution, solution_grid(seed));
        assert_eq!(p.clues, p.puzzle.clue_count());
        assert!(p.puzzle.is_subset_of(&p.solution));
        assert_eq!(count_solutions(&p.puzzle, 2), 1, "{}", p.puzzle);
        assert_eq!(solve(&p.puzzle), Some(p.solution));
        assert!(is_minimal(&p.puzzle), "{}", p.puzzle);
        assert!((17..=40).contains(&p.clues), "{}", p.clues);
        assert_eq!(p.grade, grade(&p.puzzle));
    }
}

/// Every clue is needed: removing any one gives a second solution.
#[test]
fn minimality_by_brute_force() {
    let p = generate_puzzle(&opts(5, false, true, None)).puzzle;
    for i in 0..81 {
        if p.cells()[i] != 0 {
            let mut q = p;
            q.set(i, 0).unwrap();
            assert_eq!(count_solutions(&q, 2), 2, "clue {i} of {p} is redundant");
        }
    }
}

#[test]
fn symmetric_puzzles() {
    for seed in 0..8u64 {
        let p = generate_puzzle(&opts(seed, true, true, None));
        let c = p.puzzle.cells();
        for i in 0..81 {
            assert_eq!(c[i] == 0, c[80 - i] == 0, "seed {seed}: {}", p.puzzle);
        }
        assert_eq!(count_solutions(&p.puzzle, 2), 1);
        // Minimal w.r.t. symmetric pairs: removing any pair (or the centre)
        // breaks uniqueness.
        for (i, &v) in c.iter().enumerate().take(41) {
            if v != 0 {
                let mut q = p.puzzle;
                q.set(i, 0).unwrap();
                q.set(80 - i, 0).unwrap();
                assert_eq!(count_solutions(&q, 2), 2, "seed {seed}, pair {i}");
            }
        }
    }
}

#[test]
fn target_clues() {
    for seed in 0..6u64 {
        for symmetric in [false, true] {
            let p = generate_puzzle(&opts(seed, symmetric, true, Some(36)));
            if symmetric {
                // Pairs remove two clues at a time: parity can leave one more.
                assert!((36..=37).contains(&p.clues), "seed {seed}: {}", p.clues);
            } else {
                assert_eq!(p.clues, 36, "seed {seed}");
            }
            assert_eq!(count_solutions(&p.puzzle, 2), 1);
            // Not below the target, even when not reachable exactly.
            let q = generate_puzzle(&opts(seed, symmetric, false, Some(10)));
            assert!(q.clues >= 17, "{}", q.clues);
            assert_eq!(count_solutions(&q.puzzle, 2), 1);
        }
        // An unreachable high target: nothing removed below it.
        let p = generate_puzzle(&opts(seed, false, true, Some(81)));
        assert_eq!(p.puzzle, p.solution);
        assert_eq!(p.grade, Grade::Singles);
    }
}

#[test]
fn non_minimal_stops_at_first_failure() {
    for seed in 0..6u64 {
        let quick = generate_puzzle(&opts(seed, false, false, None));
        let full = generate_puzzle(&opts(seed, false, true, None));
        assert_eq!(count_solutions(&quick.puzzle, 2), 1);
        assert!(quick.clues >= full.clues);
        // Same removal order: the full pass removes a superset of cells.
        assert!(full.puzzle.is_subset_of(&quick.puzzle));
    }
}

#[test]
fn grades() {
    // A complete grid and an easy puzzle need no guessing.
    let s = solution_grid(9);
    assert!(solves_with_singles(&s));
    assert_eq!(grade(&s), Grade::Singles);
    let mut easy = s;
    for i in [0, 10, 20, 30, 40, 50, 60, 70, 80] {
        easy.set(i, 0).unwrap();
    }
    assert_eq!(grade(&easy), Grade::Singles);
    // The hardest puzzles need guesses.
    for p in fixture("forum_hardest_1106.txt") {
        assert!(!solves_with_singles(&p));
        assert!(matches!(grade(&p), Grade::Guesses(n) if n > 0), "{p}");
    }
    // Broken grids are not solved by singles.
    let mut bad = Grid::EMPTY;
    bad.set(0, 1).unwrap();
    bad.set(1, 1).unwrap();
    assert!(!solves_with_singles(&bad));
    assert!(!solves_with_singles(&Grid::EMPTY));
    assert!(Grade::Singles < Grade::Guesses(0));
}

#[test]
fn is_minimal_rejects() {
    let s = solution_grid(4);
    assert!(!is_minimal(&s)); // unique but far from minimal
    assert!(!is_minimal(&Grid::EMPTY)); // not unique
    let mut bad = Grid::EMPTY;
    bad.set(0, 1).unwrap();
    bad.set(1, 1).unwrap();
    assert!(!is_minimal(&bad)); // no solution
    for p in fixture("17_clue.txt") {
        assert!(is_minimal(&p), "17-clue puzzles are minimal: {p}");
    }
}
