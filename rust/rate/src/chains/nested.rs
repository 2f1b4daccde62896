//! Nested rules' hints, kept per grid.

use super::*;

/// What a search uses of a nested rule's hint: its eliminations, the
/// missing candidates it relied on, its complexity.
pub(super) struct NestedHint {
    pub(super) eliminations: Box<[(u8, u8)]>,
    pub(super) parents: Box<[(u8, u8)]>,
    pub(super) complexity: u32,
    /// [`ChainHint::chain_key`].
    pub(super) key: u32,
}

/// A nested rule's hints on `board`: all of them, easiest first, as
/// Sudoku Explainer lists a rule's hints (score, complexity, kind; stable),
/// so an elimination several hints make comes from the easiest. They
/// depend on the grid only (each outer search picks, of the missing
/// candidates a hint relies on, those it removed), so they are kept: the
/// follows of one search stop at many of the same grids, and so do the
/// searches of the next steps and of the next level (10.0 after 9.5).
pub(super) fn nested_hints(m: Mode, board: &Board) -> Rc<Vec<NestedHint>> {
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
pub(super) const NESTED_KEPT: usize = 4096;

/// A cache of two generations: when the newer is full it becomes the
/// older, and the older is dropped; what is read from the older moves to
/// the newer. Grids in use stay, at most twice `cap` are kept.
pub(super) struct Kept<K, V> {
    pub(super) new: std::collections::HashMap<K, V>,
    pub(super) old: std::collections::HashMap<K, V>,
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
    pub(super) fn get(&mut self, key: &K) -> Option<V> {
        if let Some(v) = self.new.get(key) {
            return Some(v.clone());
        }
        let (key, v) = self.old.remove_entry(key)?;
        self.new.insert(key, v.clone());
        Some(v)
    }

    pub(super) fn insert(&mut self, key: K, v: V, cap: usize) {
        if self.new.len() >= cap {
            self.old = std::mem::take(&mut self.new);
        }
        self.new.insert(key, v);
    }
}
