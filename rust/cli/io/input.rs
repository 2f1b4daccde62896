//! Where a grid, puzzle, board or address comes from.
//!
//! Every command that reads one follows the same convention: a positional
//! argument, or `--file PATH`, or standard input when the argument is `-`, or
//! when it is absent and stdin is not a terminal (so `… | algoku check`
//! works). Errors say which source was read, and the parse errors of the
//! crates name the position and what was expected.

use std::fmt;
use std::io::{BufRead, IsTerminal, Read};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

/// One input source, resolved from the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// The text of a positional argument.
    Arg(String),
    /// The contents of a file (`--file PATH`).
    File(PathBuf),
    /// Standard input (`-`, or no argument with piped input).
    Stdin,
}

impl Source {
    /// Resolves the convention above. `what` names the expected value in the
    /// error given when there is no input at all (e.g. `"grid"`).
    pub fn resolve(arg: Option<&str>, file: Option<&Path>, what: &str) -> Result<Source> {
        match (arg, file) {
            (Some(_), Some(_)) => {
                bail!("give the {what} either as an argument or with --file, not both")
            }
            (_, Some(path)) => Ok(Source::File(path.to_path_buf())),
            (Some("-"), None) => Ok(Source::Stdin),
            (Some(text), None) => Ok(Source::Arg(text.to_string())),
            (None, None) if !std::io::stdin().is_terminal() => Ok(Source::Stdin),
            (None, None) => bail!(
                "no {what} given: pass it as an argument, with --file PATH, or on stdin (`-`)"
            ),
        }
    }

    /// Whether the source is a stream that may hold many lines (a file or
    /// stdin) rather than a single argument.
    pub fn is_stream(&self) -> bool {
        !matches!(self, Source::Arg(_))
    }

    /// The records of a line-oriented input, read to the end (see [`LineReader`]):
    /// every line's problem (too long, not UTF-8) is that line's error in its place.
    pub fn read_lines(&self) -> Result<Vec<Line>> {
        self.lines()?.collect()
    }

    /// The records of a line-oriented input as they arrive (see [`LineReader`]):
    /// standard input is answered line by line, never read to the end first.
    pub fn lines(&self) -> Result<Box<dyn Iterator<Item = Result<Line>>>> {
        Ok(match self {
            Source::Arg(text) => Box::new(LineReader::new(
                std::io::Cursor::new(text.clone().into_bytes()),
                self.clone(),
            )),
            Source::File(path) => {
                let file = std::fs::File::open(path)
                    .with_context(|| format!("cannot read {}", path.display()))?;
                Box::new(LineReader::new(std::io::BufReader::new(file), self.clone()))
            }
            Source::Stdin => Box::new(LineReader::new(
                std::io::BufReader::new(std::io::stdin()),
                self.clone(),
            )),
        })
    }

    /// Reads the whole text of a single value. Files and stdin must be UTF-8; a
    /// leading byte order mark is dropped. Reading is bounded: a line longer than
    /// [`MAX_LINE`] bytes or an input larger than [`MAX_INPUT`] bytes is an error
    /// naming the line, raised as soon as the limit is crossed (so `--file
    /// /dev/zero` fails at once instead of filling memory).
    pub fn read_text(&self) -> Result<String> {
        let bytes = match self {
            Source::Arg(text) => return Ok(text.clone()),
            Source::File(path) => {
                let file = std::fs::File::open(path)
                    .with_context(|| format!("cannot read {}", path.display()))?;
                read_bounded(file, self, MAX_LINE, MAX_INPUT)?
            }
            Source::Stdin => read_bounded(std::io::stdin().lock(), self, MAX_LINE, MAX_INPUT)?,
        };
        let mut text = String::from_utf8(bytes).map_err(|e| {
            anyhow::anyhow!(
                "{self} is not UTF-8 text (invalid byte at offset {})",
                e.utf8_error().valid_up_to()
            )
        })?;
        // A byte order mark, as editors on Windows write, is not content.
        if text.starts_with(BOM) {
            text.drain(..BOM.len_utf8());
        }
        Ok(text)
    }
}

/// The Unicode byte order mark (U+FEFF).
const BOM: char = '\u{feff}';

/// The longest input line accepted: a grid, puzzle pair or address line is at
/// most a few hundred bytes; 64 KiB leaves room for comments and pasted text.
pub const MAX_LINE: usize = 64 * 1024;

