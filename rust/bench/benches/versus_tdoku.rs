//! Algoku's solver against tdoku, on randomly transformed copies of tdoku's
//! benchmark files, both solvers in this one process.
//!
//! ```text
//! cargo bench -p algoku-bench --bench versus_tdoku -- [options]
//!   --tdoku LIB      tdoku's shared library (exports TdokuSolverDpllTriadSimd),
//!                    built outside this repository; default $TDOKU_LIB; without
//!                    one only our side is measured
//!   --data DIR       puzzle directory (default: <workspace>/../shared/data/sudoku)
//!   --files A,B      only these files (names as in the data dir)
//!   --limit N        at most N puzzles per file (default: all)
//!   --seed S         transform seed (default 1); `--file-order` keeps the files as they are
//!   --passes P       timings per chunk and mode; the best counts (default: 4; a multiple of 4, see below)
//!   --chunk N        puzzles per timed chunk (default: 64)
//!   --json           one JSON object instead of the table
//!   --wall           time with the wall clock instead of the thread's CPU time
//!   --fresh N        also N fresh puzzles per forum-hardest file (default 0):
//!                    neighbours that no data file holds, drawn with --seed
//!   --profile M      no timing, no cross-check: run one mode (ours-first,
//!                    ours-upto2, tdoku-first, tdoku-upto2; `load` only loads)
//!                    once over the transformed files, e.g. under `valgrind
//!                    --tool=callgrind` to compare instruction counts
//! ```
//!
//! tdoku is t-dillon/tdoku; its fastest build is clang -O3 -march=native, e.g.
//! `clang++ -std=c++14 -O3 -march=native -fno-exceptions -fno-rtti -fpic -shared
//! src/solver_dpll_triad_simd.cc src/util.cc -o libtdoku.so` in its checkout. It is
//! loaded with `dlopen` so nothing of it is built or committed here.
//!
//! Every puzzle of a file is first replaced by a random isomorph
//! ([`algoku_sudoku::transform::isomorphs`] with the seed: digits relabelled,
//! rows within bands, bands, columns within stacks and stacks permuted, maybe
//! transposed), as tdoku's own benchmark does: a file's order can flatter a
//! search whose choices depend on orientation. Both solvers get the same
//! copies. Before timing, both solve every copy: the solution counts (up to 2)
//! must agree and every first solution must be a valid completion (else exit 1).
//!
//! Modes: `first` (ours `solve`, tdoku limit 1 with the solution extracted)
//! and `upto2` (ours `count_solutions(p, 2)`, tdoku limit 2). Timing: puzzles
//! in chunks; each pass times every chunk in the four (solver, mode) runs
//! interleaved A B A B, pass p starting at run p mod 4 (the run that comes
//! first in a chunk meets its puzzles and the other solver's code cold: with a
//! fixed order one run always paid that, see docs/benchmarks.md); the
//! best time per (chunk, run) over the passes is kept, so `--passes` is best a
//! multiple of 4 (default 4);
//! rate = puzzles / sum of those minima. Times are this thread's CPU time
//! (`CLOCK_THREAD_CPUTIME_ID`; `--wall` for wall time), which on a shared
//! machine leaves out the time spent waiting for a core; caches are still
//! shared, so ratios of one run are comparable, absolute rates less so.
//!
//! Fresh puzzles (`--fresh N`): so that no result depends on tuning to a
//! file, the bench also makes N puzzles per forum-hardest file that no data
//! file contains: a puzzle of the file with one given removed and one blank
//! cell of its solution given instead (same clue count, same neighbourhood of
//! difficulty), kept when the solution stays unique and the puzzle is new.
//! Rows `fresh <file>`; they are transformed like the files.
//!
//! Search effort, per puzzle: `branches` is the number of branch points (our
//! cells guessed on; tdoku's `num_guesses`, one per binary branch), the
//! measure both count alike; `ns/branch` is the time per puzzle divided by it.
//! Ours also reports `alts`, the alternatives tried (`SolveResult::guesses`).

use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::fmt::Write as _;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use algoku_bench::{best_of_passes, load_puzzles, name_list, FILES};
use algoku_sudoku::transform::isomorphs;
use algoku_sudoku::{count_solutions, solve, Grid, Solver, SplitMix64};

const USAGE: &str = "usage: versus_tdoku [--tdoku LIB] [--data DIR] [--files A,B] [--limit N] [--seed S | --file-order] [--passes P] [--chunk N] [--fresh N] [--wall] [--json] [--profile ours-first|ours-upto2|tdoku-first|tdoku-upto2|load]";

