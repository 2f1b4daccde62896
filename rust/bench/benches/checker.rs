//! `checker`: the grid checker's N-clue search (algoku-checker) against
//! dobrichev's GridChecker, on the anchor grids of
//! `../shared/anchors/gridchecker.md`, in the same run.
//!
//! ```text
//! cargo bench -p algoku-bench --bench checker -- [options]
//!   --clues N       16 or 17 (default 16)
//!   --grids A,B     grids to search (default: the anchor grids for N, the
//!                   17-clue list without its 1357 s grid)
//!   --random R      R random solved grids instead (`solution_grid(S + i)`,
//!                   i < R: the same grids for the same seed)
//!   --seed S        first seed of --random (default 1)
//!   --limit K       only the first K grids
//!   --cpu           CPU seconds (user + system) instead of wall seconds on
//!                   both sides: ours from this process, GridChecker's as a
//!                   waited-for child (steadier on a shared machine; with
//!                   two threads the CPU time is the work, not the speed)
//!   --threads T,U   our thread counts (default 1,2)
//!   --reps R        R rounds per grid (default 1); each figure is the
//!                   median of its R runs, and the rounds alternate which
//!                   side runs first (for grids under a second, where one
//!                   run's noise decides a ratio)
//!   --peer PATH     GridChecker binary (default /work/peers/gridchecker/gridchecker
//!                   if it exists; built outside the repo, never committed)
//! ```
//!
//! Per grid: our seconds (UA collection + search, as `algoku clues`) for each
//! thread count, GridChecker's wall seconds for `gridchecker --scan
//! --fastscan --numclues N` (one thread, grid on stdin), the puzzles found by
//! both (they must agree: a mismatch is reported and the exit status is 1)
//! and the ratios peer / ours per thread count (above 1: we are faster);
//! with two or more thread counts, the last column is our scaling from the
//! first to the last (its seconds / the last's).
//! Ours and GridChecker run one after the other on each grid, so a change
//! of machine load hits both.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, ExitCode, Stdio};
use std::time::Instant;

use algoku_bench::{arg_value, bench_args, children_cpu, self_cpu, ANCHORS_16};
use algoku_checker::{search, search_sets, with_threads, SearchOptions};
use algoku_sudoku::generator::solution_grid;
use algoku_sudoku::Grid;

/// The 17-clue anchor grids, quickest first (the 1357 s grid left out).
const GRIDS17: [&str; 8] = [
    "123456789457189236689372145245798361378261954961543827512637498796824513834915672",
    "123456789457189236698723145274561398519837624836942571361294857745318962982675413",
    "329751846754826931861934527216378495578649312943215768482563179197482653635197284",
    "962573418587164239341289576235718964819645327674932185426851793793426851158397642",
    "123456789456789123789123456214368597867945231935217864348672915591834672672591348",
    "873569241625134987149278356931857624782496513456321798598713462364982175217645839",
    "123456789456789132879231564218697345647523918935814627362945871581372496794168253",
    "123456789456789123798231645281367594534912867679845312345628971817594236962173458",
];

/// Seconds of wall time, or of this process's CPU time with `cpu`.
struct Clock {
    cpu: bool,
    wall: Instant,
    own: f64,
    children: f64,
}

impl Clock {
    fn start(cpu: bool) -> Clock {
        Clock {
            cpu,
            wall: Instant::now(),
            own: self_cpu(),
            children: children_cpu(),
        }
    }

    fn own(&self) -> f64 {
        if self.cpu {
            self_cpu() - self.own
        } else {
            self.wall.elapsed().as_secs_f64()
        }
    }

    fn children(&self) -> f64 {
        if self.cpu {
            children_cpu() - self.children
        } else {
            self.wall.elapsed().as_secs_f64()
        }
    }
}

fn ours(grid: &str, clues: usize, threads: usize, cpu: bool) -> (f64, usize) {
    let cells = *Grid::parse(grid).expect("a solved grid").cells();
    let clock = Clock::start(cpu);
    let opts = SearchOptions {
        clues,
        given: 0,
        threads,
        max_found: 1_000_000,
    };
    // UA collection and search on `threads` threads, as `algoku clues`.
    let r = with_threads(threads, || {
        search(&cells, &search_sets(&cells, clues), &opts, &|_, _| {})
    });
    (clock.own(), r.puzzles.len())
}

