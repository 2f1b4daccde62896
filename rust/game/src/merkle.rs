//! The catalogue's Merkle tree: SHA-256 truncated to 20 bytes, 16 children
//! per node, 4 levels.
//!
//! Level 0 holds the 49 158 leaves (51 bytes each, [`crate::catalogue`]). A
//! node of level `L + 1` is the first 20 bytes of `SHA-256` of the
//! concatenation of its 16 children of level `L` (a missing child is all
//! zeros: 51 bytes at level 0, 20 above). Levels 1..4 have 3 073, 193, 13
//! and 1 nodes; the one node of level 4 is the root. A level-0 block is 816
//! bytes and a higher one 320, so blocks of different levels never collide;
//! 160-bit nodes keep second preimages out of reach (2^160 work).
//!
//! The proof of leaf `i` is the 4 blocks on its path, bottom first: the 16
//! children of its level-1 ancestor (816 bytes), then for each higher level
//! the 16 children (320 bytes) of the next ancestor: 1 776 bytes, which with
//! the leaf, the 162-byte solution and the selector fills 1 993 of the 2 048
//! bytes of application arguments. Checking it (the contract's code,
//! unrolled): `node = leaf`; for each level, with `p = (i >> 4L) & 15` and
//! `w` the child width (51, then 20), `node = SHA-256(block with bytes p*w ..
//! p*w + w replaced by node)[..20]`; the proof holds when `node` equals the
//! root. The slot that is replaced carries no information (the prover may
//! fill it with anything; [`Tree::proof`] leaves the true child there).
//!
//! Cost on the AVM: 4 `sha256` (35 opcodes each, whatever the input length)
//! and a `replace3` per level, under 200 opcodes; a binary tree would need 16
//! hashes.

use crate::catalogue::{COUNT, LEAF};
use sha2::{Digest, Sha256};

/// Children per node of each level, bottom first.
pub const ARITIES: [usize; 4] = [16, 16, 16, 16];
/// Bytes of an inner node (a truncated SHA-256 digest).
pub const NODE: usize = 20;
/// Bytes of a proof: one 816-byte leaf block and three 320-byte node blocks.
pub const PROOF: usize = 16 * LEAF + 3 * 16 * NODE;

/// The whole tree: every level's nodes (level 0 = leaves).
pub struct Tree {
    levels: Vec<Vec<Vec<u8>>>,
}

pub(crate) fn hash(data: &[u8]) -> Vec<u8> {
    Sha256::digest(data)[..NODE].to_vec()
}

/// The children `arity * q .. arity * (q + 1)` of `items`, concatenated (missing ones are zeros).
fn block(items: &[Vec<u8>], q: usize, arity: usize, width: usize) -> Vec<u8> {
    let mut out = vec![0u8; arity * width];
    for j in 0..arity {
        if let Some(x) = items.get(arity * q + j) {
            out[width * j..width * (j + 1)].copy_from_slice(x);
        }
    }
    out
}

/// How many levels up the children of the level-`level` block of leaf `i` start: `i`
/// divided by the product of the arities below.
fn below(level: usize) -> usize {
    ARITIES[..level].iter().product()
}

impl Tree {
    /// Builds the tree over `leaves` (at most `16^4`).
    pub fn new(leaves: Vec<[u8; LEAF]>) -> Tree {
        assert!(leaves.len() <= ARITIES.iter().product());
        let mut levels: Vec<Vec<Vec<u8>>> = vec![leaves.iter().map(|l| l.to_vec()).collect()];
        for (level, &arity) in ARITIES.iter().enumerate() {
            let items = &levels[level];
            let width = if level == 0 { LEAF } else { NODE };
            let next = (0..items.len().div_ceil(arity).max(1))
                .map(|q| hash(&block(items, q, arity, width)))
                .collect();
            levels.push(next);
        }
        Tree { levels }
    }

