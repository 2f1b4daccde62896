//! The batch verifier, op for op: `are_valid_solutions(byte[])uint64`
//! ([`are_valid_solutions`]), up to [`BATCH_MAX`] grids in one app call.
//!
//! # Encoding (see "Batch" in `smart_contracts/algoku/contract.py`)
//!
//! A grid is 81 bytes, one byte a cell: digit `d = 1..8` is the single bit
//! `0x80 >> (d - 1)`, digit 9 is `0x00` ([`encode_cell`]). The argument is up
//! to 14 grids concatenated; the contract pads it with zero bytes to 14 grids
//! and answers a uint64 whose bit `g` (`1 << g`) is grid `g`'s verdict.
//!
//! A grid is solved iff (1) every byte has at most one set bit — `x & ((x |
//! 0x80) - 1) == 0`, computed with `b-` on 64-byte chunks of `x | 0x80..80`
//! (the guard bit keeps every borrow inside its byte) — and (2) every row,
//! column and box XORs to `0xff` (XOR folds by 1 then 3, 1 then 9, 9 then
//! 27, read through masks that keep only the cells holding a unit's XOR).
//! With (1) a unit's bytes are single bits or zero; an odd count of each of
//! the eight bits among nine bytes leaves exactly one zero byte: the unit
//! holds 1..9 once each. The masks are built by doubling short seeds and are
//! longer than the batch; bytewise ops align right ends, so the grids keep
//! their places. The zero grids of the padding fail (2) and answer 0.

use crate::algoku::{Rejection, GRID_SIZE};
use crate::ops::{self, AvmError};

/// Grids in one call.
pub const BATCH_MAX: usize = 14;
/// Bytes of a full batch.
pub const BATCH_LEN: usize = GRID_SIZE * BATCH_MAX;
/// The message of the whole-grids assertion.
pub const GRIDS_LENGTH_MESSAGE: &str = "Grids must be 81 bytes each.";
/// The message of the batch-size assertion.
pub const TOO_MANY_GRIDS_MESSAGE: &str = "At most 14 grids a call.";

/// Length of the guard string and of the rows mask: the contract builds both
/// as `_times128` of a 9-byte seed.
const HIGH_LEN: usize = 9 * 128;
/// Length of the columns and boxes masks: the contract builds both as
/// `_times16` of one 81-byte row.
const MASK_LEN: usize = GRID_SIZE * 16;

/// The byte of digit `d` (1..9) in the batch encoding, `None` for another
/// value: `0x80 >> (d - 1)` for 1..8, `0x00` for 9.
pub const fn encode_cell(d: u8) -> Option<u8> {
    match d {
        1..=8 => Some(0x80 >> (d - 1)),
        9 => Some(0),
        _ => None,
    }
}

/// The digit (1..9) a byte of the batch encoding stands for, `None` for a
/// byte with two or more bits.
pub const fn decode_cell(b: u8) -> Option<u8> {
    match b {
        0 => Some(9),
        _ if b.count_ones() == 1 => Some(b.leading_zeros() as u8 + 1),
        _ => None,
    }
}

/// A grid of 81 digits (one byte a digit, as the other methods take it) in
/// the batch encoding; `None` when a byte is not a digit 1..9 (such a grid
/// cannot be sent to this method: it is never solved anyway).
pub fn encode_grid(digits: &[u8]) -> Option<Vec<u8>> {
    if digits.len() != GRID_SIZE {
        return None;
    }
    digits.iter().map(|&d| encode_cell(d)).collect()
}

/// The rule `are_valid_solutions` answers for one grid, stated plainly:
/// 81 bytes, each the byte of a digit, and the digits a solved Sudoku.
pub fn batch_rule(cells: &[u8]) -> bool {
    let digits: Option<Vec<u8>> = cells.iter().map(|&b| decode_cell(b)).collect();
    cells.len() == GRID_SIZE && digits.is_some_and(|d| crate::rule(&d))
}

/// `seed` repeated `times` times (the contract doubles short seeds).
fn repeat(seed: &[u8], times: usize) -> Vec<u8> {
    seed.repeat(times)
}

/// `w b^ extract(w, 0, len - k) b^ extract(w, 0, len - 2k)`: cell `p` XORed
/// with cells `p - k` and `p - 2k`.
fn fold3(w: &[u8], k: usize) -> Vec<u8> {
    let once = ops::b_xor(w, &w[..BATCH_LEN - k]);
    ops::b_xor(&once, &w[..BATCH_LEN - 2 * k])
}

/// `d = (x b| 0x80..) b- 0x01..` in 64-byte chunks, concatenated.
fn minus_one(x: &[u8]) -> Result<Vec<u8>, AvmError> {
    let y = ops::b_or(x, &[0x80; HIGH_LEN]);
    let mut d = Vec::with_capacity(y.len());
    for chunk in y.chunks(ops::MAX_BYTE_MATH_SIZE) {
        d.extend(ops::b_minus(chunk, &[0x01; 64][..chunk.len()])?);
    }
    Ok(d)
}

