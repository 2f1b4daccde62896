//! Deploy Algoku and ask it for verdicts, paying as little as possible.
//!
//! `is_valid_solution` needs more than one app call's 700 opcodes. Two ways to
//! give it more, and the planner prices both on the chain before sending:
//! * inner opups: the call alone, its fee covering the inner opup calls that the
//!   contract's `ensure_budget` makes (paid from the group's fee credit);
//! * outer padding: `[opup() × p, is_valid_solution]`, each padding call adding 700.
//!
//! It simulates the call with a generous fee to learn the verdict and how many
//! inner opups it makes, then finds the fewest padding calls that succeed, and
//! sends whichever group costs less (the single transaction on a tie).

use crate::app::{App, Deployment, RETURN_PREFIX};
use crate::chain::{Chain, APP_CALL_BUDGET, MAX_GROUP};
use crate::error::ClientError;
use crate::outcome::{Failure, GroupOutcome};
use crate::spec::AppSpec;
use algonaut::transaction::Transaction;

/// How a call gets the opcode budget it needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    /// The call alone, paying for `inner` inner opup calls.
    InnerOpups {
        /// How many inner opup calls the call pays for.
        inner: u64,
    },
    /// `padding` opup() calls before the call.
    Padding {
        /// How many `opup()` calls come before the call.
        padding: u64,
    },
}

impl Strategy {
    /// App calls that run: the outer ones plus the inner opups. Each pays one
    /// min fee and adds 700 to the pooled opcode budget.
    pub fn app_calls(&self) -> u64 {
        match *self {
            Strategy::InnerOpups { inner } => 1 + inner,
            Strategy::Padding { padding } => 1 + padding,
        }
    }

    /// Total fee of the group, in µALGO.
    pub fn fee(&self, min_fee: u64) -> u64 {
        self.app_calls() * min_fee
    }

    /// The same strategy one step cheaper (one inner opup or one padding call fewer).
    pub fn one_less(&self) -> Option<Strategy> {
        match *self {
            Strategy::InnerOpups { inner } if inner > 0 => {
                Some(Strategy::InnerOpups { inner: inner - 1 })
            }
            Strategy::Padding { padding } if padding > 0 => Some(Strategy::Padding {
                padding: padding - 1,
            }),
            _ => None,
        }
    }

    /// The strategy in words, e.g. "1 call paying for 2 inner opup(s)".
    pub fn describe(&self) -> String {
        match *self {
            Strategy::InnerOpups { inner } => format!("1 call paying for {inner} inner opup(s)"),
            Strategy::Padding { padding } => format!("{padding} opup() padding call(s) + the call"),
        }
    }
}

/// Which verifier method of the app answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Method {
    /// `is_valid_solution(byte[])bool`: the original algorithm, paid with opups (3 000 µALGO).
    Classic,
    /// `is_valid_solution_lanes(byte[])bool`: the same verdict in one app call (1 000 µALGO).
    Lanes,
    /// `is_solution_of(byte[],byte[])bool`: a solved grid that keeps a puzzle's givens.
    SolutionOf,
    /// `are_valid_solutions(byte[])uint64`: up to 14 grids in one app call
    /// (1 000 µALGO a call); one answer per grid.
    Batch,
}

impl Method {
    /// The ABI method name in the app spec.
    pub fn abi_name(&self) -> &'static str {
        match self {
            Method::Classic => "is_valid_solution",
            Method::Lanes => "is_valid_solution_lanes",
            Method::SolutionOf => "is_solution_of",
            Method::Batch => "are_valid_solutions",
        }
    }

    /// The short name used on the command line and in JSON.
    pub fn name(&self) -> &'static str {
        match self {
            Method::Classic => "classic",
            Method::Lanes => "lanes",
            Method::SolutionOf => "solution_of",
            Method::Batch => "batch",
        }
    }
}

/// One verifier call: the method and its `byte[]` arguments (raw bytes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Call {
    /// The verifier method called.
    pub method: Method,
    /// Its `byte[]` arguments, raw (the client adds the ABI length prefix).
    pub args: Vec<Vec<u8>>,
}

