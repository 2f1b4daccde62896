//! The AVM operations Algoku uses, with go-algorand's exact semantics and
//! error messages.
//!
//! Every function here mirrors one opcode of go-algorand's evaluator
//! (`data/transactions/logic/eval.go`). The error texts are copied verbatim
//! from that file; [`AvmError`]'s `Display` is exactly the message the
//! evaluator puts after `logic eval error: ` in a failed call.
//!
//! # Semantics
//!
//! * **Bit numbering of byte strings** (`setbit`, `getbit`): bit 0 is the
//!   leftmost, most significant bit of byte 0; bit `n` is bit `7 - n % 8`
//!   (counting from the least significant end) of byte `n / 8`. A bit index
//!   whose byte `n / 8` is past the end is an error. `setbit` checks the bit
//!   value (`> 1` is an error) *before* the index, like go-algorand.
//! * **`bitlen`** of a byte string reads it as a big-endian unsigned integer
//!   of any length and returns the index of its highest set bit plus one
//!   (0 for an empty or all-zero string); it cannot fail.
//! * **`b|`, `b&`** (and `b^`): the shorter operand is zero-extended on the
//!   left to the longer one's length; the result has the longer length
//!   (leading zero bytes are kept). There is no 64-byte limit: the bitwise
//!   byte operations are not "byte math" (only `b+`, `b<` … are limited to
//!   64 bytes).
//! * **uint64 `-`, `+`**: `a - b` fails when `b > a`; `a + b` fails on
//!   carry out of 64 bits.
//! * **`getbyte`**: the byte at an index, as a uint64; index `>= len` fails.
//! * **`btoi`**: big-endian bytes (0..=8 of them, empty is 0) to uint64.
//!
//! go-algorand copies a byte string before `setbit` changes it (the old value
//! may be shared on the stack). [`setbit`] returns a fresh `Vec` for the same
//! reason; [`setbit_in_place`] is the same operation for a caller that owns
//! the only copy (the result is identical).
//!
//! The AVM limits byte strings to 4096 bytes; none of these functions
//! enforces it (no operation here can make a string longer than its longest
//! operand), and all of them accept any length without panicking.

use std::fmt;
use std::str::FromStr;

/// An AVM evaluation error: the program fails with this message.
///
/// `Display` is exactly go-algorand's error text, e.g.
/// `- would result negative`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AvmError {
    /// uint64 `-` with the subtrahend larger than the minuend:
    /// `- would result negative`.
    MinusNegative,
    /// uint64 `+` overflowing 64 bits: `+ overflowed`.
    PlusOverflow,
    /// `setbit` with a bit value other than 0 or 1: `setbit value > 1`.
    SetbitValue,
    /// `setbit` on bytes with an index past the end:
    /// `setbit index beyond byteslice`.
    SetbitIndex,
    /// `getbit` on bytes with an index past the end:
    /// `getbit index beyond byteslice`.
    GetbitIndex,
    /// `getbyte` with an index `>=` the length:
    /// `getbyte index beyond array length`.
    GetbyteIndex,
    /// `btoi` of more than 8 bytes: `btoi arg too long, got N bytes`
    /// (the text of go-algorand since its `EvalContext.Stack` refactor;
    /// older releases said `got [N]bytes`).
    BtoiTooLong {
        /// The length of the argument.
        len: usize,
    },
    /// `b+` or `b-` (byte math) with an operand longer than 64 bytes:
    /// `math attempted on large byte-array`.
    ByteMathTooLarge,
    /// `b-` with the subtrahend larger than the minuend:
    /// `byte math would have negative result`.
    ByteMathNegative,
}

