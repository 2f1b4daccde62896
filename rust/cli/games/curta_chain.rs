//! `algoku curta generate|verify` in batch (`--file`) and on a chain
//! (`--network`), and `curta play`: the Curta app (smart_contracts/curta/
//! contract.py through `algoku_client::curta`).
//!
//! One path serves both commands: each input line becomes a [`Query`] (or an
//! error on its own line), answered natively, and with `--network` also by
//! the app; one line per input in input order (a [`CurtaLine`], printed by the
//! batches' one reporter, `crate::io::report`), then a summary.
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
//!
//! A batch never stops short: when asking cannot go on (the node or the
//! evaluator goes away, a timeout after the retries, or connecting or finding
//! the app fails), every line not answered still gets its own line,
//! `{"line": N, "error": "not answered: the batch stopped: CAUSE",
//! "not_attempted": true}` (the lines of the chunk being asked included),
//! then the summary names the cause in `stopped` and counts `not_attempted`,
//! and the exit status is 2.

use std::process::ExitCode;

use algoku_client::curta::{Curta, Measured, PlayStatus, BOX_MBR};
use algoku_client::{Chain, Network};
use algoku_curta::{generate, is_valid_solution, parse_address, verify, Board};
use anyhow::{anyhow, bail, Result};
use serde_json::{json, Value};

use crate::io::input::Source;
use crate::io::output::{escape_line, verdict, Out, EXIT_NEGATIVE};
use crate::io::progress::Progress;
use crate::io::report::{batch_exit, merge, BatchLine, Reporter};
use crate::net::{embedded_app_note, runtime, NetworkArgs};
use crate::Global;

/// Where to ask, shared by `curta generate` and `curta verify`: natively
/// unless `--network` is given.
#[derive(clap::Args, Debug, Clone)]
#[command(mut_arg("network", |a| a.default_value(None).help("Ask the Curta app on this network (simulated: nothing is sent) instead of the native code")))]
#[command(mut_arg("app_id", |a| a.requires("network").help("The app to ask (its approval program must be the committed Curta artifact)")))]
pub struct ChainArgs {
    #[command(flatten)]
    pub net: NetworkArgs,
    /// On an algod, create the app when this account has none (spends 2 000 µALGO in fees
    /// and 100 000 µALGO to the app account); the embedded evaluator never needs it.
    #[arg(long, requires = "network")]
    pub deploy: bool,
}

async fn connect(network: Network, global: &Global) -> Result<Curta> {
    let chain = Chain::connect(network, &global.settings()).await?;
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
    if let Some(id) = args.net.app_id {
        curta.app.use_checked_app(id).await?;
        return Ok((id, None));
    }
    if let Some(id) = curta.app.own_app().await? {
        curta.app.use_checked_app(id).await?;
        return Ok((id, None));
    }
    let embedded = curta.app.chain.is_embedded();
    if !embedded && !args.deploy {
        bail!(
            "{} has no Curta app on this {} network: give --app-id, or --deploy to create one \
             (spends {} µALGO in fees and 100 000 µALGO to the app account)",
            curta.app.chain.address(),
            curta.app.chain.backend(),
            2 * curta.app.chain.min_fee()
        );
    }
    let deployment = curta.deploy().await?;
    let id = deployment.app_id;
    let note = if embedded {
        embedded_app_note(id)
    } else {
        format!(
            "app {id} created and funded: {} µALGO fees and 100 000 µALGO sent to its account",
            deployment.fee
        )
    };
    if !global.json {
        eprintln!("{note}");
    }
    Ok((id, Some(note)))
}

/// One question, as the contract's two read-only methods take it.
#[derive(Clone, Debug)]
pub enum Query {
    /// `generate(seed)`: the start for a seed (an address's bytes).
    Generate(Vec<u8>),
    /// `verify(start, solution)`.
    Verify(Board, Board),
}

/// One input line: its number, the fields the output repeats (`address` for
/// generate), and the query or why the line is not one.
pub struct Input {
    pub line: usize,
    pub echo: Value,
    pub query: Result<Query>,
}

