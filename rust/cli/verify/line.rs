//! One output line of `verify --file` / `--puzzle-file`, typed: what the
//! contract answered for an input line, or why it did not. The same value is
//! written as JSON (`--json`) or as text, and counted in the summary's
//! [`Tally`], so the three never disagree.
//!
//! ```text
//! outcome        JSON keys (besides "line")                       text
//! Answered       valid, method, fee, reason (a false), txid       LINE true|false [reason: …]
//! Rejected       error, method, fee, txid                         LINE error: rejected by the contract: …
//! Unconfirmed    error, txid, unconfirmed, fee_unconfirmed        LINE error: sent, not confirmed: …
//! Failed         error                                            LINE error: …
//! NotAttempted   error, not_attempted                             LINE error: not verified: the batch stopped: …
//! ```

use std::collections::HashSet;

use algoku_client::{ClientError, Method};
use serde::{Serialize, Serializer};
use serde_json::{json, Value};

use crate::io::output::escape_line;
use crate::io::report::BatchLine;

/// What one input line came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The contract answered: `valid`, with the mirror's reason for a false.
    Answered {
        method: Method,
        fee: u64,
        valid: bool,
        reason: Option<String>,
        txid: Option<String>,
    },
    /// The call failed in the contract (a wrong length): its fee is paid, no verdict.
    Rejected {
        method: Method,
        fee: u64,
        message: String,
        txid: Option<String>,
    },
    /// The line's group was sent and never seen confirmed. `fee` is the
    /// group's, possibly spent, counted on its first line only (0 on the others).
    Unconfirmed {
        error: String,
        txid: String,
        fee: u64,
    },
    /// The line's own error: not a grid, or a call the node refused.
    Failed(String),
    /// The batch stopped before this line: `cause` says why.
    NotAttempted(String),
}

/// One output line: the input's line number and its outcome.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    pub line: usize,
    pub outcome: Outcome,
}

impl Line {
    /// A line the batch did not get to verify.
    pub fn not_attempted(line: usize, cause: &str) -> Line {
        Line {
            line,
            outcome: Outcome::NotAttempted(cause.to_string()),
        }
    }

    /// A line's error. A group sent but not seen confirmed says so, with its
    /// first txid; `counted` holds the groups whose fee a line already carries.
    pub fn from_error(line: usize, e: &ClientError, counted: &mut HashSet<String>) -> Line {
        let outcome = match e {
            ClientError::Unconfirmed { txids, fee, .. } => {
                let txid = txids.first().cloned().unwrap_or_default();
                let fee = if counted.insert(txid.clone()) {
                    *fee
                } else {
                    0
                };
                Outcome::Unconfirmed {
                    error: e.to_string(),
                    txid,
                    fee,
                }
            }
            e => Outcome::Failed(e.to_string()),
        };
        Line { line, outcome }
    }

    /// The error text a line carries instead of a verdict, if it does.
    fn error(&self) -> Option<String> {
        match &self.outcome {
            Outcome::Answered { .. } => None,
            Outcome::Rejected { message, .. } => {
                Some(format!("rejected by the contract: {message}"))
            }
            Outcome::Unconfirmed { error, .. } | Outcome::Failed(error) => Some(error.clone()),
            Outcome::NotAttempted(cause) => {
                Some(format!("not verified: the batch stopped: {cause}"))
            }
        }
    }

    /// The JSON form (keys sorted, as every JSON line of the CLI).
    pub fn json(&self) -> Value {
        let mut v = json!({"line": self.line});
        if let Some(error) = self.error() {
            v["error"] = json!(error);
        }
        match &self.outcome {
            Outcome::Answered {
                method,
                fee,
                valid,
                reason,
                txid,
            } => {
                v["method"] = json!(method.name());
                v["fee"] = json!(fee);
                v["valid"] = json!(valid);
                if let Some(r) = reason {
                    v["reason"] = json!(r);
                }
                if let Some(t) = txid {
                    v["txid"] = json!(t);
                }
            }
            Outcome::Rejected {
                method, fee, txid, ..
            } => {
                v["method"] = json!(method.name());
                v["fee"] = json!(fee);
                if let Some(t) = txid {
                    v["txid"] = json!(t);
                }
            }
            Outcome::Unconfirmed { txid, fee, .. } => {
                v["txid"] = json!(txid);
                v["unconfirmed"] = json!(true);
                v["fee_unconfirmed"] = json!(fee);
            }
            Outcome::Failed(_) => {}
            Outcome::NotAttempted(_) => v["not_attempted"] = json!(true),
        }
        v
    }
}

impl BatchLine for Line {
    /// The text form: `LINE true|false [reason: …]`, or `LINE error: …`.
    fn text(&self) -> String {
        match (&self.outcome, self.error()) {
            (Outcome::Answered { valid, reason, .. }, _) => match reason {
                Some(r) => format!("{} {valid} reason: {r}", self.line),
                None => format!("{} {valid}", self.line),
            },
            (_, error) => format!(
                "{} error: {}",
                self.line,
                escape_line(&error.unwrap_or_default())
            ),
        }
    }
}

impl Serialize for Line {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.json().serialize(s)
    }
}

