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

/// One search's state: the grid (updated in dynamic searches) and the
/// nodes of every implication found.
struct Engine {
    grid: [u16; 81],
    /// For each digit, the cells holding it in `grid` (kept in step).
    places: [u128; 9],
    value: [u8; 81],
    nodes: Vec<Node>,
    /// Every node's parents, one after the other.
    pool: Vec<u32>,
    /// By digit, the cells where it was missing when this search started.
    missing: [u128; 9],
    /// Whether this search is nested in another (its hints then carry the
    /// candidates their links relied on, [`Engine::complexity_and_parents`]).
    nested: bool,
    /// Empty sets to reuse (a set is 6 KB: made once, cleared after use).
    spare: Vec<PotSet>,
    /// The static searches' queues and lists, kept between searches.
    scratch: Scratch,
    follow_scratch: FollowScratch,
    /// The buffer [`Engine::advanced`] fills (kept between stalls).
    advanced_out: Advanced,
    /// In a multiple or dynamic search: what assuming each candidate true
    /// implies (by candidate index), followed once and reused by its cell's
    /// and its units' forcing chains.
    on_cache: Vec<Option<Rc<OnFollow>>>,
    /// In a static multiple search (the grid fixed): the ons each
    /// candidate's falsity implies, by candidate index, in
    /// [`Engine::off_to_on`]'s order (empty when not in such a search).
    static_ons: Vec<Small<(Pot, u8), 4>>,
}

