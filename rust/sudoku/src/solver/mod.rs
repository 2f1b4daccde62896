//! A fast Sudoku solver on band bitboards.
//!
//! # Representation
//!
//! The grid is cut into three horizontal *bands* of three rows (27 cells).
//! For every digit `d` (0..9) and band `b` (0..3) one `u32` holds a 27-bit
//! mask of the cells of that band where `d` may still go: bit
//! `9 * row_in_band + column`. These 27 words (`cand[9 * b + d]`,
//! band-major: a band's nine words are contiguous, so a placement clears
//! its cells from them in a vector operation or two) are the whole
//! candidate state; a copy of each word as last processed (`prev`), the
//! per-band mask of unsolved cells and a small cache for the column step and
//! the configuration choice complete it. The state is 320 bytes (five cache
//! lines) and is copied on every guess, so backtracking needs no undo log.
//! This digit-by-band layout is the one of JCZSolve (zhouyundong_2012,
//! champagne, JasonLion), whose key idea is that one 27-bit word lets all of
//! "digit `d` in band `b`" be reasoned about with a handful of bit
//! operations and table look-ups. The code here is an
//! independent implementation of that idea, with its own guess heuristic.
//!
//! # Propagation (`State::update`)
//!
//! Sweeps over the 27 words process every word that changed since it was
//! last processed, until a sweep finds none. For a word `m` of digit `d` in
//! band `b`:
//!
//! 1. **Inside the band.** In a band, `d` occupies one cell in each of the
//!    three rows and one in each of the three boxes, so the rows map to the
//!    boxes by a permutation. The 3×3 "mini-row" occupancy (row `r` meets box
//!    `k` in a candidate cell; computed with shifts, `minirow_key`) indexes
//!    a table (`MINIROW_MASK`) that keeps only the mini-rows used by some
//!    permutation allowed by the occupancy. This one look-up performs hidden
//!    singles in boxes, pointing and claiming (locked candidates) between
//!    rows and boxes, and detects a row or box with no place left for `d`
//!    (the table gives 0: contradiction).
//! 2. **Across bands.** If in some box the remaining cells of `m` lie in a
//!    single column, `d` is in that column in this band, so it is removed
//!    from that column in the two other bands (`LOCKED_COLS`). This also
//!    keeps a digit from being placed twice in a column.
//! 3. **Placements.** A row of `m` with exactly one candidate cell is a
//!    placement (`multi_rows` finds the others with a borrow-free
//!    subtraction): the cell is removed from the other eight digits' words of
//!    the band and marked solved. With step 1 this covers hidden singles in
//!    rows and boxes.
//!
//! Then naked singles are applied (`State::singles`): in each band,
//! ripple-carry accumulators over the nine digit words give the cells with at
//! least one, two and three candidates; an unsolved cell with none is a
//! contradiction, a cell with exactly one is placed (its digit word is cut
//! to the cell within its row and box), and propagation runs again. The
//! third count only finds the bivalue cells to branch on, so configuration
//! mode (below), which branches on a cell only once every band and stack is
//! fixed, skips it (2 % of its time on forum_hardest_1106).
//!
//! **Column step** (`State::columns`, sparse puzzles only: in configuration
//! mode and for 18 givens before every guess and again after anything it or
//! the triads change, to a fixed point; else once before a guess while at
//! least `COLUMN_STEP_MIN_OPEN` cells are open). The transpose of step 1: in each
//! stack of three columns a digit takes one column in each band, one band
//! per column, so (column, band) pairs outside every such permutation are
//! removed. This adds hidden singles in columns and column-wise locked
//! candidates; it is too costly to run on every word update, but before a
//! guess it cuts the search on sparse grids.
//!
//! **Triads** (`State::triads`, configuration mode and puzzles of 18
//! givens, once per node after the column step). A mini-row (the three cells of a row in one box)
//! holds exactly three digits. A digit must go in mini-row `(r, k)` when
//! every band configuration it has left puts it there (equivalently: row `r`
//! has it only in box `k`, or box `k` only in row `r`), and may go there
//! when some configuration does. *Hidden*: when three digits must go in a
//! mini-row, no other digit can (and four is a contradiction). *Naked*:
//! when only three digits may go in it, each must (fewer is a
//! contradiction), which confines each to that mini-row within its row and
//! its box. Likewise for mini-columns with the stack configurations. All
//! are read from the configuration sets the search keeps anyway, and
//! bit-sliced counters count all 27 mini-rows and all 27 mini-columns over
//! the nine digits at once (both kinds in one 64-bit word). This is tdoku's
//! triad reasoning, read from configurations: on forum_hardest_1106 the
//! hidden half took the configuration search from 143.5 to 115.7 branches
//! per puzzle (up to 2 solutions; tdoku 113.1), and the time per puzzle from
//! 0.76 to 0.80 of tdoku's. The naked half cuts 4 % of the branches on
//! magictour (up to 2) and under 1 % on the forum sets; it pays since it
//! looks only at mini-rows that three digits do not already fill (before,
//! every full mini-row sent it over all nine digits: 15 % more time per
//! branch).
//!
//! # Search
//!
//! When propagation stalls the solver guesses, depth-first, copying the
//! state (64-byte aligned) for each alternative but the last. What it
//! branches on depends on the puzzle:
//!
//! * **Band configurations** (tdoku's branching; puzzles with
//!   `CONFIG_MIN_CLUES..=RICH_MAX_CLUES` = 19..=32 givens). In a band a digit takes one box per row: its
//!   *configuration* is one of the six row→box permutations, read from the
//!   in-band step's mini-row occupancy (`CONFIGS`); in a stack it takes one
//!   column per band (`VCONFIGS`, from the column step, which in this mode
//!   runs before every guess, to a fixed point). Of the bands and stacks not
//!   yet fixed, tdoku takes the one with the fewest configurations over its
//!   nine digits, and in it the digit with the fewest (at least two). That
//!   is the choice here too once fewer than `WIDE_OPEN` = 50 cells are open;
//!   near the root (50 or more open) the band or stack with the fewest
//!   *unfixed* digits is taken instead (ties: the most configurations), and
//!   in it the digit with the most. Such a band is nearly decided: its few
//!   unfixed digits share the few mini-row places left, so the triads and
//!   the in-band step refute most of that digit's configurations at once,
//!   and the search takes its big steps where they cost the least. On
//!   forum_hardest_1106 (up to 2 solutions) this halves the alternatives
//!   tried per puzzle (237 → 111; tdoku makes about 230 nodes) and on
//!   forum_hardest_1905 cuts them by a third (137 → 93), but adds 8 % on
//!   magictour (19.4 → 20.9), whose searches are short. So a solve uses it
//!   only if its first such choice finds a band of at most six unfixed
//!   digits and at least 27 configurations; the others take tdoku's
//!   choice throughout (magictour 1.14 → 1.21 × tdoku, the forum sets
//!   1–5 % faster too; see `WIDE_OPEN`). Each branch
//!   restricts the digit to one configuration (`CONFIG_MASK`), fixing three
//!   mini-rows or mini-columns at once. On the hardest benchmark sets tdoku's
//!   choice alone makes about
//!   25 % fewer branches than the cell branching below (forum_hardest_1106:
//!   75.5 against 97.8 per puzzle for the first solution) at about 20 % more
//!   time per branch. After `CONFIG_BRANCH_BUDGET` branches in one solve the
//!   search falls back to cells. Sparser grids never use it: without
//!   tdoku's triad step, configuration branching on near-empty grids fixes
//!   digits far ahead of any cell and searches huge trees, and on 17- and
//!   18-clue puzzles it measured more branches than cells.
//! * **Cells** (other puzzles, and when no band or stack is left open): a
//!   bivalue cell (two candidates; found with the same accumulators). For
//!   sparse puzzles (at most `RICH_MAX_CLUES` givens) it takes, among the
//!   first `GUESS_SCAN_LIMIT` bivalue cells, the one with the most unsolved
//!   peers (the degree heuristic of constraint solving), which measured
//!   25-40% fewer guesses than taking the first bivalue cell; fuller puzzles
//!   take the first one (their searches are too short to repay the
//!   scoring). Without a bivalue cell (rare) it takes, of the first unsolved
//!   cell of each band, the one with the fewest candidates. The two digits of
//!   a bivalue cell are tried in order of their remaining candidates in the
//!   band, more first (measured: first solutions come sooner); other cells'
//!   digits in ascending order.
//!
//! The first solution is returned, or solutions are counted up to a limit
//! (2 proves uniqueness). Heuristics change only the search order and
//! effort, never the answers.
//!
//! Measured against this and not kept (docs/benchmarks.md has the
//! figures): triads with cell branching (they cost more than they save
//! there), naked triads, starting
//! configuration branching only after some cell branches, scoring bivalue
//! cells by the bivalue peers that share a digit, scanning the most open
//! band first, other digit orders, a dirty-word mask or a branch-free
//! changed-word snapshot instead of the sweeps, failed-literal probing.
//! Choices that cut branches mostly pick branches whose propagation runs
//! longer, so the time per puzzle moves less than the branch count.
//!
//! References: tdoku's write-up on fast Sudoku solvers (singles
//! propagation, guessing, benchmark data) and the enjoysudoku forum thread
//! on JCZSolve (the band layout).

