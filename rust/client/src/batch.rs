//! Many verdicts at once: calls packed into atomic groups, groups sent a
//! window at a time, every answer kept in order whatever happens.
//!
//! ```text
//!   calls ──16 a group──> groups ──a window at a time──> Chain::send_groups
//!                                                          │ POSTed together (a node
//!      each group: Answered ─> its answers                 │ fills one block with
//!                  Failed ───> its calls one by one        │ them), each confirmed
//!                  Error ────> each answer says so         │ on its own
//!      a window the account cannot pay for ─> each group alone, as far as the funds go
//! ```
//!
//! A group stands or falls as a whole, so only calls that answer `true` or
//! `false` belong in one: the caller leaves out inputs the contract rejects
//! (wrong lengths: the mirror predicts them). Should a group fail anyway, its
//! calls are asked one by one, so one input's failure is that input's answer,
//! never its neighbours'. An error that stops the batch (funds, node) ends it
//! after the window it happened in, whose groups are all accounted for: a
//! group confirmed after a failed one still gives its answers (its fees are
//! spent), and only groups that were never sent count as not attempted.

use crate::algoku::{Algoku, Call, Method, Verdict};
use crate::app::RETURN_PREFIX;
use crate::chain::{Sent, MAX_GROUP};
use crate::error::ClientError;
use crate::outcome::{Failure, GroupOutcome};
use algonaut::transaction::Transaction;

/// One answer of [`Algoku::verify_many`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BatchAnswer {
    /// What the contract said about this grid.
    pub verdict: Verdict,
    /// What this call paid (0 when only simulated or rejected).
    pub fee: u64,
    /// The id of its call transaction, when sent.
    pub txid: Option<String>,
    /// The round of its group, when sent.
    pub confirmed_round: Option<u64>,
}

/// What [`Algoku::verify_batch`] got before it finished or stopped.
#[derive(Debug, Default)]
pub struct BatchRun {
    /// One entry per answer, in order, for the calls asked (one per call, one
    /// per grid of an `are_valid_solutions` call): the answer, or the error of
    /// that one call (its input's fault, not the batch's).
    pub answers: Vec<Result<BatchAnswer, ClientError>>,
    /// Why the run stopped before the end (funds, node, evaluator); the calls
    /// after `answers` were not attempted.
    pub stopped: Option<ClientError>,
}

/// What became of one group of a window.
enum GroupRun {
    /// Its answers, one per grid, in order.
    Answered(Vec<BatchAnswer>),
    /// The chain failed it (a refusal, an assert): its calls are asked alone.
    Failed(Failure),
    /// It was not answered: the error says why (e.g. sent, not confirmed).
    Error(ClientError),
}

/// What became of a window of groups sent together.
enum WindowRun {
    /// Each group's own fate, in order.
    Each(Vec<GroupRun>),
    /// The account cannot pay for all of them: each group is sent alone.
    Whole,
}

/// A new nonce: notes make every call's id unique, so identical calls in one
/// group, or in another run within the same validity window, never collide.
fn nonce() -> u128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos())
}

impl Algoku {
    /// Ask the contract about many calls of one-call methods (lanes,
    /// solution_of), up to 16 per atomic group, each paying one min fee.
    /// Fails on the first error, dropping the answers before it; see
    /// [`Algoku::verify_batch`] to keep them.
    pub async fn verify_many(
        &mut self,
        calls: &[Call],
        simulate_only: bool,
    ) -> Result<Vec<BatchAnswer>, ClientError> {
        let run = self.verify_batch(calls, simulate_only).await;
        if let Some(e) = run.stopped {
            return Err(e);
        }
        run.answers.into_iter().collect()
    }

