//! `algoku verify --file` / `--puzzle-file`: a batch of verifications that
//! always ends with one output line per input line and a summary.
//!
//! The algorithm:
//!
//! 1. Every line is parsed natively first. A line that is not a grid (or not
//!    `PUZZLE SOLUTION`) is an error on its own line; when no line is a
//!    question, no chain is touched.
//! 2. Connect, find the app without creating it, and price the whole file:
//!    one min fee for each line that goes in a group, a classic call's price
//!    (simulated on a reference grid, or 3 min fees before the app exists)
//!    for each line asked alone, nothing for lines the contract rejects
//!    outright (the mirror predicts them), plus the app's creation (its fee
//!    and the rise of the creator's minimum balance) when there is no app
//!    yet. On an algod, when the account holds less than its minimum balance
//!    plus that, the batch stops before sending anything and says how much is
//!    missing. `--simulate-only` prices the file the same way and sends
//!    nothing; the summary carries the price either way (`cost`).
//! 3. Lines go a window at a time, in input order: those the contract
//!    answers with a verdict in atomic groups of 16 calls (`Algoku::verify_batch`;
//!    on the embedded evaluator 16 groups in one block), the others one by one;
//!    each window is printed and flushed as soon as it is answered, and the
//!    first window is a single group, so the first lines come out at once.
//!    Grid files use `are_valid_solutions` by default (`--method auto`): 14
//!    grids a call, 1 000 µALGO a call. Auto prices each method by simulating
//!    one call of it and picks, for each window, the cheapest for that
//!    window's grids (`--method batch|lanes|classic` forces one).
//!    A first SIGINT (Ctrl-C), SIGTERM or SIGHUP lets the window being asked
//!    finish (its fees are paid), prints it, and stops the batch there
//!    (`stopped`: interrupted; `io::stop`); a second one exits at once.
//!    On the embedded evaluator the signing account is topped up in 10 ALGO
//!    steps as the groups need (play money on a ledger discarded at exit).
//! 4. An error that stops the batch (the account cannot pay, the node or the
//!    evaluator goes away, a timeout after the retries; see
//!    `ClientError::stops_batch`) ends the asking, not the output: the
//!    verdicts already obtained are printed, and every line not verified gets
//!    `{"line": N, "error": "not verified: the batch stopped: CAUSE",
//!    "not_attempted": true}`. A failure while connecting or deploying stops
//!    the batch the same way, before its first line.
//! 5. A line the contract answers `false` carries the mirror's reason
//!    (`"reason"`; in text `LINE false reason: …`): the first Sudoku rule the
//!    grid breaks, else the first puzzle given it changes.
//! 6. The summary counts `lines` = `verified` (`valid` + `invalid`) +
//!    `errors` (lines answered with an error of their own) + `not_attempted` +
//!    `unconfirmed` (lines of a group the node accepted but never confirmed:
//!    their fees, `fee_unconfirmed`, are possibly spent), and names the cause in
//!    `stopped` (null when the batch ran to the end).
//!
//! Exit status, the rule of every batch: 0 when every line is valid, 1 when
//! every line was answered and some is invalid, 2 when some line is an error
//! (or was sent and not seen confirmed) or the batch stopped.

use crate::engine::check::parse_grid_bytes;
use crate::io::input::Source;
use crate::io::output::Out;
use crate::io::progress::Progress;
use crate::io::report::{batch_exit, merge, Reporter};
use crate::io::stop::StopFlag;
use crate::net::runtime;
use crate::verify::app::{backend_json, call_grids, connect, ensure_app, reason};
use crate::verify::args::{grid_method, VerifyArgs};
use crate::verify::line::{Line, Outcome, Tally};
use crate::Global;
use algoku_avm::BATCH_MAX;
use algoku_client::chain::Funds;
use algoku_client::{Algoku, Call, Method, Verdict};
use anyhow::{anyhow, bail};
use serde_json::{json, Value};
use std::collections::HashSet;
use std::process::ExitCode;

