//! The grid checker: for one solved 9x9 grid, its minimal **unavoidable
//! sets** ([`ua`]) and the exhaustive enumeration of every puzzle with
//! exactly N givens whose unique solution is that grid ([`search`](mod@search)).
//! [`near`] lists every minimal UA set up to 12 cells exhaustively.
//!
//! This is the job of dobrichev's GridChecker and of McGuire, Tugemann and
//! Civario's checker (the 2012 proof that no 16-clue Sudoku exists). Cell
//! sets are `u128` masks: bit `i` is cell `i` (0..81, row-major).

// The exceptions, each with its safety argument: the AVX2 copy of the
// search and its intrinsics (`search::code`, entered only with an
// `algoku_sudoku::isa::Avx2` token) and the composite pass's partly
// written buffer (`search::lower::composite_cells`).
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod composite;
pub mod near;
pub mod remap;
pub mod search;
pub mod ua;
pub mod unique;

pub use near::minimal_uas;
pub use search::{search, SearchOptions, SearchResult};
pub use ua::{collect, is_minimal_ua, is_unavoidable, search_sets, UaOptions, SEARCH_SETS};

/// A solved grid as 81 digits 1..=9.
pub type Cells = [u8; 81];

/// All 81 cells.
pub const ALL: u128 = (1u128 << 81) - 1;

/// The cells of a mask, lowest first.
pub fn cells_of(mut mask: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if mask == 0 {
            None
        } else {
            let c = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            Some(c)
        }
    })
}

/// Runs `f` on a rayon pool of `threads` threads (at least 1), so that
/// the UA collection ([`collect`]) and the search ([`search()`]) called in
/// it use that many: with 1, everything runs on one thread. If no pool can
/// be made, `f` runs on the caller's thread and rayon's global pool.
pub fn with_threads<R: Send>(threads: usize, f: impl FnOnce() -> R + Send) -> R {
    match rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
    {
        Ok(pool) => pool.install(f),
        Err(_) => f(),
    }
}

/// The puzzle made of `grid`'s digits on the cells of `mask`, 81
/// characters with `.` for blanks.
pub fn pattern(grid: &Cells, mask: u128) -> String {
    (0..81)
        .map(|i| {
            if mask >> i & 1 == 1 {
                char::from(b'0' + grid[i])
            } else {
                '.'
            }
        })
        .collect()
}

/// The sets of `diffs` that contain no other, sorted by size then mask.
pub(crate) fn minimal_sets(mut diffs: Vec<u128>) -> Vec<u128> {
    diffs.sort_unstable_by_key(|&m| (m.count_ones(), m));
    diffs.dedup();
    let mut kept: Vec<u128> = Vec::new();
    for d in diffs {
        if !kept.iter().any(|&s| s & !d == 0) {
            kept.push(d);
        }
    }
    kept
}
