//! A progress bar on stderr for runs over many items.
//!
//! The bar is shown only when it helps and cannot get in the way: more than
//! one item, no `--quiet`, stderr is a terminal, and not `--json` with stdout
//! redirected (a machine is reading). Otherwise every method is a no-op.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::Global;

/// A progress bar that may be hidden.
pub struct Progress {
    bar: Option<ProgressBar>,
    /// Whether stdout shares the terminal, so output must suspend the bar.
    stdout_tty: bool,
}

impl Progress {
    /// A bar over `len` items labelled `what` (e.g. `"solving"`), hidden
    /// unless the rules in the module documentation allow it.
    pub fn new(len: u64, what: &str, global: &Global) -> Progress {
        let stdout_tty = std::io::stdout().is_terminal();
        let shown = len > 1
            && !global.quiet
            && std::io::stderr().is_terminal()
            && (!global.json || stdout_tty);
        let bar = shown.then(|| {
            let style = ProgressStyle::with_template(
                "{msg} [{elapsed_precise}] {wide_bar} {pos}/{len} ({per_sec}, eta {eta})",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar());
            let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr())
                .with_style(style)
                .with_message(what.to_string());
            bar.tick();
            bar
        });
        Progress { bar, stdout_tty }
    }

    /// Advances the bar by one item.
    pub fn inc(&self) {
        self.inc_by(1);
    }

    /// Advances the bar by `n` items.
    pub fn inc_by(&self, n: u64) {
        if let Some(bar) = &self.bar {
            bar.inc(n);
        }
    }

    /// Runs `f` (which writes to stdout) with the bar cleared if both share
    /// the terminal.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        match &self.bar {
            Some(bar) if self.stdout_tty => bar.suspend(f),
            _ => f(),
        }
    }

    /// Removes the bar.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

impl Drop for Progress {
    /// Clears the bar on every exit path, errors included.
    fn drop(&mut self) {
        self.finish();
    }
}