fn peer(bin: &PathBuf, grid: &str, clues: usize, cpu: bool) -> Option<(f64, usize)> {
    let clock = Clock::start(cpu);
    let mut child = Command::new(bin)
        .args(["--scan", "--fastscan", "--numclues", &clues.to_string()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    child
        .stdin
        .take()?
        .write_all(format!("{grid}\n").as_bytes())
        .ok()?;
    let out = child.wait_with_output().ok()?;
    let secs = clock.children();
    let text = String::from_utf8_lossy(&out.stdout);
    // GridChecker prints each puzzle found as a line of 81 characters
    // (possibly followed by a tab and statistics).
    let found = text
        .lines()
        .filter(|l| {
            l.split('\t')
                .next()
                .is_some_and(|p| p.len() == 81 && p.contains('.'))
        })
        .count();
    Some((secs, found))
}

/// The median of `xs` (the mean of the middle two for an even count).
fn median(xs: &[f64]) -> f64 {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n == 0 {
        0.0
    } else if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

fn main() -> ExitCode {
    let args = bench_args();
    let get = |name: &str| arg_value(&args, name);
    let clues: usize = get("--clues").map_or(16, |s| s.parse().expect("--clues N"));
    let cpu = args.iter().any(|a| a == "--cpu");
    let seed: u64 = get("--seed").map_or(1, |s| s.parse().expect("--seed S"));
    let mut grids: Vec<String> = match (get("--grids"), get("--random")) {
        (Some(list), _) => list.split(',').map(str::to_string).collect(),
        (None, Some(r)) => (0..r.parse::<u64>().expect("--random R"))
            .map(|i| solution_grid(seed + i).to_string())
            .collect(),
        (None, None) if clues == 16 => ANCHORS_16.iter().map(|s| s.to_string()).collect(),
        (None, None) => GRIDS17.iter().map(|s| s.to_string()).collect(),
    };
    if let Some(k) = get("--limit") {
        grids.truncate(k.parse().expect("--limit K"));
    }
    let threads: Vec<usize> = get("--threads").map_or(vec![1, 2], |s| {
        s.split(',')
            .map(|t| t.parse().expect("--threads"))
            .collect()
    });
    let reps: usize = get("--reps").map_or(1, |s| s.parse::<usize>().expect("--reps R").max(1));
    let peer_bin = get("--peer").map(PathBuf::from).or_else(|| {
        let p = PathBuf::from("/work/peers/gridchecker/gridchecker");
        p.exists().then_some(p)
    });
    let unit = if cpu { "CPU s" } else { "s" };
    let mut head = String::from("grid | found");
    for t in &threads {
        head.push_str(&format!(" | ours {t}T {unit}"));
    }
    head.push_str(&format!(" | GridChecker 1T {unit}"));
    for t in &threads {
        head.push_str(&format!(" | peer/ours {t}T"));
    }
    if threads.len() > 1 {
        head.push_str(&format!(
            " | ours {}T/{}T",
            threads[0],
            threads[threads.len() - 1]
        ));
    }
    println!("{head}");
    let mut ok = true;
    for g in &grids {
        let mut row = String::new();
        // Per thread count, then the peer: the R runs' seconds.
        let mut runs: Vec<Vec<f64>> = vec![Vec::new(); threads.len() + 1];
        let mut found = 0;
        let mut peer_found = None;
        for round in 0..reps {
            let mut sides: Vec<usize> = (0..=threads.len()).collect();
            if round % 2 == 1 {
                sides.reverse();
            }
            for side in sides {
                if side < threads.len() {
                    let (s, f) = ours(g, clues, threads[side], cpu);
                    found = f;
                    runs[side].push(s);
                } else if let Some((s, f)) = peer_bin.as_ref().and_then(|b| peer(b, g, clues, cpu))
                {
                    peer_found = Some(f);
                    runs[side].push(s);
                }
            }
        }
        let secs: Vec<f64> = runs[..threads.len()].iter().map(|r| median(r)).collect();
        for s in &secs {
            row.push_str(&format!(" | {s:.3}"));
        }
        match peer_found {
            Some(f) => {
                let s = median(&runs[threads.len()]);
                if f != found {
                    ok = false;
                    row.push_str(&format!(" | {s:.3} (found {f}: MISMATCH)"));
                } else {
                    row.push_str(&format!(" | {s:.3}"));
                }
                for o in &secs {
                    row.push_str(&format!(" | {:.2}", s / o));
                }
            }
            None => {
                row.push_str(" | -");
                for _ in &secs {
                    row.push_str(" | -");
                }
            }
        }
        if secs.len() > 1 {
            row.push_str(&format!(" | {:.2}", secs[0] / secs[secs.len() - 1]));
        }
        println!("{g} | {found}{row}");
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
