//! The answers' JSON, written by hand (no serde in the module): string
//! literals, optional strings, number arrays, and the grids both modules read.

use std::fmt::Write;

use algoku_sudoku::Grid;

/// A JSON string literal.
pub(crate) fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for ch in s.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `null` or a JSON string.
pub(crate) fn opt(s: Option<String>) -> String {
    s.map_or_else(|| "null".into(), |s| quote(&s))
}

/// A JSON array of numbers.
#[cfg_attr(not(feature = "play"), allow(dead_code))]
pub(crate) fn numbers<T: std::fmt::Display>(xs: impl IntoIterator<Item = T>) -> String {
    let items: Vec<String> = xs.into_iter().map(|x| x.to_string()).collect();
    format!("[{}]", items.join(","))
}

/// The text form of a grid: 81 characters, `.` for a blank.
#[cfg_attr(not(feature = "play"), allow(dead_code))]
pub(crate) fn text(cells: &[u8]) -> String {
    cells
        .iter()
        .map(|&d| {
            if (1..=9).contains(&d) {
                (b'0' + d) as char
            } else {
                '.'
            }
        })
        .collect()
}

/// An 81-byte grid of 0..9, or `None`.
pub(crate) fn grid(bytes: &[u8]) -> Option<Grid> {
    let cells: [u8; 81] = bytes.try_into().ok()?;
    Grid::from_cells(cells).ok()
}
