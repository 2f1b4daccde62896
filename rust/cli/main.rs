//! `algoku`: Sudoku on Algorand from the command line.
//!
//! A thin layer over the workspace crates: argument parsing, input and output
//! conventions, exit codes. Each subcommand lives in its own module.
//!
//! Exit codes: 0 success (or a positive verdict), 1 a negative verdict
//! (`check` false, no solution, `curta verify` false), 2 a usage or input
//! error (every error: the message goes to stderr as `error: …`, or with
//! `--json` to stdout as `{"error": "…"}`).

mod checker;
mod engine;
mod games;
mod io;
mod meta;
mod net;
mod node;
mod verify;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::io::output::{
    error_message, escape_line, is_broken_pipe, report_error, unsafe_in_a_line, Out, EXIT_ERROR,
};

/// The version and the git commit the binary was built from (`-dirty` when
/// the work tree had changes, `unknown` outside a git checkout).
const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (commit ",
    env!("ALGOKU_GIT_COMMIT"),
    ")"
);

/// Options shared by every subcommand.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Global {
    /// Print results (and errors) as JSON on stdout, one value per line.
    pub json: bool,
    /// Show no progress bars.
    pub quiet: bool,
}

impl Global {
    /// The network settings from the environment, quiet as the command is.
    pub fn settings(&self) -> algoku_client::Settings {
        algoku_client::Settings {
            quiet: self.quiet,
            ..algoku_client::Settings::from_env()
        }
    }
}

/// The command line.
#[derive(Parser, Debug)]
#[command(name = "algoku", version = VERSION, about, propagate_version = true)]
pub struct Cli {
    /// Print results (and errors) as JSON on stdout, one value per line.
    #[arg(long, global = true)]
    json: bool,
    /// Show no progress bars.
    #[arg(long, global = true)]
    quiet: bool,
    #[command(subcommand)]
    command: Command,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
enum Command {
    /// Check a 9x9 grid (or any bytes, as 0x + hex): valid or not, why, and
    /// what the contract and the original Algoku answer (exit 1 when invalid).
    Check(engine::check::CheckArgs),
    /// Solve puzzles, or count their solutions (exit 1 when one has none).
    Solve(engine::solve::SolveArgs),
    /// Rate puzzles by the human techniques they need (level, SE score, steps).
    Rate(engine::rate::RateArgs),
    /// Generate puzzles with a unique solution, deterministically per seed.
    Generate(engine::generate::GenerateArgs),
    /// The 8x8 Curta puzzle "two times four is eight": generate, verify, solve.
    #[command(subcommand)]
    Curta(games::curta::CurtaCommand),
    /// Algoku the game: every address's own 17-clue puzzle, solved and recorded on chain.
    #[command(subcommand)]
    Game(games::game::GameCommand),
    /// The minimal unavoidable sets of a solved grid: every one up to 12
    /// cells (--complete), larger ones as found (batch mode over a grid file
    /// with shards).
    Ua(checker::ua::UaArgs),
    /// Every puzzle with exactly N givens whose unique solution is a grid
    /// (exhaustive search; batch mode over a grid file with shards).
    Clues(checker::clues::CluesArgs),
    /// Write the deterministic 9x9 and Curta fixture files.
    Fixtures(engine::fixtures::FixturesArgs),
    /// Deploy the verifier contract.
    Deploy(verify::DeployArgs),
    /// Verify a grid with the deployed contract.
    Verify(verify::VerifyArgs),
    /// Deploy and call the contract on sample grids.
    Demo(verify::DemoArgs),
    /// Serve a local node: algod and KMD on loopback over go-algorand's evaluator.
    Node(node::NodeArgs),
    /// Print the shell completion script (bash, zsh, fish, powershell, elvish).
    Completions(meta::CompletionsArgs),
    /// Print the manual page (roff), or write every page with --out DIR.
    Man(meta::ManArgs),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return usage_error(e),
    };
    let global = Global {
        json: cli.json,
        quiet: cli.quiet,
    };
    let mut out = Out::stdout();
    let result = run(&cli.command, &global, &mut out)
        .and_then(|code| out.flush().map(|()| code).map_err(Into::into));
    match result {
        Ok(code) => code,
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            // Keep what was already printed, in order, before the error.
            let _ = out.flush();
            report_error(&error_message(&e), global.json);
            ExitCode::from(EXIT_ERROR)
        }
    }
}

