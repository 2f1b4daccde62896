//! `algoku deploy`, `algoku verify`, `algoku demo`: the commands that talk to a chain.
//!
//! Each says which backend it used (LocalNet/algod, or the embedded go-algorand
//! evaluator), and with `--json` prints one object with at least `valid` or `error`.
//! The chain's verdict is the answer; a `false` comes with the mirror's reason
//! (`reason: …` on the line after it, `"reason"` in JSON): the first Sudoku
//! rule the grid breaks, else the first puzzle given it changes.

mod app;
pub mod args;
pub mod batch;
mod line;

pub use args::{DemoArgs, DeployArgs, VerifyArgs};

use crate::engine::check::parse_grid_bytes;
use crate::io::input::{read_single, Source};
use crate::io::output::Out;
use crate::io::report::merge;
use crate::net::runtime;
use crate::verify::app::{announce, backend_json, connect, ensure_app, reason};
use crate::verify::args::{grid_method, MethodArg};
use crate::Global;
use algoku_client::{Algoku, Call, Method, Strategy, Verdict, Verification};
use anyhow::{anyhow, bail, Context};
use serde_json::{json, Value};
use std::process::ExitCode;

fn strategy_json(s: &Option<Strategy>) -> Value {
    match s {
        Some(Strategy::InnerOpups { inner }) => {
            json!({"kind": "inner_opups", "inner_opups": inner})
        }
        Some(Strategy::Padding { padding }) => {
            json!({"kind": "outer_padding", "padding_calls": padding})
        }
        None => Value::Null,
    }
}

fn verification_json(
    v: &Verification,
    algoku: &Algoku,
    app_id: u64,
    reason: Option<&str>,
) -> Value {
    let min_fee = algoku.app.chain.min_fee();
    let mut out = backend_json(algoku);
    let fields = json!({
        "app_id": app_id,
        "method": v.method.name(),
        "strategy": strategy_json(&v.strategy),
        "alternative": strategy_json(&v.alternative),
        "alternative_fee": v.alternative.map(|a| a.fee(min_fee)),
        "other_methods": v.other_methods.iter().map(|(m, f)| (m.name().to_string(), json!(f))).collect::<serde_json::Map<_, _>>(),
        "fee": v.fee,
        "would_cost": v.strategy.map(|s| s.fee(min_fee)),
        "budget_consumed": v.budget_consumed,
        "budget_pooled": v.budget_pooled,
        "txids": v.txids,
        "confirmed_round": v.confirmed_round,
        "simulated_only": v.simulated_only,
    });
    merge(&mut out, &fields);
    match &v.verdict {
        Verdict::Valid(b) => {
            out["valid"] = json!(b);
            if let Some(r) = reason {
                out["reason"] = json!(r);
            }
        }
        Verdict::Rejected { message, avm, pc } => {
            out["error"] = json!(format!("rejected by the contract: {message}"));
            out["avm_error"] = json!(avm);
            out["pc"] = json!(pc);
        }
    }
    out
}

fn print_verification(
    out: &mut Out,
    v: &Verification,
    min_fee: u64,
    reason: Option<&str>,
) -> std::io::Result<()> {
    match &v.verdict {
        Verdict::Valid(b) => {
            out.line(b)?;
            if let Some(r) = reason {
                out.line(format_args!("reason: {r}"))?;
            }
        }
        Verdict::Rejected { message, avm, pc } => {
            return out.line(format!(
                "rejected: {message} ({avm}{})",
                pc.map(|p| format!(", pc {p}")).unwrap_or_default()
            ));
        }
    }
    if let Some(s) = v.strategy {
        let paid = if v.simulated_only {
            "would cost"
        } else {
            "paid"
        };
        eprintln!(
            "method: {}; group: {}; {paid} {} µALGO",
            v.method.name(),
            s.describe(),
            s.fee(min_fee)
        );
    }
    if let Some(a) = v.alternative {
        eprintln!(
            "  (alternative: {}, {} µALGO)",
            a.describe(),
            a.fee(min_fee)
        );
    }
    for (m, f) in &v.other_methods {
        eprintln!("  (method {}: {f} µALGO)", m.name());
    }
    if let (Some(c), Some(p)) = (v.budget_consumed, v.budget_pooled) {
        eprintln!("budget: {c} of {p} opcodes pooled");
    }
    if !v.txids.is_empty() {
        eprintln!("txids: {}", v.txids.join(" "));
    }
    Ok(())
}