struct Options {
    tdoku: Option<PathBuf>,
    data: PathBuf,
    files: Vec<String>,
    limit: usize,
    seed: Option<u64>,
    passes: usize,
    chunk: usize,
    json: bool,
    profile: Option<String>,
    cpu_clock: bool,
    fresh: usize,
}

fn parse_args() -> Result<Options, String> {
    let mut o = Options {
        tdoku: std::env::var_os("TDOKU_LIB").map(PathBuf::from),
        data: Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/sudoku"),
        files: FILES.iter().map(|s| s.to_string()).collect(),
        limit: usize::MAX,
        seed: Some(1),
        passes: 4,
        chunk: 64,
        json: false,
        profile: None,
        cpu_clock: true,
        fresh: 0,
    };
    fn value<T: std::str::FromStr>(flag: &str, v: Option<String>) -> Result<T, String> {
        let v = v.ok_or_else(|| format!("{flag} needs a value\n{USAGE}"))?;
        v.parse()
            .map_err(|_| format!("{flag}: cannot parse {v:?}\n{USAGE}"))
    }
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--tdoku" => o.tdoku = Some(PathBuf::from(value::<String>("--tdoku", args.next())?)),
            "--data" => o.data = PathBuf::from(value::<String>("--data", args.next())?),
            "--files" => o.files = name_list(&value::<String>("--files", args.next())?),
            "--limit" => o.limit = value("--limit", args.next())?,
            "--seed" => o.seed = Some(value("--seed", args.next())?),
            "--file-order" => o.seed = None,
            "--passes" => o.passes = value::<usize>("--passes", args.next())?.max(1),
            "--chunk" => o.chunk = value::<usize>("--chunk", args.next())?.max(1),
            "--json" => o.json = true,
            "--wall" => o.cpu_clock = false,
            "--fresh" => o.fresh = value("--fresh", args.next())?,
            "--profile" => o.profile = Some(value("--profile", args.next())?),
            "--bench" => {} // passed by `cargo bench`
            "-h" | "--help" => {
                println!("{USAGE}");
                std::process::exit(0);
            }
            other => return Err(format!("unknown argument {other:?}\n{USAGE}")),
        }
    }
    Ok(o)
}

/// `TdokuSolverDpllTriadSimd(input, limit, configuration, solution, num_guesses)`.
type TdokuFn = unsafe extern "C" fn(*const c_char, usize, u32, *mut c_char, *mut usize) -> usize;

extern "C" {
    fn dlopen(filename: *const c_char, flag: c_int) -> *mut c_void;
    fn dlsym(handle: *mut c_void, symbol: *const c_char) -> *mut c_void;
    fn dlerror() -> *const c_char;
}

/// tdoku loaded from a shared library (kept loaded for the process's life).
struct Tdoku {
    solve: TdokuFn,
}

impl Tdoku {
    fn load(path: &Path) -> Result<Tdoku, String> {
        let c = CString::new(path.as_os_str().as_encoded_bytes())
            .map_err(|_| format!("bad library path {}", path.display()))?;
        // SAFETY: dlopen/dlsym are called with valid NUL-terminated strings;
        // the symbol's C signature is the one declared in tdoku's
        // include/tdoku.h, which `TdokuFn` mirrors.
        unsafe {
            let h = dlopen(c.as_ptr(), 2 /* RTLD_NOW */);
            if h.is_null() {
                let e = dlerror();
                let msg = if e.is_null() {
                    String::from("unknown error")
                } else {
                    CStr::from_ptr(e).to_string_lossy().into_owned()
                };
                return Err(format!("cannot load tdoku from {}: {msg}", path.display()));
            }
            let f = dlsym(h, c"TdokuSolverDpllTriadSimd".as_ptr());
            if f.is_null() {
                return Err(format!(
                    "{} does not export TdokuSolverDpllTriadSimd",
                    path.display()
                ));
            }
            Ok(Tdoku {
                solve: std::mem::transmute::<*mut c_void, TdokuFn>(f),
            })
        }
    }

    /// Solves `input` (81 characters, '.' for blanks, then a NUL) up to
    /// `limit` solutions; returns (solutions, guesses). With limit 1 the
    /// solution is written to `out`.
    #[inline(always)]
    fn run(&self, input: &[u8; 82], limit: usize, out: &mut [u8; 96]) -> (usize, usize) {
        let mut guesses = 0usize;
        // SAFETY: `input` is NUL-terminated after 81 cells (so tdoku reads it
        // as a vanilla puzzle), `out` has room for the 81-character solution.
        let n = unsafe {
            (self.solve)(
                input.as_ptr().cast(),
                limit,
                0,
                out.as_mut_ptr().cast(),
                &mut guesses,
            )
        };
        (n, guesses)
    }
}

