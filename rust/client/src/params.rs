//! What a chain tells about itself and an account: suggested transaction
//! parameters and an account's funds, as algod tells them.

use crate::error::ClientError;
use algonaut::crypto::HashDigest;
use algonaut::model::client_types::TransactionParams;

/// What an account holds and what it must keep.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Funds {
    /// µALGO held.
    pub balance: u64,
    /// µALGO that must stay: the account's minimum balance.
    pub min_balance: u64,
}

/// What a transaction needs from the network it is sent to.
#[derive(Clone, Debug)]
pub struct NetParams {
    /// The last round algod knows; transactions are valid from it for 1000 rounds.
    pub last_round: u64,
    /// The minimum fee per transaction, in µALGO.
    pub min_fee: u64,
    /// The network's genesis hash.
    pub genesis_hash: HashDigest,
    /// The network's genesis id, e.g. `testnet-v1.0`.
    pub genesis_id: String,
}

impl TransactionParams for NetParams {
    fn last_round(&self) -> u64 {
        self.last_round
    }
    fn min_fee(&self) -> u64 {
        self.min_fee
    }
    fn genesis_hash(&self) -> HashDigest {
        self.genesis_hash
    }
    fn genesis_id(&self) -> &String {
        &self.genesis_id
    }
}

/// Decode algod's base64 genesis hash; `error` makes the error of what is
/// wrong with it (the chain that sent it names it).
pub fn genesis_hash_from_b64(
    b64: &str,
    error: impl Fn(String) -> ClientError,
) -> Result<HashDigest, ClientError> {
    use base64::Engine;
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(b64)
        .map_err(|e| error(format!("genesis hash is not base64: {e}")))?;
    let arr: [u8; 32] = bytes
        .try_into()
        .map_err(|v: Vec<u8>| error(format!("genesis hash has {} bytes, expected 32", v.len())))?;
    Ok(HashDigest(arr))
}
