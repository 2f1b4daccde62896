//! Batch runs over a file of solved grids (`clues --grids`, `ua --grids`):
//! a shard of the file, one JSON record per finished grid, and resume.
//!
//! Shard `I/M` (default `1/1`) takes the grids at 0-based positions p with
//! p mod M = I−1 in file order. Every grid of the file is checked before
//! anything is written (a bad grid anywhere is an error, exit 2).
//!
//! Where the records go:
//!
//! ```text
//!   --out F, F a regular file (or new) ──▶ locked, read back, appended: resume
//!   --out F, F a pipe, FIFO or device  ──▶ written only: no resume (said)
//!   no --out, or --out -               ──▶ standard output: no resume
//! ```
//!
//! A regular output file is held under an exclusive lock for the whole run,
//! so two runs never append the same grids. Each record carries the run's
//! settings (the command and every option that changes its result); a
//! record counts as done only for the same settings, and a file holding
//! records of other settings is refused with a one-line error naming the
//! difference (one file, one configuration: readers never have to choose
//! between two records of a grid). Each record is one line written whole
//! or not at all: a failed write (a full disk) is cut back to the last
//! complete line, and a partial last line left by a killed run is cut on
//! the next start, so a rerun of the same command resumes without
//! duplicates.

use std::collections::HashSet;
use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use algoku_checker::Cells;
use algoku_sudoku::Grid;
use anyhow::{anyhow, bail, Context, Result};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::io::input::{one_item, records, Source, MAX_INPUT};
use crate::io::output::Out;
use crate::Global;

/// `--shard I/M`: shard I (1-based) of M.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShardOf {
    /// I, from 1 to M.
    pub index: usize,
    /// M.
    pub count: usize,
}

/// Parses `I/M` (clap's value parser for `--shard`).
pub fn parse_shard(s: &str) -> Result<ShardOf, String> {
    let (i, m) = s
        .split_once('/')
        .ok_or_else(|| format!("{s:?}: expected I/M, e.g. 1/4"))?;
    let number = |t: &str, what: &str| {
        t.trim()
            .parse::<usize>()
            .map_err(|_| format!("{s:?}: {what} is not a number"))
    };
    let (index, count) = (number(i, "I")?, number(m, "M")?);
    if count == 0 || index == 0 || index > count {
        return Err(format!("{s:?}: need 1 <= I <= M"));
    }
    Ok(ShardOf { index, count })
}

/// The options of a batch run over a grid file, shared by `ua` and `clues`.
#[derive(clap::Args, Debug)]
pub struct BatchArgs {
    /// Batch mode: a file of solved grids, one per line ('#' and empty lines
    /// skipped); a JSON record per grid.
    #[arg(long, value_name = "FILE")]
    pub grids: Option<PathBuf>,
    /// Batch share I/M (1 <= I <= M): the grids at positions p with
    /// p mod M = I-1 (0-based, in file order). Default: 1/1, every grid.
    #[arg(long, value_name = "I/M", requires = "grids", value_parser = parse_shard)]
    pub shard: Option<ShardOf>,
    /// Batch output (JSON Lines, appended; grids already recorded with the
    /// same settings are skipped). Default: standard output (no resume).
    #[arg(long, value_name = "PATH", requires = "grids")]
    pub out: Option<PathBuf>,
    /// Wait for another run writing the same --out instead of failing.
    #[arg(long, requires = "out")]
    pub wait: bool,
}

