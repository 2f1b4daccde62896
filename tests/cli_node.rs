//! The road real users take, end to end: `algoku node` serves algod and KMD on
//! loopback, and the CLI talks to it over HTTP as to LocalNet (`--network
//! localnet`, its funded KMD wallet signing). Every answer and price must equal
//! the embedded evaluator's: the node's simulate measures budgets as algod does.

mod common;

use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

const VALID: &str =
    "953168742862734951417952836746893125281645397395271468138529674574386219629417583";

/// A running `algoku node` on free ports; killed when dropped (its evaluator
/// process follows: it watches its parent).
struct Node {
    child: Child,
    algod_port: String,
    kmd_port: String,
    /// Every exchange the node served (ALGOKU_NODE_RECORD).
    record: std::path::PathBuf,
}

/// The port of a line `NAME http://127.0.0.1:P`.
fn port(line: &str, name: &str) -> String {
    let url = line
        .strip_prefix(name)
        .unwrap_or_else(|| panic!("expected `{name} URL`, got {line:?}"));
    url.rsplit(':').next().unwrap().trim().to_string()
}

impl Node {
    /// A node recording its exchanges under the scratch name `name`.
    fn start(name: &str) -> Node {
        let record = common::scratch(&format!("cli_node_{name}")).join("exchanges.jsonl");
        let _ = std::fs::remove_file(&record);
        let mut child = Command::new(common::ALGOKU)
            .args(["node", "--algod-port", "0", "--kmd-port", "0"])
            .env("ALGOKU_NODE_RECORD", &record)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("algoku node runs");
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let mut next = || lines.next().expect("a line").expect("readable");
        let (algod, kmd) = (next(), next());
        Node {
            child,
            algod_port: port(&algod, "algod "),
            kmd_port: port(&kmd, "kmd "),
            record,
        }
    }

    /// Every request the CLI sent this node, and every answer, against algod's
    /// OpenAPI spec (scripts/openapi_check.py); the operations seen are printed.
    fn check_against_the_spec(&self) {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let python = algoku_client::node::find_python().expect("the project's Python");
        let out = Command::new(python)
            .arg(root.join("scripts/openapi_check.py"))
            .arg(&self.record)
            .output()
            .expect("the spec check runs");
        let seen = String::from_utf8_lossy(&out.stdout);
        eprintln!("{seen}");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(seen.contains("POST /v2/transactions/simulate"), "{seen}");
    }

    /// The variables that point a client at this node, as LocalNet's settings do.
    fn env(&self) -> [(&str, &str); 3] {
        [
            ("ALGOD_SERVER", "http://127.0.0.1"),
            ("ALGOD_PORT", &self.algod_port),
            ("KMD_PORT", &self.kmd_port),
        ]
    }

