//! The Algoku verifier, op for op: the original contract and this project's.
//!
//! Both flavours are written with the AVM operations of [`crate::ops`] in the
//! order the contracts execute them, so they answer, or fail, exactly as
//! go-algorand's evaluator does (the first error wins).
//!
//! # The algorithm (see `smart_contracts/algoku/contract.py`)
//!
//! A grid is 81 bytes, row-major. Cell `i` is in row `i / 9`, column `i % 9`
//! and box `3 * (i / 27) + (i % 9) / 3`. The lookup tables [`ROW`],
//! [`COLUMN`] and [`BOX`] hold `0x10 * (unit + 1)` for each cell. A mask
//! starts as [`GROUP`] (`01ff` × 9): unit `g`'s digit `d` is the set bit
//! `16 (g + 1) - d`. Each cell clears `LOOKUP[i] - cell` in each of the three
//! masks; the grid is a solution iff all bits end cleared.
//!
//! * [`original`]: the original Algoku. Three 18-byte masks; fails with
//!   `- would result negative` when a cell exceeds its lookup value, and with
//!   `setbit index beyond byteslice` for a 0 in a unit numbered 8 (0-based:
//!   bit 144 of an 18-byte mask).
//! * [`project`]: this project's contract. Rejects every byte `>= 16` first
//!   (`b&` with `0xf0` × 81 and `bitlen`), then clears bits in one 57-byte
//!   mask ([`MASKS`]: [`GROUP_GUARDED`] = `GROUP ++ 00` three times, the
//!   columns at bit [`COLUMNS_AT`], the boxes at bit [`BOXES_AT`]). It
//!   answers `false`, never fails, on every 81-byte input.
//!
//! Both first assert the length: any other length fails the call with the
//! assertion's message [`LENGTH_MESSAGE`] ([`Rejection::WrongLength`]).
//!
//! [`rule`] is the mathematical Sudoku rule, written independently of the
//! masks; the property tests check `project(g) == Ok(rule(g))` for any input.
//!
//! [`Outcome`] is a result of a call in a serializable form, shared by the
//! fixtures and the client: `true`, `false`, `rejected: <assert message>`,
//! `error: <AVM error message>`.

use std::fmt;
use std::str::FromStr;

use crate::ops::{self, AvmError};

/// The number of cells (bytes) of a grid.
pub const GRID_SIZE: usize = 81;

/// The message of the contract's length assertion.
pub const LENGTH_MESSAGE: &str = "Grid must be 81 bytes long.";

/// The unit numbers of cell `i` (row, column, box), each 0..9.
pub const fn units_of(i: usize) -> (usize, usize, usize) {
    (i / 9, i % 9, 3 * (i / 27) + (i % 9) / 3)
}

const fn lookup(which: usize) -> [u8; GRID_SIZE] {
    let mut out = [0u8; GRID_SIZE];
    let mut i = 0;
    while i < GRID_SIZE {
        let (r, c, b) = units_of(i);
        let unit = match which {
            0 => r,
            1 => c,
            _ => b,
        };
        out[i] = 0x10 * (unit as u8 + 1);
        i += 1;
    }
    out
}

/// `ROW[i] = 0x10 * (i / 9 + 1)`.
pub const ROW: [u8; GRID_SIZE] = lookup(0);
/// `COLUMN[i] = 0x10 * (i % 9 + 1)`.
pub const COLUMN: [u8; GRID_SIZE] = lookup(1);
/// `BOX[i] = 0x10 * (3 * (i / 27) + (i % 9) / 3 + 1)`.
pub const BOX: [u8; GRID_SIZE] = lookup(2);

const fn group(len: usize) -> [u8; 19] {
    let mut out = [0u8; 19];
    let mut i = 0;
    while i < len {
        out[i] = if i % 2 == 0 { 0x01 } else { 0xff };
        i += 1;
    }
    out
}

const GROUP19: [u8; 19] = group(18);

/// The original's mask: `01ff` nine times (18 bytes). Unit `g`'s digit `d`
/// is bit `16 (g + 1) - d`.
pub const GROUP: [u8; 18] = {
    let mut out = [0u8; 18];
    let mut i = 0;
    while i < 18 {
        out[i] = GROUP19[i];
        i += 1;
    }
    out
};

/// This project's mask for one kind of unit: [`GROUP`] and a zero guard byte
/// (bit 144, which a 0 in unit 8 clears).
pub const GROUP_GUARDED: [u8; 19] = GROUP19;

/// This project's combined mask: [`GROUP_GUARDED`] three times (rows at bit
/// 0, columns at bit [`COLUMNS_AT`], boxes at bit [`BOXES_AT`]).
pub const MASKS: [u8; 57] = {
    let mut out = [0u8; 57];
    let mut i = 0;
    while i < 57 {
        out[i] = GROUP19[i % 19];
        i += 1;
    }
    out
};

