//! Stopping a batch on a signal without losing what it paid for.
//!
//! A batch that sends transactions must never die between paying for a window
//! and printing it. A first SIGINT (Ctrl-C), SIGTERM (`kill`, a job scheduler's
//! time limit) or SIGHUP (a closed terminal) only raises a flag: the window being
//! asked finishes (its fees are paid), is printed, and the batch stops there with
//! the summary. A second signal exits at once (128 + its number), as shells expect.

use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::Arc;

/// The signal that asked the batch to stop, once one has.
#[derive(Clone, Default)]
pub struct StopFlag(Arc<AtomicI32>);

impl StopFlag {
    /// Starts watching SIGINT, SIGTERM and SIGHUP (call inside the runtime).
    pub fn watch() -> StopFlag {
        let flag = StopFlag::default();
        #[cfg(unix)]
        for (kind, number) in [
            (tokio::signal::unix::SignalKind::interrupt(), 2),
            (tokio::signal::unix::SignalKind::terminate(), 15),
            (tokio::signal::unix::SignalKind::hangup(), 1),
        ] {
            let Ok(mut signals) = tokio::signal::unix::signal(kind) else {
                continue;
            };
            let seen = flag.0.clone();
            tokio::spawn(async move {
                while signals.recv().await.is_some() {
                    if seen.swap(number, Ordering::SeqCst) != 0 {
                        std::process::exit(128 + number);
                    }
                    eprintln!(
                        "{}: finishing the window being asked (again to quit now)",
                        name(number)
                    );
                }
            });
        }
        flag
    }

    /// Why the batch stops, once a signal came: the stop cause the summary names.
    pub fn cause(&self) -> Option<String> {
        match self.0.load(Ordering::SeqCst) {
            0 => None,
            n => Some(format!(
                "interrupted ({}): the lines answered so far are printed",
                name(n)
            )),
        }
    }
}

fn name(number: i32) -> &'static str {
    match number {
        1 => "SIGHUP",
        15 => "SIGTERM",
        _ => "SIGINT",
    }
}
