//! `algoku clues`: every puzzle with exactly N givens whose unique solution
//! is a grid (see rust/checker/src/search/mod.rs for the algorithm), for one
//! grid or, in batch, for a shard of a grid file with resumable output.

use std::process::ExitCode;
use std::sync::OnceLock;
use std::time::Instant;

use algoku_checker::{pattern, search, search_sets, with_threads, Cells, SearchOptions};
use anyhow::{bail, Result};
use serde::Serialize;

use crate::checker::shard::{grid_text, parse_grid, BatchArgs, Shard};
use crate::io::input::{read_single, Source};
use crate::io::output::{verdict, Out, EXIT_NEGATIVE};
use crate::io::progress::Progress;
use crate::Global;

/// Arguments of `algoku clues`.
#[derive(clap::Args, Debug)]
pub struct CluesArgs {
    /// The solved grid: 81 digits 1-9 (`-` reads stdin).
    #[arg(value_name = "GRID", conflicts_with = "grids")]
    grid: Option<String>,
    /// Number of givens of the puzzles searched (1..=80).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=80))]
    clues: u64,
    /// 81-character pattern whose filled cells (agreeing with GRID) every
    /// reported puzzle must contain.
    #[arg(long, value_name = "PATTERN", conflicts_with = "grids")]
    given: Option<String>,
    /// Worker threads (default: the machine's cores).
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u64).range(1..=1024))]
    threads: Option<u64>,
    /// Stop after this many puzzles (the search is then incomplete, exit 1;
    /// at most 10 000 000: the puzzles are held in memory).
    #[arg(long, value_name = "K", default_value_t = 100_000, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    max_found: u64,
    #[command(flatten)]
    batch: BatchArgs,
}

/// One grid's search.
#[derive(Serialize, Debug)]
struct Record {
    grid: String,
    /// The options that shape the result, in batch records (see [`settings`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    settings: Option<serde_json::Value>,
    clues: u64,
    found: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    puzzles: Option<Vec<String>>,
    ua_sets: usize,
    learned: u64,
    nodes: u64,
    complete: bool,
    seconds: f64,
}

/// Parses `--given` against the grid: the mask of its filled cells.
fn parse_given(text: &str, grid: &Cells, clues: usize) -> Result<u128> {
    let chars: Vec<char> = text.trim().chars().collect();
    if chars.len() != 81 {
        bail!("--given: expected 81 characters, got {}", chars.len());
    }
    let mut mask = 0u128;
    for (i, ch) in chars.iter().enumerate() {
        match ch {
            '.' | '0' => {}
            '1'..='9' => {
                let d = *ch as u8 - b'0';
                if d != grid[i] {
                    bail!(
                        "--given: cell {i} (row {}, column {}) is {d} but the grid has {}",
                        i / 9 + 1,
                        i % 9 + 1,
                        grid[i]
                    );
                }
                mask |= 1u128 << i;
            }
            _ => bail!("--given: bad character {ch:?} at cell {i} (expected 1-9, '.' or '0')"),
        }
    }
    if mask.count_ones() as usize > clues {
        bail!(
            "--given has {} givens, more than --clues {clues}",
            mask.count_ones()
        );
    }
    Ok(mask)
}

/// The options that change a batch record, kept in it so that a resumed
/// run counts a grid as done only for the same ones (the thread count does
/// not change what is found).
fn settings(args: &CluesArgs) -> serde_json::Value {
    serde_json::json!({
        "command": "clues",
        "clues": args.clues,
        "max_found": args.max_found,
    })
}

