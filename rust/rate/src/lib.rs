//! A human-style Sudoku rater: solve with the techniques people use, one
//! step at a time, always the easiest step available, and rate the puzzle by
//! the hardest step it needed — on Sudoku Explainer's scale, the way its
//! command-line rater `serate` computes it, and with QQWing's levels.
//!
//! # The model
//!
//! The [`Board`] keeps, for every empty cell, its set of candidates (a 9-bit
//! mask), starting from the digits no given in its row, column or box rules
//! out. A [`Step`] is one application of one [`Technique`]: it places a digit
//! and/or removes candidates, and carries its Sudoku Explainer difficulty in
//! tenths (`tenths`; a chain's grows with its length). Before any solving the
//! puzzle is checked with the exact solver ([`algoku_sudoku::Solver`], up to
//! 2 solutions): contradictory givens, no solution or several solutions are
//! reported as such ([`Verdict`]), never rated. Uniqueness is what makes the
//! uniqueness techniques sound.
//!
//! # The scoring rules (Sudoku Explainer, [`se_solve`])
//!
//! Each step takes the first technique, in Sudoku Explainer's order, that has
//! one; the puzzle's **ER** is the hardest step, **EP** the hardest up to the
//! first placement, **ED** the first step ([`SeScore`]). The order and the
//! difficulties:
//!
//! | technique | SE | module |
//! |---|---|---|
//! | full house, hidden single in a box / row or column | 1.0, 1.2, 1.5 | `singles` |
//! | direct pointing, direct claiming (they place the single they make) | 1.7, 1.9 | `singles` |
//! | direct hidden pair | 2.0 | `subsets` |
//! | naked single | 2.3 | `singles` |
//! | direct hidden triple | 2.5 | `subsets` |
//! | pointing, claiming | 2.6, 2.8 | `singles` |
//! | naked pair, X-Wing, hidden pair | 3.0, 3.2, 3.4 | `subsets`, `fish` |
//! | naked triple, Swordfish, hidden triple | 3.6, 3.8, 4.0 | `subsets`, `fish` |
//! | two strong links (skyscraper, 2-string kite, turbot; grouped) | 4.0–4.1, 4.3 | `fish` |
//! | XY-Wing, XYZ-Wing | 4.2, 4.4 | `wings` |
//! | unique rectangles and loops (types 1–4) | 4.5–5.2 | `uniqueness` |
//! | naked quad, Jellyfish, hidden quad | 5.0, 5.2, 5.4 | `subsets`, `fish` |
//! | three strong links, WXYZ-Wing, BUG types 1–4 | 5.4–5.7, 5.5–5.6, 5.6–6.2 | `fish`, `wings`, `uniqueness` |
//! | four strong links, VWXYZ-Wing, aligned pair exclusion, UVWXYZ-Wing | 5.8–6.0, 6.2–6.4, 6.2, 6.6 | `fish`, `wings`, `aligned` |
//! | X-/Y-cycles, forcing X-chains, bidirectional cycles, forcing chains | 6.5, 6.6, 7.0 + length | `chains` |
//! | TUVWXYZ-Wing, aligned triple exclusion | 7.5, 7.5 | `wings`, `aligned` |
//! | Nishio, multiple, dynamic, dynamic (+), nested forcing chains | 7.5, 8.0, 8.5, 9.0, 9.5+ + length | `chains` |
//!
//! The length increment ([`length_tenths`]) and the chain searches are
//! described in the `chains` module; `docs/rating.md` has the measured
//! agreement with `serate`.
//!
//! # Levels (QQWing-compatible)
//!
//! QQWing (`qqwing --rate`) knows naked and hidden singles, naked and hidden
//! pairs, pointing and box/line reduction, then guesses. Its level is:
//! `expert` if it had to guess; else `intermediate` if it used a pair,
//! pointing or box/line reduction; else `easy` if it used a hidden single;
//! else `simple`. It tries, at each step: naked single, hidden single (box,
//! row, column), naked pair, pointing, box/line, hidden pair. [`level`]
//! replays exactly that: a second solve with QQWing's techniques in QQWing's
//! order, `expert` when they get stuck (where QQWing would guess). So
//! `simple`/`easy`/`intermediate` mean what they mean to QQWing, and
//! `expert` covers everything from an X-Wing up to the puzzles this rater
//! cannot finish: the score tells those apart.