/// Calls in an atomic group.
const GROUP: usize = 16;
/// A solved grid: what a classic call is priced on (a valid grid runs every check).
const REFERENCE_GRID: &str =
    "953168742862734951417952836746893125281645397395271468138529674574386219629417583";
/// App calls a classic verification takes, as measured (1 call and 2 inner
/// opups): its price before the app exists to simulate it.
const CLASSIC_CALLS: u64 = 3;

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

/// Whether `call` goes in an atomic group (a one-call method that answers).
fn grouped(call: &Call) -> bool {
    call.method != Method::Classic && answers(call)
}

/// One answered call's line: the verdict (with the mirror's reason for a
/// false) or the contract's refusal, with the method that answered and the fee.
fn answered(
    line: usize,
    call: &Call,
    method: Method,
    verdict: &Verdict,
    fee: u64,
    txid: Option<&str>,
) -> Line {
    let txid = txid.map(str::to_string);
    let outcome = match verdict {
        Verdict::Valid(valid) => {
            let (grid, puzzle) = call_grids(call);
            Outcome::Answered {
                method,
                fee,
                valid: *valid,
                reason: reason(verdict, grid, puzzle),
                txid,
            }
        }
        Verdict::Rejected { message, .. } => Outcome::Rejected {
            method,
            fee,
            message: message.clone(),
            txid,
        },
    };
    Line { line, outcome }
}

/// What the whole file costs and what the account holds.
struct Price {
    /// µALGO of fees for every line.
    fees: u64,
    /// µALGO the app's creation takes (0 when the app exists).
    deploy: u64,
    funds: Funds,
}

impl Price {
    /// µALGO the account lacks to pay for everything and keep its minimum balance.
    fn missing(&self) -> u64 {
        (self.funds.min_balance + self.deploy + self.fees).saturating_sub(self.funds.balance)
    }

    fn json(&self) -> Value {
        json!({
            "fees": self.fees,
            "deploy": self.deploy,
            "balance": self.funds.balance,
            "min_balance": self.funds.min_balance,
            "missing": self.missing(),
        })
    }
}

/// µALGO of fees of every line, planned exactly as the lines are sent: window by
/// window (each window packs its own grids, see [`windows`]), with the method
/// `choose` picks for a window's number of grids, at one min fee a call for
/// one-call methods and `classic` a line asked alone; then the lines asked alone.
fn planned_fees(plan: &Plan, choose: impl Fn(usize) -> Method) -> u64 {
    let grouped: u64 = plan
        .grouped
        .iter()
        .map(|&n| match choose(n as usize) {
            Method::Batch => n.div_ceil(BATCH_MAX as u64) * plan.min_fee,
            Method::Classic => n * plan.classic,
            _ => n * plan.min_fee,
        })
        .sum();
    grouped + plan.alone * plan.classic
}

/// What the fee plan of a file needs to know of it and of the chain.
struct Plan {
    /// The lines of each window that go in groups (they answer with a verdict).
    grouped: Vec<u64>,
    min_fee: u64,
    /// µALGO of a classic verification asked alone.
    classic: u64,
    /// The lines asked alone as classic verifications (forced classic lines that answer).
    alone: u64,
}

