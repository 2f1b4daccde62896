//! `cargo run -p algoku-game --example catalogue -- LIST OUT`: encode the published
//! 17-clue list (text, one puzzle a line) into the catalogue file, then print its
//! Merkle root. With no arguments, print the root of the committed catalogue.

use algoku_game::catalogue::{decode, encode_list, RECORD};
use algoku_game::Tree;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let bytes = match &args[..] {
        [list, out] => {
            let text = std::fs::read_to_string(list).unwrap_or_else(|e| {
                eprintln!("error: {list}: {e}");
                std::process::exit(2)
            });
            let bytes = encode_list(&text).unwrap_or_else(|e| {
                eprintln!("error: {list}: {e}");
                std::process::exit(2)
            });
            std::fs::write(out, &bytes).unwrap_or_else(|e| {
                eprintln!("error: {out}: {e}");
                std::process::exit(2)
            });
            bytes
        }
        [] => algoku_game::catalogue::CATALOGUE.to_vec(),
        _ => {
            eprintln!("usage: catalogue [LIST OUT]");
            std::process::exit(2)
        }
    };
    let leaves = bytes
        .chunks(RECORD)
        .map(|r| decode(r).expect("decodes").leaf())
        .collect::<Vec<_>>();
    println!(
        "{} puzzles, root {}",
        leaves.len(),
        hex(&Tree::new(leaves).root())
    );
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}
