//! `verify` (the contract's `uint256` algorithm) against `is_valid_solution` (the rule).
//!
//! There is no divergence: the module docs of `algoku_curta::verify` prove that the two agree
//! on every pair of `uint256`s (nibbles 0 and 9..=15 included: `1 << nibble` then sets bit 0
//! or a bit above 8 and the unit check fails, exactly as the rule's "not a digit"). These
//! tests assert plain equality — a divergence would fail them, not be hidden:
//!
//! * every single-nibble change (16 values × 64 squares) of valid solutions and of starts;
//! * ≥ 10 000 proptest cases per run: random valid solutions (ground-truth solutions under
//!   random Sudoku symmetries), random starts taken from them, and adversarial mutations
//!   (one square set to any nibble 0..=15, swaps within a row / column / box, whole row or
//!   column swaps, givens changed to any nibble, relabelled digits, random `uint256`s).

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

use algoku_curta::{is_valid_solution, solve, verify, Board, Unit, Violation, U256};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

/// Distinct valid solutions: the ground-truth ones plus the solver's for the empty board.
fn bases() -> &'static [Board] {
    static BASES: OnceLock<Vec<Board>> = OnceLock::new();
    BASES.get_or_init(|| {
        let mut v: Vec<Board> = common::verify_vectors()
            .into_iter()
            .filter(|x| x.valid)
            .map(|x| x.solution)
            .collect();
        v.push(solve(&Board::EMPTY).unwrap());
        v.sort_by_key(|b| b.0);
        v.dedup();
        assert!(v.iter().all(|b| verify(&Board::EMPTY, b)));
        v
    })
}

/// SplitMix64, for the symmetry draws.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn shuffle<T>(v: &mut [T], rng: &mut u64) {
    for i in (1..v.len()).rev() {
        let j = (splitmix(rng) % (i as u64 + 1)) as usize;
        v.swap(i, j);
    }
}

/// A valid grid transformed by a random symmetry of the 2x4 Sudoku: relabel digits,
/// permute the four 2-row bands and the rows inside each band, swap the two 4-column
/// stacks and permute the columns inside each stack.
fn transformed(base: Board, seed: u64) -> Board {
    let mut rng = seed;
    let mut digits: Vec<u8> = (1..=8).collect();
    shuffle(&mut digits, &mut rng);
    let mut bands: Vec<usize> = (0..4).collect();
    shuffle(&mut bands, &mut rng);
    let mut rows = Vec::new();
    for &b in &bands {
        let flip = (splitmix(&mut rng) & 1) as usize;
        rows.push(2 * b + flip);
        rows.push(2 * b + 1 - flip);
    }
    let mut stacks: Vec<usize> = (0..2).collect();
    shuffle(&mut stacks, &mut rng);
    let mut cols = Vec::new();
    for &s in &stacks {
        let mut inner: Vec<usize> = (0..4).collect();
        shuffle(&mut inner, &mut rng);
        cols.extend(inner.into_iter().map(|c| 4 * s + c));
    }
    let old = base.cells();
    let cells = std::array::from_fn(|k| {
        let d = old[8 * rows[k / 8] + cols[k % 8]];
        digits[d as usize - 1]
    });
    Board::from_cells(cells)
}