use crate::grid::Grid;

/// All 27 cells of a band.
const BAND: u32 = 0o777_777_777;

/// The six permutations of three things, as `[image of 0, 1, 2]`: a digit's
/// row → box maps in a band, or band → column maps in a stack.
const PERMS: [[u32; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// Permutation `PERMS[p]` as a 3×3 0/1 matrix: bit `3r + PERMS[p][r]`.
const fn perm_bits(p: usize) -> usize {
    let perm = PERMS[p];
    (1 << perm[0]) | (1 << (3 + perm[1])) | (1 << (6 + perm[2]))
}

/// For a 3×3 0/1 matrix `s` (bit `3r + k` = entry `(r, k)`), the
/// permutations `r -> k` inside it (all three `(r, k(r))` set): bit `p` for
/// `PERMS[p]`.
const fn perms_inside(s: usize) -> u8 {
    let mut inside = 0u8;
    let mut p = 0;
    while p < 6 {
        let bits = perm_bits(p);
        if s & bits == bits {
            inside |= 1 << p;
        }
        p += 1;
    }
    inside
}

/// For a 3×3 0/1 matrix `s` (same layout), the entries that lie on at least
/// one permutation inside it, as a mask of the same layout; 0 when `s`
/// contains no permutation.
const fn perm_keep(s: usize) -> u16 {
    let inside = perms_inside(s);
    let mut keep = 0usize;
    let mut p = 0;
    while p < 6 {
        if inside & (1 << p) != 0 {
            keep |= perm_bits(p);
        }
        p += 1;
    }
    keep as u16
}

/// `PERM_KEEP[s]` = [`perm_keep`]`(s)`.
const PERM_KEEP: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut s = 0;
    while s < 512 {
        t[s] = perm_keep(s);
        s += 1;
    }
    t
};

/// The mini-row occupancy key of a band word: bit `3k + r` is set iff row
/// `r` has a candidate in box `k`. Computed without look-ups: `t` marks each
/// non-empty mini-row at its first cell (bits `9r + 3k`), and the three
/// shifts fold rows 1 and 2 onto bits `3k + 1` and `3k + 2`.
#[inline(always)]
const fn minirow_key(m: u32) -> u32 {
    let t = (m | (m >> 1) | (m >> 2)) & 0o111_111_111;
    (t | (t >> 8) | (t >> 16)) & 0o777
}

/// A 3×3 0/1 matrix transposed: bit `3k + r` moves to bit `3r + k` (a
/// [`minirow_key`] into [`perm_keep`]'s layout).
const fn transpose3(key: usize) -> usize {
    let mut s = 0usize;
    let mut r = 0;
    while r < 3 {
        let mut k = 0;
        while k < 3 {
            if key & (1 << (3 * k + r)) != 0 {
                s |= 1 << (3 * r + k);
            }
            k += 1;
        }
        r += 1;
    }
    s
}

/// `MINIROW_MASK[key]` for a [`minirow_key`]: the 27-bit mask of the cells
/// of every mini-row that lies on at least one row→box permutation inside
/// the occupancy; 0 when there is none (a contradiction).
const MINIROW_MASK: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut key = 0;
    while key < 512 {
        let keep = perm_keep(transpose3(key));
        let mut mask = 0u32;
        let mut mr = 0;
        while mr < 9 {
            if keep & (1 << mr) != 0 {
                mask |= 7 << (9 * (mr / 3) + 3 * (mr % 3));
            }
            mr += 1;
        }
        t[key] = mask;
        key += 1;
    }
    t
};

/// `LOCKED_COLS[c]` for the 9-bit column projection `c` of a digit in a band:
/// the columns that are the only candidate column of their box (3-column
/// group). The digit is certainly in such a column within this band.
const LOCKED_COLS: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut c = 0;
    while c < 512 {
        let mut k = 0;
        while k < 3 {
            let g = (c >> (3 * k)) & 7;
            if g == 1 || g == 2 || g == 4 {
                t[c] |= (g << (3 * k)) as u16;
            }
            k += 1;
        }
        c += 1;
    }
    t
};

/// `LOCK_KEEP[c]`: the band cells a digit keeps in the other bands when
/// its column projection in this band is `c` (every cell but those of
/// [`LOCKED_COLS`]'s columns).
const LOCK_KEEP: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut c = 0;
    while c < 512 {
        t[c] = BAND & !spread_cols(LOCKED_COLS[c] as u32);
        c += 1;
    }
    t
};

/// The cells of the rows of band word `m` that hold two or more candidates.
/// Every row of `m` is non-empty here (the in-band step guarantees it), so
/// subtracting 1 from each 9-bit row cannot borrow across rows and `y` keeps
/// a bit in a row iff that row has at least two. The shifts OR each row's 9
/// bits of `y` down onto the row's lowest bit, which the multiply spreads
/// back over the row.
#[inline(always)]
const fn multi_rows(m: u32) -> u32 {
    let y = m & m.wrapping_sub(0o001_001_001);
    let a = y | (y >> 4);
    let b = a | (a >> 2);
    let c = b | (b >> 1) | (y >> 8);
    (c & 0o001_001_001) * 0o777
}

/// `ROWS_OF[s]`: the band cells of the rows in the 3-bit set `s`.
const ROWS_OF: [u32; 8] = {
    let mut t = [0u32; 8];
    let mut s = 0;
    while s < 8 {
        let mut r = 0;
        while r < 3 {
            if s & (1 << r) != 0 {
                t[s] |= 0o777 << (9 * r);
            }
            r += 1;
        }
        s += 1;
    }
    t
};

/// Spreads a 9-bit column set over the three rows of a band.
#[inline(always)]
const fn spread_cols(c: u32) -> u32 {
    c * 0o001_001_001
}

/// Projects a band word onto its 9 columns.
#[inline(always)]
const fn project(m: u32) -> u32 {
    (m | (m >> 9) | (m >> 18)) & 0o777
}

/// `PLACE_MASK[p]` for a band position `p` (0..27): the band cells that stay
/// possible for a digit placed at `p`: `p` itself and every cell outside its
/// row and its box.
const PLACE_MASK: [u32; 27] = {
    let mut t = [0u32; 27];
    let mut p = 0;
    while p < 27 {
        let (r, c) = (p / 9, p % 9);
        let row = 0o777 << (9 * r);
        let bx = 0o007_007_007 << (3 * (c / 3));
        t[p] = (BAND & !(row | bx)) | (1 << p);
        p += 1;
    }
    t
};

/// At most this many bivalue cells are scored when choosing a guess (the
/// scan costs time). Only puzzles of at most 18 givens branch on cells with
/// scores (the others on configurations, or on the first bivalue cell):
/// magictour's 312 puzzles of 17–18 givens 1.22 / 1.20 × tdoku with 6
/// (first / upto2, seed 5, `--passes 8`), 1.26 with 9, 1.29–1.31 with 12,
/// 16 and 24; the 17-clue list the same (2.03–2.08).
const GUESS_SCAN_LIMIT: usize = 16;

/// The column step ([`State::columns`]) runs before a guess only while at
/// least this many cells are open: it pays off on sparse grids (e.g. 17-clue
/// puzzles at the root) and costs more than it saves on fuller ones.
const COLUMN_STEP_MIN_OPEN: u32 = 40;

