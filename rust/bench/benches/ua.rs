//! `ua`: every minimal unavoidable set of at most 12 cells
//! (`algoku_checker::near`, as `algoku ua --max-size 12`) against
//! dobrichev's GridChecker `--unav --count --unav12`, grid by grid, in the
//! same run.
//!
//! ```text
//! cargo bench -p algoku-bench --bench ua -- [options]
//!   --random N   also N random grids (solution_grid seeds S..S+N; default 10)
//!   --seed S     first seed of the random grids (default 1)
//!   --reps R     each grid R times on both sides (default 20)
//!   --k K        set size bound for ours (default 12; the peer is always 12,
//!                so its counts are compared only when K = 12)
//!   --peer PATH  GridChecker binary (default /work/peers/gridchecker/gridchecker
//!                if it exists; built outside the repo, never committed)
//! ```
//!
//! Grids: the anchor grids of `../shared/anchors/gridchecker.md` (16- and
//! 17-clue lists, 18 distinct) and the random ones. Per grid: the number of
//! sets on both sides (they must agree: a mismatch is reported and the exit
//! status is 1), ours and GridChecker's milliseconds per grid, and the
//! ratio peer / ours (above 1: we are faster), and for reference the sets
//! of at most 12 cells that blanking 4-digit and 4-box subsets finds (the
//! method before the exhaustive one) with its CPU milliseconds. Both are CPU time on one
//! thread, divided by R: ours for R calls (the wall time is shown in
//! brackets), GridChecker's its own report ("Total time", `clock()`, which
//! leaves out process start-up) for the grid fed R times on stdin. The two run one after the other on
//! each grid, so a change of machine load hits both.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, ExitCode, Stdio};
use std::time::Instant;

use algoku_bench::{arg_value, bench_args, self_cpu, ANCHORS_16};
use algoku_checker::{collect, minimal_uas, with_threads, UaOptions};
use algoku_sudoku::generator::solution_grid;
use algoku_sudoku::Grid;

/// The 17-clue anchor grids not in [`ANCHORS_16`] (the anchors are that
/// list, then these).
const ANCHORS_17: [&str; 6] = [
    "123456789456789123789123456214368597867945231935217864348672915591834672672591348",
    "123456789456789123798231645281367594534912867679845312345628971817594236962173458",
    "123456789456789132879231564218697345647523918935814627362945871581372496794168253",
    "123456789457189236698723145274561398519837624836942571361294857745318962982675413",
    "123456789457189236689372145245798361378261954961543827512637498796824513834915672",
    "123456789456789132789213645275941368638527914941638257394175826517862493862394571",
];

/// Our sets of at most `k` cells, and CPU and wall milliseconds per call
/// over `reps`.
fn ours(grid: &str, k: usize, reps: usize) -> (usize, f64, f64) {
    let cells = *Grid::parse(grid).expect("grid").cells();
    let mut n = 0;
    let cpu = self_cpu();
    let start = Instant::now();
    // One thread, as GridChecker (minimal_uas uses the current rayon pool).
    with_threads(1, || {
        for _ in 0..reps {
            n = minimal_uas(&cells, k).len();
        }
    });
    let wall = start.elapsed().as_secs_f64() * 1e3 / reps as f64;
    (n, (self_cpu() - cpu) * 1e3 / reps as f64, wall)
}

/// The sets of at most 12 cells that blanking 4-digit and 4-box subsets
/// finds (the method before `near`), and its CPU milliseconds (one call).
fn subsets(grid: &str) -> (usize, f64) {
    let cells = *Grid::parse(grid).expect("grid").cells();
    let opts = UaOptions {
        digits: 4,
        boxes: 4,
        max_size: 12,
        complete: 0,
        ..UaOptions::default()
    };
    let cpu = self_cpu();
    let n = with_threads(1, || collect(&cells, &opts).len());
    (n, (self_cpu() - cpu) * 1e3)
}

/// GridChecker's count and milliseconds per grid (its CPU-time report).
fn peer(bin: &PathBuf, grid: &str, reps: usize) -> Option<(usize, f64)> {
    let mut child = Command::new(bin)
        .args(["--unav", "--count", "--unav12", "--verbose"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .ok()?;
    let input: String = (0..reps).map(|_| format!("{grid}\n")).collect();
    child.stdin.take()?.write_all(input.as_bytes()).ok()?;
    let out = child.wait_with_output().ok()?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    // Per grid: "<grid>\t<count>"; at the end "Total time S seconds."
    let count = stdout
        .lines()
        .find_map(|l| l.strip_prefix(grid))
        .and_then(|rest| rest.trim().parse().ok())?;
    let secs: f64 = stderr
        .lines()
        .find_map(|l| l.strip_prefix("Total time "))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|s| s.parse().ok())?;
    Some((count, secs * 1e3 / reps as f64))
}

fn main() -> ExitCode {
    let args = bench_args();
    let get = |name: &str| arg_value(&args, name);
    let random: u64 = get("--random").map_or(10, |s| s.parse().expect("--random N"));
    let reps: usize = get("--reps").map_or(20, |s| s.parse().expect("--reps R"));
    let first: u64 = get("--seed").map_or(1, |s| s.parse().expect("--seed S"));
    let k: usize = get("--k").map_or(12, |s| s.parse().expect("--k K"));
    let peer_bin = get("--peer").map(PathBuf::from).or_else(|| {
        let p = PathBuf::from("/work/peers/gridchecker/gridchecker");
        p.exists().then_some(p)
    });
    let mut grids: Vec<(String, String)> = ANCHORS_16
        .iter()
        .chain(&ANCHORS_17)
        .map(|g| ("anchor".to_string(), g.to_string()))
        .collect();
    for seed in first..first + random {
        grids.push((format!("random {seed}"), solution_grid(seed).to_string()));
    }
    println!(
        "grid | kind | sets | ours ms (wall) | GridChecker sets | GridChecker ms | peer/ours \
         | subsets: sets, ms"
    );
    let mut ok = true;
    let (mut sum_ours, mut sum_peer) = (0.0, 0.0);
    let mut worst = f64::MAX;
    for (kind, g) in &grids {
        let (n, ms, wall) = ours(g, k, reps);
        sum_ours += ms;
        let mut row = format!("{g} | {kind} | {n} | {ms:.2} ({wall:.2})");
        match peer_bin.as_ref().and_then(|b| peer(b, g, reps)) {
            Some((pn, pms)) => {
                let mark = if k == 12 && pn != n {
                    ok = false;
                    " (MISMATCH)"
                } else {
                    ""
                };
                sum_peer += pms;
                worst = worst.min(pms / ms);
                row.push_str(&format!(" | {pn}{mark} | {pms:.2} | {:.2}", pms / ms));
            }
            None => row.push_str(" | - | - | -"),
        }
        if k == 12 {
            let (sn, sms) = subsets(g);
            row.push_str(&format!(" | {sn}, {sms:.0}"));
        }
        println!("{row}");
    }
    if sum_peer > 0.0 {
        println!(
            "mean ms per grid: ours {:.2}, GridChecker {:.2}; ratio of means {:.2}, lowest ratio {:.2}",
            sum_ours / grids.len() as f64,
            sum_peer / grids.len() as f64,
            sum_peer / sum_ours,
            worst
        );
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
