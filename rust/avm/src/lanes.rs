//! The one-call verifiers, op for op: `is_valid_solution_lanes` ([`lanes`]) and
//! `is_solution_of` ([`solution_of`]).
//!
//! # Lanes (see "Lanes" in `smart_contracts/algoku/contract.py`)
//!
//! Cell `i` gets a 16-bit *lane*, lane `i`, in a string of six 32-byte segments
//! (96 lanes, 192 bytes; lanes 81..95 stay zero). `grid b| OFFSETS` turns byte
//! `i` into `16 (i % 16) + cell`, the `setbit` index of bit `cell` of lane
//! `i % 16` inside segment `i / 16`; one `getbyte` and one `setbit` per cell
//! set it. Every lane then holds exactly one bit, the cell's value (bit 0 =
//! leftmost), provided every byte is `< 16`.
//!
//! A *fold* by `k` lanes, `x b| extract(x, 0, len - 2k)`, ORs lane `p - k` into
//! lane `p` for the whole string at once (`b|` zero-extends the shorter operand
//! on the left). Folds by 1, 1 give three consecutive cells (`w3`); `w3` folded
//! by 3, 3 holds each row's OR in lane `9r + 8`; `w3` folded by 9, 9 holds each
//! box's OR in lane `9 (3R + 2) + 3C + 2`; the lanes folded by 9, 9, 27, 27
//! hold each column's OR in lane `72 + c`.
//!
//! The verdict is one comparison: `(grid ++ rows ++ columns ++ boxes) b&
//! CHECK_MASK == CHECK_EXPECTED`, i.e. every byte of the grid has a zero high
//! nibble and each of the 27 unit ORs is `0x7fc0`, the bits of 1..9.
//!
//! Why no invalid input answers `true`: with every byte `< 16` (the grid's
//! part of the mask), each lane holds exactly one set bit, at the cell's
//! value. Nine one-bit lanes whose OR is exactly bits 1..9 hold nine
//! different values from 1..9: the unit is a permutation. A 0 or 10..15 sets a
//! bit outside 1..9 and makes its units' OR differ from `0x7fc0`. A byte
//! `>= 16` fails the high-nibble part (its `setbit` lands somewhere in its
//! 32-byte segment: any index below 256 exists, so no AVM error either).
//!
//! # Puzzle (`is_solution_of`)
//!
//! With `differ = puzzle b^ solution` and every byte `< 16`, `x b+ 0x0f..0f`
//! has bit `0x10` of each byte set iff that byte of `x` is non-zero (no carry
//! crosses a byte; `b+` takes at most 64 bytes, so 64 + 17). A given agrees iff
//! `differ` or `puzzle` is zero there: `(nz(differ) b& nz(puzzle)) b& 0x10..10`
//! must be zero. The puzzle's bytes must have zero high nibbles too, checked in
//! the same final comparison, which also covers the solution's lanes. A given
//! that agrees with a valid solution is 1..9, so puzzle bytes 10..15 fail.

use crate::algoku::{Rejection, GRID_SIZE};
use crate::ops::{self, AvmError};

/// Lanes of the lane string (six segments of sixteen).
pub const LANES: usize = 96;
/// Bytes of the lane string.
pub const LANES_LEN: usize = 2 * LANES;
/// Bytes of one segment (sixteen 16-bit lanes).
pub const SEGMENT_LEN: usize = 32;

/// The message of `is_solution_of`'s puzzle length assertion.
pub const PUZZLE_LENGTH_MESSAGE: &str = "Puzzle must be 81 bytes long.";
/// The message of `is_solution_of`'s solution length assertion.
pub const SOLUTION_LENGTH_MESSAGE: &str = "Solution must be 81 bytes long.";

/// `OFFSETS[i] = 16 (i % 16)`.
pub const OFFSETS: [u8; GRID_SIZE] = {
    let mut out = [0u8; GRID_SIZE];
    let mut i = 0;
    while i < GRID_SIZE {
        out[i] = 16 * (i % 16) as u8;
        i += 1;
    }
    out
};

