//! The 9x9 grid type, its text format, and the validity rules.
//!
//! Cells are numbered 0..81 in row-major order: cell `i` is in row `i / 9`,
//! column `i % 9` and box `3 * (row / 3) + col / 3` (all 0-based). In every
//! human-readable message rows and columns are 1-based: cell 0 is `r1c1`.
//!
//! # Text format
//!
//! A grid is one line of exactly 81 characters (whitespace around it is
//! ignored): `1`-`9` are givens, `.` or `0` are blanks. [`Grid`]'s `Display`
//! writes the same line with `.` for blanks, so `parse` and `to_string`
//! round-trip.
//!
//! # Validity
//!
//! [`Grid::check`] reports the first digit that occurs twice in a unit,
//! scanning the 9 rows, then the 9 columns, then the 9 boxes, each unit in
//! cell order. [`Grid::check_solution`] additionally requires every cell to be
//! filled, and [`Grid::check_solution_of`] also that every given of a puzzle
//! is kept. [`is_valid_solution_bytes`] is the mathematical rule for a solved
//! grid applied to arbitrary bytes.

use std::fmt;
use std::str::FromStr;

use crate::geometry::UNITS;

/// Number of cells in a grid.
pub const CELLS: usize = 81;

/// A 9x9 Sudoku grid. Each cell holds 0 (blank) or a digit 1..=9; the
/// constructors guarantee this invariant.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub struct Grid {
    cells: [u8; 81],
}

impl Default for Grid {
    /// The empty grid (all blanks).
    fn default() -> Self {
        Grid::EMPTY
    }
}

/// Why a grid could not be built from text or from cell values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// The (trimmed) text does not have exactly 81 characters.
    WrongLength {
        /// Number of characters found (Unicode scalar values, after trimming).
        got: usize,
    },
    /// A character is neither `1`-`9`, `.` nor `0`.
    BadChar {
        /// 0-based position of the character in the trimmed text (= cell index).
        index: usize,
        /// The offending character.
        ch: char,
    },
    /// A cell value is greater than 9.
    BadValue {
        /// 0-based cell index.
        index: usize,
        /// The offending value.
        value: u8,
    },
    /// A cell index is 81 or more.
    IndexOutOfRange {
        /// The offending index.
        index: usize,
    },
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ParseError::WrongLength { got } => write!(
                f,
                "wrong length: got {got} characters, expected 81 (one per cell)"
            ),
            ParseError::BadChar { index, ch } => write!(
                f,
                "bad character {ch:?} at position {} (row {}, column {}): expected a digit 1-9, or '.' or '0' for a blank",
                index + 1,
                index / 9 + 1,
                index % 9 + 1
            ),
            ParseError::BadValue { index, value } => write!(
                f,
                "bad value {value} at cell index {index} (row {}, column {}): expected 0 (blank) or 1-9",
                index / 9 + 1,
                index % 9 + 1
            ),
            ParseError::IndexOutOfRange { index } => {
                write!(f, "cell index {index} is out of range: expected 0..=80")
            }
        }
    }
}

impl std::error::Error for ParseError {}

/// A unit of the grid: a row, a column or a box, each numbered 0..9
/// (boxes in row-major order: box 0 is top-left, box 8 bottom-right).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Unit {
    /// Row (0-based).
    Row(u8),
    /// Column (0-based).
    Column(u8),
    /// Box (0-based).
    Box(u8),
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Unit::Row(r) => write!(f, "row {}", u32::from(r) + 1),
            Unit::Column(c) => write!(f, "column {}", u32::from(c) + 1),
            Unit::Box(b) => write!(f, "box {}", u32::from(b) + 1),
        }
    }
}

