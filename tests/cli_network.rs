//! Which chain the chain commands use, and how they fail: a configured algod
//! is used or is an error, never silently replaced by the embedded evaluator;
//! a closed output pipe ends them quietly; engine commands stay bounded.

mod common;

use serde_json::Value;
use std::io::{Read, Write};
use std::net::TcpListener;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::ALGOKU;

/// Runs `algoku args` with extra environment; (exit code, the last stdout line as JSON).
fn run_env(args: &[&str], env: &[(&str, &str)]) -> (i32, Value) {
    let r = common::algoku(args).envs(env).run();
    (r.code, r.last_json())
}

#[test]
fn a_malformed_algod_setting_is_an_error_not_a_fallback() {
    let (code, v) = run_env(&["deploy", "--json"], &[("ALGOD_PORT", "abc")]);
    assert_eq!(code, 2, "{v}");
    let e = v["error"].as_str().unwrap();
    assert!(e.contains("ALGOD_PORT=abc"), "{e}");
    assert!(v.get("app_id").is_none(), "{v}");
    let (code, v) = run_env(&["deploy", "--json"], &[("ALGOD_SERVER", "localhost")]);
    assert_eq!(code, 2, "{v}");
    assert!(v["error"].as_str().unwrap().contains("ALGOD_SERVER"), "{v}");
}

#[test]
fn a_configured_algod_that_does_not_answer_is_an_error() {
    // A loopback port that accepts connections and never answers.
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port().to_string();
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for sock in listener.incoming().flatten() {
            held.push(sock);
        }
    });
    let start = Instant::now();
    let (code, v) = run_env(
        &["deploy", "--json"],
        &[("ALGOD_SERVER", "http://127.0.0.1"), ("ALGOD_PORT", &port)],
    );
    assert_eq!(code, 2, "{v}");
    let e = v["error"].as_str().unwrap();
    assert!(e.contains(&format!("127.0.0.1:{port}")), "{e}");
    assert!(v.get("app_id").is_none(), "{v}");
    assert!(start.elapsed() < Duration::from_secs(30));
}

/// Runs `algoku args` with stdout into a pipe that is closed at once.
fn exit_code_on_closed_pipe(args: &[&str]) -> (i32, String) {
    let mut child = Command::new(ALGOKU)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    (child.wait().unwrap().code().unwrap_or(-1), err)
}

#[test]
fn closed_pipes_end_commands_quietly() {
    for args in [
        &["generate", "--count", "300", "--json"][..],
        &["generate", "--count", "300"][..],
        &["verify", "0x", "--network", "embedded"][..],
        &["deploy", "--network", "embedded", "--json"][..],
    ] {
        let (code, err) = exit_code_on_closed_pipe(args);
        assert_eq!(code, 0, "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn endless_input_is_refused_at_once() {
    let mut child = Command::new(ALGOKU)
        .args(["check", "--json", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let zeros = vec![b'0'; 1 << 16];
        // Stops when algoku closes stdin; bounded in any case.
        for _ in 0..1024 {
            if stdin.write_all(&zeros).is_err() {
                break;
            }
        }
    });
    let out = child.wait_with_output().unwrap();
    let _ = writer.join();
    assert_eq!(out.status.code(), Some(2));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("longer than"), "{stdout}");
}

#[test]
fn impossible_or_absurd_counts_are_usage_errors() {
    for (args, needle) in [
        (&["generate", "--clues", "16", "--json"][..], "17"),
        (&["generate", "--count", "0", "--json"][..], "0"),
        (&["solve", "--count", "0", "--json", "-"][..], "0"),
        (
            &["solve", "--count", "18446744073709551615", "--json", "-"][..],
            "10000000",
        ),
        (
            &[
                "fixtures",
                "--curta-addresses",
                "18446744073709551615",
                "--json",
                "--out",
                "/tmp/never-written-algoku",
            ][..],
            "100000",
        ),
        (
            &[
                "fixtures",
                "--count",
                "1000000000",
                "--json",
                "--out",
                "/tmp/never-written-algoku",
            ][..],
            "100000",
        ),
    ] {
        let (code, v) = run_env(args, &[]);
        assert_eq!(code, 2, "{args:?}: {v}");
        assert!(
            v["error"].as_str().unwrap().contains(needle),
            "{args:?}: {v}"
        );
    }
    assert!(!std::path::Path::new("/tmp/never-written-algoku").exists());
}

#[test]
fn a_missing_argument_is_named_in_json() {
    let (code, v) = run_env(&["curta", "verify", "0x01", "--json"], &[]);
    assert_eq!(code, 2, "{v}");
    let e = v["error"].as_str().unwrap();
    assert!(e.contains("<SOLUTION>"), "{e}");
}

/// The suggested params of a node whose genesis id is `genesis`.
fn params_of(genesis: &str) -> String {
    format!(
        r#"{{"consensus-version":"future","fee":0,"genesis-hash":"mwEI4/JRLTYf2QF6nAeKYOONUsVE6TxX69g5qbnfd0A=","genesis-id":"{genesis}","last-round":42,"min-fee":1000}}"#
    )
}

/// An algod on loopback that answers `GET /health`, and the suggested
/// params of network `genesis` when given; every other request is held
/// unanswered. Returns its port.
fn half_alive_algod(genesis: Option<&str>) -> u16 {
    let params = genesis.map(params_of);
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for mut sock in listener.incoming().flatten() {
            let mut buf = [0u8; 4096];
            let n = sock.read(&mut buf).unwrap_or(0);
            let head = String::from_utf8_lossy(&buf[..n]).into_owned();
            let body = if head.starts_with("GET /health") {
                Some("{}")
            } else if head.starts_with("GET /v2/transactions/params") {
                params.as_deref()
            } else {
                None
            };
            match body {
                Some(body) => {
                    let reply = format!(
                        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                        body.len()
                    );
                    let _ = sock.write_all(reply.as_bytes());
                }
                None => held.push(sock),
            }
        }
    });
    port
}

