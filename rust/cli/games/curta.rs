//! `algoku curta …`: fiveoutofnine's 8x8 "two times four is eight" puzzle (Curta #1).
//!
//! Boards are the contract's `uint256` as 64 hex digits (optional `0x`;
//! square 0 is the last digit). Addresses are `0x` + 40 hex digits
//! (Ethereum), `0x` + 64 hex digits (32 bytes), or a 58-character Algorand
//! address.

use std::path::PathBuf;
use std::process::ExitCode;

use algoku_curta::{
    count_solutions, generate, is_valid_solution, parse_address, solve, verify, Board, Unit,
};
use anyhow::{anyhow, bail, Result};
use serde::Serialize;

use crate::games::curta_chain::{self, ChainArgs};
use crate::games::AppArgs;
use crate::io::input::{read_single, Source};
use crate::io::output::{verdict, Count, Out};
use crate::Global;

/// The `curta` subcommands.
#[derive(clap::Subcommand, Debug)]
pub enum CurtaCommand {
    /// Print the start position the contract generates for a player address.
    Generate(GenerateArgs),
    /// Check a solution against a start, as the contract does (exit 1 when false).
    Verify(VerifyArgs),
    /// Solve a start position (exit 1 when it has no solution).
    Solve(SolveArgs),
    /// Play the game on chain: read this account's start from the Curta app, solve
    /// it natively, send [payment of 31 300 µALGO, solve] and print the record.
    Play(PlayArgs),
    /// Read a player's recorded solve (default: the signing account) and the solver count
    /// from the Curta app (simulated: nothing is sent).
    Record(RecordArgs),
    /// The creator takes back what the Curta app's account holds above its minimum balance
    /// (plain transfers; the records' boxes stay): simulated first, then sent (2 000 µALGO).
    Withdraw(super::WithdrawArgs),
}

/// Arguments of `algoku curta record`.
#[derive(clap::Args, Debug)]
#[command(mut_arg("app_id", |a| a.help("Use this app id (its approval program must be the committed Curta artifact)")))]
pub struct RecordArgs {
    /// The player: a 58-character Algorand address or 0x + 64 hex digits (default: the
    /// signing account).
    #[arg(value_name = "ADDRESS")]
    address: Option<String>,
    #[command(flatten)]
    app: AppArgs,
}

/// Arguments of `algoku curta play`.
#[derive(clap::Args, Debug)]
#[command(mut_arg("app_id", |a| a.help("Use this app id (its approval program must be the committed Curta artifact)")))]
pub struct PlayArgs {
    #[command(flatten)]
    app: AppArgs,
    /// Submit this solution (64 hex digits) instead of the native solver's.
    #[arg(long, value_name = "HEX")]
    solution: Option<String>,
    /// Send a solution the native check rejects (without the box payment: the app can
    /// only answer false; the fees are spent).
    #[arg(long)]
    force: bool,
    /// On an algod with no Curta app of this account: create one (spends 2 000 µALGO in
    /// fees and 100 000 µALGO to the app account, and says so). The embedded evaluator
    /// always creates one.
    #[arg(long)]
    deploy: bool,
}

/// Arguments of `algoku curta generate`.
#[derive(clap::Args, Debug)]
pub struct GenerateArgs {
    /// The player's address: 0x + 40 or 64 hex digits, or an Algorand
    /// address; `-` reads stdin.
    #[arg(value_name = "ADDRESS")]
    address: Option<String>,
    /// Many addresses, one per line (empty and '#' lines skipped): one answer per line,
    /// in order, then a summary (with --json).
    #[arg(long, value_name = "PATH", conflicts_with = "address")]
    file: Option<PathBuf>,
    /// Also print the 8x8 layout.
    #[arg(long, conflicts_with_all = ["file", "network"])]
    pretty: bool,
    #[command(flatten)]
    chain: ChainArgs,
}

/// Arguments of `algoku curta verify`.
#[derive(clap::Args, Debug)]
pub struct VerifyArgs {
    /// The start position, 64 hex digits (`-` reads stdin).
    #[arg(value_name = "START", required_unless_present = "file")]
    start: Option<String>,
    /// The proposed solution, 64 hex digits (`-` reads stdin).
    #[arg(value_name = "SOLUTION", required_unless_present = "file")]
    solution: Option<String>,
    /// Many pairs, `START SOLUTION` per line: one answer per line, in order, then a
    /// summary (with --json).
    #[arg(long, value_name = "PATH", conflicts_with_all = ["start", "solution"])]
    file: Option<PathBuf>,
    #[command(flatten)]
    chain: ChainArgs,
}

