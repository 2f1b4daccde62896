//! `algoku curta play` through the binary on go-algorand's evaluator (embedded).

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
fn play_solves_this_accounts_start_and_records_it() {
    let (code, v) = algoku(&["--json", "curta", "play", "--network", "embedded"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["status"], "solved", "{v}");
    assert_eq!(v["backend"], "embedded");
    assert_eq!(v["paid"], 31_300);
    assert_eq!(v["fee"], 3_000);
    assert!(v["round"].as_u64().unwrap() > 0);
    let start = v["start"].as_str().unwrap();
    let solution = v["solution"].as_str().unwrap();
    // The start is the native generate of the player's address; the solution verifies.
    let (code, g) = algoku(&[
        "--json",
        "curta",
        "generate",
        v["address"].as_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{g}");
    assert!(g.to_string().contains(start), "{g} vs {start}");
    let (code, ok) = algoku(&["--json", "curta", "verify", start, solution]);
    assert_eq!(code, 0, "{ok}");
}

#[test]
fn play_refuses_an_app_that_is_not_curta() {
    let (code, v) = algoku(&[
        "--json",
        "curta",
        "play",
        "--network",
        "embedded",
        "--app-id",
        "999999",
    ]);
    assert_eq!(code, 2, "{v}");
    assert!(v["error"].as_str().unwrap().contains("999999"), "{v}");
}
