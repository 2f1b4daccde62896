//! The shared vectors `tests/data/players.jsonl`: 256 player addresses (ed25519 keys
//! from SHA-256("algoku-game-player-i"), see tests/test_game.py) on app 1001, the
//! evaluator's first app id in tests/test_game.py, with the native index, puzzle and
//! solution. The contract tests (tests/test_game.py) check the contract against them;
//! this test checks them against the native code.
//!
//! Regenerate: `ALGOKU_WRITE_VECTORS=ADDRESSES cargo test -p algoku-game --test vectors`
//! with ADDRESSES one 64-hex-digit public key a line.

use algoku_game::{lanes, puzzle, verdict, Puzzle, Tree, COUNT};

const APP_ID: u64 = 1001;
const PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/players.jsonl");

fn hex32(s: &str) -> [u8; 32] {
    let mut out = [0u8; 32];
    for (i, b) in out.iter_mut().enumerate() {
        *b = u8::from_str_radix(&s[2 * i..2 * i + 2], 16).expect("hex");
    }
    out
}

fn line(i: usize, address: &str) -> String {
    let p = puzzle(APP_ID, &hex32(address));
    format!(
        "{{\"player\": {i}, \"address\": \"{address}\", \"app_id\": {APP_ID}, \"index\": {}, \"puzzle\": \"{}\", \"solution\": \"{}\"}}",
        p.derived.index,
        p.grid.to_string_zeros(),
        p.solution().to_string_zeros()
    )
}

fn field<'a>(l: &'a str, key: &str) -> &'a str {
    let at = l.find(&format!("\"{key}\": ")).expect("field") + key.len() + 4;
    let rest = &l[at..];
    let end = rest.find([',', '}']).expect("end");
    rest[..end].trim_matches('"')
}

#[test]
fn players_match_the_native_code() {
    if let Ok(addresses) = std::env::var("ALGOKU_WRITE_VECTORS") {
        let text = std::fs::read_to_string(addresses).expect("addresses");
        let out: Vec<String> = text
            .lines()
            .enumerate()
            .map(|(i, a)| line(i, a.trim()))
            .collect();
        std::fs::write(PATH, out.join("\n") + "\n").expect("write");
    }
    let text = std::fs::read_to_string(PATH).expect("players.jsonl");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 256);
    let mut indices = std::collections::BTreeSet::new();
    let tree = Tree::catalogue();
    let root = tree.root();
    for (i, l) in lines.iter().enumerate() {
        assert_eq!(*l, line(i, field(l, "address")));
        let p = puzzle(APP_ID, &hex32(field(l, "address")));
        assert_eq!(p.grid.clue_count(), 17);
        assert!(p.derived.index < COUNT);
        indices.insert(p.derived.index);
        // the solution is the image of the catalogue puzzle's solution
        let catalogue = algoku_sudoku::solve(&p.givens.grid()).expect("solvable");
        let mut cells = [0u8; 81];
        for (c, v) in cells.iter_mut().enumerate() {
            *v = catalogue.get(c).expect("cell");
        }
        assert_eq!(
            p.derived.map(&cells).to_vec(),
            p.solution()
                .to_string_zeros()
                .bytes()
                .map(|b| b - b'0')
                .collect::<Vec<_>>()
        );
        assert_eq!(algoku_sudoku::count_solutions(&p.grid, 2), 1);
        // the native verdict (the contract's, tests/test_game.py): the solution passes,
        // the next player's fails, the next player's leaf and proof miss the root
        let address = hex32(field(l, "address"));
        let other = puzzle(APP_ID, &hex32(field(lines[(i + 1) % 256], "address")));
        // The verdict on `of`'s leaf and proof with `solved`'s solution.
        let check = |of: &Puzzle, solved: &Puzzle| {
            let (leaf, proof) = (of.leaf(), of.proof(&tree));
            verdict(
                &root,
                APP_ID,
                &address,
                &leaf,
                &proof,
                &lanes(&solved.solution()),
            )
        };
        assert_eq!(check(&p, &p), Ok(true));
        assert_eq!(check(&p, &other), Ok(false));
        assert!(check(&other, &p).is_err());
    }
    assert!(indices.len() > 250, "the indices spread over the catalogue");
}