/// The native answer: the answer's key and value, and the other fields
/// (`givens`; `reason` for a false verify).
fn native(q: &Query) -> (&'static str, Value, Value) {
    match q {
        Query::Generate(seed) => {
            let start = generate(seed);
            (
                "start",
                json!(start.to_hex()),
                json!({"givens": start.givens()}),
            )
        }
        Query::Verify(start, solution) => {
            let valid = verify(start, solution);
            let extra = if valid {
                json!({})
            } else {
                json!({"reason": match is_valid_solution(start, solution) {
                    Err(v) => v.to_string(),
                    Ok(()) => algoku_avm::REJECTED.to_string(),
                }})
            };
            ("valid", json!(valid), extra)
        }
    }
}

/// Reads `--file`: one input per line (empty and `#` lines skipped).
pub fn read_inputs(
    path: &std::path::Path,
    parse: impl Fn(&str) -> (Value, Result<Query>),
) -> Result<Vec<Input>> {
    let source = Source::File(path.to_path_buf());
    let inputs: Vec<Input> = source
        .read_lines()?
        .into_iter()
        .map(|l| {
            let (echo, mut query) = parse(&l.text);
            if let Some(e) = &l.error {
                query = Err(anyhow!("{e}"));
            }
            Input {
                line: l.number,
                echo,
                query,
            }
        })
        .collect();
    if inputs.is_empty() {
        bail!(
            "file {}: no input lines (only empty or '#' lines)",
            path.display()
        );
    }
    Ok(inputs)
}

/// A `generate` line: an address (its bytes are the seed).
pub fn seed_line(text: &str) -> (Value, Result<Query>) {
    let query = parse_address(text)
        .map(Query::Generate)
        .map_err(|e| anyhow!("address: {e}"));
    (json!({"address": text}), query)
}

/// A `verify` line: `START SOLUTION` (two hex words).
pub fn pair_line(text: &str) -> (Value, Result<Query>) {
    let words: Vec<&str> = text.split_whitespace().collect();
    let query = match words[..] {
        [start, solution] => Board::from_hex(start)
            .map_err(|e| anyhow!("start: {e}"))
            .and_then(|s| {
                Board::from_hex(solution)
                    .map(|x| Query::Verify(s, x))
                    .map_err(|e| anyhow!("solution: {e}"))
            }),
        _ => Err(anyhow!(
            "expected START SOLUTION (two hex words), found {} word(s)",
            words.len()
        )),
    };
    (json!({}), query)
}

/// Lines asked of the app and printed at a time (a multiple of 16 and 8, the group sizes).
const STREAM_CHUNK: usize = 256;

/// What one input line came to.
enum Outcome {
    /// The native code's answer (no chain asked): its key (`start`, `valid`), value and
    /// other fields (`givens`; `reason` for a false verify).
    Native {
        key: &'static str,
        value: Value,
        extra: Value,
    },
    /// The app's answer, next to the native one; `fee` what sending the call alone would
    /// cost (simulated, never paid), `budget` the opcodes it used.
    Chain {
        key: &'static str,
        chain: Value,
        native: Value,
        extra: Value,
        fee: u64,
        budget: Option<u64>,
    },
    /// The line is no query: its error.
    Invalid(String),
    /// The app refused the call.
    Refused(String),
    /// Not asked: the batch stopped, for this cause.
    NotAnswered(String),
}

/// One output line: the input's line number, the fields it repeats (`address`),
/// and its outcome. A single question (no `--file`) prints its body alone, and
/// with `--json` the backend and app beside it (`context`).
struct CurtaLine {
    line: usize,
    echo: Value,
    outcome: Outcome,
    batch: bool,
    context: Option<Value>,
}

impl CurtaLine {
    fn error(&self) -> Option<String> {
        match &self.outcome {
            Outcome::Invalid(e) => Some(e.clone()),
            Outcome::Refused(e) => Some(format!("the app refused the call: {e}")),
            Outcome::NotAnswered(cause) => {
                Some(format!("not answered: the batch stopped: {cause}"))
            }
            Outcome::Native { .. } | Outcome::Chain { .. } => None,
        }
    }

    /// The answer shown, the app's when it was asked: its key (`start`, `valid`) and value.
    fn answer(&self) -> Option<(&'static str, &Value)> {
        match &self.outcome {
            Outcome::Native { key, value, .. } => Some((key, value)),
            Outcome::Chain { key, chain, .. } => Some((key, chain)),
            _ => None,
        }
    }

