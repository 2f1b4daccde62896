//! What the page asks the engine, as plain functions of bytes returning JSON
//! text (or bytes): the ABI in `lib.rs` only moves their inputs and outputs
//! across the WebAssembly boundary, and the native tests call them directly.
//!
//! Grids are 81 bytes, 0 for a blank and 1..9 for a digit; an address is its
//! 32-byte public key (the page decodes the base32 form with algosdk).

use std::cell::OnceCell;
use std::fmt::Write;

use algoku_avm::{why_false, Outcome};
use algoku_game::{committed_root, lanes, puzzle, verdict, Tree, LANES};
use algoku_rate::{score_text, Board};
use algoku_sudoku::{Grid, Solver};

thread_local! {
    /// The catalogue's Merkle tree, built once (tens of milliseconds in the
    /// browser): every verdict and proof of the game reads it.
    static TREE: OnceCell<Tree> = const { OnceCell::new() };
}

/// Runs `f` with the catalogue tree, building it the first time.
fn with_tree<T>(f: impl FnOnce(&Tree) -> T) -> T {
    TREE.with(|cell| f(cell.get_or_init(Tree::catalogue)))
}

/// Builds the tree ahead of the first verdict (the page calls it when idle).
pub fn prepare() {
    with_tree(|_| ());
}

/// A JSON string literal.
pub(crate) fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for ch in s.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `null` or a JSON string.
pub(crate) fn opt(s: Option<String>) -> String {
    s.map_or_else(|| "null".into(), |s| quote(&s))
}

/// A JSON array of numbers.
pub(crate) fn numbers<T: std::fmt::Display>(xs: impl IntoIterator<Item = T>) -> String {
    let items: Vec<String> = xs.into_iter().map(|x| x.to_string()).collect();
    format!("[{}]", items.join(","))
}

/// The text form of a grid: 81 characters, `.` for a blank.
fn text(cells: &[u8]) -> String {
    cells
        .iter()
        .map(|&d| {
            if (1..=9).contains(&d) {
                (b'0' + d) as char
            } else {
                '.'
            }
        })
        .collect()
}

/// An 81-byte grid of 0..9, or `None`.
fn grid(bytes: &[u8]) -> Option<Grid> {
    let cells: [u8; 81] = bytes.try_into().ok()?;
    Grid::from_cells(cells).ok()
}

/// A 32-byte address, or `None`.
fn address(bytes: &[u8]) -> Option<[u8; 32]> {
    bytes.try_into().ok()
}

/// An address's puzzle on app `app_id`: the catalogue index, the
/// isomorphism and the 81-character puzzle (`algoku game puzzle`).
pub fn game_puzzle(app_id: u64, key: &[u8]) -> String {
    let Some(key) = address(key) else {
        return r#"{"error":"an address is 32 bytes"}"#.into();
    };
    let p = puzzle(app_id, &key);
    let d = &p.derived;
    format!(
        r#"{{"index":{},"transpose":{},"rows":{},"columns":{},"digits":{},"puzzle":{}}}"#,
        d.index,
        d.transpose,
        numbers(d.rows),
        numbers(d.columns),
        numbers(d.digits),
        quote(&text(p.grid.cells()))
    )
}

/// The cells (ascending) that share a row, column or box with another cell
/// of the same digit: what the board highlights as the player types.
pub fn conflicts(cells: &[u8]) -> Vec<usize> {
    let mut hit = [false; 81];
    for a in 0..cells.len().min(81) {
        for b in a + 1..cells.len().min(81) {
            let same_unit =
                a / 9 == b / 9 || a % 9 == b % 9 || (a / 27 == b / 27 && a % 9 / 3 == b % 9 / 3);
            if same_unit && cells[a] != 0 && cells[a] == cells[b] {
                hit[a] = true;
                hit[b] = true;
            }
        }
    }
    (0..81).filter(|&c| hit[c]).collect()
}

/// The game's verdict on the player's grid (`key` ‖ 81 bytes): the
/// conflicts, and once the grid is full the contract's verdict (the native
/// mirror of `solve`, with the catalogue proof) and the reason for a false.
pub fn game_check(app_id: u64, input: &[u8]) -> String {
    let (Some(key), Some(g)) = (
        address(&input[..input.len().min(32)]),
        grid(input.get(32..).unwrap_or(&[])),
    ) else {
        return r#"{"error":"an address (32 bytes) and a grid (81 bytes 0..9) expected"}"#.into();
    };
    let clashes = numbers(conflicts(g.cells()));
    if !g.is_complete() {
        return format!(
            r#"{{"complete":false,"conflicts":{clashes},"verdict":null,"reason":null}}"#
        );
    }
    let p = puzzle(app_id, &key);
    let leaf = p.leaf();
    let answer = with_tree(|tree| {
        verdict(
            &committed_root(),
            app_id,
            &key,
            &leaf,
            &p.proof(tree),
            &lanes(&g),
        )
    });
    let (valid, reason) = match answer {
        Ok(v) => (
            v.to_string(),
            if v {
                None
            } else {
                Some(why_false(g.cells(), Some(p.grid.cells())))
            },
        ),
        Err(e) => ("null".into(), Some(e.to_string())),
    };
    format!(
        r#"{{"complete":true,"conflicts":{clashes},"verdict":{valid},"reason":{}}}"#,
        opt(reason)
    )
}

