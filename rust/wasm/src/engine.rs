//! What the page asks the engine, as plain functions of bytes returning JSON
//! text (or bytes): the ABI in `lib.rs` only moves their inputs and outputs
//! across the WebAssembly boundary, and the native tests call them directly.
//!
//! Grids are 81 bytes, 0 for a blank and 1..9 for a digit; an address is its
//! 32-byte public key (the page decodes the base32 form with algosdk).

use std::cell::RefCell;
use std::rc::Rc;

use algoku_avm::{why_false, Outcome};
use algoku_game::shard::shard_of;
use algoku_game::{committed_root, derive, lanes, verdict, Puzzle, Shard, LANES, SHARDS};
use algoku_sudoku::Solver;

use crate::json::{grid, numbers, opt, quote, text};

thread_local! {
    /// The catalogue shards the page has handed over: the module carries no
    /// catalogue, so a first view fetches the one shard its puzzle is in.
    static SHARD: RefCell<Vec<Option<Rc<Shard>>>> = RefCell::new(vec![None; SHARDS]);
}

/// Takes catalogue shard `number`'s records (checked against the committed
/// root): `{"ok":true}` or `{"error":…}`.
pub fn catalogue_shard(number: usize, records: &[u8]) -> String {
    match Shard::new(number, records) {
        Ok(shard) => {
            SHARD.with(|s| s.borrow_mut()[number] = Some(Rc::new(shard)));
            r#"{"ok":true}"#.into()
        }
        Err(e) => format!(r#"{{"error":{}}}"#, quote(&e.to_string())),
    }
}

/// The catalogue shard an address's puzzle on app `app_id` is in (what the
/// page fetches before asking for the puzzle): `{"shard":n}`.
pub fn game_shard(app_id: u64, key: &[u8]) -> String {
    let Some(key) = address(key) else {
        return r#"{"error":"an address is 32 bytes"}"#.into();
    };
    format!(r#"{{"shard":{}}}"#, shard_of(derive(app_id, &key).index))
}

/// The puzzle of `key` on `app_id` and the shard it is in, or the error
/// JSON when its shard is not loaded.
fn puzzle(app_id: u64, key: &[u8; 32]) -> Result<(Puzzle, Rc<Shard>), String> {
    let derived = derive(app_id, key);
    let number = shard_of(derived.index);
    let shard = SHARD
        .with(|s| s.borrow()[number].clone())
        .ok_or_else(|| format!(r#"{{"error":"catalogue shard {number} is not loaded"}}"#))?;
    let givens = shard.givens(derived.index);
    Ok((Puzzle::new(derived, givens), shard))
}

/// The public key of a 58-character Algorand address (its checksum
/// checked): `{"key":[32 numbers]}` or `{"error":…}`.
pub fn address_key(text: &[u8]) -> String {
    let text = String::from_utf8_lossy(text);
    if text.chars().count() != 58 {
        return r#"{"error":"an Algorand address is 58 characters"}"#.into();
    }
    match algoku_curta::parse_address(&text) {
        Ok(key) => format!(r#"{{"key":{}}}"#, numbers(key)),
        Err(e) => format!(r#"{{"error":{}}}"#, quote(&e.to_string())),
    }
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
    let p = match puzzle(app_id, &key) {
        Ok((p, _)) => p,
        Err(e) => return e,
    };
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
    let (p, shard) = match puzzle(app_id, &key) {
        Ok(found) => found,
        Err(e) => return e,
    };
    let proof = shard.proof(p.derived.index);
    let answer = verdict(
        &committed_root(),
        app_id,
        &key,
        &p.leaf(),
        &proof,
        &lanes(&g),
    );
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
/// (`key` ‖ 81 bytes): leaf (51 bytes) ‖ proof (1 776) ‖ lanes (162);
/// empty when the input is wrong or the puzzle's shard is not loaded.
pub fn game_args(app_id: u64, input: &[u8]) -> Vec<u8> {
    let (Some(key), Some(g)) = (
        address(&input[..input.len().min(32)]),
        grid(input.get(32..).unwrap_or(&[])),
    ) else {
        return Vec::new();
    };
    let Ok((p, shard)) = puzzle(app_id, &key) else {
        return Vec::new();
    };
    let mut out = p.leaf().to_vec();
    out.extend(shard.proof(p.derived.index));
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

#[cfg(test)]
mod tests {
    use super::*;
    use algoku_game::catalogue::{CATALOGUE, RECORD};
    use algoku_game::puzzle;
    use algoku_game::shard::span;

    /// Hands every shard to the engine, as the page does one at a time.
    fn load_catalogue() {
        for n in 0..SHARDS {
            let (first, count) = span(n);
            let out = catalogue_shard(n, &CATALOGUE[first * RECORD..(first + count) * RECORD]);
            assert_eq!(out, r#"{"ok":true}"#);
        }
    }

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
        let shard = shard_of(puzzle(1234, &key).derived.index);
        assert!(game_puzzle(1234, &key).contains("is not loaded"));
        assert_eq!(game_shard(1234, &key), format!(r#"{{"shard":{shard}}}"#));
        assert!(catalogue_shard(shard, &[0; 19]).contains("error"));
        load_catalogue();
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
        load_catalogue();
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
    fn an_address_is_decoded_with_its_checksum() {
        let zero = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAY5HFKQ";
        assert_eq!(
            address_key(zero.as_bytes()),
            format!(r#"{{"key":{}}}"#, numbers([0u8; 32]))
        );
        let bad = zero.replace("Y5HFKQ", "Y5HFKA");
        assert!(address_key(bad.as_bytes()).contains("error"));
        assert!(address_key(b"0x00").contains("58 characters"));
    }

    #[test]
    fn solve_counts_the_solutions() {
        let p = puzzle(5, &[9u8; 32]);
        let out = solve(p.grid.cells());
        assert!(out.contains(r#""count":1"#), "{out}");
        assert!(solve(&bytes(&".".repeat(81))).contains(r#""count":2"#));
    }
}