/// A broken Sudoku rule, or a puzzle's given not kept, as reported by
/// [`Grid::check`], [`Grid::check_solution`] and [`Grid::check_solution_of`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Violation {
    /// `digit` occurs twice in `unit`, at cell indices `first < second`.
    Duplicate {
        /// The unit holding the duplicate.
        unit: Unit,
        /// The repeated digit (1..=9).
        digit: u8,
        /// The earlier cell index (0..81) holding `digit`.
        first: usize,
        /// The later cell index (0..81) holding `digit`.
        second: usize,
    },
    /// A cell is blank where a complete grid was required.
    Empty {
        /// The cell index (0..81).
        cell: usize,
    },
    /// A solution's cell does not hold the puzzle's given there. Cell 0
    /// holding 9 where the given is 8 displays as
    /// "cell r1c1 holds 9, but the puzzle's given there is 8".
    ChangedGiven {
        /// The cell index (0..81).
        cell: usize,
        /// The puzzle's given at `cell` (1..=9).
        given: u8,
        /// The solution's digit at `cell` (1..=9, never `given`).
        found: u8,
    },
}

/// Formats a cell index as `r{row}c{col}`, 1-based.
struct CellName(usize);

impl fmt::Display for CellName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "r{}c{}", self.0 / 9 + 1, self.0 % 9 + 1)
    }
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Violation::Duplicate {
                unit,
                digit,
                first,
                second,
            } => write!(
                f,
                "{unit} has {digit} twice (cells {} and {})",
                CellName(first),
                CellName(second)
            ),
            Violation::Empty { cell } => write!(f, "cell {} is empty", CellName(cell)),
            Violation::ChangedGiven { cell, given, found } => write!(
                f,
                "cell {} holds {found}, but the puzzle's given there is {given}",
                CellName(cell)
            ),
        }
    }
}

impl std::error::Error for Violation {}

/// Row, column and box (all 0-based) of cell `i`.
///
/// `i` should be below 81; for larger `i` the row (and box) are simply out of
/// range (`>= 9`), this function never panics.
pub const fn unit_of(i: usize) -> (usize, usize, usize) {
    let row = i / 9;
    let col = i % 9;
    (row, col, (row / 3) * 3 + col / 3)
}

fn unit_name(u: usize) -> Unit {
    let n = (u % 9) as u8;
    match u / 9 {
        0 => Unit::Row(n),
        1 => Unit::Column(n),
        _ => Unit::Box(n),
    }
}

/// True iff `bytes` is a solved Sudoku: exactly 81 bytes, each in 1..=9, and
/// every row, column and box holds each of 1..=9 exactly once.
///
/// This is the rule itself, for any byte slice (it is what the on-chain
/// verifier checks); it never panics.
pub fn is_valid_solution_bytes(bytes: &[u8]) -> bool {
    if bytes.len() != CELLS {
        return false;
    }
    if bytes.iter().any(|&b| !(1..=9).contains(&b)) {
        return false;
    }
    UNITS.iter().all(|unit| {
        let mut seen = 0u16;
        for &c in unit {
            seen |= 1 << bytes[c as usize];
        }
        seen == 0b11_1111_1110
    })
}

impl Grid {
    /// The empty grid.
    pub const EMPTY: Grid = Grid { cells: [0; 81] };

    /// Parses one line of 81 characters (surrounding whitespace ignored):
    /// `1`-`9` are digits, `.` or `0` are blanks.
    pub fn parse(s: &str) -> Result<Grid, ParseError> {
        let s = s.trim();
        let got = s.chars().count();
        if got != CELLS {
            return Err(ParseError::WrongLength { got });
        }
        let mut cells = [0u8; 81];
        for (index, (cell, ch)) in cells.iter_mut().zip(s.chars()).enumerate() {
            *cell = match ch {
                '1'..='9' => ch as u8 - b'0',
                '.' | '0' => 0,
                _ => return Err(ParseError::BadChar { index, ch }),
            };
        }
        Ok(Grid { cells })
    }

    /// Builds a grid from cell values (0 = blank, 1..=9 digits).
    pub fn from_cells(cells: [u8; 81]) -> Result<Grid, ParseError> {
        if let Some((index, &value)) = cells.iter().enumerate().find(|(_, &v)| v > 9) {
            return Err(ParseError::BadValue { index, value });
        }
        Ok(Grid { cells })
    }

