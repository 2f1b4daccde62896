//! algod over HTTP (reqwest): params, raw submission, confirmation, accounts,
//! and `POST /v2/transactions/simulate`.
//!
//! Simulate's answer is read here by hand: algonaut's `SimulateResponse::would_succeed()`
//! reads a field algod stopped sending in 2023, so it is always false. What counts is
//! `txn-groups[0].failure-message`, `app-budget-consumed` and `app-budget-added`.
//! Transient failures (connection errors, timeouts, HTTP 429 and 5xx) are retried
//! with a bounded exponential backoff, all tries of one request within
//! [`REQUEST_BUDGET`]; each retry is noted on stderr unless the client is quiet.

use crate::error::{ClientError, Origin};
use crate::outcome::{pc_in, Failure, GroupOutcome, TxnOutcome};
use crate::params::{genesis_hash_from_b64, NetParams};
use base64::Engine;
use serde_json::Value;
use std::time::{Duration, Instant};

const ATTEMPTS: u32 = 4;
/// One try of a submission's time limit.
pub const SEND_TIMEOUT: Duration = Duration::from_secs(60);
/// How errors name a submission (`POST /v2/transactions`).
pub const SEND_WHAT: &str = "POST /v2/transactions";
const FIRST_BACKOFF: Duration = Duration::from_millis(250);
/// One try's time limit.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);
/// All tries of one request, backoff included: an algod that takes
/// connections but never answers fails a command within this.
pub const REQUEST_BUDGET: Duration = Duration::from_secs(25);
/// A try gets at least this much time, or is not made.
const SHORTEST_TRY: Duration = Duration::from_secs(1);

/// A REST client for one algod.
#[derive(Clone)]
pub struct AlgodHttp {
    /// The base URL of algod, e.g. `http://localhost:4001`.
    pub url: String,
    token: String,
    http: reqwest::Client,
    /// Whether retries are noted on stderr.
    notes: bool,
    /// Whether the user named this server (`ALGOD_SERVER`): then an error names it
    /// as given, never "start LocalNet"; or the embedded backend's own node.
    pub origin: Origin,
}

impl std::fmt::Debug for AlgodHttp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AlgodHttp")
            .field("url", &self.url)
            .finish_non_exhaustive()
    }
}

fn b64(s: &str) -> Vec<u8> {
    base64::engine::general_purpose::STANDARD
        .decode(s)
        .unwrap_or_default()
}