    /// The tree of the committed catalogue.
    pub fn catalogue() -> Tree {
        Tree::new(crate::catalogue::leaves())
    }

    /// The nodes of `level` (0 = the leaves), in order.
    pub fn level(&self, level: usize) -> &[Vec<u8>] {
        &self.levels[level]
    }

    /// The root.
    pub fn root(&self) -> [u8; NODE] {
        self.levels[ARITIES.len()][0]
            .clone()
            .try_into()
            .expect("20 bytes")
    }

    /// The proof of leaf `index` (see the module docs).
    pub fn proof(&self, index: usize) -> Vec<u8> {
        assert!(index < self.levels[0].len(), "leaf {index} out of range");
        let mut out = Vec::with_capacity(PROOF);
        for (level, &arity) in ARITIES.iter().enumerate() {
            let width = if level == 0 { LEAF } else { NODE };
            out.extend_from_slice(&block(
                &self.levels[level],
                index / below(level + 1),
                arity,
                width,
            ));
        }
        debug_assert_eq!(out.len(), PROOF);
        out
    }
}

/// The contract's check: does `proof` put `leaf` at `index` under `root`?
/// False for a proof of another length or an index past the catalogue.
pub fn verify(root: &[u8; NODE], index: usize, leaf: &[u8; LEAF], proof: &[u8]) -> bool {
    if proof.len() != PROOF || index >= COUNT {
        return false;
    }
    let mut node: Vec<u8> = leaf.to_vec();
    let mut offset = 0;
    for (level, &arity) in ARITIES.iter().enumerate() {
        let width = if level == 0 { LEAF } else { NODE };
        let p = (index / below(level)) % arity;
        let mut b = proof[offset..offset + arity * width].to_vec();
        b[p * width..(p + 1) * width].copy_from_slice(&node);
        node = hash(&b);
        offset += arity * width;
    }
    node == root[..]
}

/// The committed root, as the contract holds it (`ROOT_HEX` in
/// smart_contracts/game/contract.py); a test recomputes it from the catalogue.
pub const ROOT_HEX: &str = "2fb9bd339dcb2f83683080f8034578318b762f03";

/// [`ROOT_HEX`] as bytes.
pub fn committed_root() -> [u8; NODE] {
    let mut out = [0u8; NODE];
    for (i, b) in out.iter_mut().enumerate() {
        *b = u8::from_str_radix(&ROOT_HEX[2 * i..2 * i + 2], 16).expect("hex");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn committed_root_is_the_catalogues() {
        let tree = Tree::catalogue();
        assert_eq!(tree.root(), committed_root());
        for i in [0, 7, 8, 127, 128, 4095, 32_768, COUNT - 1] {
            let leaf = crate::catalogue::puzzle(i).leaf();
            let proof = tree.proof(i);
            assert_eq!(proof.len(), PROOF);
            assert!(verify(&tree.root(), i, &leaf, &proof));
            // another index, a changed leaf, a changed proof byte: refused
            assert!(!verify(&tree.root(), i ^ 1, &leaf, &proof));
            let mut bad = leaf;
            bad[50] ^= 1;
            assert!(!verify(&tree.root(), i, &bad, &proof));
            let p = (i & 15) * LEAF;
            let mut tampered = proof.clone();
            tampered[(p + LEAF) % (16 * LEAF)] ^= 1; // a sibling leaf
            assert!(!verify(&tree.root(), i, &leaf, &tampered));
            let mut tampered = proof.clone();
            tampered[PROOF - 1 - ((((i >> 12) & 15) + 1) % 16) * NODE] ^= 1; // a node of the top block
            assert!(!verify(&tree.root(), i, &leaf, &tampered));
            // the node's own slot carries no information
            let mut own = proof.clone();
            own[p] ^= 0xff;
            assert!(verify(&tree.root(), i, &leaf, &own));
            assert!(!verify(&tree.root(), i, &leaf, &proof[1..]));
        }
    }
}
