//! `algoku game …` through the binary: the native puzzle of the shared players
//! (rust/game/tests/data/players.jsonl), the root, bad input (one-line error,
//! exit 2, nothing sent), and `game play` / `game record` end to end on
//! go-algorand's evaluator (embedded: a fresh ledger, app and account per run).

mod common;

use serde_json::Value;

fn algoku(args: &[&str]) -> (i32, String, String) {
    let r = common::run(args);
    (r.code, r.stdout, r.stderr)
}

fn json(args: &[&str]) -> (i32, Value) {
    let mut all = vec!["--json"];
    all.extend_from_slice(args);
    let (code, out, err) = algoku(&all);
    let v =
        serde_json::from_str(out.trim()).unwrap_or_else(|e| panic!("not JSON ({e}): {out} {err}"));
    (code, v)
}

fn players() -> Vec<Value> {
    common::data_lines("rust/game/tests/data/players.jsonl")
}

#[test]
fn puzzle_of_shared_players() {
    for p in players().iter().take(12) {
        let address = format!("0x{}", p["address"].as_str().unwrap());
        let app = p["app_id"].to_string();
        let (code, v) = json(&["game", "puzzle", &address, "--app-id", &app]);
        assert_eq!(code, 0, "{v}");
        assert_eq!(v["index"], p["index"]);
        assert_eq!(
            v["puzzle"].as_str().unwrap(),
            p["puzzle"].as_str().unwrap().replace('0', ".")
        );
        assert_eq!(v["givens"], 17);
        let (code, v) = json(&[
            "game",
            "check",
            &address,
            p["solution"].as_str().unwrap(),
            "--app-id",
            &app,
        ]);
        assert_eq!((code, &v["valid"]), (0, &Value::Bool(true)));
        // another player's solution solves another puzzle
        let (code, v) = json(&[
            "game",
            "check",
            &address,
            players()[200]["solution"].as_str().unwrap(),
            "--app-id",
            &app,
        ]);
        assert_eq!((code, &v["valid"]), (1, &Value::Bool(false)));
        // It breaks no rule, so the reason is one of this player's givens.
        let why = v["reason"].as_str().unwrap_or_default();
        assert!(
            why.starts_with("cell r") && why.contains(", but the puzzle's given there is "),
            "{v}"
        );
    }
}

#[test]
fn check_says_why_a_solution_is_false() {
    let p = &players()[5];
    let address = format!("0x{}", p["address"].as_str().unwrap());
    let app = p["app_id"].to_string();
    let puzzle = p["puzzle"].as_str().unwrap().as_bytes();
    let solution = p["solution"].as_str().unwrap();
    let check = |grid: &str| {
        let (code, out, err) = algoku(&["game", "check", &address, grid, "--app-id", &app]);
        assert_eq!(err, "");
        (code, out)
    };
    let (code, out) = check(solution);
    assert_eq!((code, out.as_str()), (0, "true\n"));

    // Relabel two digits: still a solved grid, but the givens holding them change.
    let (a, b) = (solution.as_bytes()[0], solution.as_bytes()[1]);
    let relabelled: String = solution
        .bytes()
        .map(|d| match d {
            d if d == a => b as char,
            d if d == b => a as char,
            d => d as char,
        })
        .collect();
    let first = (0..81)
        .find(|&c| puzzle[c] != b'0' && puzzle[c] != relabelled.as_bytes()[c])
        .expect("17 givens, some of them an a or a b");
    let (code, out) = check(&relabelled);
    assert_eq!(code, 1);
    assert_eq!(
        out,
        format!(
            "false\nreason: cell r{}c{} holds {}, but the puzzle's given there is {}\n",
            first / 9 + 1,
            first % 9 + 1,
            relabelled.as_bytes()[first] as char,
            puzzle[first] as char
        )
    );

    // Swap the first two cells: a column repeats a digit, named before any given.
    let mut swapped = solution.as_bytes().to_vec();
    swapped.swap(0, 1);
    let swapped = String::from_utf8(swapped).unwrap();
    let (code, v) = json(&["game", "check", &address, &swapped, "--app-id", &app]);
    assert_eq!(code, 1, "{v}");
    assert_eq!(v["valid"], false);
    assert!(
        v["reason"].as_str().unwrap().starts_with(&format!(
            "column 1 has {} twice (cells r1c1 and ",
            b as char
        )),
        "{v}"
    );
}

#[test]
fn root_matches_the_contract() {
    let (code, v) = json(&["game", "root"]);
    assert_eq!(code, 0);
    assert_eq!(v["matches_contract"], true);
    assert_eq!(v["puzzles"], 49158);
}

