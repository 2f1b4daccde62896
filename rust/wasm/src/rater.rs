//! The rater's side of the page, a module of its own (`rater.wasm`): the
//! puzzle's Sudoku Explainer score and QQWing level, and the next step as a
//! hint. The page loads it in a worker once the board is up, so the rater's
//! code is neither in the first load nor on the main thread.

use algoku_rate::{score_text, Board};

use crate::json::{grid, opt, quote};

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
    use algoku_game::puzzle;

    #[test]
    fn a_hint_names_a_technique_or_a_mistake_and_the_rating_has_a_score() {
        let p = puzzle(5, &[9u8; 32]);
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
        let out = rate(p.grid.cells());
        assert!(
            out.contains(r#""verdict":"solved""#) && out.contains(r#""score":""#),
            "{out}"
        );
        assert!(rate(&[0; 80]).contains("error"));
    }
}
