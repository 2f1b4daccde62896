//! The Curta "2 x 4 = 8" app (smart_contracts/curta/contract.py) from Rust:
//! deploy it (or reuse this account's app, or check an `--app-id`'s approval
//! program byte for byte against the committed artifact), ask it for
//! `generate` / `verify` verdicts in atomic groups of up to 16 calls (simulated:
//! nothing is spent), read `record(address)`, and play `solve` for real.
//!
//! `solve` is sent as `[payment of BOX_MBR to the app, solve(solution)]` with
//! the sender's box (key = its 32-byte address) referenced, the payment at the
//! min fee and the solve at twice it (three times for a start with a long draw):
//! the contract buys its inner opups with that fee credit. The app account is
//! funded with the 100 000 µALGO account minimum at creation, so the box
//! payment of 31 300 can land in it.

pub use crate::app::Solve;
use crate::app::{recorded, returned, App, Deployment};
use crate::chain::{micro, Chain, APP_CALL_BUDGET, MAX_GROUP};
use crate::error::ClientError;
use crate::spec::AppSpec;
use algonaut::core::AppId;
use algonaut::transaction::builder::Pay;
use algonaut::transaction::transaction::BoxReference;
use algonaut::transaction::Transaction;

/// The box minimum balance a first solve pays: 2500 + 400 * (32 + 40).
pub const BOX_MBR: u64 = 2500 + 400 * 72;

/// A recorded solve: the round and the solution stored in the player's box.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The round the solve was recorded in.
    pub round: u64,
    /// The solution as stored in the box (32 bytes).
    pub solution: [u8; 32],
}

/// The Curta app on one chain.
pub struct Curta {
    /// The app (its chain, spec and id).
    pub app: App,
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

/// ARC-4 `byte[]` arguments: a 2-byte length, then the seed.
fn generate_args(seeds: &[Vec<u8>]) -> Result<Vec<Vec<Vec<u8>>>, ClientError> {
    seeds
        .iter()
        .map(|s| {
            let len = u16::try_from(s.len())
                .map_err(|_| ClientError::Config("seed longer than 65535 bytes".into()))?;
            let mut a = len.to_be_bytes().to_vec();
            a.extend_from_slice(s);
            Ok(vec![a])
        })
        .collect()
}

/// One simulated call: the answer (or why the chain refused it), the opcodes
/// it used, and the fee it needs sent alone (min fee per 700 opcodes, padded
/// with `opup()` calls).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Measured<T> {
    /// The answer, or why the chain refused the call.
    pub value: Result<T, ClientError>,
    /// Opcodes the call used, when measured.
    pub budget: Option<u64>,
    /// The fee the call needs sent alone, in µALGO.
    pub fee: u64,
}

impl<T> Measured<T> {
    /// The same measurement with the answer mapped.
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Measured<U> {
        self.and_then(|v| Ok(f(v)))
    }

    fn and_then<U>(self, f: impl FnOnce(T) -> Result<U, ClientError>) -> Measured<U> {
        Measured {
            value: self.value.and_then(f),
            budget: self.budget,
            fee: self.fee,
        }
    }
}

impl Curta {
    /// A client on `chain` with the committed Curta spec; no app yet.
    pub fn new(chain: Chain) -> Result<Curta, ClientError> {
        Ok(Curta {
            app: App::new(chain, AppSpec::curta()?),
        })
    }

    /// Creates the app from the committed artifacts (funding its account with the
    /// 100 000 µALGO minimum), or reuses this account's app with the same program.
    /// Returns what was created (or reused) and its fees.
    pub async fn deploy(&mut self) -> Result<Deployment, ClientError> {
        self.app.deploy_funded("the Curta app").await
    }

    /// Simulate one call per `args` entry, up to 16 to a group, in order, with each call's opcode use. A call that needs
    /// more than its own 700 opcodes (a `generate` seed with many draws) is
    /// simulated again alone behind 1..=3 `opup()` calls to find its fee alone;
    /// a group the chain refuses is retried call by call the same way, so one
    /// refused call is an error on its own line only.
    async fn simulate_measured(
        &mut self,
        method: &str,
        args: Vec<Vec<Vec<u8>>>,
        mut each: impl FnMut(usize),
    ) -> Result<Vec<Measured<Vec<u8>>>, ClientError> {
        let fee = self.app.chain.min_fee();
        let per_group = MAX_GROUP as usize;
        let mut out = Vec::with_capacity(args.len());
        for chunk in args.chunks(per_group) {
            let txns = chunk
                .iter()
                .enumerate()
                .map(|(i, a)| self.app.call(method, a.clone(), fee, i, vec![]))
                .collect::<Result<Vec<_>, _>>()?;
            let outcome = self.app.chain.simulate(txns).await?;
            for (i, a) in chunk.iter().enumerate() {
                let fits = outcome.failure.is_none()
                    && outcome.txns.get(i).and_then(|t| t.budget).unwrap_or(0) <= APP_CALL_BUDGET;
                let m = if fits {
                    Measured {
                        value: returned(&outcome, i),
                        budget: outcome.txns[i].budget,
                        fee,
                    }
                } else {
                    let seen = outcome.txns.get(i).and_then(|t| t.budget);
                    self.alone(method, a.clone(), seen).await?
                };
                out.push(m);
                each(1);
            }
        }
        Ok(out)
    }

