//! Benchmarks of Algoku's Sudoku engine against a peer, the `sudoku` crate.
//!
//! The benchmark is the harness-less bench target `benches/versus_sudoku.rs`:
//!
//! ```text
//! cargo bench -p algoku-bench -- all --passes 3     # solver (both modes) and generator
//! cargo bench -p algoku-bench -- solve --json       # machine-readable
//! ```
//!
//! It reads the puzzle files in `../shared/data/sudoku/` (or `--data DIR`), checks
//! that both solvers agree on every puzzle, and prints puzzles/s for both and the
//! ratio ours / peer, all measured in the same run.
//!
//! The peer is AGPL-3.0, so it is a dev-dependency of this unpublished crate only:
//! nothing that ships links it.
//!
//! `benches/versus_tdoku.rs` measures the solver against tdoku (built outside the
//! repository and loaded at run time with `--tdoku LIB.so`) on randomly transformed
//! copies of the puzzles ([`algoku_sudoku::transform`]); `examples/transform.rs`
//! prints such copies. The helpers they share are below, with the CPU clocks
//! of the benches that time a peer process (`rate`, `checker`).

use std::path::Path;
use std::time::Duration;

use algoku_sudoku::Grid;

/// The benchmark puzzle files (in `../shared/data/sudoku/`), in the order
/// reported.
pub const FILES: [&str; 5] = [
    "puzzles2_17_clue",
    "puzzles3_magictour_top1465",
    "puzzles5_forum_hardest_1905_11+",
    "puzzles6_forum_hardest_1106",
    "puzzles7_serg_benchmark",
];

/// The names of a `--files A,B` list (empty names skipped).
pub fn name_list(s: &str) -> Vec<String> {
    s.split(',')
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

/// A bench target's arguments, without the `--bench` that `cargo bench`
/// adds.
pub fn bench_args() -> Vec<String> {
    std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect()
}

/// The value after option `name` in `args`, if given.
pub fn arg_value(args: &[String], name: &str) -> Option<String> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .cloned()
}

/// Reads a puzzle file as tdoku's loader does: one puzzle per line (its first
/// 81 characters, `.` or `0` for a blank), skipping empty lines and lines
/// starting with '#', stripping a trailing '\r'. At most `limit` puzzles.
pub fn load_puzzles(path: &Path, limit: usize) -> Result<Vec<Grid>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if out.len() >= limit {
            break;
        }
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let head: String = line.chars().take(81).collect();
        let g = Grid::parse(&head).map_err(|e| format!("{}:{}: {e}", path.display(), n + 1))?;
        out.push(g);
    }
    Ok(out)
}

/// The 16-clue anchor grids of `../shared/anchors/gridchecker.md` (none
/// has a 16-clue puzzle), shared by the checker and UA benchmarks.
pub const ANCHORS_16: [&str; 12] = [
    "873569241625134987149278356931857624782496513456321798598713462364982175217645839",
    "329751846754826931861934527216378495578649312943215768482563179197482653635197284",
    "962573418587164239341289576235718964819645327674932185426851793793426851158397642",
    "315849276867231549492657813729184365134596782586723491948315627273968154651472938",
    "135782496698534721742691538273916845486375219519248673327859164864123957951467382",
    "318765294926184537745392861497521683631879425582436179179658342264913758853247916",
    "384517962269834751715269483872453619536971248491628375953146827147382596628795134",
    "527194836698523417431867295749235168215986374386741529852379641963418752174652983",
    "583642179267913854491785236125864397379521648648379512852437961914256783736198425",
    "594173862271684395836952471125867943748239516369415287417328659953746128682591734",
    "685327941241869735937451826476195283312748659598632174859214367764983512123576498",
    "912486357783195642465723819329851476541367928876942531134679285297538164658214793",
];

/// Noise-robust timing of four runs over the same puzzles: the puzzles
/// are cut into `n_chunks` chunks, and each pass times every run on
/// every chunk (`time(chunk, run)`, `None` for a run left out), the four
/// interleaved chunk by chunk. The best time of each (chunk, run) over
/// the passes is kept, and each run's total is the sum of those minima
/// (`Duration::MAX` for a run left out). Passes sweep the whole list, so
/// the timings of one chunk lie far apart in time and a slow spell of the
/// machine rarely covers all of them; each pass starts the four runs at
/// another one, so that no run always meets the chunk (and the other
/// side's code) cold.
pub fn best_of_passes(
    n_chunks: usize,
    passes: usize,
    mut time: impl FnMut(usize, usize) -> Option<Duration>,
) -> [Duration; 4] {
    let mut best = vec![[Duration::MAX; 4]; n_chunks];
    for pass in 0..passes {
        for (chunk, cb) in best.iter_mut().enumerate() {
            for r in 0..4 {
                let k = (r + pass) % 4;
                if let Some(t) = time(chunk, k) {
                    cb[k] = cb[k].min(t);
                }
            }
        }
    }
    let mut total = [Duration::ZERO; 4];
    for cb in &best {
        for (t, c) in total.iter_mut().zip(cb) {
            *t = t.saturating_add(*c);
        }
    }
    total
}

/// CPU seconds (user + system) of this process so far, all its threads.
pub fn self_cpu() -> f64 {
    cpu_of(libc::RUSAGE_SELF)
}

/// CPU seconds (user + system) of this process's finished, waited-for
/// children.
pub fn children_cpu() -> f64 {
    cpu_of(libc::RUSAGE_CHILDREN)
}

fn cpu_of(who: libc::c_int) -> f64 {
    // SAFETY: getrusage writes one rusage struct, zeroed here first.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(who, &mut u) };
    let t = |v: libc::timeval| v.tv_sec as f64 + v.tv_usec as f64 / 1e6;
    t(u.ru_utime) + t(u.ru_stime)
}
