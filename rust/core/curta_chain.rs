//! `algoku curta generate|verify --network …` and `curta play`: the Curta app
//! on a chain (smart_contracts/curta/contract.py through `algoku_client::curta`).
//!
//! `generate` and `verify` are read-only: every call is simulated (algod's
//! simulate, or a dry run on the embedded evaluator), nothing is sent or
//! spent. Inputs are checked and parsed natively first (a bad line is an error
//! on its own line; the chain is not asked), then sent in groups in input
//! order, and each answer is compared with the native one (`rust/curta`): a
//! disagreement is reported on its line, counted in the summary, and makes
//! the exit status 1. The app is the one given by `--app-id` (its program
//! checked byte for byte), else this account's existing Curta app, else one
//! created: on the embedded evaluator's in-process ledger freely, on an algod
//! only with `--deploy` (that spends, and says so).

use std::process::ExitCode;

use algoku_client::curta::{Curta, Measured, PlayStatus, BOX_MBR};
use algoku_client::{Chain, Network, Settings};
use algoku_curta::{generate, is_valid_solution, parse_address, verify, Board};
use anyhow::{anyhow, bail, Context, Result};
use serde_json::{json, Value};

use crate::input::{records, Source, MAX_LINE};
use crate::output::{verdict, Out};
use crate::progress::Progress;
use crate::Global;

/// `generate` inputs: (line number, text, the seed or why the line is not one).
pub type SeedLines = Vec<(usize, String, Result<Vec<u8>, String>)>;
/// `verify` inputs: (line number, the pair or why the line is not one).
pub type PairLines = Vec<(usize, Result<(Board, Board), String>)>;

/// Where to ask, shared by `curta generate` and `curta verify`.
#[derive(clap::Args, Debug, Clone)]
pub struct ChainArgs {
    /// Ask the Curta app on this network (simulated: nothing is sent) instead of the native code.
    #[arg(long, value_parser = ["auto", "localnet", "testnet", "embedded"])]
    pub network: Option<String>,
    /// The app to ask (its approval program must be the committed Curta artifact).
    #[arg(long, requires = "network")]
    pub app_id: Option<u64>,
    /// On an algod, create the app when this account has none (spends 2 000 µALGO in fees
    /// and 100 000 µALGO to the app account); the embedded evaluator never needs it.
    #[arg(long, requires = "network")]
    pub deploy: bool,
}

fn runtime() -> Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")
}

async fn connect(network: &str, global: &Global) -> Result<Curta> {
    let network: Network = network.parse().map_err(anyhow::Error::msg)?;
    let chain = Chain::connect(network, &Settings::from_env()).await?;
    if !global.json {
        eprintln!("backend: {}", chain.describe());
    }
    Ok(Curta::new(chain)?)
}

/// The app to ask: `--app-id` (checked), this account's Curta app, or a new
/// one (embedded: always; algod: with `--deploy`). Returns the id and, when it
/// was created, what that cost.
async fn app(
    curta: &mut Curta,
    args: &ChainArgs,
    global: &Global,
) -> Result<(u64, Option<String>)> {
    if let Some(id) = args.app_id {
        curta.use_checked_app(id).await?;
        return Ok((id, None));
    }
    let existing = curta.chain.created_apps_with(&curta.spec.approval).await?;
    if let Some(&id) = existing.iter().max() {
        curta.use_checked_app(id).await?;
        return Ok((id, None));
    }
    let embedded = curta.chain.kind() == "embedded";
    if !embedded && !args.deploy {
        bail!(
            "{} has no Curta app on this {} network: give --app-id, or --deploy to create one \
             (spends 2 000 µALGO in fees and 100 000 µALGO to the app account)",
            curta.chain.address(),
            curta.chain.kind()
        );
    }
    let (id, _) = curta.deploy().await?;
    let note = if embedded {
        format!(
            "app {id} created on the embedded evaluator's in-process ledger (discarded at exit; \
             nothing was sent to any network)"
        )
    } else {
        format!(
            "app {id} created and funded: 2 000 µALGO fees and 100 000 µALGO sent to its account"
        )
    };
    if !global.json {
        eprintln!("{note}");
    }
    Ok((id, Some(note)))
}

