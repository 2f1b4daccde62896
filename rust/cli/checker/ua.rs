//! `algoku ua`: the minimal unavoidable sets of a solved grid — every one
//! up to `--complete` cells (rust/checker/src/near.rs), larger ones as
//! digit and box subsets reveal them (rust/checker/src/ua.rs) — for one
//! grid or, in batch, for a shard of a grid file with resumable output.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use algoku_checker::{cells_of, collect, pattern, Cells, UaOptions};
use anyhow::Result;
use serde::Serialize;

use crate::checker::shard::{grid_text, parse_grid, BatchArgs, Shard};
use crate::io::input::{read_single, Source};
use crate::io::output::Out;
use crate::io::progress::Progress;
use crate::Global;

/// Arguments of `algoku ua`.
#[derive(clap::Args, Debug)]
pub struct UaArgs {
    /// The solved grid: 81 digits 1-9 (`-` reads stdin).
    #[arg(value_name = "GRID", conflicts_with = "grids")]
    grid: Option<String>,
    /// Read the grid from this file.
    #[arg(long, value_name = "PATH", conflicts_with_all = ["grid", "grids"])]
    file: Option<PathBuf>,
    #[command(flatten)]
    batch: BatchArgs,
    /// Report only sets of at most K cells.
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(4..=81))]
    max_size: Option<u64>,
    /// List every minimal set of at most C cells (exhaustive); larger sets
    /// are those the digit and box subsets reveal.
    #[arg(long, value_name = "C", default_value_t = 12, value_parser = clap::value_parser!(u64).range(4..=algoku_checker::near::MAX_K as u64))]
    complete: u64,
    /// Blank digit subsets of up to this many digits (for sets above C).
    #[arg(long, value_name = "D", default_value_t = 4, value_parser = clap::value_parser!(u64).range(2..=6))]
    digits: u64,
    /// Blank box subsets of up to this many boxes (0: none; for sets above C).
    #[arg(long, value_name = "B", default_value_t = 4, value_parser = clap::value_parser!(u64).range(0..=5))]
    boxes: u64,
}

#[derive(Serialize)]
struct SetLine {
    size: u32,
    cells: Vec<usize>,
}

#[derive(Serialize)]
struct Summary {
    grid: String,
    sets: usize,
    by_size: BTreeMap<u32, usize>,
    complete_up_to: usize,
    seconds: f64,
}

/// One grid's sets in batch mode.
#[derive(Serialize)]
struct Record {
    grid: String,
    /// The options that shape the result (see [`settings`]).
    settings: serde_json::Value,
    sets: usize,
    by_size: BTreeMap<u32, usize>,
    complete_up_to: usize,
    seconds: f64,
    /// Each set as its cells (0..81, row-major).
    ua_cells: Vec<Vec<usize>>,
}

/// The options that change a record, kept in it so that a resumed run
/// counts a grid as done only for the same ones.
fn settings(args: &UaArgs) -> serde_json::Value {
    serde_json::json!({
        "command": "ua",
        "max_size": args.max_size,
        "complete": args.complete,
        "digits": args.digits,
        "boxes": args.boxes,
    })
}

/// One grid's sets, timed.
fn run_grid(grid: &Cells, args: &UaArgs) -> (Vec<u128>, Summary) {
    let start = Instant::now();
    let opts = UaOptions {
        digits: args.digits as usize,
        boxes: args.boxes as usize,
        max_size: args.max_size.map_or(81, |k| k as usize),
        complete: args.complete as usize,
        ..UaOptions::default()
    };
    let sets = collect(grid, &opts);
    let seconds = start.elapsed().as_secs_f64();
    let mut by_size = BTreeMap::new();
    for s in &sets {
        *by_size.entry(s.count_ones()).or_insert(0) += 1;
    }
    let summary = Summary {
        grid: grid_text(grid),
        sets: sets.len(),
        by_size,
        complete_up_to: opts.complete_up_to(),
        seconds,
    };
    (sets, summary)
}

/// Runs `algoku ua`.
pub fn run(args: &UaArgs, global: &Global, out: &mut Out) -> Result<ExitCode> {
    if args.batch.is_batch()? {
        return run_batch(args, global, out);
    }
    let source = Source::resolve(args.grid.as_deref(), args.file.as_deref(), "grid")?;
    let grid = parse_grid(&read_single(&source, "grid")?, &format!("grid ({source})"))?;
    let (sets, summary) = run_grid(&grid, args);
    if global.json {
        for &s in &sets {
            out.json(&SetLine {
                size: s.count_ones(),
                cells: cells_of(s).collect(),
            })?;
        }
        out.json(&summary)?;
    } else {
        let k = summary.complete_up_to;
        let larger = args.max_size.is_none_or(|m| m as usize > k);
        out.line(format!(
            "grid {}: {} minimal unavoidable sets in {:.3} s: all of those of at most {k} cells{}",
            summary.grid,
            summary.sets,
            summary.seconds,
            if larger {
                ", and the larger ones found (not all)"
            } else {
                ""
            }
        ))?;
        for (size, n) in &summary.by_size {
            let kind = if *size as usize <= k { "all" } else { "found" };
            out.line(format!("size {size}: {n} ({kind})"))?;
        }
        for &s in &sets {
            out.line(pattern(&grid, s))?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Batch mode: this shard's grids, one record appended per finished grid
/// (see [`crate::checker::shard`]).
fn run_batch(args: &UaArgs, global: &Global, out: &mut Out) -> Result<ExitCode> {
    let settings = settings(args);
    let mut shard = Shard::open(&args.batch, &settings, global)?;
    let todo = std::mem::take(&mut shard.todo);
    let progress = Progress::new(todo.len() as u64, "grids", global);
    let mut total = 0usize;
    for g in &todo {
        let (sets, s) = run_grid(g, args);
        total += sets.len();
        shard.append(&Record {
            grid: s.grid,
            settings: settings.clone(),
            sets: s.sets,
            by_size: s.by_size,
            complete_up_to: s.complete_up_to,
            seconds: s.seconds,
            ua_cells: sets.iter().map(|&u| cells_of(u).collect()).collect(),
        })?;
        progress.inc();
    }
    progress.finish();
    let mut summary = shard.summary(todo.len());
    summary["sets"] = total.into();
    shard.report(&summary, &format!("{total} sets"), global, out)?;
    Ok(ExitCode::SUCCESS)
}