#[test]
fn an_algod_that_answers_only_health_fails_within_30_s_and_quietly() {
    let port = half_alive_algod(None).to_string();
    let env = [
        ("ALGOD_SERVER", "http://127.0.0.1"),
        ("ALGOD_PORT", port.as_str()),
    ];
    let r = common::algoku(&["--quiet", "--json", "deploy"])
        .envs(&env)
        .run();
    assert_eq!(r.code, 2, "{}", r.stdout);
    assert!(r.seconds < 30.0, "{} s", r.seconds);
    assert!(r.stderr.is_empty(), "--quiet printed: {}", r.stderr);
    assert!(r.stdout.contains("\"error\""), "{}", r.stdout);
}

#[test]
fn kmd_defaults_to_port_4002_and_its_errors_are_one_plain_line() {
    if std::net::TcpStream::connect("127.0.0.1:4002").is_ok() {
        println!("SKIPPED: something listens on 127.0.0.1:4002 (a LocalNet KMD?)");
        return;
    }
    let port = half_alive_algod(Some("dockernet-v1")).to_string();
    let env = [
        ("ALGOD_SERVER", "http://127.0.0.1"),
        ("ALGOD_PORT", port.as_str()),
    ];
    let r = common::algoku(&["deploy"]).envs(&env).run();
    assert_eq!(r.code, 2, "{}", r.stdout);
    let error = r.stderr.lines().last().unwrap_or_default();
    assert!(error.starts_with("error: KMD: "), "{}", r.stderr);
    assert!(error.contains("127.0.0.1:4002"), "{error}");
    for debug in ["{ ", "kind:", "Some(", "reqwest::", "Error {"] {
        assert!(!error.contains(debug), "Rust debug text in: {error}");
    }
}

#[test]
fn a_named_network_must_be_the_nodes() {
    for (network, genesis, refused) in [
        ("testnet", "mainnet-v1.0", "not TestNet"),
        ("testnet", "dockernet-v1", "not TestNet"),
        ("localnet", "mainnet-v1.0", "not a LocalNet"),
        ("localnet", "testnet-v1.0", "not a LocalNet"),
    ] {
        let port = half_alive_algod(Some(genesis)).to_string();
        let env = [
            ("ALGOD_SERVER", "http://127.0.0.1"),
            ("ALGOD_PORT", port.as_str()),
        ];
        let r = common::algoku(&["--json", "deploy", "--network", network])
            .envs(&env)
            .run();
        assert_eq!(r.code, 2, "{network} on {genesis}: {}", r.stdout);
        let v: Value = serde_json::from_str(r.stdout.trim()).unwrap();
        let e = v["error"].as_str().unwrap();
        assert!(e.contains(refused) && e.contains(genesis), "{e}");
    }
}