#[derive(Clone, Debug)]
enum Mutation {
    None,
    SetCell(usize, u8),
    SetTwoCells(usize, u8, usize, u8),
    SwapInUnit(Unit, usize, usize),
    SwapRows(usize, usize),
    SwapColumns(usize, usize),
    SetGiven(usize, u8),
    RelabelSolution(u64),
    RandomSolution([u64; 4]),
    RandomStart([u64; 4]),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let sq = 0usize..64;
    let nib = 0u8..16;
    let unit = prop_oneof![
        (0usize..8).prop_map(Unit::Row),
        (0usize..8).prop_map(Unit::Column),
        (0usize..8).prop_map(Unit::Box),
    ];
    prop_oneof![
        2 => Just(Mutation::None),
        4 => (sq.clone(), nib.clone()).prop_map(|(k, v)| Mutation::SetCell(k, v)),
        2 => (sq.clone(), nib.clone(), sq.clone(), nib.clone())
            .prop_map(|(a, x, b, y)| Mutation::SetTwoCells(a, x, b, y)),
        3 => (unit, 0usize..8, 0usize..8).prop_map(|(u, i, j)| Mutation::SwapInUnit(u, i, j)),
        1 => (0usize..8, 0usize..8).prop_map(|(a, b)| Mutation::SwapRows(a, b)),
        1 => (0usize..8, 0usize..8).prop_map(|(a, b)| Mutation::SwapColumns(a, b)),
        3 => (sq, nib).prop_map(|(k, v)| Mutation::SetGiven(k, v)),
        1 => any::<u64>().prop_map(Mutation::RelabelSolution),
        1 => any::<[u64; 4]>().prop_map(Mutation::RandomSolution),
        1 => any::<[u64; 4]>().prop_map(Mutation::RandomStart),
    ]
}

fn swap(b: Board, i: usize, j: usize) -> Board {
    b.with_cell(i, b.cell(j)).with_cell(j, b.cell(i))
}

fn apply(start: Board, sol: Board, m: &Mutation) -> (Board, Board) {
    match *m {
        Mutation::None => (start, sol),
        Mutation::SetCell(k, v) => (start, sol.with_cell(k, v)),
        Mutation::SetTwoCells(a, x, b, y) => (start, sol.with_cell(a, x).with_cell(b, y)),
        Mutation::SwapInUnit(u, i, j) => {
            let sq = u.squares();
            (start, swap(sol, sq[i], sq[j]))
        }
        Mutation::SwapRows(a, b) => {
            let s = (0..8).fold(sol, |s, c| swap(s, 8 * a + c, 8 * b + c));
            (start, s)
        }
        Mutation::SwapColumns(a, b) => {
            let s = (0..8).fold(sol, |s, r| swap(s, 8 * r + a, 8 * r + b));
            (start, s)
        }
        Mutation::SetGiven(k, v) => (start.with_cell(k, v), sol),
        Mutation::RelabelSolution(seed) => {
            let mut rng = seed;
            let mut digits: Vec<u8> = (1..=8).collect();
            shuffle(&mut digits, &mut rng);
            let cells = sol.cells().map(|d| digits[d as usize - 1]);
            (start, Board::from_cells(cells))
        }
        Mutation::RandomSolution(l) => (start, Board(U256::from_limbs(l))),
        Mutation::RandomStart(l) => (Board(U256::from_limbs(l)), sol),
    }
}

#[test]
fn verify_equals_the_rule_on_10000_adversarial_cases() {
    static VALID: AtomicUsize = AtomicUsize::new(0);
    static INVALID: AtomicUsize = AtomicUsize::new(0);
    let mut runner = TestRunner::new(Config {
        cases: 10_000,
        ..Config::default()
    });
    let strategy = (
        0..bases().len(),
        any::<u64>(),
        any::<u64>(),
        0u8..4,
        mutation(),
    );
    runner
        .run(&strategy, |(base, sym, mask, density, m)| {
            let sol = transformed(bases()[base], sym);
            prop_assert!(verify(&Board::EMPTY, &sol));
            // Givens: a random subset of the solution, dense to sparse.
            let mut mask = mask;
            for i in 0..density {
                mask &= sym.rotate_left(17 * u32::from(i) + 5);
            }
            let start = Board::from_cells(std::array::from_fn(|k| {
                if mask >> k & 1 == 1 {
                    sol.cell(k)
                } else {
                    0
                }
            }));
            let (start, sol) = apply(start, sol, &m);
            let contract = verify(&start, &sol);
            let rule = is_valid_solution(&start, &sol);
            prop_assert_eq!(
                contract,
                rule.is_ok(),
                "start {} solution {} rule {:?}",
                start.to_hex(),
                sol.to_hex(),
                rule
            );
            if contract {
                VALID.fetch_add(1, Ordering::Relaxed);
            } else {
                INVALID.fetch_add(1, Ordering::Relaxed);
            }
            Ok(())
        })
        .unwrap();
    let (v, i) = (
        VALID.load(Ordering::Relaxed),
        INVALID.load(Ordering::Relaxed),
    );
    eprintln!("valid {v}, invalid {i}");
    assert!(v + i >= 10_000);
    // Both outcomes are well represented, so the comparison means something.
    assert!(v >= 1000 && i >= 3000, "valid {v}, invalid {i}");
}