/// Runs the search on one grid.
fn run_grid(
    grid: &Cells,
    given: u128,
    args: &CluesArgs,
    threads: usize,
    tick: &(dyn Fn(u64, u64) + Sync),
) -> (Record, Vec<u128>) {
    let start = Instant::now();
    let opts = SearchOptions {
        clues: args.clues as usize,
        given,
        threads,
        max_found: args.max_found,
    };
    // The UA collection and the search both on `threads` threads.
    let (uas, r) = with_threads(threads, || {
        let uas = search_sets(grid, opts.clues);
        let r = search(grid, &uas, &opts, tick);
        (uas, r)
    });
    let record = Record {
        grid: grid_text(grid),
        settings: None,
        clues: args.clues,
        found: r.puzzles.len(),
        puzzles: None,
        ua_sets: uas.len(),
        learned: r.learned,
        nodes: r.nodes,
        complete: !r.stopped,
        seconds: start.elapsed().as_secs_f64(),
    };
    (record, r.puzzles)
}

/// Runs `algoku clues`.
pub fn run(args: &CluesArgs, global: &Global, out: &mut Out) -> Result<ExitCode> {
    let threads = args.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |t| t as usize,
    );
    if args.batch.is_batch()? {
        return run_batch(args, threads, global, out);
    }
    let source = Source::resolve(args.grid.as_deref(), None, "grid")?;
    let grid = parse_grid(&read_single(&source, "grid")?, &format!("grid ({source})"))?;
    let given = match &args.given {
        Some(p) => parse_given(p, &grid, args.clues as usize)?,
        None => 0,
    };
    let bar: OnceLock<Progress> = OnceLock::new();
    let tick = |done: u64, total: u64| {
        let p = bar.get_or_init(|| {
            let p = Progress::new(total, "searching", global);
            for _ in 1..done {
                p.inc();
            }
            p
        });
        p.inc();
    };
    let (record, puzzles) = run_grid(&grid, given, args, threads, &tick);
    if let Some(p) = bar.get() {
        p.finish();
    }
    for &p in &puzzles {
        let text = pattern(&grid, p);
        if global.json {
            out.json(&serde_json::json!({ "puzzle": text }))?;
        } else {
            out.line(text)?;
        }
    }
    if global.json {
        out.json(&record)?;
    } else {
        out.line(format!(
            "grid {}: {} puzzle(s) with {} givens{}; {} UA sets (+{} learned), {} nodes, {:.3} s",
            record.grid,
            record.found,
            record.clues,
            if record.complete {
                ""
            } else {
                " (search stopped: incomplete)"
            },
            record.ua_sets,
            record.learned,
            record.nodes,
            record.seconds
        ))?;
    }
    if !record.complete {
        out.flush()?;
        if !global.json {
            eprintln!(
                "stopped after {} puzzles (--max-found {}): the search is incomplete; raise --max-found or narrow it with --given",
                record.found, args.max_found
            );
        }
        return Ok(ExitCode::from(EXIT_NEGATIVE));
    }
    Ok(ExitCode::SUCCESS)
}

/// Batch mode: this shard's grids, one record per finished grid (see
/// [`crate::checker::shard`]).
fn run_batch(args: &CluesArgs, threads: usize, global: &Global, out: &mut Out) -> Result<ExitCode> {
    let settings = settings(args);
    let mut shard = Shard::open(&args.batch, &settings, global)?;
    let todo = std::mem::take(&mut shard.todo);
    let progress = Progress::new(todo.len() as u64, "grids", global);
    let mut found = 0usize;
    let mut incomplete = 0usize;
    for g in &todo {
        let (mut record, puzzles) = run_grid(g, 0, args, threads, &|_, _| {});
        found += record.found;
        incomplete += usize::from(!record.complete);
        record.settings = Some(settings.clone());
        record.puzzles = Some(puzzles.iter().map(|&p| pattern(g, p)).collect());
        shard.append(&record)?;
        progress.inc();
    }
    progress.finish();
    let mut summary = shard.summary(todo.len());
    summary["found"] = found.into();
    summary["incomplete"] = incomplete.into();
    let text = if incomplete > 0 {
        format!("{found} puzzles found, {incomplete} searches stopped at --max-found")
    } else {
        format!("{found} puzzles found")
    };
    shard.report(&summary, &text, global, out)?;
    Ok(verdict(incomplete == 0))
}
