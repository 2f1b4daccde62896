//! The verifier app the chain commands talk to: connecting, checking or
//! deploying it, saying which backend answers, and the mirror's reason for a
//! `false`. Shared by one-grid `verify` and the file batches.

use crate::net::embedded_app_note;
use crate::net::NetworkArgs;
use crate::Global;
use algoku_avm::why_false;
use algoku_client::{Algoku, Call, Chain, Method, Verdict};
use anyhow::bail;
use serde_json::{json, Value};

/// Connects and checks a given `--app-id` before anything trusts its
/// answers (the backend is announced by [`announce`] once something is done).
pub async fn connect(net: &NetworkArgs, global: &Global) -> anyhow::Result<Algoku> {
    let chain = Chain::connect(net.network(), &global.settings()).await?;
    let mut algoku = Algoku::new(chain)?;
    if let Some(id) = net.app_id {
        algoku.app.use_checked_app(id).await?;
    }
    // Said once the app is there (`ensure_app`, `deploy`): a command that
    // fails before doing anything prints its one error line and nothing else.
    Ok(algoku)
}

/// Says which backend answers (and why, after a fallback), in text mode.
pub fn announce(algoku: &Algoku, global: &Global) {
    if !global.json {
        for note in &algoku.app.chain.notes {
            eprintln!("note: {note}");
        }
        eprintln!("backend: {}", algoku.app.chain.describe());
    }
}

/// The backend and why it was chosen, for JSON output.
pub fn backend_json(algoku: &Algoku) -> Value {
    json!({"backend": algoku.app.chain.backend(), "backend_notes": algoku.app.chain.notes})
}

/// Finds the app to call. With `simulate_only`, nothing is sent: on an algod
/// only an existing app is used; on the embedded evaluator the app is created
/// on the in-process ledger and the returned note says so.
pub async fn ensure_app(
    algoku: &mut Algoku,
    global: &Global,
    simulate_only: bool,
) -> anyhow::Result<(u64, Option<String>)> {
    if let Some(id) = algoku.app.id() {
        announce(algoku, global);
        return Ok((id, None));
    }
    if simulate_only && !algoku.app.chain.is_embedded() {
        let Some(id) = algoku.app.own_app().await? else {
            bail!(
                "--simulate-only sends nothing, and {} has no Algoku app on this {} network: \
                 deploy one first (`algoku deploy`) or give --app-id",
                algoku.app.chain.address(),
                algoku.app.chain.backend()
            );
        };
        algoku.app.use_app(id);
        announce(algoku, global);
        return Ok((id, None));
    }
    let d = algoku.deploy().await?;
    announce(algoku, global);
    let note = (!d.reused).then(|| {
        if simulate_only {
            embedded_app_note(d.app_id)
        } else {
            format!(
                "app {} created (txid {}, fee {} µALGO)",
                d.app_id,
                d.txid.clone().unwrap_or_default(),
                d.fee
            )
        }
    });
    if !global.json {
        match &note {
            Some(n) => eprintln!("{n}"),
            None => eprintln!("app: {} (reused)", d.app_id),
        }
    }
    Ok((d.app_id, note))
}

/// The mirror's reason for a `false` verdict on `solution` (with `puzzle`
/// for `is_solution_of`); `None` for any other verdict.
pub fn reason(verdict: &Verdict, solution: &[u8], puzzle: Option<&[u8]>) -> Option<String> {
    (*verdict == Verdict::Valid(false)).then(|| why_false(solution, puzzle))
}

/// The grid (or solution) and the puzzle a call asks about.
pub fn call_grids(call: &Call) -> (&[u8], Option<&[u8]>) {
    match (call.method, &call.args[..]) {
        (Method::SolutionOf, [puzzle, solution, ..]) => (solution, Some(puzzle)),
        (_, [grid, ..]) => (grid, None),
        (_, []) => (&[], None),
    }
}
