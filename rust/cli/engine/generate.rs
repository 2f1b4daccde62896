//! `algoku generate`: deterministic puzzles with a unique solution.
//!
//! Puzzle `k` (0-based) of a run uses seed `seed + k` (a run that would pass
//! the largest seed, 2^64 − 1, is refused rather than wrapped), so a run
//! is reproducible from its first seed and options, and any single puzzle
//! from its own seed. Human lines start with the 81-character puzzle, so
//! they can be fed back to `algoku solve --file`.
//!
//! Every puzzle is rated by the human-style rater (crate `algoku-rate`): its
//! QQWing level and its Sudoku Explainer score. With `--difficulty`, seeds
//! are tried in order from `--seed` and only the puzzles whose rating
//! matches are kept, each printed with its own seed and its full rating.

use std::process::ExitCode;

use algoku_rate::{score_text, Level, Rating};
use algoku_sudoku::generator::{generate_puzzle, PuzzleOptions};
use anyhow::Result;
use serde::Serialize;

use crate::io::output::Out;
use crate::io::progress::Progress;
use crate::Global;

/// Arguments of `algoku generate`.
#[derive(clap::Args, Debug)]
pub struct GenerateArgs {
    /// The seed of the first puzzle; puzzle k uses seed + k.
    #[arg(long, value_name = "N", default_value_t = 0)]
    seed: u64,
    /// How many puzzles to generate (at least 1).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    count: u64,
    /// Keep the givens symmetric under 180° rotation.
    #[arg(long)]
    symmetric: bool,
    /// Remove clues until none can go (`--minimal=false`: stop at the first
    /// clue that cannot be removed; faster, more clues).
    #[arg(
        long,
        value_name = "BOOL",
        default_value_t = true,
        num_args = 0..=1,
        default_missing_value = "true",
        action = clap::ArgAction::Set
    )]
    minimal: bool,
    /// Stop removing clues at N givens, 17..=81 (best effort: uniqueness may
    /// keep more). No Sudoku with a unique solution has fewer than 17 givens.
    #[arg(long, value_name = "N", value_parser = parse_clues)]
    clues: Option<u8>,
    /// Also print each puzzle's solution.
    #[arg(long)]
    solution: bool,
    /// Keep only puzzles of this difficulty: a QQWing level (simple, easy,
    /// intermediate, expert), a Sudoku Explainer score (`4.2`) or range
    /// (`3.0-4.5`). Seeds are tried in order from --seed; each puzzle's seed
    /// regenerates it without this option.
    #[arg(long, value_name = "LEVEL|SE|SE-SE", value_parser = crate::engine::rate::parse_difficulty)]
    difficulty: Option<crate::engine::rate::Difficulty>,
    /// With --difficulty: give up after this many seeds without a match.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 20_000,
        requires = "difficulty",
        value_parser = clap::value_parser!(u64).range(1..)
    )]
    max_attempts: u64,
}

/// Parses `--clues`: 17..=81. Sixteen or fewer is impossible (McGuire,
/// Tugemann and Civario, 2012: there is no 16-clue Sudoku), so it is refused
/// rather than silently generating puzzles with more clues than asked.
fn parse_clues(s: &str) -> Result<u8, String> {
    let n: u8 = s
        .parse()
        .map_err(|_| format!("`{s}` is not a number of clues (17..=81)"))?;
    match n {
        17..=81 => Ok(n),
        0..=16 => Err(format!(
            "{n} clues is impossible: no Sudoku with a unique solution has fewer than 17 givens"
        )),
        _ => Err(format!("{n} clues: a grid has 81 cells")),
    }
}

/// One generated puzzle, as printed with `--json`.
#[derive(Debug, Serialize)]
pub struct GeneratedPuzzle {
    /// The seed of this puzzle.
    pub seed: u64,
    /// The puzzle, 81 characters with `.` for blanks.
    pub puzzle: String,
    /// Its unique solution.
    pub solution: String,
    /// The number of givens.
    pub clues: usize,
    /// The QQWing level the rater gives: simple, easy, intermediate or expert.
    pub level: Option<&'static str>,
    /// The Sudoku Explainer score (the hardest technique's), or `None`
    /// (JSON null) when the rater's techniques cannot finish (`needs_more`).
    pub se: Option<f64>,
    /// The `--minimal` option used.
    pub minimal: bool,
    /// The `--symmetric` option used.
    pub symmetric: bool,
    /// The `--clues` target used, if any.
    pub target_clues: Option<usize>,
    /// The full human-style rating (with `--difficulty`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rating: Option<serde_json::Value>,
}

/// Runs `algoku generate`; always exit 0.
pub fn run(args: &GenerateArgs, global: &Global, out: &mut Out) -> Result<ExitCode> {
    if let Some(difficulty) = &args.difficulty {
        return run_difficulty(args, difficulty, global, out);
    }
    let last = next_seed(args.seed, args.count - 1)?;
    let progress = Progress::new(args.count, "generating", global);
    for k in 0..args.count {
        let (p, _) = generate(args, args.seed + k);
        progress.suspend(|| emit(out, &p, args.solution, global))?;
        progress.inc();
    }
    progress.finish();
    emit_summary(out, args, last, global)?;
    Ok(ExitCode::SUCCESS)
}

/// `seed + k`, or the error of a run that would pass the largest seed.
fn next_seed(seed: u64, k: u64) -> Result<u64> {
    seed.checked_add(k).ok_or_else(|| past_last_seed(seed))
}