/// One input of a batch: its line number and what it parsed to.
struct Item<T> {
    line: usize,
    text: String,
    parsed: Result<T, String>,
}

fn read_items<T>(
    path: &std::path::Path,
    parse: impl Fn(&str) -> Result<T, String>,
) -> Result<Vec<Item<T>>> {
    let text = Source::File(path.to_path_buf()).read_text()?;
    let items: Vec<Item<T>> = records(&text, MAX_LINE)
        .into_iter()
        .map(|l| Item {
            line: l.number,
            parsed: parse(&l.text),
            text: l.text,
        })
        .collect();
    if items.is_empty() {
        bail!(
            "file {}: no input lines (only empty or '#' lines)",
            path.display()
        );
    }
    Ok(items)
}

/// Parses `START SOLUTION` (two hex words).
pub fn parse_pair(text: &str) -> Result<(Board, Board), String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let [start, solution] = words[..] else {
        return Err(format!(
            "expected START SOLUTION (two hex words), found {} word(s)",
            words.len()
        ));
    };
    let start = Board::from_hex(start).map_err(|e| format!("start: {e}"))?;
    let solution = Board::from_hex(solution).map_err(|e| format!("solution: {e}"))?;
    Ok((start, solution))
}

/// What the chain answered for one input, next to the native answer.
struct Answered {
    value: Value,
    ok: bool,
    agrees: bool,
    fee: u64,
}

/// The JSON of one chain answer: `key` = the answer, plus fee, budget and the
/// native comparison (`native_…` is added only when they differ).
fn answered<T: PartialEq + Copy>(
    line: usize,
    m: &Measured<T>,
    native: T,
    key: &str,
    show: impl Fn(T) -> Value,
) -> Answered {
    match &m.value {
        Ok(v) => {
            let agrees = *v == native;
            let mut value = json!({"line": line, key: show(*v), "fee": m.fee, "budget": m.budget, "agrees_native": agrees});
            if !agrees {
                value[format!("native_{key}")] = show(native);
            }
            Answered {
                value,
                ok: true,
                agrees,
                fee: m.fee,
            }
        }
        Err(e) => Answered {
            value: json!({"line": line, "error": format!("the app refused the call: {e}")}),
            ok: false,
            agrees: true,
            fee: 0,
        },
    }
}

/// Totals of a chain batch.
#[derive(Default)]
struct Totals {
    lines: u64,
    errors: u64,
    disagreements: u64,
    fee: u64,
    /// `verify`: answers true.
    valid: u64,
}

