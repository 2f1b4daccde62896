//! `algoku game …`: Algoku the game, every address's own 9x9 puzzle
//! (smart_contracts/game/contract.py, mirrored natively by `algoku-game`).
//!
//! `game puzzle` derives an address's puzzle natively from the app id and the
//! address (catalogue index, isomorphism, 17 givens), rates it, and says how
//! to solve it; `game root` recomputes the catalogue's Merkle root from the
//! committed catalogue and compares it with the one the contract holds;
//! `game check` is the contract's verdict on a solution, computed natively
//! (a `false` with the reason: the first Sudoku rule the grid breaks, else the
//! first of the player's givens it changes).
//! These three never talk to a chain. `game play` and `game record` use the
//! app through `algoku_client::game`: reads are simulated (free); `play`
//! sends one group and says what it spent.

use std::process::ExitCode;

use algoku_client::game::{Game, PlayStatus, Record};
use algoku_client::{Chain, Network, Settings};
use algoku_curta::parse_address;
use algoku_game::{committed_root, lanes, puzzle, verdict, Tree};
use algoku_rate::{rate, score_text};
use algoku_sudoku::Grid;
use anyhow::{anyhow, bail, Result};
use serde_json::json;

use crate::games::AppArgs;
use crate::io::output::{verdict as exit_verdict, Out, EXIT_NEGATIVE};
use crate::net::{embedded_app_note, runtime};
use crate::Global;
use algoku_avm::why_false;

/// The `game` subcommands.
#[derive(clap::Subcommand, Debug)]
pub enum GameCommand {
    /// An address's puzzle on an app: 81 characters, catalogue index, SE rating, how to solve it.
    Puzzle(PuzzleArgs),
    /// Check a solution of an address's puzzle as the contract does (exit 1 when false).
    Check(CheckArgs),
    /// Recompute the catalogue's Merkle root and compare it with the contract's.
    Root,
    /// Play on chain: read this account's puzzle from the app (checked against the
    /// native one), solve it natively (or take --solution), simulate, then send
    /// [payment of 24 900 µALGO, solve] (3 000 µALGO in fees) and print the record.
    Play(PlayArgs),
    /// A player's recorded solve (default: the signing account) and the number of
    /// solvers, read with simulated calls (nothing is sent).
    Record(RecordArgs),
    /// The creator takes back what the game app's account holds above its minimum balance
    /// (plain transfers; the records' boxes stay): simulated first, then sent (2 000 µALGO).
    Withdraw(super::WithdrawArgs),
}

/// Arguments of `algoku game play`.
#[derive(clap::Args, Debug)]
#[command(mut_arg("app_id", |a| a.help("Use this app id (its approval program must be the committed game artifact)")))]
pub struct PlayArgs {
    #[command(flatten)]
    app: AppArgs,
    /// Submit this solution (81 digits) instead of the native solver's.
    #[arg(long, value_name = "GRID")]
    solution: Option<String>,
    /// Send a solution the native check rejects (without the box payment: the app
    /// answers false; the fees are spent).
    #[arg(long)]
    force: bool,
    /// On an algod with no game app of this account: create one (spends its fees and
    /// minimum balance, and says so). The embedded evaluator always creates one.
    #[arg(long)]
    deploy: bool,
}

/// Arguments of `algoku game record`.
#[derive(clap::Args, Debug)]
#[command(mut_arg("app_id", |a| a.help("Use this app id (its approval program must be the committed game artifact)")))]
pub struct RecordArgs {
    /// The player: a 58-character Algorand address or 0x + 64 hex digits (default: the
    /// signing account).
    #[arg(value_name = "ADDRESS")]
    address: Option<String>,
    #[command(flatten)]
    app: AppArgs,
}

/// Arguments of `algoku game puzzle`: natively unless `--network` is given.
#[derive(clap::Args, Debug)]
#[command(mut_arg("app_id", |a| a.required_unless_present("network").display_order(0)
    .help("The game app's id (the puzzle depends on it); with --network, checked on chain")))]
#[command(mut_arg("network", |a| a.default_value(None).help("Also read the puzzle from the app on this \
    network (simulated: nothing is sent) and compare it with the native one (embedded without --app-id: a fresh app)")))]
pub struct PuzzleArgs {
    /// The player: a 58-character Algorand address or 0x + 64 hex digits (default: the
    /// signing account, DEPLOYER_MNEMONIC).
    #[arg(value_name = "ADDRESS")]
    address: Option<String>,
    #[command(flatten)]
    app: AppArgs,
}

/// Arguments of `algoku game check`.
#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// The player: a 58-character Algorand address or 0x + 64 hex digits.
    #[arg(value_name = "ADDRESS")]
    address: String,
    /// The proposed solution: 81 digits.
    #[arg(value_name = "SOLUTION")]
    solution: String,
    /// The game app's id.
    #[arg(long)]
    app_id: u64,
}

/// An Algorand player address (32 bytes), or a one-line error.
pub fn player(text: &str) -> Result<[u8; 32]> {
    let bytes = parse_address(text.trim()).map_err(|e| anyhow!("address: {e}"))?;
    bytes.try_into().map_err(|_| {
        anyhow!("address: a player is 32 bytes (58 characters or 0x + 64 hex digits), not an Ethereum address")
    })
}

