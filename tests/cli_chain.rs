//! The chain commands of the real `algoku` binary, on go-algorand's evaluator.

use serde_json::Value;
use std::process::Command;

fn algoku(args: &[&str]) -> (i32, Value) {
    let out = Command::new(env!("CARGO_BIN_EXE_algoku"))
        .args(args)
        .output()
        .expect("algoku runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let json =
        serde_json::from_str(stdout.trim()).unwrap_or_else(|e| panic!("not JSON ({e}): {stdout}"));
    (out.status.code().unwrap_or(-1), json)
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
    let (code, v) = algoku(&[
        "verify",
        "--network",
        "embedded",
        "--json",
        "--puzzle",
        &puzzle,
        valid,
    ]);
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
    let (code, v) = algoku(&[
        "verify",
        "--network",
        "embedded",
        "--json",
        "--puzzle",
        &other,
        valid,
    ]);
    assert_eq!(code, 1, "{v}");
    assert_eq!(v["valid"], false);
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
    let out = Command::new(env!("CARGO_BIN_EXE_algoku"))
        .args(["verify", "--network", "embedded", "--json", "--file"])
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
    assert_eq!(out.status.code(), Some(1), "some lines are not valid");
    for (k, v) in lines[..40].iter().enumerate() {
        assert_eq!(v["line"], k + 2, "input order: {v}");
        match k % 10 {
            3 => assert_eq!(
                (v["valid"].as_bool(), v["fee"].as_u64()),
                (Some(false), Some(1000)),
                "{v}"
            ),
            7 => assert_eq!(
                v["error"], "rejected by the contract: Grid must be 81 bytes long.",
                "{v}"
            ),
            9 => assert!(v["error"].as_str().unwrap().contains("wrong length"), "{v}"),
            _ => assert_eq!(
                (v["valid"].as_bool(), v["method"].as_str()),
                (Some(true), Some("lanes")),
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
    // On a fresh embedded ledger app 1 is the budget probe: not Algoku.
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
    let out = Command::new(env!("CARGO_BIN_EXE_algoku"))
        .args(["deploy", "--network", "localnet", "--json"])
        .env("ALGOD_PORT", "4999")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_ne!(out.status.code(), Some(0));
    assert!(stdout.contains("docker compose up -d"), "{stdout}");
}