thread_local! {
    /// Empty sets left by finished searches, for the next ones (each set
    /// is 6 KB to clear when new).
    static SPARE_SETS: std::cell::RefCell<Vec<PotSet>> = const { std::cell::RefCell::new(Vec::new()) };
    /// The buffers of finished searches, for the next ones: a nested
    /// search starts with its lists grown to size, not empty.
    static SPARE_BUFFERS: std::cell::RefCell<Vec<Buffers>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// An engine's growing lists, empty (kept in [`SPARE_BUFFERS`]).
#[derive(Default)]
struct Buffers {
    nodes: Vec<Node>,
    pool: Vec<u32>,
    scratch: Scratch,
    follow_scratch: FollowScratch,
    advanced_out: Advanced,
    on_cache: Vec<Option<Rc<OnFollow>>>,
}

impl Drop for Engine {
    fn drop(&mut self) {
        let spare = std::mem::take(&mut self.spare);
        SPARE_SETS.with(|s| {
            let mut s = s.borrow_mut();
            // Keep at most a few thousand (about 20 MB).
            let room = 4096usize.saturating_sub(s.len());
            s.extend(spare.into_iter().take(room));
        });
        let mut b = Buffers {
            nodes: std::mem::take(&mut self.nodes),
            pool: std::mem::take(&mut self.pool),
            scratch: std::mem::take(&mut self.scratch),
            follow_scratch: std::mem::take(&mut self.follow_scratch),
            advanced_out: std::mem::take(&mut self.advanced_out),
            on_cache: std::mem::take(&mut self.on_cache),
        };
        b.nodes.clear();
        b.pool.clear();
        b.on_cache.clear();
        SPARE_BUFFERS.with(|s| {
            let mut s = s.borrow_mut();
            // One per nesting level is all that is ever in use.
            if s.len() < 8 {
                s.push(b);
            }
        });
    }
}

/// What a candidate assumed true implies: the ons and offs, and the
/// contradiction that stopped the search, if one did.
struct OnFollow {
    ons: PotSet,
    offs: PotSet,
    absurd: Option<(u32, u32)>,
}

impl OnFollow {
    /// The ons (`on`) or the offs.
    fn set(&self, on: bool) -> &PotSet {
        if on {
            &self.ons
        } else {
            &self.offs
        }
    }
}

/// Every static link of the grid, listed once per search: for each
/// candidate, the offs its truth implies (its cell's other candidates
/// first, the Y-links, then the X-links) and the ons its falsity implies
/// (the cell's last other candidate first, then the unit links). A search
/// mode ([`StaticLinks::set_mode`]) reads the part of each list it uses,
/// and the reachability sets of its links.
struct StaticLinks {
    /// The grid's candidates numbered 0..n, by candidate index (`u16::MAX`
    /// if not in the grid).
    local: [u16; NPOT / 2],
    /// Where each candidate's offs start in `offs` (one more entry at the
    /// end), and how many of them are its cell's.
    start: Vec<u32>,
    in_cell: Vec<u8>,
    offs: Vec<Pot>,
    ons: Vec<Small<(Pot, u8), 4>>,
    /// The mode: Y-links, X-links.
    y: bool,
    x: bool,
    /// Words per bit set over the candidates.
    words: usize,
    /// The candidates some off implies: a search can only come back to
    /// these (a cycle, or a chain proving one true).
    implied: Vec<u64>,
    /// For each candidate: the candidates whose truth its truth implies in
    /// one round (on ⇒ off ⇒ on).
    succ: Vec<u64>,
    /// `offs` by local number.
    off_local: Vec<u16>,
    /// Scratch for [`StaticLinks::reachable`].
    seen: Vec<u64>,
    todo: Vec<u16>,
}

impl StaticLinks {
    fn new(engine: &Engine) -> StaticLinks {
        let mut local = [u16::MAX; NPOT / 2];
        let mut n = 0usize;
        for c in 0..81 {
            let mut m = engine.grid[c];
            while m != 0 {
                let d = m.trailing_zeros() as usize;
                m &= m - 1;
                local[c * 9 + d] = n as u16;
                n += 1;
            }
        }
        let mut start = Vec::with_capacity(n + 1);
        let mut in_cell = Vec::with_capacity(n);
        let mut offs = Vec::with_capacity(n * 16);
        let mut ons = Vec::with_capacity(n);
        for c in 0..81 {
            let cand = engine.grid[c];
            let mut m = cand;
            while m != 0 {
                let d = m.trailing_zeros() as u8 + 1;
                m &= m - 1;
                start.push(offs.len() as u32);
                // On ⇒ off: the cell's others, then the digit's other
                // places in the box, the row and the column.
                in_cell.push(cand.count_ones() as u8 - 1);
                let places = engine.places[d as usize - 1];
                offs_of_on(cand, places, c, d, true, |q| offs.push(q));
                // Off ⇒ on: the cell's last other, the unit's last place.
                ons.push(ons_of_off(cand, places, c, d));
            }
        }
        start.push(offs.len() as u32);
        let off_local = offs.iter().map(|r| local[r.0 as usize / 2]).collect();
        let words = n.div_ceil(64).max(1);
        StaticLinks {
            local,
            start,
            in_cell,
            offs,
            ons,
            y: true,
            x: true,
            words,
            implied: vec![0; words],
            succ: vec![0; n * words],
            off_local,
            seen: vec![0; words],
            todo: Vec::new(),
        }
    }

    fn index(&self, p: Pot) -> usize {
        self.local[p.0 as usize / 2] as usize
    }

    /// Reads the links of one mode (Y-links, X-links), and lists for each
    /// candidate what its truth implies one round on. (What turns a
    /// candidate off is what it turns off: the links are symmetric.)
    fn set_mode(&mut self, y: bool, x: bool) {
        (self.y, self.x) = (y, x);
        let w = self.words;
        let mut implied = std::mem::take(&mut self.implied);
        let mut succ = std::mem::take(&mut self.succ);
        implied.fill(0);
        succ.fill(0);
        let n = self.ons.len();
        // a's truth turns b off and b's falsity makes its ons true; the
        // links are symmetric, so a is among the offs of b.
        for b in 0..n {
            let list = self.ons_at(b);
            if list.is_empty() {
                continue;
            }
            let mut targets = [0u16; 4];
            for (t, &(q, _)) in targets.iter_mut().zip(list) {
                *t = self.index(q) as u16;
                implied[*t as usize / 64] |= 1 << (*t % 64);
            }
            let targets = &targets[..list.len()];
            let from = self.start[b] as usize + if y { 0 } else { self.in_cell[b] as usize };
            for &a in &self.off_local[from..self.start[b + 1] as usize] {
                let row = &mut succ[a as usize * w..a as usize * w + w];
                for &t in targets {
                    row[t as usize / 64] |= 1 << (t % 64);
                }
            }
        }
        (self.implied, self.succ) = (implied, succ);
    }

    /// The ons the falsity of candidate `b` (local number) implies in this
    /// mode, with their link's unit.
    fn ons_at(&self, b: usize) -> &[(Pot, u8)] {
        let list = self.ons[b].as_slice();
        let cell = usize::from(list.first().is_some_and(|e| e.1 == CELL));
        match (self.y, self.x) {
            (true, true) => list,
            (true, false) => &list[..cell],
            _ => &list[cell..],
        }
    }

    /// Whether some off implies the on potential `p`.
    fn is_implied(&self, p: Pot) -> bool {
        let i = self.index(p);
        self.implied[i / 64] >> (i % 64) & 1 == 1
    }

    /// The offs an on potential implies.
    fn offs_of(&self, p: Pot) -> &[Pot] {
        let a = self.index(p);
        let from = self.start[a] as usize + if self.y { 0 } else { self.in_cell[a] as usize };
        &self.offs[from..self.start[a + 1] as usize]
    }

    /// The ons an off potential implies, with their link's unit.
    fn ons_of(&self, p: Pot) -> &[(Pot, u8)] {
        self.ons_at(self.index(p))
    }

    /// Adds to `seen` the candidates whose truth follows, one round or
    /// more on, from the truth of those in `todo`, until `done` holds of
    /// `seen` (then `todo` is emptied).
    fn close(&mut self, done: impl Fn(&[u64]) -> bool) {
        let w = self.words;
        while let Some(a) = self.todo.pop() {
            if done(&self.seen) {
                self.todo.clear();
                return;
            }
            let row = &self.succ[a as usize * w..a as usize * w + w];
            for (i, (s, &r)) in self.seen.iter_mut().zip(row).enumerate() {
                let mut new = r & !*s;
                *s |= new;
                while new != 0 {
                    self.todo
                        .push((i * 64 + new.trailing_zeros() as usize) as u16);
                    new &= new - 1;
                }
            }
        }
    }

    /// Which searches from candidate (`c`, `d`) can find anything at all:
    /// (a cycle back to its truth, a chain from its truth to its falsity,
    /// a chain from its falsity to its truth), each asked for in `want`
    /// (an answer not asked for is false). A search follows these links
    /// only, so one whose target is unreachable finds nothing.
    fn reachable(&mut self, c: usize, d: u8, want: [bool; 3]) -> [bool; 3] {
        let w = self.words;
        let a = self.local[c * 9 + d as usize - 1] as usize;
        let has = |seen: &[u64], t: usize| seen[t / 64] >> (t % 64) & 1 == 1;
        let mut out = [false; 3];
        // Its falsity is reached when a candidate it turns off is true (a
        // never turns itself off; the links are symmetric), which only one
        // some off implies can be.
        let mut offs = [0u64; 12];
        let mut off = false;
        if want[1] {
            let from = self.start[a] as usize + if self.y { 0 } else { self.in_cell[a] as usize };
            for &b in &self.off_local[from..self.start[a + 1] as usize] {
                let b = b as usize;
                if self.implied[b / 64] >> (b % 64) & 1 == 1 {
                    offs[b / 64] |= 1 << (b % 64);
                    off = true;
                }
            }
        }
        if want[0] || off {
            // From its truth: what is true one round or more on (itself
            // only if it comes back: a cycle; a loop of one round is none).
            self.seen.iter_mut().for_each(|s| *s = 0);
            // (At most 729 candidates: 12 words.)
            let mut m = [0u64; 12];
            m[..w].copy_from_slice(&self.succ[a * w..a * w + w]);
            m[a / 64] &= !(1 << (a % 64));
            for (i, &r) in m[..w].iter().enumerate() {
                self.seen[i] = r;
                let mut r = r;
                while r != 0 {
                    self.todo
                        .push((i * 64 + r.trailing_zeros() as usize) as u16);
                    r &= r - 1;
                }
            }
            let hit = |seen: &[u64]| seen.iter().zip(&offs).any(|(s, o)| s & o != 0);
            let cycle = want[0];
            self.close(|seen| (!cycle || has(seen, a)) && (!off || hit(seen)));
            out[0] = cycle && has(&self.seen, a);
            out[1] = off && hit(&self.seen);
        }
        if want[2] {
            // From its falsity: the ons it implies, and on.
            self.seen.iter_mut().for_each(|s| *s = 0);
            for k in 0..self.ons_at(a).len() {
                let t = self.index(self.ons_at(a)[k].0);
                if !has(&self.seen, t) {
                    self.seen[t / 64] |= 1 << (t % 64);
                    self.todo.push(t as u16);
                }
            }
            self.close(|seen| has(seen, a));
            out[2] = has(&self.seen, a);
        }
        out
    }
}

/// Buffers of the static searches (empty between searches).
#[derive(Default)]
struct Scratch {
    pending_on: Vec<u32>,
    pending_off: Vec<u32>,
    layer: Vec<u32>,
    targets: Vec<Pot>,
    path_bits: Vec<u16>,
}

/// Buffers of [`Engine::follow`] (empty between follows).
#[derive(Default)]
struct FollowScratch {
    pending_on: VecDeque<u32>,
    pending_off: VecDeque<u32>,
    made: Vec<(Pot, Parents, u8)>,
}

impl Engine {
    fn new(board: &Board) -> Engine {
        let b = SPARE_BUFFERS
            .with(|s| s.borrow_mut().pop())
            .unwrap_or_default();
        let places = places_of(&board.cand);
        Engine {
            grid: board.cand,
            places,
            missing: places.map(|p| !p & ALL_CELLS),
            value: board.value,
            nodes: b.nodes,
            pool: b.pool,
            nested: false,
            spare: Vec::new(),
            scratch: b.scratch,
            follow_scratch: b.follow_scratch,
            advanced_out: b.advanced_out,
            on_cache: b.on_cache,
            static_ons: Vec::new(),
        }
    }

    /// An empty set (a spare one if any).
    fn new_set(&mut self) -> PotSet {
        self.spare
            .pop()
            .or_else(|| SPARE_SETS.with(|s| s.borrow_mut().pop()))
            .unwrap_or_else(PotSet::new)
    }

    /// Gives sets back for reuse.
    fn recycle(&mut self, sets: impl IntoIterator<Item = PotSet>) {
        for mut s in sets {
            s.clear();
            self.spare.push(s);
        }
    }

    /// The missing candidates a nested hint relies on: for every on
    /// potential behind its targets (and, for cycles, every off), the
    /// candidates missing from this search's grid that made its link — the
    /// cell's other candidates for a cell link, the digit's other places in
    /// the unit for a unit link — each once, in the order of the walk. The
    /// outer search keeps those it removed itself ([`Engine::advanced`]):
    /// so the list depends on this grid only, and the hints of a grid serve
    /// every outer search that stops at it. `start_cause` is the
    /// assumption's (cell and region forcing chains).
    ///
    /// Returned with the hint's complexity ([`Engine::complexity_of`]),
    /// counted in the same walk (at the top level, where there are no
    /// parents, the complexity alone).
    fn complexity_and_parents(
        &self,
        targets: &[u32],
        start_cause: u8,
        offs_too: bool,
    ) -> (u32, Vec<(usize, u8)>, u32) {
        if !self.nested {
            return (self.complexity_of(targets), Vec::new(), 0);
        }
        let mut key = 0x811c_9dc5u32;
        let mut count = 0;
        let mut nested = 0;
        let mut nested_seen: Vec<u32> = Vec::new();
        let mut out: Vec<(usize, u8)> = Vec::new();
        // By digit, the places missing when this search started (the outer
        // search keeps those it removed itself, [`Engine::advanced`]), and
        // those listed.
        let gone = &self.missing;
        let mut taken = [0u128; 9];
        for &t in targets {
            key = (key ^ 0xffff).wrapping_mul(0x0100_0193);
            self.for_each_ancestor(t, |k, node| {
                count += 1;
                key = (key ^ u32::from(node.pot.0)).wrapping_mul(0x0100_0193);
                if node.nested_id != 0 && !nested_seen.contains(&node.nested_id) {
                    nested_seen.push(node.nested_id);
                    nested += node.nested;
                }
                let cause = if self.parents(k).is_empty() {
                    start_cause
                } else {
                    node.cause
                };
                if (node.pot.on() || offs_too) && cause != NO_CAUSE {
                    let (c, d) = (node.pot.cell(), node.pot.digit());
                    if cause == CELL {
                        for (v, (g, t)) in gone.iter().zip(&mut taken).enumerate() {
                            if (g & !*t) >> c & 1 == 1 {
                                *t |= 1 << c;
                                out.push((c, v as u8 + 1));
                            }
                        }
                    } else {
                        let i = d as usize - 1;
                        let mut m = UNIT_MASKS[cause as usize] & gone[i] & !taken[i];
                        taken[i] |= m;
                        while m != 0 {
                            out.push((m.trailing_zeros() as usize, d));
                            m &= m - 1;
                        }
                    }
                }
            });
        }
        (count + nested, out, key | 1)
    }

    /// Calls `f` with every node behind `target`, itself included, once per
    /// distinct potential (depth first, a node before its parents).
    fn for_each_ancestor(&self, target: u32, mut f: impl FnMut(u32, &Node)) {
        thread_local! {
            static TODO: std::cell::Cell<Vec<u32>> = const { std::cell::Cell::new(Vec::new()) };
        }
        let mut seen = [0u64; NPOT.div_ceil(64)];
        let mut todo = TODO.take();
        todo.push(target);
        while let Some(k) = todo.pop() {
            let node = &self.nodes[k as usize];
            let (w, b) = (node.pot.0 as usize / 64, node.pot.0 % 64);
            if seen[w] >> b & 1 == 1 {
                continue;
            }
            seen[w] |= 1 << b;
            f(k, node);
            todo.extend(self.parents(k).iter().copied());
        }
        TODO.set(todo);
    }

    fn node(&mut self, pot: Pot, parents: &[u32]) -> u32 {
        self.nodes.push(Node {
            pot,
            first: self.pool.len() as u32,
            count: parents.len() as u8,
            nested: 0,
            nested_id: 0,
            cause: NO_CAUSE,
        });
        self.pool.extend_from_slice(parents);
        (self.nodes.len() - 1) as u32
    }

    fn parents(&self, k: u32) -> &[u32] {
        let n = &self.nodes[k as usize];
        &self.pool[n.first as usize..n.first as usize + n.count as usize]
    }

    /// Drops the nodes from `mark` on (and their parents).
    fn truncate(&mut self, mark: usize) {
        if let Some(n) = self.nodes.get(mark) {
            self.pool.truncate(n.first as usize);
        }
        self.nodes.truncate(mark);
    }

    fn has(&self, c: usize, d: u8) -> bool {
        self.grid[c] & bit(d) != 0
    }

    /// The potentials an on potential turns off.
    fn on_to_off(&self, p: Pot, y: bool) -> Small<Pot, 32> {
        let (c, d) = (p.cell(), p.digit());
        let mut out = Small::new();
        offs_of_on(self.grid[c], self.places[d as usize - 1], c, d, y, |q| {
            out.push(q)
        });
        out
    }

    /// The potentials an off potential (node `n`) turns on, with their
    /// parents (the node, and in dynamic searches the offs that made the
    /// link: candidates of `source` (whose places per digit are
    /// `source_places`) gone from the grid).
    #[allow(clippy::too_many_arguments)]
    fn off_to_on(
        &self,
        n: u32,
        source: Option<(&[u16; 81], &[u128; 9])>,
        ons: &PotSet,
        offs: &PotSet,
        y: bool,
        x: bool,
        out: &mut Vec<(Pot, Parents, u8)>,
    ) {
        out.clear();
        let p = self.nodes[n as usize].pot;
        let (c, d) = (p.cell(), p.digit());
        // An on already implied matters only if its off is too (a
        // contradiction).
        let known = |q: Pot| ons.contains(q) && !offs.contains(q.conj());
        if source.is_none() && !self.static_ons.is_empty() && y && x {
            let mut parents = Parents::new();
            parents.push(n);
            for &(q, cause) in self.static_ons[c * 9 + d as usize - 1].as_slice() {
                if !known(q) {
                    out.push((q, parents, cause));
                }
            }
            return;
        }
        if y && self.grid[c].count_ones() == 2 {
            let other = (self.grid[c] & !bit(d)).trailing_zeros() as u8 + 1;
            if known(Pot::new(c, other, true)) {
                return self.off_to_on_x(n, source, ons, offs, x, out);
            }
            let mut parents = Parents::new();
            parents.push(n);
            let mut gone = source.map_or(0, |s| s.0[c] & !self.grid[c]);
            while gone != 0 {
                let v = gone.trailing_zeros() as u8 + 1;
                gone &= gone - 1;
                if let Some(q) = offs.get(Pot::new(c, v, false)) {
                    parents.push(q);
                }
            }
            out.push((Pot::new(c, other, true), parents, CELL));
        }
        self.off_to_on_x(n, source, ons, offs, x, out);
    }

    /// What each candidate's falsity implies on this grid (the cell's last
    /// other candidate, then the digit's last other place in the box, the
    /// row, the column), by candidate index.
    fn list_static_ons(&self) -> Vec<Small<(Pot, u8), 4>> {
        let mut all = vec![Small::new(); NPOT / 2];
        for c in 0..81 {
            let cand = self.grid[c];
            let mut m = cand;
            while m != 0 {
                let d = m.trailing_zeros() as u8 + 1;
                m &= m - 1;
                all[c * 9 + d as usize - 1] = ons_of_off(cand, self.places[d as usize - 1], c, d);
            }
        }
        all
    }

    /// The X part of [`Engine::off_to_on`], appended to `out`.
    fn off_to_on_x(
        &self,
        n: u32,
        source: Option<(&[u16; 81], &[u128; 9])>,
        ons: &PotSet,
        offs: &PotSet,
        x: bool,
        out: &mut Vec<(Pot, Parents, u8)>,
    ) {
        let p = self.nodes[n as usize].pot;
        let (c, d) = (p.cell(), p.digit());
        let known = |q: Pot| ons.contains(q) && !offs.contains(q.conj());
        if x {
            let i = d as usize - 1;
            let places = self.places[i] & !(1 << c);
            for u in [18 + boxi(c), row(c), 9 + col(c)] {
                let m = places & UNIT_MASKS[u];
                if m.count_ones() != 1 {
                    continue;
                }
                let other = m.trailing_zeros() as usize;
                if known(Pot::new(other, d, true)) {
                    continue;
                }
                let mut parents = Parents::new();
                parents.push(n);
                if let Some((_, source_places)) = source {
                    let mut gone = source_places[i] & UNIT_MASKS[u] & !self.places[i];
                    while gone != 0 {
                        let o = gone.trailing_zeros() as usize;
                        gone &= gone - 1;
                        if let Some(q) = offs.get(Pot::new(o, d, false)) {
                            parents.push(q);
                        }
                    }
                }
                out.push((Pot::new(other, d, true), parents, u as u8));
            }
        }
    }

    /// A hint's complexity: the ancestors of each target (counted per
    /// target), plus each nested chain among them once.
    fn complexity_of(&self, targets: &[u32]) -> u32 {
        let mut count = 0;
        let mut nested = 0;
        let mut nested_seen: Vec<u32> = Vec::new();
        for &n in targets {
            self.for_each_ancestor(n, |_, node| {
                count += 1;
                if node.nested_id != 0 && !nested_seen.contains(&node.nested_id) {
                    nested_seen.push(node.nested_id);
                    nested += node.nested;
                }
            });
        }
        count + nested
    }

    /// A hint's text, written only for a top-level search: a nested
    /// search's hints are used for their eliminations, never shown.
    fn describe(&self, text: impl FnOnce() -> String) -> String {
        if self.nested {
            String::new()
        } else {
            text()
        }
    }

    /// The chain to a node along first parents, from its source: `r1c2=4
    /// => r1c5<>4 => ...`.
    fn chain_text(&self, n: u32) -> String {
        let mut path = vec![self.nodes[n as usize].pot];
        let mut k = n;
        let mut guard = 0;
        while let Some(&p) = self.parents(k).first() {
            path.push(self.nodes[p as usize].pot);
            k = p;
            guard += 1;
            if guard > 2000 {
                break;
            }
        }
        path.reverse();
        let parts: Vec<String> = path.iter().map(|p| p.text()).collect();
        parts.join(" => ")
    }

    /// The potentials on a node's first-parent path (itself excluded), in
    /// a bit set over the potentials, written into `set`; the bits set
    /// are listed in `bits` so they can be cleared.
    fn first_path(&self, n: u32, set: &mut [u64; NPOT.div_ceil(64)], bits: &mut Vec<u16>) {
        let mut k = n;
        while let Some(&p) = self.parents(k).first() {
            k = p;
            let pot = self.nodes[k as usize].pot.0;
            set[pot as usize / 64] |= 1 << (pot % 64);
            bits.push(pot);
        }
    }

    // ----- static single chains and cycles -----

    /// Breadth-first search for cycles back to `start`. With `bar`, stops
    /// once every chain still to be found would score worse than the bar:
    /// a round follows two links, no potential repeats on a path, and a
    /// cycle closed in the round ending at `length` links has `length`
    /// distinct potentials (its complexity).
    fn cycles(
        &mut self,
        links: &StaticLinks,
        start: u32,
        y: bool,
        x: bool,
        bar: Option<Key>,
        found: &mut Vec<u32>,
    ) {
        let base = if x && y { 70 } else { 65 };
        let source = self.nodes[start as usize].pot;
        let mut ons = self.new_set();
        ons.add(source, start);
        let Scratch {
            mut pending_on,
            mut pending_off,
            mut layer,
            targets,
            mut path_bits,
        } = std::mem::take(&mut self.scratch);
        pending_on.push(start);
        let mut length = 0;
        let mut path = [0u64; NPOT.div_ceil(64)];
        let mut seen = [0u64; NPOT.div_ceil(64)];
        while !pending_on.is_empty() || !pending_off.is_empty() {
            let least = length + 2;
            if !beats((base + length_tenths(least), least, 0), bar) {
                break;
            }
            length += 1;
            std::mem::swap(&mut layer, &mut pending_on);
            for &p in &layer {
                let from = self.nodes[p as usize].pot.cell();
                self.first_path(p, &mut path, &mut path_bits);
                for &q in links.offs_of(self.nodes[p as usize].pot) {
                    let (w, b) = (q.0 as usize / 64, q.0 % 64);
                    if path[w] >> b & 1 == 1 {
                        continue;
                    }
                    // An off reached before has implied all its ons
                    // already: again, it can only close a cycle.
                    if seen[w] >> b & 1 == 1 && !links.ons_of(q).iter().any(|&(o, _)| o == source) {
                        continue;
                    }
                    seen[w] |= 1 << b;
                    let k = self.node(q, &[p]);
                    self.nodes[k as usize].cause = link_unit(from, q.cell());
                    pending_off.push(k);
                }
                for b in path_bits.drain(..) {
                    path[b as usize / 64] = 0;
                }
            }
            length += 1;
            layer.clear();
            std::mem::swap(&mut layer, &mut pending_off);
            for &p in &layer {
                let pot = self.nodes[p as usize].pot;
                for &(q, cause) in links.ons_of(pot) {
                    let back = length >= 4 && q == source;
                    if !back && ons.contains(q) {
                        continue;
                    }
                    let k = self.node(q, &[p]);
                    self.nodes[k as usize].cause = cause;
                    if back {
                        found.push(k);
                    }
                    if ons.add(q, k) {
                        pending_on.push(k);
                    }
                }
            }
            layer.clear();
        }
        self.recycle([ons]);
        pending_on.clear();
        pending_off.clear();
        layer.clear();
        self.scratch = Scratch {
            pending_on,
            pending_off,
            layer,
            targets,
            path_bits,
        };
    }

    /// Breadth-first search for a chain from `start` to its negation. With
    /// `bar`, stops once every chain still to be found would score worse
    /// than the bar. A round follows two links (on to off, off to on) and
    /// every potential gets one node, so the path to a target found in round
    /// r has 2r - 1 links and 2r distinct potentials: its complexity.
    fn forcing_chains(
        &mut self,
        links: &StaticLinks,
        start: u32,
        y: bool,
        bar: Option<Key>,
        found: &mut Vec<u32>,
    ) {
        let base = if y { 70 } else { 66 };
        let mut depth = 0u32;
        let source = self.nodes[start as usize].pot;
        let mut ons = self.new_set();
        let mut offs = self.new_set();
        let Scratch {
            mut pending_on,
            mut pending_off,
            mut layer,
            mut targets,
            path_bits,
        } = std::mem::take(&mut self.scratch);
        if source.on() {
            ons.add(source, start);
            pending_on.push(start);
        } else {
            offs.add(source, start);
            pending_off.push(start);
        }
        // The search has one target (the start's negation): it ends when
        // it finds it.
        'search: while !pending_on.is_empty() || !pending_off.is_empty() {
            let least = 2 * (depth + 1);
            if !beats((base + length_tenths(least), least, 0), bar) {
                break;
            }
            depth += 1;
            std::mem::swap(&mut layer, &mut pending_on);
            for &p in &layer {
                for &q in links.offs_of(self.nodes[p as usize].pot) {
                    let target = q.conj() == source && !targets.contains(&q);
                    if !target && offs.contains(q) {
                        continue;
                    }
                    let k = self.node(q, &[p]);
                    if target {
                        targets.push(q);
                        found.push(k);
                        break 'search;
                    }
                    if offs.add(q, k) {
                        pending_off.push(k);
                    }
                }
            }
            layer.clear();
            std::mem::swap(&mut layer, &mut pending_off);
            for &p in &layer {
                let pot = self.nodes[p as usize].pot;
                for &(q, cause) in links.ons_of(pot) {
                    let target = q.conj() == source && !targets.contains(&q);
                    if !target && ons.contains(q) {
                        continue;
                    }
                    let k = self.node(q, &[p]);
                    self.nodes[k as usize].cause = cause;
                    if target {
                        targets.push(q);
                        found.push(k);
                        break 'search;
                    }
                    if ons.add(q, k) {
                        pending_on.push(k);
                    }
                }
            }
            layer.clear();
        }
        self.recycle([ons, offs]);
        pending_on.clear();
        pending_off.clear();
        layer.clear();
        targets.clear();
        self.scratch = Scratch {
            pending_on,
            pending_off,
            layer,
            targets,
            path_bits,
        };
    }

    fn cycle_hint(&self, dst: u32, y: bool, x: bool, bar: Option<Key>) -> Option<ChainHint> {
        let (complexity, parents, chain_key) = self.complexity_and_parents(&[dst], NO_CAUSE, true);
        let (t, base) = match (y, x) {
            (true, true) => (Technique::BidirectionalCycle, 70),
            (true, false) => (Technique::YCycle, 65),
            _ => (Technique::XCycle, 65),
        };
        let sort_key = if y && x {
            4
        } else if y {
            3
        } else {
            2
        };
        if !beats(
            (base + length_tenths(complexity), complexity, sort_key),
            bar,
        ) {
            return None;
        }
        // The cycle's cells, then for each digit the cells outside them
        // seeing an on (forward) and an off (backward) node of the digit.
        let mut cells = 0u128;
        let mut k = dst;
        while let Some(&p) = self.parents(k).first() {
            cells |= 1 << self.nodes[k as usize].pot.cell();
            k = p;
        }
        let mut forw = [0u128; 9];
        let mut back = [0u128; 9];
        let mut k = dst;
        while let Some(&p) = self.parents(k).first() {
            let pot = self.nodes[k as usize].pot;
            let i = pot.digit() as usize - 1;
            let seen = PEERS[pot.cell()] & self.places[i] & !cells;
            if pot.on() {
                forw[i] |= seen;
            } else {
                back[i] |= seen;
            }
            k = p;
        }
        let mut el: Vec<(usize, u8)> = Vec::new();
        for i in 0..9 {
            el.extend(cells_of_mask(forw[i] & back[i]).map(|c| (c, i as u8 + 1)));
        }
        if el.is_empty() {
            return None;
        }
        el.sort_unstable();
        Some(ChainHint {
            step: Step {
                technique: t,
                tenths: base + length_tenths(complexity),
                placement: None,
                eliminations: el,
                detail: self.describe(|| format!("{} (cycle)", self.chain_text(dst))),
            },
            complexity,
            sort_key,
            rule_parents: parents,
            chain_key,
        })
    }

    fn forcing_chain_hint(&self, target: u32, y: bool, bar: Option<Key>) -> Option<ChainHint> {
        let pot = self.nodes[target as usize].pot;
        let (complexity, parents, chain_key) =
            self.complexity_and_parents(&[target], NO_CAUSE, false);
        let (t, base) = if y {
            (Technique::ForcingChain, 70)
        } else {
            (Technique::ForcingXChain, 66)
        };
        let sort_key = if y { 4 } else { 2 };
        if !beats(
            (base + length_tenths(complexity), complexity, sort_key),
            bar,
        ) {
            return None;
        }
        let (placement, eliminations) = if pot.on() {
            let c = pot.cell();
            let el = (1..=9u8)
                .filter(|&v| v != pot.digit() && self.has(c, v))
                .map(|v| (c, v))
                .collect();
            (Some((c, pot.digit())), el)
        } else {
            (None, vec![(pot.cell(), pot.digit())])
        };
        Some(ChainHint {
            step: Step {
                technique: t,
                tenths: base + length_tenths(complexity),
                placement,
                eliminations,
                detail: self.describe(|| self.chain_text(target)),
            },
            complexity,
            sort_key,
            rule_parents: parents,
            chain_key,
        })
    }

    /// Sudoku Explainer's "Forcing Chains & Cycles": every X-cycle, Y-cycle,
    /// bidirectional cycle and forcing (X-)chain. A nested search takes the
    /// X-cycles and X-chains digit by digit from [`x_hints`], which keeps
    /// them (they depend on the digit's places only).
    fn unary_hints(&mut self, all: bool) -> Vec<ChainHint> {
        let mut hints = Hints::new(all);
        let mut links = StaticLinks::new(self);
        let by_digit = all && self.nested;
        for (y, x) in [(false, true), (true, false), (true, true)] {
            if by_digit && !y {
                self.x_hints_by_digit(&mut links, &mut hints);
                continue;
            }
            links.set_mode(y, x);
            for c in 0..81 {
                let card = self.grid[c].count_ones();
                if self.value[c] != 0 || card < 2 || (!x && card > 2) {
                    continue;
                }
                let mut digits = self.grid[c];
                while digits != 0 {
                    let d = digits.trailing_zeros() as u8 + 1;
                    digits &= digits - 1;
                    self.unary_from(&mut links, c, d, y, x, &mut hints);
                }
            }
        }
        hints.list
    }

    /// The cycles and chains from candidate (`c`, `d`) in one mode.
    fn unary_from(
        &mut self,
        links: &mut StaticLinks,
        c: usize,
        d: u8,
        y: bool,
        x: bool,
        hints: &mut Hints,
    ) {
        let (mut cycles, mut chains) = (Vec::new(), Vec::new());
        let mark = self.nodes.len();
        let start = self.node(Pot::new(c, d, true), &[]);
        // Nothing leads back to an on no off implies: no cycle through it,
        // no chain proving it.
        let back = links.is_implied(Pot::new(c, d, true));
        // Nor can it find a target it cannot reach.
        let [cycle, to_off, to_on] = links.reachable(c, d, [back, x, x && back]);
        if back && cycle {
            self.cycles(links, start, y, x, hints.bar(), &mut cycles);
        }
        if x {
            if to_off {
                self.forcing_chains(links, start, y, hints.bar(), &mut chains);
            }
            if back && to_on {
                let off = self.node(Pot::new(c, d, false), &[]);
                self.forcing_chains(links, off, y, hints.bar(), &mut chains);
            }
        }
        for &k in &cycles {
            let h = self.cycle_hint(k, y, x, hints.bar());
            hints.push(h);
        }
        for &k in &chains {
            let h = self.forcing_chain_hint(k, y, hints.bar());
            hints.push(h);
        }
        // The hints are written out: their nodes can go.
        self.truncate(mark);
    }

    /// The X-mode hints of a nested search, in the order the search finds
    /// them (cell by cell, digits ascending), each digit's from [`x_hints`]
    /// or found afresh and kept there. A chain proving a candidate true
    /// takes its cell's other candidates on this grid.
    fn x_hints_by_digit(&mut self, links: &mut StaticLinks, hints: &mut Hints) {
        let mut found: Vec<(u8, u8, usize, XHints)> = Vec::new();
        let mut links_set = false;
        for d in 1..=9u8 {
            let i = d as usize - 1;
            let mut singles = 0u128;
            let mut m = self.places[i];
            while m != 0 {
                let c = m.trailing_zeros() as usize;
                m &= m - 1;
                if self.grid[c] == bit(d) {
                    singles |= 1 << c;
                }
            }
            let key = (d, self.places[i], singles);
            let list = match x_hints(&key) {
                Some(list) => list,
                None => {
                    if !links_set {
                        links.set_mode(false, true);
                        links_set = true;
                    }
                    let mut own = Hints::new(true);
                    let mut list = Vec::new();
                    let mut m = self.places[i] & !singles;
                    while m != 0 {
                        let c = m.trailing_zeros() as usize;
                        m &= m - 1;
                        if self.value[c] != 0 {
                            continue;
                        }
                        self.unary_from(links, c, d, false, true, &mut own);
                        list.extend(own.list.drain(..).map(|h| (c as u8, h)));
                    }
                    let list = Rc::new(list);
                    keep_x_hints(key, list.clone());
                    list
                }
            };
            for k in 0..list.len() {
                found.push((list[k].0, d, k, list.clone()));
            }
        }
        found.sort_unstable_by_key(|&(c, d, k, _)| (c, d, k));
        for (_, _, k, list) in found {
            let mut h = list[k].1.clone();
            if let Some((c, d)) = h.step.placement {
                h.step.eliminations = (1..=9u8)
                    .filter(|&v| v != d && self.has(c, v))
                    .map(|v| (c, v))
                    .collect();
            }
            hints.push(Some(h));
        }
    }

    // ----- dynamic and multiple chains -----

    /// Follows every implication of `ons`/`offs` (ons first); in dynamic
    /// searches, offs are removed from the grid as they are processed (the
    /// grid is restored at the end). A contradiction returns the (on, off)
    /// nodes of the same candidate.
    fn follow(&mut self, mode: Mode, ons: &mut PotSet, offs: &mut PotSet) -> Option<(u32, u32)> {
        let saved = (self.grid, self.places);
        let mut scratch = std::mem::take(&mut self.follow_scratch);
        let result = self.follow_inner(mode, ons, offs, &mut scratch);
        scratch.pending_on.clear();
        scratch.pending_off.clear();
        self.follow_scratch = scratch;
        (self.grid, self.places) = saved;
        result
    }

    fn follow_inner(
        &mut self,
        mode: Mode,
        ons: &mut PotSet,
        offs: &mut PotSet,
        scratch: &mut FollowScratch,
    ) -> Option<(u32, u32)> {
        let source = self.grid;
        let source_places = self.places;
        let FollowScratch {
            pending_on,
            pending_off,
            made,
        } = scratch;
        let y = !mode.nishio;
        pending_on.extend(ons.order.iter().map(|&p| ons.get(p).expect("in set")));
        pending_off.extend(offs.order.iter().map(|&p| offs.get(p).expect("in set")));
        loop {
            if let Some(p) = pending_on.pop_front() {
                for &q in self.on_to_off(self.nodes[p as usize].pot, y).as_slice() {
                    if let Some(on) = ons.get(q.conj()) {
                        let k = self.node(q, &[p]);
                        return Some((on, k));
                    }
                    if !offs.contains(q) {
                        let k = self.node(q, &[p]);
                        offs.add(q, k);
                        pending_off.push_back(k);
                    }
                }
                continue;
            }
            if let Some(p) = pending_off.pop_front() {
                self.off_to_on(
                    p,
                    mode.dynamic.then_some((&source, &source_places)),
                    ons,
                    offs,
                    y,
                    true,
                    made,
                );
                if mode.dynamic {
                    let pot = self.nodes[p as usize].pot;
                    self.grid[pot.cell()] &= !bit(pot.digit());
                    self.places[pot.digit() as usize - 1] &= !(1 << pot.cell());
                }
                for &(q, parents, cause) in made.iter() {
                    if let Some(off) = offs.get(q.conj()) {
                        let k = self.node(q, parents.as_slice());
                        self.nodes[k as usize].cause = cause;
                        return Some((k, off));
                    }
                    if !ons.contains(q) {
                        let k = self.node(q, parents.as_slice());
                        self.nodes[k as usize].cause = cause;
                        ons.add(q, k);
                        pending_on.push_back(k);
                    }
                }
                continue;
            }
            if mode.level > 0 {
                let mut any = false;
                let adv = self.advanced(mode, &source, offs);
                for &(q, from, count, nested, id) in &adv.items {
                    if !offs.contains(q) {
                        let parents = &adv.parents[from as usize..(from + count) as usize];
                        let k = self.node(q, parents);
                        self.nodes[k as usize].nested = nested;
                        self.nodes[k as usize].nested_id = id;
                        offs.add(q, k);
                        pending_off.push_back(k);
                        any = true;
                    }
                }
                self.advanced_out = adv;
                if any {
                    continue;
                }
            }
            return None;
        }
    }

    /// The eliminations of the first of the basic rules (and, at nested
    /// levels, chaining rules) that has any on the current grid, each with
    /// the offs it relied on (candidates of `source` gone from the grid).
    fn advanced(&mut self, mode: Mode, source: &[u16; 81], offs: &PotSet) -> Advanced {
        let board = Board {
            value: self.value,
            cand: self.grid,
        };
        let gone = |c: usize, d: u8| source[c] & bit(d) != 0 && board.cand[c] & bit(d) == 0;
        let mut out = std::mem::take(&mut self.advanced_out);
        out.items.clear();
        out.parents.clear();
        // A rule that relies on no candidate the search removed held
        // before it: Sudoku Explainer leaves it out of the chain.
        let push = |el: &mut dyn Iterator<Item = (usize, u8)>,
                    parents: &mut dyn Iterator<Item = (usize, u8)>,
                    nested: (u32, u32),
                    out: &mut Advanced| {
            let from = out.parents.len();
            let mut any = false;
            for (c, d) in parents {
                any = true;
                if let Some(k) = offs.get(Pot::new(c, d, false)) {
                    out.parents.push(k);
                }
            }
            if !any {
                return;
            }
            let count = (out.parents.len() - from) as u32;
            for (c, d) in el {
                out.items.push((
                    Pot::new(c, d, false),
                    from as u32,
                    count,
                    nested.0,
                    nested.1,
                ));
            }
        };
        // Pointing and claiming.
        let places = self.places;
        debug_assert_eq!(places, places_of(&board.cand));
        for (el, r1, r2, d) in board.all_locking(&places) {
            let parents: Vec<(usize, u8)> = UNITS[r1]
                .iter()
                .filter(|&&c| gone(c, d) && !UNITS[r2].contains(&c))
                .map(|&c| (c, d))
                .collect();
            push(
                &mut el.iter().copied(),
                &mut parents.iter().copied(),
                (0, 0),
                &mut out,
            );
        }
        if !out.items.is_empty() {
            return out;
        }
        for (el, u, digits, union) in board.all_hidden_pairs() {
            let mut parents = Vec::new();
            for i in (0..9).filter(|i| union & (1 << i) == 0) {
                for &d in &digits {
                    if source[UNITS[u][i]] & bit(d) != 0 {
                        parents.push((UNITS[u][i], d));
                    }
                }
            }
            push(
                &mut el.iter().copied(),
                &mut parents.iter().copied(),
                (0, 0),
                &mut out,
            );
        }
        if !out.items.is_empty() {
            return out;
        }
        for (el, cells, digits) in board.all_naked_pairs() {
            let mut parents = Vec::new();
            for &c in &cells {
                for v in 1..=9u8 {
                    if source[c] & bit(v) != 0 && digits & bit(v) == 0 {
                        parents.push((c, v));
                    }
                }
            }
            push(
                &mut el.iter().copied(),
                &mut parents.iter().copied(),
                (0, 0),
                &mut out,
            );
        }
        if !out.items.is_empty() {
            return out;
        }
        for (el, bases, covers, d) in board.all_x_wings(&places) {
            let mut parents = Vec::new();
            for &b in &bases {
                for &c in &UNITS[b] {
                    if gone(c, d) && !covers.iter().any(|&v| UNITS[v].contains(&c)) {
                        parents.push((c, d));
                    }
                }
            }
            push(
                &mut el.iter().copied(),
                &mut parents.iter().copied(),
                (0, 0),
                &mut out,
            );
        }
        if !out.items.is_empty() || mode.level < 2 {
            return out;
        }
        // Nested chains: their eliminations, parents = the outer search's
        // offs their links relied on (of the hint's `parents`, those this
        // search removed).
        let inner: Vec<Mode> = if mode.level < 4 {
            let mut v = vec![Mode {
                multiple: false,
                dynamic: false,
                nishio: false,
                level: 0,
                nesting_limit: 0,
            }];
            if mode.level >= 3 {
                v.push(Mode {
                    multiple: true,
                    dynamic: false,
                    nishio: false,
                    level: 0,
                    nesting_limit: 0,
                });
            }
            v
        } else {
            vec![Mode {
                multiple: true,
                dynamic: true,
                nishio: false,
                level: mode.nesting_limit,
                nesting_limit: 0,
            }]
        };
        for m in inner {
            let hints = nested_hints(m, &board);
            for h in hints.iter() {
                let id = h.key;
                let wide = |&(c, d): &(u8, u8)| (c as usize, d);
                // Of the missing candidates the hint relies on, those this
                // search removed.
                let removed = |&(c, d): &(usize, u8)| source[c] & bit(d) != 0;
                push(
                    &mut h.eliminations.iter().map(wide),
                    &mut h.parents.iter().map(wide).filter(removed),
                    (h.complexity, id),
                    &mut out,
                );
            }
            if !out.items.is_empty() {
                return out;
            }
        }
        out
    }

    /// A contradiction or double-implication hint (`set_on`: the target is
    /// proved true, so the cell's other candidates go).
    #[allow(clippy::too_many_arguments)]
    fn binary_hint(
        &self,
        mode: Mode,
        on: u32,
        off: u32,
        target: Pot,
        set_on: bool,
        absurd: bool,
        bar: Option<Key>,
    ) -> Option<ChainHint> {
        let c = target.cell();
        let eliminations: Vec<(usize, u8)> = if set_on {
            (1..=9u8)
                .filter(|&v| v != target.digit() && self.has(c, v))
                .map(|v| (c, v))
                .collect()
        } else {
            vec![(c, target.digit())]
        };
        if eliminations.is_empty() {
            return None;
        }
        let (complexity, parents, chain_key) =
            self.complexity_and_parents(&[on, off], NO_CAUSE, false);
        let sort_key = if absurd { 7 } else { 1 };
        if !beats(
            (
                mode.base_tenths() + length_tenths(complexity),
                complexity,
                sort_key,
            ),
            bar,
        ) {
            return None;
        }
        let kind = if mode.nishio {
            "forcing"
        } else if absurd {
            "contradiction"
        } else {
            "double"
        };
        Some(ChainHint {
            step: Step {
                technique: mode.technique(),
                tenths: mode.base_tenths() + length_tenths(complexity),
                placement: set_on.then_some((c, target.digit())),
                eliminations,
                detail: self.describe(|| {
                    format!(
                        "{kind}: {} and {}",
                        self.chain_text(on),
                        self.chain_text(off)
                    )
                }),
            },
            complexity,
            sort_key,
            rule_parents: parents,
            chain_key,
        })
    }

    #[allow(clippy::too_many_arguments)]
    fn reduction_hint(
        &self,
        mode: Mode,
        target: Pot,
        branches: &[u32],
        what: impl FnOnce() -> String,
        sort_key: u8,
        start_cause: u8,
        bar: Option<Key>,
    ) -> Option<ChainHint> {
        let c = target.cell();
        let eliminations: Vec<(usize, u8)> = if target.on() {
            (1..=9u8)
                .filter(|&v| v != target.digit() && self.has(c, v))
                .map(|v| (c, v))
                .collect()
        } else {
            vec![(c, target.digit())]
        };
        if eliminations.is_empty() {
            return None;
        }
        let (complexity, parents, chain_key) =
            self.complexity_and_parents(branches, start_cause, false);
        if !beats(
            (
                mode.base_tenths() + length_tenths(complexity),
                complexity,
                sort_key,
            ),
            bar,
        ) {
            return None;
        }
        let detail = self.describe(|| {
            let chains: Vec<String> = branches.iter().map(|&n| self.chain_text(n)).collect();
            format!("{}: {}", what(), chains.join("; "))
        });
        Some(ChainHint {
            step: Step {
                technique: mode.technique(),
                tenths: mode.base_tenths() + length_tenths(complexity),
                placement: target.on().then_some((c, target.digit())),
                eliminations,
                detail,
            },
            complexity,
            sort_key,
            rule_parents: parents,
            chain_key,
        })
    }

    /// Multiple, Nishio and dynamic forcing chains (see the module docs).
    fn multiple_hints(&mut self, mode: Mode, all: bool) -> Vec<ChainHint> {
        let mut hints = Hints::new(all);
        let mark = self.nodes.len();
        self.on_cache.clear();
        self.on_cache.resize_with(NPOT / 2, || None);
        let mut reach = None;
        if !mode.dynamic {
            self.static_ons = self.list_static_ons();
            if !mode.nishio {
                let mut links = StaticLinks::new(self);
                links.set_mode(true, true);
                reach = Some(Reach::new(links));
            }
        }
        for c in 0..81 {
            let card = self.grid[c].count_ones();
            if self.value[c] != 0 || !(card > 2 || (card > 1 && mode.dynamic)) {
                continue;
            }
            if let Some(reach) = &mut reach {
                if !reach.any_common(self, c) {
                    continue;
                }
            }
            self.cell_hints(mode, c, card, &mut hints);
        }
        // The hints are written out: the followed sets and their nodes can
        // go.
        let cached: Vec<OnFollow> = self
            .on_cache
            .drain(..)
            .flatten()
            .filter_map(|f| Rc::try_unwrap(f).ok())
            .collect();
        self.recycle(cached.into_iter().flat_map(|f| [f.ons, f.offs]));
        self.truncate(mark);
        self.static_ons.clear();
        hints.list
    }

    /// What assuming candidate (c, d) true implies in this search (see
    /// [`Engine::on_cache`]): the ons and offs, and the contradiction
    /// found, if any (shared, read only).
    fn on_follow(&mut self, mode: Mode, c: usize, d: u8) -> Rc<OnFollow> {
        let i = c * 9 + d as usize - 1;
        if let Some(f) = &self.on_cache[i] {
            return f.clone();
        }
        let p = Pot::new(c, d, true);
        let node = self.node(p, &[]);
        let mut ons = self.new_set();
        let mut offs = self.new_set();
        ons.add(p, node);
        let absurd = self.follow(mode, &mut ons, &mut offs);
        let f = Rc::new(OnFollow { ons, offs, absurd });
        self.on_cache[i] = Some(f.clone());
        f
    }

    fn cell_hints(&mut self, mode: Mode, c: usize, card: u32, hints: &mut Hints) {
        let mut values: Vec<Rc<OnFollow>> = Vec::with_capacity(9);
        for d in (1..=9u8)
            .filter(|&d| self.grid[c] & bit(d) != 0)
            .collect::<Vec<u8>>()
        {
            let p_on = Pot::new(c, d, true);
            let p_off = Pot::new(c, d, false);
            let off_node = self.node(p_off, &[]);
            let mut off_on = self.new_set();
            let mut off_off = self.new_set();
            let double = card >= 3 && !mode.nishio && mode.dynamic;
            let contradiction = mode.dynamic || mode.nishio;
            let f = self.on_follow(mode, c, d);
            let (on_on, on_off) = (&f.ons, &f.offs);
            if let Some((a, b)) = f.absurd {
                if contradiction {
                    let h = self.binary_hint(mode, a, b, p_on, false, true, hints.bar());
                    hints.push(h);
                }
            }
            off_off.add(p_off, off_node);
            // What the candidate's falsity implies serves contradictions and
            // double implications only (dynamic searches, Nishio).
            if contradiction || double {
                if let Some((a, b)) = self.follow(mode, &mut off_on, &mut off_off) {
                    if contradiction {
                        let h = self.binary_hint(mode, a, b, p_off, true, true, hints.bar());
                        hints.push(h);
                    }
                }
            }
            if double {
                for &p in &on_on.order {
                    if let Some(f) = off_on.get(p) {
                        let n = on_on.get(p).expect("in set");
                        let h = self.binary_hint(mode, n, f, p, true, false, hints.bar());
                        hints.push(h);
                    }
                }
                for &p in &on_off.order {
                    if let Some(f) = off_off.get(p) {
                        let n = on_off.get(p).expect("in set");
                        let h = self.binary_hint(mode, n, f, p, false, false, hints.bar());
                        hints.push(h);
                    }
                }
            }
            if !mode.nishio {
                self.region_hints(mode, c, d, &f, hints);
            }
            self.recycle([off_on, off_off]);
            values.push(f);
        }
        if mode.nishio || !(card == 2 || (mode.multiple && card > 2)) {
            return;
        }
        // What every value of the cell implies.
        let what = || format!("cell forcing on {}", cell_name(c));
        self.reduction_hints(mode, &values, what, 5, CELL, hints);
    }

    /// The hints of what every branch implies (the first branch's order):
    /// cell forcing chains (`sort_key` 5, `cause` [`CELL`]) or region
    /// forcing chains (6, the unit).
    fn reduction_hints(
        &self,
        mode: Mode,
        branches: &[Rc<OnFollow>],
        what: impl Fn() -> String,
        sort_key: u8,
        cause: u8,
        hints: &mut Hints,
    ) {
        for on in [true, false] {
            for &p in &branches[0].set(on).order {
                let mut nodes = Small::<u32, 9>::new();
                for f in branches {
                    match f.set(on).get(p) {
                        Some(n) => nodes.push(n),
                        None => break,
                    }
                }
                if nodes.len < branches.len() {
                    continue;
                }
                let h = self.reduction_hint(
                    mode,
                    p,
                    nodes.as_slice(),
                    &what,
                    sort_key,
                    cause,
                    hints.bar(),
                );
                hints.push(h);
            }
        }
    }

    fn region_hints(&mut self, mode: Mode, c: usize, d: u8, own: &Rc<OnFollow>, hints: &mut Hints) {
        for u in [18 + boxi(c), row(c), 9 + col(c)] {
            let mut places = Small::<usize, 9>::new();
            for &o in &UNITS[u] {
                if self.has(o, d) {
                    places.push(o);
                }
            }
            let places = places.as_slice();
            let n = places.len();
            if !(n == 2 || (mode.multiple && n > 2)) || places[0] != c {
                continue;
            }
            let mut pos: Vec<Rc<OnFollow>> = Vec::with_capacity(9);
            for &o in places {
                if o == c {
                    pos.push(own.clone());
                } else {
                    pos.push(self.on_follow(mode, o, d));
                }
            }
            // What every place of the digit in the unit implies.
            let what = || format!("region forcing on {d} in {}", unit_name(u));
            self.reduction_hints(mode, &pos, what, 6, u as u8, hints);
        }
    }
}

