//! A batch's report is true about money: the price told before sending, the funds
//! check and the summary agree with what is sent, on a file that mixes grids, bad
//! lines and inputs the contract refuses; a batch stopped by SIGINT, SIGTERM or
//! SIGHUP (to the whole process group, as a terminal or a scheduler sends it)
//! finishes the window it paid for, prints it and its summary.

mod common;

use common::{json_lines, relabelled, ALGOKU};
use serde_json::Value;
use std::io::{BufRead, BufReader, Read};
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};

/// 291 lines: 257 grids (some invalid), 26 lines that are no grid, 8 hex inputs
/// (4 the contract answers false, 4 of a length it refuses).
fn mixed_file(name: &str) -> std::path::PathBuf {
    let mut lines = Vec::new();
    let (mut grids, mut k) = (0, 0);
    while grids < 257 {
        k += 1;
        lines.push(match k % 37 {
            3 | 11 | 19 | 27 => format!("not a grid {k}"),
            30 if k < 200 => format!("0x{}", "11".repeat(81)),
            31 if k < 200 => format!("0x{}", "01".repeat(80)),
            _ => {
                grids += 1;
                let mut g = relabelled(k).into_bytes();
                if k % 5 == 0 {
                    g.swap(0, 1); // two cells swapped: invalid
                }
                String::from_utf8(g).unwrap()
            }
        });
    }
    common::scratch_file("money", name, &(lines.join("\n") + "\n"))
}

fn summary(stdout: &str) -> Value {
    json_lines(stdout).pop().expect("a summary")["summary"].clone()
}

#[test]
fn the_price_the_funds_check_and_the_summary_agree_with_what_is_sent() {
    let file = mixed_file("mixed.txt");
    let path = file.to_str().unwrap();
    let sent = common::run(&["--json", "verify", "--network", "embedded", "--file", path]);
    let s = summary(&sent.stdout);
    assert_eq!(sent.code, 2, "bad lines: {s}");
    assert!(s["fee"].as_u64().unwrap() > 0, "{s}");
    assert_eq!(
        s["cost"]["fees"], s["fee"],
        "the price told is what was paid: {s}"
    );
    assert_eq!(s["would_cost"], s["fee"], "{s}");
    let simulated = common::run(&[
        "--json",
        "verify",
        "--network",
        "embedded",
        "--simulate-only",
        "--file",
        path,
    ]);
    let t = summary(&simulated.stdout);
    assert_eq!(t["fee"], 0, "{t}");
    assert_eq!(t["would_cost"], s["fee"], "{t}");
    assert_eq!(t["cost"]["fees"], s["fee"], "{t}");
}

/// Starts a long batch in its own process group, waits for its first answered line,
/// sends `signal` to the whole group, and returns (exit code, stdout, stderr).
fn stopped_by(signal: &str) -> (i32, String, String) {
    let line = common::SOLVED;
    let text = format!("{line}\n").repeat(30_000);
    let file = common::scratch_file("money", &format!("long-{signal}.txt"), &text);
    let mut child = Command::new(ALGOKU)
        .args([
            "--json",
            "--quiet",
            "verify",
            "--network",
            "embedded",
            "--file",
        ])
        .arg(&file)
        .process_group(0)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    out.read_line(&mut first).unwrap();
    assert!(first.contains("\"valid\":true"), "{first}");
    let group = format!("-{}", child.id());
    let status = Command::new("kill")
        .args([&format!("-{signal}"), "--", &group])
        .status()
        .unwrap();
    assert!(status.success());
    let mut rest = String::new();
    out.read_to_string(&mut rest).unwrap();
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    let code = child.wait().unwrap().code().unwrap_or(-1);
    (code, first + &rest, err)
}

#[test]
fn a_signal_to_the_process_group_stops_a_batch_after_the_window_it_paid_for() {
    for (signal, name) in [("INT", "SIGINT"), ("TERM", "SIGTERM"), ("HUP", "SIGHUP")] {
        let (code, stdout, stderr) = stopped_by(signal);
        assert_eq!(code, 2, "{signal}: {stderr}");
        let s = summary(&stdout);
        let cause = s["stopped"].as_str().unwrap_or("");
        assert!(cause.contains(&format!("interrupted ({name})")), "{s}");
        assert!(
            !stderr.contains("Traceback"),
            "the evaluator outlives the signal: {stderr}"
        );
        let verified = s["verified"].as_u64().unwrap();
        assert!(verified > 0, "{s}");
        // Every answered window is whole and paid at 14 grids a call.
        assert_eq!(
            s["fee"].as_u64().unwrap(),
            verified.div_ceil(14) * 1000,
            "{s}"
        );
        assert_eq!(s["would_cost"], s["fee"], "{s}");
        assert_eq!(
            s["lines"].as_u64(),
            Some(verified + s["not_attempted"].as_u64().unwrap()),
            "{s}"
        );
    }
}