/// Prices the lines of `parsed` (see the module comment, step 2): the method
/// forced, else the batch method (never dearer than one call a grid at equal
/// call fees; [`Run::start`] re-plans with the simulated prices).
async fn price(
    algoku: &mut Algoku,
    parsed: &[(usize, anyhow::Result<Call>)],
    per_call: usize,
    forced: Option<Method>,
) -> anyhow::Result<(Price, Plan)> {
    let min_fee = algoku.app.chain.min_fee();
    let exists = match algoku.app.id() {
        Some(_) => true,
        None if algoku.app.chain.is_embedded() => false,
        None => {
            let mine = algoku.app.own_app().await?;
            if let Some(id) = mine {
                algoku.app.use_app(id);
            }
            mine.is_some()
        }
    };
    let alone = parsed
        .iter()
        .filter(|(_, c)| {
            c.as_ref()
                .is_ok_and(|c| c.method == Method::Classic && answers(c))
        })
        .count() as u64;
    let classic = match (alone > 0 || forced == Some(Method::Classic), exists) {
        (false, _) => 0,
        (true, true) => {
            let grid = parse_grid_bytes(REFERENCE_GRID)?;
            algoku
                .price_call(&Call::grid(Method::Classic, &grid))
                .await?
                .unwrap_or(CLASSIC_CALLS * min_fee)
        }
        (true, false) => CLASSIC_CALLS * min_fee,
    };
    let per_send = algoku.app.chain.groups_per_send();
    let plan = Plan {
        grouped: windows(parsed.len(), GROUP * per_call, per_send)
            .into_iter()
            .map(|w| {
                parsed[w]
                    .iter()
                    .filter(|(_, c)| c.as_ref().is_ok_and(grouped))
                    .count() as u64
            })
            .collect(),
        min_fee,
        classic,
        alone,
    };
    let default = if per_call > 1 {
        Method::Batch
    } else {
        Method::Lanes
    };
    let price = Price {
        fees: planned_fees(&plan, |_| forced.unwrap_or(default)),
        deploy: if exists { 0 } else { algoku.app.deploy_cost() },
        funds: algoku.app.chain.funds().await?,
    };
    Ok((price, plan))
}

/// Prices the file into `cost`, then (on an algod, when sending) checks the
/// account can pay for it, and finds or creates the app. Returns the app id
/// and the setup note.
async fn prepare(
    algoku: &mut Algoku,
    parsed: &[(usize, anyhow::Result<Call>)],
    per_call: usize,
    forced: Option<Method>,
    args: &VerifyArgs,
    global: &Global,
    cost: &mut Option<Value>,
) -> anyhow::Result<(u64, Option<String>, Price, Plan)> {
    let (price, plan) = price(algoku, parsed, per_call, forced).await?;
    *cost = Some(price.json());
    if !args.simulate_only && !algoku.app.chain.is_embedded() && price.missing() > 0 {
        bail!(
            "insufficient funds: {} holds {} µALGO, keeps a minimum balance of {} µALGO, and the \
             file needs {} µALGO in fees{}: {} µALGO missing; fund it and retry (nothing was sent)",
            algoku.app.chain.address(),
            price.funds.balance,
            price.funds.min_balance,
            price.fees,
            if price.deploy > 0 {
                format!(" plus {} µALGO to create the app", price.deploy)
            } else {
                String::new()
            },
            price.missing()
        );
    }
    let (app_id, note) = ensure_app(algoku, global, args.simulate_only).await?;
    let notes: Vec<String> = note
        .into_iter()
        .chain(algoku.app.chain.play_money_note())
        .collect();
    if !global.json {
        if let Some(n) = algoku.app.chain.play_money_note() {
            eprintln!("{n}");
        }
    }
    Ok((
        app_id,
        (!notes.is_empty()).then(|| notes.join("; ")),
        price,
        plan,
    ))
}

/// The windows of `lines` lines: one group's worth (`group` lines) first, so
/// the first lines come out at once, then `per_send` groups' worth (what one
/// send carries).
fn windows(lines: usize, group: usize, per_send: usize) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < lines {
        let size = if at == 0 {
            group
        } else {
            group * per_send.max(1)
        };
        out.push(at..(at + size).min(lines));
        at += size;
    }
    out
}

/// What one grid costs with each grid method, as simulated (`--method auto`).
struct MethodPrices {
    /// µALGO of one `are_valid_solutions` call (14 grids).
    batch: Option<u64>,
    /// µALGO of one lanes call.
    lanes: Option<u64>,
    /// µALGO of one classic verification.
    classic: Option<u64>,
}

impl MethodPrices {
    /// Simulates one call of each method on the reference grid (14 of them for the batch).
    async fn simulate(algoku: &mut Algoku) -> anyhow::Result<MethodPrices> {
        let grid = parse_grid_bytes(REFERENCE_GRID)?;
        let full = vec![grid.as_slice(); BATCH_MAX];
        let batch =
            Call::batch(&full).ok_or_else(|| anyhow!("the reference batch is not 14 grids"))?;
        Ok(MethodPrices {
            batch: algoku.price_call(&batch).await?,
            lanes: algoku.price_call(&Call::grid(Method::Lanes, &grid)).await?,
            classic: algoku
                .price_call(&Call::grid(Method::Classic, &grid))
                .await?,
        })
    }