/// For a static multiple search: whether a cell's forcing chains, or the
/// region forcing chains it starts, can find anything at all. Its value's
/// branches must imply a common potential; what a candidate's truth
/// implies is at most every on its links reach and every off those ons
/// imply (the follow may stop earlier, at a contradiction). Most cells of
/// a nested grid have no common potential: their follows are not made.
struct Reach {
    links: StaticLinks,
    /// By local candidate number, `words` words each: the ons reachable
    /// from its truth (itself included), and the offs they imply.
    ons: Vec<u64>,
    offs: Vec<u64>,
    done: Vec<bool>,
    todo: Vec<u16>,
}

impl Reach {
    fn new(links: StaticLinks) -> Reach {
        let n = links.ons.len();
        let w = links.words;
        Reach {
            links,
            ons: vec![0; n * w],
            offs: vec![0; n * w],
            done: vec![false; n],
            todo: Vec::new(),
        }
    }

    /// Lists what candidate `a`'s truth reaches (once).
    fn fill(&mut self, a: usize) {
        if self.done[a] {
            return;
        }
        self.done[a] = true;
        let w = self.links.words;
        let l = &self.links;
        let (ons, offs) = (
            &mut self.ons[a * w..a * w + w],
            &mut self.offs[a * w..a * w + w],
        );
        ons[a / 64] |= 1 << (a % 64);
        self.todo.push(a as u16);
        while let Some(o) = self.todo.pop() {
            let o = o as usize;
            for &b in &l.off_local[l.start[o] as usize..l.start[o + 1] as usize] {
                offs[b as usize / 64] |= 1 << (b % 64);
            }
            for (i, (s, &r)) in ons.iter_mut().zip(&l.succ[o * w..o * w + w]).enumerate() {
                let mut new = r & !*s;
                *s |= new;
                while new != 0 {
                    self.todo
                        .push((i * 64 + new.trailing_zeros() as usize) as u16);
                    new &= new - 1;
                }
            }
        }
    }

