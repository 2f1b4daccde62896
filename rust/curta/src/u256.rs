//! A minimal unsigned 256-bit integer with EVM (Solidity `uint256`) semantics.
//!
//! # Layout
//!
//! A [`U256`] is four little-endian `u64` limbs: limb 0 holds bits 0..=63 (the least
//! significant), limb 3 holds bits 192..=255. Only what the puzzle needs is implemented:
//! shifts, `|`, `&`, comparison, conversion to and from 32 big-endian bytes and hex.
//!
//! # Shift semantics
//!
//! Shifts follow the EVM `SHL`/`SHR` opcodes that Solidity compiles `<<`/`>>` on a
//! `uint256` to: bits shifted out are lost, and a shift by 256 or more yields 0 (it never
//! panics and never wraps the amount, unlike Rust's primitive shifts). Shift amounts may
//! be `u32`, `usize` or `U256`.

use core::cmp::Ordering;
use core::fmt;
use core::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Shl, ShlAssign, Shr, ShrAssign};

use crate::error::ParseError;

/// An unsigned 256-bit integer with Solidity `uint256` shift semantics (see the module docs).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct U256([u64; 4]);

impl U256 {
    /// The value 0.
    pub const ZERO: U256 = U256([0; 4]);
    /// The value 1.
    pub const ONE: U256 = U256([1, 0, 0, 0]);
    /// The largest value, 2^256 - 1.
    pub const MAX: U256 = U256([u64::MAX; 4]);

    /// Builds a value from little-endian limbs (`limbs[0]` is the least significant).
    pub const fn from_limbs(limbs: [u64; 4]) -> U256 {
        U256(limbs)
    }

    /// The little-endian limbs (`[0]` is the least significant).
    pub const fn limbs(&self) -> [u64; 4] {
        self.0
    }

    /// The value `v`.
    pub const fn from_u64(v: u64) -> U256 {
        U256([v, 0, 0, 0])
    }

    /// The low 64 bits (like `uint64(x)` in Solidity: higher bits are dropped).
    pub const fn low_u64(&self) -> u64 {
        self.0[0]
    }

    /// Whether the value is 0.
    pub const fn is_zero(&self) -> bool {
        self.0[0] == 0 && self.0[1] == 0 && self.0[2] == 0 && self.0[3] == 0
    }

    /// Bit `n` (0 = least significant); `false` for `n >= 256`.
    pub const fn bit(&self, n: usize) -> bool {
        n < 256 && (self.0[n / 64] >> (n % 64)) & 1 == 1
    }

    /// Interprets 32 bytes as a big-endian number (as Solidity's `uint256(bytes32)`).
    pub fn from_be_bytes(bytes: [u8; 32]) -> U256 {
        let mut limbs = [0u64; 4];
        for (i, limb) in limbs.iter_mut().enumerate() {
            // Limb i (little-endian) is bytes [32 - 8(i+1), 32 - 8i).
            let start = 32 - 8 * (i + 1);
            let mut chunk = [0u8; 8];
            chunk.copy_from_slice(&bytes[start..start + 8]);
            *limb = u64::from_be_bytes(chunk);
        }
        U256(limbs)
    }

    /// The 32 big-endian bytes of the value.
    pub fn to_be_bytes(&self) -> [u8; 32] {
        let mut out = [0u8; 32];
        for (i, limb) in self.0.iter().enumerate() {
            let start = 32 - 8 * (i + 1);
            out[start..start + 8].copy_from_slice(&limb.to_be_bytes());
        }
        out
    }

    /// Parses a hexadecimal number: an optional `0x`/`0X` prefix followed by 1 to 64 hex
    /// digits (either case). Positions in errors are 0-based character indices into `s`
    /// as given (the prefix included).
    pub fn from_hex(s: &str) -> Result<U256, ParseError> {
        let (digits, offset) = strip_hex_prefix(s);
        let n = digits.chars().count();
        if n == 0 || n > 64 {
            return Err(ParseError::WrongLength {
                what: "256-bit hex number",
                got: n,
                expected: "1 to 64 hex digits",
            });
        }
        let mut v = U256::ZERO;
        for (i, c) in digits.chars().enumerate() {
            let d = hex_value(c).ok_or(ParseError::BadChar {
                what: "256-bit hex number",
                position: offset + i,
                found: c,
                expected: "a hex digit 0-9 or a-f",
            })?;
            v = (v << 4u32) | U256::from_u64(u64::from(d));
        }
        Ok(v)
    }