/// The arguments of the game's `solve` for the player's solution
/// (`key` ‖ 81 bytes): leaf (51 bytes) ‖ proof (1 776) ‖ lanes (162).
pub fn game_args(app_id: u64, input: &[u8]) -> Vec<u8> {
    let (Some(key), Some(g)) = (
        address(&input[..input.len().min(32)]),
        grid(input.get(32..).unwrap_or(&[])),
    ) else {
        return Vec::new();
    };
    let p = puzzle(app_id, &key);
    let mut out = p.leaf().to_vec();
    out.extend(with_tree(|tree| p.proof(tree)));
    out.extend(lanes(&g));
    debug_assert_eq!(out.len(), 51 + algoku_game::PROOF + LANES);
    out
}

/// The mirror of the Algoku contract on raw bytes (`0` ‖ grid, or `1` ‖
/// 81-byte puzzle ‖ grid): each method's outcome as the chain gives it, and
/// the reason for a false (the CLI's `check` and `verify` wording).
pub fn mirror(input: &[u8]) -> String {
    let (puzzle_bytes, bytes) = match input.split_first() {
        Some((1, rest)) if rest.len() >= 81 => (Some(&rest[..81]), &rest[81..]),
        Some((_, rest)) => (None, rest),
        None => (None, input),
    };
    let lanes = Outcome::from(algoku_avm::lanes(bytes));
    let total = Outcome::of_project(bytes);
    let of = puzzle_bytes.map(|p| Outcome::from(algoku_avm::solution_of(p, bytes)));
    let answer = of.as_ref().unwrap_or(&lanes);
    let reason = (answer.verdict() == Some(false)).then(|| why_false(bytes, puzzle_bytes));
    format!(
        r#"{{"is_valid_solution_lanes":{},"is_valid_solution":{},"is_solution_of":{},"verdict":{},"reason":{}}}"#,
        quote(&lanes.to_string()),
        quote(&total.to_string()),
        opt(of.as_ref().map(|o| o.to_string())),
        answer.verdict().map_or("null".into(), |v| v.to_string()),
        opt(reason)
    )
}

