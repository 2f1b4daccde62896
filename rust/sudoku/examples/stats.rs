use algoku_sudoku::{count_solutions, solve, Grid, Solver};
use std::time::Instant;
fn main() {
    let dir = "/work/shared/data/sudoku/";
    let limit: usize = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(3000);
    // peer (sudoku 0.8) rates measured with the bench: first, upto2
    let peer = [(326e3, 285e3), (102e3, 44e3), (16.5e3, 8.0e3), (12.3e3, 4.2e3), (273e3, 245e3)];
    for (k, f) in ["puzzles2_17_clue","puzzles3_magictour_top1465","puzzles5_forum_hardest_1905_11+","puzzles6_forum_hardest_1106","puzzles7_serg_benchmark"].iter().enumerate() {
        let text = std::fs::read_to_string(format!("{dir}{f}")).unwrap();
        let ps: Vec<Grid> = text.lines().filter(|l| !l.is_empty() && !l.starts_with('#')).take(limit).map(|l| Grid::parse(&l[..81]).unwrap()).collect();
        let mut s = Solver::new();
        let (mut g1, mut g2) = (0u64, 0u64);
        for p in &ps { g1 += s.solve_with_stats(p, 1).guesses; g2 += s.solve_with_stats(p, 2).guesses; }
        let n = ps.len() as f64;
        let mut best1 = f64::MAX; let mut best2 = f64::MAX;
        for _ in 0..3 {
            let t = Instant::now(); for p in &ps { std::hint::black_box(solve(std::hint::black_box(p))); } best1 = best1.min(t.elapsed().as_secs_f64());
            let t = Instant::now(); for p in &ps { std::hint::black_box(count_solutions(std::hint::black_box(p), 2)); } best2 = best2.min(t.elapsed().as_secs_f64());
        }
        let (r1, r2) = (n / best1, n / best2);
        println!("{:12} g1 {:7.2} g2 {:7.2} | first {:8.0} ({:.2}) upto2 {:8.0} ({:.2})", &f[..12], g1 as f64 / n, g2 as f64 / n, r1, r1/peer[k].0, r2, r2/peer[k].1);
    }
}