    /// Whether the candidates `group` (local numbers) all reach a common
    /// on or a common off.
    fn common(&mut self, group: &[usize]) -> bool {
        for &a in group {
            self.fill(a);
        }
        let w = self.links.words;
        for sets in [&self.ons, &self.offs] {
            let mut all = [u64::MAX; 12];
            for &a in group {
                for (x, &y) in all[..w].iter_mut().zip(&sets[a * w..a * w + w]) {
                    *x &= y;
                }
            }
            if all[..w].iter().any(|&x| x != 0) {
                return true;
            }
        }
        false
    }

    /// Whether cell `c`'s forcing chains or a region forcing chain it
    /// starts (as [`Engine::cell_hints`] looks for them in a static
    /// multiple search) can find anything.
    fn any_common(&mut self, e: &Engine, c: usize) -> bool {
        let mut group = Small::<usize, 9>::new();
        for d in (1..=9u8).filter(|&d| e.has(c, d)) {
            group.push(self.links.index(Pot::new(c, d, true)));
        }
        if self.common(group.as_slice()) {
            return true;
        }
        for d in (1..=9u8).filter(|&d| e.has(c, d)) {
            for u in [18 + boxi(c), row(c), 9 + col(c)] {
                let mut group = Small::<usize, 9>::new();
                for &o in UNITS[u].iter().filter(|&&o| e.has(o, d)) {
                    group.push(self.links.index(Pot::new(o, d, true)));
                }
                // Only the unit's first place starts its region chains.
                let g = group.as_slice();
                let first = self.links.index(Pot::new(c, d, true));
                if g.len() >= 2 && g[0] == first && self.common(g) {
                    return true;
                }
            }
        }
        false
    }
}

