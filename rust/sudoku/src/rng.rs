//! A small deterministic pseudo-random number generator: SplitMix64.
//!
//! # Algorithm
//!
//! SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number
//! generators", OOPSLA 2014; the constants are the ones in Java's
//! `SplittableRandom` and in Vigna's public-domain `splitmix64.c`) keeps one
//! 64-bit counter. Each step adds the odd "golden gamma" `0x9E3779B97F4A7C15`
//! to the counter and returns the counter passed through a fixed bijective
//! mixing function (two xor-shift-multiply rounds and a final xor-shift).
//! Because the mix is a bijection of a counter, the period is 2^64 and every
//! seed is fine, including 0.
//!
//! # Stability promise
//!
//! The output sequence of [`SplitMix64`] for a given seed, and the way
//! [`SplitMix64::below`] and [`SplitMix64::shuffle`] consume it, are **fixed
//! forever**: other crates build deterministic fixtures from them (a unit test
//! pins the first outputs). Never change this file's arithmetic; add a new
//! type instead.

/// The SplitMix64 generator. Deterministic: the same seed gives the same
/// sequence on every platform and in every version of this crate.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SplitMix64 {
    state: u64,
}

/// The increment added to the state at every step (2^64 / golden ratio, odd).
const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

impl SplitMix64 {
    /// Creates a generator from a seed. Every seed (including 0) is valid.
    pub const fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    /// Returns the next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GAMMA);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Returns a uniformly distributed value in `0..n`, without modulo bias.
    ///
    /// Uses Lemire's multiply-and-reject method: the high 64 bits of
    /// `next_u64() * n` (a 128-bit product) are the result, and draws whose
    /// low 64 bits fall below `2^64 mod n` are rejected and redrawn.
    /// `below(0)` and `below(1)` return 0; `below(0)` consumes no output.
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            return 0;
        }
        let mut m = u128::from(self.next_u64()) * u128::from(n);
        let mut low = m as u64;
        if low < n {
            // 2^64 mod n, computed without 128-bit division.
            let threshold = n.wrapping_neg() % n;
            while low < threshold {
                m = u128::from(self.next_u64()) * u128::from(n);
                low = m as u64;
            }
        }
        (m >> 64) as u64
    }

    /// Shuffles a slice in place (Fisher–Yates, from the last element down:
    /// element `i` is swapped with element `below(i + 1)`).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        let mut i = items.len();
        while i > 1 {
            i -= 1;
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pinned_outputs_seed_0() {
        // Reference values of splitmix64 from seed 0 (Vigna's splitmix64.c).
        let want = [
            0xE220_A839_7B1D_CDAF,
            0x6E78_9E6A_A1B9_65F4,
            0x06C4_5D18_8009_454F,
            0xF88B_B8A8_724C_81EC,
        ];
        assert_eq!(first_outputs(0), want);
    }

    /// The first outputs of a generator seeded with `seed`.
    fn first_outputs<const N: usize>(seed: u64) -> [u64; N] {
        let mut r = SplitMix64::new(seed);
        std::array::from_fn(|_| r.next_u64())
    }

    #[test]
    fn pinned_outputs_seed_1234567() {
        let want = [
            6457827717110365317,
            3203168211198807973,
            9817491932198370423,
            4593380528125082431,
            16408922859458223821,
        ];
        assert_eq!(first_outputs(1234567), want);
    }

    #[test]
    fn pinned_below_and_shuffle() {
        let mut r = SplitMix64::new(42);
        let v: Vec<u64> = (0..8).map(|_| r.below(10)).collect();
        let mut r = SplitMix64::new(42);
        let mut items = [0u8, 1, 2, 3, 4, 5, 6, 7, 8];
        r.shuffle(&mut items);
        // Pinned: these values must never change.
        assert_eq!(v, PINNED_BELOW);
        assert_eq!(items, PINNED_SHUFFLE);
    }

    const PINNED_BELOW: [u64; 8] = [7, 1, 2, 3, 0, 8, 2, 8];
    const PINNED_SHUFFLE: [u8; 9] = [5, 8, 4, 3, 0, 2, 7, 1, 6];

    #[test]
    fn below_is_in_range_and_covers() {
        let mut r = SplitMix64::new(7);
        let mut seen = [0u32; 7];
        for _ in 0..7000 {
            let x = r.below(7);
            assert!(x < 7);
            seen[x as usize] += 1;
        }
        assert!(seen.iter().all(|&c| c > 800), "{seen:?}");
        assert_eq!(r.below(0), 0);
        assert_eq!(r.below(1), 0);
        // Huge bounds are fine too.
        assert!(r.below(u64::MAX) < u64::MAX);
    }

    #[test]
    fn shuffle_is_permutation() {
        let mut r = SplitMix64::new(99);
        let mut v: Vec<u32> = (0..100).collect();
        r.shuffle(&mut v);
        let mut s = v.clone();
        s.sort_unstable();
        assert_eq!(s, (0..100).collect::<Vec<_>>());
        assert_ne!(v, s);
        let mut empty: [u8; 0] = [];
        r.shuffle(&mut empty);
    }
}
