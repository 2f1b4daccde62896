//! The two games: `curta` (the 8x8 "two times four is eight") and `game` (the 9x9 game),
//! natively and on chain.

pub mod curta;
pub mod curta_chain;
pub mod game;

use algoku_client::app::{App, Withdrawal};
use algoku_client::Chain;
use anyhow::bail;
use serde_json::json;

/// Says which backend answered, in text mode, once the command has its answer: a
/// command that fails prints its one error line and nothing before it.
pub fn announce(chain: &Chain, global: &crate::Global) {
    if !global.json {
        eprintln!("backend: {}", chain.describe());
    }
}

/// `--network` and `--app-id` of the games' commands (the one declaration, `net::NetworkArgs`).
pub use crate::net::NetworkArgs as AppArgs;

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

/// Arguments of `game withdraw` and `curta withdraw`.
#[derive(clap::Args, Debug)]
pub struct WithdrawArgs {
    #[command(flatten)]
    pub app: AppArgs,
}

/// The app a creator's command acts on: `--app-id` (its program checked), else the
/// signing account's own app of this game; never a new one.
pub async fn creators_app(app: &mut App, app_id: Option<u64>) -> anyhow::Result<u64> {
    let id = match app_id {
        Some(id) => id,
        None => match app.own_app().await? {
            Some(id) => id,
            None => bail!(
                "{} created no app of this game on this network: give --app-id",
                app.chain.address()
            ),
        },
    };
    app.use_checked_app(id).await?;
    Ok(id)
}

/// `withdraw`: the creator takes back what the app account holds above its minimum
/// balance (simulated first; nothing is sent when there is nothing to take).
pub async fn withdraw(
    app: &mut App,
    app_id: Option<u64>,
    global: &crate::Global,
    out: &mut crate::io::output::Out,
) -> anyhow::Result<std::process::ExitCode> {
    let id = creators_app(app, app_id).await?;
    let w: Withdrawal = app.withdraw().await?;
    announce(&app.chain, global);
    if global.json {
        out.json(&json!({
            "app_id": id, "backend": app.chain.backend(), "amount": w.amount,
            "fee": w.fee, "txid": w.txid,
        }))?;
    } else if w.amount == 0 {
        out.line(format!(
            "app {id}: nothing above its minimum balance to withdraw; nothing sent"
        ))?;
    } else {
        out.line(format!(
            "app {id}: withdrew {} µALGO to the creator (fee {} µALGO, txid {})",
            w.amount,
            w.fee,
            w.txid.as_deref().unwrap_or("?")
        ))?;
    }
    Ok(std::process::ExitCode::SUCCESS)
}
