//! One app on one chain, whatever its contract: the handle every app client
//! (Algoku's verifier, Curta, the Game) is built on. It picks the app —
//! created from the committed artifacts, this account's app with the same
//! program, or a given id whose approval program is checked byte for byte —
//! and makes its ABI calls and reads their ARC-4 return values.

use crate::chain::{micro, Chain, APP_MIN_BALANCE};
use crate::error::ClientError;
use crate::outcome::GroupOutcome;
use crate::spec::AppSpec;
use algonaut::core::{AppId, CompiledTeal};
use algonaut::transaction::builder::{CallApplication, CreateApplication, Pay};
use algonaut::transaction::transaction::{BoxReference, StateSchema};
use algonaut::transaction::Transaction;

/// ARC-4 return prefix: the last log of an ABI call is `151f7c75 ‖ value`.
pub const RETURN_PREFIX: [u8; 4] = [0x15, 0x1f, 0x7c, 0x75];

/// Where the app is.
#[derive(Clone, Debug)]
pub struct Deployment {
    /// The app id.
    pub app_id: u64,
    /// Whether an existing app with the same approval program was reused instead of created.
    pub reused: bool,
    /// The id of the creating transaction (`None` when reused).
    pub txid: Option<String>,
    /// The fee of the creation, in µALGO (0 when reused).
    pub fee: u64,
}

impl Deployment {
    fn reused(app_id: u64) -> Deployment {
        Deployment {
            app_id,
            reused: true,
            txid: None,
            fee: 0,
        }
    }
}

/// What a game's `solve` sent.
#[derive(Clone, Debug)]
pub struct Solve {
    /// Whether the app accepted the solution.
    pub accepted: bool,
    /// The ids of the transactions sent.
    pub txids: Vec<String>,
    /// The fees paid, in µALGO.
    pub fee: u64,
    /// The box minimum balance paid to the app, in µALGO (0 when none).
    pub paid: u64,
}

/// The record a solve the app accepted left, as read back: an error when
/// there is none.
pub fn recorded<R>(record: Option<R>) -> Result<R, ClientError> {
    record.ok_or_else(|| {
        ClientError::Transaction("solve was accepted but no record was read back".into())
    })
}

/// An app of `spec` on `chain`, once one is chosen.
pub struct App {
    /// The chain the app lives on, and the signing account.
    pub chain: Chain,
    /// The committed ARC-56 spec of its contract.
    pub spec: AppSpec,
    deployed: Option<u64>,
}

impl App {
    /// A handle on `chain` for the contract of `spec`; no app chosen yet.
    pub fn new(chain: Chain, spec: AppSpec) -> App {
        App {
            chain,
            spec,
            deployed: None,
        }
    }

    /// The app in use, else this account's newest app with the same program
    /// (then used from now on), else `None`.
    async fn reuse(&mut self) -> Result<Option<u64>, ClientError> {
        if self.deployed.is_none() {
            self.deployed = self.own_app().await?;
        }
        Ok(self.deployed)
    }

    /// This account's newest app whose approval program is the committed one
    /// (on the embedded backend's fresh ledger there is none).
    pub async fn own_app(&mut self) -> Result<Option<u64>, ClientError> {
        let apps = self.chain.created_apps_with(&self.spec.approval).await?;
        Ok(apps.iter().max().copied())
    }

    /// Creates the app from the committed artifacts with `globals` global
    /// uints, sending one transaction; `label` names it in a refusal.
    async fn create(&mut self, globals: u64, label: &str) -> Result<Deployment, ClientError> {
        let fee = self.chain.min_fee();
        let create = CreateApplication::new(
            self.chain.address(),
            CompiledTeal(self.spec.approval.clone()),
            CompiledTeal(self.spec.clear.clone()),
            StateSchema {
                number_ints: globals,
                number_byteslices: 0,
            },
            StateSchema::empty(),
        )
        .extra_pages(self.spec.extra_pages())
        .build(&self.chain.params)?;
        let (app_id, txids) = self.chain.create_app(create, label).await?;
        self.deployed = Some(app_id);
        Ok(Deployment {
            app_id,
            reused: false,
            txid: txids.first().cloned(),
            fee,
        })
    }

