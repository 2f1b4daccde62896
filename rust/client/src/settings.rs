//! Network settings, with AlgoKit's environment variable names and LocalNet defaults.

use crate::error::ClientError;
use std::fmt;

/// LocalNet's algod and KMD host.
pub const LOCALNET_SERVER: &str = "http://localhost";
/// LocalNet's algod port.
pub const LOCALNET_ALGOD_PORT: &str = "4001";
/// LocalNet's KMD port.
pub const LOCALNET_KMD_PORT: &str = "4002";
/// LocalNet's algod and KMD API token.
pub const LOCALNET_TOKEN: &str = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
/// The public TestNet algod used for `--network testnet` (Nodely).
pub const TESTNET_ALGOD: &str = "https://testnet-api.algonode.cloud";

/// Which chain to talk to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Network {
    /// A configured algod (ALGOD_SERVER/ALGOD_PORT), else LocalNet if it answers, else embedded.
    Auto,
    /// AlgoKit's LocalNet (algod on port 4001, KMD on 4002).
    Localnet,
    /// TestNet, through ALGOD_SERVER if set, else a public algod; signs with DEPLOYER_MNEMONIC.
    Testnet,
    /// go-algorand's evaluator behind a local node started for the process
    /// (no node to run; a ledger discarded at exit).
    Embedded,
}

impl std::str::FromStr for Network {
    type Err = ClientError;
    fn from_str(s: &str) -> Result<Self, ClientError> {
        match s {
            "auto" => Ok(Network::Auto),
            "localnet" => Ok(Network::Localnet),
            "testnet" => Ok(Network::Testnet),
            "embedded" => Ok(Network::Embedded),
            other => Err(ClientError::Config(format!(
                "unknown network `{other}` (expected auto, localnet, testnet or embedded)"
            ))),
        }
    }
}

/// A secret that never prints.
#[derive(Clone)]
pub struct Secret(String);

impl Secret {
    /// Wraps a secret.
    pub fn new(s: String) -> Secret {
        Secret(s)
    }
    /// The secret itself, for the one place that needs it.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(***)")
    }
}

/// ALGOD_SERVER, ALGOD_PORT, ALGOD_TOKEN, KMD_PORT, KMD_TOKEN, DEPLOYER_MNEMONIC;
/// and, for tests of the embedded evaluator, ALGOKU_EMBEDDED_FUNDING and
/// ALGOKU_EMBEDDED_TOP_UP.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    /// `ALGOD_SERVER`.
    pub algod_server: Option<String>,
    /// `ALGOD_PORT`.
    pub algod_port: Option<String>,
    /// `ALGOD_TOKEN`.
    pub algod_token: Option<String>,
    /// `KMD_PORT`.
    pub kmd_port: Option<String>,
    /// `KMD_TOKEN`.
    pub kmd_token: Option<String>,
    /// `DEPLOYER_MNEMONIC`: the 25-word mnemonic of the account that signs (TestNet).
    pub deployer_mnemonic: Option<Secret>,
    /// ALGOKU_EMBEDDED_FUNDING: µALGO the signing account starts with on the
    /// embedded ledger, and each top-up's size (for tests: a small amount
    /// makes a batch top up, or run dry, within a few groups).
    pub embedded_funding: Option<String>,
    /// ALGOKU_EMBEDDED_TOP_UP=off: never top the embedded account up, so a
    /// batch runs out of funds as on a real network (for tests).
    pub embedded_top_up: Option<String>,
    /// Keep stderr free of retry notes (a command's `--quiet`; not read
    /// from the environment).
    pub quiet: bool,
}

/// What the embedded dispenser gives an account at the start and at each
/// top-up: 10 ALGO (the evaluator's ledger totals overflow on large balances).
pub const EMBEDDED_FUNDING: u64 = 10_000_000;
/// The least ALGOKU_EMBEDDED_FUNDING: an account's minimum balance (µALGO).
pub const MIN_FUNDING: u64 = 100_000;

fn env(name: &str) -> Option<String> {
    std::env::var(name)
        .ok()
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty())
}

/// `server` with `port`: a port already in `server` (`http://127.0.0.1:18003`) is
/// replaced, never followed by a second one (`…:18003:4002`).
fn join(server: &str, port: Option<&str>) -> String {
    let server = server.trim_end_matches('/');
    let Some(p) = port else {
        return server.to_string();
    };
    let (scheme, rest) = match server.split_once("://") {
        Some((scheme, rest)) => (format!("{scheme}://"), rest),
        None => (String::new(), server),
    };
    let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    // The host ends where its port begins: after `]` for an IPv6 literal.
    let host_end = authority.rfind(']').map_or(0, |i| i + 1);
    let host = match authority[host_end..].find(':') {
        Some(colon) => &authority[..host_end + colon],
        None => authority,
    };
    format!("{scheme}{host}:{p}{path}")
}