impl BatchArgs {
    /// Whether a batch was asked for (`--grids`); fails when a batch option
    /// comes without it.
    pub fn is_batch(&self) -> Result<bool> {
        if self.grids.is_some() {
            return Ok(true);
        }
        if self.shard.is_some() || self.out.is_some() || self.wait {
            bail!("--shard, --out and --wait are for batch mode: they need --grids FILE");
        }
        Ok(false)
    }
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

/// The grid as 81 digits.
pub fn grid_text(grid: &Cells) -> String {
    grid.iter().map(|&d| char::from(b'0' + d)).collect()
}

/// The summary's note on repeated lines: empty when there are none.
pub fn repeated_text(repeated: usize) -> String {
    match repeated {
        0 => String::new(),
        1 => " (1 repeated line skipped)".into(),
        n => format!(" ({n} repeated lines skipped)"),
    }
}

/// One shard's work: the grids of the shard, those still to do, and where
/// their records go.
pub struct Shard {
    /// Shard number I (1-based).
    pub index: usize,
    /// Number of shards M.
    pub count: usize,
    /// The shard's grids, in file order, each once.
    pub mine: Vec<Cells>,
    /// The shard's lines skipped because an earlier line of the file holds
    /// the same grid.
    pub repeated: usize,
    /// The shard's grids not yet recorded with these settings.
    pub todo: Vec<Cells>,
    sink: Sink,
}

/// Where records go.
enum Sink {
    /// A regular file, locked for the run; `len` is its length up to the
    /// last complete record.
    File { path: PathBuf, file: File, len: u64 },
    /// A pipe, FIFO or device (records are written, never read back).
    Stream { path: PathBuf, file: File },
    /// Standard output.
    Stdout,
}

/// The part of a record that resume reads.
#[derive(Deserialize)]
struct Done {
    grid: String,
    settings: Option<Value>,
}

impl Shard {
    /// Reads and checks the grid file, opens the output (see the module
    /// documentation) and finds the grids already recorded with `settings`.
    pub fn open(spec: &BatchArgs, settings: &Value, global: &Global) -> Result<Shard> {
        let ShardOf { index, count } = spec.shard.unwrap_or(ShardOf { index: 1, count: 1 });
        let grids = spec
            .grids
            .as_deref()
            .ok_or_else(|| anyhow!("a batch needs --grids FILE"))?;
        let (mine, repeated) = shard_grids(grids, index, count)?;
        let sink = open_sink(spec, global)?;
        let (sink, done) = match sink {
            Sink::File { path, mut file, .. } => {
                let (done, len) = read_done(&path, &mut file, settings)?;
                (Sink::File { path, file, len }, done)
            }
            other => (other, HashSet::new()),
        };
        let todo = mine
            .iter()
            .copied()
            .filter(|g| !done.contains(&grid_text(g)))
            .collect();
        Ok(Shard {
            index,
            count,
            mine,
            repeated,
            todo,
            sink,
        })
    }

    /// Whether the output is read back on the next run.
    pub fn resumes(&self) -> bool {
        matches!(self.sink, Sink::File { .. })
    }

    /// Where the records go, for the summary.
    pub fn out_name(&self) -> String {
        match &self.sink {
            Sink::File { path, .. } | Sink::Stream { path, .. } => path.display().to_string(),
            Sink::Stdout => "standard output".into(),
        }
    }

    /// The summary of a run that processed `processed` grids, as JSON
    /// (commands add their own counts).
    pub fn summary(&self, processed: usize) -> Value {
        let mine = self.mine.len();
        serde_json::json!({
            "shard": format!("{}/{}", self.index, self.count),
            "grids": mine,
            "repeated": self.repeated,
            "already_done": mine - processed,
            "processed": processed,
            "out": self.out_name(),
            "resume": self.resumes(),
        })
    }

    /// Prints the summary: `{"summary": …}` with `--json` (the last line on
    /// standard output, as every batch ends), else a line that ends with `found` (the command's
    /// own counts). When the records themselves go to standard output, the
    /// text line goes to stderr so that standard output stays JSON Lines.
    pub fn report(
        &self,
        summary: &Value,
        found: &str,
        global: &Global,
        out: &mut Out,
    ) -> Result<()> {
        if global.json {
            out.json(&serde_json::json!({ "summary": summary }))?;
            return Ok(());
        }
        let (mine, processed) = (self.mine.len(), summary["processed"].as_u64().unwrap_or(0));
        let line = format!(
            "shard {}/{}: {mine} grids{}, {} already done, {processed} processed, {found}; records in {}{}",
            self.index,
            self.count,
            repeated_text(self.repeated),
            mine as u64 - processed,
            self.out_name(),
            if self.resumes() { "" } else { " (no resume)" },
        );
        if matches!(self.sink, Sink::Stdout) {
            eprintln!("{line}");
        } else {
            out.line(line)?;
        }
        Ok(())
    }

