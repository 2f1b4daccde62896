//! The error type of every parser in this crate.

use core::fmt;

/// Why a string could not be parsed (a board, a number or an address).
///
/// Positions are 0-based character (not byte) indices into the string as it was given,
/// an optional `0x` prefix included, so that a caller can point at the bad character.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseError {
    /// The input has the wrong number of characters (after an optional `0x` prefix).
    WrongLength {
        /// What was being parsed, e.g. `"board hex"`.
        what: &'static str,
        /// How many characters there were.
        got: usize,
        /// What was expected, e.g. `"64"`.
        expected: &'static str,
    },
    /// A character that is not allowed where it stands.
    BadChar {
        /// What was being parsed.
        what: &'static str,
        /// 0-based character index into the input as given.
        position: usize,
        /// The offending character.
        found: char,
        /// What is allowed there.
        expected: &'static str,
    },
    /// An Algorand address whose 4-byte checksum does not match its public key.
    BadChecksum {
        /// The last 4 bytes of SHA-512/256 of the public key.
        expected: [u8; 4],
        /// The 4 bytes the address carries.
        found: [u8; 4],
    },
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::WrongLength {
                what,
                got,
                expected,
            } => write!(
                f,
                "invalid {what}: wrong length (got {got} characters, expected {expected})"
            ),
            ParseError::BadChar {
                what,
                position,
                found,
                expected,
            } => write!(
                f,
                "invalid {what}: bad character {found:?} at position {} (counting from 1; expected {expected})",
                position + 1
            ),
            ParseError::BadChecksum { expected, found } => write!(
                f,
                "invalid Algorand address: checksum is {} but the public key's is {}",
                hex4(found),
                hex4(expected)
            ),
        }
    }
}

fn hex4(b: &[u8; 4]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

impl std::error::Error for ParseError {}
