//! Property tests of the AVM operations against naive reference models
//! (bit by bit, or through `u128` arithmetic), on arbitrary arguments: none
//! may panic, and each must agree with its definition.

use algoku_avm::ops::{
    b_and, b_or, b_xor, bitlen, btoi, getbit, getbyte, minus, plus, setbit, setbit_in_place,
};
use algoku_avm::AvmError;
use proptest::prelude::*;

/// The bits of a byte string, bit 0 first (the MSB of byte 0).
fn bits(bytes: &[u8]) -> Vec<bool> {
    bytes
        .iter()
        .flat_map(|&b| (0..8).map(move |k| b & (0x80 >> k) != 0))
        .collect()
}

/// A byte string of up to 16 bytes as an integer.
fn as_u128(bytes: &[u8]) -> u128 {
    bytes.iter().fold(0, |acc, &b| (acc << 8) | u128::from(b))
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 3_000,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn setbit_getbit(bytes in prop::collection::vec(any::<u8>(), 0..40),
                     index in prop_oneof![0u64..400, any::<u64>()],
                     bit in prop_oneof![0u64..2, any::<u64>()]) {
        let got = setbit(&bytes, index, bit);
        let mut in_place = bytes.clone();
        let got_in_place = setbit_in_place(&mut in_place, index, bit);
        if bit > 1 {
            prop_assert_eq!(got, Err(AvmError::SetbitValue));
            prop_assert_eq!(got_in_place, Err(AvmError::SetbitValue));
            prop_assert_eq!(&in_place, &bytes);
        } else if index >= 8 * bytes.len() as u64 {
            prop_assert_eq!(got, Err(AvmError::SetbitIndex));
            prop_assert_eq!(got_in_place, Err(AvmError::SetbitIndex));
            prop_assert_eq!(getbit(&bytes, index), Err(AvmError::GetbitIndex));
        } else {
            let out = got.unwrap();
            prop_assert_eq!(got_in_place, Ok(()));
            prop_assert_eq!(&out, &in_place);
            let (before, after) = (bits(&bytes), bits(&out));
            for (k, (b, a)) in before.iter().zip(&after).enumerate() {
                if k as u64 == index {
                    prop_assert_eq!(*a, bit == 1);
                } else {
                    prop_assert_eq!(a, b);
                }
            }
            prop_assert_eq!(getbit(&out, index), Ok(bit));
            prop_assert_eq!(getbit(&bytes, index), Ok(u64::from(before[index as usize])));
        }
    }

    #[test]
    fn bitlen_is_highest_bit(bytes in prop::collection::vec(
        prop_oneof![Just(0u8), any::<u8>()], 0..80)) {
        let b = bits(&bytes);
        let want = b.iter().position(|&x| x).map_or(0, |p| b.len() - p) as u64;
        prop_assert_eq!(bitlen(&bytes), want);
        if bytes.len() <= 16 {
            prop_assert_eq!(bitlen(&bytes), u64::from(128 - as_u128(&bytes).leading_zeros()));
        }
    }

    #[test]
    fn bitwise_as_integers(a in prop::collection::vec(any::<u8>(), 0..17),
                           b in prop::collection::vec(any::<u8>(), 0..17)) {
        let len = a.len().max(b.len());
        let (x, y) = (as_u128(&a[..a.len().min(16)]), as_u128(&b[..b.len().min(16)]));
        for (out, want) in [(b_or(&a, &b), x | y), (b_and(&a, &b), x & y), (b_xor(&a, &b), x ^ y)] {
            prop_assert_eq!(out.len(), len);
            if len <= 16 {
                prop_assert_eq!(as_u128(&out), want);
            }
        }
        prop_assert_eq!(b_or(&a, &b), b_or(&b, &a));
        prop_assert_eq!(b_and(&a, &b), b_and(&b, &a));
    }

    #[test]
    fn uint_ops(a in any::<u64>(), b in any::<u64>()) {
        match minus(a, b) {
            Ok(d) => prop_assert_eq!(u128::from(d) + u128::from(b), u128::from(a)),
            Err(e) => {
                prop_assert!(b > a);
                prop_assert_eq!(e.to_string(), "- would result negative");
            }
        }
        match plus(a, b) {
            Ok(s) => prop_assert_eq!(u128::from(s), u128::from(a) + u128::from(b)),
            Err(e) => {
                prop_assert!(u128::from(a) + u128::from(b) > u128::from(u64::MAX));
                prop_assert_eq!(e.to_string(), "+ overflowed");
            }
        }
    }

    #[test]
    fn getbyte_btoi(bytes in prop::collection::vec(any::<u8>(), 0..12),
                    index in prop_oneof![0u64..16, any::<u64>()]) {
        match getbyte(&bytes, index) {
            Ok(v) => prop_assert_eq!(v, u64::from(bytes[index as usize])),
            Err(e) => {
                prop_assert!(index >= bytes.len() as u64);
                prop_assert_eq!(e.to_string(), "getbyte index beyond array length");
            }
        }
        match btoi(&bytes) {
            Ok(v) => prop_assert_eq!(u128::from(v), as_u128(&bytes)),
            Err(e) => {
                prop_assert!(bytes.len() > 8);
                prop_assert_eq!(e.to_string(), format!("btoi arg too long, got {} bytes", bytes.len()));
            }
        }
    }
}
