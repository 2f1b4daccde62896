//! The grid checker against ground truth: the 17-clue list (completeness of
//! the N-clue search, on random isomorphic forms of the grids), brute-force
//! unavoidable rectangles (the size-4 UA sets), and the UA sets' definition.

use std::collections::BTreeSet;

use algoku_checker::search::{search_with, Code};
use algoku_checker::{
    cells_of, collect, is_minimal_ua, search, Cells, SearchOptions, UaOptions, ALL,
};
use algoku_sudoku::generator::solution_grid;
use algoku_sudoku::geometry::PERM3;
use algoku_sudoku::transform::Transform;
use algoku_sudoku::{count_solutions, solve, Grid, SplitMix64};

/// 49 puzzles of the complete 17-clue list (puzzles2_17_clue): for each of
/// 22 grids every listed 17 whose solution is isomorphic to it, moved onto
/// the grid's literal form (see the file's header) — grids with 14, 8, 7
/// and 2 of them, and 18 grids with a single 17.
const SEVENTEEN: &str = include_str!("data/seventeen.txt");

fn parse(s: &str) -> Cells {
    *Grid::parse(s).expect("fixture puzzle").cells()
}

fn mask_of(p: &Cells) -> u128 {
    p.iter()
        .enumerate()
        .filter(|(_, &v)| v != 0)
        .fold(0, |m, (i, _)| m | 1u128 << i)
}

/// A random isomorphism ([`Transform`], as the benchmarks draw them) with
/// its geometric part as a source map: new cell i takes old cell src[i].
struct Iso {
    t: Transform,
    src: [usize; 81],
}

impl Iso {
    fn random(rng: &mut SplitMix64) -> Iso {
        let t = Transform::random(rng);
        let src = std::array::from_fn(|i| {
            let (sr, sc) = (usize::from(t.rows[i / 9]), usize::from(t.cols[i % 9]));
            if t.transpose {
                9 * sc + sr
            } else {
                9 * sr + sc
            }
        });
        Iso { t, src }
    }

    fn grid(&self, g: &Cells) -> Cells {
        *self.t.apply(&Grid::from_cells(*g).unwrap()).cells()
    }

    fn mask(&self, m: u128) -> u128 {
        (0..81)
            .filter(|&i| m >> self.src[i] & 1 == 1)
            .fold(0, |a, i| a | 1u128 << i)
    }
}

/// The geometric automorphisms of `g` (as source maps): transforms that
/// map `g` to itself up to a relabeling. Brute force over the 3 359 232
/// transforms, pruned row by row.
fn automorphisms(g: &Cells) -> Vec<[usize; 81]> {
    let perms3 = PERM3.map(|p| p.map(usize::from));
    let mut lines = Vec::with_capacity(1296);
    for b in perms3 {
        for p0 in perms3 {
            for p1 in perms3 {
                for p2 in perms3 {
                    let ps = [p0, p1, p2];
                    let v: [usize; 9] = std::array::from_fn(|i| 3 * b[i / 3] + ps[i / 3][i % 3]);
                    lines.push(v);
                }
            }
        }
    }
    let mut out = Vec::new();
    for transpose in [false, true] {
        let at = |r: usize, c: usize| {
            if transpose {
                g[9 * c + r]
            } else {
                g[9 * r + c]
            }
        };
        for cols in &lines {
            // The relabeling is fixed by row 0 of the image: rows[0] = r0.
            for rows in &lines {
                let mut relabel = [0u8; 10];
                let mut ok = true;
                'outer: for r in 0..9 {
                    for c in 0..9 {
                        let from = at(rows[r], cols[c]) as usize;
                        let to = g[9 * r + c];
                        if relabel[from] == 0 {
                            relabel[from] = to;
                        } else if relabel[from] != to {
                            ok = false;
                            break 'outer;
                        }
                    }
                }
                if ok {
                    out.push(std::array::from_fn(|i| {
                        let (r, c) = (rows[i / 9], cols[i % 9]);
                        if transpose {
                            9 * c + r
                        } else {
                            9 * r + c
                        }
                    }));
                }
            }
        }
    }
    out
}

/// The fixture's puzzles grouped by their solution grid (grid, masks), in
/// file order; every group lists all of its grid's 17s up to automorphism.
fn fixture_groups() -> Vec<(Cells, Vec<u128>)> {
    let puzzles: Vec<Cells> = SEVENTEEN
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(parse)
        .collect();
    assert_eq!(puzzles.len(), 49);
    let mut groups: Vec<(Cells, Vec<u128>)> = Vec::new();
    for p in &puzzles {
        let sol = *solve(&Grid::from_cells(*p).unwrap()).unwrap().cells();
        match groups.iter_mut().find(|(g, _)| *g == sol) {
            Some((_, v)) => v.push(mask_of(p)),
            None => groups.push((sol, vec![mask_of(p)])),
        }
    }
    groups
}

