//! `algoku curta play`, `curta generate|verify --network` through the binary on
//! go-algorand's evaluator (embedded): every shared vector through the app
//! (`--file`, one process, one app) against the expected answers and the
//! native code; the play paths (solved, refused, forced).

mod common;

use serde_json::Value;

fn algoku_lines(args: &[&str]) -> (i32, Vec<Value>, String) {
    let r = common::run(args);
    (r.code, r.json_lines(), r.stderr)
}

/// `algoku --json curta METHOD --network embedded --file PATH`.
fn on_chain_by_file(method: &str, path: &std::path::Path) -> (i32, Vec<Value>, String) {
    let path = path.to_str().unwrap();
    algoku_lines(&[
        "--json",
        "curta",
        method,
        "--network",
        "embedded",
        "--file",
        path,
    ])
}

fn vectors(name: &str) -> Vec<Value> {
    common::data_lines(&format!("rust/curta/tests/data/{name}"))
}

fn temp_file(name: &str, text: &str) -> std::path::PathBuf {
    common::scratch_file("curta_chain", name, text)
}

#[test]
fn every_generate_vector_through_the_app_by_file() {
    let gen = vectors("generate.jsonl");
    let mut text = String::from("# the shared generate vectors, then a bad line\n");
    for v in &gen {
        text += v["address"].as_str().unwrap();
        text += "\n";
    }
    text += "0x12\n";
    let path = temp_file("generate.txt", &text);
    let (code, lines, err) = on_chain_by_file("generate", &path);
    assert_eq!(
        code, 2,
        "the bad line makes the exit status 2, as in every batch: {err}"
    );
    assert_eq!(lines.len(), gen.len() + 2, "one line per input + summary");
    for (i, (v, got)) in gen.iter().zip(&lines).enumerate() {
        assert_eq!(got["line"], i + 2, "{got}");
        assert_eq!(got["start"], v["puzzle"], "generate({})", v["address"]);
        assert_eq!(got["agrees_native"], true, "{got}");
        assert_eq!(got["would_cost"], 1000, "{got}");
        // Opcodes in the measuring group, the payment scan of that group included
        // (a call alone skips it: every vector fits one call's 700, `would_cost`).
        let budget = got["budget"].as_u64().unwrap();
        assert!((400..=1100).contains(&budget), "{got}");
    }
    let bad = &lines[gen.len()];
    assert_eq!(bad["line"], gen.len() + 2);
    assert!(
        bad["error"].as_str().unwrap().contains("wrong length"),
        "{bad}"
    );
    let s = &lines[gen.len() + 1]["summary"];
    assert_eq!(s["backend"], "embedded", "{s}");
    assert_eq!(s["lines"], gen.len() + 1);
    assert_eq!(s["errors"], 1);
    assert_eq!(s["disagreements"], 0);
    assert_eq!(s["would_cost"], 1000 * gen.len());
    assert_eq!(s["spent"], 0);
    assert!(
        s["setup"].as_str().unwrap().contains("in-process ledger"),
        "{s}"
    );
}

#[test]
fn every_verify_vector_through_the_app_by_file() {
    let ver = vectors("verify.jsonl");
    let mut text = String::new();
    for v in &ver {
        text += &format!(
            "{} {}\n",
            v["start"].as_str().unwrap(),
            v["solution"].as_str().unwrap()
        );
    }
    text += "only-one-word\n";
    let path = temp_file("verify.txt", &text);
    let (code, lines, err) = on_chain_by_file("verify", &path);
    assert_eq!(code, 2, "a bad line: {err}");
    assert_eq!(lines.len(), ver.len() + 2);
    let mut trues = 0;
    for (i, (v, got)) in ver.iter().zip(&lines).enumerate() {
        assert_eq!(got["line"], i + 1, "{got}");
        assert_eq!(got["valid"], v["valid"], "verify {v}: {got}");
        assert_eq!(got["agrees_native"], true, "{got}");
        assert_eq!(got["would_cost"], 1000, "{got}");
        assert!(got["budget"].as_u64().unwrap() <= 1100, "{got}");
        assert_eq!(got["reason"].is_string(), got["valid"] == false, "{got}");
        trues += (got["valid"] == true) as usize;
    }
    assert!(trues > 0 && trues < ver.len());
    assert!(lines[ver.len()]["error"]
        .as_str()
        .unwrap()
        .contains("found 1 word"));
    let s = &lines[ver.len() + 1]["summary"];
    assert_eq!(s["valid"], trues, "{s}");
    assert_eq!(s["invalid"], ver.len() - trues, "{s}");
    assert_eq!(
        (s["errors"].as_u64(), s["disagreements"].as_u64()),
        (Some(1), Some(0))
    );
}

