//! The catalogue: the complete list of 49 158 Sudoku puzzles with 17 givens,
//! in the order of the published list (`puzzles2_17_clue`), compactly encoded
//! in `data/catalogue.bin`.
//!
//! # Encoding (19 bytes per puzzle)
//!
//! Record `n` is bytes `19n .. 19n + 19`, read as one 152-bit big-endian
//! number: its top 81 bits are the mask of the given cells (bit `80 - c` of
//! those 81 is cell `c`, row-major: the first bit is cell 0), the next 68 bits
//! are the 17 givens' digits minus one, 4 bits each, in cell order, and the 3
//! low bits are zero. The file is exactly `49 158 * 19 = 934 002` bytes; a
//! record with another number of givens, a digit above 9, or non-zero padding
//! is rejected by [`decode`].
//!
//! # Leaves (51 bytes)
//!
//! What the Merkle tree (see [`crate::merkle`]) commits to, and what the
//! contract reads: the 17 givens in cell order as three 17-byte columns,
//! `2 * row`, then `2 * column`, then the digit (1..9). The doubled row and
//! column are byte offsets into the contract's tables of 16-bit entries.

use algoku_sudoku::Grid;

/// The committed catalogue file.
pub static CATALOGUE: &[u8] = include_bytes!("../data/catalogue.bin");
/// Puzzles in the catalogue.
pub const COUNT: usize = 49_158;
/// Givens of every catalogue puzzle.
pub const GIVENS: usize = 17;
/// Bytes of one encoded record.
pub const RECORD: usize = 19;
/// Bytes of one Merkle leaf.
pub const LEAF: usize = 3 * GIVENS;

/// One catalogue puzzle: its 17 givens as (cell, digit), in cell order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Givens(pub [(u8, u8); GIVENS]);

impl Givens {
    /// The puzzle as a grid (0 = blank).
    pub fn grid(&self) -> Grid {
        let mut cells = [0u8; 81];
        for &(c, d) in &self.0 {
            cells[c as usize] = d;
        }
        Grid::from_cells(cells).expect("digits 1..9")
    }

    /// The 51-byte Merkle leaf: 2 * row (17 bytes), 2 * column (17), digit (17).
    pub fn leaf(&self) -> [u8; LEAF] {
        let mut leaf = [0u8; LEAF];
        for (i, &(c, d)) in self.0.iter().enumerate() {
            leaf[i] = 2 * (c / 9);
            leaf[GIVENS + i] = 2 * (c % 9);
            leaf[2 * GIVENS + i] = d;
        }
        leaf
    }

    /// The givens of a grid with exactly 17 of them, or why not.
    pub fn from_grid(grid: &Grid) -> Result<Givens, CatalogueError> {
        let mut out = [(0u8, 0u8); GIVENS];
        let mut n = 0;
        for c in 0..81 {
            let d = grid.get(c).unwrap_or(0);
            if d != 0 {
                if n == GIVENS {
                    return Err(CatalogueError::TooManyGivens);
                }
                out[n] = (c as u8, d);
                n += 1;
            }
        }
        if n != GIVENS {
            return Err(CatalogueError::Givens(n));
        }
        Ok(Givens(out))
    }

    /// The 19-byte record (see the module docs).
    pub fn encode(&self) -> [u8; RECORD] {
        let mut bits: u128 = 0; // 81 mask bits then 68 digit bits = 149 of 152: kept in two words
        let mut mask: u128 = 0;
        for &(c, _) in &self.0 {
            mask |= 1u128 << (80 - c);
        }
        for &(_, d) in &self.0 {
            bits = (bits << 4) | u128::from(d - 1);
        }
        // 152-bit number = mask << 71 | bits << 3, written big-endian into 19 bytes.
        let mut out = [0u8; RECORD];
        let value_hi = mask >> 57; // top 24 bits of the 152 (mask bits 80..57)
        let value_lo = ((mask & ((1 << 57) - 1)) << 71) | (bits << 3); // low 128 bits
        out[..3].copy_from_slice(&(value_hi as u32).to_be_bytes()[1..]);
        out[3..].copy_from_slice(&value_lo.to_be_bytes());
        out
    }
}

/// Why a grid, a record or a list line is not a catalogue puzzle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CatalogueError {
    /// A grid with an 18th given.
    TooManyGivens,
    /// A grid or record with this many givens instead of 17.
    Givens(usize),
    /// A record of this many bytes instead of [`RECORD`].
    RecordLength(usize),
    /// A record whose three padding bits are not zero.
    Padding,
    /// A record whose digit field for a given decodes to more than 9.
    Digit {
        /// The decoded digit (10 to 16).
        digit: u8,
        /// The given's cell, 0 to 80.
        cell: u8,
    },
    /// A line of a text list that is not a 17-given puzzle.
    Line {
        /// The line's number, from 1.
        line: usize,
        /// Why: the grid's parse error or the givens' count.
        reason: String,
    },
}