    /// [`Curta::simulate_measured`], each answer decoded by `decode` (a
    /// value it refuses is that call's error).
    async fn simulate_decoded<T>(
        &mut self,
        method: &str,
        args: Vec<Vec<Vec<u8>>>,
        each: impl FnMut(usize),
        decode: fn(&[u8]) -> Result<T, ClientError>,
    ) -> Result<Vec<Measured<T>>, ClientError> {
        Ok(self
            .simulate_measured(method, args, each)
            .await?
            .into_iter()
            .map(|m| m.and_then(|r| decode(&r)))
            .collect())
    }

    /// One call simulated alone behind 0..=3 `opup()` calls: the first that
    /// answers gives the answer, the call's opcodes and its fee alone.
    ///
    /// First the call alone, exactly as it would be sent (a dry run that enforces
    /// the budget): a call alone in its group skips the payment scan that every
    /// method runs in a larger group, so it may fit where the measuring group
    /// (`seen`: its opcodes there, the scan included) said it would not.
    async fn alone(
        &mut self,
        method: &str,
        args: Vec<Vec<u8>>,
        seen: Option<u64>,
    ) -> Result<Measured<Vec<u8>>, ClientError> {
        let fee = self.app.chain.min_fee();
        let single = self.app.call(method, args.clone(), fee, 0, vec![])?;
        let lone = self.app.chain.simulate(vec![single]).await?;
        if lone.failure.is_none() {
            return Ok(Measured {
                value: returned(&lone, 0),
                budget: lone.txns.first().and_then(|t| t.budget).or(seen),
                fee,
            });
        }
        let mut last = String::new();
        for padding in 1..=3usize {
            let mut txns = Vec::new();
            for k in 0..padding {
                txns.push(self.app.call("opup", vec![], fee, k, vec![])?);
            }
            txns.push(self.app.call(method, args.clone(), fee, 0, vec![])?);
            let outcome = self.app.chain.simulate(txns).await?;
            // Fits alone when the group's own pool (700 per call) covers it.
            let used: u64 = outcome.txns.iter().map(|t| t.budget.unwrap_or(0)).sum();
            let fits = used <= APP_CALL_BUDGET * (padding as u64 + 1);
            match &outcome.failure {
                None if !fits => last = format!("needs {used} opcodes with {padding} opup(s)"),
                None => {
                    return Ok(Measured {
                        value: returned(&outcome, padding),
                        budget: outcome.txns[padding].budget,
                        fee: (padding as u64 + 1) * fee,
                    })
                }
                Some(f) => last = f.message.clone(),
            }
        }
        Ok(Measured {
            value: Err(ClientError::Refused(format!("{method}: {last}"))),
            budget: None,
            fee: 0,
        })
    }

    /// `generate(seed)` for each seed on the chain (simulated: nothing is
    /// spent), in order, with opcodes and fee; `each` is told of every answer.
    pub async fn generate_measured(
        &mut self,
        seeds: &[Vec<u8>],
        each: impl FnMut(usize),
    ) -> Result<Vec<Measured<[u8; 32]>>, ClientError> {
        let args = generate_args(seeds)?;
        self.simulate_decoded("generate", args, each, board).await
    }

    /// The `generate(seed)` calls for `seeds` as unsigned transactions (min fee each).
    pub fn generate_calls(&self, seeds: &[Vec<u8>]) -> Result<Vec<Transaction>, ClientError> {
        let fee = self.app.chain.min_fee();
        generate_args(seeds)?
            .into_iter()
            .enumerate()
            .map(|(i, a)| self.app.call("generate", a, fee, i, vec![]))
            .collect()
    }

    /// `verify(start, solution)` for each pair on the chain (simulated), in order.
    pub async fn verify_measured(
        &mut self,
        pairs: &[([u8; 32], [u8; 32])],
        each: impl FnMut(usize),
    ) -> Result<Vec<Measured<bool>>, ClientError> {
        let args = pairs
            .iter()
            .map(|(s, x)| vec![s.to_vec(), x.to_vec()])
            .collect();
        self.simulate_decoded("verify", args, each, abi_bool).await
    }