    /// Wraps cells the solver produced. Its digits are `w / 3 + 1 <= 9` by
    /// construction, so the invariant holds; this skips the check.
    pub(crate) const fn from_solver_cells(cells: [u8; 81]) -> Grid {
        Grid { cells }
    }

    /// The 81 cell values, row-major (0 = blank).
    pub const fn cells(&self) -> &[u8; 81] {
        &self.cells
    }

    /// The value of cell `i` (0 = blank), or `None` if `i >= 81`.
    pub fn get(&self, i: usize) -> Option<u8> {
        self.cells.get(i).copied()
    }

    /// Sets cell `i` to `v` (0 = blank). Fails, leaving the grid unchanged,
    /// if `i >= 81` or `v > 9`.
    pub fn set(&mut self, i: usize, v: u8) -> Result<(), ParseError> {
        if v > 9 {
            return Err(ParseError::BadValue { index: i, value: v });
        }
        match self.cells.get_mut(i) {
            Some(cell) => {
                *cell = v;
                Ok(())
            }
            None => Err(ParseError::IndexOutOfRange { index: i }),
        }
    }

    /// True iff no cell is blank (says nothing about validity; see
    /// [`Grid::check_solution`]).
    pub fn is_complete(&self) -> bool {
        self.cells.iter().all(|&c| c != 0)
    }

    /// Number of non-blank cells.
    pub fn clue_count(&self) -> usize {
        self.cells.iter().filter(|&&c| c != 0).count()
    }

    /// The 81-character line with `0` for blanks.
    pub fn to_string_zeros(&self) -> String {
        self.cells.iter().map(|&c| (b'0' + c) as char).collect()
    }

    /// A multi-line human layout: digits separated by spaces, `.` for blanks,
    /// `|` between boxes and a `------+-------+------` line between bands.
    /// Every line (11 of them) ends with `\n`.
    pub fn pretty(&self) -> String {
        let mut out = String::with_capacity(11 * 23);
        for r in 0..9 {
            if r == 3 || r == 6 {
                out.push_str("------+-------+------\n");
            }
            for c in 0..9 {
                if c == 3 || c == 6 {
                    out.push_str(" |");
                }
                if c > 0 {
                    out.push(' ');
                }
                let v = self.cells[r * 9 + c];
                out.push(if v == 0 { '.' } else { (b'0' + v) as char });
            }
            out.push('\n');
        }
        out
    }

    /// Checks that no digit occurs twice in a row, column or box (blanks are
    /// allowed). Reports the first duplicate found: rows are scanned first,
    /// then columns, then boxes, each unit in cell order; `second` is the
    /// first cell that repeats an earlier digit of its unit.
    pub fn check(&self) -> Result<(), Violation> {
        for (u, unit) in UNITS.iter().enumerate() {
            let mut seen_at = [usize::MAX; 10];
            for &c in unit {
                let c = c as usize;
                let d = self.cells[c] as usize;
                if d == 0 {
                    continue;
                }
                if seen_at[d] != usize::MAX {
                    return Err(Violation::Duplicate {
                        unit: unit_name(u),
                        digit: d as u8,
                        first: seen_at[d],
                        second: c,
                    });
                }
                seen_at[d] = c;
            }
        }
        Ok(())
    }

    /// Checks that the grid is a complete, valid solution: first as
    /// [`Grid::check`] (duplicates), then that no cell is blank (the first
    /// blank cell in row-major order is reported).
    pub fn check_solution(&self) -> Result<(), Violation> {
        self.check()?;
        match self.cells.iter().position(|&c| c == 0) {
            Some(cell) => Err(Violation::Empty { cell }),
            None => Ok(()),
        }
    }

