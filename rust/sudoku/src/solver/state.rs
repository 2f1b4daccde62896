//! The candidate state and its propagation steps (see the module documentation of [`super`]).

use super::tables::*;
use super::Near;
use crate::grid::Grid;

/// The solver state: see the module documentation.
#[derive(Clone, Copy)]
#[repr(C, align(64))] // cache-line aligned: copies never straddle lines
pub(super) struct State {
    /// `cand[9 * b + d]`: 27-bit candidate mask of digit `d` in band `b`.
    pub(super) cand: [u32; 27],
    /// `prev[w]`: the value `cand[w]` had when it was last processed.
    pub(super) prev: [u32; 27],
    /// Per band: the cells not yet placed.
    pub(super) unsolved: [u32; 3],
    /// Per digit: the column projections of its three words (`pa | pb << 9 |
    /// pc << 18`) when [`State::columns`] last examined it; the column step
    /// depends only on these, so an unchanged digit is skipped.
    pub(super) col_sig: [u32; 9],
    /// `vconf[s][d]`: the stack configurations ([`VCONFIGS`] bits) of digit
    /// `d` in stack `s` when [`State::columns`] last examined it (read by
    /// [`State::config_choice`]).
    pub(super) vconf: [[u8; 9]; 3],
    /// `hconf[w]`: the band configurations ([`CONFIGS`] bits) of word `w`
    /// when it was last processed (read by [`State::config_choice`]).
    pub(super) hconf: [u8; 27],
}

// Five cache lines: the copy made for each alternative of a guess.
const _: () = assert!(std::mem::size_of::<State>() == 320);

/// What the naked-singles pass found.
pub(super) enum Step {
    /// Some naked singles were placed.
    Progress,
    /// Every cell is placed: a solution.
    Solved,
    /// A contradiction: this branch has no solution.
    Dead,
    /// Nothing to place: guess on band `.0`, position `.1`.
    Guess(usize, usize),
    /// Nothing to place; the cell to guess on was not looked for.
    Stall,
}

impl State {
    /// The column analogue of step 1, run only before a guess: in each stack
    /// (three columns), a digit takes one column in each band, one band per
    /// column, so (column, band) pairs outside every such permutation are
    /// removed. Returns None on a contradiction, else whether anything
    /// changed.
    #[inline(always)] // into each code path's own copy ([`Isa::columns`])
    pub(super) fn columns(&mut self) -> Option<bool> {
        let mut changed = false;
        // The nine digits' signatures at once (the bands' words are
        // contiguous), then only the digits whose signature changed.
        let mut sigs = [0u32; 9];
        for (d, sig) in sigs.iter_mut().enumerate() {
            *sig = project(self.cand[d])
                | (project(self.cand[d + 9]) << 9)
                | (project(self.cand[d + 18]) << 18);
        }
        let mut todo = 0u32;
        for (d, (&sig, &old)) in sigs.iter().zip(&self.col_sig).enumerate() {
            todo |= u32::from(sig != old) << d;
        }
        while todo != 0 {
            let d = todo.trailing_zeros() as usize;
            todo &= todo - 1;
            let (a, b, c) = (self.cand[d], self.cand[d + 9], self.cand[d + 18]);
            let sig = sigs[d];
            // Stack `st` of the signature: its three columns in each band
            // (bits 3st.. of each 9-bit field), folded to a 9-bit index in
            // PERM_KEEP's layout (bit 3 * band + column); what it keeps is
            // unfolded back into the signature's layout. A placed digit
            // keeps its one configuration per stack: nothing changes.
            let mut kept = 0u32;
            for st in 0..3 {
                let x = (sig >> (3 * st)) & 0o007_007_007;
                let idx = ((x | (x >> 6) | (x >> 12)) & 0o777) as usize;
                let k = u32::from(PERM_KEEP[idx]);
                if k == 0 {
                    return None;
                }
                self.vconf[st][d] = VCONFIGS[idx];
                kept |= ((k & 0o7) | ((k & 0o70) << 6) | ((k & 0o700) << 12)) << (3 * st);
            }
            let na = a & spread_cols(kept & 0o777);
            let nb = b & spread_cols((kept >> 9) & 0o777);
            let nc = c & spread_cols(kept >> 18);
            changed |= (na != a) | (nb != b) | (nc != c);
            // project(x & spread_cols(k)) = project(x) & k
            self.col_sig[d] = sig & kept;
            self.cand[d] = na;
            self.cand[d + 9] = nb;
            self.cand[d + 18] = nc;
        }
        Some(changed)
    }