#[test]
fn record_reads_a_player_and_the_solver_count() {
    let zero_key = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAY5HFKQ";
    let (code, v) = algoku(&[
        "--json",
        "curta",
        "record",
        zero_key,
        "--network",
        "embedded",
    ]);
    assert_eq!(code, 1, "no record: exit 1 ({v})");
    assert_eq!(
        (&v["solved"], &v["solvers"], &v["address"]),
        (&Value::Bool(false), &Value::from(0), &Value::from(zero_key))
    );
    let (code, v) = algoku(&[
        "--json",
        "curta",
        "record",
        "0x0000000000000000000000000000000000000000",
        "--network",
        "embedded",
    ]);
    assert_eq!(code, 2, "{v}");
    assert!(v["error"].as_str().unwrap().contains("32 bytes"), "{v}");
}

#[test]
fn a_file_without_one_good_line_touches_no_chain() {
    let path = temp_file("bad.txt", "# nothing good\nnope\n0x12\n");
    let (code, lines, _) = on_chain_by_file("generate", &path);
    assert_eq!(code, 2);
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[2]["summary"]["backend"], Value::Null, "{}", lines[2]);
    assert_eq!(lines[2]["summary"]["errors"], 2);
}

#[test]
fn one_answer_on_chain_names_backend_app_fee_and_budget() {
    let v = &vectors("generate.jsonl")[1];
    let (code, g) = algoku(&[
        "--json",
        "curta",
        "generate",
        v["address"].as_str().unwrap(),
        "--network",
        "embedded",
    ]);
    assert_eq!(code, 0, "{g}");
    assert_eq!(g["start"], v["puzzle"]);
    assert_eq!(g["backend"], "embedded");
    assert!(g["app_id"].as_u64().unwrap() >= 1000, "{g}");
    assert_eq!(g["would_cost"], 1000);
    let w = vectors("verify.jsonl")
        .into_iter()
        .find(|w| w["valid"] == true)
        .unwrap();
    let (code, ok) = algoku(&[
        "--json",
        "curta",
        "verify",
        w["start"].as_str().unwrap(),
        w["solution"].as_str().unwrap(),
        "--network",
        "embedded",
    ]);
    assert_eq!(
        (code, &ok["valid"], &ok["agrees_native"]),
        (0, &Value::Bool(true), &Value::Bool(true)),
        "{ok}"
    );
    // 0x…543f's seed needs 15 draws (about 1 address in 1 300 needs 13+): over 700
    // opcodes, so alone it needs one opup() before it: 2 000 µALGO.
    let (code, h) = algoku(&[
        "--json",
        "curta",
        "generate",
        "0x000000000000000000000000000000000000543f",
        "--network",
        "embedded",
    ]);
    assert_eq!(code, 0, "{h}");
    assert_eq!(
        h["start"],
        "0000670000000000000000000000000000050000080000000003000140000020"
    );
    assert!(h["budget"].as_u64().unwrap() > 700, "{h}");
    assert_eq!(
        (&h["would_cost"], &h["agrees_native"]),
        (&Value::from(2000), &Value::Bool(true)),
        "{h}"
    );
    // Chain options need --network; a foreign app id is refused before any answer.
    let (code, e) = algoku(&["--json", "curta", "generate", "0x00", "--app-id", "5"]);
    assert_eq!(code, 2, "{e}");
    let (code, e) = algoku(&[
        "--json",
        "curta",
        "verify",
        w["start"].as_str().unwrap(),
        w["solution"].as_str().unwrap(),
        "--network",
        "embedded",
        "--app-id",
        "77777",
    ]);
    assert_eq!(code, 2, "{e}");
    assert!(e["error"].as_str().unwrap().contains("77777"), "{e}");
}

