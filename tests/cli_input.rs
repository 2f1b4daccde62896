//! Input read as written: every `--file` and `--grids` reader ends a line at `\n`,
//! `\r\n` or a lone `\r`; a line with two grids or trailing characters, one too
//! long, or one that is not UTF-8 is that line's error and the others are answered;
//! `-` answers stdin line by line as it comes; one exit rule for every batch.

mod common;

use common::{run, scratch_file, ALGOKU, SOLVED};
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

const PUZZLE: &str =
    "..............1.23..4.52......36.......7......18...9.....6..4...7.......63.......";
const OTHER: &str =
    "256734198891265374347198652514683729728519436963427581135942867689371245472856913";

fn file(name: &str, bytes: &[u8]) -> String {
    let path = scratch_file("input", name, "");
    std::fs::write(&path, bytes).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn a_lone_carriage_return_ends_a_line_in_every_reader() {
    let cr = file("cr.txt", format!("{SOLVED}\r{OTHER}\r").as_bytes());
    let r = run(&["--json", "check", "--file", &cr]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let lines = r.json_lines();
    assert_eq!(lines.last().unwrap()["summary"]["grids"], 2, "{}", r.stdout);
    let r = run(&["--json", "ua", "--grids", &cr, "--max-size", "6"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        r.json_lines().last().unwrap()["summary"]["processed"],
        2,
        "{}",
        r.stdout
    );
    let puzzles = file(
        "cr-puzzles.txt",
        format!("{PUZZLE}\r{PUZZLE}\r\n{PUZZLE}").as_bytes(),
    );
    let r = run(&["solve", "--file", &puzzles]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout.lines().count(), 3, "{}", r.stdout);
}

#[test]
fn two_grids_or_trailing_characters_are_that_lines_error() {
    let f = file(
        "garbage.txt",
        format!("{SOLVED}xyz\n{SOLVED} {OTHER}\n{SOLVED}  # a comment is fine\n").as_bytes(),
    );
    let r = run(&["--json", "check", "--file", &f]);
    assert_eq!(r.code, 2, "a bad line is exit 2: {}", r.stdout);
    let lines = r.json_lines();
    assert!(
        lines[0]["error"].as_str().unwrap().contains("line 1"),
        "{}",
        r.stdout
    );
    assert!(
        lines[1]["error"].as_str().unwrap().contains("line 2"),
        "{}",
        r.stdout
    );
    assert_eq!(lines[2]["valid"], true, "{}", r.stdout);
    let r = run(&["ua", "--grids", &f]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("line 1"), "{}", r.stderr);
}

#[test]
fn a_byte_that_is_not_utf8_is_its_lines_error_alone() {
    let mut bytes = format!("{PUZZLE}\n").into_bytes();
    bytes.extend_from_slice(b"caf\xe9\n");
    bytes.extend_from_slice(format!("{PUZZLE}\n").as_bytes());
    let f = file("latin1.txt", &bytes);
    for command in ["solve", "rate"] {
        let r = run(&["--json", command, "--file", &f]);
        assert_eq!(r.code, 2, "{command}: {}", r.stderr);
        let lines = r.json_lines();
        assert_eq!(lines.len(), 4, "{command}: {}", r.stdout);
        assert_eq!(lines[1]["line"], 2, "{command}: {}", r.stdout);
        assert!(
            lines[1]["error"]
                .as_str()
                .unwrap()
                .contains("line 2 is not UTF-8 text"),
            "{command}: {}",
            r.stdout
        );
        assert!(
            lines[2]["line"] == 3 && lines[2]["error"].is_null(),
            "{command}: {}",
            r.stdout
        );
    }
}

#[test]
fn stdin_is_answered_line_by_line_as_it_comes() {
    // (`check -` reads one grid, which may be pasted over nine lines.)
    for command in ["solve", "rate"] {
        let input = PUZZLE;
        let mut child = Command::new(ALGOKU)
            .args([command, "-"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        writeln!(stdin, "{input}").unwrap();
        stdin.flush().unwrap();
        // The answer to the first line comes while stdin is still open.
        let mut out = BufReader::new(child.stdout.take().unwrap());
        let mut first = String::new();
        out.read_line(&mut first).unwrap();
        assert!(!first.trim().is_empty(), "{command}");
        writeln!(stdin, "{input}").unwrap();
        drop(stdin);
        let rest: Vec<String> = out.lines().map(Result::unwrap).collect();
        assert!(!rest.is_empty(), "{command}");
        assert!(child.wait().unwrap().success(), "{command}");
    }
}

#[test]
fn a_command_family_without_its_subcommand_says_one_is_required() {
    for family in ["curta", "game"] {
        let r = run(&[family]);
        assert_eq!(r.code, 2, "{family}");
        assert_eq!(
            r.stderr.trim(),
            format!("error: a subcommand is required: see `algoku {family} --help`")
        );
    }
}

#[test]
fn a_difficulty_no_puzzle_has_is_refused_before_any_search() {
    let r = run(&["generate", "--difficulty", "12"]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("SE scores run from 1.0 to about 11.9"),
        "{}",
        r.stderr
    );
    let r = run(&["generate", "--difficulty", "5-3"]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("the range is empty (5.0 > 3.0)"),
        "{}",
        r.stderr
    );
}

#[test]
fn fixtures_out_that_names_a_file_says_so() {
    let f = file("not-a-dir", b"x");
    let r = run(&["fixtures", "--out", &f]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("that is a file"), "{}", r.stderr);
}
