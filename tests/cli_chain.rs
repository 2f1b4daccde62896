//! The chain commands of the real `algoku` binary, on go-algorand's evaluator.
//! The chain answers; a `false` says why (the mirror's reason).

mod common;

use serde_json::Value;
use std::process::Command;

/// Runs `algoku args…` for its one JSON value: (exit code, the value).
fn algoku(args: &[&str]) -> (i32, Value) {
    let r = common::run(args);
    (r.code, r.json())
}

/// Runs `algoku args…` for its text: (exit code, stdout lines, stderr).
fn algoku_text(args: &[&str]) -> (i32, Vec<String>, String) {
    let r = common::run(args);
    (r.code, r.lines(), r.stderr)
}

const VALID: &str =
    "953168742862734951417952836746893125281645397395271468138529674574386219629417583";

/// A file in cargo's scratch dir for the tests of this file.
fn scratch_file(name: &str, text: &str) -> std::path::PathBuf {
    common::scratch_file("cli_chain", name, text)
}

#[test]
fn demo_runs_end_to_end_on_the_embedded_evaluator() {
    let (code, v) = algoku(&["demo", "--network", "embedded", "--json", "--seed", "7"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["valid"], true);
    assert_eq!(v["backend"], "embedded");
    assert_eq!(v["solution_check"]["valid"], true);
    assert_eq!(v["puzzle_check"]["valid"], true);
    assert_eq!(v["changed_check"]["valid"], false);
    // The changed cell r5c5 repeats a digit of row 5: the mirror says so.
    let why = v["changed_check"]["reason"].as_str().unwrap_or_default();
    assert!(why.starts_with("row 5 has "), "{v}");
    assert!(why.contains("r5c5"), "{v}");
    assert_eq!(v["solution_check"].get("reason"), None, "{v}");
    assert_eq!(v["puzzle_check"].get("reason"), None, "{v}");
    // The one-call method is the cheapest: 1 000 µALGO against classic's 3 000.
    assert_eq!(v["solution_check"]["method"], "lanes");
    assert_eq!(v["solution_check"]["fee"], 1000);
    assert_eq!(v["puzzle_check"]["fee"], 1000);
    assert_eq!(
        v["prices"],
        serde_json::json!({"original": 8000, "classic": 3000, "lanes": 1000, "solution_of": 1000})
    );
    assert!(v["solution_check"]["txids"]
        .as_array()
        .is_some_and(|t| !t.is_empty()));
}

#[test]
fn verify_reports_rejections_and_verdicts_as_json() {
    let short = format!("0x{}", "01".repeat(80));
    let (code, v) = algoku(&["verify", "--network", "embedded", "--json", &short]);
    assert_eq!(code, 1);
    assert_eq!(
        v["error"],
        "rejected by the contract: Grid must be 81 bytes long."
    );
    let valid = "953168742862734951417952836746893125281645397395271468138529674574386219629417583";
    let (code, v) = algoku(&[
        "verify",
        "--network",
        "embedded",
        "--json",
        "--simulate-only",
        valid,
    ]);
    assert_eq!(code, 0);
    assert_eq!(v["valid"], true);
    assert_eq!(v["fee"], 0);
    assert_eq!(v["txids"], serde_json::json!([]));
    assert_eq!(v["method"], "lanes");
    assert_eq!(v["would_cost"], 1000);
    assert_eq!(v["budget_pooled"], 700);
    // Nothing left this process: the app lives on the throwaway in-process ledger.
    assert!(
        v["setup"].as_str().unwrap().contains("in-process ledger"),
        "{v}"
    );
    let (code, v) = algoku(&[
        "verify",
        "--network",
        "embedded",
        "--json",
        "--method",
        "classic",
        valid,
    ]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        (v["method"].as_str(), v["fee"].as_u64()),
        (Some("classic"), Some(3000))
    );
}

#[test]
fn verify_binds_a_solution_to_its_puzzle() {
    let valid = "953168742862734951417952836746893125281645397395271468138529674574386219629417583";
    let puzzle: String = valid
        .chars()
        .enumerate()
        .map(|(i, c)| if i % 5 == 0 { c } else { '.' })
        .collect();
    let verify_of = |puzzle: &str| {
        algoku(&[
            "verify",
            "--network",
            "embedded",
            "--json",
            "--puzzle",
            puzzle,
            valid,
        ])
    };
    let (code, v) = verify_of(&puzzle);
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        (
            v["method"].as_str(),
            v["valid"].as_bool(),
            v["fee"].as_u64()
        ),
        (Some("solution_of"), Some(true), Some(1000))
    );
    let other = puzzle.replacen('9', "8", 1);
    let (code, v) = verify_of(&other);
    assert_eq!(code, 1, "{v}");
    assert_eq!(v["valid"], false);
    assert_eq!(
        v["reason"],
        "cell r1c1 holds 9, but the puzzle's given there is 8"
    );
}