    /// [`Algoku::verify_many`], keeping every answer obtained: groups of up
    /// to 16 calls, [`crate::Chain::groups_per_send`] groups at a time, until
    /// the end or an error that stops the batch ([`ClientError::stops_batch`]);
    /// see the module comment.
    pub async fn verify_batch(&mut self, calls: &[Call], simulate_only: bool) -> BatchRun {
        let mut run = BatchRun {
            answers: Vec::with_capacity(calls.len()),
            stopped: None,
        };
        let nonce = nonce();
        let groups: Vec<&[Call]> = calls.chunks(MAX_GROUP as usize).collect();
        let per_send = self.app.chain.groups_per_send();
        for (w, window) in groups.chunks(per_send).enumerate() {
            let first = w * per_send;
            let runs = match self
                .verify_window(window, simulate_only, nonce, first)
                .await
            {
                Ok(WindowRun::Each(runs)) => runs,
                Ok(WindowRun::Whole) => self.each_alone(window, simulate_only, nonce, first).await,
                Err(e) => window.iter().map(|_| GroupRun::Error(e.clone())).collect(),
            };
            self.account_for(window, runs, simulate_only, &mut run)
                .await;
            if run.stopped.is_some() {
                break;
            }
        }
        run
    }

    /// Each group of a window sent alone, until an error stops the batch.
    async fn each_alone(
        &mut self,
        window: &[&[Call]],
        simulate_only: bool,
        nonce: u128,
        first: usize,
    ) -> Vec<GroupRun> {
        let mut runs = Vec::with_capacity(window.len());
        for (g, chunk) in window.iter().enumerate() {
            let one = match self
                .verify_window(&[chunk], simulate_only, nonce, first + g)
                .await
            {
                Ok(WindowRun::Each(mut r)) if r.len() == 1 => r.remove(0),
                Ok(_) => GroupRun::Failed(Failure {
                    message: "the group failed".into(),
                    pc: None,
                    failed_at: None,
                }),
                Err(e) => GroupRun::Error(e),
            };
            let stops = matches!(&one, GroupRun::Error(e) if e.stops_batch());
            runs.push(one);
            if stops {
                break;
            }
        }
        runs
    }

    /// The answers of a window's groups, in order, into `run`. Every group
    /// up to the last one sent (answered, or sent and not confirmed) is
    /// accounted for, whatever stopped the batch before it; after it, an
    /// error that stops the batch ends the window, its group and those after
    /// it not attempted.
    async fn account_for(
        &mut self,
        window: &[&[Call]],
        runs: Vec<GroupRun>,
        simulate_only: bool,
        run: &mut BatchRun,
    ) {
        let sent = |r: &GroupRun| {
            matches!(
                r,
                GroupRun::Answered(_) | GroupRun::Error(ClientError::Unconfirmed { .. })
            )
        };
        let last_sent = runs.iter().rposition(sent).map_or(0, |i| i + 1);
        for (g, (chunk, group)) in window.iter().zip(runs).enumerate() {
            let n = answers_of(chunk);
            let must = g < last_sent;
            let before = run.answers.len();
            match group {
                GroupRun::Answered(a) => run.answers.extend(a.into_iter().map(Ok)),
                GroupRun::Failed(_) if run.stopped.is_none() => {
                    self.one_by_one(chunk, simulate_only, run).await;
                }
                GroupRun::Failed(f) => {
                    // The batch stopped: not asked again, the group's refusal is each answer.
                    let e = ClientError::Rejected {
                        message: f.message,
                        pc: f.pc,
                    };
                    run.answers.extend((0..n).map(|_| Err(e.clone())));
                }
                GroupRun::Error(e) if e.stops_batch() && !must => {
                    run.stopped.get_or_insert(e);
                }
                GroupRun::Error(e) => Self::group_error(e, n, run),
            }
            if run.stopped.is_some() {
                if !must {
                    return;
                }
                // A later group was sent: this one's answers must all be there.
                let stop = run.stopped.clone().expect("stopped");
                let missing = (before + n).saturating_sub(run.answers.len());
                run.answers.extend((0..missing).map(|_| Err(stop.clone())));
            }
        }
    }

    /// A group's error as each of its `calls` answers: stopping the batch
    /// when it is a stopping error (the first such stops it), or the
    /// message for each (not the batch's fault, not one input's either: a
    /// malformed answer).
    fn group_error(e: ClientError, calls: usize, run: &mut BatchRun) {
        if let ClientError::Unconfirmed { .. } = e {
            // Sent: each answer of the group says so (with its txids and fee).
            run.answers.extend((0..calls).map(|_| Err(e.clone())));
            run.stopped.get_or_insert(e);
            return;
        }
        if e.stops_batch() {
            run.answers.extend((0..calls).map(|_| Err(e.clone())));
            run.stopped.get_or_insert(e);
            return;
        }
        let message = e.to_string();
        run.answers
            .extend((0..calls).map(|_| Err(ClientError::Transaction(message.clone()))));
    }