    /// The value as exactly 64 lowercase hex digits, big-endian, no prefix.
    pub fn to_hex(&self) -> String {
        format!(
            "{:016x}{:016x}{:016x}{:016x}",
            self.0[3], self.0[2], self.0[1], self.0[0]
        )
    }

    fn shl_bits(self, n: u32) -> U256 {
        if n >= 256 {
            return U256::ZERO;
        }
        let limbs = (n / 64) as usize;
        let bits = n % 64;
        let mut out = [0u64; 4];
        for (i, o) in out.iter_mut().enumerate().skip(limbs) {
            let src = i - limbs;
            *o = self.0[src] << bits;
            if bits > 0 && src > 0 {
                *o |= self.0[src - 1] >> (64 - bits);
            }
        }
        U256(out)
    }

    fn shr_bits(self, n: u32) -> U256 {
        if n >= 256 {
            return U256::ZERO;
        }
        let limbs = (n / 64) as usize;
        let bits = n % 64;
        let mut out = [0u64; 4];
        for (i, o) in out.iter_mut().enumerate().take(4 - limbs) {
            let src = i + limbs;
            *o = self.0[src] >> bits;
            if bits > 0 && src + 1 < 4 {
                *o |= self.0[src + 1] << (64 - bits);
            }
        }
        U256(out)
    }

    /// A shift amount as `u32`, saturated to 256 (every amount >= 256 behaves the same).
    fn amount(self) -> u32 {
        if self.0[1] != 0 || self.0[2] != 0 || self.0[3] != 0 || self.0[0] >= 256 {
            256
        } else {
            self.0[0] as u32
        }
    }
}

/// Splits an optional `0x`/`0X` prefix off; returns the rest and the prefix length.
pub(crate) fn strip_hex_prefix(s: &str) -> (&str, usize) {
    match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(rest) => (rest, 2),
        None => (s, 0),
    }
}

/// The value of a hex digit (either case), or `None`.
pub(crate) fn hex_value(c: char) -> Option<u8> {
    c.to_digit(16).map(|d| d as u8)
}

impl From<u64> for U256 {
    fn from(v: u64) -> U256 {
        U256::from_u64(v)
    }
}

impl Ord for U256 {
    fn cmp(&self, other: &U256) -> Ordering {
        // Most significant limb first.
        self.0.iter().rev().cmp(other.0.iter().rev())
    }
}

impl PartialOrd for U256 {
    fn partial_cmp(&self, other: &U256) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Debug for U256 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "U256(0x{})", self.to_hex())
    }
}

/// Formats as 64 lowercase hex digits (with `{:#x}`, prefixed by `0x`).
impl fmt::LowerHex for U256 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if f.alternate() {
            f.write_str("0x")?;
        }
        f.write_str(&self.to_hex())
    }
}

impl BitOr for U256 {
    type Output = U256;
    fn bitor(self, rhs: U256) -> U256 {
        U256([
            self.0[0] | rhs.0[0],
            self.0[1] | rhs.0[1],
            self.0[2] | rhs.0[2],
            self.0[3] | rhs.0[3],
        ])
    }
}

impl BitAnd for U256 {
    type Output = U256;
    fn bitand(self, rhs: U256) -> U256 {
        U256([
            self.0[0] & rhs.0[0],
            self.0[1] & rhs.0[1],
            self.0[2] & rhs.0[2],
            self.0[3] & rhs.0[3],
        ])
    }
}

impl BitOrAssign for U256 {
    fn bitor_assign(&mut self, rhs: U256) {
        *self = *self | rhs;
    }
}

impl BitAndAssign for U256 {
    fn bitand_assign(&mut self, rhs: U256) {
        *self = *self & rhs;
    }
}

macro_rules! shifts_by {
    ($($t:ty => $conv:path),* $(,)?) => {$(
        impl Shl<$t> for U256 {
            type Output = U256;
            fn shl(self, n: $t) -> U256 {
                self.shl_bits($conv(n))
            }
        }
        impl Shr<$t> for U256 {
            type Output = U256;
            fn shr(self, n: $t) -> U256 {
                self.shr_bits($conv(n))
            }
        }
        impl ShlAssign<$t> for U256 {
            fn shl_assign(&mut self, n: $t) {
                *self = *self << n;
            }
        }
        impl ShrAssign<$t> for U256 {
            fn shr_assign(&mut self, n: $t) {
                *self = *self >> n;
            }
        }
    )*};
}