    /// The cheapest method for `n` grids (the batch first on a tie).
    fn cheapest(&self, n: usize) -> Method {
        let n64 = n as u64;
        [
            (
                Method::Batch,
                self.batch.map(|f| f * n64.div_ceil(BATCH_MAX as u64)),
            ),
            (Method::Lanes, self.lanes.map(|f| f * n64)),
            (Method::Classic, self.classic.map(|f| f * n64)),
        ]
        .into_iter()
        .min_by_key(|(_, fee)| fee.unwrap_or(u64::MAX))
        .map_or(Method::Batch, |(m, _)| m)
    }

    fn json(&self) -> Value {
        json!({"batch_call": self.batch, "lanes": self.lanes, "classic": self.classic})
    }
}

/// Writes one output line (and counts it).
fn emit(
    l: &Line,
    tally: &mut Tally,
    progress: &Progress,
    report: &mut Reporter,
) -> std::io::Result<()> {
    tally.add(l);
    report.line(l, progress)
}

/// `verify --file` / `--puzzle-file` (see the module comment).
pub fn verify_file(
    path: &std::path::Path,
    pairs: bool,
    args: &VerifyArgs,
    global: &Global,
    out: &mut Out,
) -> anyhow::Result<ExitCode> {
    let forced = grid_method(args.method);
    let parsed = read_calls(path, pairs, forced)?;
    let started = std::time::Instant::now();
    let mut tally = Tally::default();
    let mut report = Reporter::new(out, global.json);
    if parsed.iter().all(|(_, c)| c.is_err()) {
        return answer_without_chain(&parsed, &mut tally, global, &mut report);
    }
    runtime()?.block_on(async {
        let interrupted = StopFlag::watch();
        let per_call = if !pairs && forced != Some(Method::Lanes) {
            BATCH_MAX
        } else {
            1
        };
        let mut run = Run::start(&parsed, per_call, pairs, forced, args, global).await;
        // After the start's notes (backend, app, play money): a bar drawn before them
        // would have them printed onto it.
        let progress = Progress::new(parsed.len() as u64, "verifying", global);
        let file = FileBatch {
            parsed: &parsed,
            pairs,
            forced,
            progress: &progress,
            args,
        };
        let per_send = run
            .algoku
            .as_ref()
            .map_or(1, |a| a.app.chain.groups_per_send());
        for window in windows(parsed.len(), GROUP * per_call, per_send) {
            if run.stopped.is_none() {
                run.stopped = interrupted.cause();
            }
            let (chosen, mut results) = run.ask_together(&file, window.clone(), &mut tally).await;
            // The others one by one, then the window in input order.
            for k in window.clone() {
                let value = match results[k - window.start].take() {
                    Some(l) => l,
                    None => {
                        run.ask_alone(&parsed[k], chosen, &mut tally, &progress, args)
                            .await
                    }
                };
                emit(&value, &mut tally, &progress, &mut report)?;
            }
            // Streamed: a window's lines are out before the next is asked.
            report.flush(&progress)?;
        }
        progress.finish();
        run.summarize(&tally, started.elapsed().as_secs_f64(), args, &mut report)
    })
}

/// The file's lines as calls, with their line numbers: grid lines as
/// one-call (lanes) calls, classic ones when forced (each window then goes
/// to the method forced or priced cheapest); a line that is no call, or is
/// over the line limit, is its error.
fn read_calls(
    path: &std::path::Path,
    pairs: bool,
    forced: Option<Method>,
) -> anyhow::Result<Vec<(usize, anyhow::Result<Call>)>> {
    let source = Source::File(path.to_path_buf());
    let lines = source.read_lines()?;
    if lines.is_empty() {
        bail!(
            "file {}: no input lines (only empty or '#' lines)",
            path.display()
        );
    }
    let parse_as = if forced == Some(Method::Classic) {
        Method::Classic
    } else {
        Method::Lanes
    };
    Ok(lines
        .iter()
        .map(|l| {
            let call = match &l.error {
                Some(e) => Err(anyhow!("{e}")),
                None => batch_call(&l.text, pairs, parse_as),
            };
            (l.number, call)
        })
        .collect())
}

