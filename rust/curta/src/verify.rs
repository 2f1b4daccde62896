//! `verify`: the contract's solution check, bit-for-bit, and the mathematical rule beside it.
//!
//! # The contract's algorithm ([`verify`])
//!
//! ```text
//! for index in (0..256).step_by(4):                 // square k = index / 4
//!     if start & 0xF != 0 && start & 0xF != solution & 0xF: return false
//!     checks = (CHECKS >> index) & 7                // bit 2 row, bit 1 column, bit 0 box
//!     if checks & 4 && !check(solution, ROW_SHIFTS):     return false
//!     if checks & 2 && !check(solution, COL_SHIFTS):     return false
//!     if checks & 1 && !check(solution, SUBGRID_SHIFTS): return false
//!     start >>= 4; solution >>= 4                   // so `check` sees the *shifted* solution
//! return true
//!
//! check(s, shifts):                                  // reads one unit starting at nibble 0
//!     bitmap = 0
//!     while shifts != 0:
//!         bitmap |= 1 << (s & 0xF)                   // uint256: nibble 0 sets bit 0, 9..15 bits 9..15
//!         s >>= shifts & 0x3F; shifts >>= 6          // 6-bit step sizes, least significant first
//!     return bitmap == 0x1FE                         // exactly the digits 1..8
//! ```
//!
//! The step tables hold 8 nonzero 6-bit fields each, so `check` reads exactly 8 nibbles:
//! `ROW_SHIFTS` = `[4; 8]` reads squares k..k+7, `COL_SHIFTS` = `[32; 8]` reads k, k+8, ...,
//! k+56, and `SUBGRID_SHIFTS` = `[4, 4, 4, 20, 4, 4, 4, 4]` reads k..k+3 and k+8..k+11.
//! `CHECKS` asks for a row check at squares 0, 8, ..., 56, a column check at squares 0..7
//! and a box check at squares 0, 4, 16, 20, 32, 36, 48, 52: each of the 24 units exactly
//! once, and never a read past bit 255.
//!
//! # Equivalence with the rule ([`is_valid_solution`]) — no divergence
//!
//! `bitmap == 0x1FE` after 8 reads holds exactly when the 8 nibbles are 1..=8 each once (a
//! nibble 0 sets bit 0 and a nibble 9..=15 sets a bit above 8, either of which spoils the
//! equality; 8 reads can only set bits 1..=8 all if they are distinct). Every square lies in
//! a checked unit, so the unit checks pass exactly when every square holds a digit 1..=8 and
//! no row, column or box repeats one. The start check demands `solution == start` on every
//! nonzero start nibble; a start nibble 9..=15 therefore forces the same non-digit into the
//! solution, which the unit checks then reject — the rule rejects it too (the given cannot
//! be respected by a digit). Hence, for **every** pair of `uint256`s,
//! `verify(start, solution) == is_valid_solution(start, solution).is_ok()`. The tests check
//! this on all ground-truth vectors, on every single-nibble change (all 16 values at all 64
//! squares, in start and in solution) and on ≥ 10 000 random and adversarial cases.

use core::fmt;

use crate::board::Board;
use crate::u256::U256;
use crate::units::Unit;

/// Which checks run at each square (3 bits per nibble: 4 = row, 2 = column, 1 = box).
pub const CHECKS: U256 =
    U256::from_limbs([0x4_2223_2227, 0x4_0001_0005, 0x4_0001_0005, 0x4_0001_0005]);
/// Step sizes (6 bits each, least significant first) to walk a row: `[4; 8]`.
pub const ROW_SHIFTS: U256 = U256::from_u64(0x1041_0410_4104);
/// Step sizes to walk a column: `[32; 8]`.
pub const COL_SHIFTS: U256 = U256::from_u64(0x8208_2082_0820);
/// Step sizes to walk a 2x4 box: `[4, 4, 4, 20, 4, 4, 4, 4]`.
pub const SUBGRID_SHIFTS: U256 = U256::from_u64(0x1041_0450_4104);
/// Bits 1..=8 set: every digit seen once.
pub const FILLED_BITMAP: U256 = U256::from_u64(0x1FE);