impl Call {
    /// `method(grid)` for [`Method::Classic`] or [`Method::Lanes`].
    pub fn grid(method: Method, grid: &[u8]) -> Call {
        Call {
            method,
            args: vec![grid.to_vec()],
        }
    }

    /// `is_solution_of(puzzle, solution)`.
    pub fn solution_of(puzzle: &[u8], solution: &[u8]) -> Call {
        Call {
            method: Method::SolutionOf,
            args: vec![puzzle.to_vec(), solution.to_vec()],
        }
    }

    /// `are_valid_solutions(grids)` for up to [`algoku_avm::BATCH_MAX`] grids of
    /// 81 digits (one byte a digit, as the other methods take them), in the
    /// batch encoding ([`algoku_avm::batch`]). A byte that is not a digit 1..9
    /// becomes `0xff`, which the contract answers `false`, as the other
    /// methods do for that grid. `None` for a grid that is not 81 bytes or for
    /// more than 14 grids: the contract would reject the whole call.
    pub fn batch(grids: &[&[u8]]) -> Option<Call> {
        if grids.len() > algoku_avm::BATCH_MAX || grids.iter().any(|g| g.len() != GRID) {
            return None;
        }
        let bytes = grids
            .iter()
            .flat_map(|g| {
                g.iter()
                    .map(|&d| algoku_avm::batch::encode_cell(d).unwrap_or(0xff))
            })
            .collect();
        Some(Call {
            method: Method::Batch,
            args: vec![bytes],
        })
    }

    /// The answers the call gives: one per grid for [`Method::Batch`] (one,
    /// the rejection, for a length the contract rejects), else one.
    pub fn answers(&self) -> usize {
        match (self.method, self.args.first()) {
            (Method::Batch, Some(a)) if a.len() % GRID == 0 && a.len() <= BATCH_BYTES => {
                a.len() / GRID
            }
            _ => 1,
        }
    }
}

/// Bytes of a grid.
const GRID: usize = 81;
/// Bytes of a full `are_valid_solutions` call.
const BATCH_BYTES: usize = GRID * algoku_avm::BATCH_MAX;

/// The call's arguments ABI-encoded (`byte[]` each), after its selector.
pub(crate) fn abi_args(call: &Call) -> Result<Vec<Vec<u8>>, ClientError> {
    call.args
        .iter()
        .map(|a| {
            crate::app::abi_bytes(a).ok_or_else(|| {
                ClientError::Config(format!(
                    "an argument of {} bytes does not fit one app argument",
                    a.len()
                ))
            })
        })
        .collect()
}

/// What the contract said.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The method returned: `true` when the grid is a valid solution.
    Valid(bool),
    /// The call failed: the contract's message for the failing pc, or the AVM's.
    Rejected {
        /// The contract's error message for the failing pc, else the AVM's message.
        message: String,
        /// The AVM's own message.
        avm: String,
        /// The program counter of the failure, when known.
        pc: Option<u64>,
    },
}

/// The answer to one `verify`.
#[derive(Clone, Debug)]
pub struct Verification {
    /// The method that answered.
    pub method: Method,
    /// What the contract said.
    pub verdict: Verdict,
    /// The cheapest group that gets the call its opcode budget (`None` when rejected).
    pub strategy: Option<Strategy>,
    /// The other strategy and its fee, for comparison.
    pub alternative: Option<Strategy>,
    /// The fee paid, in µALGO (0 when only simulated).
    pub fee: u64,
    /// Opcodes the call used, when measured.
    pub budget_consumed: Option<u64>,
    /// The pooled opcode budget of the group (700 per app call).
    pub budget_pooled: Option<u64>,
    /// The ids of the transactions sent (empty when only simulated).
    pub txids: Vec<String>,
    /// The round the group was confirmed in, when sent.
    pub confirmed_round: Option<u64>,
    /// Whether the call was only simulated, not sent.
    pub simulated_only: bool,
    /// With `--method auto`: the other method's cheapest fee, as simulated.
    pub other_methods: Vec<(Method, u64)>,
}

