//! End-to-end tests of `algoku ua` and `algoku clues`: output formats,
//! batch shards with resume (both commands), and bad input (exit 2,
//! nothing written).

mod common;

use std::path::{Path, PathBuf};

use common::{json_lines, run};
use serde_json::Value;

/// A grid with one 17 in the complete list, and 12 of that 17's clues.
const GRID: &str =
    "789623541651478923324915786192736854438592167567184392945367218276851439813249675";
const GIVEN12: &str =
    "........1.......23..4..5........6....3......75...84......3.......................";

/// Appends a partial record to `out` (a write cut short), runs shards 1/2,
/// 2/2 and 1/2 again with `args(shard)`, each succeeding, and returns the
/// records then in `out`.
fn resume_after_a_cut_write(out: &Path, args: impl Fn(&'static str) -> Vec<String>) -> Vec<Value> {
    let mut text = std::fs::read_to_string(out).unwrap();
    text.push_str("{\"grid\": \"12");
    std::fs::write(out, text).unwrap();
    for shard in ["1/2", "2/2", "1/2"] {
        let a = args(shard);
        let r = run(&a.iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(r.code, 0, "{}", r.stderr);
    }
    json_lines(&std::fs::read_to_string(out).unwrap())
}

fn scratch(name: &str) -> PathBuf {
    common::scratch(&format!("cli_checker-{name}"))
}

#[test]
fn ua_json_lists_sets_then_a_summary() {
    let r = run(&["ua", GRID, "--max-size", "8", "--json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let lines = json_lines(&r.stdout);
    let (sets, summary) = lines.split_at(lines.len() - 1);
    let summary = &summary[0];
    assert_eq!(summary["grid"], GRID);
    assert_eq!(summary["sets"].as_u64().unwrap() as usize, sets.len());
    assert!(sets.len() > 5);
    for s in sets {
        let cells = s["cells"].as_array().unwrap();
        assert_eq!(s["size"].as_u64().unwrap() as usize, cells.len());
        assert!(cells.len() >= 4 && cells.len() <= 8);
    }
    assert_eq!(summary["complete_up_to"], 8);
    let text = run(&["ua", GRID, "--max-size", "8"]);
    assert_eq!(text.code, 0);
    assert!(text.stdout.contains("size 4: "), "{}", text.stdout);
}

/// Every set up to 12 cells is listed and said to be all; larger sets are
/// said to be the ones found.
#[test]
fn ua_says_up_to_which_size_the_list_is_complete() {
    let r = run(&["ua", GRID, "--max-size", "12", "--json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let lines = json_lines(&r.stdout);
    let summary = lines.last().unwrap();
    assert_eq!(summary["complete_up_to"], 12);
    assert!(lines[..lines.len() - 1]
        .iter()
        .all(|s| s["size"].as_u64().unwrap() <= 12));
    let text = run(&["ua", GRID, "--max-size", "14"]);
    assert_eq!(text.code, 0, "{}", text.stderr);
    assert!(
        text.stdout
            .lines()
            .next()
            .unwrap()
            .contains("all of those of at most 12 cells, and the larger ones found"),
        "{}",
        text.stdout
    );
    assert!(text.stdout.contains("size 12: "));
    for l in text.stdout.lines().filter(|l| l.starts_with("size ")) {
        let size: u32 = l[5..l.find(':').unwrap()].parse().unwrap();
        let kind = if size <= 12 { "(all)" } else { "(found)" };
        assert!(l.ends_with(kind), "{l}");
    }
    let more = run(&["ua", GRID, "--max-size", "14", "--complete", "14", "--json"]);
    let lines = json_lines(&more.stdout);
    assert_eq!(lines.last().unwrap()["complete_up_to"], 14);
}

#[test]
fn ua_batch_shards_append_and_resume() {
    let dir = scratch("ua-batch");
    let grids = dir.join("grids.txt");
    let other = "123456789457189236689372145245798361378261954961543827512637498796824513834915672";
    let third = "873569241625134987149278356931857624782496513456321798598713462364982175217645839";
    std::fs::write(&grids, format!("{GRID}\n\n{other}\n{third}\n")).unwrap();
    let out = dir.join("out.jsonl");
    let args = |shard: &'static str| {
        vec![
            "ua".to_string(),
            "--grids".into(),
            grids.display().to_string(),
            "--max-size".into(),
            "12".into(),
            "--shard".into(),
            shard.into(),
            "--out".into(),
            out.display().to_string(),
            "--json".into(),
        ]
    };
    let a = args("2/2");
    let r = run(&a.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(r.code, 0, "{}", r.stderr);
    let recs = json_lines(&std::fs::read_to_string(&out).unwrap());
    assert_eq!(recs.len(), 1);
    assert_eq!(recs[0]["grid"], other);
    // GridChecker's --unav12 count for this grid.
    assert_eq!(recs[0]["sets"], 258);
    assert_eq!(recs[0]["complete_up_to"], 12);
    assert_eq!(recs[0]["ua_cells"].as_array().unwrap().len(), 258);
    let one = run(&["ua", other, "--max-size", "12", "--json"]);
    let single: Vec<Value> = json_lines(&one.stdout)
        .into_iter()
        .filter_map(|v| v.get("cells").cloned())
        .collect();
    assert_eq!(recs[0]["ua_cells"].as_array().unwrap(), &single);
    // A partial line (an interrupted write) is cut; done grids are skipped.
    let recs = resume_after_a_cut_write(&out, args);
    let grids_done: Vec<&str> = recs.iter().map(|v| v["grid"].as_str().unwrap()).collect();
    assert_eq!(grids_done, [other, GRID, third]);
    let counts: Vec<u64> = recs.iter().map(|v| v["sets"].as_u64().unwrap()).collect();
    assert_eq!(counts[2], 370);
}

#[test]
fn clues_text_and_json_agree() {
    let r = run(&[
        "clues",
        GRID,
        "--clues",
        "17",
        "--given",
        GIVEN12,
        "--threads",
        "2",
        "--json",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let lines = json_lines(&r.stdout);
    let summary = lines.last().unwrap();
    assert_eq!(summary["found"].as_u64().unwrap() as usize, lines.len() - 1);
    assert_eq!(summary["complete"], true);
    assert!(lines.len() > 2);
    let text = run(&[
        "clues",
        GRID,
        "--clues",
        "17",
        "--given",
        GIVEN12,
        "--threads",
        "1",
    ]);
    assert_eq!(text.code, 0);
    let puzzles: Vec<&str> = text.stdout.lines().filter(|l| l.len() == 81).collect();
    let from_json: Vec<&str> = lines[..lines.len() - 1]
        .iter()
        .map(|v| v["puzzle"].as_str().unwrap())
        .collect();
    assert_eq!(puzzles, from_json);
    for p in puzzles {
        assert_eq!(p.chars().filter(|&c| c != '.').count(), 17);
        let s = run(&["solve", p, "--count", "2", "--json"]);
        let v: Value = serde_json::from_str(s.stdout.trim()).unwrap();
        assert_eq!(v["solutions"], 1);
        assert_eq!(v["solution"], GRID);
    }
}

#[test]
fn clues_max_found_stops_with_a_message() {
    let r = run(&[
        "clues",
        GRID,
        "--clues",
        "20",
        "--given",
        GIVEN12,
        "--max-found",
        "3",
        "--threads",
        "1",
    ]);
    assert_eq!(r.code, 1);
    assert_eq!(r.stdout.lines().filter(|l| l.len() == 81).count(), 3);
    assert!(r.stderr.contains("--max-found"), "{}", r.stderr);
}

#[test]
fn batch_shards_append_and_resume() {
    let dir = scratch("batch");
    let grids = dir.join("grids.txt");
    let other = "123456789457189236689372145245798361378261954961543827512637498796824513834915672";
    std::fs::write(&grids, format!("# two grids\n{GRID}\n{other}\n")).unwrap();
    let out = dir.join("out.jsonl");
    let args = |shard: &'static str| {
        vec![
            "clues".to_string(),
            "--grids".into(),
            grids.display().to_string(),
            "--clues".into(),
            "1".into(),
            "--shard".into(),
            shard.into(),
            "--out".into(),
            out.display().to_string(),
            "--json".into(),
        ]
    };
    let a: Vec<String> = args("2/2");
    let r = run(&a.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(r.code, 0, "{}", r.stderr);
    let recs = json_lines(&std::fs::read_to_string(&out).unwrap());
    assert_eq!(recs.len(), 1);
    assert_eq!(recs[0]["grid"], other);
    assert_eq!(recs[0]["found"], 0);
    // A partial line (an interrupted write) is cut; done grids are skipped.
    let recs = resume_after_a_cut_write(&out, args);
    let grids_done: Vec<&str> = recs.iter().map(|v| v["grid"].as_str().unwrap()).collect();
    assert_eq!(grids_done, [other, GRID]);
}

#[test]
fn a_grid_on_two_lines_is_done_once() {
    let dir = scratch("repeated");
    let grids = dir.join("grids.txt");
    let other = "123456789457189236689372145245798361378261954961543827512637498796824513834915672";
    // Lines 1 and 3 hold the same grid; with two shards they fall to
    // different shards, and only the first does it.
    std::fs::write(&grids, format!("{GRID}\n{other}\n{GRID}\n{other}\n")).unwrap();
    for cmd in ["ua", "clues"] {
        let out = dir.join(format!("{cmd}.jsonl"));
        let mut summaries = Vec::new();
        for shard in ["1/2", "2/2", "1/1"] {
            let mut a = vec![cmd, "--grids", grids.to_str().unwrap()];
            if cmd == "clues" {
                a.extend(["--clues", "1"]);
            }
            a.extend(["--shard", shard, "--out", out.to_str().unwrap(), "--json"]);
            let r = run(&a);
            assert_eq!(r.code, 0, "{cmd} {shard}: {}", r.stderr);
            summaries.push(json_lines(&r.stdout).pop().unwrap()["summary"].clone());
        }
        let recs = json_lines(&std::fs::read_to_string(&out).unwrap());
        let done: Vec<&str> = recs.iter().map(|v| v["grid"].as_str().unwrap()).collect();
        assert_eq!(done, [GRID, other], "{cmd}");
        let field = |i: usize, k: &str| summaries[i][k].as_u64().unwrap();
        assert_eq!((field(0, "grids"), field(0, "repeated")), (1, 1), "{cmd}");
        assert_eq!((field(1, "grids"), field(1, "repeated")), (1, 1), "{cmd}");
        assert_eq!((field(2, "grids"), field(2, "repeated")), (2, 2), "{cmd}");
        assert_eq!(field(2, "already_done"), 2, "{cmd}");
    }
}

#[test]
fn bad_input_exits_2_and_writes_nothing() {
    let bad_grid = GRID.replacen('7', "8", 1);
    let disagree = GIVEN12.replacen('1', "2", 1);
    let cases: Vec<Vec<&str>> = vec![
        vec!["ua", &bad_grid],
        vec!["ua", "123"],
        vec!["clues", &bad_grid, "--clues", "17"],
        vec!["clues", GRID, "--clues", "17", "--given", &disagree],
        vec!["clues", GRID, "--clues", "17", "--given", "12x"],
        vec!["clues", GRID, "--clues", "0"],
        vec!["clues", GRID, "--clues", "81"],
        vec!["clues", GRID, "--clues", "5", "--given", GIVEN12],
    ];
    for args in cases {
        let r = run(&args);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(r.stdout.is_empty(), "{args:?}");
        assert_eq!(
            r.stderr.lines().filter(|l| l.starts_with("error")).count(),
            1,
            "{args:?}: {}",
            r.stderr
        );
        let mut json = args.clone();
        json.push("--json");
        let j = run(&json);
        assert_eq!(j.code, 2);
        let v: Value = serde_json::from_str(j.stdout.trim()).expect("json error");
        assert!(v["error"].is_string());
    }
    let dir = scratch("bad");
    let grids = dir.join("grids.txt");
    std::fs::write(&grids, format!("{GRID}\n{bad_grid}\n")).unwrap();
    let out = dir.join("out.jsonl");
    for (shard, file) in [
        ("3/2", &grids),
        ("0/2", &grids),
        ("x", &grids),
        ("1/1", &grids),
    ] {
        let r = run(&[
            "clues",
            "--grids",
            file.to_str().unwrap(),
            "--clues",
            "17",
            "--shard",
            shard,
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(r.code, 2, "{shard}: {}", r.stderr);
        assert!(!out.exists(), "{shard}: output written");
        let r = run(&[
            "ua",
            "--grids",
            file.to_str().unwrap(),
            "--shard",
            shard,
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(r.code, 2, "ua {shard}: {}", r.stderr);
        assert_eq!(
            r.stderr.lines().filter(|l| l.starts_with("error")).count(),
            1,
            "{}",
            r.stderr
        );
        assert!(!out.exists(), "ua {shard}: output written");
    }
    let grids_str = grids.to_str().unwrap();
    let out_str = out.to_str().unwrap();
    for args in [
        vec!["ua", "--grids", grids_str, "--shard", "1/1"],
        vec!["ua", GRID, "--shard", "1/1", "--out", out_str],
        vec![
            "clues", GRID, "--clues", "17", "--shard", "1/1", "--out", out_str,
        ],
        vec!["ua", GRID, "--complete", "17"],
        vec!["ua", GRID, "--complete", "3"],
        vec![
            "ua", GRID, "--grids", grids_str, "--shard", "1/1", "--out", out_str,
        ],
    ] {
        let r = run(&args);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(r.stdout.is_empty(), "{args:?}");
        assert!(!out.exists(), "{args:?}: output written");
    }
}

/// With 78–80 givens every search node but a few has fewer live cells than
/// givens to place: the search prunes them and ends at once, and finds every
/// subset of the grid's cells of that size (the smallest unavoidable set has
/// 4 cells, so each is a puzzle): C(81, k) puzzles.
#[test]
fn clues_near_a_full_grid_are_every_subset() {
    for (clues, expected) in [("80", 81u64), ("79", 3_240), ("78", 85_320)] {
        let r = run(&["clues", GRID, "--clues", clues, "--json", "--quiet"]);
        assert_eq!(r.code, 0, "{clues}: {}", r.stderr);
        let lines = json_lines(&r.stdout);
        let summary = lines.last().unwrap();
        assert_eq!(summary["found"].as_u64(), Some(expected), "{clues}");
        assert_eq!(summary["complete"], true);
        assert_eq!(lines.len() as u64, expected + 1);
    }
    let r = run(&["clues", GRID, "--clues", "17", "--max-found", "10000001"]);
    assert_eq!(r.code, 2);
    assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
}
