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

use algoku_sudoku::Grid;

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
