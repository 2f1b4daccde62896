//! Deploy the Algoku contract on go-algorand's evaluator, embedded (no node
//! needed), and ask it about a valid grid and the same grid with two cells
//! swapped: each verdict with the method that answered, its fee and the
//! transactions sent.
//!
//! ```sh
//! cargo run -p algoku-client --example verify
//! ```
//!
//! The evaluator runs in the project's Python venv (`scripts/test.sh` or
//! `scripts/demo.sh` create it), or the interpreter named by `ALGOKU_PYTHON`.

use std::process::ExitCode;

use algoku_client::{Algoku, Chain, ClientError, Network, Settings, Verdict, Verification};

/// A solved grid, row by row.
const VALID: &str =
    "953168742862734951417952836746893125281645397395271468138529674574386219629417583";

fn digits(text: &str) -> Vec<u8> {
    text.bytes().map(|b| b - b'0').collect()
}

fn verdict(v: &Verification) -> String {
    match &v.verdict {
        Verdict::Valid(true) => "valid".to_string(),
        Verdict::Valid(false) => "invalid".to_string(),
        Verdict::Rejected { message, .. } => format!("rejected ({message})"),
    }
}

async fn run() -> Result<(), ClientError> {
    let chain = Chain::connect(Network::Embedded, &Settings::from_env()).await?;
    println!("backend: {}", chain.backend());
    let mut algoku = Algoku::new(chain)?;
    let deployment = algoku.deploy().await?;
    println!(
        "deployed: app {} (fee {} µALGO)",
        deployment.app_id, deployment.fee
    );

    let valid = digits(VALID);
    // Swap the first two cells: every row still holds 1..=9, two columns do not.
    let mut changed = valid.clone();
    changed.swap(0, 1);
    for (name, grid) in [("valid grid", &valid), ("changed grid", &changed)] {
        // The cheapest of the app's two grid methods, sent (not only simulated).
        let v = algoku.verify_auto(grid, false).await?;
        println!(
            "{name}: {} (method {}, fee {} µALGO, {} transaction(s))",
            verdict(&v),
            v.method.name(),
            v.fee,
            v.txids.len()
        );
    }
    Ok(())
}

#[tokio::main]
async fn main() -> ExitCode {
    match run().await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