#![forbid(unsafe_code)]
#![warn(missing_docs)]
// Unit and cell indices are names here (`unit_name(u)`), not just positions.
#![allow(clippy::needless_range_loop)]

use std::fmt;

use algoku_sudoku::Grid;

mod aligned;
mod chains;
mod fish;
mod qqwing;
mod se;
mod singles;
mod subsets;
mod uniqueness;
mod wings;

pub use chains::length_tenths;
pub use qqwing::level;
pub use se::{se_solve, SeScore};

/// The units in Sudoku Explainer's search order: boxes, columns, rows.
const SE_UNIT_ORDER: [usize; 27] = [
    18, 19, 20, 21, 22, 23, 24, 25, 26, 9, 10, 11, 12, 13, 14, 15, 16, 17, 0, 1, 2, 3, 4, 5, 6, 7,
    8,
];

/// Every cell of the grid, as a cell mask (bit i = cell i).
pub(crate) const ALL_CELLS: u128 = (1 << 81) - 1;

/// Each unit's cells as a bit mask over the 81 cells (bit i = cell i).
pub(crate) use algoku_sudoku::geometry::UNIT_MASKS;

/// Each cell's peers (the other cells of its row, column and box) as a
/// cell mask.
pub(crate) use algoku_sudoku::geometry::PEER_MASKS as PEERS;

/// (cell, digit) candidates removed by a step.
pub(crate) type Elims = Vec<(usize, u8)>;

/// A cell's three units as bits over the units (row, 9 + column, 18 + box).
pub(crate) fn units_of(c: usize) -> u32 {
    1 << row(c) | 1 << (9 + col(c)) | 1 << (18 + boxi(c))
}

/// The cells of a cell mask, lowest first.
pub(crate) fn cells_of_mask(mut m: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let c = m.trailing_zeros() as usize;
            m &= m - 1;
            c
        })
    })
}

/// For each digit (index d - 1), the cells holding it as a candidate.
pub(crate) fn places_of(grid: &[u16; 81]) -> [u128; 9] {
    let mut p = [0u128; 9];
    for (c, &m) in grid.iter().enumerate() {
        let mut m = m & 0x1ff;
        while m != 0 {
            p[m.trailing_zeros() as usize] |= 1 << c;
            m &= m - 1;
        }
    }
    p
}

/// The 27 units: rows 0–8, columns 9–17, boxes 18–26, each as 9 cell indices
/// ([`algoku_sudoku::geometry::UNITS`] as `usize`s).
pub const UNITS: [[usize; 9]; 27] = algoku_sudoku::const_table!([[0usize; 9]; 27], |u| {
    let mut cells = [0usize; 9];
    let mut k = 0;
    while k < 9 {
        cells[k] = algoku_sudoku::geometry::UNITS[u][k] as usize;
        k += 1;
    }
    cells
});

const fn row(c: usize) -> usize {
    c / 9
}
const fn col(c: usize) -> usize {
    c % 9
}
const fn boxi(c: usize) -> usize {
    (c / 27) * 3 + (c % 9) / 3
}

pub use algoku_sudoku::geometry::sees;

/// `r3c5` (1-based).
pub fn cell_name(c: usize) -> String {
    format!("r{}c{}", row(c) + 1, col(c) + 1)
}

/// `row 3`, `column 4` or `box 2` (1-based).
pub fn unit_name(u: usize) -> String {
    match u {
        0..=8 => format!("row {}", u + 1),
        9..=17 => format!("column {}", u - 8),
        _ => format!("box {}", u - 17),
    }
}

fn digits_of(mask: u16) -> String {
    (1..=9u8)
        .filter(|d| mask & bit(*d) != 0)
        .map(|d| char::from(b'0' + d))
        .collect()
}

const fn bit(d: u8) -> u16 {
    1 << (d - 1)
}

