//! Deterministic broken solutions, by category, for tests and fixtures.
//!
//! [`break_solution`] takes a valid solution and damages it in one of the ways of
//! [`BreakKind`]. Its choices (which square, which digit) come from a SplitMix64 generator
//! seeded with `rng_seed`, so the same arguments always give the same board, on every
//! platform and version of this crate (the sequence below is part of the contract):
//!
//! ```text
//! state += 0x9E3779B97F4A7C15
//! z = (state ^ (state >> 30)) * 0xBF58476D1CE4E5B9
//! z = (z ^ (z >> 27)) * 0x94D049BB133111EB
//! next = z ^ (z >> 31)                    // all arithmetic wrapping, u64
//! below(n) = next % n
//! ```
//!
//! Why each result fails `verify` when the input is a valid solution: a changed, zeroed or
//! non-digit square spoils its row (a digit repeats or a non-digit appears); swapping two
//! different digits in a row puts each into a column that already holds it elsewhere, and
//! likewise for a column swap and rows; a changed given both breaks the start check and a
//! row. (For an input that is not a valid solution, no such promise is made.)

use crate::board::Board;

/// The ways [`break_solution`] can damage a solution.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum BreakKind {
    /// One square set to a different digit 1..=8.
    ChangeCell,
    /// Two squares of one row swapped (different columns).
    SwapInRow,
    /// Two squares of one column swapped (different rows).
    SwapInColumn,
    /// One of the start's givens changed to a different digit 1..=8 in the solution
    /// (behaves as [`BreakKind::ChangeCell`] if the start has no givens). The carried board
    /// is the start; `verify(start, broken)` is then false.
    ChangeGiven(Board),
    /// One square set to 0.
    ZeroCell,
    /// One square set to a non-digit nibble 9..=15.
    NonDigitCell,
}

impl BreakKind {
    /// Every kind, with `start` for [`BreakKind::ChangeGiven`].
    pub fn all(start: Board) -> [BreakKind; 6] {
        [
            BreakKind::ChangeCell,
            BreakKind::SwapInRow,
            BreakKind::SwapInColumn,
            BreakKind::ChangeGiven(start),
            BreakKind::ZeroCell,
            BreakKind::NonDigitCell,
        ]
    }
}

/// SplitMix64 (Steele, Lea, Flood 2014): a tiny, well-mixed deterministic generator.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A value in `0..n` (`n > 0`; the modulo bias is irrelevant here).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A digit 1..=8 different from `old` (any digit if `old` is not one).
fn other_digit(old: u8, rng: &mut SplitMix64) -> u8 {
    if (1..=8).contains(&old) {
        // old - 1 + 1..=7, wrapped into 0..8, then back to 1..=8.
        ((old - 1) as usize + 1 + rng.below(7)) as u8 % 8 + 1
    } else {
        rng.below(8) as u8 + 1
    }
}

/// `solution` damaged in the way `kind` says, choices drawn from SplitMix64(`rng_seed`)
/// (see the module docs). If `solution` is a valid solution (of `start` for
/// [`BreakKind::ChangeGiven`]), the result fails [`crate::verify()`] (with that start, or
/// with any start for the other kinds).
pub fn break_solution(solution: &Board, kind: BreakKind, rng_seed: u64) -> Board {
    let mut rng = SplitMix64(rng_seed);
    let b = *solution;
    match kind {
        BreakKind::ChangeCell => {
            let k = rng.below(64);
            b.with_cell(k, other_digit(b.cell(k), &mut rng))
        }
        BreakKind::SwapInRow | BreakKind::SwapInColumn => {
            let line = rng.below(8);
            let i = rng.below(8);
            let j = (i + 1 + rng.below(7)) % 8;
            let (a, c) = if kind == BreakKind::SwapInRow {
                (8 * line + i, 8 * line + j)
            } else {
                (line + 8 * i, line + 8 * j)
            };
            b.with_cell(a, b.cell(c)).with_cell(c, b.cell(a))
        }
        BreakKind::ChangeGiven(start) => {
            let givens: Vec<usize> = (0..64).filter(|&k| start.cell(k) != 0).collect();
            let k = if givens.is_empty() {
                rng.below(64)
            } else {
                givens[rng.below(givens.len())]
            };
            b.with_cell(k, other_digit(b.cell(k), &mut rng))
        }
        BreakKind::ZeroCell => b.with_cell(rng.below(64), 0),
        BreakKind::NonDigitCell => {
            let k = rng.below(64);
            b.with_cell(k, 9 + rng.below(7) as u8)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::solve;
    use crate::verify::verify;

    #[test]
    fn splitmix_reference_values() {
        // First outputs for seed 1234567 (the reference implementation's test values).
        let mut r = SplitMix64(1_234_567);
        assert_eq!(r.next(), 6_457_827_717_110_365_317);
        assert_eq!(r.next(), 3_203_168_211_198_807_973);
        assert_eq!(r.next(), 9_817_491_932_198_370_423);
    }

    #[test]
    fn other_digit_is_a_different_digit() {
        let mut r = SplitMix64(7);
        for old in 0..16u8 {
            for _ in 0..50 {
                let d = other_digit(old, &mut r);
                assert!((1..=8).contains(&d) && d != old);
            }
        }
    }

    #[test]
    fn every_kind_breaks_a_valid_solution() {
        let start = Board::EMPTY.with_cell(3, 4).with_cell(60, 1);
        let sol = solve(&start).unwrap();
        assert!(verify(&start, &sol));
        for seed in 0..300 {
            for kind in BreakKind::all(start) {
                let broken = break_solution(&sol, kind, seed);
                assert_ne!(broken, sol, "{kind:?} seed {seed}");
                assert!(!verify(&start, &broken), "{kind:?} seed {seed}");
                if !matches!(kind, BreakKind::ChangeGiven(_)) {
                    assert!(!verify(&Board::EMPTY, &broken), "{kind:?} seed {seed}");
                }
            }
            assert_eq!(
                break_solution(&sol, BreakKind::SwapInRow, seed),
                break_solution(&sol, BreakKind::SwapInRow, seed)
            );
        }
    }
}
