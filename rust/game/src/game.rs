//! An address's game, natively: its puzzle in the player's frame, the
//! solution argument the contract takes, and the contract's verdict.
//!
//! The contract takes the solution as 81 *lanes* of 16 bits (162 bytes):
//! lane `c` (bytes `2c, 2c + 1`) is `0x8000 >> d` for digit `d` of cell `c`,
//! i.e. its bit `d` counted from the left, the AVM's `getbit`/`setbit`
//! numbering (bit `16c + d` of the whole string). The contract then needs no
//! per-cell work to check the grid (see the contract's docstring).

use algoku_sudoku::Grid;

use crate::catalogue::{self, Givens, LEAF};
use crate::derive::{derive, Derived};
use crate::merkle::{self, Tree};

/// Bytes of the solution argument.
pub const LANES: usize = 162;

/// An address's puzzle.
#[derive(Clone, Debug)]
pub struct Puzzle {
    /// The derivation (index and isomorphism).
    pub derived: Derived,
    /// The catalogue puzzle.
    pub givens: Givens,
    /// The player's puzzle: the catalogue puzzle's image (17 givens).
    pub grid: Grid,
}

/// The puzzle of `address` on app `app_id`.
pub fn puzzle(app_id: u64, address: &[u8; 32]) -> Puzzle {
    let derived = derive(app_id, address);
    let givens = catalogue::puzzle(derived.index);
    Puzzle::new(derived, givens)
}

impl Puzzle {
    /// The player's puzzle: `givens` (catalogue puzzle `derived.index`)
    /// under the derived isomorphism.
    pub fn new(derived: Derived, givens: Givens) -> Puzzle {
        let mut cells = [0u8; 81];
        for &(c, d) in &givens.0 {
            cells[derived.cell(c as usize)] = derived.digits[d as usize];
        }
        Puzzle {
            derived,
            givens,
            grid: Grid::from_cells(cells).expect("digits 1..9"),
        }
    }

    /// The 51-byte leaf the contract reads.
    pub fn leaf(&self) -> [u8; LEAF] {
        self.givens.leaf()
    }

    /// The Merkle proof of the leaf in `tree`.
    pub fn proof(&self, tree: &Tree) -> Vec<u8> {
        tree.proof(self.derived.index)
    }

    /// The unique solution (solved natively).
    pub fn solution(&self) -> Grid {
        algoku_sudoku::solve(&self.grid).expect("every catalogue puzzle has a solution")
    }
}

/// A grid's 162-byte lanes (see the module docs); a blank cell is a zero lane.
pub fn lanes(grid: &Grid) -> [u8; LANES] {
    let mut out = [0u8; LANES];
    for c in 0..81 {
        let d = grid.get(c).unwrap_or(0);
        if d != 0 {
            let lane = 0x8000u16 >> d;
            out[2 * c..2 * c + 2].copy_from_slice(&lane.to_be_bytes());
        }
    }
    out
}

/// The grid a 162-byte lanes string encodes, if every lane is one digit.
pub fn from_lanes(lanes: &[u8]) -> Option<Grid> {
    if lanes.len() != LANES {
        return None;
    }
    let mut cells = [0u8; 81];
    for (c, cell) in cells.iter_mut().enumerate() {
        let lane = u16::from_be_bytes([lanes[2 * c], lanes[2 * c + 1]]);
        let d = (1..=9u8).find(|&d| lane == 0x8000 >> d)?;
        *cell = d;
    }
    Grid::from_cells(cells).ok()
}

/// The call fails: the puzzle and proof do not lead to the catalogue root.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProofMismatch;

impl std::fmt::Display for ProofMismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the puzzle and proof do not match the catalogue root")
    }
}

impl std::error::Error for ProofMismatch {}

/// The contract's verdict on `solution` for the puzzle of `address`, given
/// the catalogue `leaf` and its `proof` under `root`: `Err` when the call
/// fails (a proof that does not lead to the root), else whether the lanes are
/// a solved grid agreeing with the player's 17 givens.
pub fn verdict(
    root: &[u8; merkle::NODE],
    app_id: u64,
    address: &[u8; 32],
    leaf: &[u8; LEAF],
    proof: &[u8],
    solution: &[u8; LANES],
) -> Result<bool, ProofMismatch> {
    let derived = derive(app_id, address);
    if !merkle::verify(root, derived.index, leaf, proof) {
        return Err(ProofMismatch);
    }
    let Some(grid) = from_lanes(solution) else {
        return Ok(false);
    };
    if grid.check_solution().is_err() {
        return Ok(false);
    }
    let agrees = (0..17).all(|i| {
        let (r, k, d) = (leaf[i] / 2, leaf[17 + i] / 2, leaf[34 + i]);
        let c = derived.cell(9 * r as usize + k as usize);
        (1..=9).contains(&d) && grid.get(c) == Some(derived.digits[d as usize])
    });
    Ok(agrees)
}
