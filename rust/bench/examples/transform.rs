//! Prints a random isomorph of every puzzle of a file (tdoku's format: one
//! puzzle per line, `#` comments and empty lines skipped), one per line with
//! `.` for blanks, deterministically for a seed:
//!
//! ```text
//! cargo run -p algoku-bench --example transform -- --seed S FILE
//! ```
//!
//! The transform (digits relabelled, rows within bands, bands, columns within
//! stacks and stacks permuted, maybe transposed) is
//! `algoku_sudoku::transform::isomorphs`, the one the `versus_tdoku` bench uses.

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut seed = 1u64;
    let mut file = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--seed" => match args.next().and_then(|v| v.parse().ok()) {
                Some(s) => seed = s,
                None => {
                    eprintln!("error: --seed needs an unsigned integer");
                    return ExitCode::from(2);
                }
            },
            _ if file.is_none() && !a.starts_with("--") => file = Some(PathBuf::from(a)),
            _ => {
                eprintln!("error: unexpected argument {a:?}; usage: transform --seed S FILE");
                return ExitCode::from(2);
            }
        }
    }
    let Some(file) = file else {
        eprintln!("error: no FILE; usage: transform --seed S FILE");
        return ExitCode::from(2);
    };
    let puzzles = match algoku_bench::load_puzzles(&file, usize::MAX) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for g in algoku_sudoku::transform::isomorphs(&puzzles, seed) {
        if writeln!(out, "{g}").is_err() {
            return ExitCode::SUCCESS; // closed pipe
        }
    }
    let _ = out.flush();
    ExitCode::SUCCESS
}
