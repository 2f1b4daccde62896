//! What every batch command prints, and its exit code: `verify --file`,
//! `verify --puzzle-file`, `curta generate --file` and `curta verify --file`.
//!
//! ```text
//! stdout   one line per input line, in input order    LINE …            (text)
//!                                                      {"line": N, …}    (--json)
//!          then, with --json, the summary              {"summary": {…}}
//! stderr   without --json, the summary's lines
//! exit     2 when a line is an error or the batch stopped, else
//!          1 when a verdict is false, else 0
//! ```
//!
//! Each command has its own typed line (its outcomes differ: a fee paid, an
//! answer compared with the native code); the [`BatchLine`] trait gives both
//! forms of one value, and the [`Reporter`] writes them, so text and JSON
//! never disagree and every batch streams the same way.

use std::io;
use std::process::ExitCode;

use serde::Serialize;
use serde_json::{json, Value};

use crate::io::output::{Out, EXIT_ERROR, EXIT_NEGATIVE};
use crate::io::progress::Progress;

/// One output line of a batch: its JSON form (`Serialize`) and its text form.
pub trait BatchLine: Serialize {
    /// The text form, starting with the input's line number.
    fn text(&self) -> String;
}

/// Writes a batch's lines and summary to stdout (and stderr), as `--json` asks.
pub struct Reporter<'a> {
    out: &'a mut Out,
    json: bool,
}

impl<'a> Reporter<'a> {
    pub fn new(out: &'a mut Out, json: bool) -> Reporter<'a> {
        Reporter { out, json }
    }

    /// Whether lines are JSON (`--json`).
    pub fn is_json(&self) -> bool {
        self.json
    }

    /// Writes one line, with the progress bar cleared while it is written.
    pub fn line(&mut self, l: &impl BatchLine, progress: &Progress) -> io::Result<()> {
        progress.suspend(|| {
            if self.json {
                self.out.json(l)
            } else {
                self.out.line(l.text())
            }
        })
    }

    /// Lines written so far reach the reader (a stream's window at a time).
    pub fn flush(&mut self, progress: &Progress) -> io::Result<()> {
        progress.suspend(|| self.out.flush())
    }

    /// The summary: `{"summary": …}` on stdout with `--json`, else `text`'s
    /// lines on stderr (a reader of stdout sees only the lines).
    pub fn summary(
        &mut self,
        summary: Value,
        text: impl FnOnce() -> Vec<String>,
    ) -> io::Result<()> {
        if self.json {
            return self.out.json(&json!({ "summary": summary }));
        }
        for line in text() {
            eprintln!("{line}");
        }
        Ok(())
    }
}

/// The exit rule of every batch (README, Conventions): 2 when a line is an
/// error or the batch stopped, 1 when a verdict is false, else 0.
pub fn batch_exit(errors: u64, stopped: bool, all_true: bool) -> ExitCode {
    if errors > 0 || stopped {
        ExitCode::from(EXIT_ERROR)
    } else if all_true {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_NEGATIVE)
    }
}

/// Adds `from`'s fields to the object `to` (both JSON objects).
pub fn merge(to: &mut Value, from: &Value) {
    if let (Some(to), Some(from)) = (to.as_object_mut(), from.as_object()) {
        for (k, v) in from {
            to.insert(k.clone(), v.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_or_a_stop_outranks_a_false_verdict() {
        let code = |e, s, t| format!("{:?}", batch_exit(e, s, t));
        assert_eq!(code(1, false, false), format!("{:?}", ExitCode::from(2)));
        assert_eq!(code(0, true, true), format!("{:?}", ExitCode::from(2)));
        assert_eq!(code(0, false, false), format!("{:?}", ExitCode::from(1)));
        assert_eq!(code(0, false, true), format!("{:?}", ExitCode::SUCCESS));
    }
}