    /// Hidden and naked triads: a mini-row (three cells of a row in one
    /// box) holds exactly three digits, so when three digits must go in it
    /// no other digit can, and a fourth is a contradiction; when only three
    /// may go in it, each must, and fewer is a contradiction. The same for
    /// mini-columns. A digit must go in a mini-row (mini-column) when every
    /// configuration it has left in the band (stack) puts it there
    /// ([`FORCED_ROWS`], [`FORCED_COLS`]), and may when some does
    /// ([`POSSIBLE_ROWS`]; for mini-columns the column projections in
    /// `col_sig`): read from `hconf`, `vconf` and `col_sig`, which are
    /// current here (the search calls this only at a stall, after the
    /// column step changed nothing). All 27 mini-rows (bit `9b + 3k + r`)
    /// and 27 mini-columns (bit `32 + 9b + c`) are counted at once over the
    /// nine digits with bit-sliced counters. Returns None on a
    /// contradiction, else whether anything changed.
    #[inline(always)] // into each code path's own copy ([`Isa::triads`])
    pub(super) fn triads(&mut self) -> Option<bool> {
        // Forced mini-rows (bits 0..27) and mini-columns (32..59) in one
        // counter, possible ones in another.
        pub(super) const FIELDS: u64 = 0o777_777_777 | 0o777_777_777 << 32;
        let mut forced = Count64::default();
        let mut possible = Count64::default();
        let mut forced_rows = [0u32; 9];
        let mut forced_cols = [0u32; 9];
        let mut poss_rows = [0u32; 9];
        for d in 0..9 {
            let [h0, h1, h2] = [self.hconf[d], self.hconf[d + 9], self.hconf[d + 18]];
            let h = ROWS_FP[h0 as usize] | ROWS_FP[h1 as usize] << 9 | ROWS_FP[h2 as usize] << 18;
            let [s0, s1, s2] = [self.vconf[0][d], self.vconf[1][d], self.vconf[2][d]];
            let v = FORCED_COLS[s0 as usize]
                | FORCED_COLS[s1 as usize] << 3
                | FORCED_COLS[s2 as usize] << 6;
            forced_rows[d] = h as u32;
            forced_cols[d] = v;
            poss_rows[d] = (h >> 32) as u32;
            forced.add((h & 0o777_777_777) | u64::from(v) << 32);
            possible.add((h >> 32) | u64::from(self.col_sig[d]) << 32);
        }
        if forced.over_three() | (possible.under_three() & FIELDS) != 0 {
            return None;
        }
        let poss_cols = &self.col_sig;
        // Mini-rows and mini-columns that three digits must already fill
        // are left to the hidden half.
        let f3 = forced.three();
        let p3 = possible.three() & FIELDS & !f3;
        let (nrows, ncols) = (p3 as u32, (p3 >> 32) as u32);
        let mut changed = false;
        if nrows | ncols != 0 {
            for d in 0..9 {
                let xr = nrows & poss_rows[d] & !forced_rows[d];
                let xc = ncols & poss_cols[d] & !forced_cols[d];
                if xr | xc == 0 {
                    continue;
                }
                for b in 0..3 {
                    let w = wi(d, b);
                    let r = (xr >> (9 * b)) & 0o777;
                    let c = (xc >> (9 * b)) & 0o777;
                    let mut cut = ROW_CUT[r as usize] | COL_CUT[c as usize];
                    // Columns taken in another band leave this band.
                    let other = xc & !(0o777 << (9 * b));
                    let oc = (other | (other >> 9) | (other >> 18)) & 0o777;
                    cut |= spread_cols(oc);
                    let m = self.cand[w] & !cut;
                    changed |= m != self.cand[w];
                    self.cand[w] = m;
                }
            }
        }
        let (full_rows, full_cols) = (f3 as u32, (f3 >> 32) as u32);
        if full_rows | full_cols == 0 {
            return Some(changed);
        }
        for d in 0..9 {
            let (xr, xc) = (full_rows & !forced_rows[d], full_cols & !forced_cols[d]);
            if xr | xc == 0 {
                continue;
            }
            for b in 0..3 {
                let w = wi(d, b);
                let r = (xr >> (9 * b)) & 0o777;
                let c = (xc >> (9 * b)) & 0o777;
                let m = self.cand[w] & !MINIROW_SET[r as usize] & !spread_cols(c);
                changed |= m != self.cand[w];
                self.cand[w] = m;
            }
        }
        Some(changed)
    }

