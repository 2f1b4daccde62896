//! Solver tests on puzzles copied from tdoku's benchmark files
//! (`tests/data`), on generated puzzles and on broken input.

mod common;

use algoku_sudoku::generator::solution_grid;
use algoku_sudoku::{count_solutions, solve, Grid, Solver, SplitMix64};
use common::{fixture, reference_count};

fn assert_solves(p: &Grid) -> Grid {
    let s = solve(p).unwrap_or_else(|| panic!("no solution for {p}"));
    assert_eq!(s.check_solution(), Ok(()), "{p} -> {s}");
    assert!(p.is_subset_of(&s), "{p} -> {s} drops a given");
    s
}

#[test]
fn unique_benchmark_puzzles() {
    for file in [
        "17_clue.txt",
        "magictour.txt",
        "forum_hardest_11plus.txt",
        "forum_hardest_1106.txt",
    ] {
        let puzzles = fixture(file);
        assert!(puzzles.len() >= 5, "{file}");
        for p in &puzzles {
            let s = assert_solves(p);
            assert_eq!(count_solutions(p, 2), 1, "{file}: {p}");
            assert_eq!(count_solutions(p, 100), 1, "{file}: {p}");
            // The solution itself is its own unique completion.
            assert_eq!(solve(&s), Some(s));
            assert_eq!(count_solutions(&s, 2), 1);
        }
    }
}

#[test]
fn seventeen_clue_puzzle_is_unique() {
    let p = &fixture("17_clue.txt")[0];
    assert_eq!(p.clue_count(), 17);
    assert_eq!(count_solutions(p, 2), 1);
}

#[test]
fn serg_puzzles_have_several_solutions() {
    for p in &fixture("serg_multi.txt") {
        assert_solves(p);
        assert_eq!(count_solutions(p, 2), 2, "{p}");
        let n = count_solutions(p, 1000);
        assert!(n >= 2, "{p}");
        assert_eq!(n, reference_count(p, 1000), "{p}");
        let r = Solver::new().solve_with_stats(p, 3);
        assert_eq!(r.solutions, n.min(3));
        assert!(r.first.is_some());
    }
}

#[test]
fn contradictory_givens_have_no_solution() {
    let base = fixture("17_clue.txt")[0];
    // Two 5s in row 1.
    let mut g = Grid::EMPTY;
    g.set(0, 5).unwrap();
    g.set(8, 5).unwrap();
    assert_eq!(solve(&g), None);
    assert_eq!(count_solutions(&g, 2), 0);
    // Duplicates in a column and in a box, on top of a real puzzle.
    for (i, j) in [(0usize, 72usize), (0, 20), (40, 44), (80, 60)] {
        let mut g = base;
        g.set(i, 7).unwrap();
        g.set(j, 7).unwrap();
        assert!(g.check().is_err());
        assert_eq!(solve(&g), None, "{g}");
        assert_eq!(count_solutions(&g, 2), 0, "{g}");
        assert_eq!(Solver::new().solve_with_stats(&g, 2).solutions, 0);
    }
    // No duplicate, but no solution either: a cell with no candidate left.
    let g = Grid::parse(
        "12345678.........9...............................................................",
    )
    .unwrap();
    assert!(g.check().is_ok());
    assert_eq!(solve(&g), None);
    assert_eq!(count_solutions(&g, 2), 0);
    assert_eq!(reference_count(&g, 2), 0);
}

#[test]
fn limits() {
    let p = fixture("serg_multi.txt")[0];
    assert_eq!(count_solutions(&p, 0), 0);
    assert_eq!(count_solutions(&p, 1), 1);
    assert_eq!(count_solutions(&Grid::EMPTY, 7), 7);
    // A limit of 0 in solve_with_stats is treated as 1.
    assert_eq!(Solver::new().solve_with_stats(&p, 0).solutions, 1);
}

#[test]
fn stats_are_deterministic() {
    let mut solver = Solver::new();
    for p in fixture("forum_hardest_1106.txt") {
        let a = solver.solve_with_stats(&p, 2);
        let b = Solver::new().solve_with_stats(&p, 2);
        assert_eq!(a, b);
        assert_eq!(a.solutions, 1);
        assert!(a.guesses > 0, "hardest puzzles need guessing");
    }
    let s = solution_grid(3);
    let r = solver.solve_with_stats(&s, 2);
    assert_eq!((r.solutions, r.guesses), (1, 0));
    assert_eq!(r.first, Some(s));
}

/// `keep` cells of solution grid `seed`, chosen at random.
fn partial_grid(seed: u64, keep: usize, rng: &mut SplitMix64) -> Grid {
    let sol = solution_grid(seed);
    let mut order: Vec<usize> = (0..81).collect();
    rng.shuffle(&mut order);
    let mut p = Grid::EMPTY;
    for &i in &order[..keep] {
        p.set(i, sol.cells()[i]).unwrap();
    }
    p
}

/// `g` and its transpose count like the reference solver (up to `limit`)
/// and solve to valid grids.
fn assert_counts_both_ways(g: &Grid, limit: usize) {
    use algoku_sudoku::transform::Transform;
    let transposed = Transform {
        transpose: true,
        ..Transform::IDENTITY
    }
    .apply(g);
    for g in [*g, transposed] {
        assert_eq!(
            count_solutions(&g, limit),
            reference_count(&g, limit),
            "{g}"
        );
        assert_solves(&g);
    }
}

