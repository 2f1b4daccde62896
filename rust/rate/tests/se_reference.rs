//! Sudoku Explainer agreement: puzzles rated by `serate` (see
//! `tests/data/README.md`), compared ER/EP/ED for ER/EP/ED.

use std::sync::OnceLock;

use algoku_rate::rate;
use algoku_sudoku::Grid;

type Rows = Vec<(String, String, String)>;

fn exact_rows() -> &'static Rows {
    static ROWS: OnceLock<Rows> = OnceLock::new();
    ROWS.get_or_init(|| compare(include_str!("data/serate_exact.txt")))
}

/// ER in tenths.
fn er(text: &str) -> i32 {
    let er = text.split('/').next().unwrap_or("");
    (er.parse::<f64>().unwrap_or(99.0) * 10.0).round() as i32
}

/// (puzzle, serate's ER/EP/ED, ours).
fn compare(text: &str) -> Vec<(String, String, String)> {
    text.lines()
        .filter_map(|l| {
            let mut f = l.split_whitespace();
            let (p, want) = (f.next()?, f.next()?);
            let grid: Grid = p.parse().expect("fixture puzzles parse");
            let got = rate(&grid)
                .se
                .map_or_else(|| "unrated".to_string(), |s| s.text());
            Some((p.to_string(), want.to_string(), got))
        })
        .collect()
}

#[test]
fn exact_on_the_reference_puzzles() {
    let rows = exact_rows();
    assert!(rows.len() >= 788, "{}", rows.len());
    let wrong: Vec<String> = rows
        .iter()
        .filter(|(_, want, got)| want != got)
        .map(|(p, want, got)| format!("{p} serate {want} ours {got}"))
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_reference_covers_the_scale_and_the_direct_techniques() {
    let rows = exact_rows();
    for want in [
        12, 15, 17, 20, 23, 25, 26, 30, 40, 42, 43, 45, 55, 56, 57, 63, 68, 72, 83, 90, 93, 102,
        103, 104, 105, 115,
    ] {
        assert!(
            rows.iter().any(|r| er(&r.1) == want),
            "no ER {want} in the reference"
        );
    }
}
