//! Algoku the game (smart_contracts/game/contract.py) from Rust: deploy it (or
//! check an `--app-id`'s approval program byte for byte against the committed
//! artifact), read an address's puzzle, record and the solver count with
//! simulated calls (nothing is spent), and play `solve` for real.
//!
//! The leaf and Merkle proof of the player's catalogue puzzle come from the
//! committed catalogue (`algoku-game`); the puzzle the app derives is compared
//! with the native one before anything is sent. `solve` is sent as `[payment
//! of BOX_MBR to the app, solve(leaf, proof, lanes)]`, the payment at the min
//! fee and the solve at twice it: its one inner opup comes from that fee credit
//! (3 000 µALGO in fees plus the 24 900 µALGO box payment), with the
//! sender's box referenced; the group is simulated first, and the payment is
//! only attached to a solution the native check and the simulation accept.

use crate::app::{recorded, returned, App, Deployment, Solve};
use crate::chain::{micro, Chain};
use crate::error::ClientError;
use crate::spec::AppSpec;
use algoku_game::{lanes, Tree, LANES};
use algoku_sudoku::Grid;
use algonaut::core::AppId;
use algonaut::transaction::builder::Pay;
use algonaut::transaction::transaction::BoxReference;
use algonaut::transaction::Transaction;

/// The box minimum balance a first solve pays: 2500 + 400 * (32 + 24).
pub const BOX_MBR: u64 = 2500 + 400 * 56;
/// A solve or a puzzle read needs about 1 350 opcodes: the call pays twice the min fee
/// and the app buys one inner opup with that credit. (An `opup()` call before it no
/// longer covers it: every method scans its group for payments, the opup included.)
const INNER_OPUPS: u64 = 1;

/// The address of the DEPLOYER_MNEMONIC account in `settings`, if one is set.
pub fn mnemonic_address(settings: &crate::Settings) -> Result<Option<[u8; 32]>, ClientError> {
    let Some(m) = &settings.deployer_mnemonic else {
        return Ok(None);
    };
    let account =
        algonaut::transaction::account::Account::from_mnemonic(m.expose()).map_err(|_| {
            ClientError::Config("DEPLOYER_MNEMONIC is not a valid 25-word Algorand mnemonic".into())
        })?;
    Ok(Some(account.address().0))
}

/// A recorded solve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The round of the solve.
    pub round: u64,
    /// The block's timestamp (seconds).
    pub timestamp: u64,
    /// 1 for the first solver, and so on.
    pub rank: u64,
}

/// The game app on one chain.
pub struct Game {
    /// The app (its chain, spec and id).
    pub app: App,
    tree: Option<Tree>,
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_be_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

/// What `play` did.
#[derive(Clone, Debug)]
pub struct Play {
    /// How it ended.
    pub status: PlayStatus,
    /// The player's puzzle (81 digits, 0 = blank), as the app derived it.
    pub puzzle: [u8; 81],
    /// The catalogue index.
    pub index: usize,
    /// The record after the play, if any.
    pub record: Option<Record>,
    /// µALGO spent in fees.
    pub fee: u64,
    /// µALGO paid to the app for the box.
    pub paid: u64,
    /// Transaction ids sent.
    pub txids: Vec<String>,
}

/// How a `play` ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayStatus {
    /// Sent and recorded now.
    Solved,
    /// The account had a record already: nothing was sent.
    AlreadySolved,
    /// Sent (forced, without the payment) and the app answered false: fees spent.
    Rejected,
}

impl PlayStatus {
    /// The status as text.
    pub fn as_str(self) -> &'static str {
        match self {
            PlayStatus::Solved => "solved",
            PlayStatus::AlreadySolved => "already solved",
            PlayStatus::Rejected => "rejected by the app",
        }
    }
}

impl Game {
    /// The game app on `chain` (not yet deployed or chosen).
    pub fn new(chain: Chain) -> Result<Game, ClientError> {
        Ok(Game {
            app: App::new(chain, AppSpec::game()?),
            tree: None,
        })
    }

    fn tree(&mut self) -> &Tree {
        self.tree.get_or_insert_with(Tree::catalogue)
    }

    /// Creates the app from the committed artifacts (funding its account with the
    /// 100 000 µALGO minimum), or reuses this account's app with the same program.
    /// Returns what was created (or reused) and its fees.
    pub async fn deploy(&mut self) -> Result<Deployment, ClientError> {
        self.app.deploy_funded("the game app").await
    }

    /// One call of `method` at the minimum fee.
    fn call(
        &self,
        method: &str,
        args: Vec<Vec<u8>>,
        note: usize,
        boxes: Vec<BoxReference>,
    ) -> Result<Transaction, ClientError> {
        let fee = self.app.chain.min_fee();
        self.app.call(method, args, fee, note, boxes)
    }

    /// The fee of a solve or a puzzle read: its own and its inner opups'.
    fn heavy_fee(&self) -> u64 {
        (1 + INNER_OPUPS) * self.app.chain.min_fee()
    }

    /// A read-only group simulated: the last call's ARC-4 return value.
    async fn read(&mut self, txns: Vec<Transaction>, what: &str) -> Result<Vec<u8>, ClientError> {
        let last = txns.len() - 1;
        let outcome = self.app.chain.simulate(txns).await?;
        if let Some(f) = &outcome.failure {
            return Err(ClientError::Rejected {
                message: format!("{what}: {}", f.message),
                pc: f.pc,
            });
        }
        returned(&outcome, last)
    }