/// The largest input accepted (the complete 17-clue list is 4 MB).
pub const MAX_INPUT: usize = 1 << 30;

/// Reads `reader` to the end, failing as soon as the whole exceeds
/// `max_total` bytes or a line (ended by `\n`, `\r\n` or a lone `\r`) exceeds
/// `max_line` bytes.
fn read_bounded(
    mut reader: impl Read,
    source: &Source,
    max_line: usize,
    max_total: usize,
) -> Result<Vec<u8>> {
    let mut buf = Vec::new();
    let mut chunk = vec![0u8; 64 * 1024];
    let (mut line, mut line_len) = (1usize, 0usize);
    loop {
        let n = match reader.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e).with_context(|| format!("cannot read {source}")),
        };
        if buf.len() + n > max_total {
            bail!("{source} is larger than {max_total} bytes");
        }
        for &b in &chunk[..n] {
            if b == b'\n' || b == b'\r' {
                // "\r\n" counts once: the '\n' right after a '\r' starts no line.
                if !(b == b'\n' && buf.last() == Some(&b'\r')) {
                    line += 1;
                }
                line_len = 0;
            } else {
                line_len += 1;
                if line_len > max_line {
                    bail!("{source}: line {line} is longer than {max_line} bytes (one grid, puzzle or address per line is expected)");
                }
            }
            buf.push(b);
        }
    }
    Ok(buf)
}

impl fmt::Display for Source {
    /// `argument`, `file PATH` or `stdin`, for messages.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Arg(_) => f.write_str("argument"),
            Source::File(path) => write!(f, "file {}", path.display()),
            Source::Stdin => f.write_str("stdin"),
        }
    }
}

/// Reads a single value that may have been pasted over several lines: the
/// lines are trimmed and joined, so a 9-line grid becomes one 81-character
/// line (positions in later errors are then cell positions). Fails on empty
/// input.
pub fn read_single(source: &Source, what: &str) -> Result<String> {
    let text = source.read_text()?;
    let joined: String = text.split(['\n', '\r']).map(str::trim).collect();
    if joined.is_empty() {
        bail!("{source}: no {what} found (the input is empty)");
    }
    Ok(joined)
}

/// One record of a line-oriented input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// 1-based line number in the source.
    pub number: usize,
    /// The line's content, trimmed, without a trailing comment (` # …`).
    pub text: String,
    /// Why the line cannot be read (longer than [`MAX_LINE`] bytes, or not
    /// UTF-8): the line gets this error in its place, the others are answered.
    pub error: Option<String>,
}

/// The records of a line-oriented input in the benchmark format, one per line,
/// read as they arrive:
///
/// * a line ends at `\n`, `\r\n` or a lone `\r` (old Mac files), so no line
///   hides another;
/// * empty lines and lines whose first character other than white space is
///   `#` are skipped; a comment after the content (white space, then `#`) is
///   dropped; anything else on the line is part of it, so a line holding two
///   grids, or a grid and trailing characters, is that line's parse error;
/// * a line longer than [`MAX_LINE`] bytes, or one that is not UTF-8 (one
///   Latin-1 byte), is an error of that line alone ([`Line::error`]); a leading
///   byte order mark is dropped;
/// * the whole is bounded by [`MAX_INPUT`] bytes: past it the reader yields an
///   error and stops.
pub struct LineReader<R> {
    reader: R,
    source: Source,
    number: usize,
    total: usize,
    /// A `\r` ended the last line: a `\n` right after it belongs to it.
    after_cr: bool,
    done: bool,
}

impl<R: BufRead> LineReader<R> {
    pub fn new(reader: R, source: Source) -> LineReader<R> {
        LineReader {
            reader,
            source,
            number: 0,
            total: 0,
            after_cr: false,
            done: false,
        }
    }

