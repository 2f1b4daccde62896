//! `algoku deploy`, `algoku verify`, `algoku demo`: the commands that talk to a chain.
//!
//! Each says which backend it used (LocalNet/algod, or the embedded go-algorand
//! evaluator), and with `--json` prints one object with at least `valid` or `error`.

use crate::check::parse_grid_bytes;
use crate::input::{read_single, Source};
use crate::output::Out;
use crate::progress::Progress;
use crate::Global;
use algoku_client::{
    Algoku, Call, Chain, Method, Network, Settings, Strategy, Verdict, Verification,
};
use anyhow::{anyhow, bail, Context};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::process::ExitCode;

/// Network selection shared by the chain commands.
#[derive(clap::Args, Debug, Clone)]
pub struct NetworkArgs {
    /// auto: a configured algod (ALGOD_SERVER/ALGOD_PORT; an error if it fails),
    /// else LocalNet if it answers, else the embedded evaluator.
    #[arg(long, default_value = "auto", value_parser = ["auto", "localnet", "testnet", "embedded"])]
    pub network: String,
    /// Use this app id instead of deploying (or reusing) one. Its approval
    /// program must be the committed Algoku artifact, byte for byte.
    #[arg(long)]
    pub app_id: Option<u64>,
}

/// Arguments of `algoku deploy`.
#[derive(clap::Args, Debug)]
pub struct DeployArgs {
    #[command(flatten)]
    pub net: NetworkArgs,
}

/// Which verifier method answers `verify`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum MethodArg {
    /// The cheapest, priced by simulating both (normally lanes).
    Auto,
    /// `is_valid_solution_lanes`: one app call.
    Lanes,
    /// `is_valid_solution`: the original algorithm, paid with opups.
    Classic,
}

/// Arguments of `algoku verify`.
#[derive(clap::Args, Debug)]
pub struct VerifyArgs {
    /// 81 digits, or 0x + hex for arbitrary bytes; `-` or nothing reads stdin.
    /// With --puzzle: the solution.
    pub grid: Option<String>,
    /// Verify every line of FILE (one grid per line: digits or 0x hex) with
    /// one app, up to 16 verifications per atomic group.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["grid", "puzzle", "puzzle_file"])]
    pub file: Option<PathBuf>,
    /// Check that the grid solves this puzzle (81 characters, `.` or 0 for
    /// blanks, or 0x hex): the contract's `is_solution_of`.
    #[arg(long, value_name = "PUZZLE")]
    pub puzzle: Option<String>,
    /// Verify every line of FILE: `PUZZLE SOLUTION`, with `is_solution_of`.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["grid", "file", "puzzle"])]
    pub puzzle_file: Option<PathBuf>,
    /// Which method answers (grids only; puzzles use is_solution_of).
    #[arg(long, value_enum, default_value_t = MethodArg::Auto)]
    pub method: MethodArg,
    /// Only simulate: no transaction is sent and no fee is paid. On LocalNet
    /// or another algod this needs an app that exists (--app-id, or one this
    /// account deployed); on the embedded evaluator the app is created on its
    /// in-process ledger, which is discarded at exit, and the output says so.
    #[arg(long)]
    pub simulate_only: bool,
    #[command(flatten)]
    pub net: NetworkArgs,
}

/// Arguments of `algoku demo`.
#[derive(clap::Args, Debug)]
pub struct DemoArgs {
    /// Seed of the generated puzzle.
    #[arg(long, default_value_t = 2026)]
    pub seed: u64,
    #[command(flatten)]
    pub net: NetworkArgs,
}

/// The async runtime the chain commands run on.
pub(crate) fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")
}

/// Connects, says which backend (and why, after a fallback), and checks a
/// given `--app-id` before anything trusts its answers.
async fn connect(net: &NetworkArgs, global: &Global) -> anyhow::Result<Algoku> {
    let network: Network = net.network.parse().map_err(anyhow::Error::msg)?;
    let chain = Chain::connect(network, &Settings::from_env()).await?;
    if !global.json {
        for note in &chain.notes {
            eprintln!("note: {note}");
        }
        eprintln!("backend: {}", chain.describe());
    }
    let mut algoku = Algoku::new(chain)?;
    if let Some(id) = net.app_id {
        algoku.use_checked_app(id).await?;
    }
    Ok(algoku)
}

/// The backend and why it was chosen, for JSON output.
fn backend_json(algoku: &Algoku) -> Value {
    json!({"backend": algoku.chain.kind(), "backend_notes": algoku.chain.notes})
}

