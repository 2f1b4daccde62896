//! `algoku deploy`, `algoku verify`, `algoku demo`: the commands that talk to a chain.
//!
//! Each says which backend it used (LocalNet/algod, or the embedded go-algorand
//! evaluator), and with `--json` prints one object with at least `valid` or `error`.

use crate::check::parse_grid_bytes;
use crate::input::{read_single, Source};
use crate::Global;
use algoku_client::{Algoku, Chain, Network, Settings, Strategy, Verdict, Verification};
use anyhow::Context;
use serde_json::{json, Value};
use std::process::ExitCode;

/// Network selection shared by the chain commands.
#[derive(clap::Args, Debug, Clone)]
pub struct NetworkArgs {
    /// auto: a configured or answering algod (ALGOD_SERVER/ALGOD_PORT, else LocalNet), else embedded.
    #[arg(long, default_value = "auto", value_parser = ["auto", "localnet", "testnet", "embedded"])]
    pub network: String,
    /// Use this app id instead of deploying (or reusing) one.
    #[arg(long)]
    pub app_id: Option<u64>,
}

/// Arguments of `algoku deploy`.
#[derive(clap::Args, Debug)]
pub struct DeployArgs {
    #[command(flatten)]
    pub net: NetworkArgs,
}

/// Arguments of `algoku verify`.
#[derive(clap::Args, Debug)]
pub struct VerifyArgs {
    /// 81 digits, or 0x + hex for arbitrary bytes; `-` or nothing reads stdin.
    pub grid: Option<String>,
    /// Read the grid from a file.
    #[arg(long)]
    pub file: Option<std::path::PathBuf>,
    /// Only simulate: the verdict with no transaction sent and no fee.
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

fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")
}

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
        algoku.use_app(id);
    }
    Ok(algoku)
}