#[test]
fn play_refuses_a_wrong_solution_and_forced_sends_it_without_the_payment() {
    let zero = "0".repeat(64);
    let (code, v) = algoku(&[
        "--json",
        "curta",
        "play",
        "--network",
        "embedded",
        "--solution",
        &zero,
    ]);
    assert_eq!(code, 2, "{v}");
    let e = v["error"].as_str().unwrap();
    assert!(
        e.contains("native check rejects")
            && e.contains(": square 1 (hex digit 64) is 0; not submitting"),
        "{v}"
    );
    let (code, v) = algoku(&[
        "--json",
        "curta",
        "play",
        "--network",
        "embedded",
        "--solution",
        &zero,
        "--force",
    ]);
    assert_eq!(code, 1, "{v}");
    assert_eq!(v["status"], "rejected by the app", "{v}");
    assert_eq!(
        v["paid"], 0,
        "no box payment for a solution known to be wrong"
    );
    assert_eq!(v["fee"], 2000, "[opup, solve]");
    assert_eq!(v["round"], Value::Null);
}

/// One JSON answer (the whole stdout is one line).
fn algoku(args: &[&str]) -> (i32, Value) {
    let (code, mut lines, err) = algoku_lines(args);
    assert_eq!(lines.len(), 1, "one JSON line expected: {lines:?} {err}");
    (code, lines.remove(0))
}

#[test]
fn play_solves_this_accounts_start_and_records_it() {
    // A fixed signer: a fresh random one would, now and then, draw one of the
    // starts the contract generates without a solution.
    let r = common::algoku(&["--json", "curta", "play", "--network", "embedded"])
        .env("DEPLOYER_MNEMONIC", common::MNEMONIC)
        .run();
    let (code, v) = (r.code, r.json());
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["status"], "solved", "{v}");
    assert_eq!(v["backend"], "embedded");
    assert_eq!(v["paid"], 31_300);
    assert_eq!(v["fee"], 3_000);
    assert!(v["round"].as_u64().unwrap() > 0);
    // The money is play money on a ledger gone at exit, and it says so.
    let setup = v["setup"].as_str().unwrap();
    assert!(
        setup.contains("play money") && setup.contains("discarded at exit"),
        "{setup}"
    );
    let start = v["start"].as_str().unwrap();
    let solution = v["solution"].as_str().unwrap();
    // The start is the native generate of the player's address; the solution verifies.
    let g = native_start(&v);
    assert!(g.to_string().contains(start), "{g} vs {start}");
    let (code, ok) = algoku(&["--json", "curta", "verify", start, solution]);
    assert_eq!(code, 0, "{ok}");
}

/// `curta generate` of the address a play reported, natively.
fn native_start(play: &Value) -> Value {
    let (code, g) = algoku(&[
        "--json",
        "curta",
        "generate",
        play["address"].as_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{g}");
    g
}

/// A throwaway account whose address draws one of the Curta starts without a
/// solution (start 0000…7402; its address has never held anything).
const NO_SOLUTION_MNEMONIC: &str = "process awesome caught unveil elevator gap reopen buzz year \
     climb chair excuse key match win desert cable fluid home vibrant kiss floor reflect absent replace";

#[test]
fn play_on_a_start_without_a_solution_sends_nothing() {
    let r = common::algoku(&["--json", "curta", "play", "--network", "embedded"])
        .env("DEPLOYER_MNEMONIC", NO_SOLUTION_MNEMONIC)
        .run();
    let v = r.json();
    assert_eq!(r.code, 1, "an answered no: {v}");
    assert_eq!(v["status"], "unsolvable start (nothing sent)", "{v}");
    assert_eq!(v["fee"], 0);
    assert_eq!(v["paid"], 0);
    assert_eq!(v["txids"], serde_json::json!([]));
    // The native generate of that address agrees: the same start, no solution.
    let g = native_start(&v);
    assert_eq!(g["start"], v["start"]);
    assert_eq!(g["solvable"], false);
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