fn amount_u32(n: u32) -> u32 {
    n.min(256)
}

fn amount_usize(n: usize) -> u32 {
    n.min(256) as u32
}

shifts_by! {
    u32 => amount_u32,
    usize => amount_usize,
    U256 => U256::amount,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reference model: the value as a 256-entry bit vector.
    fn bits(v: U256) -> Vec<bool> {
        (0..256).map(|i| v.bit(i)).collect()
    }

    fn sample() -> U256 {
        U256::from_limbs([
            0x0123_4567_89ab_cdef,
            0xfedc_ba98_7654_3210,
            0xdead_beef_cafe_f00d,
            0x8000_0000_0000_0001,
        ])
    }

    #[test]
    fn shifts_match_a_bit_model_for_every_amount() {
        let v = sample();
        let b = bits(v);
        for n in 0..300usize {
            let l = bits(v << n);
            let r = bits(v >> n);
            for i in 0..256 {
                let want_l = i >= n && b[i - n];
                let want_r = i + n < 256 && b[i + n];
                assert_eq!(l[i], want_l, "shl {n} bit {i}");
                assert_eq!(r[i], want_r, "shr {n} bit {i}");
            }
        }
    }

    #[test]
    fn huge_shift_amounts_give_zero() {
        let v = U256::MAX;
        assert_eq!(v << 256u32, U256::ZERO);
        assert_eq!(v >> u32::MAX, U256::ZERO);
        assert_eq!(v << usize::MAX, U256::ZERO);
        assert_eq!(v >> U256::from_limbs([0, 1, 0, 0]), U256::ZERO);
        assert_eq!(v >> U256::from_u64(255), U256::ONE);
        assert_eq!(
            U256::ONE << U256::from_u64(255),
            U256::from_limbs([0, 0, 0, 1 << 63])
        );
    }

    #[test]
    fn bytes_and_hex_round_trip() {
        let v = sample();
        assert_eq!(U256::from_be_bytes(v.to_be_bytes()), v);
        assert_eq!(
            v.to_hex(),
            "8000000000000001deadbeefcafef00dfedcba98765432100123456789abcdef"
        );
        assert_eq!(U256::from_hex(&v.to_hex()), Ok(v));
        assert_eq!(U256::from_hex("0xFF"), Ok(U256::from_u64(255)));
        assert_eq!(v.to_be_bytes()[0], 0x80);
        assert_eq!(v.to_be_bytes()[31], 0xef);
        assert_eq!(format!("{v:#x}"), format!("0x{}", v.to_hex()));
    }

    #[test]
    fn hex_errors() {
        assert!(matches!(
            U256::from_hex("0x"),
            Err(ParseError::WrongLength { got: 0, .. })
        ));
        assert!(matches!(
            U256::from_hex(&"1".repeat(65)),
            Err(ParseError::WrongLength { got: 65, .. })
        ));
        assert!(matches!(
            U256::from_hex("0x12g4"),
            Err(ParseError::BadChar {
                position: 4,
                found: 'g',
                ..
            })
        ));
    }

    #[test]
    fn ordering_is_numeric() {
        let small = U256::from_limbs([u64::MAX, 0, 0, 0]);
        let big = U256::from_limbs([0, 1, 0, 0]);
        assert!(small < big);
        assert!(U256::MAX > big);
        assert_eq!(U256::ZERO.cmp(&U256::ZERO), Ordering::Equal);
    }

    #[test]
    fn bit_ops() {
        let a = U256::from_limbs([0b1100, 1, 0, 7]);
        let b = U256::from_limbs([0b1010, 3, 5, 0]);
        assert_eq!(a | b, U256::from_limbs([0b1110, 3, 5, 7]));
        assert_eq!(a & b, U256::from_limbs([0b1000, 1, 0, 0]));
        assert!(U256::ZERO.is_zero() && !U256::ONE.is_zero());
        assert_eq!(a.low_u64(), 0b1100);
    }
}
