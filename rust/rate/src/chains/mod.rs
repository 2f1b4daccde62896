//! Chains and forcing chains, the way Sudoku Explainer finds and scores them.
//!
//! # Potentials and implications
//!
//! A *potential* is a candidate (cell, digit) assumed true (*on*) or false
//! (*off*). Implications between potentials:
//!
//! - on ⇒ off: the cell's other candidates (a *Y-link*, not used by X-only
//!   searches), and the digit in the other cells of the cell's box, row and
//!   column (*X-links*), each cell once.
//! - off ⇒ on: the cell's last other candidate when the cell has two left
//!   (Y-link), and the digit's last other place in the box, the row or the
//!   column (X-link).
//!
//! Every implied potential remembers the potentials it was implied from
//! (its *parents*). A chain's *complexity* is the number of distinct
//! potentials among its ancestors, itself included; the longer the chain,
//! the higher its score: [`length_tenths`] adds 0.1 each time the length
//! (complexity − 2) passes 4, 6, 8, 10, 13, 17, 22, … (the ceiling grows by
//! ×3/2 and ×4/3 in turn).
//!
//! # The searches (easiest first, as Sudoku Explainer's solver runs them)
//!
//! 1. *Cycles and forcing chains* (static): from each candidate assumed on,
//!    a breadth-first search for an X-cycle (X-links only, 6.5), a Y-cycle
//!    (bivalue cells, 6.5) or a bidirectional cycle (both, 7.0), whose
//!    links eliminate every candidate that sees both ends of a weak link;
//!    and for forcing chains: on ⇒ … ⇒ the same candidate off (it is false)
//!    or off ⇒ … ⇒ on (it is true): Forcing X-Chain 6.6, Forcing Chain 7.0.
//! 2. *Nishio* (7.5): X-links only, and every off potential is removed from
//!    the grid while the search runs (dynamic), so later X-links see it; a
//!    candidate whose truth leads to a contradiction (a potential both on
//!    and off) is false.
//! 3. *Multiple forcing chains* (8.0, static, X- and Y-links): from each
//!    candidate of a cell with three or more candidates (*cell forcing
//!    chains*) or of a unit's places for a digit (*region forcing chains*),
//!    what every branch implies holds.
//! 4. *Dynamic forcing chains* (8.5): the same from every cell with two or
//!    more candidates, with the grid updated as offs are found, plus
//!    contradictions (a candidate leading to both on and off is false, or
//!    true if its negation does) and double implications (a candidate
//!    whose truth and falsity imply the same thing).
//! 5. *Dynamic forcing chains (+)* (9.0): also, when the implications stop,
//!    the eliminations of pointing/claiming, hidden and naked pairs and
//!    X-Wings on the updated grid. *Nested* levels (9.5, 10.0, 10.5+) also
//!    use forcing chains, multiple forcing chains and dynamic forcing chains
//!    inside the search, each nested chain's complexity added.
//!
//! Within one search, every hint is collected and the easiest taken: the
//! lowest score, then the lowest complexity, then the kind (cycles and
//! single chains before double implications, cell, region, contradiction).
//!
//! # Work saved without changing a step
//!
//! - The static searches list every candidate's links once per grid, for
//!   all three link modes ([`StaticLinks`]).
//! - A static search runs only if its target is reachable at all: for each
//!   candidate, the candidates its truth makes true one round (on ⇒ off ⇒
//!   on) later are a bit set, and a closure over these sets says whether a
//!   cycle, or a chain to the candidate's negation, can exist. Most
//!   searches, nested ones above all, end there (about 1 in 50 finds
//!   something).
//! - A static search adds two potentials per round (on ⇒ off ⇒ on), so it
//!   stops at the round where every chain still to come would score worse
//!   than the easiest hint so far.
//! - No cycle search starts from, and no chain tries to prove, a candidate
//!   that no off implies: nothing can lead back to it.
//! - A cycle search makes no node for an off reached before unless it
//!   closes the cycle (its ons are all there already).
//! - A static multiple search follows a cell's candidates only if they
//!   (or the places of a region forcing chain the cell starts) reach a
//!   common potential at all, by the bit sets of their links ([`Reach`]);
//!   in most nested grids no cell does.
//! - Multiple and dynamic searches follow each candidate assumed true once
//!   ([`Engine::on_cache`]), for its cell's and its units' chains.
//! - A chain search has one target, its start's negation: it ends there.
//! - A nested search's hints depend on its grid only: each carries every
//!   missing candidate its links relied on, and the outer search keeps
//!   those it removed itself. They are kept per grid ([`nested_hints`]),
//!   for the other follows, steps and levels that stop at the same grid.
//! - A nested search's X-cycles and X-chains of a digit depend only on the
//!   digit's places (and which of them are a cell's last candidate): they
//!   are kept per digit ([`x_hints`]), and most nested grids leave most
//!   digits as they were.
//! - Nested searches write no texts; potential sets are reused.