impl AvmError {
    /// Every message that does not carry a number, with its error.
    const FIXED: [(&'static str, AvmError); 8] = [
        ("- would result negative", AvmError::MinusNegative),
        ("+ overflowed", AvmError::PlusOverflow),
        ("setbit value > 1", AvmError::SetbitValue),
        ("setbit index beyond byteslice", AvmError::SetbitIndex),
        ("getbit index beyond byteslice", AvmError::GetbitIndex),
        ("getbyte index beyond array length", AvmError::GetbyteIndex),
        (
            "math attempted on large byte-array",
            AvmError::ByteMathTooLarge,
        ),
        (
            "byte math would have negative result",
            AvmError::ByteMathNegative,
        ),
    ];

    /// The exact go-algorand message (the same text as `Display`).
    pub fn message(&self) -> String {
        self.to_string()
    }

    /// Finds the first known AVM error message inside an evaluator's error
    /// text, e.g. `logic eval error: - would result negative. Details: pc=…`.
    /// Returns `None` when the text holds none of them.
    pub fn find_in(text: &str) -> Option<AvmError> {
        let mut best: Option<(usize, AvmError)> = None;
        for (msg, err) in AvmError::FIXED {
            if let Some(at) = text.find(msg) {
                if best.is_none_or(|(b, _)| at < b) {
                    best = Some((at, err));
                }
            }
        }
        const BTOI: &str = "btoi arg too long, got ";
        if let Some(at) = text.find(BTOI) {
            if best.is_none_or(|(b, _)| at < b) {
                let rest = &text[at + BTOI.len()..];
                // Both "got 9 bytes" and the older "got [9]bytes".
                let rest = rest.strip_prefix('[').unwrap_or(rest);
                let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
                if let Ok(len) = digits.parse() {
                    best = Some((at, AvmError::BtoiTooLong { len }));
                }
            }
        }
        best.map(|(_, e)| e)
    }
}

impl fmt::Display for AvmError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AvmError::BtoiTooLong { len } => write!(f, "btoi arg too long, got {len} bytes"),
            other => {
                let msg = AvmError::FIXED
                    .iter()
                    .find(|(_, e)| e == other)
                    .map_or("", |(m, _)| m);
                f.write_str(msg)
            }
        }
    }
}

impl std::error::Error for AvmError {}

/// The error of parsing an [`AvmError`] from a string that is not exactly
/// one of its messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownAvmError(pub String);

impl fmt::Display for UnknownAvmError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "not a known AVM error message: {:?}", self.0)
    }
}

impl std::error::Error for UnknownAvmError {}

impl FromStr for AvmError {
    type Err = UnknownAvmError;

    /// Parses exactly one message (the inverse of `Display`).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match AvmError::find_in(s) {
            Some(e) if e.to_string() == s => Ok(e),
            _ => Err(UnknownAvmError(s.to_string())),
        }
    }
}

/// The byte index and in-byte mask of AVM bit `index`, if that byte exists.
fn bit_position(len: usize, index: u64) -> Option<(usize, u8)> {
    let byte = usize::try_from(index / 8).ok()?;
    if byte >= len {
        return None;
    }
    Some((byte, 0x80u8 >> (index % 8)))
}

/// `setbit` on a byte string: a copy of `bytes` with bit `index` (bit 0 =
/// the most significant bit of byte 0) set to `bit`.
///
/// Errors: `bit > 1` → [`AvmError::SetbitValue`] (checked first);
/// `index >= 8 * len` → [`AvmError::SetbitIndex`].
pub fn setbit(bytes: &[u8], index: u64, bit: u64) -> Result<Vec<u8>, AvmError> {
    let mut out = bytes.to_vec();
    setbit_in_place(&mut out, index, bit)?;
    Ok(out)
}

/// [`setbit`] on a byte string the caller owns: changes it in place (on an
/// error it is left unchanged).
pub fn setbit_in_place(bytes: &mut [u8], index: u64, bit: u64) -> Result<(), AvmError> {
    if bit > 1 {
        return Err(AvmError::SetbitValue);
    }
    let (byte, mask) = bit_position(bytes.len(), index).ok_or(AvmError::SetbitIndex)?;
    if bit == 1 {
        bytes[byte] |= mask;
    } else {
        bytes[byte] &= !mask;
    }
    Ok(())
}