    /// Each call of a failed group alone, until an error stops the batch.
    async fn one_by_one(&mut self, chunk: &[Call], simulate_only: bool, run: &mut BatchRun) {
        for call in chunk {
            if call.method == Method::Batch {
                self.batch_alone(call, simulate_only, run).await;
                if run.stopped.is_some() {
                    return;
                }
                continue;
            }
            match self.verify_call(call, simulate_only).await {
                Ok(v) => run.answers.push(Ok(BatchAnswer {
                    verdict: v.verdict,
                    fee: v.fee,
                    txid: v.txids.last().cloned(),
                    confirmed_round: v.confirmed_round,
                })),
                Err(e) if e.stops_batch() => {
                    run.stopped = Some(e);
                    return;
                }
                Err(e) => run.answers.push(Err(e)),
            }
        }
    }

    /// A batch call whose group failed, alone: its answers, or the contract's
    /// rejection (or the error) for each of its grids.
    async fn batch_alone(&mut self, call: &Call, simulate_only: bool, run: &mut BatchRun) {
        let n = call.answers();
        let alone = [std::slice::from_ref(call)];
        let e = match self.verify_window(&alone, simulate_only, nonce(), 0).await {
            Ok(WindowRun::Each(mut groups)) if groups.len() == 1 => match groups.remove(0) {
                GroupRun::Answered(answers) => {
                    return run.answers.extend(answers.into_iter().map(Ok))
                }
                GroupRun::Failed(_) => None,
                GroupRun::Error(e) => Some(e),
            },
            Ok(_) => None,
            Err(e) => Some(e),
        };
        let e = match e {
            Some(e) => e,
            None => match self
                .try_call(call, crate::Strategy::InnerOpups { inner: 0 }, 0)
                .await
            {
                Ok(outcome) => {
                    let verdict = match &outcome.failure {
                        Some(f) => self.rejection(f),
                        None => Verdict::Rejected {
                            message: "the group failed".into(),
                            avm: String::new(),
                            pc: None,
                        },
                    };
                    let answer = BatchAnswer {
                        verdict,
                        fee: 0,
                        txid: None,
                        confirmed_round: None,
                    };
                    return run.answers.extend((0..n).map(|_| Ok(answer.clone())));
                }
                Err(e) => e,
            },
        };
        if e.stops_batch() && !matches!(e, ClientError::Unconfirmed { .. }) {
            run.stopped = Some(e);
            return;
        }
        Self::group_error(e, n, run);
    }

    /// The uint64 an `are_valid_solutions` call returned.
    fn bits_of(&self, outcome: &GroupOutcome) -> Result<u64, ClientError> {
        let log = outcome.txns.last().and_then(|t| t.logs.last());
        match log.map(Vec::as_slice) {
            Some([p0, p1, p2, p3, rest @ ..]) if [*p0, *p1, *p2, *p3] == RETURN_PREFIX => {
                let bytes: [u8; 8] = rest.try_into().map_err(|_| {
                    ClientError::Transaction(format!("unexpected return log {}", hex::encode(rest)))
                })?;
                Ok(u64::from_be_bytes(bytes))
            }
            _ => Err(ClientError::Transaction(
                "the call logged no ABI return value".into(),
            )),
        }
    }

    /// The verdicts of many grids (81 digits each) with `are_valid_solutions`:
    /// 14 grids a call, 16 calls a group; one answer per grid, in order. Each
    /// call's fee is on its first grid's answer. Grids of another length, which
    /// the contract would reject with the whole call, belong to the one-grid
    /// methods instead (the mirror predicts their rejection).
    pub async fn verify_grids(&mut self, grids: &[&[u8]], simulate_only: bool) -> BatchRun {
        let calls: Option<Vec<Call>> = grids
            .chunks(algoku_avm::BATCH_MAX)
            .map(Call::batch)
            .collect();
        match calls {
            Some(calls) => self.verify_batch(&calls, simulate_only).await,
            None => BatchRun {
                answers: Vec::new(),
                stopped: Some(ClientError::Config(
                    "a grid of the batch is not 81 bytes long".into(),
                )),
            },
        }
    }