use std::collections::VecDeque;
use std::rc::Rc;

use crate::*;

const NPOT: usize = 81 * 9 * 2;

/// The eliminations found by a basic or nested rule inside a search: each
/// off, where the offs it relied on are in `parents` (start, count), the
/// nested chain's complexity and its id.
#[derive(Default)]
struct Advanced {
    items: Vec<(Pot, u32, u32, u32, u32)>,
    parents: Vec<u32>,
}

/// A potential: (cell * 9 + digit - 1) * 2 + on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Pot(u16);

/// A short list kept inline (no allocation in the search loops).
#[derive(Clone, Copy)]
struct Small<T: Copy + Default, const N: usize> {
    items: [T; N],
    len: usize,
}

impl<T: Copy + Default, const N: usize> Default for Small<T, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Copy + Default, const N: usize> Small<T, N> {
    fn new() -> Self {
        Small {
            items: [T::default(); N],
            len: 0,
        }
    }
    fn push(&mut self, x: T) {
        self.items[self.len] = x;
        self.len += 1;
    }
    fn as_slice(&self) -> &[T] {
        &self.items[..self.len]
    }
}

/// A node's parents: itself first (the one it was implied from), then in
/// dynamic searches the offs that made the link (at most 8).
type Parents = Small<u32, 10>;

impl Pot {
    fn new(cell: usize, d: u8, on: bool) -> Pot {
        Pot(((cell * 9 + d as usize - 1) * 2 + usize::from(on)) as u16)
    }
    fn cell(self) -> usize {
        self.0 as usize / 18
    }
    fn digit(self) -> u8 {
        (self.0 as usize / 2 % 9) as u8 + 1
    }
    fn on(self) -> bool {
        self.0 & 1 == 1
    }
    fn conj(self) -> Pot {
        Pot(self.0 ^ 1)
    }
    fn text(self) -> String {
        let op = if self.on() { "=" } else { "<>" };
        format!("{}{op}{}", cell_name(self.cell()), self.digit())
    }
}

/// One implied potential and where it came from.
struct Node {
    pot: Pot,
    /// Where its parents start in [`Engine::pool`], and how many.
    first: u32,
    count: u8,
    /// The complexity of the nested chain that implied it (0 if none).
    nested: u32,
    /// Which nested chain implied it ([`ChainHint::chain_key`], 0 if
    /// none): a nested chain counts once per hint however many of its
    /// eliminations the hint uses, and in however many branches.
    nested_id: u32,
    /// Why it holds: the unit (0–26) of the link that implied it, [`CELL`]
    /// for its cell, [`NO_CAUSE`] for an assumption or a derived rule.
    cause: u8,
}

/// The cause of a potential implied through its cell.
const CELL: u8 = 27;
/// No cause: an assumption (or a basic rule's elimination).
const NO_CAUSE: u8 = 255;

/// A set of potentials, each with the node that first implied it, in
/// insertion order.
#[derive(Clone)]
struct PotSet {
    at: Vec<u32>,
    order: Vec<Pot>,
}

impl PotSet {
    fn new() -> PotSet {
        PotSet {
            at: vec![u32::MAX; NPOT],
            order: Vec::new(),
        }
    }
    fn get(&self, p: Pot) -> Option<u32> {
        let n = self.at[p.0 as usize];
        (n != u32::MAX).then_some(n)
    }
    fn contains(&self, p: Pot) -> bool {
        self.at[p.0 as usize] != u32::MAX
    }
    /// Adds `p` (with its node) unless present; whether it was added.
    fn add(&mut self, p: Pot, node: u32) -> bool {
        if self.contains(p) {
            return false;
        }
        self.at[p.0 as usize] = node;
        self.order.push(p);
        true
    }
    /// Empties the set (in time proportional to its size).
    fn clear(&mut self) {
        for p in self.order.drain(..) {
            self.at[p.0 as usize] = u32::MAX;
        }
    }
}

