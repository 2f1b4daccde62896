//! Checks every step of the rater against the true solution on a puzzle file
//! (one puzzle per line, '#' lines skipped), e.g. a tdoku data file:
//! `cargo run --release -p algoku-rate --example soundness -- FILE [LIMIT]`.
//! Prints the puzzles checked, the steps and eliminations checked, and the
//! count by verdict; exits 1 at the first unsound step.
use std::collections::BTreeMap;
use std::process::ExitCode;

use algoku_rate::{rate, Board};
use algoku_sudoku::Grid;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: soundness FILE [LIMIT]");
        return ExitCode::from(2);
    };
    let limit: usize = args
        .next()
        .and_then(|s| s.parse().ok())
        .unwrap_or(usize::MAX);
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {path}: {e}");
            return ExitCode::from(2);
        }
    };
    let (mut puzzles, mut steps, mut elims) = (0, 0, 0);
    let mut verdicts: BTreeMap<&str, usize> = BTreeMap::new();
    for line in text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .take(limit)
    {
        let Ok(p) = line.chars().take(81).collect::<String>().parse::<Grid>() else {
            continue;
        };
        let r = rate(&p);
        puzzles += 1;
        *verdicts.entry(r.verdict.key()).or_default() += 1;
        let Some(solution) = r.solution else { continue };
        let mut board = Board::new(&p).expect("a unique puzzle has a board");
        for s in &r.steps {
            let bad_place = s.placement.is_some_and(|(c, d)| solution.cells()[c] != d);
            let bad_elim = s
                .eliminations
                .iter()
                .any(|&(c, d)| solution.cells()[c] == d);
            if bad_place || bad_elim {
                eprintln!("UNSOUND on {p}: {s}");
                return ExitCode::from(1);
            }
            steps += 1;
            elims += s.eliminations.len();
            board.apply(s);
        }
    }
    println!("{path}: {puzzles} puzzles, {steps} steps, {elims} eliminations checked, all sound; {verdicts:?}");
    ExitCode::SUCCESS
}
