//! The Curta "2 x 4 = 8" app (smart_contracts/curta/contract.py) from Rust:
//! deploy it (or reuse this account's app, or check an `--app-id`'s approval
//! program byte for byte against the committed artifact), ask it for
//! `generate` / `verify` verdicts in atomic groups of up to 16 calls (simulated:
//! nothing is spent), read `record(address)`, and play `solve` for real.
//!
//! `solve` is sent as `[opup(), payment of BOX_MBR to the app, solve(solution)]`
//! with the sender's box (key = its 32-byte address) referenced, min fee each:
//! the outer opup gives the budget, so the contract makes no inner transaction. The app account is
//! funded with the 100 000 µALGO account minimum at creation, so the box
//! payment of 31 300 can land in it.

use crate::algoku::{MAX_GROUP, RETURN_PREFIX};
use crate::chain::{micro, Chain};
use crate::error::ClientError;
use crate::outcome::GroupOutcome;
use crate::spec::AppSpec;
use algonaut::core::{AppId, CompiledTeal};
use algonaut::transaction::builder::{CallApplication, CreateApplication, Pay};
use algonaut::transaction::transaction::{BoxReference, StateSchema};
use algonaut::transaction::Transaction;

/// The box minimum balance a first solve pays: 2500 + 400 * (32 + 40).
pub const BOX_MBR: u64 = 2500 + 400 * 72;
const APP_MIN_BALANCE: u64 = 100_000;

/// A recorded solve: the round and the solution stored in the player's box.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub round: u64,
    pub solution: [u8; 32],
}

/// The Curta app on one chain.
pub struct Curta {
    pub chain: Chain,
    pub spec: AppSpec,
    deployed: Option<u64>,
}

