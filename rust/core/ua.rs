//! `algoku ua`: the minimal unavoidable sets of a solved grid (see
//! rust/checker/src/ua.rs for the method).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use algoku_checker::{cells_of, collect, pattern, Cells, UaOptions};
use algoku_sudoku::Grid;
use anyhow::{anyhow, bail, Result};
use serde::Serialize;

use crate::input::{read_single, Source};
use crate::output::Out;
use crate::Global;

/// Arguments of `algoku ua`.
#[derive(clap::Args, Debug)]
pub struct UaArgs {
    /// The solved grid: 81 digits 1-9 (`-` reads stdin).
    #[arg(value_name = "GRID")]
    grid: Option<String>,
    /// Read the grid from this file.
    #[arg(long, value_name = "PATH", conflicts_with = "grid")]
    file: Option<PathBuf>,
    /// Report only sets of at most K cells.
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(4..=81))]
    max_size: Option<u64>,
    /// Blank digit subsets of up to this many digits.
    #[arg(long, value_name = "D", default_value_t = 4, value_parser = clap::value_parser!(u64).range(2..=6))]
    digits: u64,
    /// Blank box subsets of up to this many boxes (0: none).
    #[arg(long, value_name = "B", default_value_t = 4, value_parser = clap::value_parser!(u64).range(0..=5))]
    boxes: u64,
}

/// A solved grid from text: valid, complete, every row, column and box
/// holding 1..=9 once.
pub fn parse_grid(text: &str, what: &str) -> Result<Cells> {
    let grid = Grid::parse(text).map_err(|e| anyhow!("{what}: {e}"))?;
    if !grid.is_complete() {
        bail!(
            "{what}: not a solved grid ({} of 81 cells filled)",
            grid.clue_count()
        );
    }
    grid.check_solution()
        .map_err(|e| anyhow!("{what}: not a valid solved grid: {e}"))?;
    Ok(*grid.cells())
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
    seconds: f64,
}

/// Runs `algoku ua`.
pub fn run(args: &UaArgs, global: &Global, out: &mut Out) -> Result<ExitCode> {
    let source = Source::resolve(args.grid.as_deref(), args.file.as_deref(), "grid")?;
    let grid = parse_grid(&read_single(&source, "grid")?, &format!("grid ({source})"))?;
    let start = Instant::now();
    let opts = UaOptions {
        digits: args.digits as usize,
        boxes: args.boxes as usize,
        max_size: args.max_size.map_or(81, |k| k as usize),
        ..UaOptions::default()
    };
    let sets = collect(&grid, &opts);
    let seconds = start.elapsed().as_secs_f64();
    let mut by_size = BTreeMap::new();
    for s in &sets {
        *by_size.entry(s.count_ones()).or_insert(0) += 1;
    }
    let grid_text: String = grid.iter().map(|&d| char::from(b'0' + d)).collect();
    if global.json {
        for &s in &sets {
            out.json(&SetLine {
                size: s.count_ones(),
                cells: cells_of(s).collect(),
            })?;
        }
        out.json(&Summary {
            grid: grid_text,
            sets: sets.len(),
            by_size,
            seconds,
        })?;
    } else {
        out.line(format!(
            "grid {grid_text}: {} minimal unavoidable sets in {seconds:.3} s",
            sets.len()
        ))?;
        for (size, n) in &by_size {
            out.line(format!("size {size}: {n}"))?;
        }
        for &s in &sets {
            out.line(pattern(&grid, s))?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