fn tdoku_input(g: &Grid) -> [u8; 82] {
    let mut s = [0u8; 82];
    for (c, &v) in s.iter_mut().zip(g.cells()) {
        *c = if v == 0 { b'.' } else { b'0' + v };
    }
    s
}

#[repr(C)]
struct Timespec {
    tv_sec: i64,
    tv_nsec: i64,
}

extern "C" {
    fn clock_gettime(clock: c_int, tp: *mut Timespec) -> c_int;
}

/// CPU time of this thread (Linux `CLOCK_THREAD_CPUTIME_ID`): on a shared
/// machine it leaves out the time the thread waits while others run.
fn thread_cpu_time() -> Duration {
    let mut t = Timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec to write; clock 3 is
    // CLOCK_THREAD_CPUTIME_ID on Linux.
    let rc = unsafe { clock_gettime(3, &mut t) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID) failed");
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

/// The time `f` takes: this thread's CPU time (default) or wall time.
fn time(cpu: bool, f: impl FnOnce()) -> Duration {
    if cpu {
        let t = thread_cpu_time();
        f();
        thread_cpu_time().saturating_sub(t)
    } else {
        let t = Instant::now();
        f();
        t.elapsed()
    }
}

/// One (file, mode) row.
struct Row {
    file: String,
    mode: &'static str,
    n: usize,
    ours: f64,
    tdoku: Option<f64>,
    ours_branches: f64,
    ours_alts: f64,
    tdoku_branches: Option<f64>,
}

fn bench_file(o: &Options, td: Option<&Tdoku>, file: &str) -> Result<[Row; 2], String> {
    let raw = load_puzzles(&o.data.join(file), o.limit)?;
    bench_puzzles(o, td, file, raw)
}

/// Fresh puzzles near the puzzles of `file` (see the module docs): `n` of
/// them, none in any data file of `o.files`, drawn with `seed`.
fn fresh_neighbours(o: &Options, file: &str, n: usize, seed: u64) -> Result<Vec<Grid>, String> {
    let raw = load_puzzles(&o.data.join(file), usize::MAX)?;
    let mut known = std::collections::HashSet::new();
    for f in FILES {
        if let Ok(all) = load_puzzles(&o.data.join(f), usize::MAX) {
            known.extend(all);
        }
    }
    let mut rng = SplitMix64::new(seed ^ 0x6672_6573_6821);
    let mut fresh = Vec::with_capacity(n);
    let mut tries = 0usize;
    while fresh.len() < n && !raw.is_empty() {
        tries += 1;
        if tries > 1000 * n.max(1) {
            return Err(format!(
                "{file}: only {} fresh neighbours in {tries} tries",
                fresh.len()
            ));
        }
        let p = raw[rng.below(raw.len() as u64) as usize];
        let Some(solution) = solve(&p) else { continue };
        let givens: Vec<usize> = (0..81).filter(|&i| p.cells()[i] != 0).collect();
        let blanks: Vec<usize> = (0..81).filter(|&i| p.cells()[i] == 0).collect();
        let mut q = p;
        let out = givens[rng.below(givens.len() as u64) as usize];
        let into = blanks[rng.below(blanks.len() as u64) as usize];
        q.set(out, 0).map_err(|e| e.to_string())?;
        q.set(into, solution.cells()[into])
            .map_err(|e| e.to_string())?;
        if count_solutions(&q, 2) == 1 && known.insert(q) {
            fresh.push(q);
        }
    }
    Ok(fresh)
}

fn bench_puzzles(
    o: &Options,
    td: Option<&Tdoku>,
    file: &str,
    raw: Vec<Grid>,
) -> Result<[Row; 2], String> {
    let puzzles = match o.seed {
        Some(seed) => isomorphs(&raw, seed),
        None => raw,
    };
    let inputs: Vec<[u8; 82]> = puzzles.iter().map(tdoku_input).collect();
    let n = puzzles.len();
    // Effort and cross-check.
    let mut solver = Solver::new();
    let (mut ob, mut oa, mut tb) = ([0u64; 2], [0u64; 2], [0u64; 2]);
    let mut errors = Vec::new();
    let mut out = [0u8; 96];
    for (i, (g, inp)) in puzzles.iter().zip(&inputs).enumerate() {
        for (k, limit) in [1usize, 2].into_iter().enumerate() {
            let r = solver.solve_with_stats(g, limit);
            ob[k] += r.branches;
            oa[k] += r.guesses;
            if let Some(first) = r.first {
                if first.check_solution().is_err() || !g.is_subset_of(&first) {
                    errors.push(format!("{file} #{i}: our solution is invalid: {g}"));
                }
            }
            if let Some(t) = td {
                let (count, guesses) = t.run(inp, limit, &mut out);
                tb[k] += guesses as u64;
                if count != r.solutions {
                    errors.push(format!(
                        "{file} #{i} limit {limit}: ours {} solutions, tdoku {count}: {g}",
                        r.solutions
                    ));
                }
                if limit == 1 && count == 1 {
                    let ok = std::str::from_utf8(&out[..81])
                        .ok()
                        .and_then(|s| Grid::parse(s).ok())
                        .is_some_and(|s| s.check_solution().is_ok() && g.is_subset_of(&s));
                    if !ok {
                        errors.push(format!("{file} #{i}: tdoku's solution is invalid: {g}"));
                    }
                }
            }
        }
    }
    if !errors.is_empty() {
        for e in errors.iter().take(20) {
            eprintln!("error: {e}");
        }
        return Err(format!("{file}: {} cross-check failures", errors.len()));
    }
    // Timing: ours-first, tdoku-first, ours-upto2, tdoku-upto2 per chunk
    // (without tdoku its totals stay at Duration::MAX, unused).
    let chunks: Vec<(&[Grid], &[[u8; 82]])> = puzzles
        .chunks(o.chunk)
        .zip(inputs.chunks(o.chunk))
        .collect();
    let total = best_of_passes(chunks.len(), o.passes, |i, k| {
        let (chunk, inp) = chunks[i];
        match (k, td) {
            (0, _) => Some(time(o.cpu_clock, || {
                for g in chunk {
                    black_box(solve(black_box(g)));
                }
            })),
            (1, Some(t)) => Some(time(o.cpu_clock, || {
                for s in inp {
                    black_box(t.run(black_box(s), 1, &mut out));
                }
            })),
            (2, _) => Some(time(o.cpu_clock, || {
                for g in chunk {
                    black_box(count_solutions(black_box(g), 2));
                }
            })),
            (3, Some(t)) => Some(time(o.cpu_clock, || {
                for s in inp {
                    black_box(t.run(black_box(s), 2, &mut out));
                }
            })),
            _ => None,
        }
    });
    let rate = |d: Duration| n as f64 / d.as_secs_f64().max(1e-12);
    let per = |x: u64| x as f64 / n.max(1) as f64;
    let row = |k: usize, mode: &'static str| Row {
        file: file.to_string(),
        mode,
        n,
        ours: rate(total[2 * k]),
        tdoku: td.map(|_| rate(total[2 * k + 1])),
        ours_branches: per(ob[k]),
        ours_alts: per(oa[k]),
        tdoku_branches: td.map(|_| per(tb[k])),
    };
    Ok([row(0, "first"), row(1, "upto2")])
}

