//! The QQWing replay: QQWing's techniques in QQWing's order (see the crate
//! docs), for the QQWing-compatible level.

use crate::*;

/// QQWing's techniques in QQWing's order (see the crate docs).
const QQWING_ORDER: [Technique; 7] = [
    Technique::NakedSingle,
    Technique::HiddenSingleBox,
    Technique::HiddenSingleLine,
    Technique::NakedPair,
    Technique::Pointing,
    Technique::BoxLine,
    Technique::HiddenPair,
];

/// The QQWing level of a unique puzzle (see the crate docs).
pub fn level(puzzle: &Grid) -> Level {
    let Some(mut board) = Board::new(puzzle) else {
        return Level::Expert;
    };
    let (steps, solved) = logical_solve(&mut board, &QQWING_ORDER);
    let used = |t: Technique| steps.iter().any(|s| s.technique == t);
    if !solved {
        Level::Expert
    } else if [
        Technique::NakedPair,
        Technique::HiddenPair,
        Technique::Pointing,
        Technique::BoxLine,
    ]
    .into_iter()
    .any(used)
    {
        Level::Intermediate
    } else if used(Technique::HiddenSingleBox) || used(Technique::HiddenSingleLine) {
        Level::Easy
    } else {
        Level::Simple
    }
}