/// Arguments of `algoku curta solve`.
#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    /// The start position, 64 hex digits; `-` reads stdin.
    #[arg(value_name = "START")]
    start: Option<String>,
    /// Read the start from this file.
    #[arg(long, value_name = "PATH", conflicts_with = "start")]
    file: Option<PathBuf>,
    /// Count the solutions, stopping at N (at most 1000000), instead of printing the first; a
    /// count that stops at N says so ("N or more"; JSON `complete`).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=MAX_COUNT))]
    count: Option<u64>,
    /// Print the solution as an 8x8 layout.
    #[arg(long)]
    pretty: bool,
}

/// The largest `--count`: counting stops there, so the command is bounded whatever N is
/// asked (the empty board, the worst case, takes 11.5 s of CPU in a debug build).
const MAX_COUNT: u64 = 1_000_000;

/// Why `start` cannot be a start at all (a nibble 9..=15, or a digit twice in a row,
/// column or box), 1-based like every position the CLI prints; `None` when it is one.
fn start_problem(start: &Board) -> Option<String> {
    let cells = start.cells();
    if let Some(k) = (0..64).find(|&k| cells[k] > 8) {
        return Some(format!(
            "{} holds {}, not a digit 1..8",
            algoku_curta::verify::square_label(k),
            cells[k]
        ));
    }
    for unit in Unit::all() {
        let mut seen = [None; 9];
        for k in unit.squares() {
            let d = cells[k] as usize;
            if d == 0 {
                continue;
            }
            if let Some(first) = seen[d] {
                return Some(format!(
                    "{unit} has the given {d} twice (squares {} and {}: hex digits {} and {})",
                    first + 1,
                    k + 1,
                    64 - first,
                    64 - k
                ));
            }
            seen[d] = Some(k);
        }
    }
    None
}

/// `curta generate --json`.
#[derive(Debug, Serialize)]
struct Generated {
    address: String,
    start: String,
    givens: usize,
    solvable: bool,
    solution: Option<String>,
}

/// `curta verify --json`.
#[derive(Debug, Serialize)]
struct Verified {
    valid: bool,
    reason: Option<String>,
    start: String,
    solution: String,
}

/// `curta solve --json`.
#[derive(Debug, Serialize)]
struct Solved {
    start: String,
    #[serde(flatten)]
    count: Option<Count>,
    #[serde(skip_serializing_if = "Option::is_none")]
    unique: Option<bool>,
    solution: Option<String>,
}

/// Runs a `curta` subcommand.
pub fn run(command: &CurtaCommand, global: &Global, out: &mut Out) -> Result<ExitCode> {
    match command {
        CurtaCommand::Generate(args) => run_generate(args, global, out),
        CurtaCommand::Verify(args) => run_verify(args, global, out),
        CurtaCommand::Solve(args) => run_solve(args, global, out),
        CurtaCommand::Play(args) => run_play(args, global, out),
        CurtaCommand::Record(args) => {
            let player = match &args.address {
                None => None,
                Some(a) => {
                    let bytes = parse_address(a).map_err(|e| anyhow!("address: {e}"))?;
                    let key: [u8; 32] = bytes.try_into().map_err(|_| {
                        anyhow!("address: an Algorand player is 32 bytes (58 characters or 0x + 64 hex digits), not an Ethereum address")
                    })?;
                    Some(key)
                }
            };
            curta_chain::record(args.app.network(), args.app.app_id, player, global, out)
        }
        CurtaCommand::Withdraw(args) => crate::net::runtime()?.block_on(async {
            let chain =
                algoku_client::Chain::connect(args.app.network(), &global.settings()).await?;
            let mut curta = algoku_client::curta::Curta::new(chain)?;
            super::withdraw(&mut curta.app, args.app.app_id, global, out).await
        }),
    }
}

fn run_play(args: &PlayArgs, global: &Global, out: &mut Out) -> Result<ExitCode> {
    crate::games::curta_chain::play(
        args.app.network(),
        args.app.app_id,
        args.solution.as_deref(),
        args.force,
        args.deploy,
        global,
        out,
    )
}