/// Bits 1..9 of a lane (bit 0 = leftmost): `0x7fc0`.
pub const DIGIT_BITS: u16 = 0x7fc0;

/// The lane holding the OR of unit `u` after the folds: rows 0..9, columns
/// 9..18, boxes 18..27 (each block in its own 192-byte section).
pub const fn result_lane(u: usize) -> usize {
    match u / 9 {
        0 => 9 * u + 8,
        1 => 72 + (u - 9),
        _ => {
            let b = u - 18;
            9 * (3 * (b / 3) + 2) + 3 * (b % 3) + 2
        }
    }
}

/// Length of `grid ++ rows ++ columns ++ boxes`.
pub const CHECK_LEN: usize = GRID_SIZE + 3 * LANES_LEN;

const fn check_constant(high: u8, lane: u16) -> [u8; CHECK_LEN] {
    let mut out = [0u8; CHECK_LEN];
    let mut i = 0;
    while i < GRID_SIZE {
        out[i] = high;
        i += 1;
    }
    let mut u = 0;
    while u < 27 {
        let at = GRID_SIZE + (u / 9) * LANES_LEN + 2 * result_lane(u);
        out[at] = (lane >> 8) as u8;
        out[at + 1] = lane as u8;
        u += 1;
    }
    out
}

/// `0xf0` on the grid's bytes, `0xffff` on the 27 result lanes, 0 elsewhere.
pub const CHECK_MASK: [u8; CHECK_LEN] = check_constant(0xf0, 0xffff);
/// 0 on the grid's bytes, [`DIGIT_BITS`] on the 27 result lanes, 0 elsewhere.
pub const CHECK_EXPECTED: [u8; CHECK_LEN] = check_constant(0, DIGIT_BITS);

/// `x b| extract(x, 0, LANES_LEN - 2k)`: lane `p` ORed with lane `p - k`.
fn fold(x: &[u8], k: usize) -> Vec<u8> {
    // `extract 0 N` with N = LANES_LEN - 2k <= len: always in range here.
    let cut = x.len().saturating_sub(2 * k);
    ops::b_or(x, &x[..cut])
}

/// `grid ++ rows ++ columns ++ boxes`, as the contract builds it (`_unit_ors`).
fn unit_ors(grid: &[u8]) -> Result<Vec<u8>, AvmError> {
    let g = ops::b_or(grid, &OFFSETS);
    let mut lanes = Vec::with_capacity(LANES_LEN);
    for segment in 0..LANES / 16 {
        let mut s = [0u8; SEGMENT_LEN];
        for i in 16 * segment..(16 * segment + 16).min(GRID_SIZE) {
            let index = ops::getbyte(&g, i as u64)?;
            ops::setbit_in_place(&mut s, index, 1)?;
        }
        lanes.extend_from_slice(&s);
    }
    let w3 = fold(&fold(&lanes, 1), 1);
    let rows = fold(&fold(&w3, 3), 3);
    let boxes = fold(&fold(&w3, 9), 9);
    let v3 = fold(&fold(&lanes, 9), 9);
    let columns = fold(&fold(&v3, 27), 27);
    let mut out = Vec::with_capacity(CHECK_LEN);
    out.extend_from_slice(grid);
    out.extend_from_slice(&rows);
    out.extend_from_slice(&columns);
    out.extend_from_slice(&boxes);
    Ok(out)
}

/// `is_valid_solution_lanes(byte[])bool`, op for op: `true` iff `grid` is a
/// solved Sudoku; `false` for every other 81-byte input; another length fails
/// with [`Rejection::WrongLength`] ("Grid must be 81 bytes long.").
///
/// ```
/// let g: Vec<u8> = "953168742862734951417952836746893125281645397395271468138529674574386219629417583"
///     .bytes().map(|c| c - b'0').collect();
/// assert_eq!(algoku_avm::lanes(&g), Ok(true));
/// assert_eq!(algoku_avm::lanes(&[0; 81]), Ok(false));
/// assert!(algoku_avm::lanes(&[1; 80]).is_err());
/// ```
pub fn lanes(grid: &[u8]) -> Result<bool, Rejection> {
    if grid.len() != GRID_SIZE {
        return Err(Rejection::WrongLength { len: grid.len() });
    }
    let checked = unit_ors(grid)?;
    Ok(ops::b_and(&checked, &CHECK_MASK) == CHECK_EXPECTED)
}