/// `--profile`: one mode once over the files, untimed.
fn profile(o: &Options, td: Option<&Tdoku>, mode: &str) -> Result<(), String> {
    let mut total = 0usize;
    let mut out = [0u8; 96];
    for file in &o.files {
        let raw = load_puzzles(&o.data.join(file), o.limit)?;
        let puzzles = match o.seed {
            Some(seed) => isomorphs(&raw, seed),
            None => raw,
        };
        let inputs: Vec<[u8; 82]> = puzzles.iter().map(tdoku_input).collect();
        let need_td = || td.ok_or_else(|| format!("--profile {mode} needs --tdoku LIB"));
        match mode {
            "ours-first" => total += puzzles.iter().filter(|g| solve(g).is_some()).count(),
            "ours-upto2" => total += puzzles.iter().map(|g| count_solutions(g, 2)).sum::<usize>(),
            "tdoku-first" => {
                let t = need_td()?;
                total += inputs
                    .iter()
                    .map(|s| t.run(s, 1, &mut out).0)
                    .sum::<usize>();
            }
            "tdoku-upto2" => {
                let t = need_td()?;
                total += inputs
                    .iter()
                    .map(|s| t.run(s, 2, &mut out).0)
                    .sum::<usize>();
            }
            "load" => total += puzzles.len() + inputs.len(),
            _ => return Err(format!("unknown --profile mode {mode:?}\n{USAGE}")),
        }
    }
    println!("{mode}: {total}");
    Ok(())
}