pub fn deploy(args: &DeployArgs, global: &Global, out: &mut Out) -> anyhow::Result<ExitCode> {
    runtime()?.block_on(async {
        let mut algoku = connect(&args.net, global).await?;
        let d = match algoku.app.id() {
            Some(app_id) => algoku_client::Deployment {
                app_id,
                reused: true,
                txid: None,
                fee: 0,
            },
            None => algoku.deploy().await?,
        };
        announce(&algoku, global);
        if global.json {
            let mut v = backend_json(&algoku);
            v["app_id"] = json!(d.app_id);
            v["reused"] = json!(d.reused);
            v["txid"] = json!(d.txid);
            v["fee"] = json!(d.fee);
            v["creator"] = json!(algoku.app.chain.address().to_string());
            if algoku.app.chain.is_embedded() {
                v["note"] = json!(crate::net::embedded_app_note(d.app_id));
            }
            out.json(&v)?;
        } else {
            out.line(d.app_id)?;
            let spent = if d.reused {
                "nothing spent".to_string()
            } else {
                format!(
                    "txid {}, fee {} µALGO; {} µALGO of the balance is now held as the app's minimum",
                    d.txid.as_deref().unwrap_or("?"),
                    d.fee,
                    algoku.app.creator_min_balance()
                )
            };
            eprintln!(
                "{} app {} on {}: {spent}",
                if d.reused { "reused" } else { "created" },
                d.app_id,
                algoku.app.chain.describe()
            );
            if algoku.app.chain.is_embedded() {
                eprintln!("note: {}", crate::net::embedded_app_note(d.app_id));
            }
        }
        Ok(ExitCode::SUCCESS)
    })
}

pub fn verify(args: &VerifyArgs, global: &Global, out: &mut Out) -> anyhow::Result<ExitCode> {
    if (args.puzzle.is_some() || args.puzzle_file.is_some()) && args.method != MethodArg::Auto {
        bail!(
            "--method applies to grids; a puzzle and its solution are verified with is_solution_of"
        );
    }
    if let Some(path) = args.file.as_deref().or(args.puzzle_file.as_deref()) {
        return crate::verify::batch::verify_file(
            path,
            args.puzzle_file.is_some(),
            args,
            global,
            out,
        );
    }
    if args.method == MethodArg::Batch {
        bail!("--method batch answers many grids a call: use it with --file (one grid is one call of lanes or classic)");
    }
    let source = Source::resolve(args.grid.as_deref(), None, "grid")?;
    let grid = parse_grid_bytes(&read_single(&source, "grid")?)
        .with_context(|| format!("grid ({source})"))?;
    let puzzle = match &args.puzzle {
        Some(p) => Some(parse_grid_bytes(p).map_err(|e| anyhow!("--puzzle: {e}"))?),
        None => None,
    };
    runtime()?.block_on(async {
        let mut algoku = connect(&args.net, global).await?;
        let (app_id, setup) = ensure_app(&mut algoku, global, args.simulate_only).await?;
        let v = match (&puzzle, grid_method(args.method)) {
            (Some(p), _) => {
                algoku
                    .verify_call(&Call::solution_of(p, &grid), args.simulate_only)
                    .await?
            }
            (None, Some(m)) => {
                algoku
                    .verify_call(&Call::grid(m, &grid), args.simulate_only)
                    .await?
            }
            (None, None) => algoku.verify_auto(&grid, args.simulate_only).await?,
        };
        let why = reason(&v.verdict, &grid, puzzle.as_deref());
        let agrees = agrees_with_mirror(&v.verdict, &grid, puzzle.as_deref());
        if global.json {
            let mut j = verification_json(&v, &algoku, app_id, why.as_deref());
            if let Some(s) = setup {
                j["setup"] = json!(s);
            }
            j["agrees_mirror"] = json!(agrees);
            out.json(&j)?;
        } else {
            print_verification(out, &v, algoku.app.chain.min_fee(), why.as_deref())?;
        }
        if !agrees {
            eprintln!(
                "error: the node's answer disagrees with the contract's mirror (`algoku check`) for \
                 this input: do not trust this node or app"
            );
            return Ok(ExitCode::from(crate::io::output::EXIT_ERROR));
        }
        Ok(match v.verdict {
            Verdict::Valid(true) => ExitCode::SUCCESS,
            _ => ExitCode::from(1),
        })
    })
}

/// Whether the chain's verdict is the one the contract's native mirror gives for the
/// same input (a node or app that answers otherwise is not the committed contract on
/// an honest node). A rejection is left to the mirror's reasons.
fn agrees_with_mirror(verdict: &Verdict, grid: &[u8], puzzle: Option<&[u8]>) -> bool {
    let Verdict::Valid(answer) = verdict else {
        return true;
    };
    let mirror = match puzzle {
        Some(p) => algoku_avm::solution_of(p, grid),
        None => algoku_avm::lanes(grid),
    };
    mirror.map_or(true, |m| m == *answer)
}