/// Bit offset of the columns mask inside [`MASKS`] (19 bytes = 152 bits).
pub const COLUMNS_AT: u64 = 152;
/// Bit offset of the boxes mask inside [`MASKS`].
pub const BOXES_AT: u64 = 304;

/// `0xf0` × 81: `grid b& HIGH_NIBBLES` has a set bit iff a byte is `>= 16`.
pub const HIGH_NIBBLES: [u8; GRID_SIZE] = [0xf0; GRID_SIZE];

/// Why a call failed instead of answering.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Rejection {
    /// The length assertion failed (`assert` with [`LENGTH_MESSAGE`]).
    WrongLength {
        /// The grid's length.
        len: usize,
    },
    /// The AVM failed an operation.
    Avm(AvmError),
    /// Another assertion failed, with its message (`is_solution_of`'s length
    /// checks, see [`crate::lanes`](mod@crate::lanes)).
    Assert(&'static str),
}

impl fmt::Display for Rejection {
    /// The assertion's message, or the AVM's error message.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rejection::WrongLength { .. } => f.write_str(LENGTH_MESSAGE),
            Rejection::Avm(e) => e.fmt(f),
            Rejection::Assert(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for Rejection {}

impl From<AvmError> for Rejection {
    fn from(e: AvmError) -> Self {
        Rejection::Avm(e)
    }
}

/// `assert len(grid) == 81, "Grid must be 81 bytes long."`
fn assert_length(grid: &[u8]) -> Result<(), Rejection> {
    if grid.len() == GRID_SIZE {
        Ok(())
    } else {
        Err(Rejection::WrongLength { len: grid.len() })
    }
}

/// The original Algoku, op for op: three 18-byte masks, and for each cell
/// `getbyte`, then `setbit(rows, ROW[i] - cell, 0)`, `setbit(columns,
/// COLUMN[i] - cell, 0)`, `setbit(boxes, BOX[i] - cell, 0)` (in that order);
/// verdict `bitlen(rows b| columns b| boxes) == 0`.
///
/// Fails with [`Rejection::WrongLength`] for a length other than 81, with
/// `- would result negative` when a cell is larger than one of its lookup
/// values, and with `setbit index beyond byteslice` when a cell holding 0 is
/// in row, column or box 8 (0-based). Where it answers, the answer is
/// [`rule`]'s (aliasing cannot fake a solution).
pub fn original(grid: &[u8]) -> Result<bool, Rejection> {
    assert_length(grid)?;
    let mut rows = GROUP.to_vec();
    let mut columns = GROUP.to_vec();
    let mut boxes = GROUP.to_vec();
    for i in 0..GRID_SIZE {
        let cell = ops::getbyte(grid, i as u64)?;
        ops::setbit_in_place(&mut rows, ops::minus(u64::from(ROW[i]), cell)?, 0)?;
        ops::setbit_in_place(&mut columns, ops::minus(u64::from(COLUMN[i]), cell)?, 0)?;
        ops::setbit_in_place(&mut boxes, ops::minus(u64::from(BOX[i]), cell)?, 0)?;
    }
    let all = ops::b_or(&ops::b_or(&rows, &columns), &boxes);
    Ok(ops::bitlen(&all) == 0)
}

/// This project's contract, exactly as `contract.py` does it: the length
/// assertion; `bitlen(grid b& 81 bytes of 0xf0) != 0` → `false`; then for each cell
/// `getbyte` and three `setbit(mask, AT + LOOKUP[i] - cell, 0)` on one 57-byte
/// mask; verdict `bitlen(mask) == 0`.
///
/// Fails only with [`Rejection::WrongLength`]; on any 81-byte input it
/// answers, and the answer is [`rule`]'s. (AVM errors are propagated all the
/// same, so a mistake would show as an `Err` rather than be hidden.)
pub fn project(grid: &[u8]) -> Result<bool, Rejection> {
    assert_length(grid)?;
    if ops::bitlen(&ops::b_and(grid, &HIGH_NIBBLES)) != 0 {
        return Ok(false);
    }
    let mut mask = MASKS.to_vec();
    for i in 0..GRID_SIZE {
        let cell = ops::getbyte(grid, i as u64)?;
        let row = ops::minus(u64::from(ROW[i]), cell)?;
        ops::setbit_in_place(&mut mask, row, 0)?;
        let column = ops::minus(ops::plus(COLUMNS_AT, u64::from(COLUMN[i]))?, cell)?;
        ops::setbit_in_place(&mut mask, column, 0)?;
        let boxed = ops::minus(ops::plus(BOXES_AT, u64::from(BOX[i]))?, cell)?;
        ops::setbit_in_place(&mut mask, boxed, 0)?;
    }
    Ok(ops::bitlen(&mask) == 0)
}

/// The Sudoku rule itself, independent of the masks: exactly 81 bytes, each
/// 1..=9, and every row, column and box holds each digit 1..=9 once.
pub fn rule(grid: &[u8]) -> bool {
    if grid.len() != GRID_SIZE || grid.iter().any(|&v| !(1..=9).contains(&v)) {
        return false;
    }
    (0..9).all(|unit| {
        let mut row = [false; 10];
        let mut column = [false; 10];
        let mut boxed = [false; 10];
        (0..9).all(|k| {
            let r = grid[9 * unit + k];
            let c = grid[9 * k + unit];
            let b = grid[9 * (3 * (unit / 3) + k / 3) + 3 * (unit % 3) + k % 3];
            let fresh = !row[r as usize] && !column[c as usize] && !boxed[b as usize];
            row[r as usize] = true;
            column[c as usize] = true;
            boxed[b as usize] = true;
            fresh
        })
    })
}

/// The result of a call in a serializable form.
///
/// String forms (`Display` and [`Outcome::to_expected_string`]; `FromStr` and
/// [`Outcome::parse`] read them back):
/// `true`, `false`, `rejected: Grid must be 81 bytes long.`,
/// `error: - would result negative`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The method returned this verdict.
    Valid(bool),
    /// An assertion failed, with this message (the length check).
    Rejected(String),
    /// The AVM failed, with this go-algorand error message.
    AvmError(String),
}

/// The prefix of [`Outcome::Rejected`]'s string form.
const REJECTED: &str = "rejected: ";
/// The prefix of [`Outcome::AvmError`]'s string form.
const ERROR: &str = "error: ";

impl Outcome {
    /// The outcome of this project's contract ([`project`]) on `grid`.
    pub fn of_project(grid: &[u8]) -> Outcome {
        project(grid).into()
    }

