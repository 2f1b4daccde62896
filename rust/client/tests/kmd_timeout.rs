//! KMD calls have a time limit: a KMD that accepts the connection and never
//! answers gives a clear error instead of hanging `deploy --network localnet`.

use algoku_client::algod::AlgodHttp;
use algoku_client::kmd::{localnet_account, KMD_TIMEOUT};
use algoku_client::ClientError;
use std::time::{Duration, Instant};
use tokio::net::TcpListener;

#[tokio::test]
async fn a_silent_kmd_is_an_error_not_a_hang() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    // Accept and hold every connection, never writing a byte.
    tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((sock, _)) = listener.accept().await {
            held.push(sock);
        }
    });
    let algod = AlgodHttp::new("http://127.0.0.1:9", "a").unwrap();
    let start = Instant::now();
    let outcome = tokio::time::timeout(
        KMD_TIMEOUT + Duration::from_secs(20),
        localnet_account(&url, &"a".repeat(64), &algod),
    )
    .await
    .expect("the KMD call must give up by itself");
    let err = outcome.expect_err("a silent KMD cannot yield an account");
    assert!(matches!(err, ClientError::Kmd(_)), "{err}");
    let text = err.to_string();
    assert!(text.contains("no answer within"), "{text}");
    assert!(text.contains(&url), "{text}");
    assert!(start.elapsed() < KMD_TIMEOUT + Duration::from_secs(5));
}
