//! One app on one chain, whatever its contract: the handle every app client
//! (Algoku's verifier, Curta, the Game) is built on. It picks the app —
//! created from the committed artifacts, this account's app with the same
//! program, or a given id whose approval program is checked byte for byte —
//! and makes its ABI calls and reads their ARC-4 return values.

use crate::algoku::RETURN_PREFIX;
use crate::chain::Chain;
use crate::error::ClientError;
use crate::outcome::GroupOutcome;
use crate::spec::AppSpec;
use algonaut::transaction::transaction::BoxReference;
use algonaut::transaction::Transaction;

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

    /// Creates the app from the committed artifacts (funding its account
    /// with the 100 000 µALGO minimum, so boxes can be paid into it), or
    /// reuses this account's app with the same program. `label` names it in
    /// errors. Returns the id and whether it was reused.
    pub async fn deploy_funded(&mut self, label: &str) -> Result<(u64, bool), ClientError> {
        if let Some(app_id) = self.deployed {
            return Ok((app_id, true));
        }
        let (app_id, reused) = self.chain.deploy_box_app(&self.spec, label).await?;
        self.deployed = Some(app_id);
        Ok((app_id, reused))
    }

    /// Uses app `app_id` after checking on the chain that its approval
    /// program is the committed artifact, byte for byte: any other app could
    /// answer anything.
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

    /// One ABI call of `method` to the app in use.
    pub fn call(
        &self,
        method: &str,
        args: Vec<Vec<u8>>,
        fee: u64,
        note: usize,
        boxes: Vec<BoxReference>,
    ) -> Result<Transaction, ClientError> {
        self.chain
            .abi_call(&self.spec, self.app_id()?, method, args, fee, note, boxes)
    }
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