impl std::fmt::Display for CatalogueError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CatalogueError::TooManyGivens => write!(f, "more than 17 givens"),
            CatalogueError::Givens(n) => write!(f, "{n} givens, not 17"),
            CatalogueError::RecordLength(n) => write!(f, "a record is {RECORD} bytes, not {n}"),
            CatalogueError::Padding => write!(f, "non-zero padding bits"),
            CatalogueError::Digit { digit, cell } => write!(f, "digit {digit} at cell {cell}"),
            CatalogueError::Line { line, reason } => write!(f, "line {line}: {reason}"),
        }
    }
}

impl std::error::Error for CatalogueError {}

/// Decodes one 19-byte record (see the module docs).
pub fn decode(record: &[u8]) -> Result<Givens, CatalogueError> {
    if record.len() != RECORD {
        return Err(CatalogueError::RecordLength(record.len()));
    }
    let hi = u128::from(u32::from_be_bytes([0, record[0], record[1], record[2]]));
    let lo = u128::from_be_bytes(record[3..].try_into().expect("16 bytes"));
    if lo & 7 != 0 {
        return Err(CatalogueError::Padding);
    }
    let mask = (hi << 57) | (lo >> 71);
    let digits = (lo >> 3) & ((1u128 << 68) - 1);
    if mask.count_ones() as usize != GIVENS {
        return Err(CatalogueError::Givens(mask.count_ones() as usize));
    }
    let mut out = [(0u8, 0u8); GIVENS];
    let mut n = 0;
    for c in 0..81u8 {
        if mask >> (80 - c) & 1 == 1 {
            let d = ((digits >> (4 * (GIVENS - 1 - n))) & 15) as u8 + 1;
            if d > 9 {
                return Err(CatalogueError::Digit { digit: d, cell: c });
            }
            out[n] = (c, d);
            n += 1;
        }
    }
    Ok(Givens(out))
}

/// Puzzle `index` of the committed catalogue.
pub fn puzzle(index: usize) -> Givens {
    assert!(index < COUNT, "catalogue index {index} out of range");
    decode(&CATALOGUE[RECORD * index..RECORD * (index + 1)])
        .expect("the committed catalogue decodes")
}

/// Every leaf of the committed catalogue, in order.
pub fn leaves() -> Vec<[u8; LEAF]> {
    (0..COUNT).map(|i| puzzle(i).leaf()).collect()
}

/// Encodes the published text list (one 81-character puzzle a line, `.` or
/// `0` for blanks; empty and `#` lines skipped) into the catalogue file.
pub fn encode_list(text: &str) -> Result<Vec<u8>, CatalogueError> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = |reason: String| CatalogueError::Line {
            line: n + 1,
            reason,
        };
        let grid = Grid::parse(line).map_err(|e| at(e.to_string()))?;
        let givens = Givens::from_grid(&grid).map_err(|e| at(e.to_string()))?;
        out.extend_from_slice(&givens.encode());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_has_every_puzzle_and_round_trips() {
        assert_eq!(CATALOGUE.len(), COUNT * RECORD);
        for i in [0, 1, 2, 12_345, COUNT - 1] {
            let g = puzzle(i);
            assert_eq!(decode(&g.encode()).unwrap(), g);
            assert_eq!(Givens::from_grid(&g.grid()).unwrap(), g);
        }
        // the first line of the published list
        assert_eq!(
            puzzle(0).grid().to_string_zeros(),
            ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7..."
                .replace('.', "0")
        );
    }

    #[test]
    fn bad_records_are_rejected() {
        let mut r = puzzle(7).encode();
        r[18] |= 1;
        assert_eq!(decode(&r), Err(CatalogueError::Padding));
        let mut r = puzzle(7).encode();
        r[0] ^= 0x80; // cell 0's mask bit flips: 16 or 18 givens
        assert!(matches!(decode(&r), Err(CatalogueError::Givens(16 | 18))));
        let short = decode(&[0; 18]).unwrap_err();
        assert_eq!(short.to_string(), "a record is 19 bytes, not 18");
    }

    #[test]
    fn a_bad_list_line_is_named() {
        let e = encode_list("# the list\n12345\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 2: wrong length: got 5 characters, expected 81 (one per cell)"
        );
        let full = "123456789".repeat(9);
        let e = encode_list(&full).unwrap_err();
        assert_eq!(e.to_string(), "line 1: more than 17 givens");
    }

    #[test]
    fn leaf_layout() {
        let g = puzzle(0);
        let leaf = g.leaf();
        for (i, &(c, d)) in g.0.iter().enumerate() {
            assert_eq!(leaf[i], 2 * (c / 9));
            assert_eq!(leaf[17 + i], 2 * (c % 9));
            assert_eq!(leaf[34 + i], d);
        }
    }
}