/// Runs `curta generate --network`: `addresses` are (line, text, seed bytes).
pub fn generate_on_chain(
    items: SeedLines,
    batch: bool,
    args: &ChainArgs,
    global: &Global,
    out: &mut Out,
) -> Result<ExitCode> {
    let network = args.network.as_deref().expect("--network given");
    runtime()?.block_on(async {
        let mut curta = connect(network, global).await?;
        let (app_id, setup) = app(&mut curta, args, global).await?;
        let started = std::time::Instant::now();
        let seeds: Vec<Vec<u8>> = items
            .iter()
            .filter_map(|(_, _, p)| p.as_ref().ok().cloned())
            .collect();
        let progress = Progress::new(seeds.len() as u64, "generating on chain", global);
        let answers = curta
            .generate_measured(&seeds, |n| progress.inc_by(n as u64))
            .await?;
        progress.finish();
        let mut answers = answers.into_iter();
        let mut t = Totals::default();
        for (line, text, parsed) in &items {
            t.lines += 1;
            let mut value = match parsed {
                Err(e) => {
                    t.errors += 1;
                    json!({"line": line, "error": e})
                }
                Ok(seed) => {
                    let m = answers.next().expect("one answer per seed");
                    let native = generate(seed).0.to_be_bytes();
                    let a = answered(*line, &m, native, "start", |b| json!(hex::encode(b)));
                    t.fee += a.fee;
                    t.errors += u64::from(!a.ok);
                    t.disagreements += u64::from(!a.agrees);
                    a.value
                }
            };
            value["address"] = json!(text);
            emit(
                out,
                global,
                batch,
                (&curta, app_id, setup.as_deref()),
                value,
                |v| {
                    v["start"].as_str().map(|s| {
                        format!(
                            "{s} budget {} fee {}",
                            v["budget"],
                            v["fee"].as_u64().unwrap_or(0)
                        )
                    })
                },
            )?;
        }
        summary(
            out, global, batch, &curta, app_id, setup, &t, started, "generate",
        )?;
        Ok(verdict(t.errors == 0 && t.disagreements == 0))
    })
}

/// Runs `curta verify --network`.
pub fn verify_on_chain(
    items: PairLines,
    batch: bool,
    args: &ChainArgs,
    global: &Global,
    out: &mut Out,
) -> Result<ExitCode> {
    let network = args.network.as_deref().expect("--network given");
    runtime()?.block_on(async {
        let mut curta = connect(network, global).await?;
        let (app_id, setup) = app(&mut curta, args, global).await?;
        let started = std::time::Instant::now();
        let pairs: Vec<([u8; 32], [u8; 32])> = items
            .iter()
            .filter_map(|(_, p)| p.as_ref().ok())
            .map(|(s, x)| (s.0.to_be_bytes(), x.0.to_be_bytes()))
            .collect();
        let progress = Progress::new(pairs.len() as u64, "verifying on chain", global);
        let answers = curta
            .verify_measured(&pairs, |n| progress.inc_by(n as u64))
            .await?;
        progress.finish();
        let mut answers = answers.into_iter();
        let mut t = Totals::default();
        for (line, parsed) in &items {
            t.lines += 1;
            let value = match parsed {
                Err(e) => {
                    t.errors += 1;
                    json!({"line": line, "error": e})
                }
                Ok((start, solution)) => {
                    let m = answers.next().expect("one answer per pair");
                    let native = verify(start, solution);
                    let a = answered(*line, &m, native, "valid", |b| json!(b));
                    t.fee += a.fee;
                    t.errors += u64::from(!a.ok);
                    t.disagreements += u64::from(!a.agrees);
                    let mut value = a.value;
                    if value["valid"] == false {
                        value["reason"] = json!(match is_valid_solution(start, solution) {
                            Err(v) => v.to_string(),
                            Ok(()) => "rejected by the contract's check".to_string(),
                        });
                    }
                    t.valid += u64::from(value["valid"] == true);
                    value
                }
            };
            emit(
                out,
                global,
                batch,
                (&curta, app_id, setup.as_deref()),
                value,
                |v| {
                    v["valid"].as_bool().map(|b| {
                        let reason = v["reason"]
                            .as_str()
                            .map(|r| format!(" reason: {r}"))
                            .unwrap_or_default();
                        format!(
                            "{b} budget {} fee {}{reason}",
                            v["budget"],
                            v["fee"].as_u64().unwrap_or(0)
                        )
                    })
                },
            )?;
        }
        summary(
            out, global, batch, &curta, app_id, setup, &t, started, "verify",
        )?;
        Ok(verdict(
            t.errors == 0 && t.disagreements == 0 && t.valid == t.lines,
        ))
    })
}