    /// The outcome of the original Algoku ([`original`]) on `grid`.
    pub fn of_original(grid: &[u8]) -> Outcome {
        original(grid).into()
    }

    /// The string form, e.g. `true` or `error: - would result negative`.
    pub fn to_expected_string(&self) -> String {
        self.to_string()
    }

    /// Parses the string form back.
    pub fn parse(s: &str) -> Result<Outcome, ParseOutcomeError> {
        match s {
            "true" => Ok(Outcome::Valid(true)),
            "false" => Ok(Outcome::Valid(false)),
            _ => {
                if let Some(msg) = s.strip_prefix(REJECTED) {
                    Ok(Outcome::Rejected(msg.to_string()))
                } else if let Some(msg) = s.strip_prefix(ERROR) {
                    Ok(Outcome::AvmError(msg.to_string()))
                } else {
                    Err(ParseOutcomeError(s.to_string()))
                }
            }
        }
    }

    /// The outcome a failed call's error text shows: the first known AVM
    /// error message in it ([`AvmError::find_in`]), else the length
    /// assertion's message if the text holds it; `None` otherwise (an
    /// evaluator reports a failed `assert` as `assert failed pc=N`, and only
    /// a caller that knows the program can tell which assertion that was).
    pub fn from_failure_text(text: &str) -> Option<Outcome> {
        if let Some(e) = AvmError::find_in(text) {
            Some(Outcome::AvmError(e.to_string()))
        } else if text.contains(LENGTH_MESSAGE) {
            Some(Outcome::Rejected(LENGTH_MESSAGE.to_string()))
        } else {
            None
        }
    }

    /// The verdict, if the call answered.
    pub fn verdict(&self) -> Option<bool> {
        match self {
            Outcome::Valid(v) => Some(*v),
            _ => None,
        }
    }
}

impl From<Result<bool, Rejection>> for Outcome {
    fn from(r: Result<bool, Rejection>) -> Self {
        match r {
            Ok(v) => Outcome::Valid(v),
            Err(e @ (Rejection::WrongLength { .. } | Rejection::Assert(_))) => {
                Outcome::Rejected(e.to_string())
            }
            Err(Rejection::Avm(e)) => Outcome::AvmError(e.to_string()),
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Valid(v) => write!(f, "{v}"),
            Outcome::Rejected(m) => write!(f, "{REJECTED}{m}"),
            Outcome::AvmError(m) => write!(f, "{ERROR}{m}"),
        }
    }
}

impl FromStr for Outcome {
    type Err = ParseOutcomeError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Outcome::parse(s)
    }
}

/// A string that is not an [`Outcome`]'s string form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseOutcomeError(pub String);

impl fmt::Display for ParseOutcomeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "not an outcome (true, false, rejected: …, error: …): {:?}",
            self.0
        )
    }
}

