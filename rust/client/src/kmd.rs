//! LocalNet's funded account, from KMD's `unencrypted-default-wallet` (empty password),
//! the way AlgoKit finds it: the wallet's richest account.

use crate::algod::AlgodHttp;
use crate::error::ClientError;
use algonaut::core::Address;
use algonaut::kmd::v1::Kmd;
use algonaut::transaction::account::Account;
use std::str::FromStr;
use std::time::Duration;

const WALLET: &str = "unencrypted-default-wallet";
/// Each KMD call's time limit: algonaut's KMD client has none of its own, so a
/// KMD that accepts a connection and never answers would hang forever.
pub const KMD_TIMEOUT: Duration = Duration::from_secs(10);

/// Runs one KMD call under [`KMD_TIMEOUT`]; `what` names it in the error.
async fn timed<T>(
    kmd_url: &str,
    what: &str,
    call: impl std::future::Future<Output = Result<T, algonaut::Error>>,
) -> Result<T, ClientError> {
    match tokio::time::timeout(KMD_TIMEOUT, call).await {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(e)) => Err(ClientError::Kmd(format!(
            "{what} at {kmd_url}: {}",
            plain(&e)
        ))),
        Err(_) => Err(ClientError::Kmd(format!(
            "{what} at {kmd_url}: no answer within {} s; is LocalNet's KMD up (port 4002)?",
            KMD_TIMEOUT.as_secs()
        ))),
    }
}

/// An algonaut error as a plain phrase: its `Display` of a failed request
/// is Rust debug text (`Some("http://…"), Client error: …`).
fn plain(e: &algonaut::Error) -> String {
    use algonaut::error::RequestErrorDetails as Details;
    match e {
        algonaut::Error::Request(r) => match &r.details {
            Details::Http { status, message } if message.is_empty() => format!("HTTP {status}"),
            Details::Http { status, message } => format!("HTTP {status}: {message}"),
            Details::Timeout => "no answer (timed out)".into(),
            Details::Client { description } => description.clone(),
        },
        other => other.to_string(),
    }
}

/// A funded account from LocalNet's default KMD wallet (bounded waits; an error names what to start).
pub async fn localnet_account(
    kmd_url: &str,
    kmd_token: &str,
    algod: &AlgodHttp,
) -> Result<Account, ClientError> {
    let kmd = Kmd::new(kmd_url, kmd_token)
        .map_err(|e| ClientError::Kmd(format!("{kmd_url}: {}", plain(&e))))?;
    let wallets = timed(kmd_url, "listing wallets", kmd.list_wallets()).await?;
    let wallet = wallets
        .wallets
        .iter()
        .find(|w| w.name == WALLET)
        .ok_or_else(|| {
            ClientError::Kmd(format!(
                "no `{WALLET}` wallet; set DEPLOYER_MNEMONIC instead"
            ))
        })?;
    let handle = timed(
        kmd_url,
        &format!("opening `{WALLET}`"),
        kmd.init_wallet_handle(&wallet.id, ""),
    )
    .await?
    .wallet_handle_token;
    let keys = timed(kmd_url, "listing keys", kmd.list_keys(&handle)).await?;
    let mut best: Option<(u64, String)> = None;
    for address in keys.addresses {
        let amount = algod.account(&address).await?["amount"]
            .as_u64()
            .unwrap_or(0);
        if best.as_ref().is_none_or(|(a, _)| amount > *a) {
            best = Some((amount, address));
        }
    }
    let (_, address) =
        best.ok_or_else(|| ClientError::Kmd(format!("`{WALLET}` holds no account")))?;
    let addr = Address::from_str(&address)
        .map_err(|e| ClientError::Kmd(format!("bad address {address}: {e}")))?;
    let key = timed(
        kmd_url,
        &format!("exporting the key of {address}"),
        kmd.export_key(&handle, "", &addr),
    )
    .await?;
    let _ = tokio::time::timeout(KMD_TIMEOUT, kmd.release_wallet_handle(&handle)).await;
    let mut seed = [0u8; 32];
    seed.copy_from_slice(&key.private_key[..32]);
    Ok(Account::from_seed(seed))
}