    /// Band-configuration branching. A digit's *configuration* in a band is
    /// the box it takes in each of the three rows (one of six permutations,
    /// [`CONFIGS`] of its mini-row occupancy); in a stack, the column it
    /// takes in each band ([`VCONFIGS`] of its column projections). A band
    /// or stack is *fixed* when each of its digits has one configuration
    /// left. Of those not fixed:
    ///
    /// * at a stall with at least [`WIDE_OPEN`] open cells (near the root),
    ///   the one with the fewest unfixed digits, ties to the most
    ///   configurations in all, and in it the digit with the most
    ///   configurations;
    /// * further down (tdoku's choice), the one with the fewest
    ///   configurations in all, and in it the digit with the fewest (at
    ///   least two).
    ///
    /// Branching over the digit's configurations fixes three mini-rows (or
    /// mini-columns) per branch, a bigger step than a cell. Returns (digit,
    /// band or 3 + stack, configuration set), or None when every band and
    /// stack is fixed.
    #[inline(always)] // into each code path's own copy ([`Isa::config_choice`])
    pub(super) fn config_choice(&self, near: &mut Near) -> Option<(usize, usize, u8)> {
        let wide = self.open_cells() >= WIDE_OPEN;
        // Configurations and unfixed digits per band and stack: the nine
        // digits' configuration sets are contiguous bytes (each at most six
        // bits), so both counts are popcounts of a word and a byte.
        let mut totals = [0u32; 6];
        let mut unfixed = [0u32; 6];
        for (i, row) in (0..3)
            .map(|b| &self.hconf[9 * b..9 * b + 9])
            .chain(self.vconf.iter().map(|v| &v[..]))
            .enumerate()
        {
            let (lo, last) = (u64::from_le_bytes(row[..8].try_into().unwrap()), row[8]);
            totals[i] = lo.count_ones() + last.count_ones();
            // Per byte v: v & (v - 1), with no borrow between bytes (bit 7
            // set first); non-zero iff v has two bits or more.
            pub(super) const ONES: u64 = 0x0101_0101_0101_0101;
            let multi = lo & ((lo | (0x80 * ONES)) - ONES);
            let nonzero = (multi + 0x7f * ONES) & (0x80 * ONES);
            unfixed[i] = nonzero.count_ones() + u32::from(last & last.wrapping_sub(1) != 0);
        }
        // Both choices: fewest configurations (tdoku's), and fewest
        // unfixed digits then most configurations (t ≤ 54 < 64 ≤ 64u).
        let (mut fewest, mut decided) = ((u32::MAX, 0usize), (u32::MAX, 0usize));
        for band in 0..6 {
            let (t, u) = (totals[band], unfixed[band]);
            if u == 0 {
                continue;
            }
            if t < fewest.0 {
                fewest = (t, band);
            }
            if 64 * u - t < decided.0 {
                decided = (64 * u - t, band);
            }
        }
        if fewest.0 == u32::MAX {
            return None;
        }
        // Whether the near-root rule applies is decided once per solve, at
        // the first choice made wide open.
        if wide && *near == Near::Undecided {
            let (u, t) = (unfixed[decided.1], totals[decided.1]);
            *near = if u <= NEAR_MAX_UNFIXED && t >= NEAR_MIN_CONFIGS {
                Near::On
            } else {
                Near::Off
            };
        }
        let wide = wide && *near == Near::On;
        let band = if wide { decided.1 } else { fewest.1 };
        let configs = |d: usize| {
            if band < 3 {
                self.hconf[wi(d, band)]
            } else {
                self.vconf[band - 3][d]
            }
        };
        let mut best = (u32::MAX, 0usize, 0u8);
        for d in 0..9 {
            let x = configs(d);
            let n = x.count_ones();
            let key = if wide { 6 - n } else { n };
            if n >= 2 && key < best.0 {
                best = (key, d, x);
            }
        }
        if best.0 == u32::MAX {
            return None;
        }
        Some((best.1, band, best.2))
    }