#[test]
fn bad_input_is_one_line_exit_2() {
    let grid = "1".repeat(81);
    for args in [
        vec!["game", "puzzle", "NOTANADDRESS", "--app-id", "1"],
        vec!["game", "puzzle", "0x1234", "--app-id", "1"],
        vec![
            "game",
            "puzzle",
            "0x1111111111111111111111111111111111111111",
            "--app-id",
            "1",
        ],
        vec![
            "game",
            "check",
            "0x1111111111111111111111111111111111111111111111111111111111111111",
            "12",
            "--app-id",
            "1",
        ],
        vec![
            "game",
            "check",
            "0x1111111111111111111111111111111111111111111111111111111111111111",
            &grid[..80],
            "--app-id",
            "1",
        ],
        vec!["game", "play", "--network", "embedded", "--solution", "123"],
        vec![
            "game",
            "play",
            "--network",
            "embedded",
            "--solution",
            "0........",
        ],
        vec!["game", "record", "BAD", "--network", "embedded"],
    ] {
        let (code, out, err) = algoku(&args);
        assert_eq!(code, 2, "{args:?}: {out} {err}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("error: "), "{err}");
        assert!(
            !err.contains("backend:"),
            "nothing connected, nothing sent: {err}"
        );
    }
}

#[test]
fn play_and_record_on_the_embedded_evaluator() {
    let (code, v) = json(&["game", "play", "--network", "embedded"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["status"], "solved");
    assert_eq!(v["backend"], "embedded");
    assert_eq!(v["fee"], 3000);
    assert_eq!(v["paid"], 24900);
    assert_eq!(v["record"]["rank"], 1);
    assert!(v["setup"].as_str().unwrap().contains("play money"), "{v}");
    assert_eq!(v["txids"].as_array().unwrap().len(), 2, "[payment, solve]");
    assert_eq!(
        v["puzzle"]
            .as_str()
            .unwrap()
            .chars()
            .filter(|c| *c != '.')
            .count(),
        17
    );

    // a wrong solution: refused natively, nothing sent (exit 2); forced: sent without the payment
    let wrong = "123456789".repeat(9);
    let (code, out, err) = algoku(&[
        "game",
        "play",
        "--network",
        "embedded",
        "--solution",
        &wrong,
    ]);
    assert_eq!(code, 2, "{out} {err}");
    assert!(err.contains("the native check rejects"), "{err}");
    // Every row is 1..9, so the first broken rule is column 1.
    assert!(
        err.contains("for this puzzle: column 1 has 1 twice (cells r1c1 and r2c1); not submitting"),
        "{err}"
    );
    let (code, v) = json(&[
        "game",
        "play",
        "--network",
        "embedded",
        "--solution",
        &wrong,
        "--force",
    ]);
    assert_eq!(code, 1, "{v}");
    assert_eq!(v["status"], "rejected by the app");
    assert_eq!(v["paid"], 0);
    assert_eq!(v["fee"], 2000);

    // a fresh ledger has no record for anyone: exit 1, 0 solvers
    let (code, v) = json(&["game", "record", "--network", "embedded"]);
    assert_eq!(code, 1, "{v}");
    assert_eq!(v["solved"], false);
    assert_eq!(v["solvers"], 0);
}

#[test]
fn puzzle_read_from_the_embedded_app_agrees() {
    let p = &players()[3];
    let address = format!("0x{}", p["address"].as_str().unwrap());
    // the embedded evaluator's first app is 1001, the shared players' app id
    let (code, v) = json(&["game", "puzzle", &address, "--network", "embedded"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        (v["backend"].as_str(), v["agrees_chain"].as_bool()),
        (Some("embedded"), Some(true))
    );
    assert_eq!(v["app_id"], p["app_id"]);
    assert_eq!(v["index"], p["index"]);
    // an app id that is not the game's program: refused before any read
    let (code, out, err) = algoku(&[
        "game",
        "puzzle",
        &address,
        "--network",
        "embedded",
        "--app-id",
        "5",
    ]);
    assert_eq!(code, 2, "{out} {err}");
    assert!(err.contains("app 5 does not exist"), "{err}");
}

#[test]
fn an_app_that_is_not_there_is_one_error_line_and_nothing_before_it() {
    for args in [
        [
            "game",
            "record",
            "--network",
            "embedded",
            "--app-id",
            "987654",
        ],
        [
            "game",
            "puzzle",
            "--network",
            "embedded",
            "--app-id",
            "987654",
        ],
        [
            "curta",
            "record",
            "--network",
            "embedded",
            "--app-id",
            "987654",
        ],
    ] {
        let r = common::run(&args);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert_eq!(r.stderr.lines().count(), 1, "{args:?}: {}", r.stderr);
        assert!(r.stderr.starts_with("error: "), "{args:?}: {}", r.stderr);
    }
}

#[test]
fn a_deploy_on_the_embedded_evaluator_says_its_ledger_is_discarded() {
    let r = common::run(&["deploy", "--network", "embedded"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.contains("discarded at exit"), "{}", r.stderr);
    let r = common::run(&["--json", "deploy", "--network", "embedded"]);
    assert!(
        r.json()["note"]
            .as_str()
            .unwrap()
            .contains("discarded at exit"),
        "{}",
        r.stdout
    );
}