    /// `generate(seed)` for each seed (see [`Curta::generate_measured`]); the
    /// first refused call is the error.
    pub async fn generate_many(&mut self, seeds: &[Vec<u8>]) -> Result<Vec<[u8; 32]>, ClientError> {
        self.generate_measured(seeds, |_| {})
            .await?
            .into_iter()
            .map(|m| m.value.map_err(|e| ClientError::Transaction(e.to_string())))
            .collect()
    }

    /// `verify(start, solution)` for each pair (see [`Curta::verify_measured`]).
    pub async fn verify_many(
        &mut self,
        pairs: &[([u8; 32], [u8; 32])],
    ) -> Result<Vec<bool>, ClientError> {
        self.verify_measured(pairs, |_| {})
            .await?
            .into_iter()
            .map(|m| m.value.map_err(|e| ClientError::Transaction(e.to_string())))
            .collect()
    }

    /// The signing account's start: `generate(address bytes)` on the chain.
    pub async fn my_start(&mut self) -> Result<[u8; 32], ClientError> {
        let seed = self.app.chain.address().0.to_vec();
        Ok(self.generate_many(&[seed]).await?[0])
    }

    /// A read-only call simulated alone: its ARC-4 return value, which must
    /// be `len` bytes.
    async fn read(
        &mut self,
        method: &str,
        args: Vec<Vec<u8>>,
        boxes: Vec<BoxReference>,
        len: usize,
    ) -> Result<Vec<u8>, ClientError> {
        let fee = self.app.chain.min_fee();
        let txn = self.app.call(method, args, fee, 0, boxes)?;
        let outcome = self.app.chain.simulate(vec![txn]).await?;
        if let Some(f) = &outcome.failure {
            return Err(ClientError::Rejected {
                message: format!("{method}: {}", f.message),
                pc: f.pc,
            });
        }
        let r = returned(&outcome, 0)?;
        if r.len() != len {
            return Err(ClientError::Transaction(format!(
                "{method} returned {} bytes, expected {len}",
                r.len()
            )));
        }
        Ok(r)
    }

    /// `solvers()`: how many addresses have a recorded solve (simulated).
    pub async fn solvers(&mut self) -> Result<u64, ClientError> {
        let r = self.read("solvers", vec![], vec![], 8).await?;
        Ok(u64::from_be_bytes(r[..8].try_into().expect("8 bytes")))
    }

    /// `record(address)`: the stored solve of `address`, if any (round 0 = none).
    pub async fn record(&mut self, address: [u8; 32]) -> Result<Option<Record>, ClientError> {
        let b = BoxReference {
            app_id: None,
            name: address.to_vec(),
        };
        let r = self
            .read("record", vec![address.to_vec()], vec![b], 40)
            .await?;
        let round = u64::from_be_bytes(r[..8].try_into().expect("8 bytes"));
        if round == 0 {
            return Ok(None);
        }
        Ok(Some(Record {
            round,
            solution: board(&r[8..])?,
        }))
    }

    /// Send `[payment of BOX_MBR to the app, solve(solution)]` for real:
    /// spends BOX_MBR + 3 min fees (4 for a start with a long draw).
    pub async fn solve(&mut self, solution: [u8; 32]) -> Result<Solve, ClientError> {
        self.solve_with(solution, true).await
    }

    /// Send `solve(solution)` for real paying for one inner opup (two for starts
    /// with a long draw), with the box payment just before it when `pay`. Without the
    /// payment the app can only answer false (or refuse the group: then nothing
    /// is spent), which is how a solution the native check rejects is sent
    /// under `--force` without risking the 31 300 µALGO.
    pub async fn solve_with(
        &mut self,
        solution: [u8; 32],
        pay: bool,
    ) -> Result<Solve, ClientError> {
        let app = self.app.app_id()?;
        let fee = self.app.chain.min_fee();
        let me = self.app.chain.address();
        // One inner opup covers almost every start; a start whose seed needs
        // 13+ draws (about 1 address in 2 100) needs one more. Simulate the
        // cheapest group first, send the first one that succeeds.
        let mut inner = 1;
        let group = loop {
            let mut txns = Vec::new();
            if pay {
                txns.push(
                    Pay::new(me, AppId(app).address(), micro(BOX_MBR))
                        .fee(micro(fee))
                        .build(&self.app.chain.params)?,
                );
            }
            txns.push(self.app.call(
                "solve",
                vec![solution.to_vec()],
                (1 + inner) * fee,
                0,
                vec![BoxReference {
                    app_id: None,
                    name: me.0.to_vec(),
                }],
            )?);
            let trial = self.app.chain.simulate(txns.clone()).await?;
            if trial.failure.is_none() {
                // Never pay for a box the app will not create.
                if pay && !abi_bool(&returned(&trial, txns.len() - 1)?)? {
                    return Err(ClientError::Refused(
                        "the app answers false (simulated) for a solution the native check \
                         accepts: nothing sent, the box payment would be lost"
                            .into(),
                    ));
                }
                break txns;
            }
            if inner == 3 {
                let f = trial.failure.expect("failed");
                return Err(ClientError::Rejected {
                    message: format!("solve (simulated, nothing sent): {}", f.message),
                    pc: f.pc,
                });
            }
            inner += 1;
        };
        let calls = group.len();
        let paid = if pay { BOX_MBR } else { 0 };
        let fees = (calls as u64 + inner) * fee;
        self.app.chain.ensure_funds(paid + fees).await?;
        let (outcome, txids) = self.app.chain.send(group).await?;
        if let Some(f) = &outcome.failure {
            return Err(ClientError::Rejected {
                message: format!("solve: {}", f.message),
                pc: f.pc,
            });
        }
        Ok(Solve {
            accepted: abi_bool(&returned(&outcome, calls - 1)?)?,
            txids,
            fee: fees,
            paid,
        })
    }

