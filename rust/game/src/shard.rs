//! The catalogue in shards: what a reader that cannot hold the whole
//! catalogue (the web page) fetches to play and prove one puzzle.
//!
//! A shard is the 256 leaves under one node of level 2 of the Merkle tree:
//! `SHARD` consecutive records, 193 shards in all (the last one 6 records). A
//! proof's two lower blocks lie inside the leaf's shard; its two upper blocks
//! are made of level-2 nodes and their parents, so the 193 level-2 nodes
//! (`data/level2.bin`, 3 860 bytes, a test recomputes them) and one shard's
//! records give every proof of its puzzles:
//!
//! ```text
//!   root                                level 4   hash of the 13 below
//!   13 nodes                            level 3   each the hash of 16 below
//!   193 nodes = data/level2.bin         level 2   one per shard
//!   ─────────────────────────────────────────────────────────────────────
//!   shard s: 16 level-1 nodes, 256 leaves (records 256 s ..)   fetched
//! ```
//!
//! The level-2 nodes are believed once they hash up to the committed root
//! ([`crate::merkle::ROOT_HEX`]); a shard only when its own root is its
//! level-2 node, so a damaged or substituted file is refused, never played.

use crate::catalogue::{decode, CatalogueError, Givens, COUNT, LEAF, RECORD};
use crate::merkle::{committed_root, hash, Tree, NODE, PROOF};

/// Records per shard: the leaves under one node of level 2.
pub const SHARD: usize = 16 * 16;
/// How many shards the catalogue has.
pub const SHARDS: usize = COUNT.div_ceil(SHARD);
/// The level-2 nodes of the committed catalogue's tree, 20 bytes each.
pub static LEVEL2: &[u8] = include_bytes!("../data/level2.bin");

/// The shard that holds catalogue puzzle `index`.
pub fn shard_of(index: usize) -> usize {
    index / SHARD
}

/// The records shard `number` holds: `(first index, count)`.
pub fn span(number: usize) -> (usize, usize) {
    let first = number * SHARD;
    (first, SHARD.min(COUNT.saturating_sub(first)))
}

/// The 16 children (zero-padded) of block `q` of `nodes` (20 bytes each).
fn block(nodes: &[u8], q: usize) -> [u8; 16 * NODE] {
    let mut out = [0u8; 16 * NODE];
    let from = (16 * q * NODE).min(nodes.len());
    let to = (16 * (q + 1) * NODE).min(nodes.len());
    out[..to - from].copy_from_slice(&nodes[from..to]);
    out
}

/// The level-3 nodes, from [`LEVEL2`].
fn level3() -> Vec<u8> {
    (0..SHARDS.div_ceil(16))
        .flat_map(|q| hash(&block(LEVEL2, q)))
        .collect()
}

/// Why bytes are not shard `number` of the committed catalogue.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShardError {
    /// There is no shard of this number.
    Number(usize),
    /// The shard should be `expected` bytes, not `got`.
    Length {
        /// The bytes given.
        got: usize,
        /// The shard's size.
        expected: usize,
    },
    /// A record does not decode.
    Record {
        /// The record's catalogue index.
        index: usize,
        /// Why.
        error: CatalogueError,
    },
    /// The records decode but are not the committed ones.
    Root,
}

impl std::fmt::Display for ShardError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ShardError::Number(n) => write!(f, "no catalogue shard {n} (there are {SHARDS})"),
            ShardError::Length { got, expected } => {
                write!(f, "a catalogue shard of {got} bytes, not {expected}")
            }
            ShardError::Record { index, error } => write!(f, "catalogue record {index}: {error}"),
            ShardError::Root => f.write_str("the shard is not the committed catalogue's"),
        }
    }
}

impl std::error::Error for ShardError {}

/// One shard's puzzles and subtree, checked against the committed root.
pub struct Shard {
    first: usize,
    givens: Vec<Givens>,
    tree: Tree,
    /// The root's children (the level-3 nodes, zero-padded): every proof's top block.
    top: [u8; 16 * NODE],
}