/// `0x00` on the cells holding a unit's XOR, `0xff` elsewhere: rows, columns, boxes.
fn masks() -> [Vec<u8>; 3] {
    let ones9 = [0xff; 9];
    let rows = repeat(
        &[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0],
        HIGH_LEN / 9,
    );
    let mut column = repeat(&ones9, 8);
    column.extend([0; 9]);
    let mut band = repeat(&ones9, 2);
    band.extend([0xff, 0xff, 0, 0xff, 0xff, 0, 0xff, 0xff, 0]);
    let times = MASK_LEN / GRID_SIZE;
    [
        rows,
        repeat(&column, times),
        repeat(&repeat(&band, 3), times),
    ]
}

/// `are_valid_solutions(byte[])uint64`, op for op: bit `g` of the answer is
/// set iff grid `g` of `grids` is solved ([`batch_rule`]). A length that is
/// not a multiple of 81 fails with [`GRIDS_LENGTH_MESSAGE`], more than 14
/// grids with [`TOO_MANY_GRIDS_MESSAGE`].
///
/// ```
/// use algoku_avm::batch::{are_valid_solutions, encode_grid};
/// let g: Vec<u8> = "953168742862734951417952836746893125281645397395271468138529674574386219629417583"
///     .bytes().map(|c| c - b'0').collect();
/// let one = encode_grid(&g).unwrap();
/// assert_eq!(are_valid_solutions(&[one.clone(), vec![0; 81], one].concat()), Ok(0b101));
/// assert!(are_valid_solutions(&[0; 80]).is_err());
/// ```
pub fn are_valid_solutions(grids: &[u8]) -> Result<u64, Rejection> {
    if !grids.len().is_multiple_of(GRID_SIZE) {
        return Err(Rejection::Assert(GRIDS_LENGTH_MESSAGE));
    }
    if grids.len() > BATCH_LEN {
        return Err(Rejection::Assert(TOO_MANY_GRIDS_MESSAGE));
    }
    let mut x = grids.to_vec();
    x.resize(BATCH_LEN, 0);
    let e = ops::b_and(&minus_one(&x)?, &x);
    let w3 = fold3(&x, 1);
    let rows = fold3(&w3, 3);
    let boxes = fold3(&w3, 9);
    let columns = fold3(&fold3(&x, 9), 27);
    let [rows_off, columns_off, boxes_off] = masks();
    let units = ops::b_and(
        &ops::b_and(
            &ops::b_or(&rows, &rows_off),
            &ops::b_or(&columns, &columns_off),
        ),
        &ops::b_or(&boxes, &boxes_off),
    );
    let f = ops::b_or(&e, &ops::b_not(&units));
    let rest = &f[f.len() - BATCH_LEN..];
    let mut verdicts = 0u64;
    for (g, segment) in rest.chunks(GRID_SIZE).enumerate() {
        if ops::bitlen(segment) == 0 {
            verdicts |= 1 << g;
        }
    }
    Ok(verdicts)
}

/// The verdicts of `grids` (one per 81-byte grid, in order) as
/// [`are_valid_solutions`] answers them.
pub fn verdicts(grids: &[u8]) -> Result<Vec<bool>, Rejection> {
    let bits = are_valid_solutions(grids)?;
    Ok((0..grids.len() / GRID_SIZE)
        .map(|g| bits >> g & 1 == 1)
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_round_trip() {
        for d in 1..=9 {
            assert_eq!(decode_cell(encode_cell(d).unwrap()), Some(d));
        }
        assert_eq!(encode_cell(0), None);
        assert_eq!(encode_cell(10), None);
        assert_eq!(decode_cell(0x81), None);
        assert_eq!((0..=255u8).filter(|&b| decode_cell(b).is_some()).count(), 9);
    }

    #[test]
    fn masks_keep_their_phase_at_the_right_end() {
        let [rows, columns, boxes] = masks();
        assert_eq!(
            (rows.len(), columns.len(), boxes.len()),
            (HIGH_LEN, MASK_LEN, MASK_LEN)
        );
        let grid_of = |m: &[u8]| m[m.len() - GRID_SIZE..].to_vec();
        let zeros = |m: &[u8]| -> Vec<usize> { (0..GRID_SIZE).filter(|&i| m[i] == 0).collect() };
        assert_eq!(
            zeros(&grid_of(&rows)),
            (0..9).map(|r| 9 * r + 8).collect::<Vec<_>>()
        );
        assert_eq!(zeros(&grid_of(&columns)), (72..81).collect::<Vec<_>>());
        assert_eq!(
            zeros(&grid_of(&boxes)),
            vec![20, 23, 26, 47, 50, 53, 74, 77, 80]
        );
    }

    #[test]
    fn lengths_are_checked_first() {
        assert_eq!(are_valid_solutions(&[]), Ok(0));
        assert_eq!(
            are_valid_solutions(&[0; 82]),
            Err(Rejection::Assert(GRIDS_LENGTH_MESSAGE))
        );
        assert_eq!(
            are_valid_solutions(&[0; 81 * 15]),
            Err(Rejection::Assert(TOO_MANY_GRIDS_MESSAGE))
        );
    }
}