/// A file none of whose lines is a call: each line's error, a summary, and
/// no chain touched, nothing deployed or paid.
fn answer_without_chain(
    parsed: &[(usize, anyhow::Result<Call>)],
    tally: &mut Tally,
    global: &Global,
    report: &mut Reporter,
) -> anyhow::Result<ExitCode> {
    let progress = Progress::new(0, "verifying", global);
    for (line, call) in parsed {
        if let Err(e) = call {
            let l = Line {
                line: *line,
                outcome: Outcome::Failed(format!("{e:#}")),
            };
            emit(&l, tally, &progress, report)?;
        }
    }
    let mut s = tally.json();
    s["backend"] = Value::Null;
    s["stopped"] = Value::Null;
    let n = tally.lines;
    report.summary(s, || {
        vec![format!(
            "{n} lines: 0 valid, 0 invalid, {n} errors; no chain was used"
        )]
    })?;
    Ok(batch_exit(tally.errors, false, false))
}

/// What every window of a file batch asks from: the file's lines as calls,
/// whether they are puzzle pairs, the method forced (if any), the progress
/// bar and the command's arguments.
struct FileBatch<'a> {
    parsed: &'a [(usize, anyhow::Result<Call>)],
    pairs: bool,
    forced: Option<Method>,
    progress: &'a Progress,
    args: &'a VerifyArgs,
}

/// A batch under way: the app client (none when connecting failed), why the
/// batch stopped (if it did), and what the summary reports of its start.
struct Run {
    algoku: Option<Algoku>,
    stopped: Option<String>,
    app_id: Option<u64>,
    setup: Option<String>,
    cost: Option<Value>,
    prices: Option<MethodPrices>,
    min_fee: u64,
}

impl Run {
    /// Connects, prices the file, finds or deploys the app and, when the
    /// method is left to price, simulates each method once. A failure is
    /// the batch's stop cause: every line still gets its own line.
    async fn start(
        parsed: &[(usize, anyhow::Result<Call>)],
        per_call: usize,
        pairs: bool,
        forced: Option<Method>,
        args: &VerifyArgs,
        global: &Global,
    ) -> Run {
        let mut run = Run {
            algoku: None,
            stopped: None,
            app_id: None,
            setup: None,
            cost: None,
            prices: None,
            min_fee: 0,
        };
        let mut a = match connect(&args.net, global).await {
            Ok(a) => a,
            Err(e) => {
                run.stopped = Some(format!("{e:#}"));
                return run;
            }
        };
        match prepare(
            &mut a,
            parsed,
            per_call,
            forced,
            args,
            global,
            &mut run.cost,
        )
        .await
        {
            Ok((id, note, mut price, plan)) => {
                run.app_id = Some(id);
                run.setup = note;
                if !pairs && forced.is_none() {
                    match MethodPrices::simulate(&mut a).await {
                        Ok(p) => {
                            // The plan the windows will follow, with the prices simulated.
                            price.fees = planned_fees(&plan, |n| p.cheapest(n));
                            run.prices = Some(p);
                        }
                        Err(e) => run.stopped = Some(format!("{e:#}")),
                    }
                }
                run.cost = Some(price.json());
            }
            Err(e) => run.stopped = Some(format!("{e:#}")),
        }
        run.min_fee = a.app.chain.min_fee();
        run.algoku = Some(a);
        run
    }

