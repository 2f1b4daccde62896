//! `generate`: the contract's start position for a player, bit-for-bit.
//!
//! # Algorithm (the Solidity loop, reproduced exactly)
//!
//! ```text
//! seed   = uint256(keccak256(seed_bytes))   // abi.encodePacked(address): the 20 raw bytes
//! bitmap = 1 << 64                          // bit k set = square k taken; bit 64 = sentinel
//! index  = 64
//! for i in 1..=8:
//!     if seed == 0: break
//!     while (bitmap >> index) & 1 == 1 && seed != 0:
//!         index = seed & 0x3F               // 6 random bits pick a square 0..63
//!         seed >>= 6
//!     bitmap |= 1 << index
//!     puzzle |= i << (index << 2)           // digit i into square index
//!     index = 64
//! ```
//!
//! Each digit 1..=8 goes to the first not-yet-taken square drawn from the seed, 6 bits at a
//! time from the least significant end. The corner cases, all reproduced here because they
//! fall out of the same `uint256` arithmetic:
//!
//! * **The seed runs out between digits** (`seed == 0` at the top of an iteration): the
//!   loop stops and the remaining digits are never placed, so the start has fewer than 8
//!   givens.
//! * **The seed runs out inside the `while`** right after drawing a square that is already
//!   taken: the loop exits with that taken `index`, and `puzzle |= i << (index << 2)` ORs the
//!   digit into the nibble already there (e.g. 1 | 2 = 3), which can even produce a nibble
//!   9..=15. The digit count then drops as well.
//! * A seed of 0 produces the empty board. (The `while` cannot exit with the sentinel 64
//!   still in `index`: it is only entered with `seed != 0`, so it draws at least once; even
//!   if it did, `i << 256` is 0 in the EVM and the board would be unchanged.)
//!
//! A keccak-256 seed has about 256 significant bits (42 draws); the 8 digits need about 8.5
//! draws on average, so the first two cases need the top ~200 bits of the hash to be 0 and
//! never happen for real addresses; they matter only for [`generate_from_seed`] with small
//! seeds. For real seeds every start has exactly 8 givens holding 1..=8 once each — but not
//! every such start is solvable (see [`crate::solver`]).

use tiny_keccak::{Hasher, Keccak};

use crate::board::Board;
use crate::u256::U256;

/// Keccak-256 (the Ethereum hash with the original Keccak padding — *not* SHA3-256) of `bytes`.
///
/// `keccak256(b"")` is `c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470`.
pub fn keccak256(bytes: &[u8]) -> [u8; 32] {
    let mut hasher = Keccak::v256();
    hasher.update(bytes);
    let mut out = [0u8; 32];
    hasher.finalize(&mut out);
    out
}

/// The contract's `generate`: hashes `seed_bytes` with [`keccak256`] (read as a big-endian
/// `uint256`) and runs [`generate_from_seed`].
///
/// For the original contract `seed_bytes` is the 20 bytes of the player's Ethereum address
/// (`abi.encodePacked(address)`); a 32-byte Algorand public key is hashed the same way. See
/// [`crate::parse_address`] to turn an address string into these bytes.
pub fn generate(seed_bytes: &[u8]) -> Board {
    generate_from_seed(U256::from_be_bytes(keccak256(seed_bytes)))
}

