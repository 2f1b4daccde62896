//! The 8x8 game "2 x 4 = 8" (Curta) for the page: an address's start and
//! solution, and the contract's verdict on a board, as `algoku-curta` (the
//! contract's native mirror) gives them: the same as `algoku curta generate`
//! and `algoku curta verify`.
//!
//! A board here is 64 bytes in row-major order (square 0 first: row `k / 8`,
//! column `k % 8`), 0 for a blank and 1..8 for a digit; the JSON also gives
//! the contract's form, the `uint256` as 64 hex digits (square 0 last).
//!
//! ```text
//!   col 0 1 2 3 | 4 5 6 7     boxes: 2 rows × 4 columns
//!   row 0       |              box of square k: (row / 2) * 2 + col / 4
//!   row 1       |
//!   ------------+---------
//! ```

use algoku_curta::{generate, is_valid_solution, solve, Board};

use crate::json::{numbers, opt, quote};

/// The board of 64 bytes, or `None`.
fn board(bytes: &[u8]) -> Option<Board> {
    let cells: [u8; 64] = bytes.try_into().ok()?;
    Some(Board::from_cells(cells))
}

/// Row-major digits, `.` for a blank.
fn text(b: &Board) -> String {
    b.cells()
        .iter()
        .map(|&d| if d == 0 { '.' } else { (b'0' + d) as char })
        .collect()
}

/// The start of the player with this 32-byte address, and its solution:
/// `{"start": hex, "cells": row-major text, "solution": hex or null,
/// "solution_cells": text or null}`.
pub fn curta_start(key: &[u8]) -> String {
    if key.len() != 32 {
        return r#"{"error":"an address is 32 bytes"}"#.into();
    }
    let start = generate(key);
    let solution = solve(&start);
    format!(
        r#"{{"start":{},"cells":{},"solution":{},"solution_cells":{}}}"#,
        quote(&start.to_hex()),
        quote(&text(&start)),
        opt(solution.map(|s| s.to_hex())),
        opt(solution.map(|s| text(&s)))
    )
}

/// The squares (ascending) that share a row, column or box with another
/// square of the same digit.
pub fn conflicts(cells: &[u8; 64]) -> Vec<usize> {
    let unit = |k: usize| (k / 8, 8 + k % 8, 16 + (k / 16) * 2 + (k % 8) / 4);
    let mut hit = [false; 64];
    for a in 0..64 {
        for b in a + 1..64 {
            let (ua, ub) = (unit(a), unit(b));
            let shared = ua.0 == ub.0 || ua.1 == ub.1 || ua.2 == ub.2;
            if shared && cells[a] != 0 && cells[a] == cells[b] {
                hit[a] = true;
                hit[b] = true;
            }
        }
    }
    (0..64).filter(|&k| hit[k]).collect()
}

/// The contract's verdict on a board (`start` ‖ `board`, 64 bytes each):
/// `{"complete", "conflicts", "verdict": bool or null, "reason": text or null,
/// "solution": hex}` — once the board is full, `solve(solution)` would answer
/// `verdict`, and `reason` says why not.
pub fn curta_check(input: &[u8]) -> String {
    let (Some(start), Some(now)) = (
        board(&input[..input.len().min(64)]),
        board(input.get(64..).unwrap_or(&[])),
    ) else {
        return r#"{"error":"a start and a board (64 bytes 0..8 each) expected"}"#.into();
    };
    let cells = now.cells();
    let clashes = numbers(conflicts(&cells));
    if cells.contains(&0) {
        return format!(
            r#"{{"complete":false,"conflicts":{clashes},"verdict":null,"reason":null,"solution":null}}"#
        );
    }
    let (verdict, reason) = match is_valid_solution(&start, &now) {
        Ok(()) => (true, None),
        Err(v) => (false, Some(v.to_string())),
    };
    format!(
        r#"{{"complete":true,"conflicts":{clashes},"verdict":{verdict},"reason":{},"solution":{}}}"#,
        opt(reason),
        quote(&now.to_hex())
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_start_is_generate_and_its_solution_passes_the_check() {
        let key = [7u8; 32];
        let start = generate(&key);
        let out = curta_start(&key);
        assert!(out.contains(&start.to_hex()), "{out}");
        let solution = solve(&start).expect("solvable");
        let mut input = start.cells().to_vec();
        input.extend(solution.cells());
        let check = curta_check(&input);
        assert!(check.contains(r#""verdict":true"#), "{check}");
        // A start square changed: not a solution of this start.
        let mut wrong = solution.cells();
        let k = (0..64).find(|&k| start.cells()[k] != 0).unwrap();
        wrong[k] = wrong[k] % 8 + 1;
        let mut input = start.cells().to_vec();
        input.extend(wrong);
        let check = curta_check(&input);
        assert!(
            check.contains(r#""verdict":false"#) && check.contains("reason"),
            "{check}"
        );
        assert!(!conflicts(&wrong).is_empty());
    }

    #[test]
    fn bad_inputs_are_errors() {
        assert!(curta_start(&[1; 31]).contains("error"));
        assert!(curta_check(&[0; 100]).contains("error"));
    }
}
