//! Standard output, exit codes and error reporting.
//!
//! Results go to stdout through [`Out`]: human lines, or one compact JSON
//! value per line with `--json` (so a run over many inputs is JSON Lines).
//! Progress bars and human error messages go to stderr.

use std::io::{self, BufWriter, IsTerminal, Write};
use std::process::ExitCode;

use serde::Serialize;

/// Exit code of a negative verdict (`check` false, no solution, …).
pub const EXIT_NEGATIVE: u8 = 1;
/// Exit code of a usage or input error (and of every other error).
pub const EXIT_ERROR: u8 = 2;

/// Exit code 0 for a positive verdict, [`EXIT_NEGATIVE`] otherwise.
pub fn verdict(ok: bool) -> ExitCode {
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_NEGATIVE)
    }
}

/// Buffered standard output. Writes fail with the I/O error (a closed pipe
/// included) instead of panicking like `println!`.
pub struct Out {
    w: Box<dyn Write>,
}

impl Out {
    /// Standard output: line-buffered on a terminal, block-buffered otherwise.
    pub fn stdout() -> Out {
        let tty = io::stdout().is_terminal();
        let w: Box<dyn Write> = if tty {
            Box::new(io::stdout())
        } else {
            Box::new(BufWriter::with_capacity(64 * 1024, io::stdout()))
        };
        Out { w }
    }

    /// Writes `text` and a newline.
    pub fn line(&mut self, text: impl std::fmt::Display) -> io::Result<()> {
        writeln!(self.w, "{text}")
    }

    /// Writes `value` as compact JSON on one line.
    ///
    /// The value is serialized first and then written, so a failed write
    /// keeps its I/O error kind (a closed pipe ends the program quietly, as
    /// in text mode) instead of arriving wrapped in a serializer error.
    pub fn json<T: Serialize + ?Sized>(&mut self, value: &T) -> io::Result<()> {
        let mut line = serde_json::to_vec(value).map_err(io::Error::other)?;
        line.push(b'\n');
        self.w.write_all(&line)
    }

    /// Writes the error of a batch line that could not be read, in the
    /// line's place: `{"line": N, "error": …}` with `json`, else `error: …`.
    pub fn line_error(&mut self, json: bool, line: usize, message: &str) -> io::Result<()> {
        if json {
            self.json(&serde_json::json!({ "line": line, "error": message }))
        } else {
            self.line(format_args!("error: {}", escape_line(message)))
        }
    }

    /// Flushes the buffer.
    pub fn flush(&mut self) -> io::Result<()> {
        self.w.flush()
    }
}

/// Whether an error is (or was caused by) a closed output pipe, as when the
/// output is piped into `head`: that ends the program quietly.
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}

/// Reports an error: `error: …` (with its causes; one line, see
/// [`escape_line`]) on stderr, or with `json` `{"error": "…"}` on stdout —
/// and on stderr after all when stdout cannot take it (a full disk), so an
/// error is never lost. Failures to report on stderr are ignored: there is
/// nowhere left to report them.
pub fn report_error(message: &str, json: bool) {
    if json {
        let mut line = serde_json::json!({ "error": message }).to_string();
        line.push('\n');
        let mut stdout = io::stdout().lock();
        if stdout
            .write_all(line.as_bytes())
            .and_then(|()| stdout.flush())
            .is_ok()
        {
            return;
        }
    }
    let _ = writeln!(io::stderr().lock(), "error: {}", escape_line(message));
}

/// The message of an error and its causes, joined with `: `.
pub fn error_message(err: &anyhow::Error) -> String {
    format!("{err:#}")
}

/// Whether `c` would break a one-line message or act on the terminal:
/// control characters and the Unicode line and paragraph separators.
pub fn unsafe_in_a_line(c: char) -> bool {
    c.is_control() || c == '\u{2028}' || c == '\u{2029}'
}

/// `s` with the characters of [`unsafe_in_a_line`] escaped as Rust does
/// (`\n`, `\r`, `\u{1b}`, `\u{2028}`); other text unchanged. Error
/// messages quote what the user gave (values, file names, lines): this keeps
/// each one a single line that cannot move the cursor.
pub fn escape_line(s: &str) -> String {
    s.chars()
        .map(|c| {
            if unsafe_in_a_line(c) {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// A solution count that stops at `--count N`. The search looks for one more
/// than N, so the output can say whether N is the whole count or only a floor
/// (a partial result says so).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Count {
    /// The solutions found, at most `limit`.
    pub solutions: usize,
    /// The `--count` limit.
    pub limit: usize,
    /// Whether that is every solution (false: there are more than `limit`).
    pub complete: bool,
}

impl Count {
    /// How many solutions to search for under `limit`: one more, and at
    /// least 2 so that uniqueness is always decided.
    pub fn search_limit(limit: usize) -> usize {
        limit.saturating_add(1).max(2)
    }

    /// The count from `found` solutions searched with [`Count::search_limit`].
    pub fn new(found: usize, limit: usize) -> Count {
        Count {
            solutions: found.min(limit),
            limit,
            complete: found <= limit,
        }
    }

    /// The count as a line: the number, or the floor and where counting stopped.
    pub fn text(&self) -> String {
        if self.complete {
            self.solutions.to_string()
        } else {
            format!(
                "{n} or more (counting stopped at --count {n})",
                n = self.limit
            )
        }
    }
}
