//! Errors of the client, each naming what went wrong and what to do about it.

use std::fmt;

/// Where an algod's address came from: it decides what an error tells the user to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// LocalNet's default address (nothing configured).
    Default,
    /// The user named it (`ALGOD_SERVER`): it is named as given.
    Given,
    /// The local node this process started for `--network embedded`.
    Embedded,
}

/// Everything that can go wrong talking to a chain.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClientError {
    /// No algod answers at the configured address.
    AlgodDown {
        /// The algod URL tried.
        url: String,
        /// What the connection said.
        detail: String,
        /// Where the address came from.
        origin: Origin,
    },
    /// algod answered with an HTTP error.
    Http {
        /// The request that failed.
        what: String,
        /// The HTTP status.
        status: u16,
        /// The response body.
        body: String,
    },
    /// The network failed after the bounded retries.
    Network {
        /// The request that failed.
        what: String,
        /// The last error.
        detail: String,
    },
    /// KMD could not give a funded LocalNet account.
    Kmd(String),
    /// Configuration is missing or malformed (env vars, flags, mnemonic).
    Config(String),
    /// The client refused to send (a check before sending failed); nothing was sent.
    Refused(String),
    /// The account cannot pay for what was asked.
    InsufficientFunds {
        /// The account.
        address: String,
        /// Its balance, in µALGO.
        have: u64,
        /// What the action needs, in µALGO.
        need: u64,
    },
    /// The local node (`algoku node`, the embedded backend) could not be started.
    Node(String),
    /// The chain refused the group (other than a contract rejection).
    Rejected {
        /// The chain's message.
        message: String,
        /// The program counter of the failure, when a program failed.
        pc: Option<u64>,
    },
    /// The app spec or an artifact is malformed.
    Spec(String),
    /// Building, signing or encoding a transaction failed.
    Transaction(String),
    /// No group within the limits makes the call succeed.
    NoViablePlan(String),
    /// A group was sent (the node accepted it) but its confirmation never came:
    /// it may still confirm, so its fees count as possibly spent.
    Unconfirmed {
        /// The ids of the group's transactions.
        txids: Vec<String>,
        /// µALGO of fees the group pays if it confirms.
        fee: u64,
        /// Why the wait ended.
        detail: String,
    },
}

impl fmt::Display for ClientError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClientError::AlgodDown {
                url,
                detail,
                origin: Origin::Embedded,
            } => write!(
                f,
                "the embedded evaluator's local node at {url} stopped answering ({detail}); \
                 nothing more can be sent to it"
            ),
            ClientError::AlgodDown {
                url,
                detail,
                origin: Origin::Default,
            } if is_local(url) => write!(
                f,
                "no algod answers at {url} ({detail}). Start LocalNet with `docker compose up -d` \
                 (or `algokit localnet start`), or use `--network embedded`"
            ),
            ClientError::AlgodDown { url, detail, .. } => write!(
                f,
                "no algod answers at {url} ({detail}). Check ALGOD_SERVER, ALGOD_PORT and \
                 ALGOD_TOKEN, or use `--network embedded`"
            ),
            ClientError::Http { what, status, body } => {
                write!(f, "{what}: algod answered HTTP {status}: {}", body.trim())
            }
            ClientError::Network { what, detail } => write!(f, "{what}: {detail}"),
            ClientError::Kmd(m) => write!(f, "KMD: {m}"),
            ClientError::Config(m) => write!(f, "configuration: {m}"),
            ClientError::Refused(m) => write!(f, "{m}"),
            ClientError::InsufficientFunds {
                address,
                have,
                need,
            } => write!(
                f,
                "insufficient funds: {address} holds {have} µALGO but needs {need} µALGO \
                 (its minimum balance included): {} µALGO missing; fund it and retry",
                need.saturating_sub(*have)
            ),
            ClientError::Node(m) => write!(f, "local node: {m}"),
            ClientError::Rejected { message, pc } => match pc {
                Some(pc) => write!(f, "rejected: {message} (pc {pc})"),
                None => write!(f, "rejected: {message}"),
            },
            ClientError::Spec(m) => write!(f, "app spec: {m}"),
            ClientError::Transaction(m) => write!(f, "transaction: {m}"),
            ClientError::NoViablePlan(m) => write!(f, "no group makes this call succeed: {m}"),
            ClientError::Unconfirmed { txids, fee, detail } => write!(
                f,
                "sent, not confirmed: group {} ({} transaction(s), {fee} µALGO of fees possibly \
                 spent): {detail}; look the transaction up before sending it again",
                txids.first().map_or("?", String::as_str),
                txids.len()
            ),
        }
    }
}