    /// `algoku args…` pointed at this node.
    fn run(&self, args: &[&str]) -> common::Run {
        common::algoku(args).envs(&self.env()).run()
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn json_ok(r: &common::Run) -> Value {
    assert_eq!(r.code, 0, "stdout {}\nstderr {}", r.stdout, r.stderr);
    r.json()
}

#[test]
fn a_second_node_on_the_same_ports_is_a_one_line_error() {
    let node = Node::start("second");
    let r = common::run(&["node", "--algod-port", &node.algod_port, "--kmd-port", "0"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    let line = r.stderr.trim();
    assert_eq!(line.lines().count(), 1, "{line}");
    assert!(
        line.starts_with("error: cannot listen on 127.0.0.1:") && line.contains(&node.algod_port),
        "{line}"
    );
}

#[test]
fn deploy_and_verify_through_the_node_price_as_the_embedded_evaluator() {
    let node = Node::start("verify");
    let deployed = json_ok(&node.run(&["deploy", "--network", "localnet", "--json"]));
    let app = deployed["app_id"].as_u64().expect("an app id");
    assert!(app >= 1000, "{deployed}");
    for method in ["auto", "classic", "lanes"] {
        let args = ["verify", VALID, "--json", "--method", method];
        let on_node = json_ok(&node.run(&[&args[..], &["--network", "localnet"]].concat()));
        let embedded = json_ok(&common::run(
            &[&args[..], &["--network", "embedded"]].concat(),
        ));
        assert_eq!(on_node["backend"], "localnet");
        assert_eq!(on_node["app_id"].as_u64(), Some(app));
        assert_eq!(on_node["valid"], true);
        assert_eq!(on_node["simulated_only"], false);
        assert_eq!(
            on_node["txids"].as_array().map(Vec::len),
            Some(1),
            "{on_node}"
        );
        for key in [
            "method",
            "fee",
            "budget_pooled",
            "strategy",
            "other_methods",
        ] {
            assert_eq!(
                on_node[key], embedded[key],
                "{method}: {key}\n{on_node}\n{embedded}"
            );
        }
        // The node's simulate counts what the group alone uses (the embedded
        // evaluator measures with probe calls around it, which the contract sees).
        let used = on_node["budget_consumed"].as_u64().expect("a budget");
        assert!(
            0 < used && used <= on_node["budget_pooled"].as_u64().unwrap(),
            "{on_node}"
        );
    }
}

#[test]
fn batches_through_the_node_answer_and_cost_as_the_embedded_evaluator() {
    let node = Node::start("batches");
    let mut wrong = VALID.as_bytes().to_vec();
    wrong.swap(0, 1);
    let grids = [VALID, std::str::from_utf8(&wrong).unwrap(), "12345", VALID].join("\n");
    let file = common::scratch_file("cli_node", "grids.txt", &grids);
    let puzzle = format!("{}{} {VALID}\n", &VALID[..40], ".".repeat(41));
    let puzzles = common::scratch_file("cli_node", "puzzles.txt", &puzzle);
    for (flag, path) in [("--file", &file), ("--puzzle-file", &puzzles)] {
        let args = ["verify", flag, path.to_str().unwrap(), "--json", "--quiet"];
        let on_node = node.run(&[&args[..], &["--network", "localnet"]].concat());
        let embedded = common::run(&[&args[..], &["--network", "embedded"]].concat());
        assert_eq!(on_node.code, embedded.code, "{}", on_node.stderr);
        let (a, b) = (on_node.json_lines(), embedded.json_lines());
        assert_eq!(a.len(), b.len());
        for (x, y) in a.iter().zip(&b) {
            for key in ["line", "valid", "error", "fee", "method"] {
                assert_eq!(x[key], y[key], "{flag} {key}\n{x}\n{y}");
            }
        }
        let (s, t) = (&a.last().unwrap()["summary"], &b.last().unwrap()["summary"]);
        assert_eq!(s["backend"], "localnet");
        for key in [
            "valid",
            "invalid",
            "errors",
            "fee",
            "would_cost",
            "method_prices",
        ] {
            assert_eq!(s[key], t[key], "{flag} {key}\n{s}\n{t}");
        }
    }
    node.check_against_the_spec();
}

#[test]
fn both_games_play_record_and_withdraw_through_the_node_and_a_games_app_is_no_verifier() {
    let node = Node::start("games");
    for game in ["game", "curta"] {
        let played =
            json_ok(&node.run(&[game, "play", "--network", "localnet", "--deploy", "--json"]));
        let app = played["app_id"].as_u64().expect("an app id");
        assert_eq!(played["backend"], "localnet", "{played}");
        let record = json_ok(&node.run(&[game, "record", "--network", "localnet", "--json"]));
        assert_eq!(record["app_id"].as_u64(), Some(app), "{record}");
        assert_eq!(record["solvers"], 1, "{record}");
        // Played again: already recorded, nothing sent.
        let again = json_ok(&node.run(&[game, "play", "--network", "localnet", "--json"]));
        assert_eq!(again["app_id"].as_u64(), Some(app), "{again}");
        let withdrawn = json_ok(&node.run(&[game, "withdraw", "--network", "localnet", "--json"]));
        assert_eq!(withdrawn["app_id"].as_u64(), Some(app), "{withdrawn}");
        // A game's app is no verifier: its id is refused before anything is asked of it.
        let valid = common::relabelled(0);
        let foreign = node.run(&[
            "verify",
            &valid,
            "--network",
            "localnet",
            "--json",
            "--app-id",
            &app.to_string(),
        ]);
        assert_eq!(foreign.code, 2, "{}", foreign.stdout);
        assert!(
            foreign.stdout.contains(&format!("app {app} is not Algoku")),
            "{}",
            foreign.stdout
        );
    }
    node.check_against_the_spec();
}

#[test]
fn a_node_that_dies_mid_batch_stops_it_with_every_line_accounted_for_once() {
    let mut node = Node::start("dies");
    json_ok(&node.run(&["deploy", "--network", "localnet", "--json"]));
    // One group first (its answers come out at once), then windows of 64 groups in flight
    // (16 calls × 14 grids a group).
    const LINES: u64 = 160 * 224;
    let grids: Vec<String> = (0..LINES as usize).map(common::relabelled).collect();
    let file = common::scratch_file("cli_node_dies", "grids.txt", &grids.join("\n"));
    let mut batch = Command::new(common::ALGOKU)
        .args([
            "verify",
            "--file",
            file.to_str().unwrap(),
            "--network",
            "localnet",
            "--json",
        ])
        .args(["--quiet"])
        .envs(node.env())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("algoku verify runs");
    let mut out = BufReader::new(batch.stdout.take().unwrap()).lines();
    let first = out.next().expect("a first answer").expect("readable");
    // The first group is confirmed: the node dies now.
    let _ = node.child.kill();
    let _ = node.child.wait();
    let mut lines: Vec<Value> = vec![serde_json::from_str(&first).unwrap()];
    lines.extend(out.map(|l| serde_json::from_str(&l.unwrap()).unwrap()));
    let status = batch.wait().unwrap();
    assert_eq!(status.code(), Some(2));
    let summary = lines.pop().unwrap()["summary"].clone();
    assert_eq!(summary["lines"], LINES, "{summary}");
    let counted: u64 = ["valid", "invalid", "errors", "unconfirmed", "not_attempted"]
        .iter()
        .map(|k| summary[*k].as_u64().unwrap_or(0))
        .sum();
    assert_eq!(counted, LINES, "{summary}");
    assert!(summary["valid"].as_u64().unwrap() >= 224, "{summary}");
    assert!(summary["not_attempted"].as_u64().unwrap() > 0, "{summary}");
    assert!(
        summary["stopped"]
            .as_str()
            .unwrap_or("")
            .contains("no algod answers"),
        "{summary}"
    );
    // Every line of the file is answered or accounted for exactly once, in order.
    let numbers: Vec<u64> = lines.iter().map(|l| l["line"].as_u64().unwrap()).collect();
    assert_eq!(numbers, (1..=LINES).collect::<Vec<u64>>());
}