/// Every 17 on `grid`: the listed ones (`masks`) and their images under the
/// grid's automorphisms (the list keeps one per equivalence class).
fn all_17s(grid: &Cells, masks: &[u128]) -> BTreeSet<u128> {
    let autos = automorphisms(grid);
    let mut all17 = BTreeSet::new();
    for &m in masks {
        for a in &autos {
            all17.insert(
                (0..81)
                    .filter(|&i| m >> a[i] & 1 == 1)
                    .fold(0, |x, i| x | 1u128 << i),
            );
        }
    }
    all17
}

/// Checks one reported puzzle: `n` givens from `grid`, unique, solution `grid`.
fn assert_puzzle(grid: &Cells, p: u128, n: usize) {
    assert_eq!(p.count_ones() as usize, n);
    let cells: Cells = std::array::from_fn(|i| if p >> i & 1 == 1 { grid[i] } else { 0 });
    let puzzle = Grid::from_cells(cells).unwrap();
    assert_eq!(count_solutions(&puzzle, 2), 1, "not unique");
    assert_eq!(solve(&puzzle).unwrap().cells(), grid);
}

#[test]
fn finds_exactly_the_listed_17s_on_random_isomorphs() {
    let groups = fixture_groups();
    let mut sizes: Vec<usize> = groups.iter().map(|(_, v)| v.len()).collect();
    sizes.sort_unstable();
    assert_eq!(
        sizes,
        [vec![1; 18], vec![2, 7, 8, 14]].concat(),
        "fixture grids"
    );
    let mut rng = SplitMix64::new(17);
    let mut checked = 0;
    for (gi, (grid, masks)) in groups.iter().enumerate() {
        let all17 = all_17s(grid, masks);
        // Several cases per multi-17 grid, one per other grid.
        let cases = if masks.len() > 1 { masks.len() } else { 1 };
        for (k, &target) in masks.iter().enumerate().take(cases) {
            let iso = Iso::random(&mut rng);
            let tgrid = iso.grid(grid);
            // 11 or 12 of the target's clues, chosen at random.
            let mut clues: Vec<usize> = cells_of(target).collect();
            rng.shuffle(&mut clues);
            let keep = 11 + (gi + k) % 2;
            let given = clues[..keep].iter().fold(0u128, |m, &c| m | 1u128 << c);
            let expected: BTreeSet<u128> = all17
                .iter()
                .filter(|&&m| m & given == given)
                .map(|&m| iso.mask(m))
                .collect();
            // Every other case starts from a poorer UA list (digit pairs and
            // triples only): completeness must not depend on it.
            let ua_opts = if k % 2 == 0 {
                UaOptions::default()
            } else {
                UaOptions {
                    digits: 3,
                    boxes: 0,
                    ..UaOptions::default()
                }
            };
            let got = all_17s_through(&tgrid, &ua_opts, iso.mask(given));
            assert_eq!(got, expected, "grid {gi} case {k}");
            checked += 1;
        }
    }
    assert!(checked >= 30);
}

/// Every 17-clue puzzle of `grid` holding the cells of `given`, searched
/// on two threads over the first 1 500 sets of `ua_opts`'s list; checks
/// that the search finished and that each is a 17-clue puzzle of `grid`.
fn all_17s_through(grid: &Cells, ua_opts: &UaOptions, given: u128) -> BTreeSet<u128> {
    let uas = collect(grid, ua_opts);
    let opts = SearchOptions {
        clues: 17,
        given,
        threads: 2,
        max_found: 1000,
    };
    let r = search(grid, &uas[..uas.len().min(1500)], &opts, &|_, _| {});
    assert!(!r.stopped);
    for &p in &r.puzzles {
        assert_puzzle(grid, p, 17);
    }
    r.puzzles.iter().copied().collect()
}