    /// Restricts digit `d` to configuration `p` of band or stack `band`
    /// (3 + stack).
    #[inline]
    pub(super) fn apply_config(&mut self, d: usize, band: usize, p: usize) {
        if band < 3 {
            self.cand[wi(d, band)] &= CONFIG_MASK[p];
        } else {
            let st = band - 3;
            let other = !spread_cols(7 << (3 * st));
            // Band r keeps, in this stack, only the column PERMS[p][r].
            for (r, &col) in PERMS[p].iter().enumerate() {
                self.cand[wi(d, r)] &= other | spread_cols(1 << (3 * st as u32 + col));
            }
        }
    }

    /// Number of cells not yet placed.
    #[inline]
    pub(super) fn open_cells(&self) -> u32 {
        self.unsolved[0].count_ones()
            + self.unsolved[1].count_ones()
            + self.unsolved[2].count_ones()
    }

    pub(super) const fn new() -> Self {
        State {
            cand: [BAND; 27],
            prev: [0; 27],
            unsolved: [BAND; 3],
            col_sig: [0; 9],
            vconf: [[0; 9]; 3],
            hconf: [0; 27],
        }
    }

    /// Applies the givens of `grid`: every word is pending.
    #[inline(always)] // into each code path's own copy ([`Isa::start`])
    pub(super) fn from_grid(grid: &Grid) -> State {
        // Gather the givens of each (digit, band): first the filled cells,
        // eight bytes at a time (a byte's top bit is set iff it is not 0; a
        // multiply gathers the eight top bits).
        let cells = grid.cells();
        let mut filled = 0u128;
        for (k, chunk) in cells.chunks_exact(8).enumerate() {
            pub(super) const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
            let x = u64::from_le_bytes(chunk.try_into().unwrap());
            let t = (((x & LOW7) + LOW7) | x) & !LOW7;
            let bits = (t >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56;
            filled |= u128::from(bits) << (8 * k);
        }
        filled |= u128::from(cells[80] != 0) << 80;
        // Then one OR per given into its (band, digit) word.
        let mut given = [0u32; 30];
        for b in 0..3 {
            let band = &cells[27 * b..27 * b + 27];
            let mut occ = (filled >> (27 * b)) as u32 & BAND;
            while occ != 0 {
                let p = occ.trailing_zeros() as usize;
                occ &= occ - 1;
                given[10 * b + usize::from(band[p].min(9))] |= 1 << p;
            }
        }
        let mut own = [0u32; 27];
        let mut occupied = [0u32; 3];
        let mut cols = [0u32; 27];
        for b in 0..3 {
            for d in 0..9 {
                let o = given[10 * b + d + 1];
                own[wi(d, b)] = o;
                occupied[b] |= o;
                cols[wi(d, b)] = project(o);
            }
        }
        let mut s = State::new();
        for b in 0..3 {
            for d in 0..9 {
                let w = wi(d, b);
                let o = own[w];
                let other_cols = cols[wi(d, (b + 1) % 3)] | cols[wi(d, (b + 2) % 3)];
                // Rows and boxes of the band holding a given of this digit.
                let rows = ROWS_OF[(u32::from(o & 0o777 != 0)
                    | (u32::from(o & 0o777_000 != 0) << 1)
                    | (u32::from(o & 0o777_000_000 != 0) << 2))
                    as usize];
                let c = cols[w];
                let boxes = spread_cols(((c | (c >> 1) | (c >> 2)) & 0o111) * 7);
                let peers = (rows | boxes) & !o;
                s.cand[w] = ((BAND & !occupied[b]) | o) & !peers & !spread_cols(other_cols);
            }
        }
        s
    }

    /// Propagates until no word changed since it was last processed.
    /// Returns false on a contradiction.
    /// Without `CONF` the configuration sets (`hconf`, read only in
    /// configuration mode) are not kept.
    #[inline]
    pub(super) fn update<const CONF: bool>(&mut self) -> bool {
        macro_rules! pass {
            ($changed:ident; $($i:literal)*) => {
                $(
                    if self.cand[$i] != self.prev[$i] {
                        $changed = true;
                        if !self.process::<$i, CONF>() {
                            return false;
                        }
                    }
                )*
            };
        }
        loop {
            let mut changed = false;
            pass!(changed; 0 9 18 1 10 19 2 11 20 3 12 21 4 13 22 5 14 23 6 15 24 7 16 25 8 17 26);
            if !changed {
                return true;
            }
        }
    }

    /// Processes word `I` (see the module documentation, steps 1-3).
    #[inline(always)]
    pub(super) fn process<const I: usize, const CONF: bool>(&mut self) -> bool {
        let m0 = self.cand[I];
        let key = minirow_key(m0) as usize;
        // The permutations inside the occupancy are those inside what the
        // mask keeps, so the configurations of `m` are those of the key.
        let m = if CONF {
            let entry = MINIROW_ENTRY[key];
            self.hconf[I] = (entry >> 32) as u8;
            m0 & entry as u32
        } else {
            m0 & MINIROW_MASK[key]
        };
        if m == 0 {
            return false;
        }
        self.cand[I] = m;
        self.prev[I] = m;
        let lock = LOCK_KEEP[project(m) as usize];
        let [o1, o2] = OTHER_BANDS[I];
        self.cand[o1 as usize] &= lock;
        self.cand[o2 as usize] &= lock;

        let cells = m & !multi_rows(m);
        let b = I / 9;
        self.unsolved[b] &= !cells;
        // The band's nine words are contiguous: clear the cells from all of
        // them (a vector operation or two), then restore this one.
        for x in &mut self.cand[9 * b..9 * b + 9] {
            *x &= !cells;
        }
        self.cand[I] = m;
        true
    }

    /// Finds and places naked singles, or reports a solution, a
    /// contradiction, or the cell to guess on. Without `CELL` (configuration
    /// mode, which branches on a cell only when every band and stack is
    /// fixed) a stall is reported as [`Step::Stall`] and the bivalue cells
    /// are not counted: [`State::cell_guess`] finds the cell if needed.
    #[inline(always)]
    pub(super) fn singles<const CELL: bool>(&mut self, rich: bool) -> Step {
        let mut placed = false;
        let mut pairs = [0u32; 3];
        for (b, pair) in pairs.iter_mut().enumerate() {
            let u = self.unsolved[b];
            if u == 0 {
                continue;
            }
            let (one, two, three) = self.band_counts::<CELL>(b);
            if u & !one != 0 {
                return Step::Dead;
            }
            if CELL {
                *pair = u & two & !three;
            }
            let mut singles = u & !two;
            while singles != 0 {
                let p = singles.trailing_zeros() as usize;
                singles &= singles - 1;
                let bit = 1u32 << p;
                let mut found = false;
                for d in 0..9 {
                    let w = wi(d, b);
                    if self.cand[w] & bit != 0 {
                        self.cand[w] &= PLACE_MASK[p];
                        found = true;
                        break;
                    }
                }
                if !found {
                    // An earlier single of this pass took the cell's last
                    // candidate.
                    return Step::Dead;
                }
                placed = true;
            }
        }
        if placed {
            return Step::Progress;
        }
        if self.unsolved == [0; 3] {
            return Step::Solved;
        }
        if !CELL {
            return Step::Stall;
        }
        let (b, p) = self.pick_cell(&pairs, rich);
        Step::Guess(b, p)
    }

    /// The cell to guess on at a stall reported without one
    /// ([`Step::Stall`]): the bivalue cells counted as [`State::singles`]
    /// counts them, then the same choice.
    #[inline(never)] // rare: configuration mode with every band fixed
    pub(super) fn cell_guess(&self, rich: bool) -> (usize, usize) {
        let mut pairs = [0u32; 3];
        for (b, pair) in pairs.iter_mut().enumerate() {
            let (_, two, three) = self.band_counts::<true>(b);
            *pair = self.unsolved[b] & two & !three;
        }
        self.pick_cell(&pairs, rich)
    }

    /// The cells of band `b` with at least one, two and (with `THREE`; else
    /// 0) three candidates: ripple-carry accumulators over its nine words.
    #[inline(always)]
    pub(super) fn band_counts<const THREE: bool>(&self, b: usize) -> (u32, u32, u32) {
        let (mut one, mut two, mut three) = (0u32, 0u32, 0u32);
        for d in 0..9 {
            let x = self.cand[wi(d, b)];
            if THREE {
                three |= two & x;
            }
            two |= one & x;
            one |= x;
        }
        (one, two, three)
    }

    /// The guess cell, given the bivalue cells `pairs` of each band.
    #[inline]
    pub(super) fn pick_cell(&self, pairs: &[u32; 3], rich: bool) -> (usize, usize) {
        if *pairs != [0; 3] {
            if !rich {
                for (b, &pair) in pairs.iter().enumerate() {
                    if pair != 0 {
                        return (b, pair.trailing_zeros() as usize);
                    }
                }
            }
            return self.best_bivalue(pairs);
        }
        // No bivalue cell (rare; early in hard puzzles): of the first unsolved
        // cell of each band, take the one with the fewest candidates. (Measured:
        // better than scanning all cells for the fewest candidates.)
        let mut best = (u32::MAX, 0usize, 0usize);
        for b in 0..3 {
            let u = self.unsolved[b];
            if u == 0 {
                continue;
            }
            let p = u.trailing_zeros() as usize;
            let mut n = 0;
            for d in 0..9 {
                n += (self.cand[wi(d, b)] >> p) & 1;
            }
            if n < best.0 {
                best = (n, b, p);
            }
        }
        (best.1, best.2)
    }

    /// Picks the guess cell among the bivalue cells `pairs` (per band): the
    /// one with the most unsolved peers, counting the union of its row and
    /// box plus its column (the degree heuristic: a guess there constrains
    /// the most open cells). Ties go to the first in band and cell order.
    /// On the benchmark sets it makes far fewer guesses than taking the
    /// first bivalue cell (docs/benchmarks.md).
    #[inline(always)] // into each code path's own copy ([`Isa::cell_singles`])
    pub(super) fn best_bivalue(&self, pairs: &[u32; 3]) -> (usize, usize) {
        // The first GUESS_SCAN_LIMIT bivalue cells, in band and cell order.
        let mut cells = [(0usize, 0usize); GUESS_SCAN_LIMIT];
        let mut n = 0;
        'collect: for (b, &pair) in pairs.iter().enumerate() {
            let mut m = pair;
            while m != 0 {
                cells[n] = (b, m.trailing_zeros() as usize);
                m &= m - 1;
                n += 1;
                if n == GUESS_SCAN_LIMIT {
                    break 'collect;
                }
            }
        }
        if n <= 1 {
            return cells[0];
        }
        // Unsolved cells per column, one 4-bit counter per column.
        let mut col_open = 0u64;
        for &u in &self.unsolved {
            col_open += NIBBLES[(u & 0o777) as usize]
                + NIBBLES[((u >> 9) & 0o777) as usize]
                + NIBBLES[((u >> 18) & 0o777) as usize];
        }
        let mut best = (0u32, cells[0]);
        for &(b, p) in &cells[..n] {
            let x = self.unsolved[b] & ROW_BOX[p];
            let score = x.count_ones() + ((col_open >> (4 * (p % 9))) & 15) as u32;
            if score > best.0 {
                best = (score, (b, p));
            }
        }
        best.1
    }

    /// The solved grid (call only when every cell is placed: then every
    /// word holds exactly one cell per row). Branch-free: one cell per (word,
    /// row); should a row ever be empty, a wrong cell is written, never out
    /// of bounds.
    #[inline(never)] // once per solve
    pub(super) fn extract(&self) -> Grid {
        let mut cells = [0u8; 81];
        for (w, &m) in self.cand.iter().enumerate() {
            let digit = (w % 9 + 1) as u8;
            let base = 27 * (w / 9);
            for r in 0..3 {
                let row = (m >> (9 * r)) & 0o777;
                let c = ((row | 0o1000).trailing_zeros() as usize).min(8);
                cells[base + 9 * r + c] = digit;
            }
        }
        Grid::from_solver_cells(cells)
    }
}
