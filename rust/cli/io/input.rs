//! Where a grid, puzzle, board or address comes from.
//!
//! Every command that reads one follows the same convention: a positional
//! argument, or `--file PATH`, or standard input when the argument is `-`, or
//! when it is absent and stdin is not a terminal (so `… | algoku check`
//! works). Errors say which source was read, and the parse errors of the
//! crates name the position and what was expected.

use std::fmt;
use std::io::{IsTerminal, Read};
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

    /// Reads the whole text. Files and stdin must be UTF-8; a leading byte
    /// order mark is dropped. Reading is
    /// bounded: a line longer than [`MAX_LINE`] bytes or an input larger than
    /// [`MAX_INPUT`] bytes is an error naming the line, raised as soon as the
    /// limit is crossed (so `--file /dev/zero` fails at once instead of
    /// filling memory).
    pub fn read_text(&self) -> Result<String> {
        self.read(LongLines::Fail).map(|(text, _)| text)
    }

    /// Reads the records of a line-oriented input (see [`records`]): like
    /// [`Source::read_text`], but a line longer than [`MAX_LINE`] bytes does
    /// not end the read: it becomes a record marked [`Line::too_long`] in its
    /// place, so a batch answers every other line.
    pub fn read_lines(&self, width: usize) -> Result<Vec<Line>> {
        let (text, long) = self.read(LongLines::Mark)?;
        let mut lines = records(&text, width);
        if !long.is_empty() {
            lines.extend(long.into_iter().map(|number| Line {
                number,
                text: String::new(),
                too_long: true,
            }));
            lines.sort_by_key(|l| l.number);
        }
        Ok(lines)
    }

    /// Reads the whole text and the numbers of the lines dropped for their
    /// length (always empty with [`LongLines::Fail`]).
    fn read(&self, long_lines: LongLines) -> Result<(String, Vec<usize>)> {
        let (bytes, long) = match self {
            Source::Arg(text) => return Ok((text.clone(), Vec::new())),
            Source::File(path) => {
                let file = std::fs::File::open(path)
                    .with_context(|| format!("cannot read {}", path.display()))?;
                read_bounded(file, self, MAX_LINE, MAX_INPUT, long_lines)?
            }
            Source::Stdin => read_bounded(
                std::io::stdin().lock(),
                self,
                MAX_LINE,
                MAX_INPUT,
                long_lines,
            )?,
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
        Ok((text, long))
    }
}

/// What reading does with a line longer than [`MAX_LINE`].
#[derive(Clone, Copy, PartialEq, Eq)]
enum LongLines {
    /// Fail, naming the line (a single value, a grid file).
    Fail,
    /// Drop its bytes and note its number (a batch of lines).
    Mark,
}

/// The Unicode byte order mark (U+FEFF).
const BOM: char = '\u{feff}';

/// The longest input line accepted: a grid, puzzle pair or address line is at
/// most a few hundred bytes; 64 KiB leaves room for comments and pasted text.
pub const MAX_LINE: usize = 64 * 1024;
/// The largest input accepted (the complete 17-clue list is 4 MB).
pub const MAX_INPUT: usize = 1 << 30;

