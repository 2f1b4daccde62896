//! `algoku-bench`: measures Algoku's Sudoku solver and generator against the
//! `sudoku` crate (0.8, a JCZSolve port) on tdoku's benchmark puzzle files.
//!
//! ```text
//! cargo bench -p algoku-bench -- [solve|gen|all] [options]
//!   --data DIR     puzzle directory (default: <workspace>/../shared/data/sudoku)
//!   --limit N      use at most N puzzles per file (default: all)
//!   --passes P     timings per chunk and mode; the best counts (default: 3)
//!   --gen N        number of generator seeds (default: 2000)
//!   --files A,B    only these files (names as in the data dir)
//!   --chunk N      puzzles per timed chunk (default: 128)
//!   --profile M    no timing: run one mode (ours-first, ours-upto2,
//!                  peer-first, peer-upto2) once over the files, e.g. under
//!                  `valgrind --tool=callgrind` to compare instruction counts
//!                  (`load` only loads: the baseline to subtract)
//!   --json         print JSON instead of a table
//! ```
//!
//! Solve modes, per file: first solution (ours `solve`, peer
//! `Sudoku::some_solution`) and up-to-2 solutions (ours
//! `count_solutions(p, 2)`, peer `Sudoku::solutions_count_up_to(2)`). Before
//! timing, every puzzle is cross-checked: both solvers must agree on the
//! solution count (up to 2) and every first solution must be a valid
//! completion of its puzzle; any mismatch is an error (exit status 1).
//!
//! Generator: minimal unique puzzles per second, ours (`generate_puzzle` with
//! `minimal: true`) vs the peer's (`Sudoku::generate` for 180° symmetry,
//! `Sudoku::generate_from(Sudoku::generate_solved())` without), over N seeds.
//! Ratio = ours / peer (higher is better for us).
//!
//! Timing: the inputs are cut into chunks (`--chunk`, default 128 puzzles;
//! 8 generator seeds). Each pass sweeps all chunks, timing every chunk once per mode with ours and
//! the peer's runs interleaved chunk by chunk, starting at another run in
//! each pass (none always meets a chunk cold); the best time of each
//! (chunk, mode) over the passes is kept and a rate is items / sum of those
//! minima. The timings of one chunk are a whole pass apart, so a slow spell
//! of the machine (other processes, a busy neighbour) rarely spoils all of
//! them, and both solvers always see the same conditions. `--chunk 1000000`
//! times whole files instead (each solver runs a whole file in a row).
//! On a shared machine ratios still vary by a few percent between runs.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use algoku_bench::{best_of_passes, load_puzzles, name_list, FILES};
use algoku_sudoku::generator::{generate_puzzle, is_minimal, PuzzleOptions};
use algoku_sudoku::{count_solutions, solve, Grid};
use sudoku::Sudoku;

struct Options {
    solve: bool,
    gen: bool,
    data: PathBuf,
    limit: usize,
    passes: usize,
    gen_count: u64,
    files: Vec<String>,
    json: bool,
    chunk: usize,
    profile: Option<String>,
}

const USAGE: &str = "usage: algoku-bench [solve|gen|all] [--data DIR] [--limit N] [--passes P] [--gen N] [--files A,B] [--chunk N] [--json] [--profile ours-first|ours-upto2|peer-first|peer-upto2|load]";

fn parse_args() -> Result<Options, String> {
    let default_data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/sudoku");
    let mut o = Options {
        solve: true,
        gen: true,
        data: default_data,
        limit: usize::MAX,
        passes: 3,
        gen_count: 2000,
        files: FILES.iter().map(|s| s.to_string()).collect(),
        json: false,
        chunk: CHUNK,
        profile: None,
    };
    let mut args = std::env::args().skip(1);
    fn value<T: std::str::FromStr>(flag: &str, v: Option<String>) -> Result<T, String> {
        let v = v.ok_or_else(|| format!("{flag} needs a value\n{USAGE}"))?;
        v.parse()
            .map_err(|_| format!("{flag}: cannot parse {v:?}\n{USAGE}"))
    }
    while let Some(a) = args.next() {
        match a.as_str() {
            "solve" => (o.solve, o.gen) = (true, false),
            "gen" => (o.solve, o.gen) = (false, true),
            "all" => (o.solve, o.gen) = (true, true),
            "--data" => o.data = PathBuf::from(value::<String>("--data", args.next())?),
            "--limit" => o.limit = value("--limit", args.next())?,
            "--passes" => o.passes = value::<usize>("--passes", args.next())?.max(1),
            "--gen" => o.gen_count = value("--gen", args.next())?,
            "--files" => o.files = name_list(&value::<String>("--files", args.next())?),
            "--json" => o.json = true,
            "--profile" => o.profile = Some(value("--profile", args.next())?),
            "--chunk" => o.chunk = value::<usize>("--chunk", args.next())?.max(1),
            // `cargo bench` passes this to every harness-less bench target.
            "--bench" => {}
            "-h" | "--help" => {
                println!("{USAGE}");
                std::process::exit(0);
            }
            other => return Err(format!("unknown argument {other:?}\n{USAGE}")),
        }
    }
    Ok(o)
}

