//! The one harness of the integration tests: runs the built `algoku` binary
//! (arguments, environment, standard input, a time limit), returns what it
//! printed, and makes scratch folders. Every test file that runs the binary
//! goes through [`algoku`] or [`run`].
//!
//! A run that outlives its limit is killed and fails its test: a hang is a
//! bug, not a slow test.

// Each test file is its own crate and uses a part of this module.
#![allow(dead_code)]

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

/// The binary under test.
pub const ALGOKU: &str = env!("CARGO_BIN_EXE_algoku");

/// A fixed throwaway account (it holds nothing on any real network): tests
/// that need the same signer every run set it as `DEPLOYER_MNEMONIC`.
pub const MNEMONIC: &str = "air nature sleep rescue dismiss ocean mule dragon quality ten powder \
     piece original cycle guide someone jewel defense flat bounce shield major merry about essence";

/// The default limit of one run: the slowest command of the suite (a batch
/// on the evaluator) takes well under it.
pub const LIMIT: Duration = Duration::from_secs(600);

/// What a run printed, and how it ended.
pub struct Run {
    /// The exit code (-1 when a signal ended it).
    pub code: i32,
    /// Standard output (lossy UTF-8).
    pub stdout: String,
    /// Standard error (lossy UTF-8).
    pub stderr: String,
    /// Wall time of the run.
    pub seconds: f64,
}

impl Run {
    /// Standard output as one JSON value.
    pub fn json(&self) -> Value {
        serde_json::from_str(self.stdout.trim())
            .unwrap_or_else(|e| panic!("stdout is not one JSON value ({e}): {:?}", self.stdout))
    }

    /// Standard output as JSON Lines.
    pub fn json_lines(&self) -> Vec<Value> {
        json_lines(&self.stdout)
    }

    /// The last line of standard output as JSON (a summary, or an error).
    pub fn last_json(&self) -> Value {
        let last = self.stdout.lines().last().unwrap_or_default();
        serde_json::from_str(last.trim())
            .unwrap_or_else(|e| panic!("last line is not JSON ({e}): {:?}", self.stdout))
    }

    /// Standard output's lines.
    pub fn lines(&self) -> Vec<String> {
        self.stdout.lines().map(str::to_string).collect()
    }
}

/// Each line of `text` as JSON.
pub fn json_lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l:?}")))
        .collect()
}

/// The JSON Lines data file at `path` (from the repository's root), blank
/// lines skipped: the vectors the crates' own tests share.
pub fn data_lines(path: &str) -> Vec<Value> {
    let path = format!("{}/{path}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    json_lines(
        &text
            .lines()
            .filter(|l| !l.trim().is_empty())
            .collect::<Vec<_>>()
            .join("\n"),
    )
}

/// One run of the binary, built up before it starts.
pub struct Invocation {
    cmd: Command,
    stdin: Option<Vec<u8>>,
    limit: Duration,
}

/// `algoku args…`, with a closed standard input unless [`Invocation::stdin`]
/// gives one.
pub fn algoku(args: &[&str]) -> Invocation {
    let mut cmd = Command::new(ALGOKU);
    cmd.args(args);
    Invocation {
        cmd,
        stdin: None,
        limit: LIMIT,
    }
}

/// Runs `algoku args…` to its end.
pub fn run(args: &[&str]) -> Run {
    algoku(args).run()
}

/// Runs `algoku args…` to its end, feeding `stdin` (or a closed stdin).
pub fn run_with(args: &[&str], stdin: Option<&str>) -> Run {
    match stdin {
        Some(text) => algoku(args).stdin(text).run(),
        None => run(args),
    }
}

impl Invocation {
    /// Sets an environment variable for the run.
    pub fn env(mut self, key: &str, value: &str) -> Invocation {
        self.cmd.env(key, value);
        self
    }

    /// Sets environment variables for the run.
    pub fn envs(mut self, vars: &[(&str, &str)]) -> Invocation {
        for (k, v) in vars {
            self.cmd.env(k, v);
        }
        self
    }

    /// Feeds `text` on standard input (then closes it).
    pub fn stdin(mut self, text: &str) -> Invocation {
        self.stdin = Some(text.as_bytes().to_vec());
        self
    }

    /// Kills the run and fails the test after `limit`.
    pub fn limit(mut self, limit: Duration) -> Invocation {
        self.limit = limit;
        self
    }

    /// Runs it to its end (within the limit).
    pub fn run(self) -> Run {
        finish(self.cmd, self.stdin, self.limit)
    }
}

/// Runs `cmd` (any program: a shell that execs the binary, say) with `stdin`
/// fed and closed, its output collected; kills it and fails the test after
/// `limit`.
pub fn finish(mut cmd: Command, stdin: Option<Vec<u8>>, limit: Duration) -> Run {
    let start = Instant::now();
    let mut child = cmd
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let feeder = stdin.map(|bytes| {
        let mut pipe = child.stdin.take().expect("stdin pipe");
        // A command may stop reading early: a closed pipe is not an error here.
        std::thread::spawn(move || {
            let _ = pipe.write_all(&bytes);
        })
    });
    let (mut out, mut err) = (child.stdout.take().unwrap(), child.stderr.take().unwrap());
    let out_reader = std::thread::spawn(move || {
        let mut b = Vec::new();
        let _ = out.read_to_end(&mut b);
        b
    });
    let err_reader = std::thread::spawn(move || {
        let mut b = Vec::new();
        let _ = err.read_to_end(&mut b);
        b
    });
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for the binary") {
            break status;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{cmd:?} still running after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    if let Some(f) = feeder {
        let _ = f.join();
    }
    let text = |b: Vec<u8>| String::from_utf8_lossy(&b).into_owned();
    Run {
        code: status.code().unwrap_or(-1),
        stdout: text(out_reader.join().unwrap()),
        stderr: text(err_reader.join().unwrap()),
        seconds: start.elapsed().as_secs_f64(),
    }
}

/// A file `name` holding `text` in the scratch folder `dir` of cargo's
/// scratch space, made if need be but not emptied (the tests of one file
/// share theirs, each with its own file names).
pub fn scratch_file(dir: &str, name: &str, text: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(dir);
    std::fs::create_dir_all(&dir).expect("create a scratch folder");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write a scratch file");
    path
}

/// A fresh, empty scratch folder `name` in cargo's scratch space (test
/// files name theirs after themselves, so none share one).
pub fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create a scratch folder");
    dir
}

/// A solved grid; its relabellings are solved grids too.
pub const SOLVED: &str =
    "953168742862734951417952836746893125281645397395271468138529674574386219629417583";

/// The `k`-th relabelling of [`SOLVED`] (digits permuted by the `k`-th
/// permutation of 1..=9 in lexicographic order): distinct valid grids for
/// `k` < 9!.
pub fn relabelled(k: usize) -> String {
    let mut digits: Vec<u8> = (b'1'..=b'9').collect();
    let mut perm = Vec::with_capacity(9);
    let mut rest = k;
    for i in (0..9).rev() {
        let f: usize = (1..=i).product();
        perm.push(digits.remove(rest / f));
        rest %= f;
    }
    SOLVED
        .bytes()
        .map(|d| perm[(d - b'1') as usize] as char)
        .collect()
}