/// Every technique, in the order of their base scores (for summaries).
pub const TECHNIQUES: [Technique; 43] = [
    Technique::FullHouse,
    Technique::HiddenSingleBox,
    Technique::HiddenSingleLine,
    Technique::DirectPointing,
    Technique::DirectClaiming,
    Technique::DirectHiddenPair,
    Technique::NakedSingle,
    Technique::DirectHiddenTriple,
    Technique::Pointing,
    Technique::BoxLine,
    Technique::NakedPair,
    Technique::XWing,
    Technique::HiddenPair,
    Technique::NakedTriple,
    Technique::Swordfish,
    Technique::HiddenTriple,
    Technique::TwoStrongLinks,
    Technique::XyWing,
    Technique::XyzWing,
    Technique::UniqueRectangle1,
    Technique::UniqueLoop,
    Technique::NakedQuad,
    Technique::Jellyfish,
    Technique::HiddenQuad,
    Technique::ThreeStrongLinks,
    Technique::WxyzWing,
    Technique::Bug,
    Technique::FourStrongLinks,
    Technique::VwxyzWing,
    Technique::AlignedPairExclusion,
    Technique::UvwxyzWing,
    Technique::XCycle,
    Technique::YCycle,
    Technique::ForcingXChain,
    Technique::BidirectionalCycle,
    Technique::ForcingChain,
    Technique::TuvwxyzWing,
    Technique::AlignedTripleExclusion,
    Technique::NishioForcingChain,
    Technique::MultipleForcingChain,
    Technique::DynamicForcingChain,
    Technique::DynamicForcingChainPlus,
    Technique::NestedForcingChain,
];

/// A solving technique.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Technique {
    /// The only place for a digit in a box.
    HiddenSingleBox,
    /// The only place for a digit in a row or column.
    HiddenSingleLine,
    /// The only digit left for a cell.
    NakedSingle,
    /// Locked candidates type 1.
    Pointing,
    /// Locked candidates type 2 (claiming).
    BoxLine,
    /// Naked pair.
    NakedPair,
    /// Fish of size 2.
    XWing,
    /// Hidden pair.
    HiddenPair,
    /// Naked triple.
    NakedTriple,
    /// Fish of size 3.
    Swordfish,
    /// Hidden triple.
    HiddenTriple,
    /// XY-Wing.
    XyWing,
    /// XYZ-Wing.
    XyzWing,
    /// Unique rectangle type 1.
    UniqueRectangle1,
    /// Naked quad.
    NakedQuad,
    /// Fish of size 4.
    Jellyfish,
    /// Hidden quad.
    HiddenQuad,
    /// The last empty cell of a unit.
    FullHouse,
    /// Two strong links (skyscraper, two-string kite, turbot fish).
    TwoStrongLinks,
    /// Three strong links (one digit).
    ThreeStrongLinks,
    /// Bivalue universal grave, type 1.
    Bug,
    /// Four strong links (one digit).
    FourStrongLinks,
    /// WXYZ-Wing (an almost locked set of three cells and a bivalue cell).
    WxyzWing,
    /// VWXYZ-Wing (four cells and a bivalue cell).
    VwxyzWing,
    /// UVWXYZ-Wing (five cells and a bivalue cell).
    UvwxyzWing,
    /// TUVWXYZ-Wing (six cells and a bivalue cell).
    TuvwxyzWing,
    /// Aligned pair exclusion (two cells and the bivalue cells they see).
    AlignedPairExclusion,
    /// Aligned triple exclusion (three cells and the cells of two or three
    /// candidates they see).
    AlignedTripleExclusion,
    /// Unique rectangle or loop (types 1 to 4), Sudoku Explainer's way.
    UniqueLoop,
    /// Pointing that leaves a digit one place in another box.
    DirectPointing,
    /// Claiming that leaves a digit one place in another row or column.
    DirectClaiming,
    /// Hidden pair that leaves another digit one place in the unit.
    DirectHiddenPair,
    /// Hidden triple that leaves another digit one place in the unit.
    DirectHiddenTriple,
    /// X-cycle (one digit, strong and weak links alternating).
    XCycle,
    /// Y-cycle (bivalue cells).
    YCycle,
    /// Forcing X-chain (one digit).
    ForcingXChain,
    /// Bidirectional cycle (X- and Y-links).
    BidirectionalCycle,
    /// Forcing chain (X- and Y-links).
    ForcingChain,
    /// Nishio forcing chain.
    NishioForcingChain,
    /// Cell or region forcing chains (static).
    MultipleForcingChain,
    /// Dynamic forcing chains (contradiction, double, cell, region).
    DynamicForcingChain,
    /// Dynamic forcing chains with the basic eliminations inside.
    DynamicForcingChainPlus,
    /// Nested forcing chains.
    NestedForcingChain,
}