/// The verifier app: its handle (chain, spec and, once chosen, the id).
pub struct Algoku {
    /// The app (its chain, spec and id).
    pub app: App,
}

impl Algoku {
    /// A client on `chain` with the committed spec; no app yet (see [`Algoku::deploy`]).
    pub fn new(chain: Chain) -> Result<Algoku, ClientError> {
        Ok(Algoku {
            app: App::new(chain, AppSpec::algoku()?),
        })
    }

    /// Create the app from the committed artifacts, or reuse this account's app
    /// with the same approval program.
    pub async fn deploy(&mut self) -> Result<Deployment, ClientError> {
        self.app.deploy("the app").await
    }

    /// The transactions of `strategy` for `call`; `fee_shortfall` µALGO less on the call.
    pub fn group_call(
        &self,
        call: &Call,
        strategy: Strategy,
        fee_shortfall: u64,
    ) -> Result<Vec<Transaction>, ClientError> {
        let min_fee = self.app.chain.min_fee();
        let mut txns = Vec::new();
        let call_fee = match strategy {
            Strategy::InnerOpups { .. } => strategy.fee(min_fee),
            Strategy::Padding { padding } => {
                for k in 0..padding as usize {
                    txns.push(self.app.call("opup", vec![], min_fee, k, vec![])?);
                }
                min_fee
            }
        };
        txns.push(self.app.call_noted(
            call.method.abi_name(),
            abi_args(call)?,
            call_fee.saturating_sub(fee_shortfall),
            None,
            vec![],
        )?);
        Ok(txns)
    }

    /// Simulate `strategy` as is (or with the call's fee `fee_shortfall` lower).
    pub async fn try_strategy(
        &mut self,
        grid: &[u8],
        strategy: Strategy,
        fee_shortfall: u64,
    ) -> Result<GroupOutcome, ClientError> {
        self.try_call(&Call::grid(Method::Classic, grid), strategy, fee_shortfall)
            .await
    }

    /// Simulate `strategy` for `call` as is (or with the call's fee `fee_shortfall` lower).
    pub async fn try_call(
        &mut self,
        call: &Call,
        strategy: Strategy,
        fee_shortfall: u64,
    ) -> Result<GroupOutcome, ClientError> {
        let txns = self.group_call(call, strategy, fee_shortfall)?;
        self.app.chain.simulate(txns).await
    }

    pub(crate) fn verdict_of(&self, outcome: &GroupOutcome) -> Result<Verdict, ClientError> {
        if let Some(f) = &outcome.failure {
            return Ok(self.rejection(f));
        }
        let log = outcome
            .txns
            .last()
            .and_then(|t| t.logs.last())
            .ok_or_else(|| {
                ClientError::Transaction("the call logged no ABI return value".into())
            })?;
        match log.as_slice() {
            [p0, p1, p2, p3, v] if [*p0, *p1, *p2, *p3] == RETURN_PREFIX => {
                Ok(Verdict::Valid(*v & 0x80 != 0))
            }
            _ => Err(ClientError::Transaction(format!(
                "unexpected return log {}",
                hex::encode(log)
            ))),
        }
    }

    pub(crate) fn rejection(&self, f: &Failure) -> Verdict {
        let contract =
            f.pc.and_then(|pc| self.app.spec.error_message(pc))
                .map(String::from);
        Verdict::Rejected {
            message: contract.unwrap_or_else(|| f.message.clone()),
            avm: f.message.clone(),
            pc: f.pc,
        }
    }

    /// Price both strategies on the chain; returns (verdict, cheapest, alternative).
    pub async fn plan(
        &mut self,
        grid: &[u8],
    ) -> Result<(Verdict, Option<Strategy>, Option<Strategy>), ClientError> {
        self.plan_call(&Call::grid(Method::Classic, grid)).await
    }

    /// Price both strategies for `call`; returns (verdict, cheapest, alternative).
    pub async fn plan_call(
        &mut self,
        call: &Call,
    ) -> Result<(Verdict, Option<Strategy>, Option<Strategy>), ClientError> {
        let p = self.plan_from(call, None).await?;
        Ok((p.verdict, p.best, p.alternative))
    }

