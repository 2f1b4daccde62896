//! `algoku node`: a local node on loopback (algod v2 and KMD v1 over
//! go-algorand's evaluator, `algoku_client::node`), served until interrupted.
//!
//! The node prints `algod http://127.0.0.1:P` and `kmd http://127.0.0.1:Q` as
//! its first lines; point any client at them (the LocalNet token, KMD's
//! `unencrypted-default-wallet`). A port already taken is a one-line error.

use crate::io::output::Out;
use crate::{net, Global};
use anyhow::Context;
use clap::Args;
use std::process::ExitCode;

/// Serve a local node: algod v2 and KMD v1 on loopback, backed by
/// go-algorand's evaluator (what LocalNet is, without containers).
#[derive(Args, Debug)]
pub struct NodeArgs {
    /// algod's port (0 picks a free one).
    #[arg(long, default_value_t = 4001)]
    algod_port: u16,
    /// KMD's port (0 picks a free one).
    #[arg(long, default_value_t = 4002)]
    kmd_port: u16,
}

pub fn run(args: &NodeArgs, _global: &Global, out: &mut Out) -> anyhow::Result<ExitCode> {
    out.flush()?;
    let argv = [
        "--algod-port".to_string(),
        args.algod_port.to_string(),
        "--kmd-port".to_string(),
        args.kmd_port.to_string(),
        "--exit-with-parent".to_string(),
    ];
    net::runtime()?.block_on(async {
        let (mut command, python) = algoku_client::node::command(&argv)?;
        let mut child = command
            .kill_on_drop(true)
            .spawn()
            .with_context(|| format!("cannot run {}", python.display()))?;
        // A Ctrl-C reaches the node too (one process group) and ends it; any
        // other way this command is asked to stop ends the node here.
        let status = tokio::select! {
            status = child.wait() => status?,
            _ = stop_signal() => {
                let waited = tokio::time::timeout(std::time::Duration::from_secs(2), child.wait()).await;
                match waited {
                    Ok(status) => status?,
                    Err(_) => {
                        child.kill().await?;
                        return Ok(ExitCode::SUCCESS);
                    }
                }
            }
        };
        Ok(match status.code() {
            Some(0) | None => ExitCode::SUCCESS,
            Some(code) => ExitCode::from(u8::try_from(code).unwrap_or(2)),
        })
    })
}

/// The first SIGINT, SIGTERM or SIGHUP.
async fn stop_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        let (Ok(mut int), Ok(mut term), Ok(mut hup)) = (
            signal(SignalKind::interrupt()),
            signal(SignalKind::terminate()),
            signal(SignalKind::hangup()),
        ) else {
            return std::future::pending().await;
        };
        tokio::select! {
            _ = int.recv() => {}
            _ = term.recv() => {}
            _ = hup.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}