/// What a search uses of a nested rule's hint: its eliminations, the
/// missing candidates it relied on, its complexity.
struct NestedHint {
    eliminations: Box<[(u8, u8)]>,
    parents: Box<[(u8, u8)]>,
    complexity: u32,
    /// [`ChainHint::chain_key`].
    key: u32,
}

/// A nested rule's hints on `board`: all of them, easiest first, as
/// Sudoku Explainer lists a rule's hints (score, complexity, kind; stable),
/// so an elimination several hints make comes from the easiest. They
/// depend on the grid only (each outer search picks, of the missing
/// candidates a hint relies on, those it removed), so they are kept: the
/// follows of one search stop at many of the same grids, and so do the
/// searches of the next steps and of the next level (10.0 after 9.5).
fn nested_hints(m: Mode, board: &Board) -> Rc<Vec<NestedHint>> {
    type Key = (u8, u8, bool, bool, [u16; 81], [u8; 81]);
    thread_local! {
        static KEPT: std::cell::RefCell<Kept<Key, Rc<Vec<NestedHint>>>> =
            std::cell::RefCell::new(Kept::default());
    }
    let key: Key = (
        m.level,
        m.nesting_limit,
        m.multiple,
        m.dynamic,
        board.cand,
        board.value,
    );
    if let Some(h) = KEPT.with(|k| k.borrow_mut().get(&key)) {
        return h;
    }
    let mut sub = Engine::new(board);
    sub.nested = true;
    let mut hints = if m.multiple || m.dynamic {
        sub.multiple_hints(m, true)
    } else {
        sub.unary_hints(true)
    };
    hints.sort_by_key(ChainHint::key);
    let narrow = |v: &[(usize, u8)]| v.iter().map(|&(c, d)| (c as u8, d)).collect();
    // A hint that relies on no missing candidate held before any outer
    // search could reach this grid: none uses it.
    let hints: Vec<NestedHint> = hints
        .iter()
        .filter(|h| !h.rule_parents.is_empty())
        .map(|h| NestedHint {
            eliminations: narrow(&h.step.eliminations),
            parents: narrow(&h.rule_parents),
            complexity: h.complexity,
            key: h.chain_key,
        })
        .collect();
    let hints = Rc::new(hints);
    KEPT.with(|k| k.borrow_mut().insert(key, hints.clone(), NESTED_KEPT));
    hints
}

