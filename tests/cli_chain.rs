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
    assert_eq!(v["changed_check"]["valid"], false);
    assert_eq!(v["solution_check"]["fee"], 3000);
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
    assert_eq!(v["budget_pooled"], 2100);
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