/// Puzzles with at most this many givens are searched with the heavier
/// heuristics (degree-based choice among bivalue cells, the column step);
/// fuller puzzles take the first bivalue cell and skip the column step.
/// Their searches are short, so the heuristics' cost is not repaid there
/// (measured on tdoku's benchmark sets: the hard ones have 17-28 givens,
/// the multi-solution `serg` set 34-35).
const RICH_MAX_CLUES: usize = 32;

/// `VCONFIGS[s]` for a stack occupancy in [`perm_keep`]'s layout (bit
/// `3 * band + column`): bit `p` set iff `PERMS[p]` (band → column) fits
/// (a stack configuration of the digit: which column holds it in each band).
const VCONFIGS: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut s = 0;
    while s < 512 {
        t[s] = perms_inside(s);
        s += 1;
    }
    t
};

/// `CONFIGS[key]` for a [`minirow_key`]: bit `p` set iff permutation
/// `PERMS[p]` (row → box) lies inside the occupancy: a band configuration of
/// the digit, which box holds it in each row of the band. The same test as
/// [`VCONFIGS`] on the transposed key.
const CONFIGS: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut key = 0;
    while key < 512 {
        t[key] = VCONFIGS[transpose3(key)];
        key += 1;
    }
    t
};

/// [`MINIROW_MASK`] in bits 0..27 and [`CONFIGS`] in bits 32..38 of one
/// entry: the in-band step reads both with one load.
const MINIROW_ENTRY: [u64; 512] = {
    let mut t = [0u64; 512];
    let mut key = 0;
    while key < 512 {
        t[key] = MINIROW_MASK[key] as u64 | (CONFIGS[key] as u64) << 32;
        key += 1;
    }
    t
};

/// `CONFIG_MASK[p]`: the band cells of the mini-rows of permutation `PERMS[p]`.
const CONFIG_MASK: [u32; 6] = {
    let mut t = [0u32; 6];
    let mut p = 0;
    while p < 6 {
        let perm = PERMS[p];
        let mut r = 0;
        while r < 3 {
            t[p] |= 7 << (9 * r as u32 + 3 * perm[r]);
            r += 1;
        }
        p += 1;
    }
    t
};

/// Puzzles with exactly this many givens branch on cells (as all below
/// [`CONFIG_MIN_CLUES`]) but propagate as configuration mode does: the
/// configuration sets kept, the column step to a fixed point and the
/// triads before every guess. Their cell searches are long enough to repay
/// it: magictour's 243 puzzles of 18 givens 6–9 % faster to the first
/// solution and 12–19 % up to two (all of magictour, seeds 77 and 3: 1.26
/// / 1.28 → 1.33 / 1.36 and 1.27 / 1.28 → 1.30 / 1.34 × tdoku), 600 fresh
/// neighbours of them 3 % / 11 %; easy ones (17-clue puzzles with one more
/// given) 3–4 % slower. With 17 givens (the 17-clue list, half a branch
/// point a puzzle) it costs 4 % and is not used; deciding by the open
/// cells at the first stall instead was no better.
const TRIAD_CELL_CLUES: usize = 18;

/// Puzzles with `CONFIG_MIN_CLUES..=RICH_MAX_CLUES` givens branch on band
/// and stack configurations (see [`State::config_choice`]). Sparser grids
/// keep cell branching: on near-empty grids configuration branching fixes
/// digits' configurations far ahead of any cell and searches huge trees
/// (hundreds of thousands of branches on 9-given grids), and even on proper
/// 17- and 18-clue puzzles it branches more (measured on the benchmark
/// sets' transformed copies, branches per puzzle up to 2 solutions, cells
/// against configurations: magictour's 17-clue puzzles 9.1 / 16.3, its
/// 18-clue ones 17.8 / 28.1, the 17-clue set 0.70 / 0.73), while from 20
/// givens up it branches less everywhere (magictour 22-26 givens about
/// 13 / 10, forum_hardest_1106 196 / 145).
const CONFIG_MIN_CLUES: usize = 19;

/// After this many branches in one solve the search falls back to cell
/// branching (sound at any point: only the order changes), so that an input
/// on which configuration branching goes astray still finishes quickly. The
/// benchmark sets average under 150 branches per puzzle.
const CONFIG_BRANCH_BUDGET: u64 = 2000;

/// Configuration choices at stalls with at least this many open cells
/// (near the root of a search) take the band or stack with the fewest
/// unfixed digits and its digit with the most configurations; further down
/// the band with the fewest configurations and its digit with the fewest
/// ([`State::config_choice`]). Measured on the benchmark sets' transformed
/// copies (seed 77), alternatives tried per puzzle up to 2 solutions
/// (tdoku's choice everywhere / this rule from 0, 40, 50, 52, 57 open
/// cells): forum_hardest_1106 237 / 116, 114, 111, 112, 139;
/// forum_hardest_1905 (its first 8 000) 137 / 98, 96, 93, 93, 118;
/// magictour 19.4 / 22.6, 22.0, 20.9, 20.9, 20.2. Seeds 5 and 11 at 50:
/// 233 → 110, 137 → 93, 19.3 → 20.7.
///
/// Whether a solve uses that rule is decided once, at its first choice
/// with this many open cells: only if the band it would take has at most
/// [`NEAR_MAX_UNFIXED`] unfixed digits and at least [`NEAR_MIN_CONFIGS`]
/// configurations over its nine digits (else tdoku's choice throughout).
/// Timed per puzzle (upto 2, seed 5), the rule wins by 1.3–2.1× on the
/// forum_hardest roots of that kind and loses by up to 2× on roots whose
/// best band has seven or more unfixed digits or few configurations
/// (magictour's tail: a 22-clue puzzle took 70 branch points against
/// tdoku's 7, and 9 with tdoku's choice). `versus_tdoku`, seeds 5 / 1127,
/// first / upto2: magictour 1.14 / 1.08 → 1.21 / 1.17 and 1.12 / 1.05 →
/// 1.19 / 1.18; forum_hardest_1106 1.84 / 1.91 → 1.92 / 1.92; 1905 1.41 /
/// 1.42 → 1.42 / 1.44; their fresh neighbours 1–13 % faster. Thresholds
/// 6 / 25 and 6 / 29 move magictour ±2 % and the forum sets ∓2–5 %.
const WIDE_OPEN: u32 = 50;
/// The near-root rule's band has at most this many unfixed digits…
const NEAR_MAX_UNFIXED: u32 = 6;
/// …and at least this many configurations over its nine digits.
const NEAR_MIN_CONFIGS: u32 = 27;

/// `FORCED_ROWS[c]` for a set `c` of band configurations ([`CONFIGS`]
/// bits): the mini-rows every one of them uses, as [`minirow_key`] bits
/// (`3k + r`); 0 for the empty set.
const FORCED_ROWS: [u32; 64] = {
    let mut t = [0u32; 64];
    let mut c = 1;
    while c < 64 {
        let mut common = 0o777u32;
        let mut p = 0;
        while p < 6 {
            if c & (1 << p) != 0 {
                common &= perm_minirows(p);
            }
            p += 1;
        }
        t[c] = common;
        c += 1;
    }
    t
};

/// The mini-rows of permutation `PERMS[p]` (row `r` → box `PERMS[p][r]`),
/// as [`minirow_key`] bits (`3k + r`).
const fn perm_minirows(p: usize) -> u32 {
    let perm = PERMS[p];
    (1 << (3 * perm[0])) | (1 << (3 * perm[1] + 1)) | (1 << (3 * perm[2] + 2))
}

/// `FORCED_COLS[c]` for a set `c` of stack configurations ([`VCONFIGS`]
/// bits) of stack 0: the mini-columns every one of them uses, as bits
/// `9 * band + column` (shift by `3 * stack` for the other stacks); 0 for
/// the empty set.
const FORCED_COLS: [u32; 64] = {
    let mut t = [0u32; 64];
    let mut c = 1;
    while c < 64 {
        let mut common = 0o007_007_007u32;
        let mut p = 0;
        while p < 6 {
            if c & (1 << p) != 0 {
                let perm = PERMS[p];
                common &= (1 << perm[0]) | (1 << (9 + perm[1])) | (1 << (18 + perm[2]));
            }
            p += 1;
        }
        t[c] = common;
        c += 1;
    }
    t
};

