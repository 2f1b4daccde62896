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

/// `--network` and `--app-id`: their one declaration, for every command that
/// uses an app on a chain. A command that needs a chain reads
/// [`NetworkArgs::network`] (`auto` when not given). One that also runs
/// natively (`curta generate|verify`, `game puzzle`) drops the default with
/// `mut_arg` and reads [`NetworkArgs::asked`]: no `--network`, no chain. A
/// game names its app's artifact in the help of `--app-id` the same way.
#[derive(clap::Args, Debug, Clone)]
pub struct NetworkArgs {
    /// auto: a configured algod (ALGOD_SERVER/ALGOD_PORT; an error if it fails),
    /// else LocalNet if it answers, else the embedded evaluator.
    #[arg(long, default_value = "auto", value_parser = network())]
    network: Option<Network>,
    /// Use this app id instead of deploying (or reusing) one. Its approval
    /// program must be the committed Algoku artifact, byte for byte.
    #[arg(long)]
    pub app_id: Option<u64>,
}

impl NetworkArgs {
    /// The network to use: `--network`, else `auto`.
    pub fn network(&self) -> Network {
        self.network.unwrap_or(Network::Auto)
    }

    /// The network asked for, if any (for a command whose `--network` has no default).
    pub fn asked(&self) -> Option<Network> {
        self.network
    }

    /// The same app on `network` (a command that was asked for one, passing it on).
    pub fn on(network: Network, app_id: Option<u64>) -> Self {
        NetworkArgs {
            network: Some(network),
            app_id,
        }
    }
}

/// The async runtime the chain commands run on.
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