/// A complete grid (81 digits 1..9), or a one-line error.
pub fn solution_grid(text: &str) -> Result<Grid> {
    let grid = Grid::parse(text.trim()).map_err(|e| anyhow!("solution: {e}"))?;
    if !grid.is_complete() {
        bail!(
            "solution: {} blank cell(s); a solution fills all 81",
            81 - grid.clue_count()
        );
    }
    Ok(grid)
}

/// Runs a `game` subcommand.
pub fn run(command: &GameCommand, global: &Global, out: &mut Out) -> Result<ExitCode> {
    match command {
        GameCommand::Puzzle(args) => run_puzzle(args, global, out),
        GameCommand::Check(args) => run_check(args, global, out),
        GameCommand::Root => run_root(global, out),
        GameCommand::Play(args) => run_play(args, global, out),
        GameCommand::Record(args) => run_record(args, global, out),
        GameCommand::Withdraw(args) => runtime()?.block_on(async {
            let chain = Chain::connect(args.app.network(), &global.settings()).await?;
            let mut game = Game::new(chain)?;
            super::withdraw(&mut game.app, args.app.app_id, global, out).await
        }),
    }
}

async fn connect(
    network: Network,
    app_id: Option<u64>,
    deploy: bool,
    global: &Global,
) -> Result<(Game, u64, Option<String>)> {
    let chain = Chain::connect(network, &global.settings()).await?;
    let mut game = Game::new(chain)?;
    if let Some(id) = app_id {
        game.app.use_checked_app(id).await?;
        return Ok((game, id, None));
    }
    if let Some(id) = game.app.own_app().await? {
        game.app.use_checked_app(id).await?;
        return Ok((game, id, None));
    }
    let embedded = game.app.chain.is_embedded();
    if !embedded && !deploy {
        bail!(
            "{} has no game app on this {} network: give --app-id (or --deploy with `game play`)",
            game.app.chain.address(),
            game.app.chain.backend()
        );
    }
    let before = game.app.chain.balance().await?;
    let id = game.deploy().await?.app_id;
    let note = if embedded {
        embedded_app_note(id)
    } else {
        let spent = before.saturating_sub(game.app.chain.balance().await?);
        format!(
            "app {id} created on {}: spent {spent} µALGO (fees and the app account's minimum balance)",
            game.app.chain.backend()
        )
    };
    if !global.json {
        eprintln!("{note}");
    }
    Ok((game, id, Some(note)))
}

fn record_json(r: &Option<Record>) -> serde_json::Value {
    json!({
        "round": r.as_ref().map(|r| r.round),
        "timestamp": r.as_ref().map(|r| r.timestamp),
        "rank": r.as_ref().map(|r| r.rank),
    })
}

fn run_play(args: &PlayArgs, global: &Global, out: &mut Out) -> Result<ExitCode> {
    let solution = args.solution.as_deref().map(solution_grid).transpose()?;
    runtime()?.block_on(async {
        let (mut game, app_id, setup) =
            connect(args.app.network(), args.app.app_id, args.deploy, global).await?;
        let me = game.app.chain.address();
        let p = game.play(solution, args.force).await?;
        super::announce(&game.app.chain, global);
        let puzzle: String = p
            .puzzle
            .iter()
            .map(|&d| if d == 0 { '.' } else { (b'0' + d) as char })
            .collect();
        let status = p.status.as_str();
        if global.json {
            let mut v = json!({
                "status": status, "backend": game.app.chain.backend(), "app_id": app_id,
                "address": me.to_string(), "puzzle": puzzle, "index": p.index,
                "fee": p.fee, "paid": p.paid, "txids": p.txids, "setup": setup,
            });
            v["record"] = record_json(&p.record);
            out.json(&v)?;
        } else {
            out.line(format!("{status}: app {app_id}, player {me}"))?;
            out.line(format!("puzzle   {puzzle} (catalogue index {})", p.index))?;
            if let Some(r) = &p.record {
                out.line(format!(
                    "record   round {}, timestamp {}, rank {}",
                    r.round, r.timestamp, r.rank
                ))?;
            }
            out.line(super::spent_line(
                p.fee,
                p.paid,
                p.status == PlayStatus::AlreadySolved,
            ))?;
        }
        Ok(match p.status {
            PlayStatus::Solved | PlayStatus::AlreadySolved => ExitCode::SUCCESS,
            PlayStatus::Rejected => ExitCode::from(EXIT_NEGATIVE),
        })
    })
}

