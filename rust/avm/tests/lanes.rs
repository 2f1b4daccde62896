//! Property tests of the one-call methods' mirror against the plain rules:
//! `lanes(g) == Ok(rule(g))` (also checked on every grid of
//! `properties.rs`) and `solution_of(p, s) == Ok(solution_rule(p, s))`, on
//! random and adversarial inputs: lane-breaking values (0, 10..15), aliases
//! (`d + 16k`), bytes >= 16, rows right but boxes wrong, givens that disagree,
//! puzzle bytes >= 10, both sides of the 64-byte `b+` chunk border.

mod common;

use algoku_avm::{
    lanes, rule, solution_of, solution_rule, Outcome, Rejection, PUZZLE_LENGTH_MESSAGE,
    SOLUTION_LENGTH_MESSAGE,
};
use common::{latin, solution, Rng};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

fn check_pair(p: &[u8], s: &[u8]) -> Result<(), TestCaseError> {
    prop_assert_eq!(
        solution_of(p, s),
        Ok(solution_rule(p, s)),
        "solution_of on {:?} {:?}",
        p,
        s
    );
    Ok(())
}

/// A puzzle of `s`: each cell kept with probability about `keep / 8`.
fn puzzle_of(s: &[u8], rng: &mut Rng, keep: usize) -> Vec<u8> {
    s.iter()
        .map(|&v| if rng.below(8) < keep { v } else { 0 })
        .collect()
}

proptest! {
    #![proptest_config(config(5_000))]

    #[test]
    fn lanes_every_value_at_one_cell(seed in any::<u64>(), cell in 0usize..81, value in any::<u8>()) {
        let mut g = solution(seed);
        g[cell] = value;
        prop_assert_eq!(lanes(&g), Ok(rule(&g)));
    }

    #[test]
    fn lanes_high_nibbles_only(seed in any::<u64>(), highs in prop::collection::vec(0u8..16, 81)) {
        // the low nibbles are a solution; some high nibbles set
        let g: Vec<u8> = solution(seed).iter().zip(&highs).map(|(&d, &h)| d | (h << 4)).collect();
        prop_assert_eq!(lanes(&g), Ok(rule(&g)));
    }

    #[test]
    fn lanes_latin_squares(seed in any::<u64>()) {
        let g = latin(seed);
        prop_assert_eq!(lanes(&g), Ok(rule(&g)));
    }

    #[test]
    fn solution_of_right_givens(seed in any::<u64>(), keep in 0usize..=8) {
        let s = solution(seed);
        let mut rng = Rng::new(seed ^ 0x5eed);
        let p = puzzle_of(&s, &mut rng, keep);
        prop_assert!(solution_rule(&p, &s));
        check_pair(&p, &s)?;
    }

    #[test]
    fn solution_of_one_given_changed(seed in any::<u64>(), keep in 0usize..=8, cell in 0usize..81, value in any::<u8>()) {
        let s = solution(seed);
        let mut rng = Rng::new(seed);
        let mut p = puzzle_of(&s, &mut rng, keep);
        p[cell] = value;
        check_pair(&p, &s)?;
    }

    #[test]
    fn solution_of_chunk_border(seed in any::<u64>(), a in 60usize..68, da in any::<u8>(), b in 60usize..68, db in any::<u8>()) {
        let s = solution(seed);
        let mut p = s.to_vec();
        p[a] = p[a].wrapping_add(da);
        p[b] = p[b].wrapping_add(db);
        check_pair(&p, &s)?;
    }

    #[test]
    fn solution_of_broken_solutions(seed in any::<u64>(), cell in 0usize..81, value in any::<u8>(), keep in 0usize..=8) {
        let mut s = solution(seed);
        let mut rng = Rng::new(seed);
        let p = puzzle_of(&s, &mut rng, keep);
        s[cell] = value;
        check_pair(&p, &s)?;
    }

    #[test]
    fn solution_of_random_bytes(p in prop::collection::vec(any::<u8>(), 81), s in prop::collection::vec(any::<u8>(), 81)) {
        check_pair(&p, &s)?;
    }

    #[test]
    fn solution_of_random_low_nibbles(seed in any::<u64>(), p in prop::collection::vec(0u8..16, 81)) {
        check_pair(&p, &solution(seed))?;
    }

    #[test]
    fn solution_of_another_solutions_givens(a in any::<u64>(), b in any::<u64>(), keep in 0usize..=8) {
        let mut rng = Rng::new(a ^ b);
        let p = puzzle_of(&solution(a), &mut rng, keep);
        check_pair(&p, &solution(b))?;
    }

    #[test]
    fn wrong_lengths_fail(len in 0usize..200) {
        prop_assume!(len != 81);
        let v = vec![1u8; len];
        prop_assert_eq!(lanes(&v), Err(Rejection::WrongLength { len }));
        prop_assert_eq!(solution_of(&v, &[1; 81]), Err(Rejection::Assert(PUZZLE_LENGTH_MESSAGE)));
        prop_assert_eq!(solution_of(&[0; 81], &v), Err(Rejection::Assert(SOLUTION_LENGTH_MESSAGE)));
        prop_assert_eq!(solution_of(&v, &v), Err(Rejection::Assert(PUZZLE_LENGTH_MESSAGE)));
    }
}

#[test]
fn every_cell_every_byte_lanes_and_givens() {
    let s = solution(1);
    for cell in 0..81 {
        for value in 0..=255u8 {
            let mut g = s;
            g[cell] = value;
            assert_eq!(lanes(&g), Ok(rule(&g)), "lanes cell {cell} value {value}");
            let mut p = [0u8; 81];
            p[cell] = value;
            assert_eq!(
                solution_of(&p, &s),
                Ok(solution_rule(&p, &s)),
                "given cell {cell} value {value}"
            );
        }
    }
}

#[test]
fn outcomes_of_the_new_rejections() {
    assert_eq!(
        Outcome::from(solution_of(&[0; 3], &[0; 81])).to_string(),
        "rejected: Puzzle must be 81 bytes long."
    );
    assert_eq!(
        Outcome::from(solution_of(&[0; 81], &[0; 3])).to_string(),
        "rejected: Solution must be 81 bytes long."
    );
    assert_eq!(
        Outcome::from(lanes(&[0; 3])).to_string(),
        "rejected: Grid must be 81 bytes long."
    );
}