/// The contract's `verify(start, solution)`, exactly (see the module docs).
///
/// Equal to `is_valid_solution(start, solution).is_ok()` on every input.
pub fn verify(start: &Board, solution: &Board) -> bool {
    let nibble = U256::from_u64(0xF);
    let mut start = start.0;
    let mut solution = solution.0;
    let mut index: u32 = 0;
    while index < 256 {
        let given = start & nibble;
        if !given.is_zero() && given != solution & nibble {
            return false;
        }
        let checks = (CHECKS >> index).low_u64() & 7;
        if checks & 4 == 4 && !check(solution, ROW_SHIFTS) {
            return false;
        }
        if checks & 2 == 2 && !check(solution, COL_SHIFTS) {
            return false;
        }
        if checks & 1 == 1 && !check(solution, SUBGRID_SHIFTS) {
            return false;
        }
        start >>= 4u32;
        solution >>= 4u32;
        index += 4;
    }
    true
}

/// The contract's internal `check(shifted, shifts)`: walks `shifted` by the 6-bit step
/// sizes in `shifts` (least significant first) until `shifts` is 0, ORs `1 << nibble` of
/// each nibble read into a `uint256` bitmap, and compares it with [`FILLED_BITMAP`].
pub fn check(shifted: U256, shifts: U256) -> bool {
    let mut shifted = shifted;
    let mut shifts = shifts;
    let mut bitmap = U256::ZERO;
    while !shifts.is_zero() {
        bitmap |= U256::ONE << (shifted.low_u64() & 0xF) as u32;
        shifted >>= (shifts.low_u64() & 0x3F) as u32;
        shifts >>= 6u32;
    }
    bitmap == FILLED_BITMAP
}

/// The first way in which a board fails the rule (see [`is_valid_solution`]).
///
/// The fields hold 0-based squares (0..64) and units; the messages are **1-based**, like
/// `algoku check`'s: square 1 is square 0 (the last hex digit), "row 1" is `Unit::Row(0)`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Violation {
    /// A solution square holds 0 or 9..=15. Square 9 holding 0 displays as "square 10 (hex digit 55) is 0".
    NotADigit {
        /// The square (0..64).
        square: usize,
        /// Its nibble.
        value: u8,
    },
    /// A nonzero start nibble that the solution does not keep. Square 3 displays as
    /// "square 4 (hex digit 61) changes given 4 to 7".
    GivenChanged {
        /// The square (0..64).
        square: usize,
        /// The start's nibble there (1..=15).
        given: u8,
        /// The solution's digit there.
        found: u8,
    },
    /// A digit twice in a unit. Row 2, squares 17 and 21 display as
    /// "row 3 has 5 twice (squares 18 and 22: hex digits 47 and 43)".
    Duplicate {
        /// The row, column or box.
        unit: Unit,
        /// The repeated digit.
        digit: u8,
        /// The lower square holding it.
        first: usize,
        /// The next square holding it.
        second: usize,
    },
}

/// A square as every message names it: its number (1..=64, counted as the board is
/// drawn, from the least significant nibble) and where it sits in the 64-digit hex the
/// user typed (hex digit 1 is the first character: square 64).
pub fn square_label(square: usize) -> String {
    format!("square {} (hex digit {})", square + 1, 64 - square)
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Violation::NotADigit { square, value } => {
                write!(f, "{} is {value}", square_label(square))
            }
            Violation::GivenChanged {
                square,
                given,
                found,
            } => write!(
                f,
                "{} changes given {given} to {found}",
                square_label(square)
            ),
            Violation::Duplicate {
                unit,
                digit,
                first,
                second,
            } => write!(
                f,
                "{unit} has {digit} twice (squares {} and {}: hex digits {} and {})",
                first + 1,
                second + 1,
                64 - first,
                64 - second
            ),
        }
    }
}

impl std::error::Error for Violation {}

