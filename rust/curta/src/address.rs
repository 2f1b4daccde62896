//! Player addresses → the bytes that `generate` hashes.
//!
//! Accepted forms:
//!
//! * `0x` + 40 hex digits: an Ethereum address, 20 bytes (what the original contract hashes
//!   with `abi.encodePacked(address)`); mixed-case (EIP-55) digits are accepted, the
//!   checksum casing is not enforced;
//! * `0x` + 64 hex digits: 32 raw bytes, e.g. an Algorand public key;
//! * 58 characters of RFC 4648 base32 (uppercase `A`-`Z`, `2`-`7`, no padding): an Algorand
//!   address. Its 290 bits decode to 36 bytes (the 2 trailing bits must be 0): the 32-byte
//!   public key followed by a 4-byte checksum, the last 4 bytes of SHA-512/256 of the key,
//!   which is verified. The public key is returned.
//!
//! The `0x` prefix (or `0X`) is optional for the hex forms: 40 and 64 differ from 58, so
//! there is no ambiguity.

use sha2::{Digest, Sha512_256};

use crate::error::ParseError;
use crate::u256::{hex_value, strip_hex_prefix};

const WHAT: &str = "address";
const BASE32: &[u8; 32] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/// Parses a player address into the bytes `generate` hashes: 20 bytes for an Ethereum
/// address (`0x` + 40 hex digits), 32 bytes for `0x` + 64 hex digits, and the 32-byte
/// public key of a 58-character Algorand address (checksum verified). See the module docs.
pub fn parse_address(s: &str) -> Result<Vec<u8>, ParseError> {
    let (digits, offset) = strip_hex_prefix(s);
    let n = digits.chars().count();
    match n {
        40 | 64 => parse_hex_bytes(digits, offset),
        58 if offset == 0 => parse_algorand(digits).map(|pk| pk.to_vec()),
        _ => Err(ParseError::WrongLength {
            what: WHAT,
            got: s.chars().count(),
            expected: "0x + 40 hex digits (Ethereum), 0x + 64 hex digits (32 bytes) \
                       or 58 base32 characters (Algorand)",
        }),
    }
}

fn parse_hex_bytes(digits: &str, offset: usize) -> Result<Vec<u8>, ParseError> {
    let mut nibbles = Vec::with_capacity(64);
    for (i, c) in digits.chars().enumerate() {
        nibbles.push(hex_value(c).ok_or(ParseError::BadChar {
            what: WHAT,
            position: offset + i,
            found: c,
            expected: "a hex digit 0-9 or a-f",
        })?);
    }
    Ok(nibbles.chunks(2).map(|p| (p[0] << 4) | p[1]).collect())
}

/// Decodes and checks a 58-character Algorand address; returns the public key.
fn parse_algorand(s: &str) -> Result<[u8; 32], ParseError> {
    // 58 characters of 5 bits: 290 bits, so 36 bytes and 2 bits that must be zero.
    let mut bytes = [0u8; 36];
    let mut acc: u32 = 0;
    let mut nbits = 0;
    let mut out = 0;
    for (i, c) in s.chars().enumerate() {
        let v = BASE32
            .iter()
            .position(|&b| char::from(b) == c)
            .ok_or(ParseError::BadChar {
                what: "Algorand address",
                position: i,
                found: c,
                expected: "an uppercase base32 character A-Z or 2-7",
            })? as u32;
        if i == 57 && v & 0b11 != 0 {
            return Err(ParseError::BadChar {
                what: "Algorand address",
                position: i,
                found: c,
                expected: "a last character whose 2 trailing bits are 0: A, E, I, M, Q, U, Y or 4",
            });
        }
        acc = (acc << 5) | v;
        nbits += 5;
        if nbits >= 8 {
            nbits -= 8;
            bytes[out] = (acc >> nbits) as u8;
            out += 1;
            acc &= (1 << nbits) - 1;
        }
    }
    let mut pk = [0u8; 32];
    pk.copy_from_slice(&bytes[..32]);
    let mut found = [0u8; 4];
    found.copy_from_slice(&bytes[32..]);
    let expected = algorand_checksum(&pk);
    if found != expected {
        return Err(ParseError::BadChecksum { expected, found });
    }
    Ok(pk)
}

