//! `algoku rate`: how hard a puzzle is for a person (see the `algoku-rate`
//! crate for the techniques, the scores and the levels).
//!
//! One puzzle (argument) or many (`--file`, stdin: one per line). A line
//! that does not parse gets its own error line (`{"line": N, "error": …}`
//! with `--json`) and the others are still rated; the run then exits 2.
//! Otherwise exit 1 when a puzzle is invalid, has no solution or several,
//! else 0. Every unique puzzle gets Sudoku Explainer's score: ER (the
//! rating, `score`), EP (pearl) and ED (diamond), as `serate --format
//! "%r/%p/%d"` prints them. A batch ends with a summary line.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;

use algoku_rate::{rate, score_text, Level, Rating, Verdict, TECHNIQUES};
use algoku_sudoku::Grid;
use anyhow::{anyhow, Result};
use serde::Serialize;
use serde_json::{Map, Value};

use crate::io::input::{first_item, read_single, stream_lines, Source};
use crate::io::output::{Out, EXIT_ERROR, EXIT_NEGATIVE};
use crate::io::progress::Progress;
use crate::Global;

/// Arguments of `algoku rate`.
#[derive(clap::Args, Debug)]
pub struct RateArgs {
    /// The puzzle: 81 characters, 1-9 for givens and '.' or '0' for blanks;
    /// `-` reads puzzles from stdin, one per line.
    #[arg(value_name = "PUZZLE")]
    puzzle: Option<String>,
    /// Read puzzles from this file, one per line (empty and '#' lines are
    /// skipped; only the first 81 characters of a line are read).
    #[arg(long, value_name = "PATH", conflicts_with = "puzzle")]
    file: Option<PathBuf>,
    /// Print every step ("r3c5 = 7, hidden single in box 2").
    #[arg(long)]
    explain: bool,
}

/// The JSON of one rating.
pub fn rating_json(r: &Rating, explain: bool) -> Value {
    let mut m = Map::new();
    m.insert("verdict".into(), r.verdict.key().into());
    m.insert(
        "level".into(),
        r.level.map(|l| Value::from(l.name())).into(),
    );
    m.insert(
        "score".into(),
        r.score_tenths()
            .map(|s| Value::from(f64::from(s) / 10.0))
            .into(),
    );
    let se = |f: fn(&algoku_rate::SeScore) -> u8| -> Value {
        r.se.map(|s| Value::from(f64::from(f(&s)) / 10.0)).into()
    };
    m.insert("er".into(), se(|s| s.rating));
    m.insert("ep".into(), se(|s| s.pearl));
    m.insert("ed".into(), se(|s| s.diamond));
    m.insert(
        "hardest".into(),
        r.hardest().map(|t| Value::from(t.key())).into(),
    );
    let counts: Map<String, Value> = r
        .counts()
        .into_iter()
        .map(|(t, n)| (t.key().to_string(), n.into()))
        .collect();
    m.insert("counts".into(), counts.into());
    m.insert("steps".into(), r.steps.len().into());
    if let Some(g) = r.stuck_at {
        m.insert("stuck_at".into(), g.to_string().into());
    }
    m.insert("solution".into(), r.solution.map(|g| g.to_string()).into());
    if explain {
        let lines: Vec<Value> = r
            .steps
            .iter()
            .map(|s| format!("{s} ({})", score_text(s.tenths)).into())
            .collect();
        m.insert("explain".into(), lines.into());
    }
    Value::Object(m)
}

