//! LocalNet's funded account, from KMD's `unencrypted-default-wallet` (empty password),
//! the way AlgoKit finds it: the wallet's richest account.

use crate::algod::AlgodHttp;
use crate::error::ClientError;
use algonaut::core::Address;
use algonaut::kmd::v1::Kmd;
use algonaut::transaction::account::Account;
use std::str::FromStr;

const WALLET: &str = "unencrypted-default-wallet";

pub async fn localnet_account(
    kmd_url: &str,
    kmd_token: &str,
    algod: &AlgodHttp,
) -> Result<Account, ClientError> {
    let kmd =
        Kmd::new(kmd_url, kmd_token).map_err(|e| ClientError::Kmd(format!("{kmd_url}: {e}")))?;
    let wallets = kmd.list_wallets().await.map_err(|e| {
        ClientError::Kmd(format!(
            "cannot list wallets at {kmd_url} ({e}); is LocalNet's KMD up (port 4002)?"
        ))
    })?;
    let wallet = wallets
        .wallets
        .iter()
        .find(|w| w.name == WALLET)
        .ok_or_else(|| {
            ClientError::Kmd(format!(
                "no `{WALLET}` wallet; set DEPLOYER_MNEMONIC instead"
            ))
        })?;
    let handle = kmd
        .init_wallet_handle(&wallet.id, "")
        .await
        .map_err(|e| ClientError::Kmd(format!("cannot open `{WALLET}`: {e}")))?
        .wallet_handle_token;
    let keys = kmd
        .list_keys(&handle)
        .await
        .map_err(|e| ClientError::Kmd(format!("cannot list keys: {e}")))?;
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
    let key = kmd
        .export_key(&handle, "", &addr)
        .await
        .map_err(|e| ClientError::Kmd(format!("cannot export the key of {address}: {e}")))?;
    let _ = kmd.release_wallet_handle(&handle).await;
    let mut seed = [0u8; 32];
    seed.copy_from_slice(&key.private_key[..32]);
    Ok(Account::from_seed(seed))
}