    /// The app's `puzzle(address, leaf, proof)` for the natively derived index:
    /// (index, 81-byte puzzle), simulated (its fee buys one inner opup; nothing is spent).
    pub async fn puzzle_on_chain(
        &mut self,
        address: [u8; 32],
    ) -> Result<(usize, [u8; 81]), ClientError> {
        let app = self.app.app_id()?;
        let p = algoku_game::puzzle(app, &address);
        let proof = p.proof(self.tree());
        let args = vec![address.to_vec(), p.leaf().to_vec(), proof];
        let call = self.app.call("puzzle", args, self.heavy_fee(), 0, vec![])?;
        let r = self.read(vec![call], "puzzle").await?;
        if r.len() != 89 {
            return Err(ClientError::Transaction(format!(
                "puzzle returned {} bytes",
                r.len()
            )));
        }
        Ok((u64_at(&r, 0) as usize, r[8..].try_into().expect("81 bytes")))
    }

    /// `solvers()`: how many addresses have a recorded solve (simulated).
    pub async fn solvers(&mut self) -> Result<u64, ClientError> {
        let txn = self.call("solvers", vec![], 0, vec![])?;
        let r = self.read(vec![txn], "solvers").await?;
        Ok(u64_at(&r, 0))
    }

    /// `record(address)` (simulated): the recorded solve, if any.
    pub async fn record(&mut self, address: [u8; 32]) -> Result<Option<Record>, ClientError> {
        let b = BoxReference {
            app_id: None,
            name: address.to_vec(),
        };
        let txn = self.call("record", vec![address.to_vec()], 0, vec![b])?;
        let r = self.read(vec![txn], "record").await?;
        if r.len() != 24 {
            return Err(ClientError::Transaction(format!(
                "record returned {} bytes",
                r.len()
            )));
        }
        let rec = Record {
            round: u64_at(&r, 0),
            timestamp: u64_at(&r, 8),
            rank: u64_at(&r, 16),
        };
        Ok((rec.round != 0).then_some(rec))
    }

    /// Send `[payment?, solve]` for real after simulating it:
    /// the app's answer, the fees and the payment. With `pay`, a simulated
    /// answer other than a recorded first solve sends nothing.
    pub async fn solve(&mut self, solution: &[u8; LANES], pay: bool) -> Result<Solve, ClientError> {
        let app = self.app.app_id()?;
        let me = self.app.chain.address();
        let p = algoku_game::puzzle(app, &me.0);
        let proof = p.proof(self.tree());
        let mut txns = Vec::new();
        if pay {
            txns.push(
                Pay::new(me, AppId(app).address(), micro(BOX_MBR))
                    .fee(micro(self.app.chain.min_fee()))
                    .build(&self.app.chain.params)?,
            );
        }
        let boxes = vec![BoxReference {
            app_id: None,
            name: me.0.to_vec(),
        }];
        let args = vec![p.leaf().to_vec(), proof, solution.to_vec()];
        txns.push(self.app.call("solve", args, self.heavy_fee(), 0, boxes)?);
        let last = txns.len() - 1;
        self.app.simulate_or_refuse(txns.clone(), "solve").await?;
        let fee = self.heavy_fee() + if pay { self.app.chain.min_fee() } else { 0 };
        let paid = if pay { BOX_MBR } else { 0 };
        self.app.chain.ensure_funds(paid + fee + 100_000).await?;
        let (outcome, txids) = self.app.chain.send(txns).await?;
        if let Some(f) = &outcome.failure {
            return Err(ClientError::Rejected {
                message: format!("solve: {}", f.message),
                pc: f.pc,
            });
        }
        Ok(Solve {
            accepted: returned(&outcome, last)? == [0x80],
            txids,
            fee,
            paid,
        })
    }

    /// The whole game for the signing account: its puzzle from the app
    /// (checked against the native derivation), its record if it has one (then
    /// nothing is sent), else `solution` (or the native solver's) checked
    /// natively and sent with the box payment. A solution the native check
    /// rejects is refused unless `force`; forced, it is sent without the box
    /// payment (the app answers false: only the fees are spent).
    pub async fn play(&mut self, solution: Option<Grid>, force: bool) -> Result<Play, ClientError> {
        let app = self.app.app_id()?;
        let me = self.app.chain.address();
        let native = algoku_game::puzzle(app, &me.0);
        let (index, puzzle) = self.puzzle_on_chain(me.0).await?;
        let mut native_cells = [0u8; 81];
        for (c, v) in native_cells.iter_mut().enumerate() {
            *v = native.grid.get(c).unwrap_or(0);
        }
        if index != native.derived.index || puzzle != native_cells {
            return Err(ClientError::Refused(format!(
                "the app's puzzle (index {index}) differs from the native one (index {}): not submitting",
                native.derived.index
            )));
        }
        let mut play = Play {
            status: PlayStatus::AlreadySolved,
            puzzle,
            index,
            record: self.record(me.0).await?,
            fee: 0,
            paid: 0,
            txids: vec![],
        };
        if play.record.is_some() {
            return Ok(play);
        }
        let grid = solution.unwrap_or_else(|| native.solution());
        let root = self.tree().root();
        let proof = native.proof(self.tree());
        let valid = algoku_game::verdict(&root, app, &me.0, &native.leaf(), &proof, &lanes(&grid))
            .map_err(|e| ClientError::Refused(e.to_string()))?;
        if !valid && !force {
            // The contract's rule, in words: a broken rule, else a changed given.
            let why = grid
                .check_solution_of(&native.grid)
                .err()
                .map_or(String::new(), |v| format!(": {v}"));
            return Err(ClientError::Refused(format!(
                "the native check rejects solution {} for this puzzle{why}; not submitting \
                 (--force sends it without the box payment)",
                grid.to_string_zeros()
            )));
        }
        let sent = self.solve(&lanes(&grid), valid).await?;
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
