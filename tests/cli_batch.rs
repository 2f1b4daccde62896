//! Batches never stop short: `verify --file` / `--puzzle-file` on the embedded
//! evaluator run to the end however long they are (the play-money account is
//! topped up), and a batch that cannot go on (here: an account that runs out
//! of funds on purpose, `ALGOKU_EMBEDDED_FUNDING` with `ALGOKU_EMBEDDED_TOP_UP=off`;
//! or an algod account too poor for the file) still prints one line per input
//! line, in order, and the summary, and exits 2.

mod common;

use common::{relabelled, ALGOKU, SOLVED};
use std::process::Command;

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// A file in the temp dir holding `lines`, removed on drop.
struct TempFile(PathBuf);

impl TempFile {
    fn new(name: &str, lines: &[String]) -> TempFile {
        let path = std::env::temp_dir().join(format!("algoku-{name}-{}.txt", std::process::id()));
        std::fs::write(&path, lines.join("\n") + "\n").unwrap();
        TempFile(path)
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Runs `algoku args… FILE --json` with `env`: (exit code, the output lines, the summary).
fn run(args: &[&str], file: &TempFile, env: &[(&str, &str)]) -> (i32, Vec<Value>, Value) {
    let path = file.0.to_str().expect("a UTF-8 temp path");
    let r = common::algoku(&[args, &[path, "--json"]].concat())
        .envs(env)
        .run();
    let mut lines = r.json_lines();
    let summary = lines.pop().expect("a summary line")["summary"].clone();
    assert!(
        summary.is_object(),
        "the last line is the summary: {}",
        r.stdout
    );
    (r.code, lines, summary)
}

/// Every input line has its own output line, in input order, and the
/// summary's counts add up to them.
fn assert_one_line_each(lines: &[Value], numbers: &[usize], summary: &Value) {
    assert_eq!(lines.len(), numbers.len(), "{summary}");
    for (v, n) in lines.iter().zip(numbers) {
        assert_eq!(v["line"], *n, "input order: {v}");
        assert!(v["valid"].is_boolean() != v["error"].is_string(), "{v}");
    }
    let count = |k: &str| summary[k].as_u64().unwrap();
    assert_eq!(count("lines"), numbers.len() as u64, "{summary}");
    assert_eq!(count("verified"), count("valid") + count("invalid"));
    assert_eq!(
        count("verified") + count("errors") + count("not_attempted"),
        count("lines"),
        "{summary}"
    );
}

/// The play-money account starts with this much: enough to create the app
/// (its fee and 4 × 100 000 of minimum balance, as on algod) and then pay 300
/// one-call verifications (the evaluator charges 200 000 of minimum balance).
const FUNDING: &str = "501000";
/// The embedded account holds [`FUNDING`] and is never topped up.
const NO_TOP_UPS: [(&str, &str); 2] = [
    ("ALGOKU_EMBEDDED_FUNDING", FUNDING),
    ("ALGOKU_EMBEDDED_TOP_UP", "off"),
];

#[test]
fn a_file_without_one_grid_touches_no_chain_and_exits_2() {
    // Every line is an error of its own: the rule of every batch (README), the same as
    // `curta verify --file` on such a file.
    let file = TempFile::new("no-grid", &["notagrid".into(), "123".into()]);
    for args in [
        &["verify", "--network", "embedded", "--file"][..],
        &["verify", "--network", "embedded", "--puzzle-file"][..],
    ] {
        let (code, lines, summary) = run(args, &file, &[]);
        assert_eq!(code, 2, "{args:?}: {summary}");
        assert_one_line_each(&lines, &[1, 2], &summary);
        assert_eq!(
            (summary["backend"].clone(), summary["errors"].as_u64()),
            (Value::Null, Some(2)),
            "{summary}"
        );
    }
}

#[test]
fn a_batch_that_runs_out_of_funds_answers_every_line_and_sums_up() {
    let mut lines: Vec<String> = (0..400).map(relabelled).collect();
    lines[10] = format!("{}1", &SOLVED[..80]); // invalid
    lines[350] = "not a grid".into(); // an error of its own, after the stop
    let file = TempFile::new("broke", &lines);
    let env = NO_TOP_UPS;
    // One verification a call (lanes): the funds run out after 18 groups.
    let args = [
        "verify",
        "--network",
        "embedded",
        "--method",
        "lanes",
        "--file",
    ];
    let (code, out, s) = run(&args, &file, &env);
    assert_eq!(code, 2, "the batch stopped: {s}");
    let numbers: Vec<usize> = (1..=400).collect();
    assert_one_line_each(&out, &numbers, &s);
    // 300 000 µALGO of fees pay 18 groups of 16; the 19th is refused before it is sent.
    let verified = 18 * 16;
    for (k, v) in out.iter().enumerate() {
        match k {
            10 => assert_eq!(v["valid"], false, "{v}"),
            350 => assert!(v["error"].as_str().unwrap().contains("wrong length"), "{v}"),
            k if k < verified => assert_eq!(v["valid"], true, "{v}"),
            _ => {
                assert_eq!(v["not_attempted"], true, "{v}");
                let e = v["error"].as_str().unwrap();
                assert!(
                    e.starts_with("not verified: the batch stopped: insufficient funds"),
                    "{e}"
                );
                assert!(e.contains("µALGO missing"), "{e}");
            }
        }
    }
    assert_eq!(
        [
            &s["valid"],
            &s["invalid"],
            &s["errors"],
            &s["not_attempted"]
        ],
        [
            &json!(verified - 1),
            &json!(1),
            &json!(1),
            &json!(400 - verified - 1)
        ],
        "{s}"
    );
    assert_eq!(s["fee"], verified * 1000);
    assert!(
        s["stopped"]
            .as_str()
            .unwrap()
            .contains("insufficient funds"),
        "{s}"
    );
    assert_eq!(s["topped_up"], 0);
}

#[test]
fn a_puzzle_file_that_runs_out_of_funds_answers_every_line() {
    // Every third cell given: a puzzle that SOLVED solves.
    let puzzle: String = SOLVED
        .chars()
        .enumerate()
        .map(|(i, c)| if i % 3 == 0 { c } else { '.' })
        .collect();
    let pair = format!("{puzzle} {SOLVED}");
    let lines: Vec<String> = (0..320).map(|_| pair.clone()).collect();
    let file = TempFile::new("broke-pairs", &lines);
    let env = NO_TOP_UPS;
    let (code, out, s) = run(
        &["verify", "--network", "embedded", "--puzzle-file"],
        &file,
        &env,
    );
    assert_eq!(code, 2, "{s}");
    let numbers: Vec<usize> = (1..=320).collect();
    assert_one_line_each(&out, &numbers, &s);
    assert_eq!(s["valid"], 288, "{s}");
    assert_eq!(s["not_attempted"], 32, "{s}");
    assert!(out[..288].iter().all(|v| v["method"] == "solution_of"));
}

#[test]
fn the_embedded_account_is_topped_up_as_the_batch_needs() {
    // Funding for the app and a few groups only: the batch still runs to the end.
    let lines: Vec<String> = (0..200).map(relabelled).collect();
    let file = TempFile::new("topped", &lines);
    let env = [("ALGOKU_EMBEDDED_FUNDING", "250000")];
    let (code, out, s) = run(&["verify", "--network", "embedded", "--file"], &file, &env);
    assert_eq!(code, 0, "{s}");
    let numbers: Vec<usize> = (1..=200).collect();
    assert_one_line_each(&out, &numbers, &s);
    assert_eq!(
        (s["valid"].as_u64(), s["stopped"].as_str()),
        (Some(200), None)
    );
    let topped = s["topped_up"].as_u64().unwrap();
    assert!(topped >= 250_000 && topped % 250_000 == 0, "in steps: {s}");
    assert!(s["setup"].as_str().unwrap().contains("play money"), "{s}");
}

#[test]
fn simulate_only_prices_the_whole_file_without_sending() {
    let lines: Vec<String> = (0..40).map(relabelled).collect();
    let file = TempFile::new("priced", &lines);
    let env = NO_TOP_UPS;
    let args = [
        "verify",
        "--network",
        "embedded",
        "--simulate-only",
        "--file",
    ];
    let (code, out, s) = run(&args, &file, &env);
    assert_eq!(code, 0, "{s}");
    assert_one_line_each(&out, &(1..=40).collect::<Vec<_>>(), &s);
    // 40 grids: three are_valid_solutions calls (14 + 14 + 12)
    assert_eq!(
        (s["fee"].as_u64(), s["would_cost"].as_u64()),
        (Some(0), Some(3_000))
    );
    assert!(out.iter().all(|v| v["method"] == "batch"), "{s}");
    let cost = &s["cost"];
    assert_eq!(cost["fees"], 3_000, "{s}");
    assert_eq!(cost["balance"], 501_000, "{s}");
    assert_eq!(cost["missing"], 3_000, "{s}");
}

/// A loopback algod that knows an account holding `amount` µALGO with no
/// app, and records every request it gets. Returns its port and the log.
fn fake_algod(amount: u64) -> (u16, Arc<Mutex<Vec<String>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let log = Arc::new(Mutex::new(Vec::new()));
    let seen = log.clone();
    std::thread::spawn(move || {
        for sock in listener.incoming().flatten() {
            let mut reader = BufReader::new(sock);
            let mut head = String::new();
            let mut length = 0usize;
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
                    break;
                }
                if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                    length = v.trim().parse().unwrap_or(0);
                }
                if head.is_empty() {
                    head = line.trim().to_string();
                }
            }
            let mut body = vec![0; length];
            let _ = reader.read_exact(&mut body);
            seen.lock().unwrap().push(head.clone());
            let path = head.split_whitespace().nth(1).unwrap_or("");
            let (status, answer) = if path == "/health" {
                ("200 OK", json!({}))
            } else if path.starts_with("/v2/transactions/params") {
                let hash = "SGO1GKSzyE7IEPItTxCByw9x8FmnrCDexi9/cOUJOiI=";
                (
                    "200 OK",
                    json!({"last-round": 10, "min-fee": 1000, "fee": 0,
                    "genesis-hash": hash, "genesis-id": "fake-v1"}),
                )
            } else if path.starts_with("/v2/accounts/") {
                (
                    "200 OK",
                    json!({"amount": amount, "min-balance": 100_000, "created-apps": []}),
                )
            } else {
                (
                    "500 Internal Server Error",
                    json!({"message": "not in this fake"}),
                )
            };
            let text = answer.to_string();
            let mut sock = reader.into_inner();
            let _ = write!(
                sock,
                "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{text}",
                text.len()
            );
        }
    });
    (port, log)
}

