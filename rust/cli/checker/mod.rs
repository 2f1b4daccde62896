//! The grid checker's commands, `ua` and `clues`, and the resumable batch
//! runs over grid files they share (`shard`).

pub mod clues;
pub mod shard;
pub mod ua;
