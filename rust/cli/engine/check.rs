//! `algoku check`: is this grid a solved Sudoku, and what would the contract
//! (and the original Algoku) answer?
//!
//! The grid is 81 characters (`1`-`9`, and `.` or `0` for blanks, which make
//! it invalid) or `0x` followed by the hex of arbitrary bytes, any length,
//! so that malformed inputs can be checked as the contract would see them.
//! Digit characters become the bytes 1..=9 and blanks the byte 0: the raw
//! bytes the contract receives.

use std::io;
use std::path::PathBuf;
use std::process::ExitCode;

use algoku_avm::{violation, Outcome};
use algoku_sudoku::Grid;
use anyhow::{bail, Context, Result};
use serde::Serialize;

use crate::io::input::{one_item, read_single, stream_lines, Source};
use crate::io::output::{verdict, Out, EXIT_ERROR};
use crate::io::progress::Progress;
use crate::Global;

/// Arguments of `algoku check`.
#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// The grid: 81 characters 1-9 ('.' or '0' for blanks), or 0x + hex bytes
    /// of any length; `-` reads stdin.
    #[arg(value_name = "GRID")]
    grid: Option<String>,
    /// Check every grid of this file, one per line (empty and '#' lines
    /// skipped), each answered on its own line, then a summary.
    #[arg(long, value_name = "PATH", conflicts_with = "grid")]
    file: Option<PathBuf>,
}

/// The result of `check`, as printed with `--json`.
#[derive(Debug, Serialize)]
pub struct CheckReport {
    /// Whether the bytes are a solved Sudoku.
    pub valid: bool,
    /// Why not, when not.
    pub reason: Option<String>,
    /// This project's contract's outcome (`true`, `false`, `rejected: …`).
    pub contract: String,
    /// The original Algoku's outcome (may be `error: <AVM message>`).
    pub original: String,
    /// The number of bytes.
    pub len: usize,
}

/// Runs `algoku check`: exit 0 when valid, 1 when not (with `--file`: 2
/// when a line is not a grid, else 1 when one is invalid).
pub fn run(args: &CheckArgs, global: &Global, out: &mut Out) -> Result<ExitCode> {
    if let Some(path) = &args.file {
        return run_file(&Source::File(path.clone()), global, out);
    }
    let source = Source::resolve(args.grid.as_deref(), None, "grid")?;
    let text = read_single(&source, "grid")?;
    let bytes = parse_grid_bytes(&text).with_context(|| format!("grid ({source})"))?;
    let report = check_bytes(&bytes);
    if global.json {
        out.json(&report)?;
    } else {
        out.line(report.valid)?;
        if let Some(reason) = &report.reason {
            out.line(format_args!("reason: {reason}"))?;
        }
        out.line(format_args!("contract: {}", report.contract))?;
        out.line(format_args!("original: {}", report.original))?;
    }
    Ok(verdict(report.valid))
}

/// One line's answer in a `--file` run, as printed with `--json`.
#[derive(Serialize)]
struct LineReport<'a> {
    line: usize,
    #[serde(flatten)]
    report: &'a CheckReport,
}

/// Counts of a `--file` run.
#[derive(Default, Serialize)]
struct Summary {
    grids: usize,
    valid: usize,
    invalid: usize,
    errors: usize,
}

