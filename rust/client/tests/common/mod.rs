//! Shared by the client's chain tests: which chains to run on.

use algoku_client::node::LocalNode;
use algoku_client::{Algoku, Chain, Network, Settings};

#[allow(dead_code)]
pub const VALID: &str =
    "953168742862734951417952836746893125281645397395271468138529674574386219629417583";

#[allow(dead_code)]
pub fn grid(digits: &str) -> Vec<u8> {
    digits.bytes().map(|b| b - b'0').collect()
}

/// The embedded evaluator and the local node (algod over HTTP), always;
/// LocalNet (or the configured algod) too when it answers.
pub async fn every_chain() -> Vec<Chain> {
    let settings = Settings::from_env();
    let mut out = vec![Chain::connect(Network::Embedded, &settings)
        .await
        .expect("the embedded evaluator starts")];
    let node = LocalNode::shared().expect("the local node starts");
    out.push(
        Chain::connect(Network::Localnet, &node)
            .await
            .expect("the local node answers as LocalNet does"),
    );
    if let Ok(chain) = Chain::connect(Network::Localnet, &settings).await {
        out.push(chain);
    }
    out
}

/// [`every_chain`], each with the verifier app's client.
#[allow(dead_code)] // not every test file uses it
pub async fn chains() -> Vec<Algoku> {
    every_chain()
        .await
        .into_iter()
        .map(|c| Algoku::new(c).unwrap())
        .collect()
}