/// `getbit` on a byte string: bit `index` (bit 0 = the most significant bit
/// of byte 0), as 0 or 1.
///
/// Errors: `index >= 8 * len` → [`AvmError::GetbitIndex`].
pub fn getbit(bytes: &[u8], index: u64) -> Result<u64, AvmError> {
    let (byte, mask) = bit_position(bytes.len(), index).ok_or(AvmError::GetbitIndex)?;
    Ok(u64::from(bytes[byte] & mask != 0))
}

/// `bitlen` of a byte string: the big-endian integer's highest set bit
/// index plus one; 0 for an empty or all-zero string. Never fails.
pub fn bitlen(bytes: &[u8]) -> u64 {
    match bytes.iter().position(|&b| b != 0) {
        None => 0,
        Some(i) => {
            let below = (bytes.len() - i - 1) as u64 * 8;
            below + u64::from(8 - bytes[i].leading_zeros())
        }
    }
}

/// `bitlen` of a uint64: 0 for 0, else the highest set bit index plus one.
pub fn bitlen_uint(x: u64) -> u64 {
    u64::from(64 - x.leading_zeros())
}

/// Applies a bytewise operation after zero-extending the shorter operand on
/// the left; the result has the longer length.
fn bytewise(a: &[u8], b: &[u8], op: impl Fn(u8, u8) -> u8) -> Vec<u8> {
    let len = a.len().max(b.len());
    let (pa, pb) = (len - a.len(), len - b.len());
    (0..len)
        .map(|i| {
            let x = if i < pa { 0 } else { a[i - pa] };
            let y = if i < pb { 0 } else { b[i - pb] };
            op(x, y)
        })
        .collect()
}

/// `b|`: bytewise or, the shorter operand zero-extended on the left; the
/// result has the longer length. Never fails.
pub fn b_or(a: &[u8], b: &[u8]) -> Vec<u8> {
    bytewise(a, b, |x, y| x | y)
}

/// `b&`: bytewise and, the shorter operand zero-extended on the left; the
/// result has the longer length (its leading bytes are then zero). Never
/// fails.
pub fn b_and(a: &[u8], b: &[u8]) -> Vec<u8> {
    bytewise(a, b, |x, y| x & y)
}

/// `b^`: bytewise xor, the shorter operand zero-extended on the left; the
/// result has the longer length. Never fails.
pub fn b_xor(a: &[u8], b: &[u8]) -> Vec<u8> {
    bytewise(a, b, |x, y| x ^ y)
}

/// The longest operand of byte math (`b+`): 64 bytes.
pub const MAX_BYTE_MATH_SIZE: usize = 64;

/// `b+`: the sum of two big-endian unsigned integers of at most 64 bytes each,
/// as go-algorand's `big.Int.Bytes()`: minimal length, leading zero bytes
/// dropped (zero is the empty string), up to 65 bytes.
///
/// Errors: an operand longer than 64 bytes → [`AvmError::ByteMathTooLarge`].
pub fn b_plus(a: &[u8], b: &[u8]) -> Result<Vec<u8>, AvmError> {
    if a.len() > MAX_BYTE_MATH_SIZE || b.len() > MAX_BYTE_MATH_SIZE {
        return Err(AvmError::ByteMathTooLarge);
    }
    let len = a.len().max(b.len()) + 1;
    let mut out = vec![0u8; len];
    let mut carry = 0u16;
    for k in 0..len {
        let x = if k < a.len() { a[a.len() - 1 - k] } else { 0 };
        let y = if k < b.len() { b[b.len() - 1 - k] } else { 0 };
        let sum = u16::from(x) + u16::from(y) + carry;
        out[len - 1 - k] = sum as u8;
        carry = sum >> 8;
    }
    let first = out.iter().position(|&v| v != 0).unwrap_or(len);
    out.drain(..first);
    Ok(out)
}