    /// The next raw line: its first [`MAX_LINE`] bytes and whether it was
    /// longer; `None` at the end.
    fn raw(&mut self) -> Result<Option<(Vec<u8>, bool)>> {
        let (mut bytes, mut long, mut any) = (Vec::new(), false, false);
        loop {
            let avail = match self.reader.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e).with_context(|| format!("cannot read {}", self.source)),
            };
            if avail.is_empty() {
                return Ok(any.then_some((bytes, long)));
            }
            if std::mem::take(&mut self.after_cr) && avail[0] == b'\n' {
                self.reader.consume(1);
                self.total += 1;
                continue;
            }
            any = true;
            let end = avail.iter().position(|&b| b == b'\n' || b == b'\r');
            let body = &avail[..end.unwrap_or(avail.len())];
            let room = MAX_LINE.saturating_sub(bytes.len());
            long |= body.len() > room;
            bytes.extend_from_slice(&body[..body.len().min(room)]);
            let used = body.len() + usize::from(end.is_some());
            self.after_cr = end.is_some_and(|i| avail[i] == b'\r');
            self.reader.consume(used);
            self.total += used;
            if self.total > MAX_INPUT {
                bail!("{} is larger than {MAX_INPUT} bytes", self.source);
            }
            if end.is_some() {
                return Ok(Some((bytes, long)));
            }
        }
    }

    /// The record of raw line `self.number`, or `None` for a line skipped.
    fn record(&self, mut bytes: Vec<u8>, long: bool) -> Option<Line> {
        if self.number == 1 && bytes.starts_with("\u{feff}".as_bytes()) {
            bytes.drain(..3);
        }
        let first = bytes.iter().find(|b| !b.is_ascii_whitespace());
        if first.is_none() || first == Some(&b'#') {
            return None;
        }
        let error = |why: String| Line {
            number: self.number,
            text: String::new(),
            error: Some(format!("{}: line {} {why}", self.source, self.number)),
        };
        if long {
            return Some(error(format!(
                "is longer than {MAX_LINE} bytes (one grid, puzzle or address per line is expected)"
            )));
        }
        let text = match std::str::from_utf8(&bytes) {
            Ok(t) => t,
            Err(e) => {
                return Some(error(format!(
                    "is not UTF-8 text (invalid byte at column {})",
                    e.valid_up_to() + 1
                )))
            }
        };
        let content = match text.find(" #").or_else(|| text.find("\t#")) {
            Some(at) => &text[..at],
            None => text,
        };
        Some(Line {
            number: self.number,
            text: content.trim().to_string(),
            error: None,
        })
    }
}

impl<R: BufRead> Iterator for LineReader<R> {
    type Item = Result<Line>;

    fn next(&mut self) -> Option<Result<Line>> {
        while !self.done {
            match self.raw() {
                Ok(Some((bytes, long))) => {
                    self.number += 1;
                    if let Some(line) = self.record(bytes, long) {
                        return Some(Ok(line));
                    }
                }
                Ok(None) => self.done = true,
                Err(e) => {
                    self.done = true;
                    return Some(Err(e));
                }
            }
        }
        None
    }
}

/// The puzzle of a puzzle file's line in the benchmark format: its first word (a
/// solution or a note may follow it, as `generate --solution` prints).
pub fn first_item(text: &str) -> &str {
    text.split_whitespace().next().unwrap_or("")
}

/// The one grid of a grid file's line: its first word. Text after white space is a
/// note, but a second word as long as the first is a second grid, and that is the
/// line's error. (Puzzle files, for `solve` and `rate`, keep the benchmark format: a
/// puzzle may be followed by its solution.)
pub fn one_item(text: &str) -> std::result::Result<&str, String> {
    let mut words = text.split_whitespace();
    let first = words.next().unwrap_or("");
    match words.next() {
        Some(second) if second.chars().count() == first.chars().count() => Err(format!(
            "more than one item on the line ({} characters, then {} more): one per line is expected",
            first.chars().count(),
            second.chars().count()
        )),
        _ => Ok(first),
    }
}

/// The records of a file or stdin, with their count when known before the first
/// answer: a file is read whole first (its progress bar has a length), stdin is
/// answered line by line as it arrives (`yes P | algoku solve - | head` stops).
pub type Lines = (Option<u64>, Box<dyn Iterator<Item = Result<Line>>>);

/// [`Lines`] of `source`.
pub fn stream_lines(source: &Source) -> Result<Lines> {
    if *source == Source::Stdin {
        return Ok((None, source.lines()?));
    }
    let lines = source.read_lines()?;
    Ok((
        Some(lines.len() as u64),
        Box::new(lines.into_iter().map(Ok)),
    ))
}