    /// Checks that the grid is a complete, valid solution of `puzzle`: first
    /// as [`Grid::check_solution`] (duplicates, then blanks), so a broken rule
    /// is reported before a changed given; then that every given of `puzzle`
    /// holds the same digit here (the first cell that does not, in row-major
    /// order, is reported as [`Violation::ChangedGiven`]).
    ///
    /// The puzzle itself is not checked: a puzzle with a repeated given has
    /// no solution, so every complete valid grid changes one of its givens.
    pub fn check_solution_of(&self, puzzle: &Grid) -> Result<(), Violation> {
        self.check_solution()?;
        let changed = self
            .cells
            .iter()
            .zip(puzzle.cells.iter())
            .position(|(&found, &given)| given != 0 && given != found);
        match changed {
            Some(cell) => Err(Violation::ChangedGiven {
                cell,
                given: puzzle.cells[cell],
                found: self.cells[cell],
            }),
            None => Ok(()),
        }
    }

    /// True iff every given of `self` is present, with the same digit, in
    /// `other` (e.g. a puzzle and its solution).
    pub fn is_subset_of(&self, other: &Grid) -> bool {
        self.cells
            .iter()
            .zip(other.cells.iter())
            .all(|(&a, &b)| a == 0 || a == b)
    }
}

impl fmt::Display for Grid {
    /// The 81-character line with `.` for blanks.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut buf = [0u8; 81];
        for (b, &c) in buf.iter_mut().zip(self.cells.iter()) {
            *b = if c == 0 { b'.' } else { b'0' + c };
        }
        // All bytes are ASCII.
        f.write_str(std::str::from_utf8(&buf).map_err(|_| fmt::Error)?)
    }
}

impl FromStr for Grid {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Grid::parse(s)
    }
}

impl TryFrom<[u8; 81]> for Grid {
    type Error = ParseError;
    fn try_from(cells: [u8; 81]) -> Result<Self, Self::Error> {
        Grid::from_cells(cells)
    }
}