/// Finds the app to call. With `simulate_only`, nothing is sent: on an algod
/// only an existing app is used; on the embedded evaluator the app is created
/// on the in-process ledger and the returned note says so.
async fn ensure_app(
    algoku: &mut Algoku,
    global: &Global,
    simulate_only: bool,
) -> anyhow::Result<(u64, Option<String>)> {
    if let Some(id) = algoku.app() {
        return Ok((id, None));
    }
    if simulate_only && algoku.chain.kind() != "embedded" {
        let existing = algoku
            .chain
            .created_apps_with(&algoku.spec.approval)
            .await?;
        let Some(&id) = existing.iter().max() else {
            bail!(
                "--simulate-only sends nothing, and {} has no Algoku app on this {} network: \
                 deploy one first (`algoku deploy`) or give --app-id",
                algoku.chain.address(),
                algoku.chain.kind()
            );
        };
        algoku.use_app(id);
        return Ok((id, None));
    }
    let d = algoku.deploy().await?;
    let note = (!d.reused).then(|| {
        if simulate_only {
            format!(
                "app {} created on the embedded evaluator's in-process ledger (discarded at exit; \
                 nothing was sent to any network)",
                d.app_id
            )
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

fn verification_json(v: &Verification, algoku: &Algoku, app_id: u64) -> Value {
    let min_fee = algoku.chain.min_fee();
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
    if let (Some(o), Some(f)) = (out.as_object_mut(), fields.as_object()) {
        o.extend(f.clone());
    }
    match &v.verdict {
        Verdict::Valid(b) => out["valid"] = json!(b),
        Verdict::Rejected { message, avm, pc } => {
            out["error"] = json!(format!("rejected by the contract: {message}"));
            out["avm_error"] = json!(avm);
            out["pc"] = json!(pc);
        }
    }
    out
}

fn print_verification(out: &mut Out, v: &Verification, min_fee: u64) -> std::io::Result<()> {
    match &v.verdict {
        Verdict::Valid(b) => out.line(b)?,
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
        let d = match algoku.app() {
            Some(app_id) => algoku_client::Deployment {
                app_id,
                reused: true,
                txid: None,
                fee: 0,
            },
            None => algoku.deploy().await?,
        };
        if global.json {
            let mut v = backend_json(&algoku);
            v["app_id"] = json!(d.app_id);
            v["reused"] = json!(d.reused);
            v["txid"] = json!(d.txid);
            v["fee"] = json!(d.fee);
            v["creator"] = json!(algoku.chain.address().to_string());
            out.json(&v)?;
        } else {
            out.line(d.app_id)?;
            eprintln!(
                "{} app {} on {}",
                if d.reused { "reused" } else { "created" },
                d.app_id,
                algoku.chain.describe()
            );
        }
        Ok(ExitCode::SUCCESS)
    })
}

/// The method for a grid, from `--method`.
fn grid_method(arg: MethodArg) -> Option<Method> {
    match arg {
        MethodArg::Auto => None,
        MethodArg::Lanes => Some(Method::Lanes),
        MethodArg::Classic => Some(Method::Classic),
    }
}

pub fn verify(args: &VerifyArgs, global: &Global, out: &mut Out) -> anyhow::Result<ExitCode> {
    if (args.puzzle.is_some() || args.puzzle_file.is_some()) && args.method != MethodArg::Auto {
        bail!(
            "--method applies to grids; a puzzle and its solution are verified with is_solution_of"
        );
    }
    if let Some(path) = args.file.as_deref().or(args.puzzle_file.as_deref()) {
        return verify_file(path, args.puzzle_file.is_some(), args, global, out);
    }
    let source = Source::resolve(args.grid.as_deref(), None, "grid")?;
    let grid = parse_grid_bytes(&read_single(&source, "grid")?)?;
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
        if global.json {
            let mut j = verification_json(&v, &algoku, app_id);
            if let Some(s) = setup {
                j["setup"] = json!(s);
            }
            out.json(&j)?;
        } else {
            print_verification(out, &v, algoku.chain.min_fee())?;
        }
        Ok(match v.verdict {
            Verdict::Valid(true) => ExitCode::SUCCESS,
            _ => ExitCode::from(1),
        })
    })
}

/// One input line of a batch, parsed: the call, or why the line is bad.
fn batch_call(text: &str, pairs: bool, method: Method) -> anyhow::Result<Call> {
    if pairs {
        let mut words = text.split_whitespace();
        let (Some(p), Some(s), None) = (words.next(), words.next(), words.next()) else {
            bail!("expected `PUZZLE SOLUTION` (two words)");
        };
        let puzzle = parse_grid_bytes(p).map_err(|e| anyhow!("puzzle: {e}"))?;
        let solution = parse_grid_bytes(s).map_err(|e| anyhow!("solution: {e}"))?;
        return Ok(Call::solution_of(&puzzle, &solution));
    }
    Ok(Call::grid(method, &parse_grid_bytes(text)?))
}

/// Whether the contract answers `call` with a verdict (so it may share an
/// atomic group), as the mirror predicts: it fails only on wrong lengths.
fn answers(call: &Call) -> bool {
    match call.method {
        Method::SolutionOf => algoku_avm::solution_of(&call.args[0], &call.args[1]).is_ok(),
        _ => algoku_avm::lanes(&call.args[0]).is_ok(),
    }
}

/// `verify --file` / `--puzzle-file`: every line against one app, in input
/// order; one-call methods go 16 to an atomic group.
fn verify_file(
    path: &std::path::Path,
    pairs: bool,
    args: &VerifyArgs,
    global: &Global,
    out: &mut Out,
) -> anyhow::Result<ExitCode> {
    let text = Source::File(path.to_path_buf()).read_text()?;
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
        .collect();
    if lines.is_empty() {
        bail!(
            "file {}: no input lines (only empty or '#' lines)",
            path.display()
        );
    }
    // Batch "auto" is the one-call method: 1 000 µALGO a grid, the cheapest
    // (the single-grid auto prices both; classic needs 3 000).
    let method = grid_method(args.method).unwrap_or(Method::Lanes);
    let parsed: Vec<(usize, anyhow::Result<Call>)> = lines
        .iter()
        .map(|&(n, l)| (n, batch_call(l, pairs, method)))
        .collect();
    let started = std::time::Instant::now();
    if parsed.iter().all(|(_, c)| c.is_err()) {
        // Nothing to ask: no chain is touched, nothing is deployed or paid.
        for (line, call) in &parsed {
            if let Err(e) = call {
                let value = json!({"line": line, "error": format!("{e:#}")});
                if global.json {
                    out.json(&value)?;
                } else {
                    out.line(batch_text(&value))?;
                }
            }
        }
        let n = parsed.len();
        if global.json {
            out.json(&json!({"summary": {"backend": null, "lines": n, "valid": 0, "invalid": 0, "errors": n, "fee": 0}}))?;
        } else {
            eprintln!("{n} lines: 0 valid, 0 invalid, {n} errors; no chain was used");
        }
        return Ok(ExitCode::from(1));
    }
    runtime()?.block_on(async {
        let mut algoku = connect(&args.net, global).await?;
        let (app_id, setup) = ensure_app(&mut algoku, global, args.simulate_only).await?;
        let progress = Progress::new(parsed.len() as u64, "verifying", global);
        let (mut valid, mut invalid, mut errors, mut fee, mut n) = (0u64, 0u64, 0u64, 0u64, 0u64);
        // 256 lines at a time, printed as they are answered: an interrupted run
        // keeps every verdict (and txid) already obtained.
        for window in (0..parsed.len()).step_by(256).map(|a| a..(a + 256).min(parsed.len())) {
            // Calls that answer with a verdict go in groups; the others one by one.
            let grouped: Vec<(usize, Call)> = window
                .clone()
                .filter_map(|k| parsed[k].1.as_ref().ok().filter(|c| c.method != Method::Classic && answers(c)).map(|c| (k, c.clone())))
                .collect();
            let mut results: Vec<Option<Value>> = vec![None; window.len()];
            for chunk in grouped.chunks(algoku_client::algoku::MAX_GROUP as usize) {
                let calls: Vec<Call> = chunk.iter().map(|(_, c)| c.clone()).collect();
                let answers = algoku.verify_many(&calls, args.simulate_only).await?;
                for ((k, call), a) in chunk.iter().zip(answers) {
                    results[*k - window.start] = Some(batch_json(parsed[*k].0, call.method, &a.verdict, a.fee, a.txid.as_deref()));
                }
                progress.inc_by(chunk.len() as u64);
            }
            for k in window.clone() {
                let (line, call) = &parsed[k];
                let value = match (results[k - window.start].take(), call) {
                    (Some(v), _) => v,
                    (None, Err(e)) => json!({"line": line, "error": format!("{e:#}")}),
                    (None, Ok(call)) => {
                        progress.inc();
                        match algoku.verify_call(call, args.simulate_only).await {
                            Ok(v) => batch_json(*line, call.method, &v.verdict, v.fee, v.txids.last().map(String::as_str)),
                            Err(e) => json!({"line": line, "error": e.to_string()}),
                        }
                    }
                };
                n += 1;
                fee += value["fee"].as_u64().unwrap_or(0);
                match value["valid"].as_bool() {
                    Some(true) => valid += 1,
                    Some(false) => invalid += 1,
                    None => errors += 1,
                }
                progress.suspend(|| {
                    if global.json {
                        out.json(&value)
                    } else {
                        out.line(batch_text(&value))
                    }
                })?;
            }
        }
        progress.finish();
        let seconds = started.elapsed().as_secs_f64();
        let mut summary = backend_json(&algoku);
        summary["app_id"] = json!(app_id);
        summary["lines"] = json!(n);
        summary["valid"] = json!(valid);
        summary["invalid"] = json!(invalid);
        summary["errors"] = json!(errors);
        summary["fee"] = json!(fee);
        summary["simulated_only"] = json!(args.simulate_only);
        summary["seconds"] = json!((seconds * 1000.0).round() / 1000.0);
        summary["per_second"] = json!(((n as f64 / seconds) * 10.0).round() / 10.0);
        if let Some(s) = setup {
            summary["setup"] = json!(s);
        }
        if global.json {
            out.json(&json!({ "summary": summary }))?;
        } else {
            eprintln!(
                "{n} lines: {valid} valid, {invalid} invalid, {errors} errors; fee {fee} µALGO; {:.1} s ({:.1}/s) on {}",
                seconds,
                n as f64 / seconds,
                algoku.chain.kind()
            );
        }
        Ok(if valid == n { ExitCode::SUCCESS } else { ExitCode::from(1) })
    })
}

/// One batch result as JSON: `valid` or `error`, with method and fee.
fn batch_json(
    line: usize,
    method: Method,
    verdict: &Verdict,
    fee: u64,
    txid: Option<&str>,
) -> Value {
    let mut v = json!({"line": line, "method": method.name(), "fee": fee});
    match verdict {
        Verdict::Valid(b) => v["valid"] = json!(b),
        Verdict::Rejected { message, .. } => {
            v["error"] = json!(format!("rejected by the contract: {message}"))
        }
    }
    if let Some(t) = txid {
        v["txid"] = json!(t);
    }
    v
}

/// One batch result as a text line: `LINE true|false|error: …`.
fn batch_text(v: &Value) -> String {
    let line = v["line"].as_u64().unwrap_or(0);
    match v["valid"].as_bool() {
        Some(b) => format!("{line} {b}"),
        None => format!("{line} error: {}", v["error"].as_str().unwrap_or("?")),
    }
}

pub fn demo(args: &DemoArgs, global: &Global, out: &mut Out) -> anyhow::Result<ExitCode> {
    use algoku_sudoku::generator::{generate_puzzle, PuzzleOptions};
    runtime()?.block_on(async {
        let mut algoku = connect(&args.net, global).await?;
        let (app_id, _) = ensure_app(&mut algoku, global, false).await?;
        let min_fee = algoku.chain.min_fee();
        let puzzle = generate_puzzle(&PuzzleOptions { seed: args.seed, minimal: true, ..Default::default() });
        let solution = algoku_sudoku::solver::solve(&puzzle.puzzle).context("the generated puzzle has no solution")?;
        let mut bad = *solution.cells();
        bad[40] = bad[40] % 9 + 1;
        if !global.json {
            out.line(format!("1. generated puzzle (seed {}, {} clues, {}):\n{}", args.seed, puzzle.clues, crate::generate::rating_words(&algoku_rate::rate(&puzzle.puzzle)), puzzle.puzzle.pretty()))?;
            out.line(format!("2. solved it:\n{}", solution.pretty()))?;
            out.line("3. verified the solution on chain (the cheapest method, priced by simulation):")?;
        }
        let good = algoku.verify_auto(solution.cells(), false).await?;
        if !global.json {
            print_verification(out, &good, min_fee)?;
            out.line("4. the solution against the puzzle's givens (is_solution_of):")?;
        }
        let bound = algoku.verify_call(&Call::solution_of(puzzle.puzzle.cells(), solution.cells()), false).await?;
        if !global.json {
            print_verification(out, &bound, min_fee)?;
            out.line(format!("5. changed cell r5c5 from {} to {} and verified again:", solution.cells()[40], bad[40]))?;
        }
        let wrong = algoku.verify_auto(&bad, false).await?;
        if !global.json {
            print_verification(out, &wrong, min_fee)?;
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
            v["solution_check"] = verification_json(&good, &algoku, app_id);
            v["puzzle_check"] = verification_json(&bound, &algoku, app_id);
            v["changed_check"] = verification_json(&wrong, &algoku, app_id);
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