impl ClientError {
    /// Whether this error ends a batch rather than one input's answer: the
    /// account cannot pay, the node or the evaluator is gone or refuses
    /// service, or the setup is wrong, so the next inputs would fail the same
    /// way. A contract's or the AVM's refusal of one input, an argument too
    /// large or an unexpected answer stays that input's error.
    pub fn stops_batch(&self) -> bool {
        match self {
            ClientError::Rejected { message, .. } => is_funds_refusal(message),
            ClientError::Config(_) | ClientError::Transaction(_) | ClientError::NoViablePlan(_) => {
                false
            }
            ClientError::AlgodDown { .. }
            | ClientError::Http { .. }
            | ClientError::Network { .. }
            | ClientError::Kmd(_)
            | ClientError::Refused(_)
            | ClientError::InsufficientFunds { .. }
            | ClientError::Node(_)
            | ClientError::Spec(_)
            | ClientError::Unconfirmed { .. } => true,
        }
    }
}

/// Whether the chain refused a group because the sender cannot pay
/// (go-algorand: "balance N below min M", "overspend").
fn is_funds_refusal(message: &str) -> bool {
    message.contains("below min") || message.contains("overspend")
}

/// Whether `url` points at this machine (where LocalNet runs).
pub(crate) fn is_local(url: &str) -> bool {
    let host = url.split("://").nth(1).unwrap_or(url);
    ["localhost", "127.", "[::1]", "0.0.0.0"]
        .iter()
        .any(|h| host.starts_with(h))
}

impl std::error::Error for ClientError {}

impl From<algonaut::transaction::error::TransactionError> for ClientError {
    fn from(e: algonaut::transaction::error::TransactionError) -> Self {
        ClientError::Transaction(e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn running_out_of_funds_stops_a_batch_and_a_contract_refusal_does_not() {
        let rejected = |m: &str| ClientError::Rejected {
            message: m.into(),
            pc: None,
        };
        assert!(rejected("account X balance 191000 below min 200000 (0 assets)").stops_batch());
        assert!(rejected("overspend (account X, data {..})").stops_batch());
        assert!(!rejected("logic eval error: assert failed").stops_batch());
        let broke = ClientError::InsufficientFunds {
            address: "X".into(),
            have: 150,
            need: 200,
        };
        assert!(broke.stops_batch());
        assert!(broke.to_string().contains("50 µALGO missing"), "{broke}");
        assert!(ClientError::Network {
            what: "send".into(),
            detail: "timed out".into()
        }
        .stops_batch());
        assert!(!ClientError::Config("argument too large".into()).stops_batch());
    }

    #[test]
    fn only_a_local_algod_is_told_to_start_localnet() {
        let down = |url: &str| ClientError::AlgodDown {
            url: url.into(),
            detail: "GET /health failed".into(),
            origin: Origin::Default,
        };
        assert!(down("http://localhost:4001")
            .to_string()
            .contains("LocalNet"));
        assert!(down("http://127.0.0.1:4001")
            .to_string()
            .contains("LocalNet"));
        let other = ClientError::AlgodDown {
            url: "http://127.0.0.1:18003".into(),
            detail: "GET /health failed".into(),
            origin: Origin::Given,
        }
        .to_string();
        assert!(
            !other.contains("LocalNet"),
            "a server given is named as given: {other}"
        );
        assert!(other.contains("http://127.0.0.1:18003"), "{other}");
        let remote = down("https://testnet-api.algonode.cloud").to_string();
        assert!(!remote.contains("LocalNet"), "{remote}");
        assert!(remote.contains("ALGOD_SERVER"), "{remote}");
        let embedded = ClientError::AlgodDown {
            url: "http://127.0.0.1:40001".into(),
            detail: "connection refused".into(),
            origin: Origin::Embedded,
        }
        .to_string();
        assert!(
            embedded.starts_with("the embedded evaluator's local node"),
            "{embedded}"
        );
        assert!(!embedded.contains("--network embedded"), "{embedded}");
    }
}
