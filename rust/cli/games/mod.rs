//! The two games: `curta` (the 8×8 "2 × 4 = 8") and `game` (the 9×9 game),
//! natively and on chain.

pub mod curta;
pub mod curta_chain;
pub mod game;