/// `check --file`: every line answered in order (`true`, or `false: reason`;
/// a line that is not a grid gets its error in its place), then a summary.
fn run_file(source: &Source, global: &Global, out: &mut Out) -> Result<ExitCode> {
    let (count, lines) = stream_lines(source)?;
    let progress = Progress::new(count.unwrap_or(0), "checking", global);
    let mut summary = Summary::default();
    for line in lines {
        let line = line?;
        let bytes = match line.error {
            Some(e) => Err(e),
            None => one_item(&line.text)
                .map_err(anyhow::Error::msg)
                .and_then(parse_grid_bytes)
                .map_err(|e| format!("grid ({source}, line {}): {e:#}", line.number)),
        };
        let written = match bytes {
            Err(message) => {
                summary.errors += 1;
                progress.suspend(|| out.line_error(global.json, line.number, &message))
            }
            Ok(bytes) => {
                let report = check_bytes(&bytes);
                summary.grids += 1;
                if report.valid {
                    summary.valid += 1;
                } else {
                    summary.invalid += 1;
                }
                progress.suspend(|| emit_line(out, line.number, &report, global))
            }
        };
        written?;
        if count.is_none() {
            // Streamed (stdin): each answer is out before the next line is read.
            progress.suspend(|| out.flush())?;
        }
        progress.inc();
    }
    if summary.grids + summary.errors == 0 {
        bail!("{source}: no grid found (only empty or '#' lines)");
    }
    progress.finish();
    if global.json {
        out.json(&serde_json::json!({ "summary": summary }))?;
    } else {
        out.line(format_args!(
            "summary: {} grids, {} valid, {} invalid, {} bad lines",
            summary.grids, summary.valid, summary.invalid, summary.errors
        ))?;
    }
    if summary.errors > 0 {
        return Ok(ExitCode::from(EXIT_ERROR));
    }
    Ok(verdict(summary.invalid == 0))
}

/// Prints one line's answer.
fn emit_line(out: &mut Out, line: usize, report: &CheckReport, global: &Global) -> io::Result<()> {
    if global.json {
        return out.json(&LineReport { line, report });
    }
    match &report.reason {
        None => out.line(report.valid),
        Some(reason) => out.line(format_args!("{}: {reason}", report.valid)),
    }
}

/// Checks raw bytes: the first reason they are not a solved Sudoku, and the
/// outcomes of both contracts.
pub fn check_bytes(bytes: &[u8]) -> CheckReport {
    let reason = violation(bytes, None);
    CheckReport {
        valid: reason.is_none(),
        reason,
        contract: Outcome::of_project(bytes).to_string(),
        original: Outcome::of_original(bytes).to_string(),
        len: bytes.len(),
    }
}

/// Parses the text form: `0x` + hex (any even number of digits), or an
/// 81-character grid (see [`Grid::parse`]).
pub fn parse_grid_bytes(text: &str) -> Result<Vec<u8>> {
    if let Some(hex) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        return parse_hex(hex);
    }
    let grid = Grid::parse(text)?;
    Ok(grid.cells().to_vec())
}

/// Decodes the hex after `0x`; positions in errors are 1-based and count the
/// `0x` prefix.
fn parse_hex(hex: &str) -> Result<Vec<u8>> {
    if let Some((i, c)) = hex
        .chars()
        .enumerate()
        .find(|(_, c)| !c.is_ascii_hexdigit())
    {
        bail!(
            "bad hex digit {c:?} at position {} (counting from 1, 0x included): expected 0-9, a-f or A-F",
            i + 3
        );
    }
    if !hex.len().is_multiple_of(2) {
        bail!(
            "odd number of hex digits ({}) after 0x: expected two per byte",
            hex.len()
        );
    }
    Ok(hex::decode(hex)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SOLVED: &str =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

    #[test]
    fn a_solution_is_valid_everywhere() {
        let r = check_bytes(&parse_grid_bytes(SOLVED).unwrap());
        assert!(r.valid);
        assert_eq!((r.contract.as_str(), r.original.as_str()), ("true", "true"));
    }

    #[test]
    fn hex_errors_name_the_position() {
        let e = parse_grid_bytes("0x0g").unwrap_err().to_string();
        assert!(e.contains("'g' at position 4"), "{e}");
        assert!(parse_grid_bytes("0x123")
            .unwrap_err()
            .to_string()
            .contains("odd"));
        assert_eq!(parse_grid_bytes("0x").unwrap(), Vec::<u8>::new());
        assert!(parse_grid_bytes("0xé").is_err());
    }
}