    /// The native code's reason for a false verify.
    fn reason(&self) -> Option<&str> {
        match &self.outcome {
            Outcome::Native { extra, .. } | Outcome::Chain { extra, .. } => {
                extra["reason"].as_str()
            }
            _ => None,
        }
    }

    /// Whether the app's answer differs from the native code's.
    fn disagrees(&self) -> bool {
        matches!(&self.outcome, Outcome::Chain { chain, native, .. } if chain != native)
    }

    fn json(&self) -> Value {
        let mut v = json!({"line": self.line});
        merge(&mut v, &self.echo);
        if let Some(e) = self.error() {
            v["error"] = json!(e);
        }
        match &self.outcome {
            Outcome::Native { key, value, extra } => {
                v[*key] = value.clone();
                merge(&mut v, extra);
            }
            Outcome::Chain {
                key,
                chain,
                native,
                extra,
                fee,
                budget,
            } => {
                v[*key] = chain.clone();
                if *key == "valid" {
                    merge(&mut v, extra);
                }
                v["would_cost"] = json!(fee);
                v["budget"] = json!(budget);
                v["agrees_native"] = json!(chain == native);
                if chain != native {
                    v[format!("native_{key}")] = native.clone();
                }
            }
            Outcome::NotAnswered(_) => v["not_attempted"] = json!(true),
            Outcome::Invalid(_) | Outcome::Refused(_) => {}
        }
        if let Some(c) = &self.context {
            merge(&mut v, c);
        }
        v
    }

    /// The text after the line number: the answer (with the app's budget and
    /// price when it was asked, the reason of a false), or `error: …`.
    fn body(&self) -> String {
        if let Some(e) = self.error() {
            return format!("error: {}", escape_line(&e));
        }
        let mut b = match self.answer() {
            Some((_, Value::String(s))) => s.clone(),
            Some((_, other)) => other.to_string(),
            None => String::new(),
        };
        if let Outcome::Chain { fee, budget, .. } = &self.outcome {
            b += &format!(" budget {} would cost {fee}", json!(budget));
        }
        if let Some(r) = self.reason() {
            b += &format!(" reason: {r}");
        }
        b
    }
}

impl BatchLine for CurtaLine {
    fn text(&self) -> String {
        if self.batch {
            format!("{} {}", self.line, self.body())
        } else {
            self.body()
        }
    }
}

impl serde::Serialize for CurtaLine {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.json().serialize(s)
    }
}

/// Totals of a batch.
#[derive(Default)]
struct Totals {
    lines: u64,
    errors: u64,
    /// Lines not answered because the batch stopped.
    not_attempted: u64,
    disagreements: u64,
    fee: u64,
    /// `verify`: answers true.
    valid: u64,
}

impl Totals {
    /// Counts one output line.
    fn add(&mut self, l: &CurtaLine) {
        self.lines += 1;
        match &l.outcome {
            Outcome::Invalid(_) | Outcome::Refused(_) => self.errors += 1,
            Outcome::NotAnswered(_) => self.not_attempted += 1,
            Outcome::Chain { fee, .. } => self.fee += fee,
            Outcome::Native { .. } => {}
        }
        self.disagreements += u64::from(l.disagrees());
        self.valid += u64::from(matches!(l.answer(), Some(("valid", Value::Bool(true)))));
    }

    /// The summary's counts: method, lines, errors (verify: valid, invalid).
    fn counts(&self, method: &str) -> Value {
        let mut s = json!({"method": method, "lines": self.lines, "errors": self.errors,
            "not_attempted": self.not_attempted});
        if method == "verify" {
            s["valid"] = json!(self.valid);
            s["invalid"] = json!(self.lines - self.valid - self.errors - self.not_attempted);
        }
        s
    }

    /// The exit code (every batch's rule): an app that disagrees with the native
    /// code counts as an error.
    fn exit(&self, method: &str, stopped: bool) -> ExitCode {
        batch_exit(
            self.errors + self.disagreements,
            stopped,
            method != "verify" || self.valid == self.lines,
        )
    }
}