    /// Writes one record as a line: whole, flushed and (to a file) synced,
    /// or not at all.
    pub fn append(&mut self, record: &impl Serialize) -> Result<()> {
        let mut line = serde_json::to_vec(record)?;
        line.push(b'\n');
        match &mut self.sink {
            Sink::File { path, file, len } => {
                let written = file.write_all(&line).and_then(|()| file.sync_data());
                if let Err(e) = written {
                    // Cut back to the last whole record; the error is the news.
                    let _ = file.set_len(*len);
                    return Err(e).with_context(|| format!("cannot write {}", path.display()));
                }
                *len += line.len() as u64;
                Ok(())
            }
            Sink::Stream { path, file } => file
                .write_all(&line)
                .with_context(|| format!("cannot write {}", path.display())),
            Sink::Stdout => {
                let mut stdout = std::io::stdout().lock();
                stdout.write_all(&line).and_then(|()| stdout.flush())?;
                Ok(())
            }
        }
    }
}

/// The grids of shard `index`/`count` of `file`, each once, and the number
/// of the shard's lines that repeat an earlier grid.
fn shard_grids(file: &Path, index: usize, count: usize) -> Result<(Vec<Cells>, usize)> {
    let text = Source::File(file.to_path_buf()).read_text()?;
    let lines = records(&text);
    if lines.is_empty() {
        bail!(
            "file {}: no grid found (only empty or '#' lines)",
            file.display()
        );
    }
    let mut grids = Vec::with_capacity(lines.len());
    for l in &lines {
        if let Some(e) = &l.error {
            bail!("file {}: {e}", file.display());
        }
        let text = one_item(&l.text).map_err(|e| {
            anyhow::anyhow!("grid (file {}, line {}): {e}", file.display(), l.number)
        })?;
        grids.push(parse_grid(
            text,
            &format!("grid (file {}, line {})", file.display(), l.number),
        )?);
    }
    // A grid on two lines is one grid: the shard of its first line does it
    // once, and its later lines are skipped (counted as repeated).
    let mut seen = HashSet::with_capacity(grids.len());
    let (mut mine, mut repeated) = (Vec::new(), 0);
    for (p, g) in grids.into_iter().enumerate() {
        let first = seen.insert(g);
        if p % count == index - 1 {
            if first {
                mine.push(g);
            } else {
                repeated += 1;
            }
        }
    }
    Ok((mine, repeated))
}

/// Opens the output: standard output, a stream that is never read back, or
/// a regular file under an exclusive lock.
fn open_sink(spec: &BatchArgs, global: &Global) -> Result<Sink> {
    let path = match spec.out.as_deref() {
        None => return Ok(Sink::Stdout),
        Some(p) if p == Path::new("-") => return Ok(Sink::Stdout),
        Some(p) => p,
    };
    let shown = path.display();
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_dir() => bail!("--out {shown} is a directory"),
        Ok(meta) if !meta.is_file() => {
            if !is_stream(&meta) {
                bail!("--out {shown} is not a regular file, a pipe or a character device");
            }
            let file = OpenOptions::new()
                .append(true)
                .open(path)
                .with_context(|| format!("cannot open {shown}"))?;
            if !global.quiet {
                eprintln!(
                    "note: --out {shown} is not a regular file: records are written without resume"
                );
            }
            return Ok(Sink::Stream {
                path: path.to_path_buf(),
                file,
            });
        }
        Ok(_) if spec.grids.as_deref().is_some_and(|g| same_file(path, g)) => {
            bail!("--out {shown} is the grid file (--grids): give another output file")
        }
        _ => {}
    }
    let file = OpenOptions::new()
        .read(true)
        .append(true)
        .create(true)
        .open(path)
        .with_context(|| format!("cannot open {shown}"))?;
    lock(&file, path, spec.wait)?;
    Ok(Sink::File {
        path: path.to_path_buf(),
        file,
        len: 0,
    })
}