    /// The whole game for the signing account: its start from the chain
    /// (checked against the native `generate`), its record if it has one
    /// (then nothing is sent), else `solution` (or the native solver's) checked
    /// natively and sent with the box payment. A solution the native check
    /// rejects is refused unless `force`; forced, it is sent without the box
    /// payment (the app can only answer false, or refuse the group).
    pub async fn play(
        &mut self,
        solution: Option<[u8; 32]>,
        force: bool,
    ) -> Result<Play, ClientError> {
        use algoku_curta::{generate, is_valid_solution, solve, verify, Board, U256};
        let me = self.app.chain.address();
        let start = self.my_start().await?;
        let native = generate(&me.0);
        if native.0.to_be_bytes() != start {
            return Err(ClientError::Refused(format!(
                "the app's start {} differs from the native generate {}: not submitting",
                hex::encode(start),
                hex::encode(native.0.to_be_bytes())
            )));
        }
        let mut play = Play {
            status: PlayStatus::AlreadySolved,
            start,
            record: self.record(me.0).await?,
            fee: 0,
            paid: 0,
            txids: vec![],
        };
        if play.record.is_some() {
            return Ok(play);
        }
        let solution = match solution {
            Some(s) => Board(U256::from_be_bytes(s)),
            None => match solve(&native) {
                Some(s) => s,
                None => {
                    play.status = PlayStatus::Unsolvable;
                    return Ok(play);
                }
            },
        };
        let valid = verify(&native, &solution);
        if !valid && !force {
            // The rule in words (it agrees with `verify` on every input).
            let why = is_valid_solution(&native, &solution)
                .err()
                .map_or(String::new(), |v| format!(": {v}"));
            return Err(ClientError::Refused(format!(
                "the native check rejects solution {} for start {}{why}; not submitting (--force sends it without the box payment)",
                solution.to_hex(),
                hex::encode(start)
            )));
        }
        let sent = self.solve_with(solution.0.to_be_bytes(), valid).await?;
        play.fee = sent.fee;
        play.paid = sent.paid;
        play.txids = sent.txids;
        if !sent.accepted {
            play.status = PlayStatus::Rejected;
            return Ok(play);
        }
        play.record = Some(recorded(self.record(me.0).await?)?);
        play.status = PlayStatus::Solved;
        Ok(play)
    }
}

/// How a `play` ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayStatus {
    /// Sent and recorded now.
    Solved,
    /// The account had a record already: nothing was sent.
    AlreadySolved,
    /// The start has no solution: nothing was sent.
    Unsolvable,
    /// Sent (forced) and the app answered false: fees spent, no box payment.
    Rejected,
}

impl PlayStatus {
    /// The status in words.
    pub fn as_str(self) -> &'static str {
        match self {
            PlayStatus::Solved => "solved",
            PlayStatus::AlreadySolved => "already solved",
            PlayStatus::Unsolvable => "unsolvable start (nothing sent)",
            PlayStatus::Rejected => "rejected by the app",
        }
    }
}

/// What `play` did.
#[derive(Clone, Debug)]
pub struct Play {
    /// How the play ended.
    pub status: PlayStatus,
    /// The account's start position (32 bytes).
    pub start: [u8; 32],
    /// The account's record after the play, if any.
    pub record: Option<Record>,
    /// The fees paid, in µALGO.
    pub fee: u64,
    /// The box minimum balance paid to the app, in µALGO (0 when none).
    pub paid: u64,
    /// The ids of the transactions sent.
    pub txids: Vec<String>,
}