/// The same ground truth with only 3–5 of a listed 17's clues given, so
/// the search runs through its upper levels (global table, parallel
/// split, learned sets carried up) before the local subtrees.
#[test]
fn finds_the_listed_17s_from_few_givens() {
    let mut groups = fixture_groups();
    // The grids with 14 and 8 listed 17s (three cases each), the ones with
    // 7 and 2, and two single ones.
    groups.sort_by_key(|(_, v)| std::cmp::Reverse(v.len()));
    let cases: Vec<usize> = vec![0, 0, 0, 1, 1, 1, 2, 3, 4, 5];
    let all: Vec<BTreeSet<u128>> = groups[..6]
        .iter()
        .map(|(grid, masks)| all_17s(grid, masks))
        .collect();
    let mut rng = SplitMix64::new(1717);
    for (gi, &g) in cases.iter().enumerate() {
        let (grid, masks) = &groups[g];
        let all17 = &all[g];
        let iso = Iso::random(&mut rng);
        let tgrid = iso.grid(grid);
        let mut clues: Vec<usize> = cells_of(masks[gi % masks.len()]).collect();
        rng.shuffle(&mut clues);
        let keep = 3 + gi % 3;
        let given = clues[..keep].iter().fold(0u128, |m, &c| m | 1u128 << c);
        let expected: BTreeSet<u128> = all17
            .iter()
            .filter(|&&m| m & given == given)
            .map(|&m| iso.mask(m))
            .collect();
        let got = all_17s_through(&tgrid, &UaOptions::default(), iso.mask(given));
        assert_eq!(got, expected, "grid {gi} with {keep} givens");
    }
}

/// Minimal 4-cell UA sets are exactly the unavoidable rectangles: cells
/// (r1,c1),(r1,c2),(r2,c1),(r2,c2) in exactly two boxes, holding digits
/// a b / b a.
fn rectangles(g: &Cells) -> BTreeSet<u128> {
    let mut out = BTreeSet::new();
    let bx = |r: usize, c: usize| (r / 3) * 3 + c / 3;
    for r1 in 0..9 {
        for r2 in r1 + 1..9 {
            for c1 in 0..9 {
                for c2 in c1 + 1..9 {
                    let (a, b) = (g[9 * r1 + c1], g[9 * r1 + c2]);
                    let boxes: BTreeSet<usize> =
                        [bx(r1, c1), bx(r1, c2), bx(r2, c1), bx(r2, c2)].into();
                    if g[9 * r2 + c1] == b && g[9 * r2 + c2] == a && boxes.len() == 2 {
                        out.insert(
                            [9 * r1 + c1, 9 * r1 + c2, 9 * r2 + c1, 9 * r2 + c2]
                                .iter()
                                .fold(0, |m, &c| m | 1u128 << c),
                        );
                    }
                }
            }
        }
    }
    out
}

#[test]
fn size_4_sets_are_the_unavoidable_rectangles() {
    // Blanking alone (no exhaustive part), then the default collection.
    let opts = UaOptions {
        digits: 2,
        boxes: 0,
        complete: 0,
        ..UaOptions::default()
    };
    for seed in 0..60 {
        let g = *solution_grid(seed).cells();
        let four: BTreeSet<u128> = collect(&g, &opts)
            .into_iter()
            .filter(|m| m.count_ones() == 4)
            .collect();
        assert_eq!(four, rectangles(&g), "seed {seed}");
        // The default collection finds the same ones.
        if seed < 3 {
            let all: BTreeSet<u128> = collect(&g, &UaOptions::default())
                .into_iter()
                .filter(|m| m.count_ones() == 4)
                .collect();
            assert_eq!(all, four);
        }
    }
}

#[test]
fn every_collected_set_is_a_minimal_ua() {
    for seed in [1u64, 2] {
        let g = *solution_grid(seed).cells();
        let sets = collect(
            &g,
            &UaOptions {
                max_size: 14,
                complete: 0,
                ..UaOptions::default()
            },
        );
        assert!(sets.len() > 20);
        for &s in &sets {
            assert!(s & !ALL == 0);
            assert!(is_minimal_ua(&g, s));
        }
    }
}

#[test]
fn a_non_minimal_set_is_rejected() {
    let g = *solution_grid(3).cells();
    let rect = *rectangles(&g).iter().next().expect("a rectangle");
    let extra = (0..81).map(|i| 1u128 << i).find(|b| b & rect == 0).unwrap();
    assert!(is_minimal_ua(&g, rect));
    assert!(!is_minimal_ua(&g, rect | extra));
    assert!(!is_minimal_ua(&g, rect & (rect - 1)));
}