fn peer_of(g: &Grid) -> Result<Sudoku, String> {
    Sudoku::from_bytes(*g.cells()).map_err(|_| format!("peer rejected {g}"))
}

/// One measured row of the report.
struct Row {
    file: String,
    mode: &'static str,
    count: usize,
    ours: f64,
    peer: f64,
}

/// Default number of puzzles per timed chunk in the solve benchmark.
const CHUNK: usize = 128;

/// Seeds per timed chunk in the generator benchmark.
const GEN_CHUNK: usize = 8;

/// Wall time of one call of `f`.
fn time(f: impl FnOnce()) -> Duration {
    let t = Instant::now();
    f();
    t.elapsed()
}

/// Checks that ours and the peer agree on `puzzles`; returns the problems.
fn cross_check(file: &str, puzzles: &[Grid], peers: &[Sudoku]) -> Vec<String> {
    let mut errors = Vec::new();
    for (i, (g, p)) in puzzles.iter().zip(peers).enumerate() {
        let ours = count_solutions(g, 2);
        let theirs = p.solutions_count_up_to(2);
        if ours != theirs {
            errors.push(format!(
                "{file} #{i}: solution counts differ (ours {ours}, peer {theirs}): {g}"
            ));
        }
        match solve(g) {
            Some(s) if s.check_solution().is_err() || !g.is_subset_of(&s) => {
                errors.push(format!("{file} #{i}: our solution is invalid: {s}"));
            }
            Some(_) => {}
            None if theirs > 0 => errors.push(format!("{file} #{i}: we found no solution: {g}")),
            None => {}
        }
        if let Some(s) = p.some_solution() {
            let bytes = s.to_bytes();
            let ok = Grid::from_cells(bytes)
                .map(|s| s.check_solution().is_ok() && g.is_subset_of(&s))
                .unwrap_or(false);
            if !ok {
                errors.push(format!("{file} #{i}: peer solution is invalid"));
            }
        }
    }
    errors
}

/// `--profile`: runs one solver mode once over the selected files, untimed.
fn profile(o: &Options, mode: &str) -> Result<(), String> {
    let mut total = 0usize;
    for file in &o.files {
        let puzzles = load_puzzles(&o.data.join(file), o.limit)?;
        let peers = puzzles.iter().map(peer_of).collect::<Result<Vec<_>, _>>()?;
        match mode {
            "ours-first" => total += puzzles.iter().filter(|g| solve(g).is_some()).count(),
            "ours-upto2" => total += puzzles.iter().map(|g| count_solutions(g, 2)).sum::<usize>(),
            "peer-first" => total += peers.iter().filter(|p| p.some_solution().is_some()).count(),
            "peer-upto2" => {
                total += peers
                    .iter()
                    .map(|p| p.solutions_count_up_to(2))
                    .sum::<usize>()
            }
            "load" => total += puzzles.len() + peers.len(),
            _ => return Err(format!("unknown --profile mode {mode:?}\n{USAGE}")),
        }
    }
    println!("{mode}: {total}");
    Ok(())
}

fn bench_solve(o: &Options, rows: &mut Vec<Row>) -> Result<(), String> {
    if !o.data.is_dir() {
        return Err(format!(
            "puzzle data directory {} is missing (pass --data DIR; it should hold {})",
            o.data.display(),
            FILES.join(", ")
        ));
    }
    for file in &o.files {
        let puzzles = load_puzzles(&o.data.join(file), o.limit)?;
        let peers = puzzles.iter().map(peer_of).collect::<Result<Vec<_>, _>>()?;
        let errors = cross_check(file, &puzzles, &peers);
        if !errors.is_empty() {
            for e in errors.iter().take(20) {
                eprintln!("error: {e}");
            }
            return Err(format!("{file}: {} cross-check failures", errors.len()));
        }
        let n = puzzles.len();
        // Noise-robust timing ([`best_of_passes`]): ours-first,
        // peer-first, ours-upto2, peer-upto2 per chunk.
        let chunks: Vec<(&[Grid], &[Sudoku])> =
            puzzles.chunks(o.chunk).zip(peers.chunks(o.chunk)).collect();
        let best = best_of_passes(chunks.len(), o.passes, |i, k| {
            let (chunk, peer_chunk) = chunks[i];
            Some(match k {
                0 => time(|| {
                    for g in chunk {
                        black_box(solve(black_box(g)));
                    }
                }),
                1 => time(|| {
                    for p in peer_chunk {
                        black_box(black_box(*p).some_solution());
                    }
                }),
                2 => time(|| {
                    for g in chunk {
                        black_box(count_solutions(black_box(g), 2));
                    }
                }),
                _ => time(|| {
                    for p in peer_chunk {
                        black_box(black_box(*p).solutions_count_up_to(2));
                    }
                }),
            })
        });
        let per_s = |d: Duration| n as f64 / d.as_secs_f64().max(1e-9);
        let (ours1, peer1, ours2, peer2) = (
            per_s(best[0]),
            per_s(best[1]),
            per_s(best[2]),
            per_s(best[3]),
        );
        rows.push(Row {
            file: file.clone(),
            mode: "first",
            count: n,
            ours: ours1,
            peer: peer1,
        });
        rows.push(Row {
            file: file.clone(),
            mode: "upto2",
            count: n,
            ours: ours2,
            peer: peer2,
        });
        if !o.json {
            eprintln!("done: {file} ({n} puzzles)");
        }
    }
    Ok(())
}