fn run_record(args: &RecordArgs, global: &Global, out: &mut Out) -> Result<ExitCode> {
    let player_key = args.address.as_deref().map(player).transpose()?;
    runtime()?.block_on(async {
        let (mut game, app_id, setup) =
            connect(args.app.network(), args.app.app_id, false, global).await?;
        let key = player_key.unwrap_or(game.app.chain.address().0);
        let address = algoku_curta::algorand_address(&key);
        let rec = game.record(key).await?;
        let solvers = game.solvers().await?;
        super::announce(&game.app.chain, global);
        if global.json {
            let mut v = json!({
                "address": address, "app_id": app_id, "backend": game.app.chain.backend(),
                "solved": rec.is_some(), "solvers": solvers, "setup": setup,
            });
            v["record"] = record_json(&rec);
            out.json(&v)?;
        } else {
            match &rec {
                Some(r) => out.line(format!(
                    "{address}: solved in round {} (timestamp {}), rank {}",
                    r.round, r.timestamp, r.rank
                ))?,
                None => out.line(format!("{address}: no recorded solve"))?,
            }
            out.line(format!("{solvers} solver(s) on app {app_id}"))?;
        }
        Ok(exit_verdict(rec.is_some()))
    })
}

/// The signing account's address (DEPLOYER_MNEMONIC), for commands that default to it.
fn signing_account() -> Result<[u8; 32]> {
    match algoku_client::game::mnemonic_address(&Settings::from_env())? {
        Some(a) => Ok(a),
        None => {
            bail!("no ADDRESS given and DEPLOYER_MNEMONIC is not set: give the player's address")
        }
    }
}

fn run_puzzle(args: &PuzzleArgs, global: &Global, out: &mut Out) -> Result<ExitCode> {
    let address = match &args.address {
        Some(a) => player(a)?,
        None => signing_account()?,
    };
    let (app_id, chain) = match args.app.asked() {
        None => (
            args.app
                .app_id
                .expect("clap requires --app-id without --network"),
            None,
        ),
        Some(network) => runtime()?.block_on(async {
            let (mut game, id, _) = connect(network, args.app.app_id, false, global).await?;
            let (index, cells) = game.puzzle_on_chain(address).await?;
            super::announce(&game.app.chain, global);
            Ok::<_, anyhow::Error>((id, Some((game.app.chain.backend(), index, cells))))
        })?,
    };
    let p = puzzle(app_id, &address);
    if let Some((_, index, cells)) = &chain {
        let native: Vec<u8> = (0..81).map(|c| p.grid.get(c).unwrap_or(0)).collect();
        if *index != p.derived.index || cells[..] != native[..] {
            bail!(
                "the app's puzzle (index {index}) differs from the native one (index {})",
                p.derived.index
            );
        }
    }
    let r = rate(&p.grid);
    let score = r.score_tenths().map(score_text);
    let text = p.grid.to_string_zeros().replace('0', ".");
    let how = format!(
        "solve it (algoku solve {text}), then `algoku game play --solution GRID` from this account: \
         one payment of the box minimum balance and the solve, simulated before it is sent"
    );
    if global.json {
        out.json(&json!({
            "address": algoku_curta::algorand_address(&address), "app_id": app_id,
            "backend": chain.as_ref().map_or("native", |c| c.0.name()), "agrees_chain": chain.as_ref().map(|_| true),
            "puzzle": text, "index": p.derived.index, "transpose": p.derived.transpose,
            "givens": p.grid.clue_count(), "score": score, "level": r.level.map(|l| l.name()),
            "how": how,
        }))?;
    } else {
        out.line(&text)?;
        out.line(format!(
            "catalogue index {} of 49158, 17 givens, SE {}",
            p.derived.index,
            score.as_deref().unwrap_or("beyond the rater's techniques")
        ))?;
        out.line(how)?;
        if let Some((kind, ..)) = &chain {
            out.line(format!(
                "the app {app_id} on {kind} derives the same puzzle (simulated: nothing sent)"
            ))?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn run_check(args: &CheckArgs, global: &Global, out: &mut Out) -> Result<ExitCode> {
    let address = player(&args.address)?;
    let grid = solution_grid(&args.solution)?;
    let p = puzzle(args.app_id, &address);
    let tree = Tree::catalogue();
    let valid = verdict(
        &tree.root(),
        args.app_id,
        &address,
        &p.leaf(),
        &p.proof(&tree),
        &lanes(&grid),
    )
    .map_err(|e| anyhow!("{e}"))?;
    let reason = (!valid).then(|| why_false(grid.cells(), Some(p.grid.cells())));
    if global.json {
        let mut v = json!({"valid": valid, "index": p.derived.index});
        if let Some(r) = &reason {
            v["reason"] = json!(r);
        }
        out.json(&v)?;
    } else {
        out.line(valid)?;
        if let Some(r) = &reason {
            out.line(format_args!("reason: {r}"))?;
        }
    }
    Ok(exit_verdict(valid))
}

fn run_root(global: &Global, out: &mut Out) -> Result<ExitCode> {
    let root = Tree::catalogue().root();
    let hex = |b: &[u8]| b.iter().map(|x| format!("{x:02x}")).collect::<String>();
    let same = root == committed_root();
    if global.json {
        out.json(
            &json!({"root": hex(&root), "puzzles": algoku_game::COUNT, "matches_contract": same}),
        )?;
    } else {
        out.line(format!("{} ({} puzzles)", hex(&root), algoku_game::COUNT))?;
        if !same {
            out.line(format!(
                "differs from the contract's {}",
                hex(&committed_root())
            ))?;
        }
    }
    Ok(exit_verdict(same))
}