impl Technique {
    /// The Sudoku Explainer score in tenths (23 = 2.3).
    pub const fn score_tenths(self) -> u8 {
        match self {
            Technique::HiddenSingleBox => 12,
            Technique::HiddenSingleLine => 15,
            Technique::NakedSingle => 23,
            Technique::Pointing => 26,
            Technique::BoxLine => 28,
            Technique::NakedPair => 30,
            Technique::XWing => 32,
            Technique::HiddenPair => 34,
            Technique::NakedTriple => 36,
            Technique::Swordfish => 38,
            Technique::HiddenTriple => 40,
            Technique::XyWing => 42,
            Technique::XyzWing => 44,
            Technique::UniqueRectangle1 => 45,
            Technique::NakedQuad => 50,
            Technique::Jellyfish => 52,
            Technique::HiddenQuad => 54,
            Technique::FullHouse => 10,
            Technique::TwoStrongLinks => 40,
            Technique::WxyzWing => 55,
            Technique::ThreeStrongLinks => 54,
            Technique::Bug => 56,
            Technique::FourStrongLinks => 58,
            Technique::VwxyzWing => 62,
            Technique::UvwxyzWing => 66,
            Technique::TuvwxyzWing => 75,
            Technique::AlignedPairExclusion => 62,
            Technique::AlignedTripleExclusion => 75,
            Technique::UniqueLoop => 45,
            Technique::DirectPointing => 17,
            Technique::DirectClaiming => 19,
            Technique::DirectHiddenPair => 20,
            Technique::DirectHiddenTriple => 25,
            Technique::XCycle | Technique::YCycle => 65,
            Technique::ForcingXChain => 66,
            Technique::BidirectionalCycle | Technique::ForcingChain => 70,
            Technique::NishioForcingChain => 75,
            Technique::MultipleForcingChain => 80,
            Technique::DynamicForcingChain => 85,
            Technique::DynamicForcingChainPlus => 90,
            Technique::NestedForcingChain => 95,
        }
    }

