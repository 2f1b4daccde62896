//! The Sudoku Explainer scorer: solve step by step, always with the first
//! technique (in Sudoku Explainer's order) that has a step, and keep the
//! three numbers `serate` prints:
//!
//! - ER (rating): the highest difficulty of any step;
//! - EP (pearl): the highest difficulty up to the first step that places a
//!   digit (singles, the direct techniques, a forcing chain proving a
//!   candidate true);
//! - ED (diamond): the difficulty of the first step.
//!
//! The order is Sudoku Explainer's default one (SukakuExplainer, default
//! settings): singles and the direct techniques first, then the indirect
//! ones by increasing difficulty, then the chaining searches (cycles and
//! forcing chains, Nishio, multiple, dynamic, dynamic (+), nested), each of
//! which collects all its hints and takes the easiest.

use crate::chains::Mode;
use crate::*;

/// Sudoku Explainer's three numbers, in tenths.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeScore {
    /// ER: the hardest step.
    pub rating: u8,
    /// EP: the hardest step up to the first placement.
    pub pearl: u8,
    /// ED: the first step.
    pub diamond: u8,
}

impl SeScore {
    /// `7.2/1.2/1.2`, as `serate --format "%r/%p/%d"` prints it.
    pub fn text(&self) -> String {
        format!(
            "{}/{}/{}",
            score_text(self.rating),
            score_text(self.pearl),
            score_text(self.diamond)
        )
    }
}

const fn mode(multiple: bool, dynamic: bool, nishio: bool, level: u8, nesting_limit: u8) -> Mode {
    Mode {
        multiple,
        dynamic,
        nishio,
        level,
        nesting_limit,
    }
}

/// The chaining searches after the cycles, in order.
const CHAIN_MODES: [Mode; 10] = [
    mode(false, true, true, 0, 0),  // Nishio
    mode(true, false, false, 0, 0), // multiple
    mode(true, true, false, 0, 0),  // dynamic
    mode(true, true, false, 1, 0),  // dynamic (+)
    mode(true, true, false, 2, 0),  // nested: with forcing chains
    mode(true, true, false, 3, 0),  // nested: with multiple forcing chains
    mode(true, true, false, 4, 0),  // nested: with dynamic forcing chains
    mode(true, true, false, 4, 1),
    mode(true, true, false, 4, 2),
    mode(true, true, false, 4, 3),
];

impl Board {
    /// Sudoku Explainer's next step: the first technique in its order that
    /// has one.
    pub fn se_next(&self) -> Option<Step> {
        self.se_hidden_single()
            .or_else(|| self.se_locking(true))
            .or_else(|| self.se_hidden_set(2, true))
            .or_else(|| self.se_naked_single())
            .or_else(|| self.se_hidden_set(3, true))
            .or_else(|| self.se_locking(false))
            .or_else(|| self.se_naked_set(2))
            .or_else(|| self.se_fish(2))
            .or_else(|| self.se_hidden_set(2, false))
            .or_else(|| self.se_naked_set(3))
            .or_else(|| self.se_fish(3))
            .or_else(|| self.se_hidden_set(3, false))
            .or_else(|| self.se_strong_links(2))
            .or_else(|| self.se_xy_wing())
            .or_else(|| self.se_xyz_wing())
            .or_else(|| self.se_unique_loops())
            .or_else(|| self.se_naked_set(4))
            .or_else(|| self.se_fish(4))
            .or_else(|| self.se_hidden_set(4, false))
            .or_else(|| self.se_strong_links(3))
            .or_else(|| self.se_als_wing(3))
            .or_else(|| self.se_bug())
            .or_else(|| self.se_strong_links(4))
            .or_else(|| self.se_als_wing(4))
            .or_else(|| self.se_aligned_exclusion(2))
            .or_else(|| self.se_als_wing(5))
            .or_else(|| self.se_cycles_and_chains())
            .or_else(|| self.se_als_wing(6))
            .or_else(|| self.se_aligned_exclusion(3))
            .or_else(|| CHAIN_MODES.iter().find_map(|&m| self.se_forcing_chains(m)))
    }

    /// The first step of one of the techniques only the Sudoku Explainer
    /// scorer has (for [`Board::find`]).
    pub(crate) fn se_find(&self, t: Technique) -> Option<Step> {
        let step = match t {
            Technique::FullHouse => self.se_hidden_single(),
            Technique::TwoStrongLinks => self.se_strong_links(2),
            Technique::WxyzWing => self.se_als_wing(3),
            Technique::ThreeStrongLinks => self.se_strong_links(3),
            Technique::Bug => self.se_bug(),
            Technique::FourStrongLinks => self.se_strong_links(4),
            Technique::VwxyzWing => self.se_als_wing(4),
            Technique::UvwxyzWing => self.se_als_wing(5),
            Technique::TuvwxyzWing => self.se_als_wing(6),
            Technique::AlignedPairExclusion => self.se_aligned_exclusion(2),
            Technique::AlignedTripleExclusion => self.se_aligned_exclusion(3),
            Technique::UniqueLoop => self.se_unique_loops(),
            Technique::DirectPointing | Technique::DirectClaiming => self.se_locking(true),
            Technique::DirectHiddenPair => self.se_hidden_set(2, true),
            Technique::DirectHiddenTriple => self.se_hidden_set(3, true),
            Technique::XCycle
            | Technique::YCycle
            | Technique::ForcingXChain
            | Technique::BidirectionalCycle
            | Technique::ForcingChain => self.se_cycles_and_chains(),
            Technique::NishioForcingChain => self.se_forcing_chains(CHAIN_MODES[0]),
            Technique::MultipleForcingChain => self.se_forcing_chains(CHAIN_MODES[1]),
            Technique::DynamicForcingChain => self.se_forcing_chains(CHAIN_MODES[2]),
            Technique::DynamicForcingChainPlus => self.se_forcing_chains(CHAIN_MODES[3]),
            _ => None,
        };
        step.filter(|s| s.technique == t)
    }
}

/// Solves with Sudoku Explainer's rules: the steps, and ER/EP/ED when the
/// grid gets solved (`None` if no technique applies before that).
pub fn se_solve(board: &mut Board) -> (Vec<Step>, Option<SeScore>) {
    let mut steps = Vec::new();
    let (mut rating, mut pearl, mut diamond) = (0u8, 0u8, 0u8);
    while !board.is_solved() {
        let Some(step) = board.se_next() else {
            return (steps, None);
        };
        rating = rating.max(step.tenths);
        board.apply(&step);
        if pearl == 0 {
            if diamond == 0 {
                diamond = rating;
            }
            if step.placement.is_some() {
                pearl = rating;
            }
        }
        steps.push(step);
        if board.broken() {
            return (steps, None);
        }
    }
    let score = SeScore {
        rating,
        pearl,
        diamond,
    };
    (steps, Some(score))
}