/// How many grids' nested hints are kept, per generation of [`Kept`].
const NESTED_KEPT: usize = 4096;

/// A cache of two generations: when the newer is full it becomes the
/// older, and the older is dropped; what is read from the older moves to
/// the newer. Grids in use stay, at most twice `cap` are kept.
struct Kept<K, V> {
    new: std::collections::HashMap<K, V>,
    old: std::collections::HashMap<K, V>,
}

impl<K, V> Default for Kept<K, V> {
    fn default() -> Self {
        Kept {
            new: std::collections::HashMap::new(),
            old: std::collections::HashMap::new(),
        }
    }
}

impl<K: std::hash::Hash + Eq, V: Clone> Kept<K, V> {
    fn get(&mut self, key: &K) -> Option<V> {
        if let Some(v) = self.new.get(key) {
            return Some(v.clone());
        }
        let (key, v) = self.old.remove_entry(key)?;
        self.new.insert(key, v.clone());
        Some(v)
    }

    fn insert(&mut self, key: K, v: V, cap: usize) {
        if self.new.len() >= cap {
            self.old = std::mem::take(&mut self.new);
        }
        self.new.insert(key, v);
    }
}

/// A digit, its places, and those that are their cell's last candidate:
/// all its X-cycles and X-chains depend on.
type XKey = (u8, u128, u128);

