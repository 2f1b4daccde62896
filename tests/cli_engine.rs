//! End-to-end tests of the `algoku` binary's offline commands: `check`,
//! `solve`, `generate`, `curta …` and `fixtures`. Each test runs the built
//! binary, with stdin closed unless the test feeds it.

mod common;

use std::path::PathBuf;
use std::process::{Command, Stdio};

use common::{run, run_with, ALGOKU};
use serde_json::Value;

/// A valid solution.
const SOLVED: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
/// The classic puzzle whose solution is [`SOLVED`].
const PUZZLE: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
/// A 17-clue puzzle (the first of Gordon Royle's list) and its solution.
const SEVENTEEN: &str =
    "000000010400000000020000000000050407008000300001090000300400200050100000000806000";
const SEVENTEEN_SOLUTION: &str =
    "693784512487512936125963874932651487568247391741398625319475268856129743274836159";
/// The Curta start of the zero address (from the contract's own tests).
const CURTA_ZERO_START: &str = "0000000000003000007001000000000000000040500000060000000000020008";

/// A fresh, empty scratch directory for one test.
fn scratch_dir(name: &str) -> PathBuf {
    common::scratch(&format!("cli_engine-{name}"))
}

// ---- check ----------------------------------------------------------------

#[test]
fn check_accepts_a_solution() {
    let r = run(&["check", SOLVED]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines, ["true", "contract: true", "original: true"]);
}

#[test]
fn check_rejects_one_changed_cell_with_a_reason() {
    let changed = format!("4{}", &SOLVED[1..]);
    let r = run(&["check", &changed]);
    assert_eq!(r.code, 1);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines[0], "false");
    assert!(lines[1].starts_with("reason: "), "{}", r.stdout);
    assert!(lines[1].contains("4 twice"), "{}", r.stdout);
    assert!(r.stdout.contains("contract: false"));

    let r = run(&["--json", "check", &changed]);
    assert_eq!(r.code, 1);
    let v = r.json();
    assert_eq!(v["valid"], false);
    assert_eq!(v["contract"], "false");
    assert_eq!(v["len"], 81);
    assert!(v["reason"].as_str().unwrap().contains("twice"));
}

