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

use crate::chain::{micro, Chain, APP_CALL_BUDGET};
use crate::error::ClientError;
use crate::outcome::{Failure, GroupOutcome};
use crate::spec::AppSpec;
use algonaut::core::{AppId, CompiledTeal};
use algonaut::transaction::builder::{CallApplication, CreateApplication};
use algonaut::transaction::transaction::StateSchema;
use algonaut::transaction::Transaction;

/// ARC-4 return prefix: the last log of an ABI call is `151f7c75 ‖ value`.
pub const RETURN_PREFIX: [u8; 4] = [0x15, 0x1f, 0x7c, 0x75];
/// A group holds at most 16 transactions.
pub const MAX_GROUP: u64 = 16;
/// Minimum balance an app creator needs per created app, plus per extra page.
const APP_MIN_BALANCE: u64 = 100_000;

/// How a call gets the opcode budget it needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    /// The call alone, paying for `inner` inner opup calls.
    InnerOpups { inner: u64 },
    /// `padding` opup() calls before the call.
    Padding { padding: u64 },
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

    pub fn describe(&self) -> String {
        match *self {
            Strategy::InnerOpups { inner } => format!("1 call paying for {inner} inner opup(s)"),
            Strategy::Padding { padding } => format!("{padding} opup() padding call(s) + the call"),
        }
    }
}

/// What the contract said.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Valid(bool),
    /// The call failed: the contract's message for the failing pc, or the AVM's.
    Rejected {
        message: String,
        avm: String,
        pc: Option<u64>,
    },
}

/// The answer to one `verify`.
#[derive(Clone, Debug)]
pub struct Verification {
    pub verdict: Verdict,
    pub strategy: Option<Strategy>,
    /// The other strategy and its fee, for comparison.
    pub alternative: Option<Strategy>,
    pub fee: u64,
    pub budget_consumed: Option<u64>,
    pub budget_pooled: Option<u64>,
    pub txids: Vec<String>,
    pub confirmed_round: Option<u64>,
    pub simulated_only: bool,
}

/// Where the app is.
#[derive(Clone, Debug)]
pub struct Deployment {
    pub app_id: u64,
    pub reused: bool,
    pub txid: Option<String>,
    pub fee: u64,
}

/// The client: a chain, the spec, and (once deployed) the app.
pub struct Algoku {
    pub chain: Chain,
    pub spec: AppSpec,
    deployed: Option<u64>,
}

impl Algoku {
    pub fn new(chain: Chain) -> Result<Algoku, ClientError> {
        Ok(Algoku {
            chain,
            spec: AppSpec::algoku()?,
            deployed: None,
        })
    }

    /// Create the app from the committed artifacts, or reuse this account's app
    /// with the same approval program.
    pub async fn deploy(&mut self) -> Result<Deployment, ClientError> {
        if let Some(app_id) = self.deployed {
            return Ok(Deployment {
                app_id,
                reused: true,
                txid: None,
                fee: 0,
            });
        }
        if let Some(&app_id) = self
            .chain
            .created_apps_with(&self.spec.approval)
            .await?
            .iter()
            .max()
        {
            self.deployed = Some(app_id);
            return Ok(Deployment {
                app_id,
                reused: true,
                txid: None,
                fee: 0,
            });
        }
        let fee = self.chain.min_fee();
        let extra = self.spec.extra_pages();
        self.chain
            .ensure_funds(fee + APP_MIN_BALANCE * (1 + extra as u64) + 100_000)
            .await?;
        let create = CreateApplication::new(
            self.chain.address(),
            CompiledTeal(self.spec.approval.clone()),
            CompiledTeal(self.spec.clear.clone()),
            StateSchema::empty(),
            StateSchema::empty(),
        )
        .extra_pages(extra)
        .build(&self.chain.params)?;
        let (outcome, txids) = self.chain.send(vec![create]).await?;
        if let Some(f) = outcome.failure {
            return Err(ClientError::Rejected {
                message: format!("creating the app: {}", f.message),
                pc: f.pc,
            });
        }
        let app_id = outcome
            .txns
            .first()
            .and_then(|t| t.created_app)
            .ok_or_else(|| {
                ClientError::Transaction("the create transaction reported no app id".into())
            })?;
        self.deployed = Some(app_id);
        Ok(Deployment {
            app_id,
            reused: false,
            txid: txids.first().cloned(),
            fee,
        })
    }

    /// Use an app deployed earlier.
    pub fn use_app(&mut self, app_id: u64) {
        self.deployed = Some(app_id);
    }

    fn app_id(&self) -> Result<u64, ClientError> {
        self.deployed
            .ok_or_else(|| ClientError::Config("no app: deploy first".into()))
    }