/// The last 4 bytes of SHA-512/256 of the public key.
fn algorand_checksum(pk: &[u8; 32]) -> [u8; 4] {
    let digest = Sha512_256::digest(pk);
    let mut c = [0u8; 4];
    c.copy_from_slice(&digest[28..32]);
    c
}

/// The 58-character Algorand address of a 32-byte public key (base32 of the key and its
/// 4-byte checksum, without padding); the inverse of [`parse_address`] on that form.
pub fn algorand_address(public_key: &[u8; 32]) -> String {
    let mut data = public_key.to_vec();
    data.extend_from_slice(&algorand_checksum(public_key));
    let mut s = String::with_capacity(58);
    let mut acc: u32 = 0;
    let mut nbits = 0;
    for &b in &data {
        acc = (acc << 8) | u32::from(b);
        nbits += 8;
        while nbits >= 5 {
            nbits -= 5;
            s.push(char::from(BASE32[((acc >> nbits) & 31) as usize]));
        }
        acc &= (1 << nbits) - 1;
    }
    // 288 bits leave 3 bits: pad them with 2 zero bits into a last character.
    s.push(char::from(BASE32[((acc << (5 - nbits)) & 31) as usize]));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    const ZERO_ADDR: &str = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAY5HFKQ";
    const SEQ_ADDR: &str = "AAAQEAYEAUDAOCAJBIFQYDIOB4IBCEQTCQKRMFYYDENBWHA5DYP7MUPJQE";

    #[test]
    fn ethereum_addresses() {
        let b = parse_address("0x000000000000000000000000000000000000dEaD").unwrap();
        assert_eq!(b.len(), 20);
        assert_eq!(&b[18..], &[0xde, 0xad]);
        assert_eq!(
            parse_address("000000000000000000000000000000000000dead").unwrap(),
            b
        );
    }

    #[test]
    fn raw_32_bytes() {
        let s = format!("0x{}", "ab".repeat(32));
        assert_eq!(parse_address(&s).unwrap(), vec![0xab; 32]);
    }

    #[test]
    fn algorand_addresses() {
        assert_eq!(parse_address(ZERO_ADDR).unwrap(), vec![0u8; 32]);
        let seq: [u8; 32] = core::array::from_fn(|i| i as u8);
        assert_eq!(parse_address(SEQ_ADDR).unwrap(), seq.to_vec());
        assert_eq!(algorand_address(&[0; 32]), ZERO_ADDR);
        assert_eq!(algorand_address(&seq), SEQ_ADDR);
    }

    #[test]
    fn algorand_errors() {
        let bad_sum = ZERO_ADDR.replace("Y5HFKQ", "Y5HFKA");
        assert!(matches!(
            parse_address(&bad_sum),
            Err(ParseError::BadChecksum { .. })
        ));
        let lower = ZERO_ADDR.to_lowercase();
        assert!(matches!(
            parse_address(&lower),
            Err(ParseError::BadChar {
                position: 0,
                found: 'a',
                ..
            })
        ));
        let trailing = ZERO_ADDR.replace("Y5HFKQ", "Y5HFKR");
        let e = parse_address(&trailing).unwrap_err();
        assert!(matches!(
            e,
            ParseError::BadChar {
                position: 57,
                found: 'R',
                ..
            }
        ));
    }

    #[test]
    fn wrong_lengths_and_characters() {
        let e = parse_address("0x1234").unwrap_err();
        assert!(matches!(e, ParseError::WrongLength { got: 6, .. }));
        assert!(e.to_string().contains("40 hex digits"));
        let e = parse_address(&format!("0x{}g", "0".repeat(39))).unwrap_err();
        assert!(matches!(
            e,
            ParseError::BadChar {
                position: 41,
                found: 'g',
                ..
            }
        ));
        // 58 characters after a 0x prefix are not an Algorand address.
        assert!(matches!(
            parse_address(&format!("0x{ZERO_ADDR}")),
            Err(ParseError::WrongLength { got: 60, .. })
        ));
    }
}
