//! `break_solution` on every valid ground-truth solution: each kind, many seeds, always
//! rejected by `verify`, and shaped as its kind says.

mod common;

use algoku_curta::{break_solution, is_valid_solution, verify, BreakKind, Violation};

#[test]
fn every_kind_breaks_every_valid_vector_solution() {
    let valid: Vec<_> = common::verify_vectors()
        .into_iter()
        .filter(|v| v.valid)
        .collect();
    assert_eq!(valid.len(), 71);
    for v in &valid {
        for seed in 0..40u64 {
            for kind in BreakKind::all(v.start) {
                let b = break_solution(&v.solution, kind, seed);
                assert_eq!(b, break_solution(&v.solution, kind, seed), "deterministic");
                assert!(
                    !verify(&v.start, &b),
                    "{kind:?} seed {seed} case {}",
                    v.case
                );
                let changed: Vec<usize> = (0..64)
                    .filter(|&k| b.cell(k) != v.solution.cell(k))
                    .collect();
                let rule = is_valid_solution(&v.start, &b);
                match kind {
                    BreakKind::ChangeCell => {
                        assert_eq!(changed.len(), 1);
                        assert!((1..=8).contains(&b.cell(changed[0])));
                        assert!(!verify(&algoku_curta::Board::EMPTY, &b));
                    }
                    BreakKind::SwapInRow | BreakKind::SwapInColumn => {
                        assert_eq!(changed.len(), 2);
                        let (a, c) = (changed[0], changed[1]);
                        if kind == BreakKind::SwapInRow {
                            assert_eq!(a / 8, c / 8);
                        } else {
                            assert_eq!(a % 8, c % 8);
                        }
                        assert_eq!(b.cell(a), v.solution.cell(c));
                        assert!(!verify(&algoku_curta::Board::EMPTY, &b));
                    }
                    BreakKind::ChangeGiven(start) => {
                        assert_eq!(changed.len(), 1);
                        if start.givens() == 0 {
                            // Falls back to ChangeCell: a digit repeats somewhere.
                            assert!(matches!(rule, Err(Violation::Duplicate { .. })));
                        } else {
                            assert_ne!(start.cell(changed[0]), 0, "a given was changed");
                            assert!(matches!(rule, Err(Violation::GivenChanged { .. })));
                        }
                    }
                    BreakKind::ZeroCell => {
                        assert_eq!(changed.len(), 1);
                        assert_eq!(b.cell(changed[0]), 0);
                        assert!(matches!(rule, Err(Violation::NotADigit { value: 0, .. })));
                    }
                    BreakKind::NonDigitCell => {
                        assert_eq!(changed.len(), 1);
                        assert!((9..=15).contains(&b.cell(changed[0])));
                        assert!(matches!(rule, Err(Violation::NotADigit { .. })));
                    }
                }
            }
        }
    }
}

/// The exact boards are part of the API (fixtures depend on them): pin a few.
#[test]
fn break_solution_is_stable() {
    let v = common::verify_vectors()
        .into_iter()
        .find(|v| v.valid)
        .unwrap();
    let got: Vec<String> = BreakKind::all(v.start)
        .iter()
        .map(|&k| break_solution(&v.solution, k, 42).to_hex())
        .collect();
    assert_eq!(got, PINNED);
}

/// `break_solution(solution, kind, 42)` for each kind of `BreakKind::all(start)`, on the
/// first valid vector (start `0000000040070000000603002000005000000000008000000000000000000100`,
/// solution `6125847348376512547613282318765437524861168427358561324772435186`).
const PINNED: [&str; 6] = [
    "6125847348376512547613282318765437524861166427358561324772435186",
    "6125847348376512547163282318765437524861168427358561324772435186",
    "6125847348376512547613282358765437124861168427358561324772435186",
    "6125847348376512547413282318765437524861168427358561324772435186",
    "6125847348376512547613282318765437524861160427358561324772435186",
    "612584734837651254761328231876543752486116e427358561324772435186",
];