    /// The stable machine name (`hidden_single_box`, ...), used in JSON.
    pub const fn key(self) -> &'static str {
        match self {
            Technique::HiddenSingleBox => "hidden_single_box",
            Technique::HiddenSingleLine => "hidden_single_line",
            Technique::NakedSingle => "naked_single",
            Technique::Pointing => "pointing",
            Technique::BoxLine => "box_line",
            Technique::NakedPair => "naked_pair",
            Technique::XWing => "x_wing",
            Technique::HiddenPair => "hidden_pair",
            Technique::NakedTriple => "naked_triple",
            Technique::Swordfish => "swordfish",
            Technique::HiddenTriple => "hidden_triple",
            Technique::XyWing => "xy_wing",
            Technique::XyzWing => "xyz_wing",
            Technique::UniqueRectangle1 => "unique_rectangle_1",
            Technique::NakedQuad => "naked_quad",
            Technique::Jellyfish => "jellyfish",
            Technique::HiddenQuad => "hidden_quad",
            Technique::FullHouse => "full_house",
            Technique::TwoStrongLinks => "two_strong_links",
            Technique::WxyzWing => "wxyz_wing",
            Technique::ThreeStrongLinks => "three_strong_links",
            Technique::Bug => "bug",
            Technique::FourStrongLinks => "four_strong_links",
            Technique::VwxyzWing => "vwxyz_wing",
            Technique::UvwxyzWing => "uvwxyz_wing",
            Technique::TuvwxyzWing => "tuvwxyz_wing",
            Technique::AlignedPairExclusion => "aligned_pair_exclusion",
            Technique::AlignedTripleExclusion => "aligned_triple_exclusion",
            Technique::UniqueLoop => "unique_loop",
            Technique::DirectPointing => "direct_pointing",
            Technique::DirectClaiming => "direct_claiming",
            Technique::DirectHiddenPair => "direct_hidden_pair",
            Technique::DirectHiddenTriple => "direct_hidden_triple",
            Technique::XCycle => "x_cycle",
            Technique::YCycle => "y_cycle",
            Technique::ForcingXChain => "forcing_x_chain",
            Technique::BidirectionalCycle => "bidirectional_cycle",
            Technique::ForcingChain => "forcing_chain",
            Technique::NishioForcingChain => "nishio_forcing_chain",
            Technique::MultipleForcingChain => "multiple_forcing_chain",
            Technique::DynamicForcingChain => "dynamic_forcing_chain",
            Technique::DynamicForcingChainPlus => "dynamic_forcing_chain_plus",
            Technique::NestedForcingChain => "nested_forcing_chain",
        }
    }

    /// The human name (`hidden single`, ...).
    pub const fn name(self) -> &'static str {
        match self {
            Technique::HiddenSingleBox | Technique::HiddenSingleLine => "hidden single",
            Technique::NakedSingle => "naked single",
            Technique::Pointing => "pointing",
            Technique::BoxLine => "box/line reduction",
            Technique::NakedPair => "naked pair",
            Technique::XWing => "X-Wing",
            Technique::HiddenPair => "hidden pair",
            Technique::NakedTriple => "naked triple",
            Technique::Swordfish => "Swordfish",
            Technique::HiddenTriple => "hidden triple",
            Technique::XyWing => "XY-Wing",
            Technique::XyzWing => "XYZ-Wing",
            Technique::UniqueRectangle1 => "unique rectangle type 1",
            Technique::NakedQuad => "naked quad",
            Technique::Jellyfish => "Jellyfish",
            Technique::HiddenQuad => "hidden quad",
            Technique::FullHouse => "full house",
            Technique::TwoStrongLinks => "two strong links",
            Technique::WxyzWing => "WXYZ-Wing",
            Technique::ThreeStrongLinks => "three strong links",
            Technique::Bug => "BUG",
            Technique::FourStrongLinks => "four strong links",
            Technique::VwxyzWing => "VWXYZ-Wing",
            Technique::UvwxyzWing => "UVWXYZ-Wing",
            Technique::TuvwxyzWing => "TUVWXYZ-Wing",
            Technique::AlignedPairExclusion => "aligned pair exclusion",
            Technique::AlignedTripleExclusion => "aligned triple exclusion",
            Technique::UniqueLoop => "unique rectangle/loop",
            Technique::DirectPointing => "direct pointing",
            Technique::DirectClaiming => "direct claiming",
            Technique::DirectHiddenPair => "direct hidden pair",
            Technique::DirectHiddenTriple => "direct hidden triple",
            Technique::XCycle => "X-cycle",
            Technique::YCycle => "Y-cycle",
            Technique::ForcingXChain => "forcing X-chain",
            Technique::BidirectionalCycle => "bidirectional cycle",
            Technique::ForcingChain => "forcing chain",
            Technique::NishioForcingChain => "Nishio forcing chain",
            Technique::MultipleForcingChain => "multiple forcing chains",
            Technique::DynamicForcingChain => "dynamic forcing chains",
            Technique::DynamicForcingChainPlus => "dynamic forcing chains (+)",
            Technique::NestedForcingChain => "nested forcing chains",
        }
    }
}

/// Formats a score in tenths as `2.3`.
pub fn score_text(tenths: u8) -> String {
    format!("{}.{}", tenths / 10, tenths % 10)
}

/// A QQWing-compatible difficulty level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// Naked singles only.
    Simple,
    /// Hidden singles too.
    Easy,
    /// Pairs, pointing or box/line reduction.
    Intermediate,
    /// QQWing would have to guess.
    Expert,
}

