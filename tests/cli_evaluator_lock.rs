//! A wait for the evaluator is said, not silent. Its own test binary: it holds
//! the evaluator's only slot, which every other chain test of a binary would wait on.

mod common;

use std::process::Command;

const VALID: &str =
    "953168742862734951417952836746893125281645397395271468138529674574386219629417583";

#[test]
fn a_wait_for_the_evaluators_lock_is_said_on_stderr() {
    use std::io::BufRead;
    let python = algoku_client::node::find_python().expect("the project's Python");
    // Another process holds the evaluator for five seconds: its one slot here
    // (ALGOKU_JIG_SLOTS=1; with more, the run would take a free one).
    let mut holder = Command::new(python)
        .args(["-c", "import fcntl, time; f = open('/tmp/jig.lock', 'a'); fcntl.flock(f, fcntl.LOCK_EX); print('held', flush=True); time.sleep(5)"])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("python runs");
    let mut held = String::new();
    std::io::BufReader::new(holder.stdout.take().unwrap())
        .read_line(&mut held)
        .unwrap();
    assert_eq!(held.trim(), "held");
    let r = common::algoku(&["verify", VALID, "--network", "embedded"])
        .env("ALGOKU_LOCK_NOTE", "1")
        .env("ALGOKU_JIG_SLOTS", "1")
        .run();
    let (code, stderr) = (r.code, r.stderr);
    let _ = holder.wait();
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains(
            "embedded evaluator: waiting for the evaluator: another process holds /tmp/jig.lock"
        ),
        "{stderr}"
    );
}
