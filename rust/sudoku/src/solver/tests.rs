#![allow(clippy::needless_range_loop)] // index loops read best in these checks
use super::*;

const P: &str = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";
const S: &str = "468931527751624839392578461134756298289413675675289314846192753513867942927345186";

#[test]
fn solves_known() {
    let p = Grid::parse(P).unwrap();
    assert_eq!(solve(&p).unwrap().to_string(), S);
    assert_eq!(count_solutions(&p, 2), 1);
}

/// Brute force: does a row->box permutation fit in occupancy `occ(r, k)`?
fn naive_keep(occ: impl Fn(usize, usize) -> bool) -> [[bool; 3]; 3] {
    let mut keep = [[false; 3]; 3];
    for p in crate::geometry::PERM3.map(|p| p.map(usize::from)) {
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
    let on = "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3";
    // Its best band has more unfixed digits: tdoku's choice throughout.
    let off = "..2...7...1.....6.5......18....37.......49.....41.23....3.2.9...8.....5.6.......2";
    // Seventeen givens branch on cells: no configuration choice.
    let cells = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";
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