/// `POSSIBLE_ROWS[c]`: the mini-rows some configuration of `c` uses.
const POSSIBLE_ROWS: [u32; 64] = {
    let mut t = [0u32; 64];
    let mut c = 1;
    while c < 64 {
        let mut any = 0u32;
        let mut p = 0;
        while p < 6 {
            if c & (1 << p) != 0 {
                any |= perm_minirows(p);
            }
            p += 1;
        }
        t[c] = any;
        c += 1;
    }
    t
};

/// [`FORCED_ROWS`] in bits 0..9 and [`POSSIBLE_ROWS`] in bits 32..41.
const ROWS_FP: [u64; 64] = {
    let mut t = [0u64; 64];
    let mut c = 0;
    while c < 64 {
        t[c] = FORCED_ROWS[c] as u64 | (POSSIBLE_ROWS[c] as u64) << 32;
        c += 1;
    }
    t
};

/// `ROW_CUT[x]` for mini-rows `x` a digit must take: the band cells it
/// cannot then take (its rows outside those boxes, its boxes outside
/// those rows).
const ROW_CUT: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut x = 0;
    while x < 512 {
        let mut m = 0;
        while m < 9 {
            if x & (1 << m) != 0 {
                let (k, r) = (m / 3, m % 3);
                let row = 0o777 << (9 * r);
                let boxc = 0o007_007_007 << (3 * k);
                t[x] |= (row | boxc) & !(7 << (9 * r + 3 * k));
            }
            m += 1;
        }
        x += 1;
    }
    t
};

/// `COL_CUT[x]` for columns `x` (9 bits) a digit must take in a band: the
/// band cells of those columns' boxes outside them.
const COL_CUT: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut x = 0;
    while x < 512 {
        let mut c = 0;
        while c < 9 {
            if x & (1 << c) != 0 {
                let stack = 0o007_007_007u32 << (3 * (c / 3));
                t[x] |= stack & !(0o001_001_001 << c);
            }
            c += 1;
        }
        x += 1;
    }
    t
};

/// `MINIROW_SET[x]` for a set `x` of [`minirow_key`] bits (`3k + r`): the
/// band cells of those mini-rows.
const MINIROW_SET: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut x = 0;
    while x < 512 {
        let mut m = 0;
        while m < 9 {
            if x & (1 << m) != 0 {
                t[x] |= 7 << (9 * (m % 3) + 3 * (m / 3));
            }
            m += 1;
        }
        x += 1;
    }
    t
};

/// Bit-sliced counters over 64-bit masks: after `add`ing masks, bit `i`
/// of `(c1 c0)` counts the masks with bit `i` set, up to three, and `c2`
/// says more than three.
#[derive(Default, Clone, Copy)]
struct Count64 {
    c0: u64,
    c1: u64,
    c2: u64,
}

impl Count64 {
    #[inline(always)]
    fn add(&mut self, x: u64) {
        let k0 = self.c0 & x;
        self.c0 ^= x;
        let k1 = self.c1 & k0;
        self.c1 ^= k0;
        self.c2 |= k1;
    }
    /// Positions counted exactly three times.
    #[inline(always)]
    fn three(&self) -> u64 {
        self.c0 & self.c1 & !self.c2
    }
    /// Positions counted more than three times.
    #[inline(always)]
    fn over_three(&self) -> u64 {
        self.c2
    }
    /// Positions counted fewer than three times.
    #[inline(always)]
    fn under_three(&self) -> u64 {
        !(self.c2 | (self.c0 & self.c1))
    }
}

/// `NIBBLES[x]`: bit `c` of a 9-bit row moved to the low bit of nibble `c`
/// of a `u64`, so that adding rows counts per column.
const NIBBLES: [u64; 512] = {
    let mut t = [0u64; 512];
    let mut x = 0;
    while x < 512 {
        let mut c = 0;
        while c < 9 {
            if x & (1 << c) != 0 {
                t[x] |= 1 << (4 * c);
            }
            c += 1;
        }
        x += 1;
    }
    t
};

/// `ROW_BOX[p]`: the band cells in the row or the box of band position `p`.
const ROW_BOX: [u32; 27] = {
    let mut t = [0u32; 27];
    let mut p = 0;
    while p < 27 {
        t[p] = BAND & !PLACE_MASK[p] | (1 << p);
        p += 1;
    }
    t
};

/// The word of digit `d` (0..9) in band `b` (0..3).
#[inline(always)]
const fn wi(d: usize, b: usize) -> usize {
    9 * b + d
}

/// For word index `i = 9b + d`, the word indices of the same digit in the
/// two other bands.
const OTHER_BANDS: [[u8; 2]; 27] = {
    let mut t = [[0u8; 2]; 27];
    let mut i = 0;
    while i < 27 {
        t[i] = [((i + 9) % 27) as u8, ((i + 18) % 27) as u8];
        i += 1;
    }
    t
};

/// The solver state: see the module documentation.
#[derive(Clone, Copy)]
#[repr(C, align(64))] // cache-line aligned: copies never straddle lines
struct State {
    /// `cand[9 * b + d]`: 27-bit candidate mask of digit `d` in band `b`.
    cand: [u32; 27],
    /// `prev[w]`: the value `cand[w]` had when it was last processed.
    prev: [u32; 27],
    /// Per band: the cells not yet placed.
    unsolved: [u32; 3],
    /// Per digit: the column projections of its three words (`pa | pb << 9 |
    /// pc << 18`) when [`State::columns`] last examined it; the column step
    /// depends only on these, so an unchanged digit is skipped.
    col_sig: [u32; 9],
    /// `vconf[s][d]`: the stack configurations ([`VCONFIGS`] bits) of digit
    /// `d` in stack `s` when [`State::columns`] last examined it (read by
    /// [`State::config_choice`]).
    vconf: [[u8; 9]; 3],
    /// `hconf[w]`: the band configurations ([`CONFIGS`] bits) of word `w`
    /// when it was last processed (read by [`State::config_choice`]).
    hconf: [u8; 27],
}

// Five cache lines: the copy made for each alternative of a guess.
const _: () = assert!(std::mem::size_of::<State>() == 320);