#[test]
fn an_algod_account_too_poor_for_the_file_is_told_before_anything_is_sent() {
    let lines: Vec<String> = (0..50).map(relabelled).collect();
    let file = TempFile::new("algod-poor", &lines);
    let (port, log) = fake_algod(300_000);
    let port = port.to_string();
    let env = [
        ("ALGOD_SERVER", "http://127.0.0.1"),
        ("ALGOD_PORT", port.as_str()),
        ("DEPLOYER_MNEMONIC", common::MNEMONIC),
    ];
    let (code, out, s) = run(&["verify", "--file"], &file, &env);
    assert_eq!(code, 2, "{s}");
    assert_one_line_each(&out, &(1..=50).collect::<Vec<_>>(), &s);
    assert_eq!(s["not_attempted"], 50, "{s}");
    let cause = s["stopped"].as_str().unwrap();
    // 100 000 kept + 401 000 to create the app + 4 000 of fees (50 grids,
    // 14 a call) - 300 000 held.
    assert!(cause.contains("205000 µALGO missing"), "{cause}");
    assert!(cause.contains("nothing was sent"), "{cause}");
    assert_eq!(s["cost"]["missing"], 205_000, "{s}");
    let requests = log.lock().unwrap().clone();
    assert!(
        requests.iter().all(|r| r.starts_with("GET ")),
        "nothing is sent: {requests:?}"
    );
}

