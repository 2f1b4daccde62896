//! Prints, for every technique, the first generated puzzle (seeds 0..N) whose
//! rating uses it: the source of the per-technique test puzzles.
use algoku_rate::{rate, TECHNIQUES};
use algoku_sudoku::generator::{generate_puzzle, PuzzleOptions};

fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(2000);
    let mut found = vec![None; TECHNIQUES.len()];
    for seed in 0..n {
        let p = generate_puzzle(&PuzzleOptions {
            seed,
            ..Default::default()
        })
        .puzzle;
        let r = rate(&p);
        for (i, t) in TECHNIQUES.iter().enumerate() {
            if found[i].is_none() && r.steps.iter().any(|s| s.technique == *t) {
                found[i] = Some((seed, p.to_string()));
            }
        }
        if found.iter().all(Option::is_some) {
            break;
        }
    }
    for (t, f) in TECHNIQUES.iter().zip(found) {
        println!("{:20} {:?}", t.key(), f);
    }
}