/// `x b+ 0x0f..0f` on the chunks `[0, 64)` and `[64, 81)`, concatenated.
fn nonzero_flags(x: &[u8]) -> Result<Vec<u8>, AvmError> {
    let mut out = ops::b_plus(&x[..64], &[0x0f; 64])?;
    out.extend(ops::b_plus(&x[64..GRID_SIZE], &[0x0f; 17])?);
    Ok(out)
}

/// `is_solution_of(byte[],byte[])bool`, op for op: `true` iff `solution` is a
/// solved Sudoku and agrees with every given (non-zero byte) of `puzzle`;
/// `false` for every other pair of 81-byte inputs. Another length fails with
/// [`Rejection::Assert`] ([`PUZZLE_LENGTH_MESSAGE`] first, then
/// [`SOLUTION_LENGTH_MESSAGE`]).
///
/// ```
/// let s: Vec<u8> = "953168742862734951417952836746893125281645397395271468138529674574386219629417583"
///     .bytes().map(|c| c - b'0').collect();
/// let mut p = vec![0u8; 81];
/// p[0] = 9;
/// assert_eq!(algoku_avm::solution_of(&p, &s), Ok(true));
/// p[0] = 8;
/// assert_eq!(algoku_avm::solution_of(&p, &s), Ok(false));
/// ```
pub fn solution_of(puzzle: &[u8], solution: &[u8]) -> Result<bool, Rejection> {
    if puzzle.len() != GRID_SIZE {
        return Err(Rejection::Assert(PUZZLE_LENGTH_MESSAGE));
    }
    if solution.len() != GRID_SIZE {
        return Err(Rejection::Assert(SOLUTION_LENGTH_MESSAGE));
    }
    let differ = ops::b_xor(puzzle, solution);
    let differ_nz = nonzero_flags(&differ)?;
    let given_nz = nonzero_flags(puzzle)?;
    let mut checked = unit_ors(solution)?;
    checked.extend(ops::b_and(&differ_nz, &given_nz));
    checked.extend_from_slice(puzzle);
    let mut mask = CHECK_MASK.to_vec();
    mask.extend([0x10; GRID_SIZE]);
    mask.extend([0xf0; GRID_SIZE]);
    let mut expected = CHECK_EXPECTED.to_vec();
    expected.extend([0; 2 * GRID_SIZE]);
    Ok(ops::b_and(&checked, &mask) == expected)
}

/// The rule `is_solution_of` answers, stated plainly: `solution` satisfies
/// [`crate::rule`], `puzzle` has 81 bytes, and each puzzle byte is 0 or the
/// solution's byte.
pub fn solution_rule(puzzle: &[u8], solution: &[u8]) -> bool {
    crate::rule(solution)
        && puzzle.len() == GRID_SIZE
        && puzzle.iter().zip(solution).all(|(&p, &s)| p == 0 || p == s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn result_lanes_are_the_units_last_cells() {
        for r in 0..9 {
            assert_eq!(result_lane(r), 9 * r + 8);
            assert_eq!(result_lane(9 + r), 72 + r);
        }
        assert_eq!(result_lane(18), 20);
        assert_eq!(result_lane(26), 80);
        assert_eq!(CHECK_MASK.len(), 657);
    }

    #[test]
    fn lengths_are_checked_first() {
        assert_eq!(lanes(&[]), Err(Rejection::WrongLength { len: 0 }));
        assert_eq!(
            solution_of(&[0; 80], &[0; 3]),
            Err(Rejection::Assert(PUZZLE_LENGTH_MESSAGE))
        );
        assert_eq!(
            solution_of(&[0; 81], &[0; 82]),
            Err(Rejection::Assert(SOLUTION_LENGTH_MESSAGE))
        );
        assert_eq!(
            Rejection::Assert(SOLUTION_LENGTH_MESSAGE).to_string(),
            SOLUTION_LENGTH_MESSAGE
        );
    }
}