/// 100 000 valid grids on the embedded evaluator: the batch runs to the end.
/// Run it on an optimised build and read the rate it prints:
/// `cargo test --release --test cli_batch -- --ignored --nocapture`.
#[test]
#[ignore = "minutes: 100 000 verifications"]
fn a_hundred_thousand_grids_run_to_the_end() {
    let n = 100_000;
    let lines: Vec<String> = (0..n).map(relabelled).collect();
    let file = TempFile::new("100k", &lines);
    let (code, out, s) = run(
        &["verify", "--network", "embedded", "--quiet", "--file"],
        &file,
        &[],
    );
    assert_eq!(code, 0, "{s}");
    assert_one_line_each(&out, &(1..=n).collect::<Vec<_>>(), &s);
    assert_eq!(s["valid"], n, "{s}");
    println!(
        "{n} grids: {} s, {} grids/s, topped up {} µALGO",
        s["seconds"], s["per_second"], s["topped_up"]
    );
}

#[test]
fn a_curta_batch_that_cannot_start_still_answers_every_line() {
    // An algod account with no Curta app and no --deploy: the batch stops
    // before its first question, and says so on every line.
    let address = "LY3BTGZKN4CNIAJ5PZPQC5DAHFR5Q5KITQJ2LAP64J5IW3QM54ITX7RVT4";
    let mut lines: Vec<String> = (0..20).map(|_| address.to_string()).collect();
    lines[4] = "not an address".into();
    let file = TempFile::new("curta-stopped", &lines);
    let (port, log) = fake_algod(1_000_000);
    let port = port.to_string();
    let env = [
        ("ALGOD_SERVER", "http://127.0.0.1"),
        ("ALGOD_PORT", port.as_str()),
        ("DEPLOYER_MNEMONIC", common::MNEMONIC),
    ];
    let args = ["curta", "generate", "--network", "auto", "--file"];
    let (code, out, s) = run(&args, &file, &env);
    assert_eq!(code, 2, "{s}");
    assert_eq!(out.len(), 20, "{s}");
    for (k, v) in out.iter().enumerate() {
        assert_eq!(v["line"], k + 1, "{v}");
        let e = v["error"].as_str().unwrap();
        if k == 4 {
            assert!(e.starts_with("address:"), "{e}");
        } else {
            assert_eq!(v["not_attempted"], true, "{v}");
            assert!(e.starts_with("not answered: the batch stopped: "), "{e}");
            assert!(e.contains("no Curta app"), "{e}");
        }
    }
    assert_eq!(
        (
            s["lines"].as_u64(),
            s["errors"].as_u64(),
            s["not_attempted"].as_u64()
        ),
        (Some(20), Some(1), Some(19)),
        "{s}"
    );
    assert!(
        s["stopped"].as_str().unwrap().contains("no Curta app"),
        "{s}"
    );
    assert!(log.lock().unwrap().iter().all(|r| r.starts_with("GET ")));
}