/// The error of a run from `seed` that would need a seed past 2^64 − 1.
fn past_last_seed(seed: u64) -> anyhow::Error {
    anyhow::anyhow!(
        "--seed {seed}: the run would pass the largest seed ({}); start from a smaller --seed",
        u64::MAX
    )
}

/// With `--json`, the last line: how many puzzles and which seeds were used.
fn emit_summary(out: &mut Out, args: &GenerateArgs, last: u64, global: &Global) -> Result<()> {
    if global.json {
        out.json(&serde_json::json!({ "summary": {
            "puzzles": args.count,
            "first_seed": args.seed,
            "last_seed": last,
        }}))?;
    }
    Ok(())
}

/// The options of `args` for `seed`.
fn puzzle_options(args: &GenerateArgs, seed: u64) -> PuzzleOptions {
    PuzzleOptions {
        seed,
        symmetric: args.symmetric,
        minimal: args.minimal,
        target_clues: args.clues.map(usize::from),
    }
}

/// Generates the puzzle of `seed` with the options of `args`, and rates it.
fn generate(args: &GenerateArgs, seed: u64) -> (GeneratedPuzzle, Rating) {
    let options = puzzle_options(args, seed);
    let p = generate_puzzle(&options);
    rated(options, p)
}

/// A generated puzzle with its rating.
fn rated(options: PuzzleOptions, p: algoku_sudoku::generator::Puzzle) -> (GeneratedPuzzle, Rating) {
    let seed = options.seed;
    let rating = algoku_rate::rate(&p.puzzle);
    let puzzle = GeneratedPuzzle {
        seed,
        puzzle: p.puzzle.to_string(),
        solution: p.solution.to_string(),
        clues: p.clues,
        level: rating.level.map(Level::name),
        se: se(&rating),
        minimal: options.minimal,
        symmetric: options.symmetric,
        target_clues: options.target_clues,
        rating: None,
    };
    (puzzle, rating)
}

/// The Sudoku Explainer score of a rating, `None` unless the techniques solve it.
fn se(rating: &Rating) -> Option<f64> {
    rating.score_tenths().map(|s| f64::from(s) / 10.0)
}

/// A rating in words: `intermediate SE 3.4`, or `expert needs more than
/// implemented` when the techniques cannot finish.
pub fn rating_words(rating: &Rating) -> String {
    let level = rating.level.map_or("?", Level::name);
    match rating.score_tenths() {
        Some(s) => format!("{level} SE {}", score_text(s)),
        None => format!("{level} needs more than implemented"),
    }
}

/// `generate --difficulty`: tries seeds `seed`, `seed + 1`, … and keeps the
/// puzzles whose rating matches, each with the seed that made it; fails
/// (exit 2, after printing what was found) when `--max-attempts` seeds in a
/// row give no match.
fn run_difficulty(
    args: &GenerateArgs,
    difficulty: &crate::engine::rate::Difficulty,
    global: &Global,
    out: &mut Out,
) -> Result<ExitCode> {
    let progress = Progress::new(args.count, "generating", global);
    // The next seed to try; `None` once the largest has been tried.
    let mut next = Some(args.seed);
    let mut last = args.seed;
    for _ in 0..args.count {
        let first = next;
        let mut attempts = 0u64;
        let p = loop {
            if attempts == args.max_attempts {
                progress.finish();
                anyhow::bail!(
                    "no puzzle of difficulty {difficulty} in {} attempts (seeds {} to {last}); raise --max-attempts, or change --minimal/--clues/--symmetric",
                    args.max_attempts,
                    first.unwrap_or(last),
                );
            }
            let seed = match next {
                Some(seed) => seed,
                None => return Err(past_last_seed(args.seed)),
            };
            next = seed.checked_add(1);
            last = seed;
            attempts += 1;
            let options = puzzle_options(args, seed);
            let made = generate_puzzle(&options);
            // A level is QQWing's replay alone: the full rating (Sudoku
            // Explainer's too) only for the puzzles that have it.
            if let crate::engine::rate::Difficulty::Level(l) = difficulty {
                if algoku_rate::level(&made.puzzle) != *l {
                    continue;
                }
            }
            let (mut p, rating) = rated(options, made);
            if difficulty.matches(&rating) {
                let mut v = crate::engine::rate::rating_json(&rating, false);
                if let serde_json::Value::Object(m) = &mut v {
                    m.remove("solution");
                }
                p.rating = Some(v);
                break p;
            }
        };
        progress.suspend(|| emit(out, &p, args.solution, global))?;
        progress.inc();
    }
    progress.finish();
    emit_summary(out, args, last, global)?;
    Ok(ExitCode::SUCCESS)
}

/// Prints one puzzle: JSON, or `PUZZLE [SOLUTION] N clues LEVEL SE X seed S`.
fn emit(out: &mut Out, p: &GeneratedPuzzle, solution: bool, global: &Global) -> Result<()> {
    if global.json {
        out.json(p)?;
        return Ok(());
    }
    let sol = if solution {
        format!(" {}", p.solution)
    } else {
        String::new()
    };
    let score = p.se.map_or("needs more than implemented".to_string(), |s| {
        format!("SE {s:.1}")
    });
    out.line(format_args!(
        "{}{} {} clues {} {} seed {}",
        p.puzzle,
        sol,
        p.clues,
        p.level.unwrap_or("?"),
        score,
        p.seed
    ))?;
    Ok(())
}