/// The counts of the summary.
#[derive(Default)]
pub struct Tally {
    pub lines: u64,
    pub valid: u64,
    pub invalid: u64,
    pub errors: u64,
    pub not_attempted: u64,
    /// Lines whose group was sent but not seen confirmed.
    pub unconfirmed: u64,
    /// µALGO paid.
    pub fee: u64,
    /// µALGO of groups sent but not seen confirmed: possibly spent.
    pub fee_unconfirmed: u64,
    /// µALGO the answered lines cost, or would cost when only simulated.
    pub would_cost: u64,
}

impl Tally {
    /// Counts one output line.
    pub fn add(&mut self, l: &Line) {
        self.lines += 1;
        match &l.outcome {
            Outcome::Answered { fee, valid, .. } => {
                self.fee += fee;
                if *valid {
                    self.valid += 1
                } else {
                    self.invalid += 1
                }
            }
            Outcome::Rejected { fee, .. } => {
                self.fee += fee;
                self.errors += 1;
            }
            Outcome::Unconfirmed { fee, .. } => {
                self.fee_unconfirmed += fee;
                self.unconfirmed += 1;
            }
            Outcome::Failed(_) => self.errors += 1,
            Outcome::NotAttempted(_) => self.not_attempted += 1,
        }
    }

    pub fn json(&self) -> Value {
        json!({
            "lines": self.lines,
            "verified": self.valid + self.invalid,
            "valid": self.valid,
            "invalid": self.invalid,
            "errors": self.errors,
            "not_attempted": self.not_attempted,
            "unconfirmed": self.unconfirmed,
            "fee": self.fee,
            "fee_unconfirmed": self.fee_unconfirmed,
            "would_cost": self.would_cost,
            "fee_per_grid": self.per_grid(),
        })
    }

    /// µALGO a verified line cost (paid, or would cost when only simulated).
    pub fn per_grid(&self) -> Option<f64> {
        let verified = self.valid + self.invalid;
        let fee = self.fee.max(self.would_cost);
        (verified > 0).then(|| (fee as f64 / verified as f64 * 10.0).round() / 10.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answered(line: usize, valid: bool, fee: u64) -> Line {
        Line {
            line,
            outcome: Outcome::Answered {
                method: Method::Batch,
                fee,
                valid,
                reason: None,
                txid: None,
            },
        }
    }

    #[test]
    fn the_tally_adds_up_to_the_lines() {
        let mut t = Tally::default();
        let rejected = Line {
            line: 3,
            outcome: Outcome::Failed(
                "rejected by the contract: Grid must be 81 bytes long.".into(),
            ),
        };
        for l in [
            answered(1, true, 1000),
            answered(2, false, 1000),
            rejected,
            Line::not_attempted(4, "insufficient funds"),
        ] {
            t.add(&l);
        }
        let s = t.json();
        assert_eq!(
            (
                s["lines"].as_u64(),
                s["verified"].as_u64(),
                s["errors"].as_u64()
            ),
            (Some(4), Some(2), Some(1))
        );
        assert_eq!(
            (s["not_attempted"].as_u64(), s["fee"].as_u64()),
            (Some(1), Some(2000))
        );
        assert_eq!(
            Line::not_attempted(4, "gone").text(),
            "4 error: not verified: the batch stopped: gone"
        );
    }

    #[test]
    fn a_group_sent_and_not_confirmed_counts_its_fee_once_as_possibly_spent() {
        let e = ClientError::Unconfirmed {
            txids: vec!["TX1".into(), "TX2".into()],
            fee: 2000,
            detail: "not confirmed after 10 rounds".into(),
        };
        let mut counted = HashSet::new();
        let mut t = Tally::default();
        for line in [5, 6] {
            t.add(&Line::from_error(line, &e, &mut counted));
        }
        let s = t.json();
        assert_eq!(
            (s["unconfirmed"].as_u64(), s["errors"].as_u64()),
            (Some(2), Some(0))
        );
        assert_eq!(
            (s["fee_unconfirmed"].as_u64(), s["fee"].as_u64()),
            (Some(2000), Some(0))
        );
        let l = Line::from_error(7, &e, &mut HashSet::new());
        let v = l.json();
        assert_eq!(
            (v["txid"].as_str(), v["unconfirmed"].as_bool()),
            (Some("TX1"), Some(true))
        );
        assert!(
            l.text()
                .starts_with("7 error: sent, not confirmed: group TX1"),
            "{v}"
        );
    }

    #[test]
    fn each_outcome_writes_the_keys_it_always_wrote() {
        let rejected = Line {
            line: 9,
            outcome: Outcome::Rejected {
                method: Method::Lanes,
                fee: 1000,
                message: "Grid must be 81 bytes long.".into(),
                txid: Some("T".into()),
            },
        };
        assert_eq!(
            serde_json::to_string(&rejected).unwrap(),
            r#"{"error":"rejected by the contract: Grid must be 81 bytes long.","fee":1000,"line":9,"method":"lanes","txid":"T"}"#
        );
        assert_eq!(
            serde_json::to_string(&Line::not_attempted(2, "x")).unwrap(),
            r#"{"error":"not verified: the batch stopped: x","line":2,"not_attempted":true}"#
        );
        assert_eq!(
            serde_json::to_string(&answered(1, true, 1000)).unwrap(),
            r#"{"fee":1000,"line":1,"method":"batch","valid":true}"#
        );
    }
}