/// The mathematical rule: every square of `solution` holds a digit 1..=8, every nonzero
/// nibble of `start` is kept, and no row, column or 2x4 box repeats a digit (so each holds
/// 1..=8 once).
///
/// Returns the first violation, looking first at the squares in order 0..64 (for each:
/// not a digit, then given changed), then at the rows 0..8, columns 0..8 and boxes 0..8
/// (the first repeat found scanning each unit's squares in increasing order).
///
/// Agrees with the contract's [`verify`] on every input (see the module docs).
pub fn is_valid_solution(start: &Board, solution: &Board) -> Result<(), Violation> {
    let s = start.cells();
    let x = solution.cells();
    for k in 0..64 {
        if !(1..=8).contains(&x[k]) {
            return Err(Violation::NotADigit {
                square: k,
                value: x[k],
            });
        }
        if s[k] != 0 && s[k] != x[k] {
            return Err(Violation::GivenChanged {
                square: k,
                given: s[k],
                found: x[k],
            });
        }
    }
    for unit in Unit::all() {
        let mut seen = [None; 9];
        for k in unit.squares() {
            let d = x[k];
            if let Some(first) = seen[d as usize] {
                return Err(Violation::Duplicate {
                    unit,
                    digit: d,
                    first,
                    second: k,
                });
            }
            seen[d as usize] = Some(k);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constants_match_the_contract() {
        let hex = |s: &str| U256::from_hex(s).unwrap();
        assert_eq!(
            CHECKS,
            hex("0x400010005000000040001000500000004000100050000000422232227")
        );
        assert_eq!(ROW_SHIFTS, hex("0x104104104104"));
        assert_eq!(COL_SHIFTS, hex("0x820820820820"));
        assert_eq!(SUBGRID_SHIFTS, hex("0x104104504104"));
        assert_eq!(FILLED_BITMAP, hex("0x1FE"));
    }

    fn steps(shifts: U256) -> Vec<u64> {
        let mut v = Vec::new();
        let mut s = shifts;
        while !s.is_zero() {
            v.push(s.low_u64() & 0x3F);
            s >>= 6u32;
        }
        v
    }

    #[test]
    fn step_tables_walk_rows_columns_and_boxes() {
        assert_eq!(steps(ROW_SHIFTS), [4; 8]);
        assert_eq!(steps(COL_SHIFTS), [32; 8]);
        assert_eq!(steps(SUBGRID_SHIFTS), [4, 4, 4, 20, 4, 4, 4, 4]);
        // The squares whose checks CHECKS asks for: every unit exactly once.
        let mut rows = Vec::new();
        let mut cols = Vec::new();
        let mut boxes = Vec::new();
        for k in 0..64u32 {
            let c = (CHECKS >> (4 * k)).low_u64() & 7;
            if c & 4 != 0 {
                rows.push(k);
            }
            if c & 2 != 0 {
                cols.push(k);
            }
            if c & 1 != 0 {
                boxes.push(k);
            }
        }
        assert_eq!(rows, [0, 8, 16, 24, 32, 40, 48, 56]);
        assert_eq!(cols, [0, 1, 2, 3, 4, 5, 6, 7]);
        assert_eq!(boxes, [0, 4, 16, 20, 32, 36, 48, 52]);
    }

    #[test]
    fn violation_messages() {
        let v = Violation::Duplicate {
            unit: Unit::Row(2),
            digit: 5,
            first: 17,
            second: 21,
        };
        assert_eq!(
            v.to_string(),
            "row 3 has 5 twice (squares 18 and 22: hex digits 47 and 43)"
        );
        let v = Violation::NotADigit {
            square: 9,
            value: 0,
        };
        assert_eq!(v.to_string(), "square 10 (hex digit 55) is 0");
        let v = Violation::GivenChanged {
            square: 3,
            given: 4,
            found: 7,
        };
        assert_eq!(
            v.to_string(),
            "square 4 (hex digit 61) changes given 4 to 7"
        );
    }

    #[test]
    fn check_reads_nibble_values_as_uint256_bits() {
        // A row holding 1..8 passes; a 0 or a 9 in it fails, even with the others distinct.
        let row = |vals: [u8; 8]| {
            let mut c = [0u8; 64];
            c[..8].copy_from_slice(&vals);
            Board::from_cells(c).0
        };
        assert!(check(row([1, 2, 3, 4, 5, 6, 7, 8]), ROW_SHIFTS));
        assert!(check(row([8, 7, 6, 5, 4, 3, 2, 1]), ROW_SHIFTS));
        assert!(!check(row([0, 2, 3, 4, 5, 6, 7, 8]), ROW_SHIFTS));
        assert!(!check(row([9, 2, 3, 4, 5, 6, 7, 8]), ROW_SHIFTS));
        assert!(!check(row([15, 2, 3, 4, 5, 6, 7, 8]), ROW_SHIFTS));
        assert!(!check(row([1, 1, 3, 4, 5, 6, 7, 8]), ROW_SHIFTS));
        assert!(!check(U256::ZERO, U256::ZERO));
    }
}