/// Random partial grids (cells of a solution grid blanked at random) must get
/// the same solution count, up to 3, as the reference solver.
#[test]
fn matches_reference_on_random_partial_grids() {
    let mut rng = SplitMix64::new(2024);
    for k in 0..150u64 {
        let keep = 22 + rng.below(20) as usize; // 22..41 givens
        let p = partial_grid(1000 + k, keep, &mut rng);
        let want = reference_count(&p, 3);
        assert_eq!(count_solutions(&p, 3), want, "{p}");
        assert!(want >= 1);
        assert_solves(&p);
    }
}

/// Random grids with random givens (mostly contradictory) never panic and
/// agree with the reference on whether a solution exists.
#[test]
fn random_garbage_grids() {
    let mut rng = SplitMix64::new(7);
    for _ in 0..300 {
        let mut cells = [0u8; 81];
        for _ in 0..rng.below(30) {
            cells[rng.below(81) as usize] = 1 + rng.below(9) as u8;
        }
        let g = Grid::from_cells(cells).unwrap();
        let n = count_solutions(&g, 2);
        assert_eq!(n.min(1), reference_count(&g, 1), "{g}");
        match solve(&g) {
            Some(s) => {
                assert_eq!(s.check_solution(), Ok(()));
                assert!(g.is_subset_of(&s));
            }
            None => assert_eq!(n, 0),
        }
    }
}

/// Random isomorphs of the benchmark fixtures (digits relabelled, rows,
/// columns, bands and stacks permuted, maybe transposed) keep their solution
/// counts, and the solver's first solution is the copy of the original's
/// (the search order depends on the orientation; the answers must not).
#[test]
fn isomorphs_keep_solution_counts() {
    use algoku_sudoku::transform::{isomorphs, Transform};
    for (file, want) in [
        ("17_clue.txt", 1),
        ("magictour.txt", 1),
        ("forum_hardest_11plus.txt", 1),
        ("forum_hardest_1106.txt", 1),
        ("serg_multi.txt", 2),
    ] {
        let puzzles = fixture(file);
        for seed in 0..6u64 {
            let mut rng = SplitMix64::new(seed);
            for p in &puzzles {
                let t = Transform::random(&mut rng);
                let q = t.apply(p);
                assert_eq!(count_solutions(&q, 2), want, "{file} seed {seed}: {q}");
                let s = assert_solves(&q);
                if want == 1 {
                    // The unique solution of the copy is the copy of the solution.
                    assert_eq!(t.apply(&solve(p).unwrap()), s, "{file} seed {seed}: {q}");
                }
            }
            assert_eq!(isomorphs(&puzzles, seed), {
                let mut rng = SplitMix64::new(seed);
                puzzles
                    .iter()
                    .map(|p| Transform::random(&mut rng).apply(p))
                    .collect::<Vec<_>>()
            });
        }
    }
    // Multi-solution counts up to 1000 agree with the reference on copies.
    for q in isomorphs(&fixture("serg_multi.txt"), 77) {
        assert_eq!(count_solutions(&q, 1000), reference_count(&q, 1000), "{q}");
    }
}

/// Sparse random partial grids (8..22 givens: long searches with the column
/// step) and their transposes: the same solution count, up to 3, as the
/// reference solver.
#[test]
fn sparse_partial_grids_match_reference() {
    let mut rng = SplitMix64::new(4242);
    for k in 0..60u64 {
        let keep = 8 + rng.below(15) as usize;
        assert_counts_both_ways(&partial_grid(5000 + k, keep, &mut rng), 3);
    }
}

/// Partial grids of exactly 18 givens (cell branching with triads) and
/// many solutions: counts up to 300 agree with the reference solver, in
/// the original and the transposed orientation.
#[test]
fn eighteen_given_counts_match_reference() {
    let mut rng = SplitMix64::new(1818);
    for k in 0..40u64 {
        assert_counts_both_ways(&partial_grid(7000 + k, 18, &mut rng), 300);
    }
}

/// Partial grids with 17..32 givens (19..32 is the band-configuration
/// branching range) and many solutions: counts up to 300 agree with the
/// reference solver, in the original and the transposed orientation.
#[test]
fn configuration_branching_counts_match_reference() {
    let mut rng = SplitMix64::new(1717);
    for k in 0..40u64 {
        let keep = 17 + rng.below(16) as usize;
        assert_counts_both_ways(&partial_grid(9000 + k, keep, &mut rng), 300);
    }
}

/// A 19-given grid with a huge number of solutions: counting past the
/// configuration-branching budget (2 000 branches, then cell branching)
/// still agrees with the reference solver.
#[test]
fn configuration_budget_fallback_counts() {
    let p = partial_grid(31337, 19, &mut SplitMix64::new(99));
    let r = Solver::new().solve_with_stats(&p, 5000);
    assert!(
        r.branches > 2000,
        "{} branches: the budget is not reached",
        r.branches
    );
    assert_eq!(r.solutions, reference_count(&p, 5000), "{p}");
}
