//! CPU seconds of the N-clue search per grid (UA collection + search, one
//! thread): `cargo run --release -p algoku-checker --example speed --
//! [--baseline] N GRID...` (`--baseline`: without the AVX2 code).
//! User CPU time from /proc (less sensitive to a loaded machine than wall time).

use algoku_checker::search::{search_with, Code};
use algoku_checker::{search_sets, with_threads, SearchOptions};
use algoku_sudoku::{is_valid_solution_bytes, Grid};

fn cpu() -> f64 {
    let s = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let f: Vec<&str> = s
        .rsplit(')')
        .next()
        .unwrap_or("")
        .split_whitespace()
        .collect();
    f.get(11).and_then(|x| x.parse::<f64>().ok()).unwrap_or(0.0) / 100.0
}

fn main() -> std::process::ExitCode {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: speed [--baseline] N GRID... (N clues, solved grids of 81 digits)";
    let code = if args.first().is_some_and(|a| a == "--baseline") {
        args.remove(0);
        Code::Baseline
    } else {
        Code::Auto
    };
    eprintln!(
        "lower levels: {}",
        if code.uses_avx2() { "AVX2" } else { "baseline" }
    );
    let Some(clues) = args.first().and_then(|n| n.parse::<usize>().ok()) else {
        eprintln!("{usage}");
        return std::process::ExitCode::from(2);
    };
    let mut total = 0.0;
    for g in &args[1..] {
        let cells = match Grid::parse(g) {
            Ok(grid) if is_valid_solution_bytes(grid.cells()) => *grid.cells(),
            _ => {
                eprintln!("not a solved grid: {g}\n{usage}");
                return std::process::ExitCode::from(2);
            }
        };
        let (c0, t0) = (cpu(), std::time::Instant::now());
        let opts = SearchOptions {
            clues,
            given: 0,
            threads: 1,
            max_found: 1_000_000,
        };
        let r = with_threads(1, || {
            search_with(&cells, &search_sets(&cells, clues), &opts, &|_, _| {}, code)
        });
        let cpu_s = cpu() - c0;
        total += cpu_s;
        println!(
            "{} found {} nodes {} solves {} learned {} cpu {:.2} wall {:.2}",
            &g[..9],
            r.puzzles.len(),
            r.nodes,
            r.solves,
            r.learned,
            cpu_s,
            t0.elapsed().as_secs_f64()
        );
    }
    println!("total cpu {total:.2}");
    std::process::ExitCode::SUCCESS
}