    /// Creates the app from the committed artifacts (no state), or reuses
    /// this account's app with the same program. `label` names it in errors.
    pub async fn deploy(&mut self, label: &str) -> Result<Deployment, ClientError> {
        if let Some(app_id) = self.reuse().await? {
            return Ok(Deployment::reused(app_id));
        }
        self.chain.ensure_funds(self.deploy_cost()).await?;
        self.create(0, label).await
    }

    /// What [`App::deploy`] takes from the account when it creates: its fee
    /// and [`App::creator_min_balance`].
    pub fn deploy_cost(&self) -> u64 {
        self.chain.min_fee() + self.creator_min_balance()
    }

    /// The rise of the creator's minimum balance while the app exists
    /// (100 000 µALGO per app and extra page).
    pub fn creator_min_balance(&self) -> u64 {
        APP_MIN_BALANCE * (1 + self.spec.extra_pages() as u64)
    }

    /// Creates an app that records solves in boxes (one global uint, the
    /// solver count) from the committed artifacts, and funds its account with
    /// its 100 000 µALGO minimum balance so that each box can be paid for by
    /// its own solve; or reuses this account's app with the same program.
    /// `label` names it in errors. The [`Deployment`]'s fee counts both
    /// transactions, the creation's and the funding payment's.
    pub async fn deploy_funded(&mut self, label: &str) -> Result<Deployment, ClientError> {
        if let Some(app_id) = self.reuse().await? {
            return Ok(Deployment::reused(app_id));
        }
        let fee = self.chain.min_fee();
        self.chain
            .ensure_funds(3 * fee + self.creator_min_balance() + APP_MIN_BALANCE)
            .await?;
        let mut created = self.create(1, label).await?;
        let fund = Pay::new(
            self.chain.address(),
            AppId(created.app_id).address(),
            micro(APP_MIN_BALANCE),
        )
        .build(&self.chain.params)?;
        let (outcome, _) = self.chain.send(vec![fund]).await?;
        if let Some(f) = outcome.failure {
            return Err(ClientError::Rejected {
                message: format!("funding {label}'s account: {}", f.message),
                pc: f.pc,
            });
        }
        created.fee += fee;
        Ok(created)
    }

    /// Uses app `app_id` after checking on the chain that its approval
    /// program is the committed artifact, byte for byte: any other app could
    /// answer anything (a program that logs `151f7c7580` says `true`).
    pub async fn use_checked_app(&mut self, app_id: u64) -> Result<(), ClientError> {
        self.chain.check_app(&self.spec, app_id).await?;
        self.deployed = Some(app_id);
        Ok(())
    }

    /// Uses an app deployed earlier, without looking at it.
    pub fn use_app(&mut self, app_id: u64) {
        self.deployed = Some(app_id);
    }

    /// The app in use, if any (deployed, reused or checked).
    pub fn id(&self) -> Option<u64> {
        self.deployed
    }

    /// The app in use, or the error of a call made before choosing one.
    pub fn app_id(&self) -> Result<u64, ClientError> {
        self.deployed
            .ok_or_else(|| ClientError::Config("no app: deploy first".into()))
    }

    /// One ABI call of `method` to the app in use, with the note
    /// `"{method} {note}"` (distinct notes keep otherwise equal calls' txids
    /// apart).
    pub fn call(
        &self,
        method: &str,
        args: Vec<Vec<u8>>,
        fee: u64,
        note: usize,
        boxes: Vec<BoxReference>,
    ) -> Result<Transaction, ClientError> {
        let note = format!("{method} {note}").into_bytes();
        self.call_noted(method, args, fee, Some(note), boxes)
    }

    /// One ABI call of `method` to the app in use from the signing account:
    /// the selector then `args` (already ABI-encoded), `fee`, `note` if any,
    /// and `boxes`.
    pub fn call_noted(
        &self,
        method: &str,
        args: Vec<Vec<u8>>,
        fee: u64,
        note: Option<Vec<u8>>,
        boxes: Vec<BoxReference>,
    ) -> Result<Transaction, ClientError> {
        let mut app_args = vec![self.spec.method(method)?.selector.to_vec()];
        app_args.extend(args);
        let mut b = CallApplication::new(self.chain.address(), AppId(self.app_id()?))
            .app_arguments(app_args)
            .fee(micro(fee));
        if let Some(note) = note {
            b = b.note(note);
        }
        if !boxes.is_empty() {
            b = b.boxes(boxes);
        }
        Ok(b.build(&self.chain.params)?)
    }
}

