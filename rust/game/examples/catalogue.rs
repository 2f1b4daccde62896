//! `cargo run -p algoku-game --example catalogue -- LIST OUT`: encode the published
//! 17-clue list (text, one puzzle a line) into the catalogue file, then print its
//! Merkle root. With no arguments, print the root of the committed catalogue and
//! check `data/level2.bin` (the tree's level-2 nodes, which the web page's shards
//! are checked against); `--write` rewrites that file from the committed catalogue.

use algoku_game::catalogue::{decode, encode_list, RECORD};
use algoku_game::shard::{level2_of, LEVEL2};
use algoku_game::Tree;

fn fail(what: &str, e: impl std::fmt::Display) -> ! {
    eprintln!("error: {what}: {e}");
    std::process::exit(2)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let level2_path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/level2.bin");
    let bytes = match &args[..] {
        [list, out] => {
            let text = std::fs::read_to_string(list).unwrap_or_else(|e| fail(list, e));
            let bytes = encode_list(&text).unwrap_or_else(|e| fail(list, e));
            std::fs::write(out, &bytes).unwrap_or_else(|e| fail(out, e));
            bytes
        }
        [] => algoku_game::catalogue::CATALOGUE.to_vec(),
        [flag] if flag == "--write" => {
            let level2 = level2_of(&Tree::catalogue());
            std::fs::write(level2_path, &level2).unwrap_or_else(|e| fail(level2_path, e));
            println!("{level2_path}: {} level-2 nodes written", level2.len() / 20);
            return;
        }
        _ => {
            eprintln!("usage: catalogue [LIST OUT | --write]");
            std::process::exit(2)
        }
    };
    let leaves = bytes
        .chunks(RECORD)
        .map(|r| decode(r).expect("decodes").leaf())
        .collect::<Vec<_>>();
    let tree = Tree::new(leaves);
    println!(
        "{} puzzles, root {}",
        tree.level(0).len(),
        hex(&tree.root())
    );
    if args.is_empty() && level2_of(&tree) != LEVEL2 {
        eprintln!("{level2_path} is stale: run this example with --write");
        std::process::exit(1);
    }
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}