    /// [`Algoku::plan_call`] from `probe`, the call's simulation with a
    /// generous fee when already made; the best strategy's own simulation is
    /// kept (its budget is the call's), so nothing is simulated twice.
    async fn plan_from(
        &mut self,
        call: &Call,
        probe: Option<GroupOutcome>,
    ) -> Result<Planned, ClientError> {
        let min_fee = self.app.chain.min_fee();
        // Generous fee: the contract makes exactly the inner opups it needs.
        let generous = Strategy::InnerOpups {
            inner: MAX_GROUP - 1,
        };
        let probe = match probe {
            Some(p) => p,
            None => self.try_call(call, generous, 0).await?,
        };
        let verdict = self.verdict_of(&probe)?;
        if let Verdict::Rejected { message, .. } = &verdict {
            if is_contract_failure(&probe) {
                return Ok(Planned {
                    verdict,
                    best: None,
                    alternative: None,
                    outcome: None,
                });
            }
            return Err(ClientError::Rejected {
                message: message.clone(),
                pc: None,
            });
        }
        let inner = probe
            .txns
            .last()
            .map(|t| t.inner_app_calls as u64)
            .unwrap_or(0);
        let inner_plan = Strategy::InnerOpups { inner };
        let inner_outcome = self.try_call(call, inner_plan, 0).await?;
        if !inner_outcome.succeeded() {
            return Err(ClientError::NoViablePlan(format!(
                "{} failed at its exact fee",
                inner_plan.describe()
            )));
        }
        // `[call]` with no padding is the same group as the call with no inner
        // opup: with no inner opup there is no padding to price.
        let mut padding_plan = None;
        for padding in inner.saturating_sub(1)..MAX_GROUP {
            let s = Strategy::Padding { padding };
            if inner == 0 || s.fee(min_fee) > inner_plan.fee(min_fee) {
                break; // no cheaper than inner opups any more
            }
            let outcome = self.try_call(call, s, 0).await?;
            if outcome.succeeded() {
                padding_plan = Some((s, outcome));
                break;
            }
        }
        Ok(match padding_plan {
            Some((p, outcome)) if p.fee(min_fee) < inner_plan.fee(min_fee) => Planned {
                verdict,
                best: Some(p),
                alternative: Some(inner_plan),
                outcome: Some(outcome),
            },
            Some((p, _)) => Planned {
                verdict,
                best: Some(inner_plan),
                alternative: Some(p),
                outcome: Some(inner_outcome),
            },
            None => Planned {
                verdict,
                best: Some(inner_plan),
                alternative: None,
                outcome: Some(inner_outcome),
            },
        })
    }

    /// Ask `is_valid_solution` about `grid`: plan, then send (unless `simulate_only`).
    pub async fn verify(
        &mut self,
        grid: &[u8],
        simulate_only: bool,
    ) -> Result<Verification, ClientError> {
        self.verify_call(&Call::grid(Method::Classic, grid), simulate_only)
            .await
    }

    /// The cheapest way to the verdict on `grid` across the app's two grid
    /// methods, both priced by simulation; on a tie the one-call method.
    pub async fn verify_auto(
        &mut self,
        grid: &[u8],
        simulate_only: bool,
    ) -> Result<Verification, ClientError> {
        let mut priced = Vec::new();
        for method in [Method::Lanes, Method::Classic] {
            let (fee, probe) = self.price_with_probe(&Call::grid(method, grid)).await?;
            priced.push((method, fee, probe));
        }
        // A rejection (wrong length) is the same for both: ask the one-call method.
        let chosen = priced
            .iter()
            .min_by_key(|(_, fee, _)| fee.unwrap_or(u64::MAX))
            .map_or(Method::Lanes, |(m, _, _)| *m);
        let other_methods = priced
            .iter()
            .filter(|(m, _, _)| *m != chosen)
            .filter_map(|(m, fee, _)| fee.map(|f| (*m, f)))
            .collect();
        let probe = priced
            .into_iter()
            .find(|(m, _, _)| *m == chosen)
            .map(|(_, _, p)| p);
        let mut v = self
            .verify_planned(&Call::grid(chosen, grid), simulate_only, probe)
            .await?;
        v.other_methods = other_methods;
        Ok(v)
    }

