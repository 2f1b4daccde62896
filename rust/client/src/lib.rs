//! The Algoku client: deploy the contract and ask it for Sudoku verdicts on
//! LocalNet, any algod, or go-algorand's evaluator embedded when no algod runs
//! (a local node started for the process), all over algod's HTTP API.
//!
//! * [`spec`]: the committed ARC-56 app spec (methods, selectors, programs, error map);
//! * [`settings`]: AlgoKit's environment variables and LocalNet defaults;
//! * [`algod`], [`kmd`]: the transports (algod v2 and KMD v1 over HTTP);
//! * [`node`]: the local node (algod and KMD over go-algorand's evaluator) as a child process;
//! * [`chain`]: one interface over them (sign, simulate, send, measure budget);
//! * [`app`]: one app of a committed spec on a chain (create, reuse or check; call);
//! * [`algoku`]: deploy, plan the cheapest opup group, verify;
//! * [`batch`]: many verdicts, a window of groups at a time, every answer kept in order;
//! * [`curta`], [`game`]: the two games' apps.

#![warn(missing_docs)]

pub mod algod;
pub mod algoku;
pub mod app;
pub mod batch;
pub mod chain;
pub mod curta;
pub mod error;
pub mod game;
pub mod kmd;
pub mod node;
pub mod outcome;
pub mod params;
pub mod settings;
pub mod spec;

pub use algoku::{Algoku, Call, Method, Strategy, Verdict, Verification};
pub use app::Deployment;
pub use chain::{Backend, Chain};
pub use error::ClientError;
pub use settings::{Network, Settings};