fn returned(outcome: &GroupOutcome, i: usize) -> Result<Vec<u8>, ClientError> {
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

fn board(bytes: &[u8]) -> Result<[u8; 32], ClientError> {
    bytes
        .try_into()
        .map_err(|_| ClientError::Transaction(format!("expected 32 bytes, got {}", bytes.len())))
}

fn abi_bool(bytes: &[u8]) -> Result<bool, ClientError> {
    match bytes {
        [0x80] => Ok(true),
        [0x00] => Ok(false),
        _ => Err(ClientError::Transaction(format!(
            "not an ARC-4 bool: {}",
            hex::encode(bytes)
        ))),
    }
}

/// The outcome of `play`'s solve.
#[derive(Clone, Debug)]
pub struct Solve {
    pub accepted: bool,
    pub txids: Vec<String>,
    pub fee: u64,
    pub paid: u64,
}

impl Curta {
    pub fn new(chain: Chain) -> Result<Curta, ClientError> {
        Ok(Curta {
            chain,
            spec: AppSpec::curta()?,
            deployed: None,
        })
    }

    /// Create the app from the committed artifacts (funding its account with the
    /// 100 000 µALGO minimum), or reuse this account's app with the same program.
    /// Returns the app id and whether it was reused.
    pub async fn deploy(&mut self) -> Result<(u64, bool), ClientError> {
        if let Some(app_id) = self.deployed {
            return Ok((app_id, true));
        }
        if let Some(&app_id) = self
            .chain
            .created_apps_with(&self.spec.approval)
            .await?
            .iter()
            .max()
        {
            self.deployed = Some(app_id);
            return Ok((app_id, true));
        }
        // Curta keeps a global counter: its app id must be >= 256 on the evaluator.
        self.chain.reserve_app_ids().await?;
        let fee = self.chain.min_fee();
        let extra = self.spec.extra_pages();
        self.chain
            .ensure_funds(3 * fee + APP_MIN_BALANCE * (2 + extra as u64) + 100_000)
            .await?;
        let create = CreateApplication::new(
            self.chain.address(),
            CompiledTeal(self.spec.approval.clone()),
            CompiledTeal(self.spec.clear.clone()),
            // The solver count (Curta.arc56.json: global ints 1, bytes 0).
            StateSchema {
                number_ints: 1,
                number_byteslices: 0,
            },
            StateSchema::empty(),
        )
        .extra_pages(extra)
        .build(&self.chain.params)?;
        let (outcome, _) = self.chain.send(vec![create]).await?;
        if let Some(f) = outcome.failure {
            return Err(ClientError::Rejected {
                message: format!("creating the Curta app: {}", f.message),
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
        let fund = Pay::new(
            self.chain.address(),
            AppId(app_id).address(),
            micro(APP_MIN_BALANCE),
        )
        .build(&self.chain.params)?;
        let (outcome, _) = self.chain.send(vec![fund]).await?;
        if let Some(f) = outcome.failure {
            return Err(ClientError::Rejected {
                message: format!("funding the Curta app account: {}", f.message),
                pc: f.pc,
            });
        }
        self.deployed = Some(app_id);
        Ok((app_id, false))
    }

    /// Use app `app_id` after checking that its approval program is the Curta artifact.
    pub async fn use_checked_app(&mut self, app_id: u64) -> Result<(), ClientError> {
        match self.chain.app_approval(app_id).await? {
            None => Err(ClientError::Config(format!(
                "app {app_id} does not exist on this chain"
            ))),
            Some(program) if program != self.spec.approval => {
                use sha2::{Digest, Sha256};
                Err(ClientError::Config(format!(
                    "app {app_id} is not Curta: its approval program (sha256 {}) differs from \
                     smart_contracts/artifacts/curta/Curta.approval.bin (sha256 {})",
                    hex::encode(&Sha256::digest(&program)[..8]),
                    hex::encode(&Sha256::digest(&self.spec.approval)[..8]),
                )))
            }
            Some(_) => {
                self.deployed = Some(app_id);
                Ok(())
            }
        }
    }

    pub fn app(&self) -> Option<u64> {
        self.deployed
    }

    fn app_id(&self) -> Result<u64, ClientError> {
        self.deployed
            .ok_or_else(|| ClientError::Config("no app: deploy first".into()))
    }

    fn call(
        &self,
        method: &str,
        args: Vec<Vec<u8>>,
        fee: u64,
        note: usize,
        boxes: Vec<BoxReference>,
    ) -> Result<Transaction, ClientError> {
        let mut app_args = vec![self.spec.method(method)?.selector.to_vec()];
        app_args.extend(args);
        let mut b = CallApplication::new(self.chain.address(), AppId(self.app_id()?))
            .app_arguments(app_args)
            .fee(micro(fee))
            .note(format!("{method} {note}").into_bytes());
        if !boxes.is_empty() {
            b = b.boxes(boxes);
        }
        Ok(b.build(&self.chain.params)?)
    }

    async fn simulate_many(
        &mut self,
        method: &str,
        args: Vec<Vec<Vec<u8>>>,
    ) -> Result<Vec<Vec<u8>>, ClientError> {
        let fee = self.chain.min_fee();
        let mut out = Vec::with_capacity(args.len());
        for chunk in args.chunks(MAX_GROUP as usize) {
            let txns = chunk
                .iter()
                .enumerate()
                .map(|(i, a)| self.call(method, a.clone(), fee, i, vec![]))
                .collect::<Result<Vec<_>, _>>()?;
            let outcome = self.chain.simulate(txns).await?;
            if let Some(f) = &outcome.failure {
                return Err(ClientError::Rejected {
                    message: format!("{method}: {}", f.message),
                    pc: f.pc,
                });
            }
            for i in 0..chunk.len() {
                out.push(returned(&outcome, i)?);
            }
        }
        Ok(out)
    }

    /// `generate(seed)` for each seed, 16 calls per simulated group, in order.
    pub async fn generate_many(&mut self, seeds: &[Vec<u8>]) -> Result<Vec<[u8; 32]>, ClientError> {
        let args = seeds
            .iter()
            .map(|s| {
                let len = u16::try_from(s.len())
                    .map_err(|_| ClientError::Config("seed longer than 65535 bytes".into()))?;
                let mut a = len.to_be_bytes().to_vec();
                a.extend_from_slice(s);
                Ok(vec![a])
            })
            .collect::<Result<Vec<_>, ClientError>>()?;
        self.simulate_many("generate", args)
            .await?
            .iter()
            .map(|r| board(r))
            .collect()
    }

    /// `verify(start, solution)` for each pair, 16 calls per simulated group, in order.
    pub async fn verify_many(
        &mut self,
        pairs: &[([u8; 32], [u8; 32])],
    ) -> Result<Vec<bool>, ClientError> {
        let args = pairs
            .iter()
            .map(|(s, x)| vec![s.to_vec(), x.to_vec()])
            .collect();
        self.simulate_many("verify", args)
            .await?
            .iter()
            .map(|r| abi_bool(r))
            .collect()
    }

    /// The signing account's start: `generate(address bytes)` on the chain.
    pub async fn my_start(&mut self) -> Result<[u8; 32], ClientError> {
        let seed = self.chain.address().0.to_vec();
        Ok(self.generate_many(&[seed]).await?[0])
    }

    /// `record(address)`: the stored solve of `address`, if any (round 0 = none).
    pub async fn record(&mut self, address: [u8; 32]) -> Result<Option<Record>, ClientError> {
        let fee = self.chain.min_fee();
        let txn = self.call(
            "record",
            vec![address.to_vec()],
            fee,
            0,
            vec![BoxReference {
                app_id: None,
                name: address.to_vec(),
            }],
        )?;
        let outcome = self.chain.simulate(vec![txn]).await?;
        if let Some(f) = &outcome.failure {
            return Err(ClientError::Rejected {
                message: format!("record: {}", f.message),
                pc: f.pc,
            });
        }
        let r = returned(&outcome, 0)?;
        if r.len() != 40 {
            return Err(ClientError::Transaction(format!(
                "record returned {} bytes, expected 40",
                r.len()
            )));
        }
        let round = u64::from_be_bytes(r[..8].try_into().expect("8 bytes"));
        if round == 0 {
            return Ok(None);
        }
        Ok(Some(Record {
            round,
            solution: board(&r[8..])?,
        }))
    }

    /// Send `[opup(), payment of BOX_MBR to the app, solve(solution)]` for real:
    /// spends BOX_MBR + 3 min fees.
    pub async fn solve(&mut self, solution: [u8; 32]) -> Result<Solve, ClientError> {
        let app = self.app_id()?;
        let fee = self.chain.min_fee();
        let me = self.chain.address();
        // One outer opup() covers almost every start; a start whose seed needs
        // 13+ draws (about 1 address in 1 300) needs one more. Simulate the
        // cheapest group first, send the first one that succeeds.
        let mut padding = 1;
        let group = loop {
            let mut txns = Vec::new();
            for k in 0..padding {
                txns.push(self.call("opup", vec![], fee, k, vec![])?);
            }
            txns.push(
                Pay::new(me, AppId(app).address(), micro(BOX_MBR))
                    .fee(micro(fee))
                    .build(&self.chain.params)?,
            );
            txns.push(self.call(
                "solve",
                vec![solution.to_vec()],
                fee,
                0,
                vec![BoxReference {
                    app_id: None,
                    name: me.0.to_vec(),
                }],
            )?);
            let trial = self.chain.simulate(txns.clone()).await?;
            if trial.failure.is_none() || padding == 3 {
                break txns;
            }
            padding += 1;
        };
        let calls = group.len();
        self.chain
            .ensure_funds(BOX_MBR + calls as u64 * fee + 100_000)
            .await?;
        let (outcome, txids) = self.chain.send(group).await?;
        if let Some(f) = &outcome.failure {
            return Err(ClientError::Rejected {
                message: format!("solve: {}", f.message),
                pc: f.pc,
            });
        }
        Ok(Solve {
            accepted: abi_bool(&returned(&outcome, calls - 1)?)?,
            txids,
            fee: calls as u64 * fee,
            paid: BOX_MBR,
        })
    }
}
