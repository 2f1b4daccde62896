//! The arguments of the chain commands (`deploy`, `verify`, `demo`), typed
//! once when the command line is parsed.

use crate::net::NetworkArgs;
use algoku_client::Method;
use std::path::PathBuf;

/// Arguments of `algoku deploy`.
#[derive(clap::Args, Debug)]
pub struct DeployArgs {
    #[command(flatten)]
    pub net: NetworkArgs,
}

/// Which verifier method answers `verify`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum MethodArg {
    /// The cheapest, priced by simulation: for one grid lanes or classic
    /// (normally lanes); for a file also the batch method, per window of lines.
    Auto,
    /// `are_valid_solutions`: up to 14 grids in one app call (files only).
    Batch,
    /// `is_valid_solution_lanes`: one app call.
    Lanes,
    /// `is_valid_solution`: the original algorithm, paid with opups.
    Classic,
}

/// Arguments of `algoku verify`.
#[derive(clap::Args, Debug)]
pub struct VerifyArgs {
    /// 81 digits, or 0x + hex for arbitrary bytes; `-` or nothing reads stdin.
    /// With --puzzle: the solution.
    pub grid: Option<String>,
    /// Verify every line of FILE (one grid per line: digits or 0x hex) with
    /// one app, up to 16 verifications per atomic group.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["grid", "puzzle", "puzzle_file"])]
    pub file: Option<PathBuf>,
    /// Check that the grid solves this puzzle (81 characters, `.` or 0 for
    /// blanks, or 0x hex): the contract's `is_solution_of`.
    #[arg(long, value_name = "PUZZLE")]
    pub puzzle: Option<String>,
    /// Verify every line of FILE: `PUZZLE SOLUTION`, with `is_solution_of`.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["grid", "file", "puzzle"])]
    pub puzzle_file: Option<PathBuf>,
    /// Which method answers (grids only; puzzles use is_solution_of).
    #[arg(long, value_enum, default_value_t = MethodArg::Auto)]
    pub method: MethodArg,
    /// Only simulate: no transaction is sent and no fee is paid. On LocalNet
    /// or another algod this needs an app that exists (--app-id, or one this
    /// account deployed); on the embedded evaluator the app is created on its
    /// in-process ledger, which is discarded at exit, and the output says so.
    #[arg(long)]
    pub simulate_only: bool,
    #[command(flatten)]
    pub net: NetworkArgs,
}

/// Arguments of `algoku demo`.
#[derive(clap::Args, Debug)]
pub struct DemoArgs {
    /// Seed of the generated puzzle.
    #[arg(long, default_value_t = 2026)]
    pub seed: u64,
    #[command(flatten)]
    pub net: NetworkArgs,
}

/// The method for a grid, from `--method`.
pub fn grid_method(arg: MethodArg) -> Option<Method> {
    match arg {
        MethodArg::Auto => None,
        MethodArg::Batch => Some(Method::Batch),
        MethodArg::Lanes => Some(Method::Lanes),
        MethodArg::Classic => Some(Method::Classic),
    }
}
