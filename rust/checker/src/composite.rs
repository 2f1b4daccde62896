//! McGuire's sets of higher degree, listed once per search (GridChecker's
//! global composite lists).
//!
//! A *composite of degree d* is the union of d pairwise disjoint UA sets.
//! A puzzle hits each of the d sets with its own given, so while no cell of
//! a composite is given, the search still needs at least d givens: with
//! k givens left, a given that misses an unhit composite of degree k
//! leaves k disjoint unhit sets for k−1 givens, and is skipped. Any union
//! of disjoint UA sets is valid, so which composites are listed changes
//! only how much is pruned, never the puzzles found.
//!
//! # Which composites
//!
//! The list of degree d is built once from the search's UA list (smallest
//! first, cells renumbered, see [`crate::remap`]): unions of d pairwise
//! disjoint sets whose indices are all at least `BASE[d]`, enumerated by
//! their largest index, lowest first (so unions of smaller sets come
//! first), at most `CAP[d]` of them, and leaving out a union that contains
//! one of the first `BASE[d]` sets: those small sets are hit at the upper
//! levels of every branch, and a composite containing one is then hit too
//! (dead weight in the lower-level tables). The bases and caps are
//! GridChecker's (its starters 44/30/27/21 and list sizes 10 240 / 32 768 /
//! 65 536 / 40 960 for degrees 2–5); the search filters these lists level
//! by level and keeps the first unhit ones in small tables
//! ([`crate::search`](mod@crate::search)).
//!
//! # Crowded grids
//!
//! On a grid with fewer than ten UA sets of 4 cells and at least thirty of
//! 6 (19 of 2 000 random grids; the anchor 123456789456789123789… has 6 and 35,
//! crowded into the band 123/456/789), the first givens hit far more of
//! the small sets than the bases assume, and the composites made of them
//! are hit before they are tested. Such grids take larger bases,
//! `CROWDED_BASE`: GridChecker's starters 50/40/30/27, one of the families
//! it lists for such grids but leaves unused; of the families tried on 15
//! crowded random grids it visits the fewest nodes in the least time
//! (docs/benchmarks.md). Bases change which composites are listed, never
//! the puzzles found.

use rayon::prelude::*;

/// Composite degrees kept: 2..=`ND`+1.
pub const ND: usize = 4;
/// First UA index used by the composites of degree d+2.
const BASE: [usize; ND] = [43, 28, 24, 17];
/// [`BASE`] on crowded grids (see the module documentation).
const CROWDED_BASE: [usize; ND] = [49, 38, 27, 23];

/// The bases for a UA list: [`CROWDED_BASE`] when it has fewer than ten
/// sets of 4 cells and at least thirty of 6, else [`BASE`].
fn bases(sets: &[u128]) -> [usize; ND] {
    let of = |n: u32| sets.iter().filter(|s| s.count_ones() == n).count();
    if of(4) < 10 && of(6) >= 30 {
        CROWDED_BASE
    } else {
        BASE
    }
}
/// Composites listed at most per degree.
const CAP: [usize; ND] = [10240, 32768, 65536, 40960];
/// The sets used have indices below this.
const TOP: usize = 768;

/// Words of a bitmap over the sets used (`TOP` bits).
const TW: usize = TOP / 64;

/// Per degree index d (degree d+2), the composites of `sets` (UA sets,
/// smallest first), as described at the top of this module.
pub fn global(sets: &[u128]) -> [Vec<u128>; ND] {
    let sets = &sets[..sets.len().min(TOP)];
    // disjoint[i]: the sets disjoint from set i, as a bitmap over indices.
    let disjoint: Vec<[u64; TW]> = sets
        .par_iter()
        .map(|&s| {
            let mut b = [0u64; TW];
            for (j, &t) in sets.iter().enumerate() {
                if s & t == 0 {
                    b[j / 64] |= 1 << (j % 64);
                }
            }
            b
        })
        .collect();
    let base = bases(sets);
    // The bases are largest for degree 2: its small sets hold every
    // degree's.
    let shares = Shares::new(sets, base[0]);
    // The degrees are independent: in parallel on the current rayon pool.
    let mut lists: Vec<Vec<u128>> = (0..ND)
        .into_par_iter()
        .with_max_len(1)
        .map(|d| degree(sets, &disjoint, &shares, d, base[d]))
        .collect();
    std::array::from_fn(|d| std::mem::take(&mut lists[d]))
}

/// Largest indices ("tops") per job of [`degree`].
const TOPS_PER_JOB: usize = 16;

