//! Shared by the client's chain tests: which chains to run on.

use algoku_client::{Algoku, Chain, Network, Settings};

pub const VALID: &str =
    "953168742862734951417952836746893125281645397395271468138529674574386219629417583";

pub fn grid(digits: &str) -> Vec<u8> {
    digits.bytes().map(|b| b - b'0').collect()
}

/// The embedded evaluator, always; LocalNet (or the configured algod) when it answers.
pub async fn chains() -> Vec<Algoku> {
    let settings = Settings::from_env();
    let mut out = Vec::new();
    let chain = Chain::connect(Network::Embedded, &settings)
        .await
        .expect("the embedded evaluator starts");
    out.push(Algoku::new(chain).unwrap());
    match Chain::connect(Network::Localnet, &settings).await {
        Ok(chain) => out.push(Algoku::new(chain).unwrap()),
        Err(e) => eprintln!("SKIPPED on LocalNet: {e}"),
    }
    out
}