impl Shard {
    /// Shard `number` from its records (`RECORD` bytes each, catalogue order).
    pub fn new(number: usize, records: &[u8]) -> Result<Shard, ShardError> {
        if number >= SHARDS {
            return Err(ShardError::Number(number));
        }
        let (first, count) = span(number);
        if records.len() != count * RECORD {
            return Err(ShardError::Length {
                got: records.len(),
                expected: count * RECORD,
            });
        }
        let givens = records
            .chunks(RECORD)
            .enumerate()
            .map(|(i, r)| {
                decode(r).map_err(|error| ShardError::Record {
                    index: first + i,
                    error,
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let tree = Tree::new(givens.iter().map(Givens::leaf).collect());
        // The committed level-2 nodes lead to the root, and this shard's
        // leaves to its own level-2 node.
        let top = block(&level3(), 0);
        let root = hash(&top);
        let own = &tree.level(2)[0][..];
        if root[..] != committed_root() || own != &LEVEL2[number * NODE..(number + 1) * NODE] {
            return Err(ShardError::Root);
        }
        Ok(Shard {
            first,
            givens,
            tree,
            top,
        })
    }

    /// Whether catalogue puzzle `index` is in this shard.
    pub fn holds(&self, index: usize) -> bool {
        (self.first..self.first + self.givens.len()).contains(&index)
    }

    /// Catalogue puzzle `index` (in this shard).
    pub fn givens(&self, index: usize) -> Givens {
        assert!(self.holds(index), "puzzle {index} is not in this shard");
        self.givens[index - self.first]
    }

    /// The proof of catalogue leaf `index` (in this shard): the same bytes as
    /// the whole tree's [`Tree::proof`]. The shard's own tree gives the two
    /// lower blocks; the level-2 and level-3 nodes the two upper ones.
    pub fn proof(&self, index: usize) -> Vec<u8> {
        assert!(self.holds(index), "puzzle {index} is not in this shard");
        let mut out = self.tree.proof(index - self.first);
        let upper = PROOF - 2 * 16 * NODE;
        out[upper..upper + 16 * NODE].copy_from_slice(&block(LEVEL2, index / (16 * SHARD)));
        out[upper + 16 * NODE..].copy_from_slice(&self.top);
        out
    }

    /// The 51-byte leaf of catalogue puzzle `index`.
    pub fn leaf(&self, index: usize) -> [u8; LEAF] {
        self.givens(index).leaf()
    }
}

/// The level-2 nodes of `tree`, concatenated: what `data/level2.bin` holds
/// for the committed catalogue (written by the `catalogue` example).
pub fn level2_of(tree: &Tree) -> Vec<u8> {
    tree.level(2).concat()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::CATALOGUE;

    fn records(number: usize) -> &'static [u8] {
        let (first, count) = span(number);
        &CATALOGUE[first * RECORD..(first + count) * RECORD]
    }

    #[test]
    fn the_committed_level2_nodes_are_the_catalogues() {
        let tree = Tree::catalogue();
        assert_eq!(
            level2_of(&tree),
            LEVEL2,
            "data/level2.bin is stale: `cargo run -p algoku-game --example catalogue -- --write`"
        );
        assert_eq!(LEVEL2.len(), SHARDS * NODE);
    }

    #[test]
    fn every_shards_proofs_are_the_whole_trees() {
        let tree = Tree::catalogue();
        assert_eq!(SHARDS, 193);
        for number in 0..SHARDS {
            let shard = Shard::new(number, records(number)).unwrap();
            let (first, count) = span(number);
            for index in [first, first + count / 2, first + count - 1] {
                assert_eq!(shard.proof(index), tree.proof(index), "puzzle {index}");
                assert_eq!(shard.givens(index), crate::catalogue::puzzle(index));
            }
            assert!(!shard.holds(first + count));
        }
    }

    #[test]
    fn a_wrong_shard_is_refused_with_its_reason() {
        assert_eq!(Shard::new(193, &[]).err(), Some(ShardError::Number(193)));
        let one = records(1);
        assert!(matches!(
            Shard::new(0, &one[..100]).err(),
            Some(ShardError::Length { got: 100, .. })
        ));
        // shard 1's records offered as shard 0: they decode, but the root differs
        assert_eq!(Shard::new(0, one).err(), Some(ShardError::Root));
        let mut bad = records(192).to_vec();
        bad[RECORD - 1] |= 1; // a padding bit
        assert!(matches!(
            Shard::new(192, &bad).err(),
            Some(ShardError::Record { index: 49_152, .. })
        ));
        // a given moved to another cell: still 17 givens, another puzzle
        let mut other = records(7).to_vec();
        other[0] ^= 0x03;
        assert!(Shard::new(7, &other).is_err());
    }
}