    /// Asks the window's calls that answer with a verdict, together, with
    /// the method forced or priced cheapest: the method and each line's
    /// answer (`None` for the lines left to [`Run::ask_alone`]).
    async fn ask_together(
        &mut self,
        file: &FileBatch<'_>,
        window: std::ops::Range<usize>,
        tally: &mut Tally,
    ) -> (Method, Vec<Option<Line>>) {
        let FileBatch {
            parsed,
            pairs,
            forced,
            progress,
            args,
        } = *file;
        let mut results: Vec<Option<Line>> = vec![None; window.len()];
        let together: Vec<(usize, Call)> = window
            .clone()
            .filter_map(|k| {
                parsed[k]
                    .1
                    .as_ref()
                    .ok()
                    .filter(|c| grouped(c))
                    .map(|c| (k, c.clone()))
            })
            .collect();
        let chosen = match (pairs, forced, &self.prices) {
            (true, _, _) => Method::SolutionOf,
            (false, Some(m), _) => m,
            (false, None, Some(p)) => p.cheapest(together.len()),
            (false, None, None) => Method::Batch,
        };
        let (None, Some(algoku), false) = (
            &self.stopped,
            self.algoku.as_mut(),
            chosen == Method::Classic,
        ) else {
            return (chosen, results);
        };
        let run = if chosen == Method::Batch {
            let grids: Vec<&[u8]> = together.iter().map(|(_, c)| c.args[0].as_slice()).collect();
            tally.would_cost += grids.len().div_ceil(BATCH_MAX) as u64 * self.min_fee;
            algoku.verify_grids(&grids, args.simulate_only).await
        } else {
            tally.would_cost += together.len() as u64 * self.min_fee;
            let asked: Vec<Call> = together.iter().map(|(_, c)| c.clone()).collect();
            algoku.verify_batch(&asked, args.simulate_only).await
        };
        progress.inc_by(run.answers.len() as u64);
        let mut counted = HashSet::new();
        for ((k, call), answer) in together.iter().zip(run.answers) {
            let line = parsed[*k].0;
            results[*k - window.start] = Some(match answer {
                Ok(a) => answered(line, call, chosen, &a.verdict, a.fee, a.txid.as_deref()),
                Err(e) => Line::from_error(line, &e, &mut counted),
            });
        }
        if let Some(e) = run.stopped {
            self.stopped = Some(e.to_string());
        }
        (chosen, results)
    }

    /// A line not answered together: its error, its own call (one that does
    /// not answer with a verdict, or any under the classic method), or why
    /// it was not attempted.
    async fn ask_alone(
        &mut self,
        (line, call): &(usize, anyhow::Result<Call>),
        chosen: Method,
        tally: &mut Tally,
        progress: &Progress,
        args: &VerifyArgs,
    ) -> Line {
        match (call, &self.stopped, self.algoku.as_mut()) {
            (Err(e), _, _) => Line {
                line: *line,
                outcome: Outcome::Failed(format!("{e:#}")),
            },
            (Ok(call), None, Some(algoku)) if !grouped(call) || chosen == Method::Classic => {
                progress.inc();
                let call = if chosen == Method::Classic {
                    Call::grid(Method::Classic, &call.args[0])
                } else {
                    call.clone()
                };
                match algoku.verify_call(&call, args.simulate_only).await {
                    Ok(v) => {
                        tally.would_cost += v.strategy.map_or(0, |s| s.fee(self.min_fee));
                        answered(
                            *line,
                            &call,
                            call.method,
                            &v.verdict,
                            v.fee,
                            v.txids.last().map(String::as_str),
                        )
                    }
                    Err(e) if e.stops_batch() => {
                        let cause = e.to_string();
                        let l = Line::not_attempted(*line, &cause);
                        self.stopped = Some(cause);
                        l
                    }
                    Err(e) => Line {
                        line: *line,
                        outcome: Outcome::Failed(e.to_string()),
                    },
                }
            }
            (Ok(_), cause, _) => {
                Line::not_attempted(*line, cause.as_deref().unwrap_or("no answer"))
            }
        }
    }

