//! Algoku the game, natively: every Algorand address gets its own 9x9 puzzle
//! with 17 givens and one solution, the image of a catalogue puzzle under a
//! Sudoku isomorphism derived from the app id and the address. This crate is
//! the bit-for-bit mirror of smart_contracts/game/contract.py:
//!
//! * [`catalogue`]: the 49 158 17-clue puzzles, their 19-byte encoding and 51-byte leaves;
//! * [`merkle`]: the 16-ary tree (SHA-256 truncated to 20 bytes) over the leaves, its root and proofs;
//! * [`derive`](mod@derive): index and isomorphism from `SHA-256(app id || address)`;
//! * [`game`]: the player's puzzle, the 162-byte solution lanes, the verdict;
//! * [`shard`]: the catalogue in 193 shards of 256 records, each enough to play and prove its puzzles.

#![warn(missing_docs)]

pub mod catalogue;
pub mod derive;
pub mod game;
pub mod merkle;
pub mod shard;

pub use catalogue::{CatalogueError, Givens, COUNT, LEAF};
pub use derive::{derive, Derived};
pub use game::{from_lanes, lanes, puzzle, verdict, ProofMismatch, Puzzle, LANES};
pub use merkle::{committed_root, Tree, PROOF};
pub use shard::{Shard, ShardError, SHARDS};
