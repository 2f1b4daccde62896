//! The algod HTTP layer against a real HTTP server on loopback that misbehaves
//! on purpose: transient errors are retried with backoff, permanent ones are not.

use algoku_client::algod::AlgodHttp;
use algoku_client::ClientError;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

const PARAMS: &str = r#"{"consensus-version":"future","fee":0,"genesis-hash":"mwEI4/JRLTYf2QF6nAeKYOONUsVE6TxX69g5qbnfd0A=","genesis-id":"dockernet-v1","last-round":42,"min-fee":1000}"#;

/// Serve `answers[i]` (status, body) to the i-th request; the last repeats.
async fn server(answers: Vec<(u16, &'static str)>) -> (String, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let count = Arc::new(AtomicUsize::new(0));
    let seen = count.clone();
    tokio::spawn(async move {
        loop {
            let Ok((mut sock, _)) = listener.accept().await else {
                return;
            };
            let n = seen.fetch_add(1, Ordering::SeqCst);
            let (status, body) = answers[n.min(answers.len() - 1)];
            let mut buf = [0u8; 4096];
            let _ = sock.read(&mut buf).await;
            let reply = format!(
                "HTTP/1.1 {status} X\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                body.len()
            );
            let _ = sock.write_all(reply.as_bytes()).await;
        }
    });
    (url, count)
}

#[tokio::test]
async fn transient_errors_are_retried() {
    let (url, count) = server(vec![(503, "{}"), (503, "{}"), (200, PARAMS)]).await;
    let algod = AlgodHttp::new(&url, "a").unwrap();
    let params = algod.params().await.unwrap();
    assert_eq!(params.last_round, 42);
    assert_eq!(params.genesis_id, "dockernet-v1");
    assert_eq!(count.load(Ordering::SeqCst), 3);
}

#[tokio::test]
async fn retries_are_bounded() {
    let (url, count) = server(vec![(503, r#"{"message":"overloaded"}"#)]).await;
    let err = AlgodHttp::new(&url, "a")
        .unwrap()
        .params()
        .await
        .unwrap_err();
    assert!(
        matches!(err, ClientError::Http { status: 503, .. }),
        "{err}"
    );
    assert!(err.to_string().contains("overloaded"));
    assert_eq!(count.load(Ordering::SeqCst), 4);
}

#[tokio::test]
async fn client_errors_are_not_retried() {
    let (url, count) = server(vec![(400, r#"{"message":"bad request"}"#)]).await;
    let err = AlgodHttp::new(&url, "a")
        .unwrap()
        .params()
        .await
        .unwrap_err();
    assert!(err.to_string().contains("HTTP 400"), "{err}");
    assert_eq!(count.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn nothing_listening_names_localnet() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    drop(listener);
    let err = AlgodHttp::new(&url, "a")
        .unwrap()
        .params()
        .await
        .unwrap_err();
    assert!(err.to_string().contains("docker compose up -d"), "{err}");
}

/// A node that takes a group (`POST /v2/transactions`) and then never confirms it:
/// the pending transaction stays in the pool, each new block passes without it.
async fn silent_node() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let round = Arc::new(AtomicUsize::new(42));
    tokio::spawn(async move {
        loop {
            let Ok((mut sock, _)) = listener.accept().await else {
                return;
            };
            let round = round.clone();
            tokio::spawn(async move {
                let mut buf = vec![0u8; 1 << 16];
                let n = sock.read(&mut buf).await.unwrap_or(0);
                let head = String::from_utf8_lossy(&buf[..n]).to_string();
                let path = head.split_whitespace().nth(1).unwrap_or("").to_string();
                let r = round.load(Ordering::SeqCst);
                let body = if path.starts_with("/v2/transactions/params") {
                    PARAMS.replace("\"last-round\":42", &format!("\"last-round\":{r}"))
                } else if path.starts_with("/v2/transactions/pending/") {
                    r#"{"confirmed-round":0,"pool-error":""}"#.to_string()
                } else if path.starts_with("/v2/transactions") {
                    r#"{"txId":"ACCEPTED"}"#.to_string()
                } else if path.starts_with("/v2/status") {
                    if path.contains("wait-for-block-after") {
                        round.fetch_add(1, Ordering::SeqCst);
                    }
                    format!(r#"{{"last-round":{}}}"#, round.load(Ordering::SeqCst))
                } else {
                    "{}".to_string()
                };
                let reply = format!(
                    "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                    body.len()
                );
                let _ = sock.write_all(reply.as_bytes()).await;
            });
        }
    });
    url
}

#[tokio::test]
async fn a_group_sent_and_never_confirmed_says_so_with_its_txids_and_fee() {
    use algoku_client::{Chain, Network, Settings};
    use algonaut::transaction::builder::Pay;
    let url = silent_node().await;
    let (server, port) = url.rsplit_once(':').unwrap();
    let settings = Settings {
        algod_server: Some(server.to_string()),
        algod_port: Some(port.to_string()),
        deployer_mnemonic: Some(algoku_client::settings::Secret::new(
            "air nature sleep rescue dismiss ocean mule dragon quality ten powder piece original \
             cycle guide someone jewel defense flat bounce shield major merry about essence"
                .into(),
        )),
        quiet: true,
        ..Settings::default()
    };
    let mut chain = Chain::connect(Network::Auto, &settings).await.unwrap();
    let me = chain.address();
    let pay = Pay::new(me, me, algonaut::core::MicroAlgos(0))
        .fee(algonaut::core::MicroAlgos(1000))
        .build(&chain.params)
        .unwrap();
    let err = chain.send(vec![pay]).await.unwrap_err();
    match &err {
        ClientError::Unconfirmed { txids, fee, .. } => {
            assert_eq!((txids.len(), *fee), (1, 1000), "{err}");
        }
        other => panic!("expected Unconfirmed, got {other}"),
    }
    assert!(err.stops_batch());
    let text = err.to_string();
    assert!(text.starts_with("sent, not confirmed: group "), "{text}");
    assert!(text.contains("1000 µALGO of fees possibly spent"), "{text}");
}