impl From<Grid> for [u8; 81] {
    fn from(g: Grid) -> Self {
        g.cells
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const P: &str =
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";
    const S: &str =
        "468931527751624839392578461134756298289413675675289314846192753513867942927345186";

    #[test]
    fn roundtrip() {
        let g = Grid::parse(P).unwrap();
        assert_eq!(g.to_string(), P);
        assert_eq!(g.clue_count(), 18);
        assert!(!g.is_complete());
        assert_eq!(g.to_string_zeros().replace('0', "."), P);
        assert_eq!(Grid::parse(&g.to_string_zeros()).unwrap(), g);
        assert_eq!(format!("  {P}\r\n").parse::<Grid>().unwrap(), g);
        assert_eq!(Grid::from_cells(*g.cells()).unwrap(), g);
        assert_eq!(Grid::try_from(<[u8; 81]>::from(g)).unwrap(), g);
    }

    #[test]
    fn length_errors() {
        let e = Grid::parse(&P[..80]).unwrap_err();
        assert_eq!(e, ParseError::WrongLength { got: 80 });
        assert!(e.to_string().contains("got 80"), "{e}");
        assert!(e.to_string().contains("expected 81"), "{e}");
        assert_eq!(
            Grid::parse("").unwrap_err(),
            ParseError::WrongLength { got: 0 }
        );
        let long = format!("{P}1");
        assert_eq!(
            Grid::parse(&long).unwrap_err(),
            ParseError::WrongLength { got: 82 }
        );
        // Characters, not bytes, are counted.
        let uni = format!("é{}", &P[1..]);
        assert_eq!(
            Grid::parse(&uni).unwrap_err(),
            ParseError::BadChar { index: 0, ch: 'é' }
        );
    }

    #[test]
    fn bad_char_errors() {
        let mut s = P.to_string();
        s.replace_range(13..14, "x");
        let e = Grid::parse(&s).unwrap_err();
        assert_eq!(e, ParseError::BadChar { index: 13, ch: 'x' });
        let msg = e.to_string();
        assert!(msg.contains("'x'"), "{msg}");
        assert!(msg.contains("position 14"), "{msg}");
        assert!(msg.contains("row 2, column 5"), "{msg}");
        assert!(msg.contains("expected"), "{msg}");
        // An inner space is a bad character too.
        let mut s = P.to_string();
        s.replace_range(40..41, " ");
        assert_eq!(
            Grid::parse(&s).unwrap_err(),
            ParseError::BadChar { index: 40, ch: ' ' }
        );
    }

    #[test]
    fn from_cells_and_set_errors() {
        let mut cells = [0u8; 81];
        cells[77] = 10;
        let e = Grid::from_cells(cells).unwrap_err();
        assert_eq!(
            e,
            ParseError::BadValue {
                index: 77,
                value: 10
            }
        );
        assert!(e.to_string().contains("77"), "{e}");
        assert!(e.to_string().contains("10"), "{e}");
        let mut g = Grid::EMPTY;
        assert!(g.set(81, 1).is_err());
        assert!(g.set(0, 10).is_err());
        assert_eq!(g, Grid::EMPTY);
        g.set(80, 9).unwrap();
        assert_eq!(g.get(80), Some(9));
        assert_eq!(g.get(81), None);
        assert_eq!(Grid::default(), Grid::EMPTY);
    }

    #[test]
    fn pretty_layout() {
        let g = Grid::parse(S).unwrap();
        let p = g.pretty();
        let lines: Vec<&str> = p.lines().collect();
        assert_eq!(lines.len(), 11);
        assert_eq!(lines[0], "4 6 8 | 9 3 1 | 5 2 7");
        assert_eq!(lines[3], "------+-------+------");
        assert_eq!(
            Grid::parse(P).unwrap().pretty().lines().next(),
            Some("4 . . | . 3 . | . . .")
        );
    }

    #[test]
    fn checks() {
        let s = Grid::parse(S).unwrap();
        assert_eq!(s.check(), Ok(()));
        assert_eq!(s.check_solution(), Ok(()));
        assert!(s.is_complete());
        assert!(Grid::parse(P).unwrap().is_subset_of(&s));
        let p = Grid::parse(P).unwrap();
        assert_eq!(p.check(), Ok(()));
        let e = p.check_solution().unwrap_err();
        assert_eq!(e, Violation::Empty { cell: 1 });
        assert_eq!(e.to_string(), "cell r1c2 is empty");

        // Row duplicate: put a 7 at r3c2 and r3c8.
        let mut g = Grid::EMPTY;
        g.set(2 * 9 + 1, 7).unwrap();
        g.set(2 * 9 + 7, 7).unwrap();
        let v = g.check().unwrap_err();
        assert_eq!(
            v,
            Violation::Duplicate {
                unit: Unit::Row(2),
                digit: 7,
                first: 19,
                second: 25
            }
        );
        assert_eq!(v.to_string(), "row 3 has 7 twice (cells r3c2 and r3c8)");

        // The first violation of a grid holding just `cells` (cell, digit).
        let first = |cells: &[(usize, u8)]| {
            let mut g = Grid::EMPTY;
            for &(c, d) in cells {
                g.set(c, d).unwrap();
            }
            g.check().unwrap_err().to_string()
        };
        let column = first(&[(4, 5), (76, 5)]);
        assert_eq!(column, "column 5 has 5 twice (cells r1c5 and r9c5)");
        let in_box = first(&[(80, 1), (60, 1)]);
        assert_eq!(in_box, "box 9 has 1 twice (cells r7c7 and r9c9)");
        // Rows are reported before columns.
        let both = first(&[(0, 2), (9, 2), (79, 3), (80, 3)]);
        assert_eq!(both, "row 9 has 3 twice (cells r9c8 and r9c9)");
    }

    #[test]
    fn solution_of_a_puzzle() {
        let p = Grid::parse(P).unwrap();
        let s = Grid::parse(S).unwrap();
        assert_eq!(s.check_solution_of(&p), Ok(()));
        assert_eq!(s.check_solution_of(&Grid::EMPTY), Ok(()));
        assert_eq!(s.check_solution_of(&s), Ok(()));

        // A valid grid that is not this puzzle's: relabel the digits 4 and 9
        // (every unit still holds 1..9 once), which changes the given at r1c1.
        let mut relabelled = *s.cells();
        for d in relabelled.iter_mut() {
            *d = match *d {
                4 => 9,
                9 => 4,
                other => other,
            };
        }
        let other = Grid::from_cells(relabelled).unwrap();
        assert_eq!(other.check_solution(), Ok(()));
        let v = other.check_solution_of(&p).unwrap_err();
        assert_eq!(
            v,
            Violation::ChangedGiven {
                cell: 0,
                given: 4,
                found: 9
            }
        );
        assert_eq!(
            v.to_string(),
            "cell r1c1 holds 9, but the puzzle's given there is 4"
        );
        // The first changed given in row-major order: with a 9 given at
        // r1c1 that cell is kept, and the given 9 at r4c8 is the next one.
        let mut kept = p;
        kept.set(0, 9).unwrap();
        let v = other.check_solution_of(&kept).unwrap_err();
        assert_eq!(
            v.to_string(),
            "cell r4c8 holds 4, but the puzzle's given there is 9"
        );

        // A broken rule is reported before a changed given.
        let mut swapped = *s.cells();
        swapped.swap(0, 1); // r1c1 = 6 (given 4), and the columns break
        let g = Grid::from_cells(swapped).unwrap();
        assert_eq!(
            g.check_solution_of(&p).unwrap_err().to_string(),
            "column 1 has 6 twice (cells r1c1 and r6c1)"
        );
        // So is a blank cell, even where the puzzle has a given.
        let mut blank = s;
        blank.set(0, 0).unwrap();
        assert_eq!(
            blank.check_solution_of(&p),
            Err(Violation::Empty { cell: 0 })
        );
    }

    #[test]
    fn units() {
        assert_eq!(unit_of(0), (0, 0, 0));
        assert_eq!(unit_of(80), (8, 8, 8));
        assert_eq!(unit_of(31), (3, 4, 4));
        assert_eq!(unit_of(8), (0, 8, 2));
        for (u, cells) in UNITS.iter().enumerate() {
            for &c in cells {
                let (r, col, b) = unit_of(c as usize);
                let want = [r, col, b][u / 9];
                assert_eq!(want, u % 9);
            }
        }
    }

    #[test]
    fn valid_solution_bytes() {
        let s = Grid::parse(S).unwrap();
        assert!(is_valid_solution_bytes(s.cells()));
        assert!(!is_valid_solution_bytes(&s.cells()[..80]));
        assert!(!is_valid_solution_bytes(&[]));
        let mut b = s.cells().to_vec();
        b.push(1);
        assert!(!is_valid_solution_bytes(&b));
        let mut b = *s.cells();
        b[0] = 0;
        assert!(!is_valid_solution_bytes(&b));
        b[0] = 10;
        assert!(!is_valid_solution_bytes(&b));
        // Swapping two cells in a row keeps rows valid but breaks columns.
        let mut b = *s.cells();
        b.swap(0, 1);
        assert!(!is_valid_solution_bytes(&b));
        // A Latin square that is not a Sudoku (boxes broken).
        let mut latin = [0u8; 81];
        for r in 0..9 {
            for c in 0..9 {
                latin[r * 9 + c] = ((r + c) % 9 + 1) as u8;
            }
        }
        assert!(!is_valid_solution_bytes(&latin));
        // A pattern-built valid grid.
        let mut good = [0u8; 81];
        for r in 0..9 {
            for c in 0..9 {
                good[r * 9 + c] = ((r * 3 + r / 3 + c) % 9 + 1) as u8;
            }
        }
        assert!(is_valid_solution_bytes(&good));
        assert_eq!(Grid::from_cells(good).unwrap().check_solution(), Ok(()));
    }
}
