//! Fuzzing the parsers: they never panic, accept exactly the documented forms, and errors
//! name the position and the character (or the length).

use algoku_curta::{algorand_address, parse_address, Board, ParseError, U256};
use proptest::prelude::*;

proptest! {
    // Failures print their minimal input; no regression files are written.
    #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_strings_never_panic(s in "\\PC{0,80}") {
        let _ = Board::from_hex(&s);
        let _ = Board::parse_grid(&s);
        let _ = parse_address(&s);
        let _ = U256::from_hex(&s);
        let _ = s.parse::<Board>();
    }

    #[test]
    fn near_miss_strings_never_panic(s in "(0[xX])?[0-9a-fA-F.A-Z2-7é\\- ]{38,68}") {
        if let Ok(b) = Board::from_hex(&s) {
            let digits = s.trim_start_matches("0x").trim_start_matches("0X");
            prop_assert_eq!(b.to_hex(), digits.to_lowercase());
        }
        if let Ok(b) = Board::parse_grid(&s) {
            prop_assert_eq!(b.to_grid_string(), s.replace('0', "."));
        }
        if let Ok(bytes) = parse_address(&s) {
            prop_assert!(bytes.len() == 20 || bytes.len() == 32);
        }
    }

    #[test]
    fn hex_round_trips(limbs in any::<[u64; 4]>(), upper in any::<bool>(), prefix in any::<bool>()) {
        let b = Board(U256::from_limbs(limbs));
        let mut s = b.to_hex();
        prop_assert_eq!(s.len(), 64);
        if upper { s = s.to_uppercase(); }
        if prefix { s = format!("0x{s}"); }
        prop_assert_eq!(Board::from_hex(&s), Ok(b));
        prop_assert_eq!(U256::from_hex(&s), Ok(b.0));
        prop_assert_eq!(Board::from_cells(b.cells()), b);
    }

    #[test]
    fn a_bad_hex_character_is_named(limbs in any::<[u64; 4]>(), pos in 0usize..64, bad in "[^0-9a-fA-F]", prefix in any::<bool>()) {
        let mut chars: Vec<char> = Board(U256::from_limbs(limbs)).to_hex().chars().collect();
        let c = bad.chars().next().unwrap();
        // "0" then "x" is the accepted prefix, not a bad character: 62 digits
        // follow, a length error (`a_prefix_made_by_the_damage_is_a_length_error`).
        prop_assume!(prefix || pos != 1 || chars[0] != '0' || !matches!(c, 'x' | 'X'));
        chars[pos] = c;
        let mut s: String = chars.into_iter().collect();
        let offset = if prefix { s = format!("0x{s}"); 2 } else { 0 };
        match Board::from_hex(&s) {
            Err(ParseError::BadChar { position, found, .. }) => {
                prop_assert_eq!(position, pos + offset);
                prop_assert_eq!(found, c);
            }
            other => prop_assert!(false, "{:?}", other),
        }
        let e = Board::from_hex(&s).unwrap_err().to_string();
        // Messages count from 1.
        let want = format!("at position {}", pos + offset + 1);
        prop_assert!(e.contains(&want), "{}", e);
    }

    #[test]
    fn wrong_lengths_are_named(n in 0usize..200) {
        prop_assume!(n != 64);
        let s = "a".repeat(n);
        prop_assert_eq!(
            Board::from_hex(&s),
            Err(ParseError::WrongLength { what: "board hex", got: n, expected: "64 hex digits" })
        );
        let e = Board::from_hex(&s).unwrap_err().to_string();
        let want = format!("got {n} characters, expected 64");
        prop_assert!(e.contains(&want), "{}", e);
        let g = ".".repeat(n);
        let grid_len_ok = matches!(Board::parse_grid(&g), Err(ParseError::WrongLength { got, .. }) if got == n);
        prop_assert!(grid_len_ok);
    }

    #[test]
    fn grids_round_trip(cells in proptest::array::uniform32(0u8..9), more in proptest::array::uniform32(0u8..9)) {
        let mut all = [0u8; 64];
        all[..32].copy_from_slice(&cells);
        all[32..].copy_from_slice(&more);
        let b = Board::from_cells(all);
        let g = b.to_grid_string();
        prop_assert_eq!(Board::parse_grid(&g), Ok(b));
        prop_assert_eq!(b.givens(), all.iter().filter(|&&v| v != 0).count());
        prop_assert_eq!(b.pretty().lines().count(), 11);
    }

    #[test]
    fn a_bad_grid_character_is_named(pos in 0usize..64, bad in "[^.0-8]") {
        let mut chars: Vec<char> = ".".repeat(64).chars().collect();
        let c = bad.chars().next().unwrap();
        chars[pos] = c;
        let s: String = chars.into_iter().collect();
        match Board::parse_grid(&s) {
            Err(ParseError::BadChar { position, found, .. }) => {
                prop_assert_eq!(position, pos);
                prop_assert_eq!(found, c);
            }
            other => prop_assert!(false, "{:?}", other),
        }
    }

    #[test]
    fn addresses_round_trip(key in any::<[u8; 32]>(), eth in any::<[u8; 20]>()) {
        let a = algorand_address(&key);
        prop_assert_eq!(a.len(), 58);
        prop_assert_eq!(parse_address(&a), Ok(key.to_vec()));
        let hex32: String = key.iter().map(|b| format!("{b:02x}")).collect();
        prop_assert_eq!(parse_address(&format!("0x{hex32}")), Ok(key.to_vec()));
        let hex20: String = eth.iter().map(|b| format!("{b:02X}")).collect();
        prop_assert_eq!(parse_address(&format!("0x{hex20}")), Ok(eth.to_vec()));
    }

    #[test]
    fn a_damaged_algorand_address_is_rejected(key in any::<[u8; 32]>(), pos in 0usize..58, c in "[A-Z2-7]") {
        let a = algorand_address(&key);
        let c = c.chars().next().unwrap();
        prop_assume!(a.chars().nth(pos) != Some(c));
        let mut chars: Vec<char> = a.chars().collect();
        chars[pos] = c;
        let s: String = chars.into_iter().collect();
        // Either the checksum or (last character) the trailing bits give it away.
        let r = parse_address(&s);
        let rejected = matches!(
            r,
            Err(ParseError::BadChecksum { .. }) | Err(ParseError::BadChar { position: 57, .. })
        );
        prop_assert!(rejected, "{:?}", r);
    }
}

/// The damage that turns the first two digits into "0x" makes a prefixed string of 62 digits:
/// a length error, not a bad character (the case the property above leaves out).
#[test]
fn a_prefix_made_by_the_damage_is_a_length_error() {
    for x in ["0x", "0X"] {
        let s = format!("{x}{}", "0".repeat(62));
        assert_eq!(
            Board::from_hex(&s),
            Err(ParseError::WrongLength {
                what: "board hex",
                got: 62,
                expected: "64 hex digits"
            })
        );
    }
}