/// The human summary of one rating (after the puzzle).
pub fn rating_text(r: &Rating) -> String {
    let counts: Vec<String> = r
        .counts()
        .iter()
        .map(|(t, n)| format!("{} {n}", t.key()))
        .collect();
    let hardest = r.hardest().map_or("none", |t| t.name());
    match r.verdict {
        Verdict::Solved => format!(
            "{} SE {} hardest {} ER/EP/ED {} ({})",
            r.level.map_or("?", Level::name),
            score_text(r.score_tenths().unwrap_or(0)),
            hardest,
            r.se.map_or_else(|| "?".to_string(), |s| s.text()),
            counts.join(", ")
        ),
        Verdict::NeedsMore => format!(
            "{} needs more than implemented (stuck after {} steps; hardest so far {}) ({})",
            r.level.map_or("?", Level::name),
            r.steps.len(),
            hardest,
            counts.join(", ")
        ),
        Verdict::Invalid => "invalid: two givens conflict".to_string(),
        Verdict::NoSolution => "invalid: no solution".to_string(),
        Verdict::MultipleSolutions => "invalid: more than one solution".to_string(),
    }
}

#[derive(Default, Serialize)]
struct Summary {
    puzzles: usize,
    solved: usize,
    needs_more: usize,
    invalid: usize,
    errors: usize,
    levels: BTreeMap<&'static str, usize>,
    hardest: BTreeMap<&'static str, usize>,
}

/// Runs `algoku rate`.
pub fn run(args: &RateArgs, global: &Global, out: &mut Out) -> Result<ExitCode> {
    let source = Source::resolve(args.puzzle.as_deref(), args.file.as_deref(), "puzzle")?;
    if !source.is_stream() {
        let text = read_single(&source, "puzzle")?;
        let grid = Grid::parse(&text).map_err(|e| anyhow!("puzzle ({source}): {e}"))?;
        let r = rate(&grid);
        emit(out, None, &grid, &r, args.explain, global)?;
        return Ok(exit_of(&r));
    }
    let (count, lines) = stream_lines(&source)?;
    let progress = Progress::new(count.unwrap_or(0), "rating", global);
    let mut summary = Summary::default();
    for level in Level::ALL {
        summary.levels.insert(level.name(), 0);
    }
    let mut code = 0u8;
    for line in lines {
        let line = line?;
        let parsed = match line.error {
            Some(e) => Err(e),
            None => Grid::parse(first_item(&line.text))
                .map_err(|e| format!("puzzle ({source}, line {}): {e}", line.number)),
        };
        match parsed {
            Err(msg) => {
                summary.errors += 1;
                code = EXIT_ERROR;
                progress.suspend(|| out.line_error(global.json, line.number, &msg))?;
            }
            Ok(grid) => {
                let r = rate(&grid);
                summary.puzzles += 1;
                match r.verdict {
                    Verdict::Solved => summary.solved += 1,
                    Verdict::NeedsMore => summary.needs_more += 1,
                    _ => summary.invalid += 1,
                }
                if let Some(l) = r.level {
                    *summary.levels.entry(l.name()).or_default() += 1;
                }
                if let Some(t) = r.hardest() {
                    *summary.hardest.entry(t.key()).or_default() += 1;
                }
                if code == 0 && exit_of(&r) != ExitCode::SUCCESS {
                    code = 1;
                }
                progress
                    .suspend(|| emit(out, Some(line.number), &grid, &r, args.explain, global))?;
            }
        }
        if count.is_none() {
            // Streamed (stdin): each answer is out before the next line is read.
            progress.suspend(|| out.flush())?;
        }
        progress.inc();
    }
    progress.finish();
    if summary.puzzles + summary.errors == 0 {
        anyhow::bail!("{source}: no puzzle found (only empty or '#' lines)");
    }
    if global.json {
        out.json(&serde_json::json!({ "summary": summary }))?;
    } else {
        let levels: Vec<String> = Level::ALL
            .iter()
            .map(|l| format!("{} {}", l.name(), summary.levels[l.name()]))
            .collect();
        let order = |k: &str| TECHNIQUES.iter().position(|t| t.key() == k);
        let mut hardest: Vec<(&&str, &usize)> = summary.hardest.iter().collect();
        hardest.sort_by_key(|(k, _)| order(k));
        let hardest: Vec<String> = hardest.iter().map(|(k, v)| format!("{k} {v}")).collect();
        out.line(format_args!(
            "summary: {} puzzles, {} solved, {} need more than implemented, {} invalid, {} bad lines; levels: {}; hardest: {}",
            summary.puzzles,
            summary.solved,
            summary.needs_more,
            summary.invalid,
            summary.errors,
            levels.join(", "),
            hardest.join(", ")
        ))?;
    }
    Ok(ExitCode::from(code))
}