pub fn demo(args: &DemoArgs, global: &Global, out: &mut Out) -> anyhow::Result<ExitCode> {
    use algoku_sudoku::generator::{generate_puzzle, PuzzleOptions};
    runtime()?.block_on(async {
        let mut algoku = connect(&args.net, global).await?;
        let (app_id, _) = ensure_app(&mut algoku, global, false).await?;
        let min_fee = algoku.app.chain.min_fee();
        let puzzle = generate_puzzle(&PuzzleOptions { seed: args.seed, minimal: true, ..Default::default() });
        let solution = algoku_sudoku::solver::solve(&puzzle.puzzle).context("the generated puzzle has no solution")?;
        let mut bad = *solution.cells();
        bad[40] = bad[40] % 9 + 1;
        if !global.json {
            out.line(format!("1. generated puzzle (seed {}, {} clues, {}):\n{}", args.seed, puzzle.clues, crate::engine::generate::rating_words(&algoku_rate::rate(&puzzle.puzzle)), puzzle.puzzle.pretty()))?;
            out.line(format!("2. solved it:\n{}", solution.pretty()))?;
            out.line("3. verified the solution on chain (the cheapest method, priced by simulation):")?;
        }
        let good = algoku.verify_auto(solution.cells(), false).await?;
        let good_why = reason(&good.verdict, solution.cells(), None);
        if !global.json {
            print_verification(out, &good, min_fee, good_why.as_deref())?;
            out.line("4. the solution against the puzzle's givens (is_solution_of):")?;
        }
        let bound = algoku.verify_call(&Call::solution_of(puzzle.puzzle.cells(), solution.cells()), false).await?;
        let bound_why = reason(&bound.verdict, solution.cells(), Some(puzzle.puzzle.cells()));
        if !global.json {
            print_verification(out, &bound, min_fee, bound_why.as_deref())?;
            out.line(format!("5. changed cell r5c5 from {} to {} and verified again:", solution.cells()[40], bad[40]))?;
        }
        let wrong = algoku.verify_auto(&bad, false).await?;
        // The change breaks a rule: the chain answers false, the mirror says which.
        let wrong_why = reason(&wrong.verdict, &bad, None);
        if !global.json {
            print_verification(out, &wrong, min_fee, wrong_why.as_deref())?;
        }
        let ok = good.verdict == Verdict::Valid(true)
            && bound.verdict == Verdict::Valid(true)
            && wrong.verdict == Verdict::Valid(false);
        // The three prices of one verification, as measured here.
        let classic = good.other_methods.iter().find(|(m, _)| *m == Method::Classic).map(|(_, f)| *f);
        let prices = json!({
            "original": ORIGINAL_FEE,
            "classic": classic,
            good.method.name(): good.fee,
            "solution_of": bound.fee,
        });
        if global.json {
            let mut v = backend_json(&algoku);
            v["app_id"] = json!(app_id);
            v["seed"] = json!(args.seed);
            v["puzzle"] = json!(puzzle.puzzle.to_string());
            v["solution"] = json!(solution.to_string());
            v["valid"] = json!(ok);
            v["prices"] = prices;
            v["solution_check"] = verification_json(&good, &algoku, app_id, good_why.as_deref());
            v["puzzle_check"] = verification_json(&bound, &algoku, app_id, bound_why.as_deref());
            v["changed_check"] = verification_json(&wrong, &algoku, app_id, wrong_why.as_deref());
            out.json(&v)?;
        } else {
            out.line(format!(
                "prices of one verification: original Algoku {ORIGINAL_FEE} µALGO (not deployed: its ensure_budget(5000) makes 7 inner opups), \
                 classic {} µALGO, one call ({}) {} µALGO; solution of a puzzle {} µALGO",
                classic.map_or("?".to_string(), |c| c.to_string()),
                good.method.name(),
                good.fee,
                bound.fee
            ))?;
            out.line(if ok { "demo: the chain accepted the solution and rejected the change" } else { "demo: UNEXPECTED verdicts" })?;
        }
        Ok(if ok { ExitCode::SUCCESS } else { ExitCode::from(1) })
    })
}

/// What one verification costs with the original Algoku: 1 call + 7 inner opups.
const ORIGINAL_FEE: u64 = 8_000;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_node_answer_the_mirror_contradicts_is_caught() {
        let solved = parse_grid_bytes(
            "953168742862734951417952836746893125281645397395271468138529674574386219629417583",
        )
        .unwrap();
        let mut broken = solved.clone();
        broken.swap(0, 1);
        assert!(agrees_with_mirror(&Verdict::Valid(true), &solved, None));
        assert!(!agrees_with_mirror(&Verdict::Valid(true), &broken, None));
        assert!(!agrees_with_mirror(&Verdict::Valid(false), &solved, None));
        let mut puzzle = vec![0u8; 81];
        puzzle[0] = solved[0];
        assert!(agrees_with_mirror(
            &Verdict::Valid(true),
            &solved,
            Some(&puzzle)
        ));
        puzzle[0] = solved[0] % 9 + 1;
        assert!(!agrees_with_mirror(
            &Verdict::Valid(true),
            &solved,
            Some(&puzzle)
        ));
    }
}
