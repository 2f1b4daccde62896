//! The offline engine commands: `check` (the mirror's verdict), `solve`,
//! `generate`, `rate` and `fixtures`.

pub mod check;
pub mod fixtures;
pub mod generate;
pub mod rate;
pub mod solve;