async fn ensure_app(
    algoku: &mut Algoku,
    net: &NetworkArgs,
    global: &Global,
) -> anyhow::Result<u64> {
    if let Some(id) = net.app_id {
        return Ok(id);
    }
    let d = algoku.deploy().await?;
    if !global.json {
        if d.reused {
            eprintln!("app: {} (reused)", d.app_id);
        } else {
            eprintln!(
                "app: {} (created, txid {}, fee {} µALGO)",
                d.app_id,
                d.txid.clone().unwrap_or_default(),
                d.fee
            );
        }
    }
    Ok(d.app_id)
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

fn verification_json(v: &Verification, backend: &str, app_id: u64, min_fee: u64) -> Value {
    let mut out = json!({
        "backend": backend,
        "app_id": app_id,
        "strategy": strategy_json(&v.strategy),
        "alternative": strategy_json(&v.alternative),
        "alternative_fee": v.alternative.map(|a| a.fee(min_fee)),
        "fee": v.fee,
        "budget_consumed": v.budget_consumed,
        "budget_pooled": v.budget_pooled,
        "txids": v.txids,
        "confirmed_round": v.confirmed_round,
        "simulated_only": v.simulated_only,
    });
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

fn print_verification(v: &Verification, min_fee: u64) {
    match &v.verdict {
        Verdict::Valid(b) => println!("{b}"),
        Verdict::Rejected { message, avm, pc } => {
            println!(
                "rejected: {message} ({avm}{})",
                pc.map(|p| format!(", pc {p}")).unwrap_or_default()
            );
            return;
        }
    }
    if let Some(s) = v.strategy {
        let paid = if v.simulated_only {
            "would cost".to_string()
        } else {
            "paid".to_string()
        };
        eprintln!("group: {}; {paid} {} µALGO", s.describe(), s.fee(min_fee));
    }
    if let Some(a) = v.alternative {
        eprintln!(
            "  (alternative: {}, {} µALGO)",
            a.describe(),
            a.fee(min_fee)
        );
    }
    if let (Some(c), Some(p)) = (v.budget_consumed, v.budget_pooled) {
        eprintln!("budget: {c} of {p} opcodes pooled");
    }
    if !v.txids.is_empty() {
        eprintln!("txids: {}", v.txids.join(" "));
    }
}

pub fn deploy(args: &DeployArgs, global: &Global) -> anyhow::Result<ExitCode> {
    runtime()?.block_on(async {
        let mut algoku = connect(&args.net, global).await?;
        let d = algoku.deploy().await?;
        if global.json {
            println!(
                "{}",
                json!({"backend": algoku.chain.kind(), "app_id": d.app_id, "reused": d.reused, "txid": d.txid, "fee": d.fee,
                       "creator": algoku.chain.address().to_string()})
            );
        } else {
            println!("{}", d.app_id);
            eprintln!("{} app {} on {}", if d.reused { "reused" } else { "created" }, d.app_id, algoku.chain.describe());
        }
        Ok(ExitCode::SUCCESS)
    })
}

pub fn verify(args: &VerifyArgs, global: &Global) -> anyhow::Result<ExitCode> {
    let source = Source::resolve(args.grid.as_deref(), args.file.as_deref(), "grid")?;
    let grid = parse_grid_bytes(&read_single(&source, "grid")?)?;
    runtime()?.block_on(async {
        let mut algoku = connect(&args.net, global).await?;
        let app_id = ensure_app(&mut algoku, &args.net, global).await?;
        let v = algoku.verify(&grid, args.simulate_only).await?;
        let min_fee = algoku.chain.min_fee();
        if global.json {
            println!(
                "{}",
                verification_json(&v, algoku.chain.kind(), app_id, min_fee)
            );
        } else {
            print_verification(&v, min_fee);
        }
        Ok(match v.verdict {
            Verdict::Valid(true) => ExitCode::SUCCESS,
            _ => ExitCode::from(1),
        })
    })
}

pub fn demo(args: &DemoArgs, global: &Global) -> anyhow::Result<ExitCode> {
    use algoku_sudoku::generator::{generate_puzzle, PuzzleOptions};
    runtime()?.block_on(async {
        let mut algoku = connect(&args.net, global).await?;
        let app_id = ensure_app(&mut algoku, &args.net, global).await?;
        let min_fee = algoku.chain.min_fee();
        let say = |s: String| {
            if !global.json {
                println!("{s}");
            }
        };
        let puzzle = generate_puzzle(&PuzzleOptions { seed: args.seed, minimal: true, ..Default::default() });
        say(format!("1. generated puzzle (seed {}, {} clues, {:?}):\n{}", args.seed, puzzle.clues, puzzle.grade, puzzle.puzzle.pretty()));
        let solution = algoku_sudoku::solver::solve(&puzzle.puzzle).context("the generated puzzle has no solution")?;
        say(format!("2. solved it:\n{}", solution.pretty()));
        let good = algoku.verify(solution.cells(), false).await?;
        say("3. verified the solution on chain:".into());
        if !global.json {
            print_verification(&good, min_fee);
        }
        let mut bad = *solution.cells();
        bad[40] = bad[40] % 9 + 1;
        say(format!("4. changed cell r5c5 from {} to {} and verified again:", solution.cells()[40], bad[40]));
        let wrong = algoku.verify(&bad, false).await?;
        if !global.json {
            print_verification(&wrong, min_fee);
        }
        let ok = good.verdict == Verdict::Valid(true) && wrong.verdict == Verdict::Valid(false);
        if global.json {
            println!(
                "{}",
                json!({
                    "backend": algoku.chain.kind(), "app_id": app_id, "seed": args.seed,
                    "puzzle": puzzle.puzzle.to_string(), "solution": solution.to_string(),
                    "valid": ok,
                    "solution_check": verification_json(&good, algoku.chain.kind(), app_id, min_fee),
                    "changed_check": verification_json(&wrong, algoku.chain.kind(), app_id, min_fee),
                })
            );
        } else {
            say(if ok { "demo: the chain accepted the solution and rejected the change".into() } else { "demo: UNEXPECTED verdicts".into() });
        }
        Ok(if ok { ExitCode::SUCCESS } else { ExitCode::from(1) })
    })
}
