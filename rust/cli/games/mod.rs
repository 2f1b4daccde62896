//! The two games: `curta` (the 8×8 "2 × 4 = 8") and `game` (the 9×9 game),
//! natively and on chain.

pub mod curta;
pub mod curta_chain;
pub mod game;

/// What a `play` spent, as both games print it: fees, box payment, and
/// whether nothing was sent because the account's solve is on record.
pub fn spent_line(fee: u64, paid: u64, already_solved: bool) -> String {
    format!(
        "spent    {fee} µALGO fees + {paid} µALGO box payment{}",
        if already_solved {
            " (nothing sent: this account's solve is recorded)"
        } else {
            ""
        }
    )
}