    /// [`Algoku::price_call`] and the simulation it came from.
    async fn price_with_probe(
        &mut self,
        call: &Call,
    ) -> Result<(Option<u64>, GroupOutcome), ClientError> {
        let generous = Strategy::InnerOpups {
            inner: MAX_GROUP - 1,
        };
        let probe = self.try_call(call, generous, 0).await?;
        if probe.failure.is_some() {
            return Ok((None, probe));
        }
        let inner = probe.txns.last().map_or(0, |t| t.inner_app_calls as u64);
        let fee = Strategy::InnerOpups { inner }.fee(self.app.chain.min_fee());
        Ok((Some(fee), probe))
    }

    /// The fee of `call` alone with inner opups (never above outer padding's),
    /// from one simulation with a generous fee; `None` when the contract
    /// rejects the input.
    pub async fn price_call(&mut self, call: &Call) -> Result<Option<u64>, ClientError> {
        Ok(self.price_with_probe(call).await?.0)
    }

    /// Ask the contract `call`: plan, then send (unless `simulate_only`).
    pub async fn verify_call(
        &mut self,
        call: &Call,
        simulate_only: bool,
    ) -> Result<Verification, ClientError> {
        self.verify_planned(call, simulate_only, None).await
    }

    /// [`Algoku::verify_call`] from the call's generous simulation, when made.
    async fn verify_planned(
        &mut self,
        call: &Call,
        simulate_only: bool,
        probe: Option<GroupOutcome>,
    ) -> Result<Verification, ClientError> {
        let Planned {
            verdict,
            best,
            alternative,
            outcome,
        } = self.plan_from(call, probe).await?;
        let mut v = Verification {
            method: call.method,
            verdict,
            strategy: best,
            alternative,
            fee: 0,
            budget_consumed: None,
            budget_pooled: None,
            txids: Vec::new(),
            confirmed_round: None,
            simulated_only: true,
            other_methods: Vec::new(),
        };
        // No strategy: the contract rejected the input; nothing is sent.
        let Some(strategy) = best else { return Ok(v) };
        v.budget_consumed = match outcome.and_then(|o| o.budget_consumed) {
            Some(b) => Some(b),
            None => {
                self.app
                    .chain
                    .measure_budget(self.group_call(call, strategy, 0)?)
                    .await?
            }
        };
        v.budget_pooled = Some(strategy.app_calls() * APP_CALL_BUDGET);
        if simulate_only {
            return Ok(v);
        }
        let fee = strategy.fee(self.app.chain.min_fee());
        self.app.chain.ensure_funds(fee).await?;
        let (outcome, txids) = self
            .app
            .chain
            .send(self.group_call(call, strategy, 0)?)
            .await?;
        let sent = self.verdict_of(&outcome)?;
        if sent != v.verdict {
            return Err(ClientError::Transaction(format!(
                "simulated {:?} but the chain said {sent:?}",
                v.verdict
            )));
        }
        v.fee = fee;
        v.txids = txids;
        v.confirmed_round = outcome.confirmed_round;
        v.simulated_only = false;
        Ok(v)
    }
}

/// A call's plan: the verdict, the cheapest strategy and the other, and the
/// cheapest's own simulation (its budget is the call's).
struct Planned {
    verdict: Verdict,
    best: Option<Strategy>,
    alternative: Option<Strategy>,
    outcome: Option<GroupOutcome>,
}

/// Did the contract itself fail the call (an assert), rather than the budget or fees?
fn is_contract_failure(outcome: &GroupOutcome) -> bool {
    outcome
        .failure
        .as_ref()
        .is_some_and(|f| f.message.contains("assert failed") || f.message.contains("err opcode"))
}
