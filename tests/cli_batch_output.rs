//! Where `ua --grids` and `clues --grids` put their records, and what a
//! resumed run may trust: records carry their settings, the output is locked,
//! written whole or not at all, never read without bound or from a pipe, and
//! never the grid file itself.

mod common;

use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use common::{algoku, finish, json_lines, run, ALGOKU};

const GRID: &str =
    "789623541651478923324915786192736854438592167567184392945367218276851439813249675";
const OTHER: &str =
    "123456789457189236689372145245798361378261954961543827512637498796824513834915672";

fn scratch(name: &str) -> PathBuf {
    common::scratch(&format!("cli_batch_output-{name}"))
}

/// A fresh scratch folder `name` and, in it, a grid file of two grids.
fn grid_file(name: &str) -> (PathBuf, PathBuf) {
    let dir = scratch(name);
    let path = dir.join("grids.txt");
    std::fs::write(&path, format!("{GRID}\n{OTHER}\n")).unwrap();
    (dir, path)
}

/// `algoku ua --grids GRIDS --max-size SIZE --out OUT EXTRA…`.
fn ua_into(grids: &Path, size: &str, out: &str, extra: &[&str]) -> common::Run {
    run(&[
        &["ua", "--grids", s(grids), "--max-size", size, "--out", out],
        extra,
    ]
    .concat())
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn a_resumed_run_with_other_settings_is_refused_and_the_file_kept() {
    let (dir, grids) = grid_file("settings");
    let out = dir.join("ua.jsonl");
    let first = ua_into(&grids, "6", s(&out), &[]);
    assert_eq!(first.code, 0, "{}", first.stderr);
    let kept = std::fs::read_to_string(&out).unwrap();
    let recs = json_lines(&kept);
    assert_eq!(recs.len(), 2);
    assert_eq!(recs[0]["settings"]["max_size"], 6);
    let again = ua_into(&grids, "12", s(&out), &[]);
    assert_eq!(again.code, 2, "{}", again.stdout);
    assert_eq!(again.stderr.lines().count(), 1, "{}", again.stderr);
    assert!(
        again.stderr.contains("max_size 6") && again.stderr.contains("this run has 12"),
        "{}",
        again.stderr
    );
    assert_eq!(std::fs::read_to_string(&out).unwrap(), kept);
    // The same settings resume: nothing to do.
    let same = ua_into(&grids, "6", s(&out), &["--json"]);
    assert_eq!(same.code, 0, "{}", same.stderr);
    assert_eq!(json_lines(&same.stdout)[0]["summary"]["already_done"], 2);

    let clues = dir.join("clues.jsonl");
    let base = ["clues", "--grids", s(&grids), "--out", s(&clues)];
    let r = run(&[&base[..], &["--clues", "12"]].concat());
    assert_eq!(r.code, 0, "{}", r.stderr);
    let r = run(&[&base[..], &["--clues", "14"]].concat());
    assert_eq!(r.code, 2, "{}", r.stdout);
    assert!(r.stderr.contains("clues 12"), "{}", r.stderr);
    // Records of another command, or without settings, are not this run's.
    let r = run(&["ua", "--grids", s(&grids), "--out", s(&clues)]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("command \"clues\""), "{}", r.stderr);
    std::fs::write(&clues, format!("{{\"grid\":\"{GRID}\",\"clues\":12}}\n")).unwrap();
    let r = run(&[&base[..], &["--clues", "12"]].concat());
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("without its settings"), "{}", r.stderr);
}