impl std::error::Error for ParseOutcomeError {}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(bytes: &[u8]) -> String {
        bytes.iter().map(|b| format!("{b:02x}")).collect()
    }

    /// The constants are the contract's, byte for byte.
    #[test]
    fn tables_match_contract_py() {
        assert_eq!(hex(&ROW), "101010101010101010202020202020202020303030303030303030404040404040404040505050505050505050606060606060606060707070707070707070808080808080808080909090909090909090");
        assert_eq!(hex(&COLUMN), "102030405060708090102030405060708090102030405060708090102030405060708090102030405060708090102030405060708090102030405060708090102030405060708090102030405060708090");
        assert_eq!(hex(&BOX), "101010202020303030101010202020303030101010202020303030404040505050606060404040505050606060404040505050606060707070808080909090707070808080909090707070808080909090");
        assert_eq!(hex(&GROUP), "01ff01ff01ff01ff01ff01ff01ff01ff01ff");
        assert_eq!(
            hex(&GROUP_GUARDED),
            "01ff01ff01ff01ff01ff01ff01ff01ff01ff00"
        );
        assert_eq!(hex(&MASKS), "01ff01ff01ff01ff01ff01ff01ff01ff01ff0001ff01ff01ff01ff01ff01ff01ff01ff01ff0001ff01ff01ff01ff01ff01ff01ff01ff01ff00");
        assert_eq!(hex(&HIGH_NIBBLES), "f0".repeat(81));
    }

    #[test]
    fn group_bits_are_the_digits() {
        for g in 0..9u64 {
            for bit in 16 * g..16 * (g + 1) {
                let set = ops::getbit(&GROUP, bit).unwrap_or(9);
                let digit = 16 * (g + 1) - bit;
                assert_eq!(set == 1, (1..=9).contains(&digit), "bit {bit}");
            }
        }
    }

    const SOLUTION: &str =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

    fn solution() -> Vec<u8> {
        SOLUTION.bytes().map(|b| b - b'0').collect()
    }

    #[test]
    fn a_solution() {
        let g = solution();
        assert!(rule(&g));
        assert_eq!(project(&g), Ok(true));
        assert_eq!(original(&g), Ok(true));
    }

    #[test]
    fn lengths() {
        for len in [0, 1, 80, 82, 162, 4096] {
            let g = vec![1u8; len];
            let err = Rejection::WrongLength { len };
            assert_eq!(project(&g), Err(err.clone()));
            assert_eq!(original(&g), Err(err));
            assert_eq!(
                Outcome::of_project(&g).to_string(),
                "rejected: Grid must be 81 bytes long."
            );
            assert!(!rule(&g));
        }
    }

    #[test]
    fn original_errors() {
        let mut g = solution();
        g[80] = 0;
        assert_eq!(original(&g), Err(Rejection::Avm(AvmError::SetbitIndex)));
        assert_eq!(project(&g), Ok(false));
        let mut g = solution();
        g[0] = 17;
        assert_eq!(original(&g), Err(Rejection::Avm(AvmError::MinusNegative)));
        assert_eq!(
            Outcome::of_original(&g).to_string(),
            "error: - would result negative"
        );
        assert_eq!(project(&g), Ok(false));
    }

    #[test]
    fn outcome_strings_round_trip() {
        let cases = [
            (Outcome::Valid(true), "true"),
            (Outcome::Valid(false), "false"),
            (
                Outcome::Rejected(LENGTH_MESSAGE.to_string()),
                "rejected: Grid must be 81 bytes long.",
            ),
            (
                Outcome::AvmError("- would result negative".to_string()),
                "error: - would result negative",
            ),
            (
                Outcome::AvmError("setbit index beyond byteslice".to_string()),
                "error: setbit index beyond byteslice",
            ),
        ];
        for (o, s) in cases {
            assert_eq!(o.to_expected_string(), s);
            assert_eq!(s.parse::<Outcome>(), Ok(o.clone()));
            assert_eq!(Outcome::parse(s), Ok(o));
        }
        assert!(Outcome::parse("True").is_err());
        assert_eq!(
            Outcome::from_failure_text(
                "logic eval error: - would result negative. Details: app=1002, pc=412"
            ),
            Some(Outcome::AvmError("- would result negative".to_string()))
        );
        assert_eq!(
            Outcome::from_failure_text("assert failed pc=77: Grid must be 81 bytes long."),
            Some(Outcome::Rejected(LENGTH_MESSAGE.to_string()))
        );
        assert_eq!(Outcome::from_failure_text("assert failed pc=77"), None);
        assert!(Outcome::parse("").is_err());
        assert_eq!(Outcome::Valid(true).verdict(), Some(true));
        assert_eq!(Outcome::Rejected(String::new()).verdict(), None);
    }

    #[test]
    fn rule_rejects_non_digits() {
        let mut g = solution();
        g[5] = 0;
        assert!(!rule(&g));
        g[5] = 10;
        assert!(!rule(&g));
        let mut g = solution();
        g.swap(0, 1);
        assert!(!rule(&g));
    }
}