impl Level {
    /// All levels, easiest first.
    pub const ALL: [Level; 4] = [
        Level::Simple,
        Level::Easy,
        Level::Intermediate,
        Level::Expert,
    ];

    /// `simple`, `easy`, `intermediate` or `expert`.
    pub const fn name(self) -> &'static str {
        match self {
            Level::Simple => "simple",
            Level::Easy => "easy",
            Level::Intermediate => "intermediate",
            Level::Expert => "expert",
        }
    }

    /// Parses a level name (case-insensitive).
    pub fn parse(s: &str) -> Option<Level> {
        Level::ALL
            .into_iter()
            .find(|l| l.name().eq_ignore_ascii_case(s.trim()))
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One step of a solve: a placement, or candidate eliminations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The technique used.
    pub technique: Technique,
    /// This step's Sudoku Explainer difficulty in tenths (a chain's grows
    /// with its length, see [`length_tenths`]).
    pub tenths: u8,
    /// The cell (0–80) and digit placed, if the step places one.
    pub placement: Option<(usize, u8)>,
    /// The (cell, digit) candidates removed.
    pub eliminations: Vec<(usize, u8)>,
    /// Where and on what the technique applied (`in box 2`, `{4,6} in row 1`).
    pub detail: String,
}

impl Step {
    /// A step of technique `t` at its fixed score that removes
    /// `eliminations`.
    pub(crate) fn eliminating(t: Technique, eliminations: Elims, detail: String) -> Step {
        Step {
            technique: t,
            tenths: t.score_tenths(),
            placement: None,
            eliminations,
            detail,
        }
    }

    /// A step of technique `t` at its fixed score that places `placement`
    /// (cell, digit).
    pub(crate) fn placing(t: Technique, placement: (usize, u8), detail: String) -> Step {
        Step {
            technique: t,
            tenths: t.score_tenths(),
            placement: Some(placement),
            eliminations: Vec::new(),
            detail,
        }
    }
}

impl fmt::Display for Step {
    /// `r3c5 = 7, hidden single in box 2` or
    /// `r1c2,r1c3 <> 4, pointing in box 1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some((c, d)) = self.placement {
            write!(f, "{} = {}", cell_name(c), d)?;
        } else {
            let mut digits: Vec<u8> = self.eliminations.iter().map(|e| e.1).collect();
            digits.sort_unstable();
            digits.dedup();
            let groups: Vec<String> = digits
                .iter()
                .map(|d| {
                    let cells: Vec<String> = self
                        .eliminations
                        .iter()
                        .filter(|e| e.1 == *d)
                        .map(|e| cell_name(e.0))
                        .collect();
                    format!("{} <> {}", cells.join(","), d)
                })
                .collect();
            f.write_str(&groups.join("; "))?;
        }
        write!(f, ", {}", self.technique.name())?;
        if !self.detail.is_empty() {
            write!(f, " {}", self.detail)?;
        }
        Ok(())
    }
}

/// Candidates of a partly solved grid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    value: [u8; 81],
    cand: [u16; 81],
}

impl Board {
    /// The board of a puzzle: givens placed, candidates of the empty cells.
    /// `None` when an empty cell has no candidate or givens conflict.
    pub fn new(puzzle: &Grid) -> Option<Board> {
        let mut b = Board {
            value: [0; 81],
            cand: [0x1ff; 81],
        };
        for (c, &d) in puzzle.cells().iter().enumerate() {
            if d != 0 {
                if b.cand[c] & bit(d) == 0 {
                    return None;
                }
                b.place(c, d);
            }
        }
        (!b.broken()).then_some(b)
    }

    /// The digit of a cell (0 when empty).
    pub fn value(&self, c: usize) -> u8 {
        self.value[c]
    }

    /// The candidate mask of a cell (bit d-1 for digit d; 0 when filled).
    pub fn candidates(&self, c: usize) -> u16 {
        self.cand[c]
    }

    /// Removes a candidate (for tests that set up a position by hand).
    pub fn remove_candidate(&mut self, c: usize, d: u8) {
        self.cand[c] &= !bit(d);
    }