    /// The summary (JSON on stdout, or lines on stderr) and the exit code.
    fn summarize(
        &self,
        t: &Tally,
        seconds: f64,
        args: &VerifyArgs,
        report: &mut Reporter,
    ) -> anyhow::Result<ExitCode> {
        let mut summary = match &self.algoku {
            Some(a) => backend_json(a),
            None => json!({"backend": null, "backend_notes": []}),
        };
        merge(&mut summary, &t.json());
        summary["app_id"] = json!(self.app_id);
        summary["stopped"] = json!(self.stopped);
        summary["cost"] = json!(self.cost);
        summary["method_prices"] = self.prices.as_ref().map_or(Value::Null, MethodPrices::json);
        summary["simulated_only"] = json!(args.simulate_only);
        if let Some(a) = self.algoku.as_ref().filter(|a| a.app.chain.is_embedded()) {
            summary["topped_up"] = json!(a.app.chain.topped_up);
        }
        summary["seconds"] = json!((seconds * 1000.0).round() / 1000.0);
        summary["per_second"] = json!(((t.lines as f64 / seconds) * 10.0).round() / 10.0);
        if let Some(s) = &self.setup {
            summary["setup"] = json!(s);
        }
        report.summary(summary, || {
            let mut text = vec![format!(
                "{} lines: {} valid, {} invalid, {} errors, {} not attempted; fee {} µALGO ({} µALGO a grid); {seconds:.1} s ({:.1}/s) on {}",
                t.lines,
                t.valid,
                t.invalid,
                t.errors,
                t.not_attempted,
                t.fee,
                t.per_grid().map_or("-".to_string(), |f| f.to_string()),
                t.lines as f64 / seconds,
                self.algoku.as_ref().map_or("no chain", |a| a.app.chain.backend().name())
            )];
            if t.unconfirmed > 0 {
                text.push(format!(
                    "{} lines were sent but not seen confirmed: {} µALGO of fees possibly spent",
                    t.unconfirmed, t.fee_unconfirmed
                ));
            }
            if let Some(cause) = &self.stopped {
                text.push(format!("error: the batch stopped: {cause}"));
            }
            text
        })?;
        // A line sent and not seen confirmed counts as an error for the exit code.
        Ok(batch_exit(
            t.errors + t.unconfirmed,
            self.stopped.is_some(),
            t.valid == t.lines,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::report::BatchLine;

    #[test]
    fn a_price_says_what_is_missing() {
        let p = Price {
            fees: 16_000,
            deploy: 0,
            funds: Funds {
                balance: 210_000,
                min_balance: 200_000,
            },
        };
        assert_eq!(p.missing(), 6_000);
        assert_eq!(p.json()["missing"], 6_000);
    }

    #[test]
    fn a_false_line_carries_the_mirrors_reason() {
        let grid = parse_grid_bytes(REFERENCE_GRID).unwrap();
        let mut bad = grid.clone();
        bad.swap(0, 1);
        let no = Verdict::Valid(false);
        let l = answered(
            3,
            &Call::grid(Method::Lanes, &bad),
            Method::Batch,
            &no,
            1000,
            None,
        );
        assert_eq!(
            l.json()["reason"],
            "column 1 has 5 twice (cells r1c1 and r8c1)"
        );
        assert_eq!(
            l.text(),
            "3 false reason: column 1 has 5 twice (cells r1c1 and r8c1)"
        );
        let yes = Verdict::Valid(true);
        let l = answered(
            4,
            &Call::grid(Method::Classic, &grid),
            Method::Classic,
            &yes,
            3000,
            None,
        );
        assert_eq!(
            (l.json().get("reason").cloned(), l.text().as_str()),
            (None, "4 true")
        );
        let mut puzzle = vec![0; 81];
        puzzle[80] = 4;
        let l = answered(
            5,
            &Call::solution_of(&puzzle, &grid),
            Method::SolutionOf,
            &no,
            1000,
            None,
        );
        assert_eq!(
            l.json()["reason"],
            "cell r9c9 holds 3, but the puzzle's given there is 4"
        );
    }

    #[test]
    fn the_reference_grid_is_a_solution() {
        let grid = parse_grid_bytes(REFERENCE_GRID).unwrap();
        assert!(answers(&Call::grid(Method::Lanes, &grid)));
        assert_eq!(algoku_avm::lanes(&grid).ok(), Some(true));
    }
}