impl AlgodHttp {
    /// A client for the algod at `url` with the API token `token` (bounded timeouts).
    pub fn new(url: &str, token: &str) -> Result<AlgodHttp, ClientError> {
        let http = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(3))
            .timeout(REQUEST_TIMEOUT)
            .build()
            .map_err(|e| ClientError::Config(format!("HTTP client: {e}")))?;
        Ok(AlgodHttp {
            url: url.trim_end_matches('/').to_string(),
            token: token.to_string(),
            http,
            notes: true,
            origin: Origin::Default,
        })
    }

    /// The client with retry notes on stderr shown (the default) or not.
    pub fn with_notes(mut self, notes: bool) -> AlgodHttp {
        self.notes = notes;
        self
    }

    /// One request with retries; `what` names it in errors.
    async fn request(
        &self,
        what: &str,
        build: impl Fn(&reqwest::Client) -> reqwest::RequestBuilder,
    ) -> Result<Value, ClientError> {
        self.request_within(what, REQUEST_TIMEOUT, build).await
    }

    /// [`AlgodHttp::request`], each try within `try_limit`.
    async fn request_within(
        &self,
        what: &str,
        try_limit: Duration,
        build: impl Fn(&reqwest::Client) -> reqwest::RequestBuilder,
    ) -> Result<Value, ClientError> {
        let deadline = Instant::now() + REQUEST_BUDGET.max(try_limit);
        let mut backoff = FIRST_BACKOFF;
        let mut last = String::new();
        for attempt in 1..=ATTEMPTS {
            let left = deadline.saturating_duration_since(Instant::now());
            let answer = build(&self.http)
                .header("X-Algo-API-Token", &self.token)
                .timeout(left.min(try_limit))
                .send()
                .await;
            // No other try when none fits in what is left of the budget.
            let final_try =
                attempt == ATTEMPTS || Instant::now() + backoff + SHORTEST_TRY > deadline;
            match answer {
                Ok(resp) => {
                    let status = resp.status();
                    let body = match bounded_body(resp).await {
                        Ok(body) => body,
                        Err(detail) => {
                            return Err(ClientError::Network {
                                what: what.into(),
                                detail,
                            })
                        }
                    };
                    if status.is_success() {
                        if body.trim().is_empty() {
                            return Err(ClientError::Network {
                                what: what.into(),
                                detail: "algod answered an empty body".into(),
                            });
                        }
                        return serde_json::from_str(&body).map_err(|e| ClientError::Network {
                            what: what.into(),
                            detail: format!("algod answered non-JSON ({e})"),
                        });
                    }
                    let transient = status.as_u16() == 429 || status.is_server_error();
                    if !transient || final_try {
                        let message = serde_json::from_str::<Value>(&body)
                            .ok()
                            .and_then(|v| {
                                v.get("message").and_then(|m| m.as_str()).map(String::from)
                            })
                            .unwrap_or(body);
                        return Err(ClientError::Http {
                            what: what.into(),
                            status: status.as_u16(),
                            body: message,
                        });
                    }
                    last = format!("HTTP {status}");
                }
                Err(e) => {
                    if final_try || !(e.is_connect() || e.is_timeout() || e.is_request()) {
                        if e.is_connect() {
                            return Err(ClientError::AlgodDown {
                                url: self.url.clone(),
                                detail: e.to_string(),
                                origin: self.origin,
                            });
                        }
                        return Err(ClientError::Network {
                            what: what.into(),
                            detail: e.to_string(),
                        });
                    }
                    last = e.to_string();
                }
            }
            if self.notes {
                let note = format!(
                    "algod {}: {what} failed ({last}); retry {}/{} in {} ms",
                    self.url,
                    attempt,
                    ATTEMPTS - 1,
                    backoff.as_millis()
                );
                say_once(note);
            }
            tokio::time::sleep(backoff).await;
            backoff *= 2;
        }
        Err(ClientError::Network {
            what: what.into(),
            detail: last,
        })
    }

    /// `GET /health` once, with a short timeout: is anything there?
    pub async fn is_up(&self) -> bool {
        let req = self
            .http
            .get(format!("{}/health", self.url))
            .header("X-Algo-API-Token", &self.token)
            .timeout(Duration::from_millis(800));
        matches!(req.send().await, Ok(r) if r.status().is_success())
    }

    /// The suggested transaction parameters (`GET /v2/transactions/params`).
    pub async fn params(&self) -> Result<NetParams, ClientError> {
        let v = self
            .request("GET /v2/transactions/params", |c| {
                c.get(format!("{}/v2/transactions/params", self.url))
            })
            .await?;
        let gh = v["genesis-hash"].as_str().unwrap_or_default();
        Ok(NetParams {
            last_round: v["last-round"].as_u64().unwrap_or(0),
            min_fee: v["min-fee"].as_u64().unwrap_or(1000),
            genesis_hash: genesis_hash_from_b64(gh, |e| ClientError::Network {
                what: "params".into(),
                detail: e,
            })?,
            genesis_id: v["genesis-id"].as_str().unwrap_or_default().to_string(),
        })
    }

    /// Submit concatenated signed transactions; returns the first txid. A
    /// node in dev mode (LocalNet, the local node) answers once the group is
    /// in a block, after the groups sent with it: so a try gets
    /// [`SEND_TIMEOUT`]. A try that timed out may have been taken: the retry
    /// then hears "already in ledger", which is the group taken.
    pub async fn send_raw(&self, wire: &[u8]) -> Result<String, ClientError> {
        let body = wire.to_vec();
        let v = self
            .request_within(SEND_WHAT, SEND_TIMEOUT, |c| {
                c.post(format!("{}/v2/transactions", self.url))
                    .header("Content-Type", "application/x-binary")
                    .body(body.clone())
            })
            .await?;
        Ok(v["txId"].as_str().unwrap_or_default().to_string())
    }

    /// Wait until `txid` is confirmed (at most `rounds` rounds), return its pending-info JSON.
    pub async fn wait_confirmed(&self, txid: &str, rounds: u64) -> Result<Value, ClientError> {
        // Often confirmed already (a dev-mode node confirms before it answers the POST).
        let info = self.pending(txid).await?;
        if info["confirmed-round"].as_u64().unwrap_or(0) > 0 {
            return Ok(info);
        }
        let status = self
            .request("GET /v2/status", |c| {
                c.get(format!("{}/v2/status", self.url))
            })
            .await?;
        let start = status["last-round"].as_u64().unwrap_or(0);
        let mut round = start;
        loop {
            let info = self.pending(txid).await?;
            if info["confirmed-round"].as_u64().unwrap_or(0) > 0 {
                return Ok(info);
            }
            if let Some(err) = info["pool-error"].as_str().filter(|e| !e.is_empty()) {
                return Err(ClientError::Rejected {
                    message: err.to_string(),
                    pc: pc_in(err),
                });
            }
            if round > start + rounds {
                return Err(ClientError::Network {
                    what: format!("transaction {txid}"),
                    detail: format!("not confirmed after {rounds} rounds"),
                });
            }
            self.request("GET /v2/status/wait-for-block-after", |c| {
                c.get(format!(
                    "{}/v2/status/wait-for-block-after/{round}",
                    self.url
                ))
            })
            .await?;
            round += 1;
        }
    }

    /// `GET /v2/transactions/pending/{txid}`: a transaction's pending or confirmed result.
    pub async fn pending(&self, txid: &str) -> Result<Value, ClientError> {
        self.request("GET /v2/transactions/pending", |c| {
            c.get(format!("{}/v2/transactions/pending/{txid}", self.url))
        })
        .await
    }

    /// `GET /v2/accounts/{address}`.
    pub async fn account(&self, address: &str) -> Result<Value, ClientError> {
        self.request("GET /v2/accounts", |c| {
            c.get(format!("{}/v2/accounts/{address}", self.url))
        })
        .await
    }

    /// The approval program of app `id`, or `None` when no such app exists.
    pub async fn app_approval(&self, id: u64) -> Result<Option<Vec<u8>>, ClientError> {
        match self
            .request("GET /v2/applications", |c| {
                c.get(format!("{}/v2/applications/{id}", self.url))
            })
            .await
        {
            Ok(v) => Ok(Some(b64(v["params"]["approval-program"]
                .as_str()
                .unwrap_or_default()))),
            Err(ClientError::Http { status: 404, .. }) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Simulate one group of signed (or signature-less) transactions.
    pub async fn simulate(
        &self,
        stxns: &[Vec<u8>],
        extra_budget: u64,
    ) -> Result<GroupOutcome, ClientError> {
        let body = simulate_request(stxns, extra_budget);
        let v = self
            .request("POST /v2/transactions/simulate", |c| {
                c.post(format!("{}/v2/transactions/simulate?format=json", self.url))
                    .header("Content-Type", "application/msgpack")
                    .body(body.clone())
            })
            .await?;
        Ok(parse_simulate(&v))
    }
}

/// Says `note` on stderr unless the same note was just said: the groups of a
/// window in flight retry together, and one line says it for all of them.
fn say_once(note: String) {
    static LAST: std::sync::Mutex<Option<(String, Instant)>> = std::sync::Mutex::new(None);
    let Ok(mut last) = LAST.lock() else {
        return eprintln!("{note}");
    };
    let repeated = last
        .as_ref()
        .is_some_and(|(n, at)| *n == note && at.elapsed() < Duration::from_secs(2));
    if !repeated {
        eprintln!("{note}");
        *last = Some((note, Instant::now()));
    }
}

/// The largest answer read from algod: a full group's simulation with its logs is
/// far below it; an endless or absurd body is an error, not a memory hog.
pub const MAX_BODY: usize = 16 << 20;

/// The body of `resp`, read to its end within [`MAX_BODY`] bytes: a body cut short
/// (the connection closed early) or one too large is an error naming it.
async fn bounded_body(mut resp: reqwest::Response) -> Result<String, String> {
    if resp.content_length().is_some_and(|n| n > MAX_BODY as u64) {
        return Err(format!(
            "algod announced a body of {} bytes (at most {MAX_BODY} are read)",
            resp.content_length().unwrap_or(0)
        ));
    }
    let mut body = Vec::new();
    loop {
        match resp.chunk().await {
            Ok(Some(chunk)) => {
                if body.len() + chunk.len() > MAX_BODY {
                    return Err(format!("algod's answer is longer than {MAX_BODY} bytes"));
                }
                body.extend_from_slice(&chunk);
            }
            Ok(None) => break,
            Err(e) => return Err(format!("algod's answer was cut short ({e})")),
        }
    }
    String::from_utf8(body).map_err(|_| "algod answered a body that is not UTF-8 text".into())
}

/// The msgpack body of a simulate request: `{"allow-empty-signatures": true,
/// "extra-opcode-budget": n, "txn-groups": [{"txns": [stxn…]}]}`.
pub fn simulate_request(stxns: &[Vec<u8>], extra_budget: u64) -> Vec<u8> {
    fn key(out: &mut Vec<u8>, k: &str) {
        out.push(0xa0 | k.len() as u8);
        out.extend_from_slice(k.as_bytes());
    }
    let mut out = vec![if extra_budget > 0 { 0x83 } else { 0x82 }];
    key(&mut out, "allow-empty-signatures");
    out.push(0xc3);
    if extra_budget > 0 {
        key(&mut out, "extra-opcode-budget");
        out.push(0xcf);
        out.extend_from_slice(&extra_budget.to_be_bytes());
    }
    key(&mut out, "txn-groups");
    out.push(0x91);
    out.push(0x81);
    key(&mut out, "txns");
    out.push(0xdc);
    out.extend_from_slice(&(stxns.len() as u16).to_be_bytes());
    for s in stxns {
        out.extend_from_slice(s);
    }
    out
}

fn count_app_calls(inner: &Value) -> usize {
    inner
        .as_array()
        .map(|a| {
            a.iter()
                .filter(|t| t["txn"]["txn"]["type"] == "appl")
                .count()
        })
        .unwrap_or(0)
}

/// Read simulate's JSON answer.
pub fn parse_simulate(v: &Value) -> GroupOutcome {
    let group = &v["txn-groups"][0];
    let failure = group["failure-message"]
        .as_str()
        .filter(|m| !m.is_empty())
        .map(|m| Failure {
            message: short_message(m),
            pc: pc_in(m),
            failed_at: group["failed-at"][0].as_u64().map(|i| i as usize),
        });
    let txns = group["txn-results"]
        .as_array()
        .map(|rs| {
            rs.iter()
                .map(|r| TxnOutcome {
                    budget: r["app-budget-consumed"].as_u64(),
                    ..txn_outcome(&r["txn-result"])
                })
                .collect()
        })
        .unwrap_or_default();
    GroupOutcome {
        failure,
        txns,
        budget_consumed: group["app-budget-consumed"].as_u64(),
        budget_added: group["app-budget-added"].as_u64(),
        confirmed_round: None,
    }
}

/// One transaction's pending-info (or simulate txn-result) JSON.
pub fn txn_outcome(r: &Value) -> TxnOutcome {
    TxnOutcome {
        logs: r["logs"]
            .as_array()
            .map(|l| l.iter().filter_map(|x| x.as_str()).map(b64).collect())
            .unwrap_or_default(),
        inner_txns: r["inner-txns"].as_array().map(|a| a.len()).unwrap_or(0),
        inner_app_calls: count_app_calls(&r["inner-txns"]),
        created_app: r["application-index"].as_u64(),
        budget: None,
    }
}

/// algod's messages carry the whole transaction; keep the sentence that matters.
pub fn short_message(m: &str) -> String {
    let m = m.trim();
    let m = match m.find(": logic eval error: ") {
        Some(i) => &m[i + 2..],
        None => m,
    };
    let end = [". Details:", " []transactions", ", data {"]
        .iter()
        .filter_map(|k| m.find(k))
        .min()
        .unwrap_or(m.len());
    m[..end].trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simulate_body_is_msgpack() {
        let body = simulate_request(&[vec![0x80]], 0);
        assert_eq!(body[0], 0x82);
        assert!(body.ends_with(&[0xdc, 0, 1, 0x80]));
        assert_eq!(simulate_request(&[], 700)[0], 0x83);
    }

    #[test]
    fn reads_failure_and_budget() {
        let v: Value = serde_json::json!({"txn-groups": [{
            "failure-message": "transaction ABC: logic eval error: assert failed pc=110. Details: app=1001, pc=110",
            "failed-at": [0], "app-budget-consumed": 40, "app-budget-added": 700,
            "txn-results": [{"app-budget-consumed": 33, "txn-result": {"logs": ["FR98dYA="], "inner-txns": [{"txn": {"txn": {"type": "appl"}}}]}}]
        }]});
        let g = parse_simulate(&v);
        let f = g.failure.unwrap();
        assert_eq!(f.message, "logic eval error: assert failed pc=110");
        assert_eq!(f.pc, Some(110));
        assert_eq!(g.budget_consumed, Some(40));
        assert_eq!(g.txns[0].logs[0], vec![0x15, 0x1f, 0x7c, 0x75, 0x80]);
        assert_eq!(g.txns[0].inner_app_calls, 1);
        assert_eq!(g.txns[0].budget, Some(33));
    }
}