#[test]
fn a_false_verdict_says_why_in_text_and_json() {
    // The last cell changed from 3 to 4: row 9 holds 4 twice.
    let changed = format!("{}4", &VALID[..80]);
    let row9 = "row 9 has 4 twice (cells r9c4 and r9c9)";
    let net = ["--network", "embedded", "--simulate-only"];
    let (code, out, err) = algoku_text(&[&["verify"][..], &net, &[&changed]].concat());
    assert_eq!(code, 1, "{err}");
    assert_eq!(
        out,
        ["false".to_string(), format!("reason: {row9}")],
        "{err}"
    );

    let puzzle: String = VALID
        .chars()
        .enumerate()
        .map(|(i, c)| if i % 5 == 0 { c } else { '.' })
        .collect();
    let other = puzzle.replacen('9', "8", 1);
    let given = "cell r1c1 holds 9, but the puzzle's given there is 8";
    let (code, out, err) =
        algoku_text(&[&["verify"][..], &net, &["--puzzle", &other, VALID]].concat());
    assert_eq!(code, 1, "{err}");
    assert_eq!(out, ["false".to_string(), format!("reason: {given}")]);

    let grids = scratch_file("grids.txt", &format!("{VALID}\n{changed}\n"));
    let file = grids.to_str().unwrap();
    let (code, out, err) = algoku_text(&[&["verify"][..], &net, &["--file", file]].concat());
    assert_eq!(code, 1, "{err}");
    assert_eq!(
        out,
        ["1 true".to_string(), format!("2 false reason: {row9}")]
    );

    // A broken rule is named before a changed given (the last cell is a given).
    let pairs = scratch_file(
        "pairs.txt",
        &format!("{puzzle} {VALID}\n{other} {VALID}\n{puzzle} {changed}\n"),
    );
    let file = pairs.to_str().unwrap();
    let (code, out, err) =
        algoku_text(&[&["--json", "verify"][..], &net, &["--puzzle-file", file]].concat());
    assert_eq!(code, 1, "{err}");
    let lines: Vec<Value> = out
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4, "{out:?}");
    assert_eq!(
        (&lines[0]["valid"], lines[0].get("reason")),
        (&Value::Bool(true), None)
    );
    assert_eq!(
        (&lines[1]["valid"], &lines[1]["reason"]),
        (&Value::Bool(false), &Value::from(given))
    );
    assert_eq!(
        (&lines[2]["valid"], &lines[2]["reason"]),
        (&Value::Bool(false), &Value::from(row9))
    );
    assert_eq!(lines[3]["summary"]["invalid"], 2, "{out:?}");
}