    /// The atomic group of `chunk`'s calls, the `g`-th of the batch.
    fn batch_group(
        &self,
        chunk: &[Call],
        nonce: u128,
        g: usize,
    ) -> Result<Vec<Transaction>, ClientError> {
        let min_fee = self.app.chain.min_fee();
        let mut txns = Vec::with_capacity(chunk.len());
        for (k, call) in chunk.iter().enumerate() {
            // identical calls in one group need distinct ids
            let note = format!("algoku batch {nonce} {g}.{k}").into_bytes();
            txns.push(self.app.call_noted(
                call.method.abi_name(),
                crate::algoku::abi_args(call)?,
                min_fee,
                Some(note),
                vec![],
            )?);
        }
        Ok(txns)
    }

    /// The groups of `window` (the first is the `first`-th of the batch)
    /// sent together, and what became of each.
    async fn verify_window(
        &mut self,
        window: &[&[Call]],
        simulate_only: bool,
        nonce: u128,
        first: usize,
    ) -> Result<WindowRun, ClientError> {
        let min_fee = self.app.chain.min_fee();
        let mut groups = Vec::with_capacity(window.len());
        for (g, chunk) in window.iter().enumerate() {
            groups.push(self.batch_group(chunk, nonce, first + g)?);
        }
        let sent = if simulate_only {
            self.app.chain.simulate_groups(groups).await
        } else {
            let calls: usize = window.iter().map(|c| c.len()).sum();
            match self.app.chain.ensure_funds(calls as u64 * min_fee).await {
                // Not enough for all: group by group, as far as the funds go.
                Err(ClientError::InsufficientFunds { .. }) if window.len() > 1 => {
                    return Ok(WindowRun::Whole)
                }
                other => other?,
            }
            self.app.chain.send_groups(groups).await
        };
        Ok(WindowRun::Each(
            window
                .iter()
                .zip(sent)
                .map(|(chunk, s)| self.group_run(chunk, s, simulate_only, min_fee))
                .collect(),
        ))
    }

    /// What one group's sending came to, read as its calls' answers.
    fn group_run(&self, chunk: &[Call], sent: Sent, simulate_only: bool, min_fee: u64) -> GroupRun {
        let (outcome, txids) = match sent {
            Ok(s) => s,
            Err(e) => return GroupRun::Error(e),
        };
        if let Some(f) = outcome.failure {
            return GroupRun::Failed(f);
        }
        if outcome.txns.len() != chunk.len() {
            return GroupRun::Failed(Failure {
                message: format!(
                    "the chain reported {} transactions for a group of {}",
                    outcome.txns.len(),
                    chunk.len()
                ),
                pc: None,
                failed_at: None,
            });
        }
        match self.answers_of_group(chunk, &outcome, &txids, simulate_only, min_fee) {
            Ok(a) => GroupRun::Answered(a),
            Err(e) => GroupRun::Error(e),
        }
    }

    /// The answers a confirmed (or simulated) group gave, one per grid.
    fn answers_of_group(
        &self,
        chunk: &[Call],
        outcome: &GroupOutcome,
        txids: &[String],
        simulate_only: bool,
        min_fee: u64,
    ) -> Result<Vec<BatchAnswer>, ClientError> {
        let mut group = Vec::with_capacity(answers_of(chunk));
        for (k, t) in outcome.txns.iter().enumerate() {
            let one = GroupOutcome {
                txns: vec![t.clone()],
                ..Default::default()
            };
            if chunk[k].method == Method::Batch {
                let bits = self.bits_of(&one)?;
                group.extend((0..chunk[k].answers()).map(|g| BatchAnswer {
                    verdict: Verdict::Valid(bits >> g & 1 == 1),
                    fee: if simulate_only || g > 0 { 0 } else { min_fee },
                    txid: txids.get(k).cloned(),
                    confirmed_round: outcome.confirmed_round,
                }));
                continue;
            }
            group.push(BatchAnswer {
                verdict: self.verdict_of(&one)?,
                fee: if simulate_only { 0 } else { min_fee },
                txid: txids.get(k).cloned(),
                confirmed_round: outcome.confirmed_round,
            });
        }
        Ok(group)
    }
}

/// The answers `calls` give (one per grid of a batch call).
fn answers_of(calls: &[Call]) -> usize {
    calls.iter().map(Call::answers).sum()
}