/// A digit's X-mode hints, each with its start cell.
type XHints = Rc<Vec<(u8, ChainHint)>>;

thread_local! {
    static X_KEPT: std::cell::RefCell<std::collections::HashMap<XKey, XHints>> =
        std::cell::RefCell::new(std::collections::HashMap::new());
}

/// The X-mode hints kept for a digit (see [`Engine::x_hints_by_digit`]),
/// with their start cells.
fn x_hints(key: &XKey) -> Option<XHints> {
    X_KEPT.with(|k| k.borrow().get(key).cloned())
}

fn keep_x_hints(key: XKey, list: XHints) {
    X_KEPT.with(|k| {
        let mut k = k.borrow_mut();
        // Some sixty thousand digits (a few MB), then start afresh.
        if k.len() >= 1 << 16 {
            k.clear();
        }
        k.insert(key, list);
    });
}

/// The offs candidate (`c`, `d`) implies if true, on a grid where its cell
/// holds `cand` and the digit's places are `places`: with `y`, the cell's
/// other candidates first (Y-links), then the digit's other places in the
/// box, the row and the column (X-links), each cell once.
fn offs_of_on(cand: u16, places: u128, c: usize, d: u8, y: bool, mut f: impl FnMut(Pot)) {
    if y {
        let mut others = cand & !bit(d);
        while others != 0 {
            let v = others.trailing_zeros() as u8 + 1;
            others &= others - 1;
            f(Pot::new(c, v, false));
        }
    }
    let mut added: u128 = 1 << c;
    for u in [18 + boxi(c), row(c), 9 + col(c)] {
        let mut m = places & UNIT_MASKS[u] & !added;
        added |= m;
        while m != 0 {
            let o = m.trailing_zeros() as usize;
            m &= m - 1;
            f(Pot::new(o, d, false));
        }
    }
}

