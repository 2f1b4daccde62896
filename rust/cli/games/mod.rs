//! The two games: `curta` (the 8x8 "two times four is eight") and `game` (the 9x9 game),
//! natively and on chain.

pub mod curta;
pub mod curta_chain;
pub mod game;

use algoku_client::{Chain, Network};

/// Says which backend answered, in text mode, once the command has its answer: a
/// command that fails prints its one error line and nothing before it.
pub fn announce(chain: &Chain, global: &crate::Global) {
    if !global.json {
        eprintln!("backend: {}", chain.describe());
    }
}

/// `--network` and `--app-id` of the games' commands that use an app: the
/// chain, and the app on it. Each command names its game's artifact in the
/// help of `--app-id` (`mut_arg`).
#[derive(clap::Args, Debug)]
pub struct AppArgs {
    /// auto: a configured algod, else LocalNet if it answers, else the embedded evaluator.
    #[arg(long, default_value = "auto", value_parser = crate::net::network())]
    pub network: Network,
    /// Use this app id (its approval program must be the committed artifact).
    #[arg(long)]
    pub app_id: Option<u64>,
}

/// What a `play` spent, as both games print it: fees, box payment, and
/// whether nothing was sent because the account's solve is on record.
pub fn spent_line(fee: u64, paid: u64, already_solved: bool) -> String {
    format!(
        "spent    {fee} µALGO fees + {paid} µALGO box payment{}",
        if already_solved {
            " (nothing sent: this account's solve is recorded)"
        } else {
            ""
        }
    )
}
