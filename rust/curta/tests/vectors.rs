//! Every ground-truth vector from the real contract (run in an EVM) must match exactly, and
//! the README's claims about generated starts are checked.

mod common;

use algoku_curta::{
    count_solutions, generate, is_valid_solution, parse_address, solve, verify, Board,
};
use common::{generate_vectors, verify_vectors};

/// The generated starts (of the vectors in `tests/data/generate.jsonl`) that have no
/// solution: (address, start).
const UNSOLVABLE_GENERATED: &[(&str, &str)] = &[(
    "0x1c8471dc1afc82e8e1e87f7e3e1567f10c11707d",
    "0000000000000007000000000500000034080000000002100000000000000060",
)];

#[test]
fn all_generate_vectors_match() {
    let vectors = generate_vectors();
    assert_eq!(vectors.len(), 100);
    for v in &vectors {
        let bytes = parse_address(&v.address).unwrap();
        assert_eq!(bytes.len(), 20, "{}", v.address);
        let got = generate(&bytes);
        assert_eq!(got.to_hex(), v.puzzle.to_hex(), "generate({})", v.address);
    }
}

#[test]
fn all_verify_vectors_match() {
    let vectors = verify_vectors();
    assert_eq!(vectors.len(), 456);
    let mut valid = 0;
    for v in &vectors {
        let got = verify(&v.start, &v.solution);
        assert_eq!(
            got,
            v.valid,
            "verify case {} start {} solution {}",
            v.case,
            v.start.to_hex(),
            v.solution.to_hex()
        );
        // The rule agrees on every vector, and names a violation whenever verify fails.
        assert_eq!(
            is_valid_solution(&v.start, &v.solution).is_ok(),
            v.valid,
            "rule on case {}: {:?}",
            v.case,
            is_valid_solution(&v.start, &v.solution)
        );
        valid += usize::from(v.valid);
    }
    assert_eq!(valid, 71);
}

#[test]
fn generated_starts_have_eight_givens_holding_one_to_eight_once() {
    for v in generate_vectors() {
        let mut digits: Vec<u8> = v.puzzle.cells().into_iter().filter(|&d| d != 0).collect();
        digits.sort_unstable();
        assert_eq!(digits, [1, 2, 3, 4, 5, 6, 7, 8], "{}", v.address);
        assert_eq!(v.puzzle.givens(), 8);
    }
}

#[test]
fn exactly_the_known_generated_starts_are_unsolvable() {
    let mut unsolvable = Vec::new();
    for v in generate_vectors() {
        match solve(&v.puzzle) {
            None => {
                assert_eq!(count_solutions(&v.puzzle, 2), 0);
                unsolvable.push((v.address.clone(), v.puzzle.to_hex()));
            }
            Some(sol) => {
                assert!(verify(&v.puzzle, &sol), "{}", v.address);
                // 8 givens never pin down a unique solution.
                assert_eq!(count_solutions(&v.puzzle, 2), 2, "{}", v.address);
            }
        }
    }
    let want: Vec<(String, String)> = UNSOLVABLE_GENERATED
        .iter()
        .map(|&(a, s)| (a.to_string(), s.to_string()))
        .collect();
    assert_eq!(unsolvable, want);
    assert!(
        !unsolvable.is_empty(),
        "the README says some starts are unsolvable"
    );
}

/// Why 0x1c84…707d's start is dead: row 3's left half (squares 24..27, in box 2) must avoid
/// 3, 4, 8 (given in row 3) and 1, 2 (given in box 2), leaving only 5, 6, 7 for 4 squares.
#[test]
fn the_unsolvable_start_fails_by_pigeonhole() {
    let start = Board::from_hex(UNSOLVABLE_GENERATED[0].1).unwrap();
    let row3: Vec<u8> = (24..32)
        .map(|k| start.cell(k))
        .filter(|&d| d != 0)
        .collect();
    let box2: Vec<u8> = [16, 17, 18, 19, 24, 25, 26, 27]
        .iter()
        .map(|&k| start.cell(k))
        .filter(|&d| d != 0)
        .collect();
    assert_eq!(row3, [8, 4, 3]);
    assert_eq!(box2, [1, 2]);
    assert!((24..28).all(|k| start.cell(k) == 0));
    let left: Vec<u8> = (1..=8)
        .filter(|d| !row3.contains(d) && !box2.contains(d))
        .collect();
    assert_eq!(left, [5, 6, 7]);
}

#[test]
fn starts_of_verify_vectors_are_consistent_with_the_solver() {
    for v in verify_vectors() {
        let n = count_solutions(&v.start, 1);
        if v.valid {
            assert_eq!(
                n, 1,
                "a start with a valid solution is solvable: {}",
                v.case
            );
        }
        if n == 0 {
            assert!(!v.valid, "{}", v.case);
        } else {
            let sol = solve(&v.start).unwrap();
            assert!(verify(&v.start, &sol), "{}", v.case);
        }
    }
}

/// Generating many more starts (addresses 0x00..01 to 0x00..07d0): some are unsolvable (a
/// small but real fraction: docs/benchmarks.md), and every start has 8 givens.
#[test]
fn unsolvable_starts_among_more_addresses() {
    let mut dead = Vec::new();
    for n in 1u32..=2000 {
        let mut addr = [0u8; 20];
        addr[16..].copy_from_slice(&n.to_be_bytes());
        let start = generate(&addr);
        assert_eq!(start.givens(), 8);
        if count_solutions(&start, 1) == 0 {
            dead.push(n);
        }
    }
    assert_eq!(dead, [220, 541, 888, 1464, 1632, 1688, 1840]);
    let addr = parse_address("0x00000000000000000000000000000000000000dc").unwrap();
    assert_eq!(
        generate(&addr).to_hex(),
        "0068000000004270000000003000000000000000000001000000005000000000"
    );
}