/// The solver on an 81-byte puzzle: how many solutions (0, 1, or 2 for
/// "more than one") and the first.
pub fn solve(input: &[u8]) -> String {
    let Some(p) = grid(input) else {
        return r#"{"error":"a puzzle is 81 bytes 0..9"}"#.into();
    };
    if p.check().is_err() {
        return r#"{"count":0,"solution":null}"#.into();
    }
    let r = Solver::new().solve_with_stats(&p, 2);
    let first = r.first.map(|g| text(g.cells()));
    format!(r#"{{"count":{},"solution":{}}}"#, r.solutions, opt(first))
}

/// A hint for the player (81-byte puzzle ‖ 81-byte current grid): a digit
/// that differs from the solution first, else the rater's next step in
/// Sudoku Explainer's order with its technique and score.
pub fn hint(input: &[u8]) -> String {
    let (Some(p), Some(now)) = (
        grid(&input[..input.len().min(81)]),
        grid(input.get(81..).unwrap_or(&[])),
    ) else {
        return r#"{"error":"a puzzle and a grid (81 bytes 0..9 each) expected"}"#.into();
    };
    let Some(solution) = algoku_sudoku::solve(&p) else {
        return r#"{"kind":"unsolvable"}"#.into();
    };
    if let Some(c) = (0..81).find(|&c| now.cells()[c] != 0 && now.cells()[c] != solution.cells()[c])
    {
        return format!(
            r#"{{"kind":"mistake","cell":{c},"text":"r{}c{} is not right"}}"#,
            c / 9 + 1,
            c % 9 + 1
        );
    }
    let Some(step) = Board::new(&now).and_then(|b| b.se_next()) else {
        return r#"{"kind":"none"}"#.into();
    };
    let (cell, digit) = step.placement.map_or((-1, 0), |(c, d)| (c as i32, d));
    format!(
        r#"{{"kind":"step","technique":{},"score":{},"cell":{cell},"digit":{digit},"text":{}}}"#,
        quote(step.technique.name()),
        quote(&score_text(step.tenths)),
        quote(&step.to_string())
    )
}

/// The puzzle's Sudoku Explainer rating (ER) and QQWing level.
pub fn rate(input: &[u8]) -> String {
    let Some(p) = grid(input) else {
        return r#"{"error":"a puzzle is 81 bytes 0..9"}"#.into();
    };
    let r = algoku_rate::rate(&p);
    format!(
        r#"{{"verdict":{},"score":{},"level":{}}}"#,
        quote(r.verdict.key()),
        opt(r.score_tenths().map(score_text)),
        opt(r.level.map(|l| l.name().to_string()))
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const SOLVED: &str =
        "953168742862734951417952836746893125281645397395271468138529674574386219629417583";

    fn bytes(s: &str) -> Vec<u8> {
        s.bytes()
            .map(|c| if c == b'.' { 0 } else { c - b'0' })
            .collect()
    }

    #[test]
    fn the_puzzle_is_the_game_crates() {
        let key = [7u8; 32];
        let p = puzzle(1234, &key);
        let out = game_puzzle(1234, &key);
        assert!(
            out.contains(&format!(r#""puzzle":"{}""#, text(p.grid.cells()))),
            "{out}"
        );
        assert!(
            out.contains(&format!(r#""index":{},"#, p.derived.index)),
            "{out}"
        );
        assert!(game_puzzle(1, &[0; 31]).contains("error"));
    }

    #[test]
    fn the_game_verdict_takes_the_solution_and_names_a_wrong_digit() {
        let key = [3u8; 32];
        let p = puzzle(99, &key);
        let solution = p.solution();
        let mut input = key.to_vec();
        input.extend(solution.cells());
        assert!(game_check(99, &input).contains(r#""verdict":true"#));
        let c = (0..81).find(|&c| p.grid.cells()[c] == 0).unwrap();
        let other = solution.cells()[(c / 9) * 9 + (c % 9 + 1) % 9];
        input[32 + c] = other;
        let out = game_check(99, &input);
        assert!(
            out.contains(r#""verdict":false"#) && out.contains("twice"),
            "{out}"
        );
        assert!(!out.contains(r#""conflicts":[]"#), "{out}");
        assert_eq!(game_args(99, &input).len(), 51 + algoku_game::PROOF + LANES);
    }

    #[test]
    fn conflicts_mark_both_cells_of_a_repeat() {
        let mut cells = [0u8; 81];
        cells[0] = 5;
        cells[80] = 5;
        assert!(conflicts(&cells).is_empty());
        cells[10] = 5; // same box as cell 0
        assert_eq!(conflicts(&cells), vec![0, 10]);
    }

    #[test]
    fn the_mirror_answers_every_input_with_the_clis_reasons() {
        assert!(mirror(&[&[0u8][..], &bytes(SOLVED)].concat()).contains(r#""verdict":true"#));
        let mut g = bytes(SOLVED);
        g.swap(0, 1);
        let out = mirror(&[&[0u8][..], &g].concat());
        assert!(
            out.contains(r#""verdict":false"#) && out.contains("twice"),
            "{out}"
        );
        let out = mirror(&[0u8, 1, 2]);
        assert!(
            out.contains("rejected: Grid must be 81 bytes long."),
            "{out}"
        );
        g = bytes(SOLVED);
        g[4] = 0x16;
        assert!(mirror(&[&[0u8][..], &g].concat()).contains("holds byte 0x16"));
        let mut p = vec![0u8; 81];
        p[0] = 8;
        let out = mirror(&[&[1u8][..], &p, &bytes(SOLVED)].concat());
        assert!(out.contains("the puzzle's given there is 8"), "{out}");
    }

    #[test]
    fn solve_counts_and_hint_names_a_technique() {
        let p = puzzle(5, &[9u8; 32]);
        let out = solve(p.grid.cells());
        assert!(out.contains(r#""count":1"#), "{out}");
        let mut input = p.grid.cells().to_vec();
        input.extend(p.grid.cells());
        let out = hint(&input);
        assert!(
            out.contains(r#""kind":"step""#) && out.contains("technique"),
            "{out}"
        );
        let c = (0..81).find(|&c| p.grid.cells()[c] == 0).unwrap();
        input[81 + c] = p.solution().cells()[c] % 9 + 1;
        assert!(hint(&input).contains(r#""kind":"mistake""#));
        assert!(solve(&bytes(&".".repeat(81))).contains(r#""count":2"#));
    }
}