/// What the naked-singles pass found.
enum Step {
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
    fn columns(&mut self) -> Option<bool> {
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
    fn triads(&mut self) -> Option<bool> {
        // Forced mini-rows (bits 0..27) and mini-columns (32..59) in one
        // counter, possible ones in another.
        const FIELDS: u64 = 0o777_777_777 | 0o777_777_777 << 32;
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
    fn config_choice(&self, near: &mut Near) -> Option<(usize, usize, u8)> {
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
            const ONES: u64 = 0x0101_0101_0101_0101;
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
    fn apply_config(&mut self, d: usize, band: usize, p: usize) {
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
    fn open_cells(&self) -> u32 {
        self.unsolved[0].count_ones()
            + self.unsolved[1].count_ones()
            + self.unsolved[2].count_ones()
    }

    const fn new() -> Self {
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
    fn from_grid(grid: &Grid) -> State {
        // Gather the givens of each (digit, band): first the filled cells,
        // eight bytes at a time (a byte's top bit is set iff it is not 0; a
        // multiply gathers the eight top bits).
        let cells = grid.cells();
        let mut filled = 0u128;
        for (k, chunk) in cells.chunks_exact(8).enumerate() {
            const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
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
    fn update<const CONF: bool>(&mut self) -> bool {
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
    fn process<const I: usize, const CONF: bool>(&mut self) -> bool {
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
    fn singles<const CELL: bool>(&mut self, rich: bool) -> Step {
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
    fn cell_guess(&self, rich: bool) -> (usize, usize) {
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
    fn band_counts<const THREE: bool>(&self, b: usize) -> (u32, u32, u32) {
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
    fn pick_cell(&self, pairs: &[u32; 3], rich: bool) -> (usize, usize) {
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
    /// Measured on the benchmark sets, this cuts the guesses by 25-40%
    /// compared with taking the first bivalue cell.
    #[inline(always)] // into each code path's own copy ([`Isa::cell_singles`])
    fn best_bivalue(&self, pairs: &[u32; 3]) -> (usize, usize) {
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
    fn extract(&self) -> Grid {
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

/// The result of [`Solver::solve_with_stats`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolveResult {
    /// Number of solutions found, at most the limit.
    pub solutions: usize,
    /// The first solution found, if any.
    pub first: Option<Grid>,
    /// Number of guesses made: each tentative placement at a branch point
    /// counts one. Deterministic for a given puzzle and limit.
    pub guesses: u64,
    /// Number of branch points: cells guessed on, each counted once however
    /// many of its digits were tried (tdoku's `num_guesses` counts the same
    /// way: one per binary branch). Deterministic for a given puzzle and limit.
    pub branches: u64,
}

/// A reusable solver that also reports search statistics.
#[derive(Clone, Debug, Default)]
pub struct Solver {
    limit: usize,
    want_first: bool,
    rich: bool,
    /// Branch on band/stack configurations (see [`State::config_choice`]).
    configs: bool,
    solutions: usize,
    first: Option<Grid>,
    /// Also keep the second solution (set by [`two_solutions`]).
    want_second: bool,
    second: Option<Grid>,
    guesses: u64,
    branches: u64,
    /// A grid whose digit is tried first at every cell branch (see
    /// [`has_solution_avoiding`]).
    hint: Option<Grid>,
    /// Whether this solve uses the near-root rule.
    near: Near,
    /// Triads (and the configuration sets they read) with cell branching
    /// ([`TRIAD_CELL_CLUES`]).
    tri: bool,
}

/// Whether a solve uses the near-root rule ([`State::config_choice`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Near {
    #[default]
    Undecided,
    On,
    Off,
}

impl Solver {
    /// Creates a solver.
    pub fn new() -> Self {
        Solver::default()
    }

    /// Solves `puzzle`, stopping after `limit` solutions (a limit of 0 is
    /// treated as 1). Never panics; contradictory givens give 0 solutions.
    pub fn solve_with_stats(&mut self, puzzle: &Grid, limit: usize) -> SolveResult {
        self.run(puzzle, limit, true)
    }

    /// Runs the search; `want_first` says whether to extract the first
    /// solution (counting alone is a little faster without).
    fn run(&mut self, puzzle: &Grid, limit: usize, want_first: bool) -> SolveResult {
        #[cfg(target_arch = "x86_64")]
        if let Some(isa) = Avx2::detect() {
            return self.run_in(isa, puzzle, limit, want_first);
        }
        self.run_in(Baseline, puzzle, limit, want_first)
    }

    /// [`Solver::run`] in the code of `isa`.
    #[inline(always)]
    fn run_in<I: Isa>(
        &mut self,
        isa: I,
        puzzle: &Grid,
        limit: usize,
        want_first: bool,
    ) -> SolveResult {
        self.limit = limit.max(1);
        self.want_first = want_first;
        let clues = puzzle.clue_count();
        self.rich = clues <= RICH_MAX_CLUES;
        self.configs = self.rich && clues >= CONFIG_MIN_CLUES;
        self.tri = clues == TRIAD_CELL_CLUES;
        self.solutions = 0;
        self.first = None;
        self.guesses = 0;
        self.branches = 0;
        self.near = Near::Undecided;
        let mut state = isa.start(puzzle);
        isa.search(self, &mut state);
        SolveResult {
            solutions: self.solutions,
            first: self.first,
            guesses: self.guesses,
            branches: self.branches,
        }
    }

    /// Depth-first search from `state`, in the best code this CPU runs
    /// ([`Isa`]).
    fn search(&mut self, state: &mut State) {
        #[cfg(target_arch = "x86_64")]
        if let Some(isa) = Avx2::detect() {
            return isa.search(self, state);
        }
        Baseline.search(self, state)
    }

    /// The body of [`Solver::search`] for one code path: recursion and the
    /// off-path steps go through `isa`, so the whole search is compiled
    /// for its target features.
    #[inline(always)]
    fn search_body<I: Isa>(&mut self, isa: I, state: &mut State) {
        let mut cols_done = false;
        let mut triads_done = false;
        let mut choice;
        loop {
            let configs = self.configs && self.branches < CONFIG_BRANCH_BUDGET;
            // Configuration sets kept, column step to a fixed point and
            // triads: configuration mode, and cell branching with triads.
            let prop = configs || self.tri;
            let consistent = if prop {
                state.update::<true>()
            } else {
                state.update::<false>()
            };
            if !consistent {
                return;
            }
            let step = if configs {
                state.singles::<false>(false)
            } else {
                isa.cell_singles(state, self.rich)
            };
            match step {
                Step::Progress => {}
                Step::Dead => return,
                Step::Solved => {
                    if self.solutions == 0 && self.want_first {
                        self.first = Some(state.extract());
                    } else if self.solutions == 1 && self.want_second {
                        self.second = Some(state.extract());
                    }
                    self.solutions += 1;
                    return;
                }
                // Before guessing, try the column step (cheap next to a guess).
                Step::Guess(..) | Step::Stall
                    if (!cols_done || prop)
                        && self.rich
                        && (prop || state.open_cells() >= COLUMN_STEP_MIN_OPEN)
                        && match isa.columns(state) {
                            None => return,
                            Some(changed) => {
                                cols_done = true;
                                changed
                            }
                        } => {}
                Step::Guess(..) | Step::Stall
                    if prop
                        && !triads_done
                        && match isa.triads(state) {
                            None => return,
                            Some(changed) => {
                                triads_done = true;
                                changed
                            }
                        } => {}
                Step::Guess(..) | Step::Stall
                    if configs && {
                        choice = isa.config_choice(state, &mut self.near);
                        choice.is_some()
                    } =>
                {
                    let Some((d, band, mut set)) = choice else {
                        return;
                    };
                    self.branches += 1;
                    loop {
                        let p = set.trailing_zeros() as usize;
                        set &= set - 1;
                        self.guesses += 1;
                        if set == 0 {
                            // Last alternative: continue in place.
                            state.apply_config(d, band, p);
                            cols_done = false;
                            triads_done = false;
                            break;
                        }
                        let mut next = *state;
                        next.apply_config(d, band, p);
                        isa.search(self, &mut next);
                        if self.solutions >= self.limit {
                            return;
                        }
                    }
                }
                step => {
                    let (b, p) = match step {
                        Step::Guess(b, p) => (b, p),
                        // Configuration mode with every band and stack fixed.
                        _ => state.cell_guess(self.rich && !configs),
                    };
                    // The cell's candidate digits, collected without
                    // data-dependent branches.
                    let mut digits = [0usize; 10];
                    let mut n = 0;
                    for d in 0..9 {
                        digits[n] = d;
                        n += ((state.cand[wi(d, b)] >> p) & 1) as usize;
                    }
                    if n == 0 {
                        return;
                    }
                    self.branches += 1;
                    // For a bivalue cell, try first the digit with more
                    // candidates left in this band (measured: finds first
                    // solutions sooner, e.g. 10% fewer guesses on the
                    // hardest puzzles; the order cannot change counts).
                    if n == 2
                        && state.cand[wi(digits[1], b)].count_ones()
                            > state.cand[wi(digits[0], b)].count_ones()
                    {
                        digits.swap(0, 1);
                    }
                    if let Some(hint) = &self.hint {
                        // Try the hinted digit first (see `has_solution_avoiding`).
                        let h = usize::from(hint.cells()[27 * b + p]).wrapping_sub(1);
                        if let Some(k) = digits[..n].iter().position(|&d| d == h) {
                            digits.swap(0, k);
                        }
                    }
                    for &d in &digits[..n - 1] {
                        let mut next = *state;
                        let w = wi(d, b);
                        next.cand[w] &= PLACE_MASK[p];
                        self.guesses += 1;
                        isa.search(self, &mut next);
                        if self.solutions >= self.limit {
                            return;
                        }
                    }
                    // Last alternative: continue in place.
                    let w = wi(digits[n - 1], b);
                    state.cand[w] &= PLACE_MASK[p];
                    self.guesses += 1;
                    triads_done = false;
                }
            }
        }
    }
}

/// One compiled copy of the search: [`Solver::search_body`] and the steps
/// it keeps off its hot path, built for some target features. The default
/// build targets x86-64-v2 (`.cargo/config.toml`); on a CPU with AVX2,
/// BMI1/2 and LZCNT the whole search runs a copy built for them (wider
/// vectors for the state copies and band-wide clears, BMI bit operations),
/// picked once per solve ([`Avx2::detect`]). Measured on magictour's
/// configuration-mode puzzles up to two solutions: 2–3 % less time (a
/// whole build for `target-cpu=x86-64-v3` saves 4 %). A value of an
/// implementing type is the proof that the CPU runs its code.
trait Isa: Copy {
    /// [`Solver::search_body`] in this code.
    fn search(self, solver: &mut Solver, state: &mut State);
    /// [`State::from_grid`] in this code.
    fn start(self, grid: &Grid) -> State;
    /// [`State::singles`] for cell branching, in this code.
    fn cell_singles(self, state: &mut State, rich: bool) -> Step;
    /// [`State::columns`] in this code.
    fn columns(self, state: &mut State) -> Option<bool>;
    /// [`State::triads`] in this code.
    fn triads(self, state: &mut State) -> Option<bool>;
    /// [`State::config_choice`] in this code.
    fn config_choice(self, state: &State, near: &mut Near) -> Option<(usize, usize, u8)>;
}

/// The build's target.
#[derive(Clone, Copy)]
struct Baseline;

impl Isa for Baseline {
    #[inline(never)]
    fn search(self, solver: &mut Solver, state: &mut State) {
        solver.search_body(self, state)
    }
    #[inline]
    fn start(self, grid: &Grid) -> State {
        State::from_grid(grid)
    }
    #[inline(never)] // keeps `search` small
    fn cell_singles(self, state: &mut State, rich: bool) -> Step {
        state.singles::<true>(rich)
    }
    #[inline(never)] // off the hot path: keeps `search` small
    fn columns(self, state: &mut State) -> Option<bool> {
        state.columns()
    }
    #[inline(never)]
    fn triads(self, state: &mut State) -> Option<bool> {
        state.triads()
    }
    #[inline(never)]
    fn config_choice(self, state: &State, near: &mut Near) -> Option<(usize, usize, u8)> {
        state.config_choice(near)
    }
}

/// x86-64 with AVX2, BMI1/2, LZCNT and POPCNT (x86-64-v3's integer core);
/// made only by [`Avx2::detect`].
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
struct Avx2(());

#[cfg(target_arch = "x86_64")]
impl Avx2 {
    /// `Some` iff this CPU has the features.
    #[inline]
    fn detect() -> Option<Avx2> {
        let has = std::is_x86_feature_detected!("avx2")
            && std::is_x86_feature_detected!("bmi1")
            && std::is_x86_feature_detected!("bmi2")
            && std::is_x86_feature_detected!("lzcnt")
            && std::is_x86_feature_detected!("popcnt");
        has.then_some(Avx2(()))
    }
}

/// The [`Avx2`] copies. Safe functions with target features; calling one
/// needs `unsafe` only where the features are not known, and an [`Avx2`]
/// value says they are.
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::{Avx2, Grid, Near, Solver, State, Step};

    #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
    pub(super) fn search(isa: Avx2, solver: &mut Solver, state: &mut State) {
        solver.search_body(isa, state)
    }
    #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
    pub(super) fn start(grid: &Grid) -> State {
        State::from_grid(grid)
    }
    #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
    #[inline(never)]
    pub(super) fn cell_singles(state: &mut State, rich: bool) -> Step {
        state.singles::<true>(rich)
    }
    #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
    #[inline(never)]
    pub(super) fn columns(state: &mut State) -> Option<bool> {
        state.columns()
    }
    #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
    #[inline(never)]
    pub(super) fn triads(state: &mut State) -> Option<bool> {
        state.triads()
    }
    #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
    #[inline(never)]
    pub(super) fn config_choice(state: &State, near: &mut Near) -> Option<(usize, usize, u8)> {
        state.config_choice(near)
    }
}

// SAFETY (every block below): an `Avx2` value exists only when
// `Avx2::detect` found the features these functions are built for.
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
impl Isa for Avx2 {
    #[inline(always)]
    fn search(self, solver: &mut Solver, state: &mut State) {
        unsafe { avx2::search(self, solver, state) }
    }
    #[inline(always)]
    fn start(self, grid: &Grid) -> State {
        unsafe { avx2::start(grid) }
    }
    #[inline(always)]
    fn cell_singles(self, state: &mut State, rich: bool) -> Step {
        unsafe { avx2::cell_singles(state, rich) }
    }
    #[inline(always)]
    fn columns(self, state: &mut State) -> Option<bool> {
        unsafe { avx2::columns(state) }
    }
    #[inline(always)]
    fn triads(self, state: &mut State) -> Option<bool> {
        unsafe { avx2::triads(state) }
    }
    #[inline(always)]
    fn config_choice(self, state: &State, near: &mut Near) -> Option<(usize, usize, u8)> {
        unsafe { avx2::config_choice(state, near) }
    }
}

/// True iff `puzzle` has a solution in which none of the `(cell, digit)`
/// pairs of `forbidden` holds (cells 0..81, digits 1..=9; other pairs are
/// ignored). The generator uses this to test uniqueness against a known
/// solution with a single first-solution search.
///
/// With a `hint` (the known solution), every cell branch tries the hint's
/// digit first. A solution that avoids the forbidden pairs but differs
/// from the hint on few cells (an unavoidable set through the removed
/// clue) is then found after few wrong turns; when there is none the whole
/// tree is searched either way, so the answer and that cost do not change.
pub(crate) fn has_solution_avoiding(
    puzzle: &Grid,
    forbidden: &[(usize, u8)],
    hint: Option<&Grid>,
) -> bool {
    let mut state = State::from_grid(puzzle);
    for &(cell, digit) in forbidden {
        if cell < 81 && (1..=9).contains(&digit) {
            state.cand[wi(digit as usize - 1, cell / 27)] &= !(1u32 << (cell % 27));
        }
    }
    let mut solver = Solver {
        limit: 1,
        // With a hint the plain cell choice is faster (measured: the
        // generator's failing tests 13 % faster without the degree scores).
        rich: hint.is_none() && puzzle.clue_count() <= RICH_MAX_CLUES,
        hint: hint.copied(),
        ..Solver::default()
    };
    solver.search(&mut state);
    solver.solutions > 0
}

/// The first two solutions found: `(None, None)` when there is none,
/// `(Some(s), None)` when the solution is unique, both when there are
/// several (the grid checker uses the second to learn a new unavoidable set).
pub fn two_solutions(puzzle: &Grid) -> (Option<Grid>, Option<Grid>) {
    let mut solver = Solver {
        want_second: true,
        ..Solver::default()
    };
    solver.run(puzzle, 2, true);
    (solver.first, solver.second)
}

/// Returns the first solution found, or `None` if the puzzle has none
/// (including puzzles whose givens contradict each other).
pub fn solve(puzzle: &Grid) -> Option<Grid> {
    Solver::new().solve_with_stats(puzzle, 1).first
}

/// Counts the solutions of `puzzle`, stopping at `limit` (so
/// `count_solutions(p, 2) == 1` means `p` has a unique solution). A limit of
/// 0 returns 0 without solving.
pub fn count_solutions(puzzle: &Grid, limit: usize) -> usize {
    if limit == 0 {
        return 0;
    }
    Solver::new().run(puzzle, limit, false).solutions
}

#[cfg(test)]
#[allow(clippy::needless_range_loop)] // index loops read best in these checks
mod tests {
    use super::*;

    const P: &str =
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";
    const S: &str =
        "468931527751624839392578461134756298289413675675289314846192753513867942927345186";

    #[test]
    fn solves_known() {
        let p = Grid::parse(P).unwrap();
        assert_eq!(solve(&p).unwrap().to_string(), S);
        assert_eq!(count_solutions(&p, 2), 1);
    }

    /// Brute force: does a row->box permutation fit in occupancy `occ(r, k)`?
    fn naive_keep(occ: impl Fn(usize, usize) -> bool) -> [[bool; 3]; 3] {
        let perms = [
            [0, 1, 2],
            [0, 2, 1],
            [1, 0, 2],
            [1, 2, 0],
            [2, 0, 1],
            [2, 1, 0],
        ];
        let mut keep = [[false; 3]; 3];
        for p in perms {
            if (0..3).all(|r| occ(r, p[r])) {
                for r in 0..3 {
                    keep[r][p[r]] = true;
                }
            }
        }
        keep
    }

    #[test]
    fn config_tables_match_brute_force() {
        // The permutations i -> perm[i] whose three entries `occ` holds.
        let inside = |occ: &dyn Fn(u32, u32) -> bool| {
            let mut want = 0u8;
            for (p, perm) in PERMS.iter().enumerate() {
                if (0..3).all(|i| occ(i, perm[i as usize])) {
                    want |= 1 << p;
                }
            }
            want
        };
        for key in 0..512u32 {
            // Horizontal layout (minirow_key): bit 3 * box + row.
            let want = inside(&|r, k| key >> (3 * k + r) & 1 == 1);
            assert_eq!(CONFIGS[key as usize], want, "{key:o}");
            // Vertical layout: bit 3 * band + column.
            let vwant = inside(&|b, c| key >> (3 * b + c) & 1 == 1);
            assert_eq!(VCONFIGS[key as usize], vwant, "{key:o}");
        }
        for (p, perm) in PERMS.iter().enumerate() {
            let mut m = 0u32;
            for r in 0..3 {
                m |= 7 << (9 * r + 3 * perm[r as usize]);
            }
            assert_eq!(CONFIG_MASK[p], m);
        }
    }

    /// Branching over a digit's configurations partitions its placements:
    /// on a solved grid's digit, exactly one configuration of each band and
    /// stack keeps the digit's cells.
    #[test]
    fn configurations_partition_a_solution() {
        let g = Grid::parse(
            "534678912672195348198342567859761423426853791713924856961537284287419635345286179",
        )
        .unwrap();
        let s = State::from_grid(&g);
        let mut e = State::from_grid(&Grid::EMPTY);
        assert!(e.update::<true>());
        for d in 0..9 {
            for band in 0..3 {
                let m = s.cand[wi(d, band)];
                let n = CONFIG_MASK.iter().filter(|&&c| m & c == m).count();
                assert_eq!(n, 1, "digit {d} band {band}");
                // On the empty grid every configuration is open.
                assert_eq!(
                    CONFIGS[minirow_key(e.cand[wi(d, band)]) as usize],
                    0b11_1111
                );
            }
            for st in 0..3 {
                let mut keeps = 0;
                for p in 0..6 {
                    let mut t = s;
                    t.apply_config(d, 3 + st, p);
                    keeps += usize::from(t.cand == s.cand);
                }
                assert_eq!(keeps, 1, "digit {d} stack {st}");
            }
        }
    }

    #[test]
    fn minirow_tables_match_brute_force() {
        let mut rng = crate::rng::SplitMix64::new(1);
        for _ in 0..20000 {
            let m = (rng.next_u64() as u32) & BAND;
            let occ = |r: usize, k: usize| (m >> (9 * r + 3 * k)) & 7 != 0;
            let key = minirow_key(m);
            for r in 0..3 {
                for k in 0..3 {
                    assert_eq!(key >> (3 * k + r) & 1 == 1, occ(r, k));
                }
            }
            let keep = naive_keep(occ);
            let mut want = 0u32;
            for r in 0..3 {
                for k in 0..3 {
                    if keep[r][k] {
                        want |= 7 << (9 * r + 3 * k);
                    }
                }
            }
            assert_eq!(MINIROW_MASK[key as usize], want, "{m:o}");
            let entry = MINIROW_ENTRY[key as usize];
            assert_eq!(
                (entry as u32, (entry >> 32) as u8),
                (want, CONFIGS[key as usize])
            );
        }
        for s in 0..512usize {
            let keep = naive_keep(|r, k| s >> (3 * r + k) & 1 == 1);
            for r in 0..3 {
                for k in 0..3 {
                    assert_eq!(PERM_KEEP[s] >> (3 * r + k) & 1 == 1, keep[r][k]);
                }
            }
        }
    }

    /// `FORCED_ROWS`, `FORCED_COLS`, `POSSIBLE_ROWS`, `ROW_CUT` and
    /// `COL_CUT` against their definitions, `MINIROW_SET` against the cells
    /// of each mini-row, `Count64` against plain counting.
    #[test]
    fn triad_tables_match_brute_force() {
        for key in 0..512usize {
            // The union of the configurations inside the occupancy; an
            // entry alone in its row or box of it is used by all of them.
            let alone = |on: &dyn Fn(usize, usize) -> bool| {
                let mut want = 0u32;
                for k in 0..3 {
                    for r in 0..3 {
                        let row_alone = (0..3).filter(|&kk| on(kk, r)).count() == 1;
                        let box_alone = (0..3).filter(|&rr| on(k, rr)).count() == 1;
                        if on(k, r) && (row_alone || box_alone) {
                            want |= 1 << (3 * k + r);
                        }
                    }
                }
                want
            };
            let c = CONFIGS[key] as usize;
            let mut union = 0u32;
            for p in 0..6 {
                if c >> p & 1 == 1 {
                    for r in 0..3 {
                        union |= 1 << (3 * PERMS[p][r] + r as u32);
                    }
                }
            }
            assert_eq!(FORCED_ROWS[c], alone(&|k, r| union >> (3 * k + r) & 1 == 1));
            // Stacks: VCONFIGS bit p maps band b to column PERMS[p][b].
            let c = VCONFIGS[key] as usize;
            let mut want = 0u32;
            for b in 0..3 {
                for col in 0..3u32 {
                    let all = (0..6)
                        .filter(|&p| c >> p & 1 == 1)
                        .all(|p| PERMS[p][b] == col);
                    if c != 0 && all {
                        want |= 1 << (9 * b as u32 + col);
                    }
                }
            }
            assert_eq!(FORCED_COLS[c], want, "{key:o}");
            let mut cells = 0u32;
            for p in 0..27u32 {
                let (r, k) = (p / 9, p % 9 / 3);
                if key >> (3 * k + r) & 1 == 1 {
                    cells |= 1 << p;
                }
            }
            assert_eq!(MINIROW_SET[key], cells, "{key:o}");
        }
        for c in 0..64usize {
            let mut union = 0u32;
            for p in 0..6 {
                if c >> p & 1 == 1 {
                    for r in 0..3 {
                        union |= 1 << (3 * PERMS[p][r] + r as u32);
                    }
                }
            }
            assert_eq!(POSSIBLE_ROWS[c], union);
            assert_eq!(
                ROWS_FP[c],
                u64::from(FORCED_ROWS[c]) | u64::from(union) << 32
            );
        }
        for x in 0..512usize {
            // A digit held to mini-rows `x` (bit 3k + r) leaves the rest of
            // each one's row and box; held to columns `x` of a band, the
            // rest of each one's box.
            let (mut row_cut, mut col_cut) = (0u32, 0u32);
            for p in 0..27u32 {
                let (r, c) = (p / 9, p % 9);
                for m in (0..9).filter(|m| x >> m & 1 == 1) {
                    let (k, rr) = (m as u32 / 3, m as u32 % 3);
                    if (r == rr) != (c / 3 == k) {
                        row_cut |= 1 << p;
                    }
                    let col = m as u32;
                    if c / 3 == col / 3 && c != col {
                        col_cut |= 1 << p;
                    }
                }
            }
            assert_eq!(ROW_CUT[x], row_cut, "{x:o}");
            assert_eq!(COL_CUT[x], col_cut, "{x:o}");
        }
        let mut rng = crate::rng::SplitMix64::new(3);
        for _ in 0..200 {
            let mut c = Count64::default();
            let xs: Vec<u64> = (0..9).map(|_| rng.next_u64()).collect();
            for &x in &xs {
                c.add(x);
            }
            for bit in 0..64 {
                let n = xs.iter().filter(|&&x| x >> bit & 1 == 1).count();
                assert_eq!(c.three() >> bit & 1 == 1, n == 3);
                assert_eq!(c.over_three() >> bit & 1 == 1, n > 3);
                assert_eq!(c.under_three() >> bit & 1 == 1, n < 3);
            }
        }
    }

    /// At a stall the triads step keeps the solution's candidates (it only
    /// removes impossible ones), and it fires where nothing else does:
    /// three digits confined to one mini-row of a row clear it of others
    /// (hidden); a mini-row open to three digits only holds them (naked).
    #[test]
    fn triads_keep_the_solution() {
        let p = Grid::parse(P).unwrap();
        let sol = Grid::parse(S).unwrap();
        let s = State::from_grid(&sol);
        let mut st = State::from_grid(&p);
        // Propagate and run the column step to a fixed point: a stall.
        while {
            assert!(st.update::<true>());
            st.columns().unwrap()
        } {}
        let before = st.cand;
        assert!(st.triads().is_some());
        for w in 0..27 {
            assert_eq!(st.cand[w] & s.cand[w], s.cand[w], "word {w}");
            assert_eq!(st.cand[w] & !before[w], 0);
        }
        // Digits 0, 1, 2 may go in row 0 only in box 0 (three cells each:
        // no single); digit 3 may go anywhere in band 0.
        let mut t = State::new();
        for d in 0..3 {
            t.cand[wi(d, 0)] = BAND & !0o000_000_770;
        }
        assert!(t.update::<true>());
        assert_eq!(t.columns(), Some(false));
        assert_eq!(
            t.cand[wi(3, 0)],
            BAND,
            "nothing but the triads step removes"
        );
        assert_eq!(t.triads(), Some(true));
        assert_eq!(
            t.cand[wi(3, 0)],
            BAND & !0o7,
            "digit 3 left mini-row (0, 0)"
        );
        // Naked: only digits 0, 1, 2 may go in mini-row (0, 0), so each
        // must, and leaves the rest of row 0 and of box 0.
        let mut t = State::new();
        for d in 3..9 {
            t.cand[wi(d, 0)] = BAND & !0o7;
        }
        assert!(t.update::<true>());
        assert_eq!(t.columns(), Some(false));
        assert_eq!(
            t.cand[wi(0, 0)],
            BAND,
            "nothing but the triads step removes"
        );
        assert_eq!(t.triads(), Some(true));
        for d in 0..3 {
            assert_eq!(t.cand[wi(d, 0)], BAND & !0o007_007_770, "digit {d}");
        }
        assert_eq!(t.cand[wi(3, 0)], BAND & !0o7);
        // Only two digits may go in it: a contradiction that only the
        // triads step sees.
        let mut t = State::new();
        for d in 2..9 {
            t.cand[wi(d, 0)] = BAND & !0o7;
        }
        assert!(t.update::<true>());
        assert_eq!(t.columns(), Some(false));
        assert!(matches!(t.singles::<false>(false), Step::Stall));
        assert_eq!(t.triads(), None);
    }

    #[test]
    fn multi_rows_matches_naive() {
        // Rows are independent (no borrow crosses them): test every row value
        // in every row position, with random non-empty other rows.
        let mut rng = crate::rng::SplitMix64::new(2);
        for r in 0..3 {
            for x in 1..512u32 {
                let mut m = 0;
                for rr in 0..3 {
                    let v = if rr == r {
                        x
                    } else {
                        1 + rng.below(511) as u32
                    };
                    m |= v << (9 * rr);
                }
                let got = multi_rows(m);
                for rr in 0..3 {
                    let row = (m >> (9 * rr)) & 0o777;
                    let want = if row.count_ones() >= 2 { 0o777 } else { 0 };
                    assert_eq!((got >> (9 * rr)) & 0o777, want, "{m:o}");
                }
            }
        }
    }

    #[test]
    fn locked_cols_and_places() {
        for c in 0..512u32 {
            let mut want = 0;
            for k in 0..3 {
                let g = (c >> (3 * k)) & 7;
                if g.count_ones() == 1 {
                    want |= g << (3 * k);
                }
            }
            assert_eq!(u32::from(LOCKED_COLS[c as usize]), want);
            let keep = (0..27)
                .filter(|q| want >> (q % 9) & 1 == 0)
                .fold(0, |k, q| k | 1 << q);
            assert_eq!(LOCK_KEEP[c as usize], keep);
        }
        for p in 0..27 {
            let (r, c) = (p / 9, p % 9);
            for q in 0..27 {
                let (rq, cq) = (q / 9, q % 9);
                let peer = q != p && (rq == r || cq / 3 == c / 3);
                assert_eq!(PLACE_MASK[p] >> q & 1 == 0, peer);
                assert_eq!(ROW_BOX[p] >> q & 1 == 1, peer || q == p);
            }
        }
    }

    #[test]
    fn avoiding() {
        let p = Grid::parse(P).unwrap();
        let s = Grid::parse(S).unwrap();
        for hint in [None, Some(&s)] {
            assert!(has_solution_avoiding(&p, &[], hint));
            // The unique solution has s[1] at cell 1: forbidding it leaves none.
            assert!(!has_solution_avoiding(&p, &[(1, s.cells()[1])], hint));
            // Out-of-range pairs are ignored.
            assert!(has_solution_avoiding(&p, &[(81, 1), (1, 0), (1, 10)], hint));
        }
    }

    #[test]
    fn near_root_rule_is_decided_once_per_solve() {
        // A band with at most six unfixed digits and at least 27
        // configurations at the first wide-open choice: the near-root rule.
        let on =
            "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3";
        // Its best band has more unfixed digits: tdoku's choice throughout.
        let off =
            "..2...7...1.....6.5......18....37.......49.....41.23....3.2.9...8.....5.6.......2";
        // Seventeen givens branch on cells: no configuration choice.
        let cells =
            "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";
        let mut s = Solver::new();
        for (p, want) in [
            (on, Near::On),
            (off, Near::Off),
            (cells, Near::Undecided),
            (on, Near::On),
        ] {
            let g = Grid::parse(p).unwrap();
            let r = s.solve_with_stats(&g, 2);
            assert_eq!(r.solutions, 1, "{p}");
            assert_eq!(s.near, want, "{p}");
        }
    }

    /// Both code paths make the same search: same solutions, same counts.
    #[test]
    fn code_paths_search_alike() {
        #[cfg(target_arch = "x86_64")]
        if let Some(isa) = Avx2::detect() {
            // Cells (17 and 18 givens), configurations (22 and 24, near
            // the root and not), two solutions (34).
            let puzzles = [
                P,
                ".................1.....234.....5......3...6....7.1...8.5...3....9...6...18......5",
                "1.....6........4.8...3.....9..7...2.....8.5..........7.68.4.....45..9..........3.",
                "..2...7...1.....6.5......18....37.......49.....41.23....3.2.9...8.....5.6.......2",
                "..79..1....36..7..45........2...3.8....8......4..51.3.....9...25.4....1..8...4..6",
                "8.........95.......76.........428796...751432...693185......567....7.943....3.218",
            ];
            for text in puzzles {
                let p: Grid = text.parse().unwrap();
                for (limit, first) in [(1, true), (2, true), (2, false)] {
                    let a = Solver::new().run_in(Baseline, &p, limit, first);
                    let b = Solver::new().run_in(isa, &p, limit, first);
                    assert_eq!(a, b, "{text} limit {limit}");
                    assert!(a.solutions >= 1 && a.branches >= 1, "{text}");
                }
            }
            // Random subsets of solved grids (17–40 givens: both branching
            // modes, unique or not) and random givens (mostly contradictory).
            let mut rng = crate::rng::SplitMix64::new(31);
            for k in 0..200u64 {
                let full = *crate::generator::solution_grid(k).cells();
                let mut cells = [0u8; 81];
                if k % 4 == 3 {
                    for _ in 0..rng.below(30) {
                        cells[rng.below(81) as usize] = 1 + rng.below(9) as u8;
                    }
                } else {
                    let keep = 17 + rng.below(24) as usize;
                    let mut order: Vec<usize> = (0..81).collect();
                    for i in (1..81).rev() {
                        order.swap(i, rng.below(i as u64 + 1) as usize);
                    }
                    for &c in &order[..keep] {
                        cells[c] = full[c];
                    }
                }
                let p = Grid::from_cells(cells).unwrap();
                for limit in [1, 2] {
                    let a = Solver::new().run_in(Baseline, &p, limit, true);
                    let b = Solver::new().run_in(isa, &p, limit, true);
                    assert_eq!(a, b, "{p} limit {limit}");
                }
            }
        }
    }

    #[test]
    fn empty_grid() {
        let s = solve(&Grid::EMPTY).unwrap();
        assert_eq!(s.check_solution(), Ok(()));
        assert_eq!(count_solutions(&Grid::EMPTY, 5), 5);
        assert_eq!(count_solutions(&Grid::EMPTY, 0), 0);
    }
}