/// `b-`: the difference of two big-endian unsigned integers of at most 64
/// bytes each, as go-algorand's `big.Int.Bytes()`: minimal length, leading
/// zero bytes dropped (zero is the empty string).
///
/// Errors: an operand longer than 64 bytes → [`AvmError::ByteMathTooLarge`];
/// `b > a` → [`AvmError::ByteMathNegative`].
pub fn b_minus(a: &[u8], b: &[u8]) -> Result<Vec<u8>, AvmError> {
    if a.len() > MAX_BYTE_MATH_SIZE || b.len() > MAX_BYTE_MATH_SIZE {
        return Err(AvmError::ByteMathTooLarge);
    }
    let len = a.len().max(b.len());
    let mut out = vec![0u8; len];
    let mut borrow = 0i16;
    for k in 0..len {
        let x = if k < a.len() { a[a.len() - 1 - k] } else { 0 };
        let y = if k < b.len() { b[b.len() - 1 - k] } else { 0 };
        let mut diff = i16::from(x) - i16::from(y) - borrow;
        borrow = i16::from(diff < 0);
        diff += 256 * borrow;
        out[len - 1 - k] = diff as u8;
    }
    if borrow != 0 {
        return Err(AvmError::ByteMathNegative);
    }
    let first = out.iter().position(|&v| v != 0).unwrap_or(len);
    out.drain(..first);
    Ok(out)
}

/// `b~`: bytewise not, same length. Never fails.
pub fn b_not(a: &[u8]) -> Vec<u8> {
    a.iter().map(|x| !x).collect()
}

/// uint64 `-`: `a - b`. Errors: `b > a` → [`AvmError::MinusNegative`].
pub fn minus(a: u64, b: u64) -> Result<u64, AvmError> {
    a.checked_sub(b).ok_or(AvmError::MinusNegative)
}

/// uint64 `+`: `a + b`. Errors: a carry out of 64 bits →
/// [`AvmError::PlusOverflow`].
pub fn plus(a: u64, b: u64) -> Result<u64, AvmError> {
    a.checked_add(b).ok_or(AvmError::PlusOverflow)
}

/// `getbyte`: byte `index` of `bytes` as a uint64. Errors: `index >= len` →
/// [`AvmError::GetbyteIndex`].
pub fn getbyte(bytes: &[u8], index: u64) -> Result<u64, AvmError> {
    usize::try_from(index)
        .ok()
        .and_then(|i| bytes.get(i))
        .map(|&b| u64::from(b))
        .ok_or(AvmError::GetbyteIndex)
}

/// `btoi`: up to 8 big-endian bytes (empty is 0) as a uint64. Errors: more
/// than 8 bytes → [`AvmError::BtoiTooLong`].
pub fn btoi(bytes: &[u8]) -> Result<u64, AvmError> {
    if bytes.len() > 8 {
        return Err(AvmError::BtoiTooLong { len: bytes.len() });
    }
    Ok(bytes.iter().fold(0u64, |acc, &b| (acc << 8) | u64::from(b)))
}

