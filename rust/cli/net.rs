//! What every command that talks to a chain shares: `--network`, typed once
//! when the arguments are parsed, the async runtime, and what a command says
//! about an app it made on the embedded evaluator.

use algoku_client::Network;
use anyhow::Context;
use clap::builder::{PossibleValuesParser, TypedValueParser};

/// The names `--network` takes (help and completions list them).
pub const NETWORKS: [&str; 4] = ["auto", "localnet", "testnet", "embedded"];

/// `--network`'s parser: one of [`NETWORKS`], as a [`Network`].
pub fn network() -> impl TypedValueParser<Value = Network> {
    PossibleValuesParser::new(NETWORKS).map(|name| {
        // Only the listed names reach here, and the test below parses each.
        name.parse().unwrap_or(Network::Auto)
    })
}

/// The async runtime the chain commands run on.
/// `--network` and `--app-id`, one declaration for every command that uses an
/// app on a chain (each names its app's artifact in the help of `--app-id`
/// with `mut_arg` when it is not the verifier).
#[derive(clap::Args, Debug, Clone)]
pub struct NetworkArgs {
    /// auto: a configured algod (ALGOD_SERVER/ALGOD_PORT; an error if it fails),
    /// else LocalNet if it answers, else the embedded evaluator.
    #[arg(long, default_value = "auto", value_parser = network())]
    pub network: Network,
    /// Use this app id instead of deploying (or reusing) one. Its approval
    /// program must be the committed Algoku artifact, byte for byte.
    #[arg(long)]
    pub app_id: Option<u64>,
}

pub fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")
}

/// What a command says when it created an app on the embedded evaluator:
/// its money is play money and its ledger is gone at exit.
pub fn embedded_app_note(id: u64) -> String {
    format!(
        "app {id} created on the embedded evaluator's in-process ledger (play money, \
         discarded at exit; nothing was sent to any network)"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_network_parses() {
        for name in NETWORKS {
            assert!(name.parse::<Network>().is_ok(), "{name}");
        }
    }
}