/// `curta generate`: the start (64 hex digits); exit 0.
fn run_generate(args: &GenerateArgs, global: &Global, out: &mut Out) -> Result<ExitCode> {
    if let Some(path) = &args.file {
        let inputs = curta_chain::read_inputs(path, curta_chain::seed_line)?;
        return curta_chain::run_batch(inputs, true, &args.chain, "generate", global, out);
    }
    let source = Source::resolve(args.address.as_deref(), None, "address")?;
    let address = read_single(&source, "address")?;
    let bytes = parse_address(&address).map_err(|e| anyhow!("address ({source}): {e}"))?;
    if args.chain.net.asked().is_some() {
        let inputs = vec![curta_chain::Input {
            line: 1,
            echo: serde_json::json!({ "address": address }),
            query: Ok(curta_chain::Query::Generate(bytes)),
        }];
        return curta_chain::run_batch(inputs, false, &args.chain, "generate", global, out);
    }
    let start = generate(&bytes);
    let solution = solve(&start);
    if global.json {
        out.json(&Generated {
            address,
            start: start.to_hex(),
            givens: start.givens(),
            solvable: solution.is_some(),
            solution: solution.map(|s| s.to_hex()),
        })?;
    } else {
        out.line(start.to_hex())?;
        if args.pretty {
            out.line(start.pretty())?;
            let solvable = if solution.is_some() {
                "solvable"
            } else {
                "no solution"
            };
            out.line(format_args!("{} givens, {solvable}", start.givens()))?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `curta verify`: `true` (exit 0) or `false` and the reason (exit 1).
fn run_verify(args: &VerifyArgs, global: &Global, out: &mut Out) -> Result<ExitCode> {
    if let Some(path) = &args.file {
        let inputs = curta_chain::read_inputs(path, curta_chain::pair_line)?;
        return curta_chain::run_batch(inputs, true, &args.chain, "verify", global, out);
    }
    let (Some(start), Some(solution)) = (&args.start, &args.solution) else {
        bail!("give START and SOLUTION, or --file");
    };
    if start == "-" && solution == "-" {
        bail!("only one of START and SOLUTION can be read from stdin (`-`)");
    }
    let start = read_board(Source::resolve(Some(start), None, "start")?, "start")?;
    let solution = read_board(
        Source::resolve(Some(solution), None, "solution")?,
        "solution",
    )?;
    if args.chain.net.asked().is_some() {
        let inputs = vec![curta_chain::Input {
            line: 1,
            echo: serde_json::json!({}),
            query: Ok(curta_chain::Query::Verify(start, solution)),
        }];
        return curta_chain::run_batch(inputs, false, &args.chain, "verify", global, out);
    }
    // The contract's answer; the rule names the reason (they always agree).
    let valid = verify(&start, &solution);
    let reason = match is_valid_solution(&start, &solution) {
        Err(v) => Some(v.to_string()),
        Ok(()) if !valid => Some(algoku_avm::REJECTED.to_string()),
        Ok(()) => None,
    };
    if global.json {
        out.json(&Verified {
            valid,
            reason,
            start: start.to_hex(),
            solution: solution.to_hex(),
        })?;
    } else {
        out.line(valid)?;
        if let Some(reason) = reason {
            out.line(format_args!("reason: {reason}"))?;
        }
    }
    Ok(verdict(valid))
}

/// `curta solve`: a solution, or the count with `--count`; exit 1 when there
/// is no solution.
fn run_solve(args: &SolveArgs, global: &Global, out: &mut Out) -> Result<ExitCode> {
    let source = Source::resolve(args.start.as_deref(), args.file.as_deref(), "start")?;
    let start = read_board(source, "start")?;
    if let Some(problem) = start_problem(&start) {
        bail!("invalid start: {problem}");
    }
    let solution = solve(&start);
    let limit = args.count.map(|n| usize::try_from(n).unwrap_or(usize::MAX));
    let found = limit.map(|n| count_solutions(&start, Count::search_limit(n)));
    let count = limit.zip(found).map(|(n, f)| Count::new(f, n));
    let report = Solved {
        start: start.to_hex(),
        count,
        unique: found.map(|f| f == 1),
        solution: solution.map(|s| s.to_hex()),
    };
    if global.json {
        out.json(&report)?;
    } else if let Some(c) = count {
        out.line(c.text())?;
    } else {
        match solution {
            Some(s) => {
                out.line(s.to_hex())?;
                if args.pretty {
                    out.line(s.pretty())?;
                }
            }
            None => out.line("no solution")?,
        }
    }
    Ok(verdict(solution.is_some()))
}

/// Reads a board in hex from `source`.
fn read_board(source: Source, what: &str) -> Result<Board> {
    let text = read_single(&source, what)?;
    Board::from_hex(&text).map_err(|e| anyhow!("{what} ({source}): {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(hex_tail: &str) -> Board {
        Board::from_hex(&format!("{hex_tail:0>64}")).unwrap()
    }

    #[test]
    fn starts_with_a_non_digit_or_a_repeated_given_are_invalid() {
        assert_eq!(
            start_problem(&board("9")).as_deref(),
            Some("square 1 (hex digit 64) holds 9, not a digit 1..8")
        );
        assert_eq!(
            start_problem(&board("11")).as_deref(),
            Some("row 1 has the given 1 twice (squares 1 and 2: hex digits 64 and 63)")
        );
        // squares 1 and 9 (hex digits 1 and 9 from the end) share column 1
        assert_eq!(
            start_problem(&board("100000001")).as_deref(),
            Some("column 1 has the given 1 twice (squares 1 and 9: hex digits 64 and 56)")
        );
        assert_eq!(start_problem(&board("")), None);
        assert_eq!(start_problem(&generate(b"any seed")), None);
    }
}