/// `itob`: a uint64 as 8 big-endian bytes. Never fails.
pub fn itob(x: u64) -> [u8; 8] {
    x.to_be_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn b_minus_is_big_endian_subtraction_without_leading_zeros() {
        assert_eq!(b_minus(&[1, 0], &[1]), Ok(vec![0xff]));
        assert_eq!(b_minus(&[5], &[5]), Ok(vec![]));
        assert_eq!(b_minus(&[0x80, 0x80], &[1, 1]), Ok(vec![0x7f, 0x7f]));
        assert_eq!(b_minus(&[1], &[2]), Err(AvmError::ByteMathNegative));
        assert_eq!(b_minus(&[1], &[0, 2]), Err(AvmError::ByteMathNegative));
        assert_eq!(b_minus(&[0; 65], &[]), Err(AvmError::ByteMathTooLarge));
        assert_eq!(b_not(&[0, 0xf0]), vec![0xff, 0x0f]);
    }

    #[test]
    fn b_plus_is_big_endian_addition_without_leading_zeros() {
        assert_eq!(b_plus(&[], &[]), Ok(vec![]));
        assert_eq!(b_plus(&[0, 0, 1], &[0]), Ok(vec![1]));
        assert_eq!(b_plus(&[0xff], &[1]), Ok(vec![1, 0]));
        assert_eq!(b_plus(&[0x0f; 64], &[0x0f; 64]), Ok(vec![0x1e; 64]));
        assert_eq!(b_plus(&[0xff; 64], &[1]).map(|v| v.len()), Ok(65));
        assert_eq!(b_plus(&[0; 65], &[1]), Err(AvmError::ByteMathTooLarge));
        assert_eq!(b_plus(&[1], &[0; 65]), Err(AvmError::ByteMathTooLarge));
    }

    #[test]
    fn error_messages_are_go_algorand_verbatim() {
        let cases = [
            (AvmError::MinusNegative, "- would result negative"),
            (AvmError::PlusOverflow, "+ overflowed"),
            (AvmError::SetbitValue, "setbit value > 1"),
            (AvmError::SetbitIndex, "setbit index beyond byteslice"),
            (AvmError::GetbitIndex, "getbit index beyond byteslice"),
            (AvmError::GetbyteIndex, "getbyte index beyond array length"),
            (
                AvmError::BtoiTooLong { len: 9 },
                "btoi arg too long, got 9 bytes",
            ),
            (
                AvmError::ByteMathTooLarge,
                "math attempted on large byte-array",
            ),
        ];
        for (err, msg) in cases {
            assert_eq!(err.to_string(), msg);
            assert_eq!(err.message(), msg);
            assert_eq!(msg.parse::<AvmError>(), Ok(err));
        }
        assert!("nonsense".parse::<AvmError>().is_err());
        assert!("- would result negative.".parse::<AvmError>().is_err());
    }

    #[test]
    fn find_in_evaluator_text() {
        let text =
            "logic eval error: - would result negative. Details: app=1001, pc=120, opcodes=...";
        assert_eq!(AvmError::find_in(text), Some(AvmError::MinusNegative));
        let text = "logic eval error: setbit index beyond byteslice. Details: pc=9";
        assert_eq!(AvmError::find_in(text), Some(AvmError::SetbitIndex));
        assert_eq!(
            AvmError::find_in("btoi arg too long, got [12]bytes"),
            Some(AvmError::BtoiTooLong { len: 12 })
        );
        assert_eq!(AvmError::find_in("assert failed pc=3"), None);
    }

    #[test]
    fn setbit_bit_numbering() {
        assert_eq!(setbit(&[0x00], 0, 1), Ok(vec![0x80]));
        assert_eq!(setbit(&[0x00], 7, 1), Ok(vec![0x01]));
        assert_eq!(setbit(&[0x00, 0x00], 9, 1), Ok(vec![0x00, 0x40]));
        assert_eq!(setbit(&[0xff, 0xff], 15, 0), Ok(vec![0xff, 0xfe]));
        assert_eq!(setbit(&[0x01, 0xff], 7, 0), Ok(vec![0x00, 0xff]));
        // Clearing a clear bit and setting a set bit change nothing.
        assert_eq!(setbit(&[0x00], 3, 0), Ok(vec![0x00]));
        assert_eq!(setbit(&[0xff], 3, 1), Ok(vec![0xff]));
    }

    #[test]
    fn setbit_errors() {
        assert_eq!(setbit(&[0x00], 8, 1), Err(AvmError::SetbitIndex));
        assert_eq!(setbit(&[], 0, 0), Err(AvmError::SetbitIndex));
        assert_eq!(setbit(&[0u8; 18], 144, 0), Err(AvmError::SetbitIndex));
        assert_eq!(setbit(&[0u8; 18], 143, 0), Ok(vec![0u8; 18]));
        assert_eq!(setbit(&[0u8; 19], 144, 0), Ok(vec![0u8; 19]));
        assert_eq!(setbit(&[0x00], u64::MAX, 0), Err(AvmError::SetbitIndex));
        // The value is checked before the index.
        assert_eq!(setbit(&[0x00], 0, 2), Err(AvmError::SetbitValue));
        assert_eq!(setbit(&[0x00], 99, 2), Err(AvmError::SetbitValue));
        let mut b = [0xaa];
        assert_eq!(setbit_in_place(&mut b, 8, 1), Err(AvmError::SetbitIndex));
        assert_eq!(b, [0xaa]);
        assert_eq!(setbit_in_place(&mut b, 1, 1), Ok(()));
        assert_eq!(b, [0xea]);
    }

    #[test]
    fn getbit_cases() {
        assert_eq!(getbit(&[0x80], 0), Ok(1));
        assert_eq!(getbit(&[0x80], 1), Ok(0));
        assert_eq!(getbit(&[0x00, 0x01], 15), Ok(1));
        assert_eq!(getbit(&[0x00, 0x01], 16), Err(AvmError::GetbitIndex));
        assert_eq!(getbit(&[], 0), Err(AvmError::GetbitIndex));
        assert_eq!(getbit(&[0xff], u64::MAX), Err(AvmError::GetbitIndex));
    }

    #[test]
    fn bitlen_cases() {
        assert_eq!(bitlen(&[]), 0);
        assert_eq!(bitlen(&[0, 0, 0]), 0);
        assert_eq!(bitlen(&[1]), 1);
        assert_eq!(bitlen(&[0x80]), 8);
        assert_eq!(bitlen(&[0, 1, 0]), 9);
        assert_eq!(bitlen(&[0x01, 0xff]), 9);
        assert_eq!(bitlen(&[0, 0, 0x10]), 5);
        let mut big = vec![0u8; 4096];
        assert_eq!(bitlen(&big), 0);
        big[0] = 0x80;
        assert_eq!(bitlen(&big), 4096 * 8);
        assert_eq!(bitlen_uint(0), 0);
        assert_eq!(bitlen_uint(1), 1);
        assert_eq!(bitlen_uint(u64::MAX), 64);
    }

    #[test]
    fn bitwise_zero_extend_left() {
        assert_eq!(b_or(&[0x01], &[0x10, 0x00]), vec![0x10, 0x01]);
        assert_eq!(b_or(&[0x10, 0x00], &[0x01]), vec![0x10, 0x01]);
        assert_eq!(b_and(&[0xff], &[0xff, 0x0f]), vec![0x00, 0x0f]);
        assert_eq!(b_and(&[0xf0, 0x0f], &[0xff, 0xff]), vec![0xf0, 0x0f]);
        assert_eq!(b_xor(&[0xff], &[0x0f, 0x0f]), vec![0x0f, 0xf0]);
        assert_eq!(b_or(&[], &[]), Vec::<u8>::new());
        assert_eq!(b_and(&[], &[0, 0]), vec![0, 0]);
        // No 64-byte limit.
        assert_eq!(b_or(&[0u8; 200], &[1u8; 100]).len(), 200);
    }

    #[test]
    fn uint_arithmetic() {
        assert_eq!(minus(5, 3), Ok(2));
        assert_eq!(minus(3, 3), Ok(0));
        assert_eq!(minus(3, 5), Err(AvmError::MinusNegative));
        assert_eq!(minus(0x10, 0x11), Err(AvmError::MinusNegative));
        assert_eq!(plus(1, 2), Ok(3));
        assert_eq!(plus(u64::MAX, 0), Ok(u64::MAX));
        assert_eq!(plus(u64::MAX, 1), Err(AvmError::PlusOverflow));
    }

    #[test]
    fn getbyte_btoi_itob() {
        assert_eq!(getbyte(&[1, 2, 3], 2), Ok(3));
        assert_eq!(getbyte(&[1, 2, 3], 3), Err(AvmError::GetbyteIndex));
        assert_eq!(getbyte(&[], 0), Err(AvmError::GetbyteIndex));
        assert_eq!(getbyte(&[1], u64::MAX), Err(AvmError::GetbyteIndex));
        assert_eq!(btoi(&[]), Ok(0));
        assert_eq!(btoi(&[1, 0]), Ok(256));
        assert_eq!(btoi(&[0xff; 8]), Ok(u64::MAX));
        assert_eq!(btoi(&[0; 9]), Err(AvmError::BtoiTooLong { len: 9 }));
        assert_eq!(itob(258), [0, 0, 0, 0, 0, 0, 1, 2]);
        assert_eq!(btoi(&itob(0xdead_beef)), Ok(0xdead_beef));
    }
}