fn exit_of(r: &Rating) -> ExitCode {
    match r.verdict {
        Verdict::Solved | Verdict::NeedsMore => ExitCode::SUCCESS,
        _ => ExitCode::from(EXIT_NEGATIVE),
    }
}

fn emit(
    out: &mut Out,
    line: Option<usize>,
    grid: &Grid,
    r: &Rating,
    explain: bool,
    global: &Global,
) -> Result<()> {
    if global.json {
        let mut v = Map::new();
        if let Some(n) = line {
            v.insert("line".into(), n.into());
        }
        v.insert("puzzle".into(), grid.to_string().into());
        if let Value::Object(rest) = rating_json(r, explain) {
            v.extend(rest);
        }
        out.json(&Value::Object(v))?;
    } else {
        out.line(format_args!("{grid} {}", rating_text(r)))?;
        if explain {
            for s in &r.steps {
                out.line(format_args!("  {s} ({})", score_text(s.tenths)))?;
            }
        }
    }
    Ok(())
}

/// A target difficulty for `generate --difficulty`.
#[derive(Clone, Debug, PartialEq)]
pub enum Difficulty {
    /// A QQWing level.
    Level(Level),
    /// A Sudoku Explainer score range in tenths, inclusive; only puzzles the
    /// techniques solve have a score.
    Score(u8, u8),
}

impl std::fmt::Display for Difficulty {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Difficulty::Level(l) => f.write_str(l.name()),
            Difficulty::Score(a, b) if a == b => write!(f, "SE {}", score_text(*a)),
            Difficulty::Score(a, b) => write!(f, "SE {}-{}", score_text(*a), score_text(*b)),
        }
    }
}

impl Difficulty {
    /// Whether a rating has this difficulty.
    pub fn matches(&self, r: &Rating) -> bool {
        match self {
            Difficulty::Level(l) => r.level == Some(*l),
            Difficulty::Score(a, b) => r.score_tenths().is_some_and(|s| (*a..=*b).contains(&s)),
        }
    }
}

fn parse_score(s: &str) -> Option<u8> {
    let x: f64 = s.trim().parse().ok()?;
    (0.0..=25.5).contains(&x).then(|| (x * 10.0).round() as u8)
}

/// The lowest SE score (in tenths).
const MIN_SCORE: u8 = 10;
/// The highest SE score (in tenths) of the hardest known puzzles.
const MAX_SCORE: u8 = 119;

/// Parses `simple|easy|intermediate|expert`, `4.2` or `3.0-4.5`.
pub fn parse_difficulty(s: &str) -> Result<Difficulty, String> {
    if let Some(l) = Level::parse(s) {
        return Ok(Difficulty::Level(l));
    }
    let bad = || {
        format!(
            "bad difficulty '{s}': expected simple, easy, intermediate, expert, an SE score (4.2) or range (3.0-4.5)"
        )
    };
    let (a, b) = match s.split_once('-') {
        Some((a, b)) => (
            parse_score(a).ok_or_else(bad)?,
            parse_score(b).ok_or_else(bad)?,
        ),
        None => {
            let x = parse_score(s).ok_or_else(bad)?;
            (x, x)
        }
    };
    let score = |t: u8| format!("{}.{}", t / 10, t % 10);
    if a > b {
        return Err(format!(
            "bad difficulty '{s}': the range is empty ({} > {})",
            score(a),
            score(b)
        ));
    }
    // Nothing rates outside this span, so a search for it could only run out.
    if b < MIN_SCORE || a > MAX_SCORE {
        return Err(format!(
            "bad difficulty '{s}': SE scores run from {} to about {} (the hardest known puzzles)",
            score(MIN_SCORE),
            score(MAX_SCORE)
        ));
    }
    Ok(Difficulty::Score(a, b))
}
