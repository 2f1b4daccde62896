//! The runnable examples of the library crates, run as a user runs them
//! (`cargo run -p CRATE --example NAME`) and checked on what they print.

use std::process::Command;

use algoku_checker::is_minimal_ua;
use algoku_sudoku::generator::{generate_puzzle, PuzzleOptions};
use algoku_sudoku::{count_solutions, Grid};

/// The variables cargo sets for a test binary it runs (besides `CARGO_PKG_*`).
const RUNTIME_ENV: [&str; 8] = [
    "CARGO_MANIFEST_DIR",
    "CARGO_MANIFEST_PATH",
    "CARGO_MANIFEST_LINKS",
    "CARGO_CRATE_NAME",
    "CARGO_BIN_NAME",
    "CARGO_PRIMARY_PACKAGE",
    "CARGO_TARGET_TMPDIR",
    "OUT_DIR",
];

/// Runs an example with the cargo that runs this test (same target
/// directory and profile) and returns its stdout; panics unless it exits 0.
fn example(package: &str, name: &str) -> String {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut command = Command::new(cargo);
    command.current_dir(env!("CARGO_MANIFEST_DIR")).args([
        "run",
        "--locked",
        "--quiet",
        "-p",
        package,
        "--example",
        name,
    ]);
    if !cfg!(debug_assertions) {
        command.arg("--release");
    }
    // What cargo sets for this test binary is not the user's environment: a build
    // script that reruns when one of these changes (ring's, for CARGO_MANIFEST_DIR and
    // CARGO_PKG_NAME) would otherwise be rebuilt here, and again by the next `cargo test`.
    for (key, _) in std::env::vars_os() {
        let key = key.to_string_lossy();
        if key.starts_with("CARGO_PKG_") || RUNTIME_ENV.contains(&key.as_ref()) {
            command.env_remove(key.as_ref());
        }
    }
    let out = command.output().expect("cargo runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{package} example {name} failed ({}):\n{stdout}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// The text after `key` on the line that starts with it.
fn field<'a>(stdout: &'a str, key: &str) -> &'a str {
    stdout
        .lines()
        .find_map(|l| l.strip_prefix(key))
        .unwrap_or_else(|| panic!("no line `{key}` in:\n{stdout}"))
        .trim()
}

fn grid(text: &str) -> Grid {
    let digits = text.split_whitespace().next().unwrap_or("");
    Grid::parse(digits).unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[test]
fn solve_generate_solves_and_generates_deterministically() {
    let out = example("algoku-sudoku", "solve_generate");
    let puzzle = grid(field(&out, "puzzle:"));
    let solution = grid(field(&out, "solution:"));
    assert!(solution.check_solution().is_ok(), "{out}");
    assert!(puzzle.is_subset_of(&solution), "{out}");
    assert_eq!(field(&out, "solutions:"), "1");
    // The generated puzzle is the library's for seed 7, symmetric, and unique.
    let expected = generate_puzzle(&PuzzleOptions {
        seed: 7,
        symmetric: true,
        ..PuzzleOptions::default()
    });
    let generated = grid(field(&out, "generated:"));
    assert_eq!(generated, expected.puzzle);
    assert_eq!(grid(field(&out, "its solution:")), expected.solution);
    assert_eq!(count_solutions(&generated, 2), 1);
    assert_eq!(field(&out, "its solutions:"), "1");
}

#[test]
fn ua_prints_minimal_unavoidable_sets() {
    let out = example("algoku-checker", "ua");
    let g = grid(field(&out, "grid:"));
    let total: usize = field(&out, "minimal unavoidable sets of at most 12 cells:")
        .parse()
        .unwrap();
    let by_size: Vec<(u32, usize)> = out
        .lines()
        .filter_map(|l| l.strip_prefix("size "))
        .map(|l| {
            let (size, n) = l.split_once(": ").unwrap();
            (size.parse().unwrap(), n.parse().unwrap())
        })
        .collect();
    assert_eq!(by_size.iter().map(|&(_, n)| n).sum::<usize>(), total);
    // The smallest unavoidable sets have 4 cells (two digits in a rectangle).
    assert_eq!(by_size.first().map(|&(s, _)| s), Some(4), "{out}");
    assert!(by_size.iter().all(|&(s, _)| (4..=12).contains(&s)), "{out}");
    let sets: Vec<&str> = out
        .lines()
        .filter_map(|l| l.strip_prefix("set: "))
        .collect();
    assert_eq!(sets.len(), 5, "{out}");
    for set in sets {
        let mask = set
            .bytes()
            .enumerate()
            .filter(|&(_, c)| c != b'.')
            .fold(0u128, |m, (i, _)| m | 1 << i);
        // Each pattern keeps the grid's digits on the set's cells.
        for (i, c) in set.bytes().enumerate().filter(|&(_, c)| c != b'.') {
            assert_eq!(c - b'0', g.cells()[i], "{set}");
        }
        assert_eq!(mask.count_ones(), 4, "{set}");
        assert!(is_minimal_ua(g.cells(), mask), "{set}");
    }
}

#[test]
fn verify_deploys_on_the_embedded_evaluator_and_gives_both_verdicts() {
    let out = example("algoku-client", "verify");
    assert_eq!(field(&out, "backend:"), "embedded");
    assert!(field(&out, "deployed: app").contains("µALGO"), "{out}");
    // The one-call method answers for 1 000 µALGO, in one transaction.
    assert_eq!(
        field(&out, "valid grid:"),
        "valid (method lanes, fee 1000 µALGO, 1 transaction(s))"
    );
    assert_eq!(
        field(&out, "changed grid:"),
        "invalid (method lanes, fee 1000 µALGO, 1 transaction(s))"
    );
}
