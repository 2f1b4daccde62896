//! Property tests of the text parser: it never panics, accepts exactly the
//! valid lines, round-trips, and names the first bad position.

use algoku_sudoku::{Grid, ParseError};
use proptest::prelude::*;

fn valid_char() -> impl Strategy<Value = char> {
    prop::sample::select(vec!['.', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9'])
}

proptest! {
    // Failures print their minimal input; no regression files are written.
    #![proptest_config(ProptestConfig { cases: 512, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn never_panics(s in ".*") {
        let _ = Grid::parse(&s);
        let _ = s.parse::<Grid>();
    }

    #[test]
    fn valid_lines_round_trip(chars in prop::collection::vec(valid_char(), 81)) {
        let s: String = chars.iter().collect();
        let g = Grid::parse(&s).unwrap();
        let dotted = s.replace('0', ".");
        prop_assert_eq!(g.to_string(), dotted.clone());
        prop_assert_eq!(Grid::parse(&g.to_string()).unwrap(), g);
        prop_assert_eq!(Grid::parse(&g.to_string_zeros()).unwrap(), g);
        prop_assert_eq!(Grid::from_cells(*g.cells()).unwrap(), g);
        prop_assert_eq!(g.clue_count(), dotted.chars().filter(|&c| c != '.').count());
        // Surrounding whitespace is ignored.
        let padded = format!(" \t{s}\r\n");
        prop_assert_eq!(Grid::parse(&padded).unwrap(), g);
    }

    #[test]
    fn bad_char_is_named(
        chars in prop::collection::vec(valid_char(), 81),
        pos in 0usize..81,
        bad in any::<char>().prop_filter("not valid", |c| !matches!(c, '.' | '0'..='9') && !c.is_whitespace()),
    ) {
        let mut chars = chars;
        chars[pos] = bad;
        let s: String = chars.iter().collect();
        let err = Grid::parse(&s).unwrap_err();
        prop_assert_eq!(err.clone(), ParseError::BadChar { index: pos, ch: bad });
        let msg = err.to_string();
        let want_pos = format!("position {}", pos + 1);
        let want_rc = format!("(row {}, column {})", pos / 9 + 1, pos % 9 + 1);
        prop_assert!(msg.contains(&want_pos), "{}", msg);
        prop_assert!(msg.contains(&want_rc), "{}", msg);
    }

    #[test]
    fn wrong_length_is_named(chars in prop::collection::vec(valid_char(), 0..200)) {
        prop_assume!(chars.len() != 81);
        let s: String = chars.iter().collect();
        let err = Grid::parse(&s).unwrap_err();
        prop_assert_eq!(err.clone(), ParseError::WrongLength { got: chars.len() });
        let want = format!("got {}", chars.len());
        prop_assert!(err.to_string().contains(&want));
    }

    #[test]
    fn from_cells_checks_values(cells in prop::collection::vec(0u8..=12, 81)) {
        let arr: [u8; 81] = cells.clone().try_into().unwrap();
        match Grid::from_cells(arr) {
            Ok(g) => {
                prop_assert!(cells.iter().all(|&v| v <= 9));
                prop_assert_eq!(&g.cells()[..], &cells[..]);
            }
            Err(ParseError::BadValue { index, value }) => {
                prop_assert_eq!(cells.iter().position(|&v| v > 9), Some(index));
                prop_assert_eq!(cells[index], value);
            }
            Err(e) => prop_assert!(false, "unexpected {:?}", e),
        }
    }

    /// `is_valid_solution_bytes` is the rule itself: compare with a direct
    /// check on arbitrary bytes, and on valid grids with two cells swapped.
    #[test]
    fn solution_rule(bytes in prop::collection::vec(0u8..=10, 75..88), seed in any::<u64>(), i in 0usize..81, j in 0usize..81) {
        prop_assert_eq!(algoku_sudoku::is_valid_solution_bytes(&bytes), naive_rule(&bytes));
        let sol = algoku_sudoku::generator::solution_grid(seed);
        prop_assert!(algoku_sudoku::is_valid_solution_bytes(sol.cells()));
        let mut b = *sol.cells();
        b.swap(i, j);
        let same = sol.cells()[i] == sol.cells()[j];
        prop_assert_eq!(algoku_sudoku::is_valid_solution_bytes(&b), same);
        prop_assert_eq!(naive_rule(&b), same);
    }

    /// `check_solution_of` accepts exactly a solution (the rule) that keeps
    /// every given; a rule break comes first, else the first changed given.
    #[test]
    fn solution_of_a_puzzle(
        seed in any::<u64>(),
        other in any::<u64>(),
        keep in prop::collection::vec(any::<bool>(), 81),
        i in 0usize..81,
        j in 0usize..81,
    ) {
        use algoku_sudoku::Violation;
        let sol = algoku_sudoku::generator::solution_grid(seed);
        // A puzzle: some cells of another solution grid (often the same one).
        let source = if other % 2 == 0 { sol } else { algoku_sudoku::generator::solution_grid(other) };
        let mut cells = *source.cells();
        for (c, &k) in cells.iter_mut().zip(&keep) {
            if !k {
                *c = 0;
            }
        }
        let puzzle = Grid::from_cells(cells).unwrap();
        let mut b = *sol.cells();
        b.swap(i, j);
        let grid = Grid::from_cells(b).unwrap();
        let got = grid.check_solution_of(&puzzle);
        let rule = naive_rule(&b);
        prop_assert_eq!(got.is_ok(), rule && puzzle.is_subset_of(&grid));
        match got {
            Err(Violation::ChangedGiven { cell, given, found }) => {
                prop_assert!(rule);
                let first = (0..81).find(|&c| cells[c] != 0 && cells[c] != b[c]);
                prop_assert_eq!(first, Some(cell));
                prop_assert_eq!((given, found), (cells[cell], b[cell]));
            }
            Err(v) => {
                prop_assert!(!rule);
                prop_assert_eq!(Err(v), grid.check_solution());
            }
            Ok(()) => {}
        }
    }
}

fn naive_rule(b: &[u8]) -> bool {
    if b.len() != 81 || b.iter().any(|&v| !(1..=9).contains(&v)) {
        return false;
    }
    for k in 0..9 {
        let mut row = [false; 10];
        let mut col = [false; 10];
        let mut bx = [false; 10];
        for m in 0..9 {
            row[b[k * 9 + m] as usize] = true;
            col[b[m * 9 + k] as usize] = true;
            bx[b[(k / 3 * 3 + m / 3) * 9 + k % 3 * 3 + m % 3] as usize] = true;
        }
        if row[1..]
            .iter()
            .chain(&col[1..])
            .chain(&bx[1..])
            .any(|&x| !x)
        {
            return false;
        }
    }
    true
}