/// Dispatches to the subcommand.
fn run(command: &Command, global: &Global, out: &mut Out) -> anyhow::Result<ExitCode> {
    match command {
        Command::Check(args) => engine::check::run(args, global, out),
        Command::Solve(args) => engine::solve::run(args, global, out),
        Command::Rate(args) => engine::rate::run(args, global, out),
        Command::Generate(args) => engine::generate::run(args, global, out),
        Command::Curta(command) => games::curta::run(command, global, out),
        Command::Game(command) => games::game::run(command, global, out),
        Command::Ua(args) => checker::ua::run(args, global, out),
        Command::Clues(args) => checker::clues::run(args, global, out),
        Command::Fixtures(args) => engine::fixtures::run(args, global, out),
        Command::Deploy(args) => verify::deploy(args, global, out),
        Command::Verify(args) => verify::verify(args, global, out),
        Command::Demo(args) => verify::demo(args, global, out),
        Command::Node(args) => node::run(args, global, out),
        Command::Completions(args) => meta::completions(args, global, out),
        Command::Man(args) => meta::man(args, global, out),
    }
}

/// clap's message as one line: the first line, with the lines that follow a
/// trailing colon (e.g. the names of missing required arguments) joined on,
/// the possible values if clap lists them, and without the usage, tips and
/// help hints.
fn one_line(rendered: &str) -> Option<String> {
    let mut lines = rendered
        .lines()
        .map(str::trim)
        .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more information"))
        .filter(|l| !l.is_empty());
    let mut text = lines.next()?.trim_start_matches("error: ").to_string();
    let rest: Vec<&str> = lines.collect();
    if text.ends_with(':') {
        if !rest.is_empty() {
            text = format!("{} {}", text, rest.join(", "));
        }
    } else if let Some(values) = rest.iter().find(|l| l.starts_with("[possible values")) {
        text = format!("{text} {values}");
    }
    Some(text)
}

/// Handles a command-line parse failure: `--help` and `--version` print and
/// exit 0; other errors print clap's message as one line (`error: …`, or
/// `{"error": …}` when `--json` was given) and exit 2.
fn usage_error(e: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
        let _ = e.print();
        return ExitCode::SUCCESS;
    }
    let json = std::env::args_os().any(|a| a == "--json");
    if matches!(
        e.kind(),
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand | ErrorKind::MissingSubcommand
    ) {
        // clap renders the whole help here; one line says what is missing instead.
        let words: Vec<String> = std::env::args()
            .skip(1)
            .filter(|a| !a.starts_with('-'))
            .collect();
        let command = format!("algoku {}", words.join(" "));
        report_error(
            &format!(
                "a subcommand is required: see `{} --help`",
                command.trim_end()
            ),
            json,
        );
        return ExitCode::from(EXIT_ERROR);
    }
    let e = escape_values(e);
    let text = one_line(&e.render().to_string()).unwrap_or_else(|| e.kind().to_string());
    report_error(&text, json);
    ExitCode::from(EXIT_ERROR)
}

/// The error with the values it quotes from the command line escaped, so
/// that `--seed $'12\nab'` gives one line and no raw control character
/// reaches the terminal.
fn escape_values(mut e: clap::Error) -> clap::Error {
    use clap::error::ContextValue;
    let fixes: Vec<_> = e
        .context()
        .filter_map(|(kind, value)| match value {
            ContextValue::String(s) if s.chars().any(unsafe_in_a_line) => {
                Some((kind, ContextValue::String(escape_line(s))))
            }
            ContextValue::Strings(v) if v.iter().any(|s| s.chars().any(unsafe_in_a_line)) => {
                Some((
                    kind,
                    ContextValue::Strings(v.iter().map(|s| escape_line(s)).collect()),
                ))
            }
            _ => None,
        })
        .collect();
    for (kind, value) in fixes {
        e.insert(kind, value);
    }
    e
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_values_are_escaped_to_one_line() {
        for (value, shown) in [
            ("12\nab", "'12\\nab'"),
            ("1\r2", "'1\\r2'"),
            ("7\u{2028}8", "'7\\u{2028}8'"),
            ("\u{1b}[2J", "'\\u{1b}[2J'"),
        ] {
            let e = Cli::try_parse_from(["algoku", "generate", "--seed", value]).unwrap_err();
            let text = one_line(&escape_values(e).render().to_string()).unwrap();
            assert!(text.contains(shown), "{text}");
            assert!(!text.chars().any(unsafe_in_a_line), "{text:?}");
        }
        let e = Cli::try_parse_from(["algoku", "solve", "--bogus\nflag"]).unwrap_err();
        let text = one_line(&escape_values(e).render().to_string()).unwrap();
        assert!(text.contains("--bogus\\nflag"), "{text}");
    }
}