/// The app's answers to `queries` (all of one kind), in order, as JSON values.
async fn ask(
    curta: &mut Curta,
    queries: &[&Query],
    progress: &Progress,
) -> Result<Vec<Measured<Value>>> {
    let each = |n: usize| progress.inc_by(n as u64);
    let seeds: Vec<Vec<u8>> = queries
        .iter()
        .filter_map(|q| match q {
            Query::Generate(s) => Some(s.clone()),
            Query::Verify(..) => None,
        })
        .collect();
    if !seeds.is_empty() {
        let got = curta.generate_measured(&seeds, each).await?;
        return Ok(got
            .into_iter()
            .map(|m| m.map(|b| json!(hex::encode(b))))
            .collect());
    }
    let pairs: Vec<([u8; 32], [u8; 32])> = queries
        .iter()
        .filter_map(|q| match q {
            Query::Verify(s, x) => Some((s.0.to_be_bytes(), x.0.to_be_bytes())),
            Query::Generate(_) => None,
        })
        .collect();
    let got = curta.verify_measured(&pairs, each).await?;
    Ok(got.into_iter().map(|m| m.map(|b| json!(b))).collect())
}

/// `curta generate|verify` on `inputs`: natively, or with `chain.network` by
/// the app too. `batch`: one line per input with its line number, then a
/// summary; else the single answer (JSON names backend and app).
pub fn run_batch(
    inputs: Vec<Input>,
    batch: bool,
    chain: &ChainArgs,
    method: &str,
    global: &Global,
    out: &mut Out,
) -> Result<ExitCode> {
    let started = std::time::Instant::now();
    // Natively; or when no line is a query, without touching any chain.
    let nothing_to_ask = inputs.iter().all(|i| i.query.is_err());
    let mut out = Reporter::new(out, global.json);
    let Some(network) = chain.net.asked().filter(|_| !nothing_to_ask) else {
        return run_native(&inputs, batch, chain, method, global, &mut out);
    };
    runtime()?.block_on(async {
        // Connecting and finding the app can stop the batch before its first line.
        let (mut curta, context, mut stopped) = connect_for_batch(network, chain, global).await;
        if let (false, Some(cause)) = (batch, &stopped) {
            bail!("{cause}");
        }
        let asked = inputs.iter().filter(|i| i.query.is_ok()).count();
        let progress = Progress::new(asked as u64, "asking the app", global);
        // Chunk by chunk, printing as answers come: an interrupted run keeps
        // every line already answered.
        let mut t = Totals::default();
        for chunk in inputs.chunks(STREAM_CHUNK) {
            let queries: Vec<&Query> = chunk.iter().filter_map(|i| i.query.as_ref().ok()).collect();
            let got = match (&stopped, curta.as_mut()) {
                (None, Some(c)) if !queries.is_empty() => match ask(c, &queries, &progress).await {
                    Ok(got) => got,
                    Err(e) if !batch => return Err(e),
                    Err(e) => {
                        stopped = Some(format!("{e:#}"));
                        Vec::new()
                    }
                },
                _ => Vec::new(),
            };
            let mut got = got.into_iter();
            let answers = chunk
                .iter()
                .map(|i| i.query.as_ref().ok().and_then(|_| got.next()))
                .collect();
            let at = Some(&context);
            let cause = stopped.as_deref();
            report(
                chunk, answers, batch, at, cause, &mut t, &progress, &mut out,
            )?;
            out.flush(&progress)?;
        }
        progress.finish();
        if batch {
            let seconds = started.elapsed().as_secs_f64();
            let kind = curta
                .as_ref()
                .map_or("no chain", |c| c.app.chain.backend().name());
            let end = Ending {
                context: &context,
                stopped: stopped.as_deref(),
                seconds,
                kind,
                method,
            };
            summarize(&t, &end, &mut out)?;
        }
        Ok(t.exit(method, stopped.is_some()))
    })
}