    /// Whether every cell is filled.
    pub fn is_solved(&self) -> bool {
        self.value.iter().all(|&v| v != 0)
    }

    fn broken(&self) -> bool {
        (0..81).any(|c| self.value[c] == 0 && self.cand[c] == 0)
    }

    fn place(&mut self, c: usize, d: u8) {
        self.value[c] = d;
        self.cand[c] = 0;
        for u in [row(c), 9 + col(c), 18 + boxi(c)] {
            for &p in &UNITS[u] {
                self.cand[p] &= !bit(d);
            }
        }
    }

    /// Applies a step.
    pub fn apply(&mut self, step: &Step) {
        if let Some((c, d)) = step.placement {
            self.place(c, d);
        }
        for &(c, d) in &step.eliminations {
            self.cand[c] &= !bit(d);
        }
    }

    /// The grid of the filled cells.
    pub fn grid(&self) -> Grid {
        Grid::from_cells(self.value).expect("digits are 0-9")
    }

    /// The first step of `technique` that changes the board, if any.
    pub fn find(&self, technique: Technique) -> Option<Step> {
        match technique {
            Technique::HiddenSingleBox => self.hidden_single(18..27, technique),
            Technique::HiddenSingleLine => self.hidden_single(0..18, technique),
            Technique::NakedSingle => self.naked_single(),
            Technique::Pointing => self.pointing(),
            Technique::BoxLine => self.box_line(),
            Technique::NakedPair => self.naked_subset(2, technique),
            Technique::NakedTriple => self.naked_subset(3, technique),
            Technique::NakedQuad => self.naked_subset(4, technique),
            Technique::HiddenPair => self.hidden_subset(2, technique),
            Technique::HiddenTriple => self.hidden_subset(3, technique),
            Technique::HiddenQuad => self.hidden_subset(4, technique),
            Technique::XWing => self.fish(2, technique),
            Technique::Swordfish => self.fish(3, technique),
            Technique::Jellyfish => self.fish(4, technique),
            Technique::XyWing => self.xy_wing(),
            Technique::XyzWing => self.xyz_wing(),
            Technique::UniqueRectangle1 => self.unique_rectangle(),
            _ => self.se_find(technique),
        }
    }

    /// The empty cells of unit `u` holding candidate `d`.
    fn places(&self, u: usize, d: u8) -> Places {
        let mut p = Places {
            cells: [0; 9],
            len: 0,
        };
        for &c in &UNITS[u] {
            if self.cand[c] & bit(d) != 0 {
                p.cells[p.len] = c;
                p.len += 1;
            }
        }
        p
    }

    fn elims_of(&self, cells: impl Iterator<Item = usize>, mask: u16) -> Vec<(usize, u8)> {
        let mut out = Vec::new();
        for c in cells {
            for d in 1..=9u8 {
                if self.cand[c] & mask & bit(d) != 0 {
                    out.push((c, d));
                }
            }
        }
        out
    }
}

/// The cells of a unit holding a candidate (no allocation).
struct Places {
    cells: [usize; 9],
    len: usize,
}

impl std::ops::Deref for Places {
    type Target = [usize];
    fn deref(&self) -> &[usize] {
        &self.cells[..self.len]
    }
}

/// Calls `f` with every k-subset (sorted indices) of 0..n until it returns true.
fn combinations(n: usize, k: usize, f: &mut dyn FnMut(&[usize]) -> bool) -> bool {
    fn rec(
        start: usize,
        n: usize,
        k: usize,
        acc: &mut Vec<usize>,
        f: &mut dyn FnMut(&[usize]) -> bool,
    ) -> bool {
        if acc.len() == k {
            return f(acc);
        }
        for i in start..n {
            if n - i < k - acc.len() {
                break;
            }
            acc.push(i);
            if rec(i + 1, n, k, acc, f) {
                return true;
            }
            acc.pop();
        }
        false
    }
    rec(0, n, k, &mut Vec::with_capacity(k), f)
}