/// The ons candidate (`c`, `d`) implies if false, on the same grid, with
/// their link's unit: the cell's last other candidate ([`CELL`]), then the
/// digit's last other place in the box, the row, the column.
fn ons_of_off(cand: u16, places: u128, c: usize, d: u8) -> Small<(Pot, u8), 4> {
    let mut list = Small::new();
    if cand.count_ones() == 2 {
        let other = (cand & !bit(d)).trailing_zeros() as u8 + 1;
        list.push((Pot::new(c, other, true), CELL));
    }
    let rest = places & !(1u128 << c);
    for u in [18 + boxi(c), row(c), 9 + col(c)] {
        let p = rest & UNIT_MASKS[u];
        if p.count_ones() == 1 {
            list.push((Pot::new(p.trailing_zeros() as usize, d, true), u as u8));
        }
    }
    list
}

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

    /// Every pointing/claiming with eliminations: (eliminations, unit
    /// holding the digit, unit cleared, digit).
    fn all_locking(&self, places: &[u128; 9]) -> Vec<(Elims, usize, usize, u8)> {
        crate::singles::lockings(places)
            .map(|(r1, r2, d, gone)| (cells_of_mask(gone).map(|c| (c, d)).collect(), r1, r2, d))
            .collect()
    }

    /// Every hidden pair with eliminations: (eliminations, unit, digits,
    /// positions).
    fn all_hidden_pairs(&self) -> Vec<(Elims, usize, Vec<u8>, u16)> {
        let mut out = Vec::new();
        for u in SE_UNIT_ORDER {
            if UNITS[u].iter().filter(|&&c| self.value[c] == 0).count() <= 4 {
                continue;
            }
            let pos: [u16; 9] = self.unit_positions(u);
            if !has_twin_pair(&pos) {
                continue;
            }
            for m in crate::subsets::masks_of_size(2) {
                let (i, j) = (m.trailing_zeros() as usize, 15 - m.leading_zeros() as usize);
                if pos[i].count_ones() < 2 || pos[j].count_ones() < 2 {
                    continue;
                }
                let union = pos[i] | pos[j];
                if union.count_ones() != 2 {
                    continue;
                }
                let cells = (0..9)
                    .filter(|i| union & (1 << i) != 0)
                    .map(|i| UNITS[u][i]);
                let el = self.elims_of(cells, !m & 0x1ff);
                if !el.is_empty() {
                    out.push((el, u, vec![i as u8 + 1, j as u8 + 1], union));
                }
            }
        }
        out
    }

    /// Every naked pair with eliminations: (eliminations, cells, digits).
    fn all_naked_pairs(&self) -> Vec<(Elims, Vec<usize>, u16)> {
        let mut out = Vec::new();
        for u in SE_UNIT_ORDER {
            if UNITS[u].iter().filter(|&&c| self.value[c] == 0).count() < 4 {
                continue;
            }
            let cand: [u16; 9] = std::array::from_fn(|i| self.cand[UNITS[u][i]]);
            if !has_twin_pair(&cand) {
                continue;
            }
            for m in crate::subsets::masks_of_size(2) {
                let (i, j) = (m.trailing_zeros() as usize, 15 - m.leading_zeros() as usize);
                if cand[i].count_ones() < 2 || cand[j].count_ones() < 2 {
                    continue;
                }
                let union = cand[i] | cand[j];
                if union.count_ones() != 2 {
                    continue;
                }
                if !(0..9).any(|k| k != i && k != j && cand[k] & union != 0) {
                    continue;
                }
                let cells = vec![UNITS[u][i], UNITS[u][j]];
                let el = self.elims_of(
                    UNITS[u].iter().copied().filter(|c| !cells.contains(c)),
                    union,
                );
                out.push((el, cells, union));
            }
        }
        out
    }

    /// Every X-Wing with eliminations: (eliminations, base units, cover
    /// units, digit).
    fn all_x_wings(&self, places: &[u128; 9]) -> Vec<(Elims, Vec<usize>, Vec<usize>, u8)> {
        let mut out = Vec::new();
        let mut placed = [0usize; 10];
        for c in 0..81 {
            placed[self.value[c] as usize] += 1;
        }
        // Positions of each digit in each line (bit i = the line's cell i).
        let mut pos = [[0u16; 9]; 18];
        for (d, row) in places.iter().enumerate() {
            let mut m = *row;
            while m != 0 {
                let c = m.trailing_zeros() as usize;
                m &= m - 1;
                pos[row_of(c)][d] |= 1 << col_of(c);
                pos[9 + col_of(c)][d] |= 1 << row_of(c);
            }
        }
        for (base, cover) in [(9usize, 0usize), (0, 9)] {
            // An X-Wing needs two lines holding the digit in the same two
            // places.
            let any = (0..9).any(|d| {
                let lines: [u16; 9] = std::array::from_fn(|i| pos[base + i][d]);
                placed[d + 1] + 4 <= 9 && has_twin_pair(&lines)
            });
            if !any {
                continue;
            }
            for m in crate::subsets::masks_of_size(2) {
                let (i, j) = (m.trailing_zeros() as usize, 15 - m.leading_zeros() as usize);
                for d in 1..=9u8 {
                    if placed[d as usize] + 4 > 9 {
                        continue;
                    }
                    let (a, b) = (pos[base + i][d as usize - 1], pos[base + j][d as usize - 1]);
                    if a.count_ones() < 2 || b.count_ones() < 2 {
                        continue;
                    }
                    let union = a | b;
                    if union.count_ones() != 2 {
                        continue;
                    }
                    let covers: Vec<usize> = (0..9)
                        .filter(|j| union & (1 << j) != 0)
                        .map(|j| cover + j)
                        .collect();
                    let mut el = Vec::new();
                    for &v in &covers {
                        for (k, &c) in UNITS[v].iter().enumerate() {
                            if m & (1 << k) == 0 && self.cand[c] & bit(d) != 0 {
                                el.push((c, d));
                            }
                        }
                    }
                    if !el.is_empty() {
                        out.push((el, vec![base + i, base + j], covers, d));
                    }
                }
            }
        }
        out
    }
}

/// Whether two of the masks are the same pair (two bits): a hidden or
/// naked pair, or an X-Wing's two lines.
fn has_twin_pair(masks: &[u16; 9]) -> bool {
    let mut seen = [0u16; 9];
    let mut n = 0;
    for &m in masks {
        if m.count_ones() == 2 {
            if seen[..n].contains(&m) {
                return true;
            }
            seen[n] = m;
            n += 1;
        }
    }
    false
}

/// The row of a cell.
fn row_of(c: usize) -> usize {
    c / 9
}

/// The column of a cell.
fn col_of(c: usize) -> usize {
    c % 9
}
