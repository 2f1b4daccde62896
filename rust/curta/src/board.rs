//! The 8x8 board packed in a `uint256`, exactly as the Solidity contract stores it.
//!
//! # Bit layout
//!
//! Square `k` (0..64) is row `k / 8`, column `k % 8` and occupies bits `[4k, 4k + 3]`:
//! square 0 is the *least* significant nibble, square 63 the most significant. A nibble
//! holds 0 (blank) or a digit 1..=8; any other nibble value 9..=15 can be stored (and the
//! contract will look at it) but is never a valid digit.
//!
//! ```text
//!           col 0  1  2  3    4  5  6  7
//!   row 0:      0  1  2  3 |  4  5  6  7      boxes are 2 rows × 4 columns:
//!   row 1:      8  9 10 11 | 12 13 14 15      box b covers rows 2(b/2)..2(b/2)+1
//!          ----------------+------------      and columns 4(b%2)..4(b%2)+3; the
//!   row 2:     16 ...      | 20 ...           boxes start at squares 0, 4, 16,
//!     ...                                     20, 32, 36, 48, 52.
//! ```
//!
//! # Text forms
//!
//! * hex ([`Board::from_hex`], [`Board::to_hex`]): the `uint256` big-endian, 64 hex digits,
//!   so **square 0 is the last hex digit** and square 63 the first;
//! * grid ([`Board::parse_grid`], [`Board::to_grid_string`]): 64 characters in row-major
//!   order, square 0 first;
//! * [`Board::pretty`]: 8 rows with box separators, for people.

use core::fmt;
use core::str::FromStr;

use crate::error::ParseError;
use crate::u256::{hex_value, strip_hex_prefix, U256};

/// An 8x8 board: 64 squares of 4 bits each in a `uint256` (see the module docs for the layout).
///
/// Square values are not restricted: any nibble 0..=15 may be stored, so that every
/// `uint256` the contract can receive is representable.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Board(pub U256);

impl Board {
    /// The board with every square blank (the `uint256` 0).
    pub const EMPTY: Board = Board(U256::ZERO);

    /// The `uint256` the contract sees.
    pub const fn as_u256(&self) -> U256 {
        self.0
    }

    /// Parses the contract's hex form: an optional `0x`/`0X` prefix and exactly 64 hex digits
    /// in either case, big-endian (square 0 is the last digit).
    ///
    /// Errors give the length found, or the position (0-based, counting the prefix) and the
    /// bad character. The input is taken as is: surrounding whitespace is an error.
    pub fn from_hex(s: &str) -> Result<Board, ParseError> {
        const WHAT: &str = "board hex";
        let (digits, offset) = strip_hex_prefix(s);
        let n = digits.chars().count();
        if n != 64 {
            return Err(ParseError::WrongLength {
                what: WHAT,
                got: n,
                expected: "64 hex digits",
            });
        }
        if let Some((i, c)) = digits
            .chars()
            .enumerate()
            .find(|&(_, c)| hex_value(c).is_none())
        {
            return Err(ParseError::BadChar {
                what: WHAT,
                position: offset + i,
                found: c,
                expected: "a hex digit 0-9 or a-f",
            });
        }
        U256::from_hex(digits).map(Board)
    }

    /// The contract's hex form: 64 lowercase hex digits, no prefix (square 0 last).
    pub fn to_hex(&self) -> String {
        self.0.to_hex()
    }

    /// The nibble of square `k` (0..=15).
    ///
    /// # Panics
    ///
    /// If `k >= 64`.
    pub fn cell(&self, k: usize) -> u8 {
        assert!(k < 64, "square {k} is out of range 0..64");
        ((self.0.limbs()[k / 16] >> ((k % 16) * 4)) & 0xF) as u8
    }