/// What the creator's `withdraw()` of a game took back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Withdrawal {
    /// µALGO paid to the creator: what the app account held above its minimum balance.
    pub amount: u64,
    /// µALGO of fees paid (0 when there was nothing to take and nothing was sent).
    pub fee: u64,
    /// The call's txid, when sent.
    pub txid: Option<String>,
}

impl App {
    /// Simulates `txns` before they are sent: the outcome, or (the group would fail) an
    /// error in the contract's own words, its ARC-56 message for the failing program
    /// counter, naming `what` and saying that nothing was sent.
    pub async fn simulate_or_refuse(
        &mut self,
        txns: Vec<Transaction>,
        what: &str,
    ) -> Result<GroupOutcome, ClientError> {
        let trial = self.chain.simulate(txns).await?;
        if let Some(f) = &trial.failure {
            let why =
                f.pc.and_then(|pc| self.spec.error_message(pc))
                    .unwrap_or(&f.message);
            return Err(ClientError::Rejected {
                message: format!("{what} (simulated, nothing sent): {why}"),
                pc: f.pc,
            });
        }
        Ok(trial)
    }

    /// A game's `withdraw()`: the creator takes back what the app account holds above
    /// its minimum balance (plain transfers; never the boxes' minimum balance). It is
    /// simulated first: with nothing to take, nothing is sent; else the call pays two
    /// min fees (its inner payment's too). Only the creator may: the app refuses others.
    pub async fn withdraw(&mut self) -> Result<Withdrawal, ClientError> {
        let fee = 2 * self.chain.min_fee();
        let call = self.call("withdraw", vec![], fee, 0, vec![])?;
        let trial = self
            .simulate_or_refuse(vec![call.clone()], "withdraw")
            .await?;
        let amount = u64_of(&returned(&trial, 0)?)?;
        if amount == 0 {
            return Ok(Withdrawal {
                amount,
                fee: 0,
                txid: None,
            });
        }
        self.chain.ensure_funds(fee).await?;
        let (outcome, txids) = self.chain.send(vec![call]).await?;
        if let Some(f) = &outcome.failure {
            return Err(ClientError::Rejected {
                message: format!("withdraw: {}", f.message),
                pc: f.pc,
            });
        }
        Ok(Withdrawal {
            amount: u64_of(&returned(&outcome, 0)?)?,
            fee,
            txid: txids.into_iter().next(),
        })
    }
}

/// An ABI `uint64` return value.
fn u64_of(bytes: &[u8]) -> Result<u64, ClientError> {
    let b: [u8; 8] = bytes.try_into().map_err(|_| {
        ClientError::Transaction(format!("a uint64 is 8 bytes, not {}", bytes.len()))
    })?;
    Ok(u64::from_be_bytes(b))
}

/// ABI `byte[]`: a uint16 length prefix, then the bytes; `None` when they do
/// not fit one.
pub fn abi_bytes(bytes: &[u8]) -> Option<Vec<u8>> {
    let len = u16::try_from(bytes.len()).ok()?;
    let mut arg = len.to_be_bytes().to_vec();
    arg.extend_from_slice(bytes);
    Some(arg)
}

/// The ARC-4 return value of transaction `i` of a group: its last log, less
/// the return prefix.
pub fn returned(outcome: &GroupOutcome, i: usize) -> Result<Vec<u8>, ClientError> {
    let logs = &outcome
        .txns
        .get(i)
        .ok_or_else(|| ClientError::Transaction(format!("no result for transaction {i}")))?
        .logs;
    let last = logs
        .last()
        .ok_or_else(|| ClientError::Transaction(format!("transaction {i} returned nothing")))?;
    if last.len() < 4 || last[..4] != RETURN_PREFIX {
        return Err(ClientError::Transaction(format!(
            "transaction {i}: last log is not an ARC-4 return"
        )));
    }
    Ok(last[4..].to_vec())
}