#[test]
fn search_respects_max_found_and_is_thread_independent() {
    let g =
        parse("789623541651478923324915786192736854438592167567184392945367218276851439813249675");
    let uas = collect(&g, &UaOptions::default());
    let p = SEVENTEEN
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(parse)
        .find(|p| solve(&Grid::from_cells(*p).unwrap()).unwrap().cells() == &g)
        .unwrap();
    let core: u128 = cells_of(mask_of(&p))
        .take(16)
        .fold(0, |m, c| m | 1u128 << c);
    // 20 clues containing 16 of a 17: many puzzles; stop at 50.
    let opts = SearchOptions {
        clues: 20,
        given: core,
        threads: 1,
        max_found: 50,
    };
    let r = search(&g, &uas, &opts, &|_, _| {});
    assert!(r.stopped);
    assert_eq!(r.puzzles.len(), 50);
    for &q in &r.puzzles {
        assert_puzzle(&g, q, 20);
    }
    let opts = SearchOptions {
        clues: 17,
        given: core,
        threads: 1,
        max_found: 1000,
    };
    let one = search(&g, &uas, &opts, &|_, _| {});
    let two = search(&g, &uas, &SearchOptions { threads: 2, ..opts }, &|_, _| {});
    assert!(!one.stopped && !one.puzzles.is_empty());
    assert_eq!(one, two);
}

/// A whole 16-clue search (none exists): the tasks are cut at depth 4
/// (hundreds of them, run by reused per-thread contexts); one and two
/// threads visit the same nodes, learn the same sets and call the solver
/// as often.
#[test]
fn a_full_16_clue_search_is_thread_independent() {
    let g =
        parse("318765294926184537745392861497521683631879425582436179179658342264913758853247916");
    let uas = collect(&g, &UaOptions::default());
    let uas = &uas[..uas.len().min(1500)];
    let opts = SearchOptions {
        clues: 16,
        given: 0,
        threads: 1,
        max_found: 1000,
    };
    let one = search(&g, uas, &opts, &|_, _| {});
    let two = search(&g, uas, &SearchOptions { threads: 2, ..opts }, &|_, _| {});
    assert!(!one.stopped && one.puzzles.is_empty());
    assert!(one.nodes > 100_000, "{} nodes", one.nodes);
    assert_eq!(one, two);
    // 17 clues through one given of a listed 17 (depth 4 too, and sets
    // learned in the tasks, which must not leak from task to task).
    let mut groups = fixture_groups();
    groups.sort_by_key(|(_, v)| std::cmp::Reverse(v.len()));
    let (grid, masks) = &groups[0];
    let uas = collect(grid, &UaOptions::default());
    let uas = &uas[..uas.len().min(1500)];
    let opts = SearchOptions {
        clues: 17,
        given: 1u128 << masks[0].trailing_zeros(),
        threads: 1,
        max_found: 1000,
    };
    let one = search(grid, uas, &opts, &|_, _| {});
    let two = search(grid, uas, &SearchOptions { threads: 2, ..opts }, &|_, _| {});
    assert!(!one.stopped && !one.puzzles.is_empty() && one.learned > 0);
    assert_eq!(one, two);
}

/// The lower levels run AVX2 code when the CPU has it: the same search
/// (puzzles, nodes, solver calls, learned sets) as the build's own code, on
/// the grids with 14 and 8 listed 17s from 4 of a 17's clues.
#[test]
fn avx2_and_baseline_code_search_alike() {
    let mut groups = fixture_groups();
    groups.sort_by_key(|(_, v)| std::cmp::Reverse(v.len()));
    for (grid, masks) in &groups[..2] {
        let given = cells_of(masks[0])
            .take(4)
            .fold(0u128, |m, c| m | 1u128 << c);
        let uas = collect(grid, &UaOptions::default());
        let opts = SearchOptions {
            clues: 17,
            given,
            threads: 1,
            max_found: 1000,
        };
        let base = search_with(grid, &uas, &opts, &|_, _| {}, Code::Baseline);
        let auto = search_with(grid, &uas, &opts, &|_, _| {}, Code::Auto);
        assert!(base.puzzles.contains(&masks[0]) && base.nodes > 100_000);
        assert_eq!(base, auto);
    }
    eprintln!("AVX2 code used: {}", Code::Auto.uses_avx2());
}

#[test]
#[ignore = "full 17-clue search of a grid: minutes"]
fn full_search_finds_the_one_17() {
    let g =
        parse("123456789457189236689372145245798361378261954961543827512637498796824513834915672");
    let uas = collect(&g, &UaOptions::default());
    let opts = SearchOptions {
        clues: 17,
        given: 0,
        threads: 2,
        max_found: 1000,
    };
    let r = search(&g, &uas[..1500], &opts, &|_, _| {});
    assert_eq!(r.puzzles.len(), 1);
    assert_puzzle(&g, r.puzzles[0], 17);
}