/// Prints one answer: JSON as is (a single answer also names backend and
/// app); text as `text(v)`, prefixed with the line number in a batch, or
/// `line N: error: …`.
fn emit(
    out: &mut Out,
    global: &Global,
    batch: bool,
    (curta, app_id, setup): (&Curta, u64, Option<&str>),
    mut value: Value,
    text: impl Fn(&Value) -> Option<String>,
) -> Result<()> {
    if value["agrees_native"] == false {
        eprintln!(
            "line {}: the app and the native code disagree: {value}",
            value["line"]
        );
    }
    if global.json {
        if !batch {
            value["backend"] = json!(curta.chain.kind());
            value["backend_notes"] = json!(curta.chain.notes);
            value["app_id"] = json!(app_id);
            if let Some(s) = setup {
                value["setup"] = json!(s);
            }
        }
        out.json(&value)?;
        return Ok(());
    }
    let body = match text(&value) {
        Some(t) => t,
        None if !batch => {
            bail!(
                "{}",
                value["error"].as_str().unwrap_or("the app did not answer")
            )
        }
        None => format!("error: {}", value["error"].as_str().unwrap_or("")),
    };
    if batch {
        out.line(format_args!("{} {body}", value["line"]))?;
    } else {
        out.line(body)?;
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn summary(
    out: &mut Out,
    global: &Global,
    batch: bool,
    curta: &Curta,
    app_id: u64,
    setup: Option<String>,
    t: &Totals,
    started: std::time::Instant,
    method: &str,
) -> Result<()> {
    if !batch {
        return Ok(());
    }
    let seconds = started.elapsed().as_secs_f64();
    let mut s = json!({
        "backend": curta.chain.kind(), "backend_notes": curta.chain.notes, "app_id": app_id,
        "method": method, "lines": t.lines, "errors": t.errors, "disagreements": t.disagreements,
        "fee": t.fee, "simulated": true, "spent": 0,
        "seconds": (seconds * 1000.0).round() / 1000.0,
    });
    if method == "verify" {
        s["valid"] = json!(t.valid);
        s["invalid"] = json!(t.lines - t.valid - t.errors);
    }
    if let Some(setup) = setup {
        s["setup"] = json!(setup);
    }
    if global.json {
        out.json(&json!({ "summary": s }))?;
    } else {
        eprintln!(
            "{} lines: {} errors, {} disagreements with the native code; {} µALGO in fees if \
             each were sent alone (simulated: nothing spent); {:.1} s on {} (app {app_id})",
            t.lines,
            t.errors,
            t.disagreements,
            t.fee,
            seconds,
            curta.chain.kind()
        );
    }
    Ok(())
}

/// `curta generate --file` without `--network`: one answer per line, natively.
pub fn generate_native_batch(items: SeedLines, global: &Global, out: &mut Out) -> Result<ExitCode> {
    let mut errors = 0u64;
    let n = items.len();
    for (line, text, parsed) in items {
        let value = match parsed {
            Err(e) => {
                errors += 1;
                json!({"line": line, "address": text, "error": e})
            }
            Ok(seed) => {
                let start = generate(&seed);
                json!({"line": line, "address": text, "start": start.to_hex(), "givens": start.givens()})
            }
        };
        if global.json {
            out.json(&value)?;
        } else if let Some(s) = value["start"].as_str() {
            out.line(format_args!("{line} {s}"))?;
        } else {
            out.line(format_args!(
                "{line} error: {}",
                value["error"].as_str().unwrap_or("")
            ))?;
        }
    }
    if global.json {
        out.json(&json!({"summary": {"backend": "native", "lines": n, "errors": errors}}))?;
    }
    Ok(verdict(errors == 0))
}

/// `curta verify --file` without `--network`.
pub fn verify_native_batch(items: PairLines, global: &Global, out: &mut Out) -> Result<ExitCode> {
    let (mut valid, mut errors) = (0u64, 0u64);
    let n = items.len() as u64;
    for (line, parsed) in items {
        let value = match parsed {
            Err(e) => {
                errors += 1;
                json!({"line": line, "error": e})
            }
            Ok((start, solution)) => {
                let ok = verify(&start, &solution);
                valid += u64::from(ok);
                let mut v = json!({"line": line, "valid": ok});
                if !ok {
                    v["reason"] = json!(match is_valid_solution(&start, &solution) {
                        Err(v) => v.to_string(),
                        Ok(()) => "rejected by the contract's check".to_string(),
                    });
                }
                v
            }
        };
        if global.json {
            out.json(&value)?;
        } else if let Some(b) = value["valid"].as_bool() {
            let reason = value["reason"]
                .as_str()
                .map(|r| format!(" reason: {r}"))
                .unwrap_or_default();
            out.line(format_args!("{line} {b}{reason}"))?;
        } else {
            out.line(format_args!(
                "{line} error: {}",
                value["error"].as_str().unwrap_or("")
            ))?;
        }
    }
    if global.json {
        out.json(&json!({"summary": {"backend": "native", "lines": n, "valid": valid, "invalid": n - valid - errors, "errors": errors}}))?;
    }
    Ok(verdict(errors == 0 && valid == n))
}

/// Reads `--file` for `generate`: one address (seed) per line.
pub fn generate_items(path: &std::path::Path) -> Result<SeedLines> {
    Ok(read_items(path, |t| {
        parse_address(t).map_err(|e| format!("address: {e}"))
    })?
    .into_iter()
    .map(|i| (i.line, i.text, i.parsed))
    .collect())
}

/// Reads `--file` for `verify`: `START SOLUTION` per line.
pub fn verify_items(path: &std::path::Path) -> Result<PairLines> {
    Ok(read_items(path, parse_pair)?
        .into_iter()
        .map(|i| (i.line, i.parsed))
        .collect())
}

/// `curta play`: the game for the signing account.
pub fn play(
    network: &str,
    app_id: Option<u64>,
    solution: Option<&str>,
    force: bool,
    global: &Global,
    out: &mut Out,
) -> Result<ExitCode> {
    let solution = solution
        .map(|s| {
            Board::from_hex(s)
                .map(|b| b.0.to_be_bytes())
                .map_err(|e| anyhow!("solution: {e}"))
        })
        .transpose()?;
    runtime()?.block_on(async {
        let mut curta = connect(network, global).await?;
        let app_id = match app_id {
            Some(id) => {
                curta.use_checked_app(id).await?;
                id
            }
            None => curta.deploy().await?.0,
        };
        let me = curta.chain.address();
        let p = curta.play(solution, force).await?;
        let status = p.status.as_str();
        if global.json {
            out.json(&json!({
                "status": status, "backend": curta.chain.kind(), "app_id": app_id,
                "address": me.to_string(), "start": hex::encode(p.start),
                "round": p.record.as_ref().map(|r| r.round),
                "solution": p.record.as_ref().map(|r| hex::encode(r.solution)),
                "fee": p.fee, "paid": p.paid, "txids": p.txids,
            }))?;
        } else {
            out.line(format!("{status}: app {app_id}, player {me}"))?;
            out.line(format!("start    {}", hex::encode(p.start)))?;
            if let Some(r) = &p.record {
                out.line(format!("solution {}", hex::encode(r.solution)))?;
                out.line(format!("round    {}", r.round))?;
            }
            out.line(format!(
                "spent    {} µALGO fees + {} µALGO box payment{}",
                p.fee,
                p.paid,
                if p.status == PlayStatus::AlreadySolved {
                    " (nothing sent: this account's solve is recorded)"
                } else {
                    ""
                }
            ))?;
        }
        debug_assert!(p.paid == 0 || p.paid == BOX_MBR);
        Ok(match p.status {
            PlayStatus::Solved | PlayStatus::AlreadySolved => ExitCode::SUCCESS,
            PlayStatus::Unsolvable | PlayStatus::Rejected => ExitCode::from(1),
        })
    })
}