    /// The board with square `k` set to `v`.
    ///
    /// # Panics
    ///
    /// If `k >= 64` or `v > 15`.
    pub fn with_cell(self, k: usize, v: u8) -> Board {
        assert!(k < 64, "square {k} is out of range 0..64");
        assert!(v < 16, "value {v} does not fit in a nibble");
        let mut limbs = self.0.limbs();
        let shift = (k % 16) * 4;
        limbs[k / 16] = (limbs[k / 16] & !(0xF << shift)) | (u64::from(v) << shift);
        Board(U256::from_limbs(limbs))
    }

    /// The board whose square `k` holds `cells[k]`.
    ///
    /// # Panics
    ///
    /// If a value is greater than 15.
    pub fn from_cells(cells: [u8; 64]) -> Board {
        let mut limbs = [0u64; 4];
        for (k, &v) in cells.iter().enumerate() {
            assert!(v < 16, "square {k}: value {v} does not fit in a nibble");
            limbs[k / 16] |= u64::from(v) << ((k % 16) * 4);
        }
        Board(U256::from_limbs(limbs))
    }

    /// All 64 nibbles, square 0 first.
    pub fn cells(&self) -> [u8; 64] {
        let limbs = self.0.limbs();
        core::array::from_fn(|k| ((limbs[k / 16] >> ((k % 16) * 4)) & 0xF) as u8)
    }

    /// Parses the grid form: exactly 64 characters in row-major order (square 0 first),
    /// each a digit `1`..`8` or a blank `.` or `0`. No other characters (no whitespace,
    /// no `9`..`f`) are accepted; errors give the length found, or the position (0-based)
    /// and the bad character.
    pub fn parse_grid(s: &str) -> Result<Board, ParseError> {
        const WHAT: &str = "grid";
        let n = s.chars().count();
        if n != 64 {
            return Err(ParseError::WrongLength {
                what: WHAT,
                got: n,
                expected: "64 squares",
            });
        }
        let mut cells = [0u8; 64];
        for (k, c) in s.chars().enumerate() {
            cells[k] = match c {
                '.' | '0' => 0,
                '1'..='8' => c as u8 - b'0',
                _ => {
                    return Err(ParseError::BadChar {
                        what: WHAT,
                        position: k,
                        found: c,
                        expected: "a digit 1-8, or '.' or '0' for a blank",
                    })
                }
            };
        }
        Ok(Board::from_cells(cells))
    }

    /// The grid form: 64 characters, square 0 first; `.` for 0, the digit for 1..=8, and a
    /// lowercase hex digit `9`..`f` for the non-digit nibbles 9..=15 (which
    /// [`Board::parse_grid`] rejects).
    pub fn to_grid_string(&self) -> String {
        self.cells().iter().map(|&v| nibble_char(v)).collect()
    }

    /// A human layout: 8 rows of 8 space-separated squares, a `|` between the two 4-column
    /// halves of each box and a `--------+--------` line between the 2-row bands; no
    /// trailing newline. Squares are shown as in [`Board::to_grid_string`].
    pub fn pretty(&self) -> String {
        let cells = self.cells();
        let mut lines = Vec::with_capacity(11);
        for row in 0..8 {
            if row > 0 && row % 2 == 0 {
                lines.push("--------+--------".to_string());
            }
            let half = |c0: usize| {
                (c0..c0 + 4)
                    .map(|c| nibble_char(cells[row * 8 + c]).to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            lines.push(format!("{} | {}", half(0), half(4)));
        }
        lines.join("\n")
    }

    /// The number of nonzero nibbles (non-blank squares, digits or not).
    pub fn givens(&self) -> usize {
        self.cells().iter().filter(|&&v| v != 0).count()
    }
}

fn nibble_char(v: u8) -> char {
    match v {
        0 => '.',
        _ => char::from_digit(u32::from(v), 16).unwrap_or('?'),
    }
}

impl From<U256> for Board {
    fn from(v: U256) -> Board {
        Board(v)
    }
}

impl From<Board> for U256 {
    fn from(b: Board) -> U256 {
        b.0
    }
}

/// Formats as [`Board::to_hex`].
impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_hex())
    }
}