#[test]
fn without_out_and_shard_the_whole_file_goes_to_stdout() {
    let (_, grids) = grid_file("stdout");
    let r = run(&["ua", "--grids", s(&grids), "--max-size", "8", "--json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let lines = json_lines(&r.stdout);
    assert_eq!(lines.len(), 3);
    assert_eq!(
        (lines[0]["grid"].as_str(), lines[1]["grid"].as_str()),
        (Some(GRID), Some(OTHER))
    );
    assert_eq!(lines[2]["summary"]["shard"], "1/1");
    assert_eq!(lines[2]["summary"]["resume"], false);
    // In text mode standard output stays JSON Lines; the summary is on stderr.
    let r = run(&["clues", "--grids", s(&grids), "--clues", "3", "--out", "-"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(json_lines(&r.stdout).len(), 2);
    assert!(r.stderr.contains("shard 1/1: 2 grids"), "{}", r.stderr);
}

#[test]
fn devices_and_pipes_are_written_without_resume() {
    let (dir, grids) = grid_file("devices");
    for dev in ["/dev/null", "/dev/zero"] {
        let r = ua_into(&grids, "6", dev, &["--json"]);
        assert_eq!(r.code, 0, "{dev}: {}", r.stderr);
        assert!(r.stderr.contains("without resume"), "{dev}: {}", r.stderr);
        assert_eq!(json_lines(&r.stdout)[0]["summary"]["processed"], 2, "{dev}");
    }
    // The run's own standard output, a pipe: records arrive, nothing hangs.
    let r = ua_into(&grids, "6", "/dev/stdout", &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        r.stdout
            .lines()
            .filter(|l| l.starts_with("{\"grid\""))
            .count(),
        2
    );
    // A FIFO with a reader.
    let fifo = dir.join("fifo");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let reader_path = fifo.clone();
    let reader = std::thread::spawn(move || std::fs::read_to_string(reader_path).unwrap());
    let r = run(&[
        "clues",
        "--grids",
        s(&grids),
        "--clues",
        "3",
        "--out",
        s(&fifo),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(json_lines(&reader.join().unwrap()).len(), 2);
}

#[test]
fn an_output_too_large_to_resume_from_is_refused_unread() {
    let (dir, grids) = grid_file("huge");
    let out = dir.join("huge.jsonl");
    // Sparse: no disk is used, and a run that read it would take 1 GiB.
    File::create(&out).unwrap().set_len((1 << 30) + 1).unwrap();
    let r = run(&["ua", "--grids", s(&grids), "--out", s(&out)]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("too large to resume"), "{}", r.stderr);
}

#[test]
fn the_grid_file_is_never_the_output() {
    let (dir, grids) = grid_file("same");
    let before = std::fs::read_to_string(&grids).unwrap();
    let link = dir.join("link.txt");
    std::os::unix::fs::symlink(&grids, &link).unwrap();
    for out in [&grids, &link] {
        let r = run(&["ua", "--grids", s(&grids), "--out", s(out)]);
        assert_eq!(r.code, 2, "{}", r.stdout);
        assert!(r.stderr.contains("is the grid file"), "{}", r.stderr);
    }
    assert_eq!(std::fs::read_to_string(&grids).unwrap(), before);
}

#[test]
fn a_second_run_on_the_same_output_is_refused_or_waits() {
    let (dir, grids) = grid_file("lock");
    let out = dir.join("out.jsonl");
    let held = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&out)
        .unwrap();
    held.lock().unwrap();
    let r = ua_into(&grids, "6", s(&out), &[]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("in use by another run"), "{}", r.stderr);
    assert_eq!(std::fs::metadata(&out).unwrap().len(), 0);
    // With --wait it runs once the other run lets go.
    let wait = algoku(&[
        "ua",
        "--grids",
        s(&grids),
        "--max-size",
        "6",
        "--out",
        s(&out),
        "--wait",
    ]);
    let waiting = std::thread::spawn(move || wait.limit(Duration::from_secs(120)).run());
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(
        std::fs::metadata(&out).unwrap().len(),
        0,
        "ran under the lock"
    );
    drop(held);
    let r = waiting.join().unwrap();
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(json_lines(&std::fs::read_to_string(&out).unwrap()).len(), 2);
}

/// A write that fails part way (here the file size limit, as a full disk
/// would) leaves only whole records, and a rerun completes the file.
#[test]
fn a_failed_write_leaves_only_whole_records() {
    let (dir, grids) = grid_file("full");
    let out = dir.join("out.jsonl");
    let script = format!(
        "trap '' XFSZ; ulimit -f 16; exec {ALGOKU} ua --grids {} --max-size 12 --out {}",
        s(&grids),
        s(&out)
    );
    let mut cmd = Command::new("sh");
    cmd.args(["-c", &script]);
    let r = finish(cmd, None, Duration::from_secs(120));
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("cannot write"), "{}", r.stderr);
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.is_empty() || text.ends_with('\n'), "cut-off line left");
    let done = json_lines(&text).len();
    assert!(done < 2);
    let r = ua_into(&grids, "12", s(&out), &["--json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(json_lines(&r.stdout)[0]["summary"]["already_done"], done);
    assert_eq!(json_lines(&std::fs::read_to_string(&out).unwrap()).len(), 2);
}