/// Reads `reader` to the end, failing as soon as the whole exceeds
/// `max_total` bytes, and as soon as a line exceeds `max_line` bytes unless
/// `long_lines` marks them: then the line's bytes are dropped and its number
/// noted, except for a comment line (`#`), which is cut to its first
/// `max_line` bytes and so stays a comment that [`records`] skips.
fn read_bounded(
    mut reader: impl Read,
    source: &Source,
    max_line: usize,
    max_total: usize,
    long_lines: LongLines,
) -> Result<(Vec<u8>, Vec<usize>)> {
    let mut buf = Vec::new();
    let mut long = Vec::new();
    let mut chunk = vec![0u8; 64 * 1024];
    let (mut line, mut line_len, mut total) = (1usize, 0usize, 0usize);
    // The comment line whose bytes past `max_line` are being dropped.
    let mut cut = None;
    loop {
        let n = match reader.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e).with_context(|| format!("cannot read {source}")),
        };
        total += n;
        if total > max_total {
            bail!("{source} is larger than {max_total} bytes");
        }
        for piece in chunk[..n].split_inclusive(|&b| b == b'\n') {
            let ends = piece.last() == Some(&b'\n');
            let body = &piece[..piece.len() - usize::from(ends)];
            if long.last() == Some(&line) || cut == Some(line) {
                // The rest of a line already dropped, or of a comment already cut.
            } else if line_len + body.len() > max_line {
                let room = max_line - line_len;
                let start = &buf[buf.len() - line_len..];
                if long_lines == LongLines::Mark && is_comment(start, &body[..room]) {
                    // A comment stays a comment: its first bytes keep the `#`.
                    let line_start = buf.len() - line_len;
                    buf.extend_from_slice(&body[..room]);
                    drop_split_char(&mut buf, line_start);
                    cut = Some(line);
                } else if long_lines == LongLines::Fail {
                    bail!("{source}: line {line} is longer than {max_line} bytes (one grid, puzzle or address per line is expected)");
                } else {
                    buf.truncate(buf.len() - line_len);
                    long.push(line);
                }
            } else {
                buf.extend_from_slice(body);
            }
            line_len += body.len();
            if ends {
                buf.push(b'\n');
                line += 1;
                line_len = 0;
            }
        }
    }
    Ok((buf, long))
}

/// Drops the bytes at the end of `buf[from..]` that begin a character the
/// cut left unfinished, so that a cut comment stays UTF-8 text (invalid
/// bytes elsewhere are left for the UTF-8 check to name).
fn drop_split_char(buf: &mut Vec<u8>, from: usize) {
    if let Err(e) = std::str::from_utf8(&buf[from..]) {
        if e.error_len().is_none() {
            buf.truncate(from + e.valid_up_to());
        }
    }
}

/// Whether a line whose first bytes are `start` then `more` is a comment
/// for [`records`]: its first character other than white space is `#`.
fn is_comment(start: &[u8], more: &[u8]) -> bool {
    start.iter().chain(more).find(|b| !b.is_ascii_whitespace()) == Some(&b'#')
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
    let joined: String = text.lines().map(str::trim).collect();
    if joined.is_empty() {
        bail!("{source}: no {what} found (the input is empty)");
    }
    Ok(joined)
}

/// One record of a line-oriented input file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// 1-based line number in the source.
    pub number: usize,
    /// The text: the first `width` characters of the line (or the whole
    /// line if it is shorter), `\r` stripped; empty when `too_long`.
    pub text: String,
    /// Whether the line was longer than [`MAX_LINE`] bytes (its text is not
    /// kept): the line gets [`Line::too_long_error`] in its place.
    pub too_long: bool,
}

impl Line {
    /// The error of a line longer than [`MAX_LINE`] bytes.
    pub fn too_long_error(&self, source: &Source) -> String {
        format!(
            "{source}: line {} is longer than {MAX_LINE} bytes (one grid, puzzle or address per line is expected)",
            self.number
        )
    }
}

