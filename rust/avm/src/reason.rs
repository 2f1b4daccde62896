//! Why the contract answers `false`: the first rule the bytes it was given
//! break, in the words every front end uses (the CLI's `check` and `verify`,
//! the web page). The verdict itself is the mirror's ([`crate::Outcome`]);
//! this names the reason.

use algoku_sudoku::Grid;

use crate::GRID_SIZE;

/// What a `false` verdict says when the mirror finds nothing wrong (the
/// mirror and the contract agree on every input, so this is not expected).
pub const REJECTED: &str = "rejected by the contract's check";

/// Why the contract answers `false` for `solution` (the grid of `verify`, or
/// with `puzzle` the solution of `is_solution_of`): the mirror's reason (see
/// [`violation`]), else [`REJECTED`].
pub fn why_false(solution: &[u8], puzzle: Option<&[u8]>) -> String {
    violation(solution, puzzle).unwrap_or_else(|| REJECTED.to_string())
}

/// The first rule `bytes` breaks, or `None` for a solved Sudoku: the length,
/// then a byte above 9, then `algoku_sudoku`'s check (duplicates, then
/// blanks). With `puzzle` (`is_solution_of`), then the puzzle's length, then
/// the first puzzle given the solution does not keep
/// ([`Grid::check_solution_of`]; a puzzle byte above 9 is a given no digit
/// keeps).
pub fn violation(bytes: &[u8], puzzle: Option<&[u8]>) -> Option<String> {
    let grid = match grid_of(bytes) {
        Ok(grid) => grid,
        Err(why) => return Some(why),
    };
    let Some(puzzle) = puzzle else {
        return grid.check_solution().err().map(|v| v.to_string());
    };
    match grid_of(puzzle) {
        Ok(puzzle) => grid.check_solution_of(&puzzle).err().map(|v| v.to_string()),
        Err(why) => Some(match grid.check_solution() {
            Err(v) => v.to_string(),
            Ok(()) => format!("the puzzle: {why}"),
        }),
    }
}

/// The grid of 81 bytes 0..=9, or why `bytes` are not one.
fn grid_of(bytes: &[u8]) -> Result<Grid, String> {
    let Ok(cells) = <[u8; GRID_SIZE]>::try_from(bytes) else {
        return Err(format!("{GRID_SIZE} bytes expected, got {}", bytes.len()));
    };
    if let Some((i, b)) = cells.iter().enumerate().find(|(_, &b)| b > 9) {
        return Err(format!(
            "cell {i} (r{}c{}) holds byte {b:#04x}, not a digit 1..9",
            i / 9 + 1,
            i % 9 + 1
        ));
    }
    // Every byte is at most 9 here, so this never fails; never panic.
    Grid::from_cells(cells).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    const SOLVED: &str =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

    /// The bytes of a grid written as digits.
    fn digits(text: &str) -> Vec<u8> {
        text.bytes().map(|c| c - b'0').collect()
    }

    #[test]
    fn reasons_name_length_bytes_and_duplicates() {
        assert_eq!(
            violation(&[1; 80], None).unwrap(),
            "81 bytes expected, got 80"
        );
        let mut bytes = digits(SOLVED);
        bytes[5] = 0x10;
        assert_eq!(
            violation(&bytes, None).unwrap(),
            "cell 5 (r1c6) holds byte 0x10, not a digit 1..9"
        );
        bytes[5] = bytes[0];
        assert!(violation(&bytes, None)
            .unwrap()
            .starts_with("row 1 has 5 twice"));
        assert_eq!(violation(&digits(SOLVED), None), None);
    }

    #[test]
    fn reasons_against_a_puzzle_name_rules_first_then_changed_givens() {
        let solved = digits(SOLVED);
        let mut puzzle = solved.clone();
        for (i, b) in puzzle.iter_mut().enumerate() {
            if i % 3 != 0 {
                *b = 0;
            }
        }
        assert_eq!(violation(&solved, Some(&puzzle)), None);
        assert_eq!(why_false(&solved, Some(&puzzle)), REJECTED);
        // A given the solution does not keep.
        let mut other = puzzle.clone();
        other[0] = 8;
        assert_eq!(
            why_false(&solved, Some(&other)),
            "cell r1c1 holds 5, but the puzzle's given there is 8"
        );
        // A broken rule comes first.
        let mut broken = solved.clone();
        broken.swap(0, 1);
        assert_eq!(
            why_false(&broken, Some(&other)),
            "column 1 has 3 twice (cells r1c1 and r9c1)"
        );
        // A puzzle that is not a grid: its length, or a byte no digit keeps.
        assert_eq!(
            why_false(&solved, Some(&[0; 80])),
            "the puzzle: 81 bytes expected, got 80"
        );
        other[2] = 0x10;
        assert_eq!(
            why_false(&solved, Some(&other)),
            "the puzzle: cell 2 (r1c3) holds byte 0x10, not a digit 1..9"
        );
        assert!(why_false(&broken, Some(&other)).starts_with("column 1 has 3 twice"));
    }
}