/// A chaining hint: what it does, its score and its tie-breakers.
#[derive(Clone, Debug)]
pub(crate) struct ChainHint {
    pub(crate) step: Step,
    complexity: u32,
    sort_key: u8,
    /// In a nested search: the missing candidates this hint relied on (see
    /// [`Engine::complexity_and_parents`]).
    rule_parents: Vec<(usize, u8)>,
    /// In a nested search: a hash of the chain's content (its targets and
    /// their potentials), never 0. An outer hint counts a nested chain's
    /// complexity once per distinct content, as Sudoku Explainer's
    /// `FullChain` compares them: the same chain found in two branches of
    /// a region or cell forcing chain counts once.
    chain_key: u32,
}

/// A hint's order key: score, complexity, kind.
type Key = (u8, u32, u8);

/// The hints of one search: all of them (nested searches use every one),
/// or only the easiest so far (the first found among equals), so that
/// harder ones are not even written out.
struct Hints {
    all: bool,
    list: Vec<ChainHint>,
}

impl Hints {
    fn new(all: bool) -> Hints {
        Hints {
            all,
            list: Vec::new(),
        }
    }

    /// The key a new hint must beat (`None`: every hint is kept).
    fn bar(&self) -> Option<Key> {
        if self.all {
            None
        } else {
            self.list.first().map(ChainHint::key)
        }
    }

    fn push(&mut self, h: Option<ChainHint>) {
        let Some(h) = h else { return };
        if self.all {
            self.list.push(h);
        } else if self.bar().is_none_or(|b| h.key() < b) {
            self.list = vec![h];
        }
    }
}

impl ChainHint {
    fn key(&self) -> Key {
        (self.step.tenths, self.complexity, self.sort_key)
    }
}

/// Whether a hint with this key is worth writing out.
fn beats(key: Key, bar: Option<Key>) -> bool {
    bar.is_none_or(|b| key < b)
}

/// The tenths a chain of this complexity adds to its technique's base.
pub fn length_tenths(complexity: u32) -> u8 {
    let mut added = 0;
    let mut ceil = 4i64;
    let length = i64::from(complexity) - 2;
    let mut odd = false;
    while length > ceil {
        added += 1;
        ceil = if odd { ceil * 4 / 3 } else { ceil * 3 / 2 };
        odd = !odd;
    }
    added
}

/// Which forcing-chain search (Sudoku Explainer's chaining rule).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Mode {
    /// Cell and region forcing chains from cells/units with more than two
    /// places.
    pub(crate) multiple: bool,
    /// The grid is updated while the search runs.
    pub(crate) dynamic: bool,
    /// X-links only, contradictions only.
    pub(crate) nishio: bool,
    /// 0: plain; 1: with the basic eliminations (+); 2..: nested chains.
    pub(crate) level: u8,
    /// Nested dynamic level used inside level 4.
    pub(crate) nesting_limit: u8,
}

impl Mode {
    /// The base score in tenths.
    fn base_tenths(self) -> u8 {
        if self.level > 0 {
            85 + 5 * self.level
        } else if self.nishio {
            75
        } else if self.dynamic {
            85
        } else {
            80
        }
    }

    fn technique(self) -> Technique {
        if self.level >= 2 {
            Technique::NestedForcingChain
        } else if self.level == 1 {
            Technique::DynamicForcingChainPlus
        } else if self.nishio {
            Technique::NishioForcingChain
        } else if self.dynamic {
            Technique::DynamicForcingChain
        } else {
            Technique::MultipleForcingChain
        }
    }
}

mod cycles;
mod dynamic;
mod engine;
mod links;
mod multiple;
mod nested;

use engine::*;
use links::*;
use nested::*;

/// The unit of the link between two cells (the first of box, row, column
/// holding both), or [`CELL`] for one cell.
fn link_unit(a: usize, b: usize) -> u8 {
    if a == b {
        return CELL;
    }
    [18 + boxi(a), row(a), 9 + col(a)]
        .into_iter()
        .find(|&u| UNITS[u].contains(&b))
        .map_or(NO_CAUSE, |u| u as u8)
}

/// The easiest hint (score, then complexity, then kind; first found on ties).
fn easiest(mut hints: Vec<ChainHint>) -> Option<Step> {
    hints.sort_by_key(|h| (h.step.tenths, h.complexity, h.sort_key));
    hints.into_iter().next().map(|h| h.step)
}

impl Board {
    /// Sudoku Explainer's "Forcing Chains & Cycles" (6.5 and up).
    pub(crate) fn se_cycles_and_chains(&self) -> Option<Step> {
        easiest(Engine::new(self).unary_hints(false))
    }

    /// One of Sudoku Explainer's forcing-chain searches (see [`Mode`]).
    pub(crate) fn se_forcing_chains(&self, mode: Mode) -> Option<Step> {
        easiest(Engine::new(self).multiple_hints(mode, false))
    }
}