#[test]
fn every_single_nibble_change_agrees() {
    for (n, &sol) in bases().iter().enumerate().take(8) {
        let start = Board::from_cells(std::array::from_fn(|k| {
            if (k * 7 + n) % 5 == 0 {
                sol.cell(k)
            } else {
                0
            }
        }));
        assert!(verify(&start, &sol));
        for k in 0..64 {
            for v in 0..16u8 {
                for (s, x) in [
                    (start, sol.with_cell(k, v)),
                    (start.with_cell(k, v), sol),
                    (Board::EMPTY, sol.with_cell(k, v)),
                    (start.with_cell(k, v), sol.with_cell(k, v)),
                ] {
                    let rule = is_valid_solution(&s, &x);
                    assert_eq!(verify(&s, &x), rule.is_ok(), "k {k} v {v}: {rule:?}");
                }
            }
        }
    }
}

/// Non-digit nibbles: the contract's `1 << nibble` on a `uint256` makes them fail the unit
/// check, which is the rule's "not a digit"; a non-digit given can never be matched.
#[test]
fn non_digit_nibbles_are_rejected_by_both() {
    let sol = bases()[0];
    for v in [0u8, 9, 10, 15] {
        let bad = sol.with_cell(20, v);
        assert!(!verify(&Board::EMPTY, &bad));
        assert_eq!(
            is_valid_solution(&Board::EMPTY, &bad),
            Err(Violation::NotADigit {
                square: 20,
                value: v
            })
        );
    }
    // A start with a 9 and a solution with the same 9: the given matches, the unit fails.
    let start = Board::EMPTY.with_cell(20, 9);
    let bad = sol.with_cell(20, 9);
    assert!(!verify(&start, &bad));
    assert!(is_valid_solution(&start, &bad).is_err());
    // A start with a 9 over a valid solution: the given is not kept.
    assert!(!verify(&start, &sol));
    assert_eq!(
        is_valid_solution(&start, &sol),
        Err(Violation::GivenChanged {
            square: 20,
            given: 9,
            found: sol.cell(20)
        })
    );
}

#[test]
fn violations_name_the_first_problem() {
    let sol = bases()[0];
    // Swap squares 17 and 21 (row 2): rows stay fine, columns 1 and 5 repeat.
    let bad = swap(sol, 17, 21);
    let v = is_valid_solution(&Board::EMPTY, &bad).unwrap_err();
    match v {
        Violation::Duplicate {
            unit: Unit::Column(1),
            digit,
            first,
            second,
        } => {
            assert_eq!(digit, sol.cell(21));
            assert!(first % 8 == 1 && second % 8 == 1 && first < second);
        }
        other => panic!("unexpected {other}"),
    }
    // A changed square repeats a digit in its row first.
    let d = sol.cell(17);
    let k = (16..24)
        .find(|&k| k != 17 && sol.cell(k) == d % 8 + 1)
        .unwrap();
    let bad = sol.with_cell(17, d % 8 + 1);
    assert_eq!(
        is_valid_solution(&Board::EMPTY, &bad)
            .unwrap_err()
            .to_string(),
        format!(
            "row 3 has {} twice (squares {} and {}: hex digits {} and {})",
            d % 8 + 1,
            k.min(17) + 1,
            k.max(17) + 1,
            64 - k.min(17),
            64 - k.max(17)
        )
    );
}