/// The loop of the contract's `generate` alone, from an already-hashed seed (see the module
/// docs for the exact semantics, including what happens when `seed` runs out).
pub fn generate_from_seed(seed: U256) -> Board {
    const SENTINEL: u32 = 64;
    let mut seed = seed;
    let mut puzzle = U256::ZERO;
    // Bits 0..=64 only: a u128 holds it exactly, and `1 << index` never exceeds bit 64.
    let mut bitmap: u128 = 1 << SENTINEL;
    let mut index: u32 = SENTINEL;
    for i in 1..=8u64 {
        if seed.is_zero() {
            break;
        }
        while (bitmap >> index) & 1 == 1 && !seed.is_zero() {
            index = (seed.low_u64() & 0x3F) as u32;
            seed >>= 6u32;
        }
        bitmap |= 1 << index;
        // `index << 2` is at most 256; U256's shift gives 0 for 256, as the EVM does.
        puzzle |= U256::from_u64(i) << (index << 2);
        index = SENTINEL;
    }
    Board(puzzle)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(b: &[u8]) -> String {
        b.iter().map(|x| format!("{x:02x}")).collect()
    }

    #[test]
    fn keccak_known_vectors() {
        assert_eq!(
            hex(&keccak256(b"")),
            "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470"
        );
        assert_eq!(
            hex(&keccak256(b"abc")),
            "4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45"
        );
        // The ERC-20 `transfer(address,uint256)` selector is the first 4 bytes.
        assert_eq!(
            hex(&keccak256(b"transfer(address,uint256)")[..4]),
            "a9059cbb"
        );
    }

    /// Squares drawn 6 bits at a time from the least significant end.
    fn seed_of_draws(draws: &[u64]) -> U256 {
        draws
            .iter()
            .rev()
            .fold(U256::ZERO, |acc, &d| (acc << 6u32) | U256::from_u64(d))
    }

    #[test]
    fn digits_go_to_drawn_squares_skipping_taken_ones() {
        // Draws 5, 5 (taken, skipped), 0, 63, 7, 8, 9, 10, 11; the top draw has a nonzero
        // bit above so the seed is not exhausted early.
        let seed = seed_of_draws(&[5, 5, 0, 63, 7, 8, 9, 10, 11, 1]);
        let b = generate_from_seed(seed);
        let mut want = [0u8; 64];
        for (digit, sq) in [
            (1, 5),
            (2, 0),
            (3, 63),
            (4, 7),
            (5, 8),
            (6, 9),
            (7, 10),
            (8, 11),
        ] {
            want[sq] = digit;
        }
        assert_eq!(b, Board::from_cells(want));
    }

    #[test]
    fn zero_seed_gives_empty_board() {
        assert_eq!(generate_from_seed(U256::ZERO), Board::EMPTY);
    }

    #[test]
    fn seed_exhausted_between_digits_stops() {
        // Draws 3 then 4, then nothing left: digits 1 and 2 only.
        let b = generate_from_seed(seed_of_draws(&[3, 4]));
        assert_eq!(b, Board::EMPTY.with_cell(3, 1).with_cell(4, 2));
        // Trailing draws of square 0 cannot happen: the seed is already 0 (draws [3, 0] are
        // the seed 3).
        let b = generate_from_seed(seed_of_draws(&[3, 0]));
        assert_eq!(b, Board::EMPTY.with_cell(3, 1));
    }

    #[test]
    fn seed_exhausted_on_a_taken_square_ors_into_it() {
        // Draws 1 (digit 1), 2 (digit 2), then 1 again, already taken, with nothing left:
        // digit 3 is ORed into square 1: 1 | 3 = 3.
        let b = generate_from_seed(seed_of_draws(&[1, 2, 1]));
        assert_eq!(b, Board::EMPTY.with_cell(1, 1 | 3).with_cell(2, 2));
        // The same with digit 8 falling on digit 5's square: 5 | 8 = 13, a non-digit nibble.
        let b = generate_from_seed(seed_of_draws(&[9, 10, 11, 12, 1, 13, 14, 1]));
        assert_eq!(b.cell(1), 5 | 8);
        assert_eq!(b.cell(1), 13);
        assert_eq!(b.givens(), 7);
    }

    #[test]
    fn real_seeds_place_eight_distinct_digits() {
        for n in 0u32..200 {
            let b = generate(&n.to_be_bytes());
            let mut seen = [false; 9];
            for v in b.cells().iter().copied().filter(|&v| v != 0) {
                assert!((1..=8).contains(&v));
                assert!(!seen[v as usize]);
                seen[v as usize] = true;
            }
            assert_eq!(b.givens(), 8);
        }
    }
}
