//! Compares this rater's ER/EP/ED with serate's on a file of
//! `PUZZLE ER/EP/ED [...]` lines (serate's `--format "%g %r/%p/%d"`):
//! `cargo run --release -p algoku-rate --example se_agreement -- FILE [-v]`.

use std::time::Instant;

use algoku_rate::rate;
use algoku_sudoku::Grid;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(path) = args.get(1) else {
        eprintln!("usage: se_agreement FILE [-v]");
        std::process::exit(2);
    };
    let verbose = args.iter().any(|a| a == "-v");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(2)
    });
    let (mut n, mut er, mut all, mut unrated) = (0, 0, 0, 0);
    let start = Instant::now();
    for line in text.lines() {
        let mut f = line.split_whitespace();
        let (Some(p), Some(want)) = (f.next(), f.next()) else {
            continue;
        };
        let Ok(grid) = p.parse::<Grid>() else {
            continue;
        };
        n += 1;
        let t = Instant::now();
        let r = rate(&grid);
        let got = r.se.map(|s| s.text()).unwrap_or_else(|| "-".into());
        if r.se.is_none() {
            unrated += 1;
        }
        let want_er = want.split('/').next().unwrap_or("");
        let got_er = got.split('/').next().unwrap_or("");
        if want_er == got_er {
            er += 1;
        }
        if want == got {
            all += 1;
        }
        if verbose && want != got {
            println!(
                "{p} want {want} got {got} ({:?}, {:.2}s) {}",
                r.hardest().map(|t| t.key()),
                t.elapsed().as_secs_f64(),
                f.collect::<Vec<_>>().join(" ")
            );
        }
    }
    println!(
        "{n} puzzles: ER {er} exact, ER/EP/ED {all} exact, {unrated} unrated, {:.2}s",
        start.elapsed().as_secs_f64()
    );
}