    /// The transactions of `strategy` for `grid`; `fee_shortfall` µALGO less on the call.
    pub fn group(
        &self,
        grid: &[u8],
        strategy: Strategy,
        fee_shortfall: u64,
    ) -> Result<Vec<Transaction>, ClientError> {
        let app = AppId(self.app_id()?);
        let sender = self.chain.address();
        let min_fee = self.chain.min_fee();
        let opup = self.spec.method("opup")?.selector.to_vec();
        let method = self.spec.method("is_valid_solution")?.selector.to_vec();
        let mut txns = Vec::new();
        let call_fee = match strategy {
            Strategy::InnerOpups { .. } => strategy.fee(min_fee),
            Strategy::Padding { padding } => {
                for k in 0..padding {
                    txns.push(
                        CallApplication::new(sender, app)
                            .app_arguments(vec![opup.clone()])
                            .note(format!("opup {k}").into_bytes())
                            .fee(micro(min_fee))
                            .build(&self.chain.params)?,
                    );
                }
                min_fee
            }
        };
        // ABI byte[]: a uint16 length prefix, then the bytes.
        let len = u16::try_from(grid.len()).map_err(|_| {
            ClientError::Config(format!(
                "a grid of {} bytes does not fit one app argument",
                grid.len()
            ))
        })?;
        let mut arg = len.to_be_bytes().to_vec();
        arg.extend_from_slice(grid);
        txns.push(
            CallApplication::new(sender, app)
                .app_arguments(vec![method, arg])
                .fee(micro(call_fee.saturating_sub(fee_shortfall)))
                .build(&self.chain.params)?,
        );
        Ok(txns)
    }

    /// Simulate `strategy` as is (or with the call's fee `fee_shortfall` lower).
    pub async fn try_strategy(
        &mut self,
        grid: &[u8],
        strategy: Strategy,
        fee_shortfall: u64,
    ) -> Result<GroupOutcome, ClientError> {
        let txns = self.group(grid, strategy, fee_shortfall)?;
        self.chain.simulate(txns).await
    }

    fn verdict_of(&self, outcome: &GroupOutcome) -> Result<Verdict, ClientError> {
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

    fn rejection(&self, f: &Failure) -> Verdict {
        let contract =
            f.pc.and_then(|pc| self.spec.error_message(pc))
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
        let min_fee = self.chain.min_fee();
        // Generous fee: the contract makes exactly the inner opups it needs.
        let generous = Strategy::InnerOpups {
            inner: MAX_GROUP - 1,
        };
        let probe = self.try_strategy(grid, generous, 0).await?;
        let verdict = self.verdict_of(&probe)?;
        if let Verdict::Rejected { .. } = verdict {
            if is_contract_failure(&probe) {
                return Ok((verdict, None, None));
            }
            return Err(ClientError::NoViablePlan(format!("{verdict:?}")));
        }
        let inner = probe
            .txns
            .last()
            .map(|t| t.inner_app_calls as u64)
            .unwrap_or(0);
        let inner_plan = Strategy::InnerOpups { inner };
        if !self.try_strategy(grid, inner_plan, 0).await?.succeeded() {
            return Err(ClientError::NoViablePlan(format!(
                "{} failed at its exact fee",
                inner_plan.describe()
            )));
        }
        let mut padding_plan = None;
        for padding in inner.saturating_sub(1)..MAX_GROUP {
            let s = Strategy::Padding { padding };
            if s.fee(min_fee) > inner_plan.fee(min_fee) {
                break; // no cheaper than inner opups any more
            }
            if self.try_strategy(grid, s, 0).await?.succeeded() {
                padding_plan = Some(s);
                break;
            }
        }
        let (best, alt) = match padding_plan {
            Some(p) if p.fee(min_fee) < inner_plan.fee(min_fee) => (p, Some(inner_plan)),
            Some(p) => (inner_plan, Some(p)),
            None => (inner_plan, None),
        };
        Ok((verdict, Some(best), alt))
    }

    /// Ask the contract about `grid`: plan, then send (unless `simulate_only`).
    pub async fn verify(
        &mut self,
        grid: &[u8],
        simulate_only: bool,
    ) -> Result<Verification, ClientError> {
        let (verdict, best, alternative) = self.plan(grid).await?;
        let mut v = Verification {
            verdict,
            strategy: best,
            alternative,
            fee: 0,
            budget_consumed: None,
            budget_pooled: None,
            txids: Vec::new(),
            confirmed_round: None,
            simulated_only: true,
        };
        // No strategy: the contract rejected the input; nothing is sent.
        let Some(strategy) = best else { return Ok(v) };
        v.budget_consumed = self
            .chain
            .measure_budget(self.group(grid, strategy, 0)?)
            .await?;
        v.budget_pooled = Some(strategy.app_calls() * APP_CALL_BUDGET);
        if simulate_only {
            return Ok(v);
        }
        let fee = strategy.fee(self.chain.min_fee());
        self.chain.ensure_funds(fee + 100_000).await?;
        let (outcome, txids) = self.chain.send(self.group(grid, strategy, 0)?).await?;
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

/// Did the contract itself fail the call (an assert), rather than the budget or fees?
fn is_contract_failure(outcome: &GroupOutcome) -> bool {
    outcome
        .failure
        .as_ref()
        .is_some_and(|f| f.message.contains("assert failed") || f.message.contains("err opcode"))
}