fn bench_gen(o: &Options, rows: &mut Vec<Row>) -> Result<(), String> {
    let n = o.gen_count;
    for symmetric in [true, false] {
        // Sanity: ours are unique and minimal.
        for seed in 0..n.min(50) {
            let p = generate_puzzle(&PuzzleOptions {
                seed,
                symmetric,
                minimal: true,
                target_clues: None,
            });
            if count_solutions(&p.puzzle, 2) != 1 || (!symmetric && !is_minimal(&p.puzzle)) {
                return Err(format!(
                    "generator seed {seed}: not unique/minimal: {}",
                    p.puzzle
                ));
            }
        }
        // Same noise-robust scheme as the solve benchmark: chunks of seeds,
        // one timing per pass, chunk and side, best per (chunk, side) kept.
        let seeds: Vec<u64> = (0..n).collect();
        let mut chunk_best = vec![[Duration::MAX; 2]; seeds.len().div_ceil(GEN_CHUNK)];
        let mut clues_ours = 0usize;
        let mut clues_peer = 0usize;
        for pass in 0..o.passes {
            for (chunk, cb) in seeds.chunks(GEN_CHUNK).zip(chunk_best.iter_mut()) {
                // Which side goes first alternates from pass to pass.
                for r in 0..2 {
                    if (r + pass) % 2 == 0 {
                        cb[0] = cb[0].min(time(|| {
                            for &seed in chunk {
                                let p = generate_puzzle(&PuzzleOptions {
                                    seed,
                                    symmetric,
                                    minimal: true,
                                    target_clues: None,
                                });
                                if pass == 0 {
                                    clues_ours += p.clues;
                                }
                                black_box(p);
                            }
                        }));
                    } else {
                        cb[1] = cb[1].min(time(|| {
                            for _ in chunk {
                                let s = if symmetric {
                                    Sudoku::generate()
                                } else {
                                    Sudoku::generate_from(Sudoku::generate_solved())
                                };
                                if pass == 0 {
                                    clues_peer += s.n_clues() as usize;
                                }
                                black_box(s);
                            }
                        }));
                    }
                }
            }
        }
        let mut best = [Duration::ZERO; 2];
        for cb in &chunk_best {
            best[0] += cb[0];
            best[1] += cb[1];
        }
        let per_s = |d: Duration| n as f64 / d.as_secs_f64().max(1e-9);
        let (ours, peer) = (per_s(best[0]), per_s(best[1]));
        if !o.json {
            eprintln!(
                "gen symmetric={symmetric}: mean clues ours {:.2}, peer {:.2}",
                clues_ours as f64 / n.max(1) as f64,
                clues_peer as f64 / n.max(1) as f64
            );
        }
        rows.push(Row {
            file: "generator".to_string(),
            mode: if symmetric {
                "minimal-sym180"
            } else {
                "minimal"
            },
            count: n as usize,
            ours,
            peer,
        });
    }
    Ok(())
}

fn print(o: &Options, rows: &[Row]) {
    if o.json {
        let items: Vec<String> = rows
            .iter()
            .map(|r| {
                format!(
                    "{{\"file\":{},\"mode\":{},\"count\":{},\"ours_per_s\":{:.1},\"peer_per_s\":{:.1},\"ratio\":{:.4}}}",
                    serde_json::Value::from(r.file.as_str()),
                    serde_json::Value::from(r.mode),
                    r.count,
                    r.ours,
                    r.peer,
                    r.ours / r.peer.max(1e-9)
                )
            })
            .collect();
        println!(
            "{{\"peer\":\"sudoku 0.8\",\"passes\":{},\"rows\":[{}]}}",
            o.passes,
            items.join(",")
        );
        return;
    }
    println!(
        "{:<34} {:<15} {:>7} {:>12} {:>12} {:>7}",
        "file", "mode", "n", "ours/s", "sudoku/s", "ratio"
    );
    for r in rows {
        println!(
            "{:<34} {:<15} {:>7} {:>12.0} {:>12.0} {:>7.2}",
            r.file,
            r.mode,
            r.count,
            r.ours,
            r.peer,
            r.ours / r.peer.max(1e-9)
        );
    }
}

fn main() -> ExitCode {
    let o = match parse_args() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    if let Some(mode) = &o.profile {
        return match profile(&o, mode) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::FAILURE
            }
        };
    }
    let mut rows = Vec::new();
    let result = (|| {
        if o.solve {
            bench_solve(&o, &mut rows)?;
        }
        if o.gen {
            bench_gen(&o, &mut rows)?;
        }
        Ok::<(), String>(())
    })();
    if !rows.is_empty() || result.is_ok() {
        print(&o, &rows);
    }
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
