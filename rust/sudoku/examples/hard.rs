use algoku_sudoku::{count_solutions, Grid};
fn main() {
    let f = std::env::args().nth(1).unwrap_or("puzzles6_forum_hardest_1106".into());
    let reps: usize = std::env::args().nth(2).and_then(|s| s.parse().ok()).unwrap_or(5);
    let text = std::fs::read_to_string(format!("/work/shared/data/sudoku/{f}")).unwrap();
    let ps: Vec<Grid> = text.lines().filter(|l| !l.is_empty() && !l.starts_with('#')).take(2000).map(|l| Grid::parse(&l[..81]).unwrap()).collect();
    let t = std::time::Instant::now();
    let mut n = 0;
    for _ in 0..reps { for p in &ps { n += count_solutions(std::hint::black_box(p), 2); } }
    eprintln!("{n} {:?}", t.elapsed());
}