/// The composites of degree index `d` (degree d+2) of `sets` from index
/// `base`, given the disjointness bitmaps and the shares.
///
/// The enumeration by largest index is cut into jobs of
/// [`TOPS_PER_JOB`] consecutive tops, run a wave of one job per thread at a
/// time: each job of a wave may fill what the list still lacks, the waves'
/// lists are appended in top order and the whole is cut at the cap, so the
/// list is the sequential one whatever the thread count (one thread: one
/// job a wave, exactly the sequential work; more threads: at most a wave of
/// extra work past the cap).
fn degree(
    sets: &[u128],
    disjoint: &[[u64; TW]],
    shares: &Shares,
    d: usize,
    base: usize,
) -> Vec<u128> {
    let mut out = Vec::new();
    if sets.len() <= base {
        return out;
    }
    let mut from_base = [0u64; TW];
    for j in base..sets.len() {
        from_base[j / 64] |= 1 << (j % 64);
    }
    let size = &shares.sizes(base);
    let jobs: Vec<usize> = (base..sets.len()).step_by(TOPS_PER_JOB).collect();
    let wave = rayon::current_num_threads().max(1);
    for starts in jobs.chunks(wave) {
        let room = CAP[d] - out.len();
        let parts: Vec<Vec<u128>> = starts
            .par_iter()
            .with_max_len(1)
            .map(|&start| {
                let mut part = Vec::new();
                let mut e = Enum {
                    sets,
                    disjoint,
                    shares,
                    size,
                    cap: room,
                    out: &mut part,
                };
                for top in start..(start + TOPS_PER_JOB).min(sets.len()) {
                    let cand = and(&from_base, &disjoint[top]);
                    let sum = shares.add(&[0; SMALL], top);
                    if !e.rec(top, sets[top], &sum, &cand, d + 1) {
                        break;
                    }
                }
                part
            })
            .collect();
        for part in parts {
            out.extend(part);
        }
        if out.len() >= CAP[d] {
            out.truncate(CAP[d]);
            break;
        }
    }
    out
}

fn and(a: &[u64; TW], b: &[u64; TW]) -> [u64; TW] {
    std::array::from_fn(|w| a[w] & b[w])
}

/// Small sets a composite is checked against at most (the largest base).
const SMALL: usize = 64;
/// Whether degree 2's base is the largest of `b` and at most [`SMALL`].
const fn first_is_largest(b: [usize; ND]) -> bool {
    let mut d = 1;
    while d < ND {
        if b[d] > b[0] {
            return false;
        }
        d += 1;
    }
    b[0] <= SMALL
}
const _: () = assert!(first_is_largest(BASE) && first_is_largest(CROWDED_BASE));

/// Per set, how many cells it shares with each of the first sets (the
/// small sets, up to the largest base): a union of disjoint sets holds
/// small set k exactly when its parts' shares of k add up to k's size, so
/// the test at a union is one add and one compare of 64 bytes, not a pass
/// over the small sets. Made once for all degrees; each degree compares
/// with the sizes of its own small sets ([`Shares::sizes`]).
struct Shares {
    small: Vec<u128>,
    of: Vec<[u8; SMALL]>,
}

impl Shares {
    fn new(sets: &[u128], base: usize) -> Self {
        let small = sets[..base.min(sets.len())].to_vec();
        let of = sets
            .iter()
            .map(|&t| {
                let mut row = [0u8; SMALL];
                for (k, &s) in small.iter().enumerate() {
                    row[k] = (s & t).count_ones() as u8;
                }
                row
            })
            .collect();
        Shares { small, of }
    }

    /// The sizes of the first `base` small sets; no union's shares reach
    /// the others' (`u8::MAX`).
    fn sizes(&self, base: usize) -> [u8; SMALL] {
        let mut size = [u8::MAX; SMALL];
        for (k, &s) in self.small.iter().take(base).enumerate() {
            size[k] = s.count_ones() as u8;
        }
        size
    }

    /// `sum` plus set i's shares.
    #[inline(always)]
    fn add(&self, sum: &[u8; SMALL], i: usize) -> [u8; SMALL] {
        let row = &self.of[i];
        std::array::from_fn(|k| sum[k].wrapping_add(row[k]))
    }

    /// Whether the union with these shares holds a small set of these
    /// sizes.
    #[inline(always)]
    fn holds_small(sum: &[u8; SMALL], size: &[u8; SMALL]) -> bool {
        sum.iter()
            .zip(size)
            .fold(false, |any, (&a, &b)| any | (a == b))
    }
}

/// The enumeration of one degree's composites.
struct Enum<'a> {
    sets: &'a [u128],
    disjoint: &'a [[u64; TW]],
    shares: &'a Shares,
    /// The sizes of this degree's small sets.
    size: &'a [u8; SMALL],
    cap: usize,
    out: &'a mut Vec<u128>,
}