/// Parses as [`Board::from_hex`].
impl FromStr for Board {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Board, ParseError> {
        Board::from_hex(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "0000000000003000007001000000000000000040500000060000000000020008";

    #[test]
    fn square_zero_is_the_last_hex_digit() {
        let b = Board::from_hex(START).unwrap();
        assert_eq!(b.cell(0), 8);
        assert_eq!(b.cell(4), 2);
        assert_eq!(b.cell(63), 0);
        assert_eq!(b.to_hex(), START);
        assert_eq!(b.givens(), 8);
        let grid = b.to_grid_string();
        assert_eq!(&grid[..8], "8...2...");
        assert_eq!(Board::parse_grid(&grid), Ok(b));
        assert_eq!(Board::from_cells(b.cells()), b);
    }

    #[test]
    fn hex_accepts_prefix_and_uppercase() {
        let b = Board::from_hex(START).unwrap();
        assert_eq!(Board::from_hex(&format!("0x{START}")), Ok(b));
        assert_eq!(
            Board::from_hex(&format!("0X{}", START.to_uppercase())),
            Ok(b)
        );
        assert_eq!(START.parse::<Board>(), Ok(b));
        assert_eq!(b.to_string(), START);
    }

    #[test]
    fn hex_errors_name_length_or_position() {
        let e = Board::from_hex("0x1234").unwrap_err();
        assert_eq!(
            e.to_string(),
            "invalid board hex: wrong length (got 4 characters, expected 64 hex digits)"
        );
        let mut bad = START.to_string();
        bad.replace_range(10..11, "z");
        let e = Board::from_hex(&format!("0x{bad}")).unwrap_err();
        assert_eq!(
            e,
            ParseError::BadChar {
                what: "board hex",
                position: 12,
                found: 'z',
                expected: "a hex digit 0-9 or a-f"
            }
        );
        assert!(e.to_string().contains("'z' at position 13"));
        // A multi-byte character counts as one.
        let s = format!("é{}", &START[1..]);
        assert!(matches!(
            Board::from_hex(&s),
            Err(ParseError::BadChar {
                position: 0,
                found: 'é',
                ..
            })
        ));
    }

    #[test]
    fn grid_errors() {
        assert!(matches!(
            Board::parse_grid("123"),
            Err(ParseError::WrongLength { got: 3, .. })
        ));
        let s = format!("{}9{}", ".".repeat(5), ".".repeat(58));
        assert!(matches!(
            Board::parse_grid(&s),
            Err(ParseError::BadChar {
                position: 5,
                found: '9',
                ..
            })
        ));
        assert_eq!(Board::parse_grid(&"0".repeat(64)), Ok(Board::EMPTY));
    }

    #[test]
    fn with_cell_and_non_digits() {
        let b = Board::EMPTY
            .with_cell(63, 15)
            .with_cell(17, 9)
            .with_cell(0, 3);
        assert_eq!(
            b.to_hex(),
            "f000000000000000000000000000000000000000000000900000000000000003"
        );
        let g = b.to_grid_string();
        assert_eq!(g.chars().nth(17), Some('9'));
        assert_eq!(g.chars().nth(63), Some('f'));
        assert_eq!(
            b.with_cell(63, 0).with_cell(17, 0).with_cell(0, 0),
            Board::EMPTY
        );
        assert_eq!(b.givens(), 3);
    }

    #[test]
    fn pretty_layout() {
        let b = Board::from_hex(START).unwrap();
        let p = b.pretty();
        let lines: Vec<&str> = p.lines().collect();
        assert_eq!(lines.len(), 11);
        assert_eq!(lines[0], "8 . . . | 2 . . .");
        assert_eq!(lines[2], "--------+--------");
        assert_eq!(lines[5], "--------+--------");
        assert!(lines.iter().all(|l| l.chars().count() == 17));
    }
}