/// Takes the exclusive lock on an output file, failing at once (or waiting,
/// with `wait`) when another run holds it.
fn lock(file: &File, path: &Path, wait: bool) -> Result<()> {
    let shown = path.display();
    if wait {
        return file.lock().with_context(|| format!("cannot lock {shown}"));
    }
    match file.try_lock() {
        Ok(()) => Ok(()),
        Err(TryLockError::WouldBlock) => {
            bail!("{shown} is in use by another run (add --wait to wait for it)")
        }
        Err(TryLockError::Error(e)) => Err(e).with_context(|| format!("cannot lock {shown}")),
    }
}

/// Whether a non-regular file is one records can be streamed to: a pipe, a
/// FIFO, a socket or a character device (`/dev/stdout`, `/dev/null`).
#[cfg(unix)]
fn is_stream(meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::FileTypeExt;
    let t = meta.file_type();
    t.is_fifo() || t.is_char_device() || t.is_socket()
}

#[cfg(not(unix))]
fn is_stream(_meta: &std::fs::Metadata) -> bool {
    false
}

/// Whether two existing paths name the same file (links included).
fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let (Ok(x), Ok(y)) = (std::fs::metadata(a), std::fs::metadata(b)) {
            return (x.dev(), x.ino()) == (y.dev(), y.ino());
        }
    }
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}

/// Reads the grids already recorded in the locked output file with
/// `settings`, and cuts a partial last line (an interrupted write) so the
/// next record starts on its own line. Returns them and the file's length.
/// A line that is not a record, or a record made with other settings, is an
/// error: the run would otherwise mix results of two configurations.
fn read_done(path: &Path, file: &mut File, settings: &Value) -> Result<(HashSet<String>, u64)> {
    let shown = path.display();
    let size = file
        .metadata()
        .with_context(|| format!("cannot read {shown}"))?
        .len();
    if size > MAX_INPUT as u64 {
        bail!("--out {shown} is larger than {MAX_INPUT} bytes: too large to resume from; give another output file");
    }
    let mut text = Vec::with_capacity(size as usize);
    Read::by_ref(file)
        .take(MAX_INPUT as u64 + 1)
        .read_to_end(&mut text)
        .with_context(|| format!("cannot read {shown}"))?;
    let complete_len = text.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
    let mut done = HashSet::new();
    for (n, line) in text[..complete_len].split(|&b| b == b'\n').enumerate() {
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let record: Done = serde_json::from_slice(line).map_err(|_| {
            anyhow!(
                "--out {shown}: line {} is not a record of this command; give another output file",
                n + 1
            )
        })?;
        check_settings(&record, settings, path, n + 1)?;
        done.insert(record.grid);
    }
    if complete_len < text.len() {
        file.set_len(complete_len as u64)
            .with_context(|| format!("cannot truncate {shown}"))?;
    }
    Ok((done, complete_len as u64))
}

/// Fails unless a record was made with `settings`, naming the first
/// difference.
fn check_settings(record: &Done, settings: &Value, path: &Path, line: usize) -> Result<()> {
    let shown = path.display();
    let Some(theirs) = &record.settings else {
        bail!("--out {shown}: line {line} is a record without its settings (from an earlier algoku); give another output file");
    };
    if theirs == settings {
        return Ok(());
    }
    let (Value::Object(theirs), Value::Object(ours)) = (theirs, settings) else {
        bail!("--out {shown}: line {line} has settings of another kind; give another output file");
    };
    // The command first: other options mean nothing across commands.
    let keys =
        std::iter::once("command").chain(ours.keys().chain(theirs.keys()).map(String::as_str));
    for key in keys {
        let (a, b) = (theirs.get(key), ours.get(key));
        if a != b {
            let show = |v: Option<&Value>| v.map_or("unset".to_string(), Value::to_string);
            bail!(
                "--out {shown} holds records made with {key} {} (line {line}), this run has {}: rerun with the same settings to resume, or give another output file",
                show(a),
                show(b)
            );
        }
    }
    Ok(())
}