impl Settings {
    /// Reads the variables (empty values count as unset).
    pub fn from_env() -> Settings {
        Settings {
            algod_server: env("ALGOD_SERVER"),
            algod_port: env("ALGOD_PORT"),
            algod_token: env("ALGOD_TOKEN"),
            kmd_port: env("KMD_PORT"),
            kmd_token: env("KMD_TOKEN"),
            deployer_mnemonic: env("DEPLOYER_MNEMONIC").map(Secret::new),
            embedded_funding: env("ALGOKU_EMBEDDED_FUNDING"),
            embedded_top_up: env("ALGOKU_EMBEDDED_TOP_UP"),
            quiet: false,
        }
    }

    /// The embedded account's funding and top-up step in µALGO
    /// (ALGOKU_EMBEDDED_FUNDING, default [`EMBEDDED_FUNDING`]): from an
    /// account's minimum balance (a smaller payment to a new account is
    /// refused) to 10 ALGO.
    pub fn embedded_funding(&self) -> Result<u64, ClientError> {
        match &self.embedded_funding {
            None => Ok(EMBEDDED_FUNDING),
            Some(v) => match v.replace('_', "").parse::<u64>() {
                Ok(n) if (MIN_FUNDING..=EMBEDDED_FUNDING).contains(&n) => Ok(n),
                _ => Err(ClientError::Config(format!(
                    "ALGOKU_EMBEDDED_FUNDING={v} is not an amount of µALGO from {MIN_FUNDING} to {EMBEDDED_FUNDING}"
                ))),
            },
        }
    }

    /// Whether the embedded account is topped up as a batch needs
    /// (ALGOKU_EMBEDDED_TOP_UP: `on`, the default, or `off`).
    pub fn embedded_top_ups(&self) -> Result<bool, ClientError> {
        match self.embedded_top_up.as_deref() {
            None | Some("on") => Ok(true),
            Some("off") => Ok(false),
            Some(v) => Err(ClientError::Config(format!(
                "ALGOKU_EMBEDDED_TOP_UP={v} is neither `on` nor `off`"
            ))),
        }
    }

    /// Checks the variables that name an algod or KMD: a port must be a
    /// number 1..=65535 and a server an `http://` or `https://` URL. A
    /// malformed setting is an error, never a reason to use another chain.
    pub fn validate(&self) -> Result<(), ClientError> {
        for (name, port) in [
            ("ALGOD_PORT", &self.algod_port),
            ("KMD_PORT", &self.kmd_port),
        ] {
            if let Some(p) = port {
                if !matches!(p.parse::<u16>(), Ok(n) if n > 0) {
                    return Err(ClientError::Config(format!(
                        "{name}={p} is not a port number (1..=65535)"
                    )));
                }
            }
        }
        if let Some(server) = &self.algod_server {
            let rest = server
                .strip_prefix("http://")
                .or_else(|| server.strip_prefix("https://"));
            if rest.is_none_or(|r| r.is_empty()) {
                return Err(ClientError::Config(format!(
                    "ALGOD_SERVER={server} is not an http:// or https:// URL"
                )));
            }
        }
        Ok(())
    }

    /// Did the user point at an algod?
    pub fn algod_configured(&self) -> bool {
        self.algod_server.is_some() || self.algod_port.is_some()
    }

    /// algod's URL: `ALGOD_SERVER[:ALGOD_PORT]`, LocalNet's (`http://localhost:4001`) by default.
    pub fn algod_url(&self) -> String {
        match &self.algod_server {
            // AlgoKit's rule: a configured server takes ALGOD_PORT only when it is set
            // (https://testnet-api.algonode.cloud alone means port 443).
            Some(server) => join(server, self.algod_port.as_deref()),
            None => join(
                LOCALNET_SERVER,
                Some(self.algod_port.as_deref().unwrap_or(LOCALNET_ALGOD_PORT)),
            ),
        }
    }

    /// algod's token: ALGOD_TOKEN, LocalNet's by default.
    pub fn algod_token(&self) -> String {
        self.algod_token
            .clone()
            .unwrap_or_else(|| LOCALNET_TOKEN.to_string())
    }

    /// KMD's URL: `ALGOD_SERVER` (else LocalNet's host) and `KMD_PORT`, 4002
    /// by default as in AlgoKit (`http://localhost:4002`).
    pub fn kmd_url(&self) -> String {
        let server = self.algod_server.as_deref().unwrap_or(LOCALNET_SERVER);
        join(
            server,
            Some(self.kmd_port.as_deref().unwrap_or(LOCALNET_KMD_PORT)),
        )
    }

