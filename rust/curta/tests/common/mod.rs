//! Shared helpers for the integration tests: the ground-truth vectors (copied from the real
//! Solidity contract run in an EVM; embedded at compile time from `tests/data/`).

#![allow(dead_code)]

use algoku_curta::Board;

pub const GENERATE_JSONL: &str = include_str!("../data/generate.jsonl");
pub const VERIFY_JSONL: &str = include_str!("../data/verify.jsonl");

/// The value of `"key":"..."` or `"key":true|false` in a flat one-line JSON object with
/// no escapes (the vector files' format). Panics with the line if it is missing.
pub fn field<'a>(line: &'a str, key: &str) -> &'a str {
    let pat = format!("\"{key}\":");
    let at = line
        .find(&pat)
        .unwrap_or_else(|| panic!("no {key:?} in {line}"));
    let rest = &line[at + pat.len()..];
    if let Some(s) = rest.strip_prefix('"') {
        &s[..s
            .find('"')
            .unwrap_or_else(|| panic!("unterminated {key:?} in {line}"))]
    } else {
        let end = rest.find([',', '}']).unwrap_or(rest.len());
        rest[..end].trim()
    }
}

/// A `generate` vector: the address string and the contract's puzzle.
pub struct GenerateVector {
    pub address: String,
    pub puzzle: Board,
}

/// A `verify` vector: inputs, the contract's answer and the generator's label.
pub struct VerifyVector {
    pub start: Board,
    pub solution: Board,
    pub valid: bool,
    pub case: String,
}

fn lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines().map(str::trim).filter(|l| !l.is_empty())
}

pub fn generate_vectors() -> Vec<GenerateVector> {
    lines(GENERATE_JSONL)
        .map(|l| GenerateVector {
            address: field(l, "address").to_string(),
            puzzle: Board::from_hex(field(l, "puzzle")).unwrap(),
        })
        .collect()
}

pub fn verify_vectors() -> Vec<VerifyVector> {
    lines(VERIFY_JSONL)
        .map(|l| VerifyVector {
            start: Board::from_hex(field(l, "start")).unwrap(),
            solution: Board::from_hex(field(l, "solution")).unwrap(),
            valid: match field(l, "valid") {
                "true" => true,
                "false" => false,
                other => panic!("bad valid {other:?} in {l}"),
            },
            case: field(l, "case").to_string(),
        })
        .collect()
}