fn ns_per_branch(rate: f64, branches: f64) -> f64 {
    1e9 / rate / branches.max(1.0)
}

fn print(o: &Options, rows: &[Row]) {
    let seed = o.seed.map_or("null".to_string(), |s| s.to_string());
    if o.json {
        let mut items = Vec::new();
        for r in rows {
            let mut s = format!(
                "{{\"file\":\"{}\",\"mode\":\"{}\",\"count\":{},\"ours_per_s\":{:.1},\"ours_branches\":{:.2},\"ours_alts\":{:.2}",
                r.file, r.mode, r.n, r.ours, r.ours_branches, r.ours_alts
            );
            if let (Some(t), Some(tb)) = (r.tdoku, r.tdoku_branches) {
                let _ = write!(
                    s,
                    ",\"tdoku_per_s\":{t:.1},\"tdoku_branches\":{tb:.2},\"ratio\":{:.4}",
                    r.ours / t
                );
            }
            s.push('}');
            items.push(s);
        }
        println!(
            "{{\"peer\":\"tdoku\",\"seed\":{seed},\"passes\":{},\"clock\":\"{}\",\"rows\":[{}]}}",
            o.passes,
            if o.cpu_clock { "thread-cpu" } else { "wall" },
            items.join(",")
        );
        return;
    }
    println!(
        "transform seed: {}; clock: {}; ratio = ours / tdoku; br = branch points per puzzle",
        o.seed
            .map_or("none (file order)".to_string(), |s| s.to_string()),
        if o.cpu_clock {
            "thread CPU time"
        } else {
            "wall"
        }
    );
    println!(
        "{:<32} {:<5} {:>6} {:>10} {:>10} {:>6} {:>9} {:>9} {:>8} {:>9} {:>9}",
        "file",
        "mode",
        "n",
        "ours/s",
        "tdoku/s",
        "ratio",
        "br ours",
        "br tdoku",
        "alts",
        "ns/br us",
        "ns/br td"
    );
    for r in rows {
        let (t, ratio, tb, nst) = match (r.tdoku, r.tdoku_branches) {
            (Some(t), Some(tb)) => (
                format!("{t:.0}"),
                format!("{:.2}", r.ours / t),
                format!("{tb:.2}"),
                format!("{:.0}", ns_per_branch(t, tb)),
            ),
            _ => ("-".into(), "-".into(), "-".into(), "-".into()),
        };
        println!(
            "{:<32} {:<5} {:>6} {:>10.0} {:>10} {:>6} {:>9.2} {:>9} {:>8.2} {:>9.0} {:>9}",
            r.file,
            r.mode,
            r.n,
            r.ours,
            t,
            ratio,
            r.ours_branches,
            tb,
            r.ours_alts,
            ns_per_branch(r.ours, r.ours_branches),
            nst
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
    let td = match o.tdoku.as_deref().map(Tdoku::load).transpose() {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    if let Some(mode) = &o.profile {
        return match profile(&o, td.as_ref(), mode) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::FAILURE
            }
        };
    }
    if td.is_none() && !o.json {
        eprintln!("note: no --tdoku LIB (or $TDOKU_LIB): measuring our solver only");
    }
    if !o.data.is_dir() {
        eprintln!(
            "error: puzzle data directory {} is missing (pass --data DIR)",
            o.data.display()
        );
        return ExitCode::from(2);
    }
    let mut rows = Vec::new();
    for file in &o.files {
        match bench_file(&o, td.as_ref(), file) {
            Ok(r) => {
                rows.extend(r);
                if !o.json {
                    eprintln!("done: {file}");
                }
            }
            Err(e) => {
                print(&o, &rows);
                eprintln!("error: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    for file in FILES.iter().filter(|f| f.contains("forum_hardest")) {
        if o.fresh == 0 {
            break;
        }
        let name = format!("fresh {file}");
        let result = fresh_neighbours(&o, file, o.fresh, o.seed.unwrap_or(1))
            .and_then(|p| bench_puzzles(&o, td.as_ref(), &name, p));
        match result {
            Ok(r) => {
                rows.extend(r);
                if !o.json {
                    eprintln!("done: {name}");
                }
            }
            Err(e) => {
                print(&o, &rows);
                eprintln!("error: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    print(&o, &rows);
    ExitCode::SUCCESS
}