/// The batch method is the default for a grid file: 14 grids a call, one line
/// per input line in order, the mirror's verdict and reason for every grid,
/// and under 100 µALGO a grid.
#[test]
fn a_grid_file_goes_fourteen_grids_a_call_by_default() {
    let mut lines: Vec<String> = (0..300).map(relabelled).collect();
    lines[3] = format!("{}{}", &SOLVED[..79], "38"); // two cells swapped: invalid
    lines[40] = SOLVED.replace('9', "0"); // a 0 in every 9's cell: invalid
                                          // 80 bytes: the contract rejects the length (asked alone, never in a batch)
    lines[41] = format!(
        "0x{}",
        SOLVED[..80]
            .bytes()
            .map(|d| format!("{:02x}", d - b'0'))
            .collect::<String>()
    );
    lines[99] = "not a grid".into();
    let file = TempFile::new("batch-default", &lines);
    let (code, out, s) = run(&["verify", "--network", "embedded", "--file"], &file, &[]);
    assert_eq!(
        code, 2,
        "a line with an error is exit 2, as in every batch: {s}"
    );
    assert_one_line_each(&out, &(1..=300).collect::<Vec<_>>(), &s);
    for (k, v) in out.iter().enumerate() {
        match k {
            3 | 40 => {
                assert_eq!(
                    (v["valid"].as_bool(), v["method"].as_str()),
                    (Some(false), Some("batch")),
                    "{v}"
                );
                assert!(v["reason"].as_str().is_some_and(|r| !r.is_empty()), "{v}");
            }
            41 => assert_eq!(
                v["error"], "rejected by the contract: Grid must be 81 bytes long.",
                "{v}"
            ),
            99 => assert!(v["error"].as_str().unwrap().contains("wrong length"), "{v}"),
            _ => assert_eq!(
                (v["valid"].as_bool(), v["method"].as_str()),
                (Some(true), Some("batch")),
                "{v}"
            ),
        }
    }
    // 298 grids in windows of 224 and the rest: 16 + 6 calls of 1 000 µALGO,
    // plus the wrong-length line's simulated rejection (free)
    let calls: u64 = 16 + 74u64.div_ceil(14);
    assert_eq!(s["fee"], calls * 1000, "{s}");
    let per_grid = s["fee_per_grid"].as_f64().unwrap();
    assert!(per_grid <= 100.0, "{s}");
    assert_eq!(s["method_prices"]["batch_call"], 1000, "{s}");
    assert_eq!(s["method_prices"]["lanes"], 1000, "{s}");
}

/// Text mode streams: the first lines come out while the batch is still
/// running, and a SIGINT stops it after the window being asked, with every
/// answered line printed, in order.
#[test]
fn a_text_batch_streams_and_keeps_its_answers_on_sigint() {
    let lines: Vec<String> = (0..30_000).map(|k| relabelled(k % 5_000)).collect();
    let file = TempFile::new("stream", &lines);
    let mut child = Command::new(ALGOKU)
        .args(["verify", "--network", "embedded", "--file"])
        .arg(&file.0)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("algoku runs");
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    stdout.read_line(&mut first).unwrap();
    assert_eq!(first.trim(), "1 true");
    assert!(
        child.try_wait().unwrap().is_none(),
        "the first line came before the end of a 30 000-line batch"
    );
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let mut rest = String::new();
    stdout.read_to_string(&mut rest).unwrap();
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    let code = child.wait().unwrap().code();
    assert_eq!(code, Some(2), "{stderr}");
    let printed: Vec<&str> = std::iter::once(first.trim()).chain(rest.lines()).collect();
    assert_eq!(printed.len(), 30_000, "every line has its line");
    let answered = printed.iter().take_while(|l| l.ends_with(" true")).count();
    assert!((224..30_000).contains(&answered), "{answered} answered");
    for (k, l) in printed.iter().enumerate() {
        assert!(l.starts_with(&format!("{} ", k + 1)), "in order: {l}");
    }
    assert!(
        printed[answered].contains("not verified: the batch stopped: interrupted"),
        "{}",
        printed[answered]
    );
    assert!(stderr.contains("interrupted"), "{stderr}");
}