#[test]
fn verify_file_answers_every_line_in_order() {
    let valid = "953168742862734951417952836746893125281645397395271468138529674574386219629417583";
    let changed = format!("{}{}", &valid[..80], "4");
    let mut text = String::from("# a comment line\n");
    for k in 0..40 {
        let line = match k % 10 {
            3 => changed.clone(),
            7 => "0x0102".to_string(),
            9 => "not a grid".to_string(),
            _ => valid.to_string(),
        };
        text.push_str(&line);
        text.push('\n');
    }
    let path = std::env::temp_dir().join(format!("algoku-batch-{}.txt", std::process::id()));
    std::fs::write(&path, text).unwrap();
    let out = Command::new(common::ALGOKU)
        .args([
            "verify",
            "--network",
            "embedded",
            "--json",
            "--method",
            "lanes",
            "--file",
        ])
        .arg(&path)
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&path);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 41, "{stdout}");
    assert_eq!(out.status.code(), Some(2), "some lines are errors: exit 2");
    for (k, v) in lines[..40].iter().enumerate() {
        assert_eq!(v["line"], k + 2, "input order: {v}");
        match k % 10 {
            3 => assert_eq!(
                (
                    v["valid"].as_bool(),
                    v["fee"].as_u64(),
                    v["reason"].as_str()
                ),
                (
                    Some(false),
                    Some(1000),
                    Some("row 9 has 4 twice (cells r9c4 and r9c9)")
                ),
                "{v}"
            ),
            7 => assert_eq!(
                v["error"], "rejected by the contract: Grid must be 81 bytes long.",
                "{v}"
            ),
            9 => assert!(v["error"].as_str().unwrap().contains("wrong length"), "{v}"),
            _ => assert_eq!(
                (v["valid"].as_bool(), v["method"].as_str(), v.get("reason")),
                (Some(true), Some("lanes"), None),
                "{v}"
            ),
        }
    }
    let s = &lines[40]["summary"];
    assert_eq!(
        (
            s["lines"].as_u64(),
            s["valid"].as_u64(),
            s["invalid"].as_u64(),
            s["errors"].as_u64()
        ),
        (Some(40), Some(28), Some(4), Some(8)),
        "{s}"
    );
    assert_eq!(s["fee"], 32 * 1000);
}

#[test]
fn a_foreign_or_missing_app_id_is_refused() {
    let valid = "953168742862734951417952836746893125281645397395271468138529674574386219629417583";
    // A fresh embedded ledger has no app 1 and no app 999999 (a foreign app's id:
    // tests/cli_node.rs, on a node that keeps its apps).
    for id in ["1", "999999"] {
        let (code, v) = algoku(&[
            "verify",
            "--network",
            "embedded",
            "--json",
            "--app-id",
            id,
            valid,
        ]);
        assert_eq!(code, 2, "{v}");
        let e = v["error"].as_str().unwrap();
        assert!(e.contains(&format!("app {id}")), "{e}");
        assert!(
            e.contains("is not Algoku") || e.contains("does not exist"),
            "{e}"
        );
    }
}

#[test]
fn a_down_localnet_is_named() {
    let r = common::algoku(&["deploy", "--network", "localnet", "--json"])
        .env("ALGOD_PORT", "4999")
        .run();
    assert_ne!(r.code, 0);
    assert!(r.stdout.contains("docker compose up -d"), "{}", r.stdout);
}

#[test]
fn a_verify_that_fails_before_doing_anything_prints_one_error_line() {
    // text mode: no `backend:` line before the error when nothing was done
    let (code, stdout, stderr) = algoku_text(&[
        "verify",
        "--network",
        "embedded",
        "--app-id",
        "999999",
        VALID,
    ]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stdout.is_empty(), "{stdout:?}");
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 1, "one line: {stderr}");
    assert!(
        lines[0].starts_with("error: ") && lines[0].contains("app 999999"),
        "{stderr}"
    );
    // a verification that runs still names its backend
    let (code, _, stderr) = algoku_text(&["verify", "--network", "embedded", VALID]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("backend: embedded"), "{stderr}");
}

#[test]
fn a_long_line_in_a_grid_file_gets_its_own_error() {
    let long = "1".repeat(100_000);
    let file = scratch_file("long-line.txt", &format!("{VALID}\n{long}\n{VALID}\n"));
    let r = common::run(&[
        "verify",
        "--network",
        "embedded",
        "--json",
        "--file",
        file.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 2, "a bad line is exit 2: {}", r.stderr);
    let lines = r.json_lines();
    assert_eq!(lines.len(), 4, "{}", r.stdout);
    assert_eq!(lines[0]["valid"], true);
    assert_eq!(lines[1]["line"], 2);
    assert!(
        lines[1]["error"]
            .as_str()
            .unwrap()
            .contains("longer than 65536 bytes"),
        "{}",
        lines[1]
    );
    assert_eq!(lines[2]["valid"], true);
}