/// The records of a text already read (see [`LineReader`]).
pub fn records(text: &str) -> Vec<Line> {
    LineReader::new(text.as_bytes(), Source::Arg(String::new()))
        .filter_map(Result::ok)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines_of(bytes: &[u8]) -> Vec<(usize, String, Option<String>)> {
        LineReader::new(bytes, Source::Stdin)
            .map(|l| l.unwrap())
            .map(|l| (l.number, l.text, l.error))
            .collect()
    }

    #[test]
    fn every_line_ending_ends_a_line() {
        let got = lines_of(b"a\rb\r\nc\nd\r\re");
        let texts: Vec<_> = got.iter().map(|(n, t, _)| (*n, t.as_str())).collect();
        assert_eq!(texts, [(1, "a"), (2, "b"), (3, "c"), (4, "d"), (6, "e")]);
    }

    #[test]
    fn comments_blank_lines_and_trailing_comments_are_skipped() {
        let got = lines_of(b"\xef\xbb\xbf# header\r\n\r\nabcdef extra\r\n  xyz # note\n#x\nlast");
        let texts: Vec<_> = got.iter().map(|(n, t, _)| (*n, t.as_str())).collect();
        assert_eq!(texts, [(3, "abcdef extra"), (4, "xyz"), (6, "last")]);
    }

    #[test]
    fn a_bad_line_is_an_error_of_its_own() {
        let long = "1".repeat(MAX_LINE + 1);
        let text = format!("ab\n{long}\n\u{e9}t\u{e9}\ncd\n# \u{e9}\n");
        let mut bytes = text.into_bytes();
        // a Latin-1 byte on line 4 (the UTF-8 above is fine)
        bytes.extend_from_slice(b"x\xe9y\nef\n");
        let got = lines_of(&bytes);
        let numbers: Vec<_> = got.iter().map(|(n, _, e)| (*n, e.is_some())).collect();
        assert_eq!(
            numbers,
            [
                (1, false),
                (2, true),
                (3, false),
                (4, false),
                (6, true),
                (7, false)
            ]
        );
        assert!(got[1]
            .2
            .as_ref()
            .unwrap()
            .contains("line 2 is longer than 65536 bytes"));
        assert_eq!(
            got[4].2.as_deref(),
            Some("stdin: line 6 is not UTF-8 text (invalid byte at column 2)")
        );
    }

    #[test]
    fn a_long_comment_line_stays_a_comment() {
        let mut text = b"12\n#".to_vec();
        text.extend(std::iter::repeat_n(b'7', 200_000));
        text.extend(b"\n345\n");
        let numbers: Vec<_> = lines_of(&text).iter().map(|l| l.0).collect();
        assert_eq!(numbers, [1, 3]);
    }

    #[test]
    fn reading_a_single_value_is_bounded() {
        let src = Source::Stdin;
        assert_eq!(
            read_bounded(&b"12\n345\n"[..], &src, 3, 100).unwrap(),
            b"12\n345\n"
        );
        let long = read_bounded(&b"12\r3456\n"[..], &src, 3, 100).unwrap_err();
        assert!(
            long.to_string().contains("line 2 is longer than 3 bytes"),
            "{long}"
        );
        let big = read_bounded(&b"1\n2\n3\n"[..], &src, 3, 4).unwrap_err();
        assert!(big.to_string().contains("larger than 4 bytes"), "{big}");
        let zero = read_bounded(std::io::repeat(0), &src, MAX_LINE, MAX_INPUT).unwrap_err();
        assert!(zero.to_string().contains("line 1 is longer"), "{zero}");
    }

    #[test]
    fn an_endless_line_is_bounded_too() {
        let mut lines = LineReader::new(
            std::io::BufReader::new(std::io::repeat(b'1').take(3 * MAX_LINE as u64)),
            Source::Stdin,
        );
        let line = lines.next().unwrap().unwrap();
        assert!(line.error.unwrap().contains("longer than"));
        assert!(lines.next().is_none());
    }

    #[test]
    fn resolve_prefers_the_file_and_dash_means_stdin() {
        let p = Path::new("x.txt");
        assert!(Source::resolve(Some("1"), Some(p), "grid").is_err());
        assert_eq!(
            Source::resolve(None, Some(p), "grid").unwrap(),
            Source::File(p.to_path_buf())
        );
        assert_eq!(
            Source::resolve(Some("-"), None, "grid").unwrap(),
            Source::Stdin
        );
        assert_eq!(
            Source::resolve(Some("12"), None, "grid").unwrap(),
            Source::Arg("12".into())
        );
    }
}
