//! `algoku solve`: the first solution of a puzzle, or its number of
//! solutions up to a limit, for one puzzle or a file of many.
//!
//! A positional argument is one puzzle (pasted lines are joined). A file or
//! stdin holds one puzzle per line in the benchmark format (see
//! [`crate::io::input::records`]). A line that does not parse gets its own error
//! line (`{"line": N, "error": …}` with `--json`, else `error: …`) in place
//! of its answer; the other lines are solved, and the run exits 2.

use std::path::PathBuf;
use std::process::ExitCode;

use algoku_sudoku::{Grid, Solver};
use anyhow::{anyhow, Result};
use serde::Serialize;

use crate::io::input::{first_item, read_single, stream_lines, Line, Source};
use crate::io::output::{verdict, Count, Out, EXIT_ERROR};
use crate::io::progress::Progress;
use crate::Global;

/// Arguments of `algoku solve`.
#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    /// The puzzle: 81 characters, 1-9 for givens and '.' or '0' for blanks;
    /// `-` reads puzzles from stdin, one per line.
    #[arg(value_name = "PUZZLE")]
    puzzle: Option<String>,
    /// Read puzzles from this file, one per line (empty and '#' lines are
    /// skipped; only the first 81 characters of a line are read).
    #[arg(long, value_name = "PATH", conflicts_with = "puzzle")]
    file: Option<PathBuf>,
    /// Count the solutions, stopping at N (at most 10 000 000, which the
    /// solver reaches in seconds), instead of printing the first; a count
    /// that stops at N says so ("N or more"; JSON `complete`).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=MAX_COUNT))]
    count: Option<u64>,
    /// Print solutions as a 9x9 layout.
    #[arg(long)]
    pretty: bool,
}

/// The largest `--count`: counting stops there, so a nearly empty grid (the
/// empty one has 6 670 903 752 021 072 936 960 solutions) cannot keep the
/// command busy for years.
pub const MAX_COUNT: u64 = 10_000_000;

/// One puzzle's result, as printed with `--json`.
#[derive(Debug, Serialize)]
pub struct SolveReport {
    /// The line of the input file (1-based); absent for an argument.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// The puzzle, 81 characters with `.` for blanks.
    pub puzzle: String,
    /// With `--count`: `solutions` (at most `limit`), `limit`, `complete`.
    #[serde(flatten)]
    pub count: Option<Count>,
    /// Whether the puzzle has exactly one solution (only with `--count`;
    /// always decided, even with a limit of 1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unique: Option<bool>,
    /// The first solution, or `null` when there is none.
    pub solution: Option<String>,
    /// The first solution as a grid (for the layout).
    #[serde(skip)]
    pub first: Option<Grid>,
}

/// Runs `algoku solve`: exit 0 when every puzzle has a solution, 1 when one
/// has none, 2 when a line of a batch is not a puzzle.
pub fn run(args: &SolveArgs, global: &Global, out: &mut Out) -> Result<ExitCode> {
    let source = Source::resolve(args.puzzle.as_deref(), args.file.as_deref(), "puzzle")?;
    let (count, puzzles) = read_puzzles(&source)?;
    let limit = args.count.map(|n| usize::try_from(n).unwrap_or(usize::MAX));
    let progress = Progress::new(count.unwrap_or(0), "solving", global);
    let mut solver = Solver::new();
    let mut summary = Summary::default();
    for entry in puzzles {
        match entry? {
            Entry::Bad { line, message } => {
                summary.errors += 1;
                progress.suspend(|| out.line_error(global.json, line, &message))?;
            }
            Entry::Puzzle { line, grid } => {
                let report = solve_one(&mut solver, &grid, line, limit);
                summary.count(&report);
                let gap = args.pretty && summary.puzzles > 1;
                progress.suspend(|| emit(out, &report, gap, args.pretty, global))?;
            }
        }
        if count.is_none() {
            // Streamed (stdin): each answer is out before the next line is read.
            progress.suspend(|| out.flush())?;
        }
        progress.inc();
    }
    if summary.puzzles + summary.errors == 0 {
        anyhow::bail!("{source}: no puzzle found (only empty or '#' lines)");
    }
    progress.finish();
    if global.json && source.is_stream() {
        out.json(&serde_json::json!({ "summary": summary }))?;
    }
    if summary.errors > 0 {
        return Ok(ExitCode::from(EXIT_ERROR));
    }
    Ok(verdict(summary.no_solution == 0))
}