impl Enum<'_> {
    /// Adds the unions of `acc` (small-set shares `sum`, holding none)
    /// with `need` ≥ 1 more sets of indices below `below` in `cand` (the
    /// sets from the base disjoint from `acc`) and disjoint from each
    /// other, lowest indices first, leaving out those that hold a small set
    /// (and every union grown from one); false when full.
    fn rec(
        &mut self,
        below: usize,
        acc: u128,
        sum: &[u8; SMALL],
        cand: &[u64; TW],
        need: usize,
    ) -> bool {
        for (w, &word) in cand.iter().enumerate().take(below.div_ceil(64)) {
            let mut x = word;
            if w == below / 64 {
                x &= (1u64 << (below % 64)) - 1;
            }
            while x != 0 {
                let i = w * 64 + x.trailing_zeros() as usize;
                x &= x - 1;
                let s = self.shares.add(sum, i);
                // A union holding a small set keeps it in every larger one.
                if Shares::holds_small(&s, self.size) {
                    continue;
                }
                if need == 1 {
                    self.out.push(acc | self.sets[i]);
                    if self.out.len() >= self.cap {
                        return false;
                    }
                    continue;
                }
                let next = and(cand, &self.disjoint[i]);
                if !self.rec(i, acc | self.sets[i], &s, &next, need - 1) {
                    return false;
                }
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{collect, UaOptions};
    use algoku_sudoku::Grid;

    /// Whether `rest` is the union of `need` disjoint sets of `sets`.
    fn split(sets: &[u128], rest: u128, need: usize) -> bool {
        if need == 0 {
            return rest == 0;
        }
        sets.iter()
            .enumerate()
            .any(|(i, &s)| s & !rest == 0 && split(&sets[i + 1..], rest & !s, need - 1))
    }

    /// A grid's UA sets (default options), smallest first.
    fn sorted_sets(grid: &str) -> Vec<u128> {
        let g = *Grid::parse(grid).unwrap().cells();
        let mut sets = collect(&g, &UaOptions::default());
        sets.sort_unstable_by_key(|&m| (m.count_ones(), m));
        sets
    }

    #[test]
    fn lists_do_not_depend_on_the_thread_count() {
        // On 873569241… at least one degree fills its cap (asserted), so
        // the cut at the cap is exercised.
        let sets = sorted_sets(
            "873569241625134987149278356931857624782496513456321798598713462364982175217645839",
        );
        let one = crate::with_threads(1, || global(&sets));
        assert!(one.iter().zip(CAP).any(|(l, cap)| l.len() == cap));
        for threads in [2, 3] {
            assert!(crate::with_threads(threads, || global(&sets)) == one);
        }
    }

    /// The lists by the definition: every union of `need` pairwise
    /// disjoint sets of indices in base..TOP, by largest index then lower
    /// indices (lowest first), without one that holds a set below the
    /// base, cut at the cap.
    fn by_definition(sets: &[u128], d: usize, base: usize) -> Vec<u128> {
        fn rec(
            sets: &[u128],
            base: usize,
            below: usize,
            acc: u128,
            need: usize,
            out: &mut Vec<u128>,
        ) {
            if need == 0 {
                if sets[..base].iter().all(|&s| s & !acc != 0) {
                    out.push(acc);
                }
                return;
            }
            for i in base..below {
                if sets[i] & acc == 0 {
                    rec(sets, base, i, acc | sets[i], need - 1, out);
                }
            }
        }
        let sets = &sets[..sets.len().min(TOP)];
        let mut out = Vec::new();
        for top in base..sets.len() {
            rec(sets, base, top, sets[top], d + 1, &mut out);
            if out.len() >= CAP[d] {
                break;
            }
        }
        out.truncate(CAP[d]);
        out
    }

    #[test]
    fn lists_are_the_defined_unions() {
        // Degrees 4 and 5 do not reach their caps on this grid.
        let sets = sorted_sets(
            "594173862271684395836952471125867943748239516369415287417328659953746128682591734",
        );
        let lists = crate::with_threads(1, || global(&sets));
        let base = bases(&sets);
        for d in 0..ND {
            assert!(
                lists[d] == by_definition(&sets, d, base[d]),
                "degree {}",
                d + 2
            );
        }
    }

    #[test]
    fn crowded_grids_take_the_larger_bases() {
        let crowded = sorted_sets(
            "123456789456789123789123456214368597867945231935217864348672915591834672672591348",
        );
        assert_eq!(bases(&crowded), CROWDED_BASE);
        let plain = sorted_sets(
            "962573418587164239341289576235718964819645327674932185426851793793426851158397642",
        );
        assert_eq!(bases(&plain), BASE);
        // The larger bases keep small sets out of the composites.
        let lists = global(&crowded);
        for (d, list) in lists.iter().enumerate() {
            for &c in list.iter().take(300) {
                assert!(crowded[..CROWDED_BASE[d]].iter().all(|&s| s & !c != 0));
            }
        }
    }

    #[test]
    fn composites_are_unions_of_disjoint_sets_without_a_small_one() {
        let sets = sorted_sets(
            "318765294926184537745392861497521683631879425582436179179658342264913758853247916",
        );
        let lists = global(&sets);
        let base = bases(&sets);
        for (d, list) in lists.iter().enumerate() {
            assert!(!list.is_empty(), "degree {}", d + 2);
            assert!(list.len() <= CAP[d]);
            for &c in list.iter().take(300) {
                assert!(sets[..base[d]].iter().all(|&s| s & !c != 0));
                // c is a union of d+2 disjoint sets from base[d]..TOP.
                let inside: Vec<u128> = sets[base[d]..TOP.min(sets.len())]
                    .iter()
                    .copied()
                    .filter(|&s| s & !c == 0)
                    .collect();
                assert!(split(&inside, c, d + 2), "degree {}: {c:#x}", d + 2);
            }
        }
    }
}
