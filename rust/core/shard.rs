//! Batch runs over a file of solved grids (`clues --grids`, `ua --grids`):
//! a shard of the file, one JSON record appended per finished grid, and
//! resume.
//!
//! Shard `I/M` takes the grids at 0-based positions p with p mod M = I−1 in
//! file order. Every grid of the file is checked before anything is
//! written (a bad grid anywhere is an error, exit 2). Each record is
//! written as one line, flushed and synced; on restart the grids already
//! recorded in the output file are skipped, and a partial last line (an
//! interrupted write) is cut first, so a rerun of the same command resumes
//! without duplicates.

use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use algoku_checker::Cells;
use anyhow::{anyhow, bail, Context, Result};
use serde::Serialize;

use crate::input::{records, Source};
use crate::ua::parse_grid;

/// Parses a `I/M` shard spec.
pub fn parse_shard(s: &str) -> Result<(usize, usize)> {
    let (i, m) = s
        .split_once('/')
        .ok_or_else(|| anyhow!("--shard {s:?}: expected I/M, e.g. 1/4"))?;
    let i: usize = i
        .trim()
        .parse()
        .map_err(|_| anyhow!("--shard {s:?}: I is not a number"))?;
    let m: usize = m
        .trim()
        .parse()
        .map_err(|_| anyhow!("--shard {s:?}: M is not a number"))?;
    if m == 0 || i == 0 || i > m {
        bail!("--shard {s:?}: need 1 <= I <= M");
    }
    Ok((i, m))
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

/// One shard's work: the grids of the shard, those still to do, and the
/// output file to append records to.
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
    /// The shard's grids not yet in the output file.
    pub todo: Vec<Cells>,
    out_path: PathBuf,
    out: File,
}

impl Shard {
    /// Reads and checks the grid file, reads the output file's finished
    /// grids (a record is a line that `grid_of` accepts; it returns the
    /// record's grid) and opens it for appending.
    pub fn open(
        file: &Path,
        shard: &str,
        out_path: &Path,
        grid_of: fn(&[u8]) -> Option<String>,
    ) -> Result<Shard> {
        let (index, count) = parse_shard(shard)?;
        let text = Source::File(file.to_path_buf()).read_text()?;
        let lines = records(&text, 81);
        if lines.is_empty() {
            bail!(
                "file {}: no grid found (only empty or '#' lines)",
                file.display()
            );
        }
        let mut grids = Vec::with_capacity(lines.len());
        for l in &lines {
            grids.push(parse_grid(
                &l.text,
                &format!("grid (file {}, line {})", file.display(), l.number),
            )?);
        }
        // A grid on two lines is one grid: the shard of its first line does
        // it once, and its later lines are skipped (counted in `repeated`).
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
        let done = done_grids(out_path, grid_of)?;
        let todo = mine
            .iter()
            .copied()
            .filter(|g| !done.contains(&grid_text(g)))
            .collect();
        let out = OpenOptions::new()
            .create(true)
            .append(true)
            .open(out_path)
            .with_context(|| format!("cannot open {}", out_path.display()))?;
        Ok(Shard {
            index,
            count,
            mine,
            repeated,
            todo,
            out_path: out_path.to_path_buf(),
            out,
        })
    }

    /// Appends one record as a line, flushed and synced.
    pub fn append(&mut self, record: &impl Serialize) -> Result<()> {
        let mut line = serde_json::to_string(record)?;
        line.push('\n');
        self.out
            .write_all(line.as_bytes())
            .and_then(|()| self.out.flush())
            .and_then(|()| self.out.sync_data())
            .with_context(|| format!("cannot write {}", self.out_path.display()))
    }
}

/// Reads the grids already recorded in `path` and cuts a partial last line
/// (an interrupted write) so the next record starts on its own line.
fn done_grids(path: &Path, grid_of: fn(&[u8]) -> Option<String>) -> Result<HashSet<String>> {
    let mut done = HashSet::new();
    let text = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(done),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    };
    let complete_len = text.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
    for line in text[..complete_len].split(|&b| b == b'\n') {
        if let Some(g) = grid_of(line) {
            done.insert(g);
        }
    }
    if complete_len < text.len() {
        let f = OpenOptions::new()
            .write(true)
            .open(path)
            .with_context(|| format!("cannot open {}", path.display()))?;
        f.set_len(complete_len as u64)
            .with_context(|| format!("cannot truncate {}", path.display()))?;
    }
    Ok(done)
}