/// Splits `text` into records in the benchmark format: one per line, empty
/// lines and lines starting with `#` skipped, a trailing `\r` removed, and
/// only the first `width` characters kept (the rest of a line may hold a
/// solution or a comment).
pub fn records(text: &str, width: usize) -> Vec<Line> {
    text.split('\n')
        .enumerate()
        .filter_map(|(i, line)| {
            let line = line.strip_suffix('\r').unwrap_or(line);
            let trimmed = line.trim();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                return None;
            }
            Some(Line {
                number: i + 1,
                text: trimmed.chars().take(width).collect(),
                too_long: false,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reading_is_bounded_per_line_and_in_total() {
        let src = Source::Stdin;
        let fail = LongLines::Fail;
        let ok = read_bounded(&b"12\n345\n"[..], &src, 3, 100, fail).unwrap();
        assert_eq!(ok, (b"12\n345\n".to_vec(), vec![]));
        let long = read_bounded(&b"12\n3456\n"[..], &src, 3, 100, fail).unwrap_err();
        assert!(
            long.to_string().contains("line 2 is longer than 3 bytes"),
            "{long}"
        );
        let big = read_bounded(&b"1\n2\n3\n"[..], &src, 3, 4, fail).unwrap_err();
        assert!(big.to_string().contains("larger than 4 bytes"), "{big}");
        // An endless stream without newlines fails at the line limit.
        let zero = read_bounded(std::io::repeat(0), &src, MAX_LINE, MAX_INPUT, fail).unwrap_err();
        assert!(zero.to_string().contains("line 1 is longer"), "{zero}");
        // Marking drops a long line's bytes and keeps the others, even when
        // the long line spans several reads.
        let mut text = b"12\n".to_vec();
        text.extend(std::iter::repeat_n(b'7', 200_000));
        text.extend(b"\n345\n6789\n");
        let (kept, long) = read_bounded(&text[..], &src, 3, 1 << 20, LongLines::Mark).unwrap();
        assert_eq!((kept, long), (b"12\n\n345\n\n".to_vec(), vec![2, 4]));
    }

    #[test]
    fn a_long_comment_line_stays_a_comment() {
        let src = Source::Stdin;
        let mut text = b"12\n#".to_vec();
        text.extend(std::iter::repeat_n(b'7', 200_000));
        text.extend(b"\n  #");
        text.extend(std::iter::repeat_n(b'8', 5));
        text.extend(b"\n345\n");
        let (kept, long) = read_bounded(&text[..], &src, 4, 1 << 20, LongLines::Mark).unwrap();
        assert_eq!(
            (kept.as_slice(), long),
            (&b"12\n#777\n  #8\n345\n"[..], vec![])
        );
        let lines = records(std::str::from_utf8(&kept).unwrap(), 81);
        let numbers: Vec<_> = lines.iter().map(|l| l.number).collect();
        assert_eq!(numbers, [1, 4]);
    }

    #[test]
    fn a_long_comment_is_cut_between_characters() {
        let src = Source::Stdin;
        // '#', then two-byte characters: a cut after 4 bytes splits the second.
        let text = format!("#{}\n12\n", "é".repeat(50_000));
        let (kept, long) =
            read_bounded(text.as_bytes(), &src, 4, 1 << 20, LongLines::Mark).unwrap();
        assert_eq!(
            (std::str::from_utf8(&kept).unwrap(), long),
            ("#é\n12\n", vec![])
        );
    }

    #[test]
    fn read_lines_puts_long_lines_in_their_place() {
        let dir = std::env::temp_dir().join(format!("algoku-input-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("lines.txt");
        let long = "1".repeat(MAX_LINE + 1);
        std::fs::write(&path, format!("# c\nab\n{long}\ncd\n")).unwrap();
        let lines = Source::File(path.clone()).read_lines(81).unwrap();
        let got: Vec<_> = lines
            .iter()
            .map(|l| (l.number, l.text.as_str(), l.too_long))
            .collect();
        assert_eq!(got, [(2, "ab", false), (3, "", true), (4, "cd", false)]);
        assert!(lines[1]
            .too_long_error(&Source::File(path))
            .contains("line 3 is longer than 65536 bytes"));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn records_skip_comments_and_blank_lines_and_cut_to_width() {
        let text = "# header\r\n\r\nabcdef extra\r\n  xyz\n#x\nlast";
        let got = records(text, 6);
        let want = [(3, "abcdef"), (4, "xyz"), (6, "last")];
        assert_eq!(got.len(), want.len());
        for (line, (n, t)) in got.iter().zip(want) {
            assert_eq!((line.number, line.text.as_str()), (n, t));
        }
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