/// The native answers, when no chain is asked (none given, or no line to ask).
fn run_native(
    inputs: &[Input],
    batch: bool,
    chain: &ChainArgs,
    method: &str,
    global: &Global,
    out: &mut Reporter,
) -> Result<ExitCode> {
    let answers = vec![None; inputs.len()];
    let mut t = Totals::default();
    let hidden = Progress::new(0, "", global);
    report(inputs, answers, batch, None, None, &mut t, &hidden, out)?;
    let backend = if chain.net.asked().is_some() {
        if !global.json {
            eprintln!("no line to ask: no chain was used");
        }
        Value::Null
    } else {
        json!("native")
    };
    if batch {
        let mut s = json!({ "backend": backend });
        merge(&mut s, &t.counts(method));
        out.summary(s, Vec::new)?;
    }
    Ok(t.exit(method, false))
}

/// Connects and finds the app: the client, what every line repeats about
/// the backend and app, and the cause when either failed.
async fn connect_for_batch(
    network: Network,
    chain: &ChainArgs,
    global: &Global,
) -> (Option<Curta>, Value, Option<String>) {
    let mut context = json!({"backend": null, "backend_notes": [], "app_id": null});
    let mut c = match connect(network, global).await {
        Err(e) => return (None, context, Some(format!("{e:#}"))),
        Ok(c) => c,
    };
    context["backend"] = json!(c.app.chain.backend());
    context["backend_notes"] = json!(c.app.chain.notes);
    let stopped = match app(&mut c, chain, global).await {
        Ok((app_id, setup)) => {
            super::announce(&c.app.chain, global);
            context["app_id"] = json!(app_id);
            if let Some(s) = &setup {
                context["setup"] = json!(s);
            }
            None
        }
        Err(e) => Some(format!("{e:#}")),
    };
    (Some(c), context, stopped)
}

/// How a batch on chain ended, as its summary tells it.
struct Ending<'a> {
    /// What every line repeats about the backend and app.
    context: &'a Value,
    /// Why the batch stopped before its end, if it did.
    stopped: Option<&'a str>,
    /// How long the batch took.
    seconds: f64,
    /// The backend (`Chain::kind`), or "no chain".
    kind: &'a str,
    /// The method asked: "generate" or "verify".
    method: &'a str,
}

/// The batch's summary: JSON on stdout, or a line on stderr.
fn summarize(t: &Totals, end: &Ending, out: &mut Reporter) -> Result<()> {
    let Ending {
        context,
        stopped,
        seconds,
        kind,
        method,
    } = *end;
    let mut s = context.clone();
    merge(&mut s, &t.counts(method));
    for (k, v) in [
        ("disagreements", json!(t.disagreements)),
        ("would_cost", json!(t.fee)),
        ("simulated", json!(true)),
        ("spent", json!(0)),
        ("stopped", json!(stopped)),
        ("seconds", json!((seconds * 1000.0).round() / 1000.0)),
    ] {
        s[k] = v;
    }
    let app_id = &context["app_id"];
    out.summary(s, || {
        let mut text = vec![format!(
            "{} lines: {} errors, {} not attempted, {} disagreements with the native code; \
             {} µALGO in fees if each were sent alone (simulated: nothing spent); {seconds:.1} s on {kind} (app {app_id})",
            t.lines, t.errors, t.not_attempted, t.disagreements, t.fee
        )];
        if let Some(cause) = stopped {
            text.push(format!("error: the batch stopped: {cause}"));
        }
        text
    })?;
    Ok(())
}

/// One line per input (the native answer, next to the app's when `context`
/// names the chain), printed and counted. An input the chain did not answer
/// because the batch `stopped` says so, naming the cause.
#[allow(clippy::too_many_arguments)]
fn report(
    inputs: &[Input],
    answers: Vec<Option<Measured<Value>>>,
    batch: bool,
    context: Option<&Value>,
    stopped: Option<&str>,
    t: &mut Totals,
    progress: &Progress,
    out: &mut Reporter,
) -> Result<()> {
    for (input, answer) in inputs.iter().zip(answers) {
        let outcome = match &input.query {
            Err(e) => Outcome::Invalid(e.to_string()),
            Ok(q) => {
                let (key, value, extra) = native(q);
                match (context, answer) {
                    (None, _) => Outcome::Native { key, value, extra },
                    (Some(_), None) => match stopped {
                        Some(cause) => Outcome::NotAnswered(cause.to_string()),
                        None => bail!("internal: no answer for line {}", input.line),
                    },
                    (Some(_), Some(m)) => match m.value {
                        Err(e) => Outcome::Refused(e.to_string()),
                        Ok(chain) => Outcome::Chain {
                            key,
                            chain,
                            native: value,
                            extra,
                            fee: m.fee,
                            budget: m.budget,
                        },
                    },
                }
            }
        };
        let l = CurtaLine {
            line: input.line,
            echo: input.echo.clone(),
            outcome,
            batch,
            context: context.filter(|_| !batch && out.is_json()).cloned(),
        };
        t.add(&l);
        if l.disagrees() {
            progress.suspend(|| {
                eprintln!(
                    "line {}: the app and the native code disagree: {}",
                    input.line,
                    l.json()
                )
            });
        }
        match l.error() {
            // A single question's error is the command's error.
            Some(e) if !batch && !out.is_json() => bail!("{e}"),
            _ => out.line(&l, progress)?,
        }
    }
    Ok(())
}