/// Runs the solve loop with `order`: the steps, and whether it solved the grid.
pub fn logical_solve(board: &mut Board, order: &[Technique]) -> (Vec<Step>, bool) {
    let mut steps = Vec::new();
    'outer: while !board.is_solved() {
        for &t in order {
            if let Some(step) = board.find(t) {
                board.apply(&step);
                steps.push(step);
                if board.broken() {
                    // Cannot happen on a unique puzzle with sound techniques.
                    return (steps, false);
                }
                continue 'outer;
            }
        }
        return (steps, false);
    }
    (steps, true)
}

/// What the rater concluded about a puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Solved with the implemented techniques.
    Solved,
    /// Unique, but the implemented techniques get stuck.
    NeedsMore,
    /// Two givens conflict (or a cell has no candidate at the start).
    Invalid,
    /// No solution.
    NoSolution,
    /// More than one solution.
    MultipleSolutions,
}

impl Verdict {
    /// `solved`, `needs_more`, `invalid`, `no_solution`, `multiple_solutions`.
    pub const fn key(self) -> &'static str {
        match self {
            Verdict::Solved => "solved",
            Verdict::NeedsMore => "needs_more",
            Verdict::Invalid => "invalid",
            Verdict::NoSolution => "no_solution",
            Verdict::MultipleSolutions => "multiple_solutions",
        }
    }
}

/// A puzzle's rating.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rating {
    /// The verdict.
    pub verdict: Verdict,
    /// The steps taken, in order (empty unless the puzzle is unique).
    pub steps: Vec<Step>,
    /// The QQWing-compatible level (unique puzzles only).
    pub level: Option<Level>,
    /// The unique solution, when there is one.
    pub solution: Option<Grid>,
    /// The grid where the techniques got stuck (only for `NeedsMore`).
    pub stuck_at: Option<Grid>,
    /// Sudoku Explainer's ER/EP/ED (solved puzzles only).
    pub se: Option<SeScore>,
}

impl Rating {
    /// The hardest technique used: the first step with the highest score
    /// (Sudoku Explainer's ER technique).
    pub fn hardest(&self) -> Option<Technique> {
        let mut best: Option<&Step> = None;
        for s in &self.steps {
            if best.is_none_or(|b| s.tenths > b.tenths) {
                best = Some(s);
            }
        }
        best.map(|s| s.technique)
    }

    /// The SE score (ER) in tenths, only when solved.
    pub fn score_tenths(&self) -> Option<u8> {
        match self.verdict {
            Verdict::Solved => self.se.map(|s| s.rating),
            _ => None,
        }
    }

    /// How many steps used each technique, in [`TECHNIQUES`] order (non-zero only).
    pub fn counts(&self) -> Vec<(Technique, usize)> {
        TECHNIQUES
            .iter()
            .map(|&t| (t, self.steps.iter().filter(|s| s.technique == t).count()))
            .filter(|&(_, n)| n > 0)
            .collect()
    }
}

/// Rates a puzzle: checks it with the exact solver, then solves it with the
/// techniques in [`TECHNIQUES`] order.
pub fn rate(puzzle: &Grid) -> Rating {
    let mut rating = Rating {
        verdict: Verdict::Invalid,
        steps: Vec::new(),
        level: None,
        solution: None,
        stuck_at: None,
        se: None,
    };
    if puzzle.check().is_err() {
        return rating;
    }
    let Some(mut board) = Board::new(puzzle) else {
        rating.verdict = Verdict::NoSolution;
        return rating;
    };
    let solved = algoku_sudoku::Solver::new().solve_with_stats(puzzle, 2);
    match solved.solutions {
        0 => {
            rating.verdict = Verdict::NoSolution;
            return rating;
        }
        1 => {}
        _ => {
            rating.verdict = Verdict::MultipleSolutions;
            return rating;
        }
    }
    rating.solution = solved.first;
    let (steps, se) = se_solve(&mut board);
    rating.steps = steps;
    rating.se = se;
    rating.verdict = if se.is_some() {
        Verdict::Solved
    } else {
        rating.stuck_at = Some(board.grid());
        Verdict::NeedsMore
    };
    rating.level = Some(level(puzzle));
    rating
}