#[test]
fn check_takes_any_bytes_as_hex() {
    let hex80 = format!("0x{}", "01".repeat(80));
    let r = run(&["check", "--json", &hex80]);
    assert_eq!(r.code, 1);
    let v = r.json();
    assert_eq!(v["valid"], false);
    assert_eq!(v["len"], 80);
    assert_eq!(v["reason"], "81 bytes expected, got 80");
    assert_eq!(v["contract"], "rejected: Grid must be 81 bytes long.");
    assert_eq!(v["original"], "rejected: Grid must be 81 bytes long.");

    // The solution as raw bytes, then with byte 0x10 in cell 5.
    let mut bytes: Vec<u8> = SOLVED.bytes().map(|b| b - b'0').collect();
    let hex = |b: &[u8]| {
        format!(
            "0x{}",
            b.iter().map(|x| format!("{x:02x}")).collect::<String>()
        )
    };
    let r = run(&["check", &hex(&bytes)]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    bytes[5] = 0x10;
    let r = run(&["--json", "check", &hex(&bytes)]);
    assert_eq!(r.code, 1);
    let v = r.json();
    assert_eq!(
        v["reason"],
        "cell 5 (r1c6) holds byte 0x10, not a digit 1..9"
    );
    assert_eq!(v["contract"], "false");
    assert!(v["original"].is_string());
}

#[test]
fn check_reports_bad_input_with_its_position() {
    let bad = format!("{}x{}", &SOLVED[..4], &SOLVED[5..]);
    let r = run(&["check", &bad]);
    assert_eq!(r.code, 2);
    assert!(r.stdout.is_empty());
    assert!(r.stderr.starts_with("error: "), "{}", r.stderr);
    assert!(r.stderr.contains("'x' at position 5"), "{}", r.stderr);
    assert!(r.stderr.contains("expected"), "{}", r.stderr);

    let r = run(&["check", "0x0102g3"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("'g' at position 7"), "{}", r.stderr);

    let r = run(&["check", "0x012"]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("odd number of hex digits"),
        "{}",
        r.stderr
    );

    let r = run(&["--json", "check", "0x012"]);
    assert_eq!(r.code, 2);
    assert!(r.json()["error"].as_str().unwrap().contains("odd"));

    let r = run(&["check", &SOLVED[..80]]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("got 80 characters, expected 81"),
        "{}",
        r.stderr
    );

    // No argument and nothing on stdin.
    let r = run(&["check"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("no grid"), "{}", r.stderr);
}

#[test]
fn check_reads_stdin_and_files() {
    let r = run_with(&["check"], Some(&format!("{SOLVED}\n")));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.starts_with("true\n"));

    // A 9-line layout on stdin with `-`.
    let layout: String = SOLVED
        .as_bytes()
        .chunks(9)
        .map(|row| format!("{}\r\n", std::str::from_utf8(row).unwrap()))
        .collect();
    let r = run_with(&["check", "-"], Some(&layout));
    assert_eq!(r.code, 0, "{}", r.stderr);

    let dir = scratch_dir("check-file");
    let path = dir.join("grid.txt");
    std::fs::write(&path, format!("{PUZZLE}\n")).unwrap();
    let r = run(&["check", "--file", path.to_str().unwrap()]);
    assert_eq!(r.code, 1);
    assert!(r.stdout.contains("is empty"), "{}", r.stdout);
}

// ---- solve ----------------------------------------------------------------

#[test]
fn solve_prints_the_solution() {
    let r = run(&["solve", SEVENTEEN]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout, format!("{SEVENTEEN_SOLUTION}\n"));

    let r = run(&["solve", "--json", PUZZLE]);
    assert_eq!(r.code, 0);
    let v = r.json();
    assert_eq!(v["solution"], SOLVED);
    assert_eq!(v["puzzle"], PUZZLE);

    let r = run(&["solve", "--pretty", PUZZLE]);
    assert_eq!(r.code, 0);
    assert_eq!(r.stdout.lines().count(), 11);
    assert!(r.stdout.starts_with("5 3 4 | 6 7 8 | 9 1 2\n"));
}

#[test]
fn solve_counts_solutions_up_to_the_limit() {
    // Blank the first 30 cells (3 clues): the puzzle has many solutions.
    let open = format!("{}{}", ".".repeat(30), &SEVENTEEN[30..]);
    let r = run(&["solve", "--count", "2", &open]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout.trim(), "2 or more (counting stopped at --count 2)");

    let r = run(&["--json", "solve", "--count", "2", &open]);
    let v = r.json();
    assert_eq!(v["solutions"], 2);
    assert_eq!(v["limit"], 2);
    assert_eq!(v["complete"], false);
    assert_eq!(v["unique"], false);
    assert!(v["solution"].is_string());

    // A count that reaches every solution says so: the whole count is exact.
    let open = format!("{}{}", ".".repeat(30), &SEVENTEEN_SOLUTION[30..]);
    let all = run(&["--json", "solve", "--count", "100000", &open]).json();
    assert_eq!(all["complete"], true, "{all}");
    let n = all["solutions"].as_u64().unwrap();
    assert!(n > 2, "{all}");
    let exact = run(&["solve", "--count", &n.to_string(), &open]);
    assert_eq!(exact.stdout.trim(), n.to_string());
    let short = run(&["solve", "--count", &(n - 1).to_string(), &open]);
    assert_eq!(
        short.stdout.trim(),
        format!("{m} or more (counting stopped at --count {m})", m = n - 1)
    );

    let r = run(&["--json", "solve", "--count", "1", SEVENTEEN]);
    let v = r.json();
    assert_eq!(
        (
            v["solutions"].as_u64(),
            v["unique"].as_bool(),
            v["complete"].as_bool()
        ),
        (Some(1), Some(true), Some(true))
    );

    assert_eq!(run(&["solve", "--count", "0", SEVENTEEN]).code, 2);
}

#[test]
fn solve_says_when_there_is_no_solution() {
    let contradiction = format!("11{}", ".".repeat(79));
    let r = run(&["solve", &contradiction]);
    assert_eq!(r.code, 1);
    assert_eq!(r.stdout.trim(), "no solution");
    let r = run(&["--json", "solve", "--count", "5", &contradiction]);
    assert_eq!(r.code, 1);
    let v = r.json();
    assert_eq!(v["solutions"], 0);
    assert_eq!(v["solution"], Value::Null);
}

#[test]
fn solve_reads_many_puzzles_from_stdin() {
    let input = format!("# a comment\r\n{SEVENTEEN} trailing text\r\n\r\n{PUZZLE}\n");
    let r = run_with(&["--json", "solve"], Some(&input));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let lines = r.json_lines();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[2]["summary"]["solved"], 2);
    assert_eq!(lines[0]["line"], 2);
    assert_eq!(lines[0]["solution"], SEVENTEEN_SOLUTION);
    assert_eq!(lines[1]["line"], 4);
    assert_eq!(lines[1]["solution"], SOLVED);

    let r = run_with(&["solve", "-"], Some(&input));
    assert_eq!(r.stdout, format!("{SEVENTEEN_SOLUTION}\n{SOLVED}\n"));

    // A bad line gets an error in its place; the other lines are solved and
    // the run exits 2.
    let input = format!("{PUZZLE}\n{}\n{SEVENTEEN}\n", &PUZZLE[..50]);
    let r = run_with(&["solve"], Some(&input));
    assert_eq!(r.code, 2, "{}", r.stderr);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{}", r.stdout);
    assert_eq!(lines[0], SOLVED);
    assert!(
        lines[1].starts_with("error: puzzle (stdin, line 2): "),
        "{}",
        lines[1]
    );
    assert_eq!(lines[2], SEVENTEEN_SOLUTION);
    let r = run_with(&["--json", "solve"], Some(&input));
    assert_eq!(r.code, 2);
    let lines = r.json_lines();
    assert_eq!(lines.len(), 4);
    assert_eq!(lines[3]["summary"]["errors"], 1);
    assert_eq!(lines[1]["line"], 2);
    assert!(lines[1]["error"].as_str().unwrap().contains("line 2"));
    assert_eq!(lines[2]["solution"], SEVENTEEN_SOLUTION);
    // A single argument that is not a puzzle is a plain one-line error.
    let r = run(&["solve", &PUZZLE[..50]]);
    assert_eq!(r.code, 2);
    assert!(r.stdout.is_empty());
    assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
}

#[test]
fn a_byte_order_mark_is_not_content() {
    let dir = scratch_dir("bom");
    let path = dir.join("grid.txt");
    std::fs::write(&path, format!("\u{feff}{SOLVED}\r\n")).unwrap();
    let r = run(&["check", "--file", path.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let r = run_with(&["check", "-"], Some(&format!("\u{feff}{SOLVED}\r\n")));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let r = run_with(
        &["solve"],
        Some(&format!("\u{feff}{PUZZLE}\r\n{SEVENTEEN}\r\n")),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout, format!("{SOLVED}\n{SEVENTEEN_SOLUTION}\n"));
    // Only a leading mark: one inside a line is still a bad character.
    let r = run_with(&["check", "-"], Some(&format!("{}\u{feff}", &SOLVED[..80])));
    assert_eq!(r.code, 2);
}

// ---- generate -------------------------------------------------------------

#[test]
fn generate_is_deterministic_and_its_puzzles_are_unique() {
    let args = ["generate", "--seed", "7", "--count", "3", "--solution"];
    let a = run(&args);
    let b = run(&args);
    assert_eq!(a.code, 0, "{}", a.stderr);
    assert_eq!(a.stdout, b.stdout);
    assert_eq!(a.stdout.lines().count(), 3);
    let other = run(&["generate", "--seed", "8", "--count", "1"]);
    let second = a.stdout.lines().nth(1).unwrap();
    // Puzzle k uses seed + k.
    assert_eq!(&other.stdout[..81], &second[..81]);

    // The human output feeds `solve` directly; every puzzle is unique.
    let r = run_with(&["--json", "solve", "--count", "2"], Some(&a.stdout));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let results = r.json_lines();
    assert_eq!(results.len(), 4);
    assert_eq!(results[3]["summary"]["unique"], 3);
    for (line, v) in a.stdout.lines().zip(&results) {
        assert_eq!(v["unique"], true);
        assert_eq!(v["solution"].as_str().unwrap(), &line[82..163]);
    }
}

#[test]
fn generate_json_shape() {
    let r = run(&[
        "--json",
        "generate",
        "--seed",
        "3",
        "--count",
        "2",
        "--symmetric",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let lines = r.json_lines();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[2]["summary"]["puzzles"], 2);
    assert_eq!(lines[2]["summary"]["last_seed"], 4);
    for (k, v) in lines[..2].iter().enumerate() {
        assert_eq!(v["seed"], 3 + k as u64);
        let puzzle = v["puzzle"].as_str().unwrap();
        let solution = v["solution"].as_str().unwrap();
        assert_eq!((puzzle.len(), solution.len()), (81, 81));
        assert_eq!(v["clues"], puzzle.bytes().filter(|&c| c != b'.').count());
        // The rater's level and SE score (null when it needs more), as `rate` gives them.
        assert!(v.get("grade").is_none(), "{v}");
        let rated = run(&["--json", "rate", puzzle]).json();
        assert_eq!(v["level"], rated["level"]);
        assert_eq!(v["se"], rated["score"]);
        let level = v["level"].as_str().unwrap();
        assert!(
            ["simple", "easy", "intermediate", "expert"].contains(&level),
            "{level}"
        );
        assert!(
            v["se"].is_null() || v["se"].as_f64().is_some_and(|s| s >= 1.0),
            "{v}"
        );
        assert_eq!(v["minimal"], true);
        assert_eq!(v["symmetric"], true);
        // Symmetric under 180° rotation.
        let p = puzzle.as_bytes();
        assert!((0..81).all(|i| (p[i] == b'.') == (p[80 - i] == b'.')));
    }
    let r = run(&["--json", "generate", "--minimal=false", "--clues", "40"]);
    let v = &r.json_lines()[0];
    assert_eq!(v["minimal"], false);
    assert_eq!(v["clues"], 40);
}

#[test]
fn generate_text_names_the_level_and_the_se_score() {
    // Seeds 7 and 8: an easy puzzle (SE 1.5) and an expert one (SE 4.3); every
    // unique puzzle gets an SE score.
    let r = run(&["generate", "--seed", "7", "--count", "2"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let json = run(&["--json", "generate", "--seed", "7", "--count", "2"]).json_lines();
    let mut needs_more = 0;
    for (line, v) in r.stdout.lines().zip(&json) {
        let score = match v["se"].as_f64() {
            Some(s) => format!("SE {s:.1}"),
            None => {
                needs_more += 1;
                "needs more than implemented".to_string()
            }
        };
        let expected = format!(
            "{} {} clues {} {score} seed {}",
            v["puzzle"].as_str().unwrap(),
            v["clues"],
            v["level"].as_str().unwrap(),
            v["seed"]
        );
        assert_eq!(line, expected);
    }
    assert_eq!(needs_more, 0, "{}", r.stdout);
}

// ---- curta ----------------------------------------------------------------

#[test]
fn curta_generate_matches_the_contract() {
    let zero = "0x0000000000000000000000000000000000000000";
    let r = run(&["curta", "generate", zero]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout, format!("{CURTA_ZERO_START}\n"));

    let v = run(&["--json", "curta", "generate", zero]).json();
    assert_eq!(v["address"], zero);
    assert_eq!(v["start"], CURTA_ZERO_START);
    assert_eq!(v["givens"], 8);
    assert_eq!(v["solvable"], true);
    assert_eq!(v["solution"].as_str().unwrap().len(), 64);

    // An Algorand address hashes its 32-byte public key: the zero key's
    // address gives the same start as 0x + 64 zeros.
    let algorand = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAY5HFKQ";
    let key = format!("0x{}", "0".repeat(64));
    let (a, b) = (
        run(&["curta", "generate", algorand]),
        run(&["curta", "generate", &key]),
    );
    assert_eq!(a.code, 0, "{}", a.stderr);
    assert_eq!(a.stdout, b.stdout);
    let r = run_with(&["curta", "generate"], Some(&format!("{algorand}\n")));
    assert_eq!(r.stdout, a.stdout);

    let r = run(&["curta", "generate", "0x00"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("wrong length"), "{}", r.stderr);
}

#[test]
fn curta_generate_and_verify_by_file_natively() {
    let dir = scratch_dir("curta-batch");
    let zero = "0x0000000000000000000000000000000000000000";
    let seeds = dir.join("seeds.txt");
    std::fs::write(&seeds, format!("# players\n{zero}\n\nnope\n{zero}\n")).unwrap();
    let r = run(&[
        "--json",
        "curta",
        "generate",
        "--file",
        seeds.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 2, "a bad line: exit 2 ({})", r.stderr);
    let lines = r.json_lines();
    assert_eq!(lines.len(), 4, "{}", r.stdout);
    assert_eq!(
        (lines[0]["line"].as_u64(), lines[0]["start"].as_str()),
        (Some(2), Some(CURTA_ZERO_START))
    );
    assert!(lines[1]["error"].as_str().unwrap().contains("wrong length"));
    assert_eq!(lines[1]["line"], 4);
    assert_eq!(lines[2]["start"], CURTA_ZERO_START);
    assert_eq!(lines[3]["summary"]["errors"], 1);
    let text = run(&["curta", "generate", "--file", seeds.to_str().unwrap()]);
    assert_eq!(
        text.stdout.lines().next(),
        Some(format!("2 {CURTA_ZERO_START}").as_str())
    );

    let solution = run(&["curta", "solve", CURTA_ZERO_START])
        .stdout
        .trim()
        .to_string();
    let broken = format!("{}1", &solution[..63]);
    let pairs = dir.join("pairs.txt");
    std::fs::write(
        &pairs,
        format!("{CURTA_ZERO_START} {solution}\n{CURTA_ZERO_START} {broken}\n{CURTA_ZERO_START}\n"),
    )
    .unwrap();
    let r = run(&[
        "--json",
        "curta",
        "verify",
        "--file",
        pairs.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 2, "a bad line is exit 2");
    let lines = r.json_lines();
    assert_eq!(lines[0]["valid"], true);
    assert_eq!(lines[1]["valid"], false);
    assert!(lines[1]["reason"]
        .as_str()
        .unwrap()
        .contains("square 1 (hex digit 64) changes given 8"));
    assert!(lines[2]["error"].as_str().unwrap().contains("found 1 word"));
    let s = &lines[3]["summary"];
    assert_eq!(
        (
            s["valid"].as_u64(),
            s["invalid"].as_u64(),
            s["errors"].as_u64()
        ),
        (Some(1), Some(1), Some(1))
    );
    // Without --file both boards are needed; chain flags need --network.
    let r = run(&["curta", "verify", CURTA_ZERO_START]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    let r = run(&[
        "curta",
        "verify",
        "--file",
        pairs.to_str().unwrap(),
        "--deploy",
    ]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("--network"), "{}", r.stderr);
    let r = run(&["curta", "generate", "--file", "/nonexistent/seeds"]);
    assert_eq!(r.code, 2);
}

#[test]
fn curta_solve_and_verify() {
    let r = run(&["curta", "solve", CURTA_ZERO_START]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let solution = r.stdout.trim().to_string();
    assert_eq!(solution.len(), 64);

    let r = run(&["curta", "verify", CURTA_ZERO_START, &solution]);
    assert_eq!((r.code, r.stdout.as_str()), (0, "true\n"));

    // Square 1 (1-based: the last hex digit) holds the given 8; change it.
    let broken = format!("{}1", &solution[..63]);
    let r = run(&["curta", "verify", CURTA_ZERO_START, &broken]);
    assert_eq!(r.code, 1);
    assert_eq!(r.stdout.lines().next(), Some("false"));
    assert!(
        r.stdout
            .contains("reason: square 1 (hex digit 64) changes given 8 to 1"),
        "{}",
        r.stdout
    );

    let v = run(&["--json", "curta", "verify", CURTA_ZERO_START, &broken]).json();
    assert_eq!(v["valid"], false);
    assert!(v["reason"].is_string());

    let v = run(&["--json", "curta", "solve", "--count", "2", CURTA_ZERO_START]).json();
    assert_eq!(v["limit"], 2);
    let n = v["solutions"].as_u64().unwrap();
    assert!(n >= 1);
    // `complete` is what the count means: the whole count, or a floor.
    assert_eq!(v["complete"].as_bool(), Some(n < 2), "{v}");

    // A start from the fixtures with no solution at all.
    let start = run(&[
        "curta",
        "generate",
        "0x1c8471dc1afc82e8e1e87f7e3e1567f10c11707d",
    ]);
    let r = run(&["curta", "solve", start.stdout.trim()]);
    assert_eq!((r.code, r.stdout.as_str()), (1, "no solution\n"));

    let r = run(&["curta", "verify", CURTA_ZERO_START, "12"]);
    assert_eq!(r.code, 2);
}

// ---- fixtures -------------------------------------------------------------

#[test]
fn fixtures_are_byte_identical_for_the_same_seed() {
    let dir = scratch_dir("fixtures");
    let (a, b) = (dir.join("a"), dir.join("b"));
    let small = [
        "--count",
        "3",
        "--invalid-per-category",
        "2",
        "--curta-addresses",
        "1",
        // The difficulty file has its own test (tests/cli_rate.rs).
        "--per-level",
        "0",
    ];
    for out in [&a, &b] {
        let mut args = vec!["fixtures", "--quiet", "--out", out.to_str().unwrap()];
        args.extend(small);
        let r = run(&args);
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert!(r.stdout.contains("sudoku.jsonl"), "{}", r.stdout);
    }
    for name in ["sudoku.jsonl", "curta.jsonl"] {
        let (x, y) = (
            std::fs::read(a.join(name)).unwrap(),
            std::fs::read(b.join(name)).unwrap(),
        );
        assert!(!x.is_empty());
        assert_eq!(x, y, "{name} differs");
    }
    // Only the two files: no temporary file is left behind.
    assert_eq!(std::fs::read_dir(&a).unwrap().count(), 2);

    let mut args = vec![
        "--json",
        "fixtures",
        "--format",
        "json",
        "--out",
        a.to_str().unwrap(),
    ];
    args.extend(small);
    let r = run(&args);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = r.json();
    assert_eq!(v["format"], "json");
    let files = v["files"].as_array().unwrap();
    assert_eq!(files.len(), 2);
    assert_eq!(files[0]["categories"]["valid"], 3);
    let records: Value =
        serde_json::from_slice(&std::fs::read(a.join("sudoku.json")).unwrap()).unwrap();
    assert_eq!(
        records.as_array().unwrap().len() as u64,
        files[0]["records"].as_u64().unwrap()
    );
}

// ---- the command line -----------------------------------------------------

#[test]
fn usage_errors_exit_2_and_help_exits_0() {
    assert_eq!(run(&["--help"]).code, 0);
    assert_eq!(run(&["curta", "--help"]).code, 0);
    assert_eq!(run(&[]).code, 2);
    assert_eq!(run(&["frobnicate"]).code, 2);
    let r = run(&["--json", "generate", "--clues", "99"]);
    assert_eq!(r.code, 2);
    assert!(r.json()["error"].as_str().unwrap().contains("--clues"));
    // A value with a newline or a terminal escape is shown escaped, on one line.
    let r = run(&["generate", "--seed", "12\nab\u{1b}[2J"]);
    assert_eq!(r.code, 2);
    assert_eq!(r.stderr.lines().count(), 1, "{:?}", r.stderr);
    assert!(r.stderr.contains("'12\\nab\\u{1b}[2J'"), "{}", r.stderr);
    assert!(!r.stderr.trim_end().contains(['\n', '\r', '\u{1b}']));
    // So is a file name in a message.
    let r = run(&["check", "--file", "no\u{1b}[2Jsuch\nfile"]);
    assert_eq!(r.code, 2);
    assert_eq!(r.stderr.lines().count(), 1, "{:?}", r.stderr);
    assert!(r.stderr.contains("no\\u{1b}[2Jsuch\\nfile"), "{}", r.stderr);
}

// ---- batches and output ---------------------------------------------------

/// One line longer than the line limit between good lines: that line gets
/// its error in its place, the others their answers.
#[test]
fn a_long_line_in_a_batch_gets_its_own_error() {
    let long = "1".repeat(100_000);
    let input = format!("{PUZZLE}\n{long}\n{SEVENTEEN}\n");
    for args in [&["solve"][..], &["rate"][..]] {
        let r = run_with(args, Some(&input));
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        let lines: Vec<&str> = r.stdout.lines().collect();
        assert!(lines.len() >= 3, "{args:?}: {}", r.stdout);
        assert!(
            lines[1].starts_with("error: stdin: line 2 is longer than 65536 bytes"),
            "{args:?}: {}",
            lines[1]
        );
    }
    let r = run_with(&["solve"], Some(&input));
    assert_eq!(r.stdout.lines().nth(2), Some(SEVENTEEN_SOLUTION));
    let dir = scratch_dir("long-line");
    let path = dir.join("grids.txt");
    std::fs::write(&path, format!("{SOLVED}\n{long}\n{SOLVED}\n")).unwrap();
    let r = run(&["--json", "check", "--file", path.to_str().unwrap()]);
    assert_eq!(r.code, 2);
    let lines = r.json_lines();
    assert_eq!(lines[0]["valid"], true);
    assert_eq!(lines[1]["line"], 2);
    assert_eq!(lines[2]["valid"], true);
}

/// A comment line longer than the line limit is a comment like any other:
/// skipped, not an error.
#[test]
fn a_long_comment_line_in_a_batch_is_skipped() {
    let comment = format!("# {}", "x".repeat(100_000));
    let dir = scratch_dir("long-comment");
    let path = dir.join("grids.txt");
    std::fs::write(
        &path,
        format!("{SOLVED}\n{comment}\n  {comment}\n{SOLVED}\n"),
    )
    .unwrap();
    let r = run(&["--json", "check", "--file", path.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stdout);
    let lines = r.json_lines();
    let numbers: Vec<_> = lines.iter().map(|l| l["line"].clone()).collect();
    assert_eq!(numbers[..2], [1, 4], "{}", r.stdout);
    assert!(
        lines[..2].iter().all(|l| l["valid"] == true),
        "{}",
        r.stdout
    );
}

#[test]
fn check_file_answers_one_grid_per_line() {
    let dir = scratch_dir("check-lines");
    let path = dir.join("grids.txt");
    let broken = SOLVED.replacen('5', "6", 1);
    std::fs::write(&path, format!("# grids\n{SOLVED}\n\n{broken}\n0x0102\n")).unwrap();
    let r = run(&["check", "--file", path.to_str().unwrap()]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines[0], "true");
    assert!(
        lines[1].starts_with("false: row 1 has 6 twice"),
        "{}",
        lines[1]
    );
    assert_eq!(lines[2], "false: 81 bytes expected, got 2");
    assert_eq!(
        lines[3],
        "summary: 3 grids, 1 valid, 2 invalid, 0 bad lines"
    );
    let r = run(&["--json", "check", "--file", path.to_str().unwrap()]);
    let v = r.json_lines();
    let numbers: Vec<u64> = v[..3].iter().map(|l| l["line"].as_u64().unwrap()).collect();
    assert_eq!(numbers, [2, 4, 5]);
    assert_eq!(v[3]["summary"]["invalid"], 2);
    // A line that is not a grid at all: its error in its place, exit 2.
    std::fs::write(&path, format!("{SOLVED}\nnot a grid\n")).unwrap();
    let r = run(&["check", "--file", path.to_str().unwrap()]);
    assert_eq!(r.code, 2);
    assert!(r
        .stdout
        .lines()
        .nth(1)
        .unwrap()
        .starts_with("error: grid (file "));
}

#[test]
fn generate_never_wraps_past_the_largest_seed() {
    let max = u64::MAX.to_string();
    let r = run(&["generate", "--seed", &max, "--count", "2"]);
    assert_eq!(r.code, 2);
    assert!(r.stdout.is_empty(), "{}", r.stdout);
    assert!(r.stderr.contains("largest seed"), "{}", r.stderr);
    let r = run(&["--json", "generate", "--seed", &max]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.json_lines()[0]["seed"], u64::MAX);
    let difficulty = [
        "--difficulty",
        "expert",
        "--max-attempts",
        "5",
        "--count",
        "2",
    ];
    let r = run(&[&["generate", "--seed", &max][..], &difficulty].concat());
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("largest seed"), "{}", r.stderr);
}

#[test]
fn an_error_is_never_lost_when_stdout_is_full() {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let out = Command::new(ALGOKU)
        .args(["--json", "generate", "--count", "2"])
        .stdin(Stdio::null())
        .stdout(full)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.starts_with("error: "), "{stderr}");
    assert!(stderr.contains("No space left"), "{stderr}");
}

#[test]
fn fixtures_without_a_difficulty_file_remove_an_old_one() {
    let dir = scratch_dir("fixtures-stale");
    let out = dir.to_str().unwrap();
    let small = [
        "--count",
        "1",
        "--invalid-per-category",
        "1",
        "--curta-addresses",
        "1",
    ];
    let r = run(&[
        &["fixtures", "--quiet", "--out", out, "--per-level", "1"][..],
        &small,
    ]
    .concat());
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(dir.join("difficulty.jsonl").exists());
    let r = run(&[
        &["fixtures", "--quiet", "--out", out, "--per-level", "0"][..],
        &small,
    ]
    .concat());
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(!dir.join("difficulty.jsonl").exists());
}

#[test]
fn positions_in_errors_count_from_1() {
    // The fifth character of each input is the bad one.
    let grid = format!("{}x{}", &SOLVED[..4], &SOLVED[5..]);
    let address = format!("0x12g{}", "0".repeat(37));
    let algorand = format!("AAAA1{}", "A".repeat(53));
    for args in [
        vec!["check", grid.as_str()],
        vec!["curta", "generate", address.as_str()],
        vec!["curta", "generate", algorand.as_str()],
        vec![
            "curta",
            "solve",
            "00001000000000000000000000000000000000000000000000000000000000zz",
        ],
    ] {
        let r = run(&args);
        assert_eq!(r.code, 2, "{args:?}");
        let at = if args[1] == "solve" {
            "position 63"
        } else {
            "position 5"
        };
        assert!(r.stderr.contains(at), "{args:?}: {}", r.stderr);
    }
}
