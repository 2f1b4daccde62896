//! Prints the Sudoku Explainer scorer's steps for one puzzle:
//! `cargo run --release -p algoku-rate --example se_steps -- PUZZLE`.

fn main() {
    let Some(text) = std::env::args().nth(1) else {
        eprintln!("usage: se_steps PUZZLE");
        std::process::exit(2);
    };
    let grid: algoku_sudoku::Grid = match text.parse() {
        Ok(g) => g,
        Err(e) => {
            eprintln!("puzzle: {e}");
            std::process::exit(2);
        }
    };
    let r = algoku_rate::rate(&grid);
    for s in &r.steps {
        println!("{} {s}", algoku_rate::score_text(s.tenths));
    }
    println!("{:?}", r.se.map(|s| s.text()));
}