/// Counts of a run over a file, printed last with `--json`.
#[derive(Default, Serialize)]
struct Summary {
    /// Puzzles read (bad lines aside).
    puzzles: usize,
    /// Puzzles with at least one solution.
    solved: usize,
    /// Puzzles with none.
    no_solution: usize,
    /// With `--count`: puzzles with exactly one solution.
    #[serde(skip_serializing_if = "Option::is_none")]
    unique: Option<usize>,
    /// Lines that are not puzzles.
    errors: usize,
}

impl Summary {
    fn count(&mut self, report: &SolveReport) {
        self.puzzles += 1;
        if report.solution.is_some() {
            self.solved += 1;
        } else {
            self.no_solution += 1;
        }
        if let Some(unique) = report.unique {
            *self.unique.get_or_insert(0) += usize::from(unique);
        }
    }
}

/// One record of the input: a puzzle, or a line that is not one.
enum Entry {
    /// A puzzle and its line (`None` for an argument).
    Puzzle { line: Option<usize>, grid: Grid },
    /// A batch line that does not parse, and the error naming it.
    Bad { line: usize, message: String },
}

/// The entry of one record of a file or stdin: its puzzle, or its error.
fn entry(source: &Source, l: Line) -> Entry {
    if let Some(message) = l.error {
        return Entry::Bad {
            line: l.number,
            message,
        };
    }
    match Grid::parse(first_item(&l.text)) {
        Ok(grid) => Entry::Puzzle {
            line: Some(l.number),
            grid,
        },
        Err(e) => Entry::Bad {
            line: l.number,
            message: format!("puzzle ({source}, line {}): {e}", l.number),
        },
    }
}

/// The entries of a source as they come, and their count when known.
type Entries = (Option<u64>, Box<dyn Iterator<Item = Result<Entry>>>);

/// The entries of `source` as they come, and their count when known: a
/// single argument that is not a puzzle is an error; a bad line of a file or
/// stdin is an [`Entry::Bad`] in its place.
fn read_puzzles(source: &Source) -> Result<Entries> {
    if !source.is_stream() {
        let text = read_single(source, "puzzle")?;
        let grid = Grid::parse(&text).map_err(|e| anyhow!("puzzle ({source}): {e}"))?;
        return Ok((
            Some(1),
            Box::new(std::iter::once(Ok(Entry::Puzzle { line: None, grid }))),
        ));
    }
    let (count, lines) = stream_lines(source)?;
    let source = source.clone();
    Ok((
        count,
        Box::new(lines.map(move |l| l.map(|l| entry(&source, l)))),
    ))
}

/// Solves one puzzle: the first solution, and with a limit the count (see
/// [`Count`]: never above the limit, and whether it is complete).
fn solve_one(
    solver: &mut Solver,
    puzzle: &Grid,
    line: Option<usize>,
    limit: Option<usize>,
) -> SolveReport {
    let search_limit = limit.map_or(1, Count::search_limit);
    let result = solver.solve_with_stats(puzzle, search_limit);
    SolveReport {
        line,
        puzzle: puzzle.to_string(),
        count: limit.map(|n| Count::new(result.solutions, n)),
        unique: limit.map(|_| result.solutions == 1),
        solution: result.first.map(|g| g.to_string()),
        first: result.first,
    }
}

/// Prints one result: JSON, the count, the solution (as a line or a layout,
/// `gap` putting a blank line before a layout) or `no solution`.
fn emit(out: &mut Out, r: &SolveReport, gap: bool, pretty: bool, global: &Global) -> Result<()> {
    if global.json {
        out.json(r)?;
    } else if let Some(count) = r.count {
        out.line(count.text())?;
    } else {
        match &r.first {
            Some(grid) if pretty => {
                if gap {
                    out.line("")?;
                }
                out.line(grid.pretty().trim_end())?;
            }
            Some(grid) => out.line(grid)?,
            None => out.line("no solution")?,
        }
    }
    Ok(())
}
