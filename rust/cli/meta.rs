//! `algoku completions` and `algoku man`: the shell completion scripts and
//! the manual pages, generated from the command line's own definition so
//! they never drift from it.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::CommandFactory;
use clap_complete::Shell;

use crate::io::output::Out;
use crate::{Cli, Global};

/// Arguments of `algoku completions`.
#[derive(clap::Args, Debug)]
pub struct CompletionsArgs {
    /// The shell: bash, zsh, fish, powershell or elvish.
    #[arg(value_name = "SHELL")]
    shell: Shell,
}

/// Arguments of `algoku man`.
#[derive(clap::Args, Debug)]
pub struct ManArgs {
    /// Write algoku.1 and a page per subcommand (algoku-check.1 and so on) into
    /// this directory (created if missing) instead of printing algoku.1.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
}

/// Runs `algoku completions`: the script on stdout (with `--json`, as
/// `{"shell": …, "script": …}`).
pub fn completions(args: &CompletionsArgs, global: &Global, out: &mut Out) -> Result<ExitCode> {
    let mut command = Cli::command();
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut command, "algoku", &mut script);
    let script = String::from_utf8(script).context("the completion script is not UTF-8")?;
    if global.json {
        out.json(&serde_json::json!({"shell": args.shell.to_string(), "script": script}))?;
    } else {
        out.line(script.trim_end())?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Runs `algoku man`: algoku.1 (roff) on stdout, or every page into `--out`.
pub fn man(args: &ManArgs, global: &Global, out: &mut Out) -> Result<ExitCode> {
    // As clap_mangen's generate_to prepares it, so the printed algoku.1 is
    // the written one (no `help` pseudo-subcommand, which has no page).
    let mut command = Cli::command().disable_help_subcommand(true);
    command.build();
    let Some(dir) = &args.out else {
        let mut page = Vec::new();
        clap_mangen::Man::new(command).render(&mut page)?;
        let page = String::from_utf8(page).context("the man page is not UTF-8")?;
        if global.json {
            out.json(&serde_json::json!({ "man": page }))?;
        } else {
            out.line(page.trim_end())?;
        }
        return Ok(ExitCode::SUCCESS);
    };
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    clap_mangen::generate_to(command, dir)
        .with_context(|| format!("cannot write the man pages into {}", dir.display()))?;
    let mut pages: Vec<String> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| is_page(name))
        .collect();
    pages.sort();
    if global.json {
        out.json(&serde_json::json!({"dir": dir.display().to_string(), "pages": pages}))?;
    } else {
        out.line(format_args!(
            "wrote {} man pages into {} ({})",
            pages.len(),
            dir.display(),
            pages.join(", ")
        ))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Whether a file name is one of ours: `algoku.1` or `algoku-….1`.
fn is_page(name: &str) -> bool {
    Path::new(name).extension().is_some_and(|e| e == "1")
        && (name == "algoku.1" || name.starts_with("algoku-"))
}
