//! The conventions every command shares: where input comes from, how results,
//! errors and exit codes go out, and progress on stderr.

pub mod input;
pub mod output;
pub mod progress;
pub mod report;
pub mod stop;