/// `curta play`: the game for the signing account.
pub fn play(
    network: Network,
    app_id: Option<u64>,
    solution: Option<&str>,
    force: bool,
    deploy: bool,
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
        let args = ChainArgs {
            net: NetworkArgs::on(network, app_id),
            deploy,
        };
        let (app_id, setup) = app(&mut curta, &args, global).await?;
        let me = curta.app.chain.address();
        let p = curta.play(solution, force).await?;
        super::announce(&curta.app.chain, global);
        let status = p.status.as_str();
        if global.json {
            out.json(&json!({
                "status": status, "backend": curta.app.chain.backend(), "app_id": app_id,
                "address": me.to_string(), "start": hex::encode(p.start),
                "round": p.record.as_ref().map(|r| r.round),
                "solution": p.record.as_ref().map(|r| hex::encode(r.solution)),
                "fee": p.fee, "paid": p.paid, "txids": p.txids, "setup": setup,
            }))?;
        } else {
            out.line(format!("{status}: app {app_id}, player {me}"))?;
            out.line(format!("start    {}", hex::encode(p.start)))?;
            if let Some(r) = &p.record {
                out.line(format!("solution {}", hex::encode(r.solution)))?;
                out.line(format!("round    {}", r.round))?;
            }
            out.line(super::spent_line(
                p.fee,
                p.paid,
                p.status == PlayStatus::AlreadySolved,
            ))?;
        }
        debug_assert!(p.paid == 0 || p.paid == BOX_MBR);
        Ok(match p.status {
            PlayStatus::Solved | PlayStatus::AlreadySolved => ExitCode::SUCCESS,
            PlayStatus::Unsolvable | PlayStatus::Rejected => ExitCode::from(EXIT_NEGATIVE),
        })
    })
}

/// `curta record`: a player's recorded solve and the solver count, read with
/// simulated calls on an existing app (`--app-id`, or this account's; on the
/// embedded evaluator a fresh app is created: it has no records).
pub fn record(
    network: Network,
    app_id: Option<u64>,
    player: Option<[u8; 32]>,
    global: &Global,
    out: &mut Out,
) -> Result<ExitCode> {
    runtime()?.block_on(async {
        let mut curta = connect(network, global).await?;
        let args = ChainArgs {
            net: NetworkArgs::on(network, app_id),
            deploy: false,
        };
        let (app_id, setup) = app(&mut curta, &args, global).await?;
        let player = player.unwrap_or(curta.app.chain.address().0);
        let address = algoku_curta::algorand_address(&player);
        let rec = curta.record(player).await?;
        let solvers = curta.solvers().await?;
        super::announce(&curta.app.chain, global);
        if global.json {
            out.json(&json!({
                "address": address, "app_id": app_id, "backend": curta.app.chain.backend(),
                "solved": rec.is_some(), "round": rec.as_ref().map(|r| r.round),
                "solution": rec.as_ref().map(|r| hex::encode(r.solution)),
                "solvers": solvers, "setup": setup,
            }))?;
        } else {
            match &rec {
                Some(r) => out.line(format!(
                    "{address}: solved in round {} with {}",
                    r.round,
                    hex::encode(r.solution)
                ))?,
                None => out.line(format!("{address}: no recorded solve"))?,
            }
            out.line(format!("{solvers} solver(s) on app {app_id}"))?;
        }
        Ok(verdict(rec.is_some()))
    })
}