    /// KMD's token: KMD_TOKEN, else ALGOD_TOKEN, else LocalNet's.
    pub fn kmd_token(&self) -> String {
        self.kmd_token
            .clone()
            .or_else(|| self.algod_token.clone())
            .unwrap_or_else(|| LOCALNET_TOKEN.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn localnet_defaults() {
        let s = Settings::default();
        assert_eq!(s.algod_url(), "http://localhost:4001");
        assert_eq!(s.kmd_url(), "http://localhost:4002");
        assert_eq!(s.algod_token(), "a".repeat(64));
        assert!(!s.algod_configured());
    }

    #[test]
    fn a_configured_server_takes_a_port_only_when_one_is_set() {
        let testnet = Settings {
            algod_server: Some("https://testnet-api.algonode.cloud".into()),
            ..Default::default()
        };
        assert_eq!(testnet.algod_url(), "https://testnet-api.algonode.cloud");
        let with_port = Settings {
            algod_port: Some("8080".into()),
            ..testnet.clone()
        };
        assert_eq!(
            with_port.algod_url(),
            "https://testnet-api.algonode.cloud:8080"
        );
        let port_only = Settings {
            algod_port: Some("5001".into()),
            ..Default::default()
        };
        assert_eq!(port_only.algod_url(), "http://localhost:5001");
    }

    #[test]
    fn kmd_takes_the_server_and_port_4002_unless_kmd_port_is_set() {
        let server = Settings {
            algod_server: Some("http://127.0.0.1".into()),
            algod_port: Some("4101".into()),
            ..Default::default()
        };
        assert_eq!(server.kmd_url(), "http://127.0.0.1:4002");
        let kmd = Settings {
            kmd_port: Some("4102".into()),
            ..server
        };
        assert_eq!(kmd.kmd_url(), "http://127.0.0.1:4102");
    }

    #[test]
    fn mnemonic_never_prints() {
        let s = Settings {
            deployer_mnemonic: Some(Secret::new("abandon ability".into())),
            ..Default::default()
        };
        assert!(!format!("{s:?}").contains("abandon"));
    }

    #[test]
    fn malformed_settings_are_errors() {
        let bad_port = Settings {
            algod_port: Some("abc".into()),
            ..Default::default()
        };
        assert!(bad_port
            .validate()
            .unwrap_err()
            .to_string()
            .contains("ALGOD_PORT=abc"));
        let bad_kmd = Settings {
            kmd_port: Some("70000".into()),
            ..Default::default()
        };
        assert!(bad_kmd
            .validate()
            .unwrap_err()
            .to_string()
            .contains("KMD_PORT=70000"));
        let bad_server = Settings {
            algod_server: Some("localhost".into()),
            ..Default::default()
        };
        assert!(bad_server
            .validate()
            .unwrap_err()
            .to_string()
            .contains("ALGOD_SERVER"));
        let good = Settings {
            algod_server: Some("https://testnet-api.algonode.cloud".into()),
            algod_port: Some("443".into()),
            ..Default::default()
        };
        assert!(good.validate().is_ok());
        assert!(Settings::default().validate().is_ok());
    }

    #[test]
    fn embedded_funding_is_bounded_and_top_ups_are_on_or_off() {
        let with = |funding: Option<&str>, top_up: Option<&str>| Settings {
            embedded_funding: funding.map(String::from),
            embedded_top_up: top_up.map(String::from),
            ..Default::default()
        };
        assert_eq!(with(None, None).embedded_funding(), Ok(EMBEDDED_FUNDING));
        assert_eq!(with(Some("250_000"), None).embedded_funding(), Ok(250_000));
        for bad in ["0", "-5", "abc", "99999", "10000001"] {
            let e = with(Some(bad), None).embedded_funding().unwrap_err();
            assert!(
                e.to_string()
                    .contains(&format!("ALGOKU_EMBEDDED_FUNDING={bad}")),
                "{e}"
            );
        }
        assert_eq!(with(None, None).embedded_top_ups(), Ok(true));
        assert_eq!(with(None, Some("off")).embedded_top_ups(), Ok(false));
        assert!(with(None, Some("no")).embedded_top_ups().is_err());
    }

    #[test]
    fn networks_parse() {
        assert_eq!("embedded".parse::<Network>().unwrap(), Network::Embedded);
        assert!("mainnet"
            .parse::<Network>()
            .unwrap_err()
            .to_string()
            .contains("expected"));
    }

    #[test]
    fn a_port_in_the_server_is_replaced_not_doubled() {
        assert_eq!(
            join("http://127.0.0.1:18003", Some("4002")),
            "http://127.0.0.1:4002"
        );
        assert_eq!(
            join("http://localhost/", Some("4001")),
            "http://localhost:4001"
        );
        assert_eq!(
            join("https://node.example/api", Some("443")),
            "https://node.example:443/api"
        );
        assert_eq!(join("http://[::1]:9", Some("4002")), "http://[::1]:4002");
        assert_eq!(
            join("http://127.0.0.1:18003", None),
            "http://127.0.0.1:18003"
        );
    }
}
