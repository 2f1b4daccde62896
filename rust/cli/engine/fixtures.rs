//! `algoku fixtures`: writes the deterministic 9x9 and Curta fixture sets.
//!
//! Each file is written to a temporary file in the same directory and then
//! renamed over the target, so a reader never sees a partial file and an
//! interrupted run leaves the previous file intact. The same options always
//! give byte-identical files.

use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use algoku_fixtures::{
    category_counts, curta_fixtures, sudoku_fixtures, write_json, write_jsonl, CurtaFixture,
    FixtureOptions, DEFAULT_SEED,
};
use anyhow::{Context, Result};
use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};

use crate::io::output::Out;
use crate::Global;

/// The file format of the fixtures.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// One pretty-printed JSON array per file.
    Json,
    /// JSON Lines: one compact record per line.
    Jsonl,
}

impl Format {
    /// The file extension (and the name in the summary).
    fn extension(self) -> &'static str {
        match self {
            Format::Json => "json",
            Format::Jsonl => "jsonl",
        }
    }
}

/// Arguments of `algoku fixtures`.
#[derive(clap::Args, Debug)]
pub struct FixturesArgs {
    /// The directory to write `sudoku.<ext>` and `curta.<ext>` into
    /// (created if missing).
    #[arg(long, value_name = "DIR", default_value = "fixtures")]
    out: PathBuf,
    /// The seed every record is derived from.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_SEED)]
    seed: u64,
    /// The file format.
    #[arg(long, value_enum, default_value_t = Format::Jsonl)]
    format: Format,
    /// The number of valid 9x9 grids.
    #[arg(long, visible_alias = "valid", value_name = "N", default_value_t = FixtureOptions::default().count, value_parser = bounded_count)]
    count: usize,
    /// The number of records of each randomized invalid 9x9 category.
    #[arg(long, value_name = "N", default_value_t = FixtureOptions::default().invalid_per_category, value_parser = bounded_count)]
    invalid_per_category: usize,
    /// The number of Curta addresses derived from the seed, besides the
    /// fixed ones.
    #[arg(long, value_name = "N", default_value_t = FixtureOptions::default().curta_addresses, value_parser = bounded_count)]
    curta_addresses: usize,
    /// The number of puzzles of each difficulty level in `difficulty.<ext>`
    /// (0: no difficulty file, and an earlier one in DIR is removed).
    #[arg(long, value_name = "N", default_value_t = algoku_fixtures::DEFAULT_PER_LEVEL, value_parser = bounded_count)]
    per_level: usize,
}

/// The most records of one kind `fixtures` makes. The records are built in
/// memory before anything is written (so a failure writes nothing): this
/// bound keeps that memory to tens of megabytes, far above what a test
/// suite needs (the defaults are 20).
pub const MAX_RECORDS: usize = 100_000;

/// Parses a record count, refusing counts above [`MAX_RECORDS`].
fn bounded_count(s: &str) -> Result<usize, String> {
    let n: usize = s
        .parse()
        .map_err(|_| format!("`{s}` is not a count (0..={MAX_RECORDS})"))?;
    if n > MAX_RECORDS {
        return Err(format!(
            "{n} is more than {MAX_RECORDS} records; make several runs with other --seed values instead"
        ));
    }
    Ok(n)
}

/// Counts by name, serialized as a JSON object in insertion order.
#[derive(Debug)]
struct Counts(Vec<(String, usize)>);

impl Serialize for Counts {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

/// What was written to one file.
#[derive(Debug, Serialize)]
struct FileSummary {
    path: String,
    records: usize,
    categories: Counts,
}

/// The summary printed with `--json`.
#[derive(Debug, Serialize)]
struct Summary {
    seed: u64,
    format: &'static str,
    files: Vec<FileSummary>,
}

/// Runs `algoku fixtures`; exit 0.
pub fn run(args: &FixturesArgs, global: &Global, out: &mut Out) -> Result<ExitCode> {
    let options = FixtureOptions {
        seed: args.seed,
        count: args.count,
        invalid_per_category: args.invalid_per_category,
        curta_addresses: args.curta_addresses,
    };
    if args.out.exists() && !args.out.is_dir() {
        anyhow::bail!(
            "--out {}: that is a file; --out names the directory the fixture files go into",
            args.out.display()
        );
    }
    let sudoku = sudoku_fixtures(&options).context("generating the 9×9 fixtures")?;
    let curta = curta_fixtures(&options).context("generating the Curta fixtures")?;
    fs::create_dir_all(&args.out)
        .with_context(|| format!("cannot create directory {}", args.out.display()))?;
    let ext = args.format.extension();
    let sudoku_path = args.out.join(format!("sudoku.{ext}"));
    let curta_path = args.out.join(format!("curta.{ext}"));
    write_records(&sudoku_path, &sudoku, args.format)?;
    write_records(&curta_path, &curta, args.format)?;
    let path = args.out.join(format!("difficulty.{ext}"));
    let difficulty = if args.per_level > 0 {
        let records = algoku_fixtures::difficulty_fixtures(args.seed, args.per_level)
            .context("generating the difficulty fixtures")?;
        write_records(&path, &records, args.format)?;
        Some((path, records))
    } else {
        // The folder holds this run's files only: an earlier run's
        // difficulty file would pass for this seed's.
        match fs::remove_file(&path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                return Err(e).with_context(|| format!("cannot remove {}", path.display()));
            }
            _ => None,
        }
    };

    let summary = Summary {
        seed: args.seed,
        format: ext,
        files: vec![
            FileSummary {
                path: sudoku_path.display().to_string(),
                records: sudoku.len(),
                categories: Counts(
                    category_counts(&sudoku)
                        .into_iter()
                        .map(|(c, n)| (c.as_str().to_string(), n))
                        .collect(),
                ),
            },
            FileSummary {
                path: curta_path.display().to_string(),
                records: curta.len(),
                categories: curta_counts(&curta),
            },
        ],
    };
    let mut summary = summary;
    if let Some((path, records)) = &difficulty {
        let levels = algoku_rate::Level::ALL
            .iter()
            .map(|l| {
                let n = records.iter().filter(|r| r.level == l.name()).count();
                (l.name().to_string(), n)
            })
            .collect();
        summary.files.push(FileSummary {
            path: path.display().to_string(),
            records: records.len(),
            categories: Counts(levels),
        });
    }
    if global.json {
        out.json(&summary)?;
    } else {
        for file in &summary.files {
            let categories: Vec<String> = file
                .categories
                .0
                .iter()
                .map(|(k, n)| format!("{k} {n}"))
                .collect();
            out.line(format_args!(
                "{}: {} records ({})",
                file.path,
                file.records,
                categories.join(", ")
            ))?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Curta records by solvability, and their broken solutions.
fn curta_counts(records: &[CurtaFixture]) -> Counts {
    let solvable = records.iter().filter(|r| r.solvable).count();
    let broken = records.iter().map(|r| r.broken.len()).sum();
    Counts(vec![
        ("solvable".to_string(), solvable),
        ("unsolvable".to_string(), records.len() - solvable),
        ("broken_solutions".to_string(), broken),
    ])
}

/// Writes `records` to `path` atomically (temporary file, then rename).
fn write_records<T: Serialize>(path: &Path, records: &[T], format: Format) -> Result<()> {
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("fixtures");
    let tmp = path.with_file_name(format!(".{name}.tmp-{}", std::process::id()));
    let result = (|| -> Result<()> {
        let file =
            File::create(&tmp).with_context(|| format!("cannot create {}", tmp.display()))?;
        let mut w = BufWriter::new(file);
        match format {
            Format::Json => write_json(&mut w, records),
            Format::Jsonl => write_jsonl(&mut w, records),
        }
        .and_then(|()| w.flush())
        .with_context(|| format!("cannot write {}", tmp.display()))?;
        let file = w.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()
            .with_context(|| format!("cannot write {}", tmp.display()))?;
        fs::rename(&tmp, path)
            .with_context(|| format!("cannot rename {} to {}", tmp.display(), path.display()))
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}
