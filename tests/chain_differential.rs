//! Differential: every 9×9 fixture goes through the client on a real chain, and
//! each verdict (or rejection) must equal the mirror's prediction.
//! Chains: go-algorand's evaluator (always) and LocalNet when it answers
//! (otherwise reported as skipped on stderr, with the reason).

use algoku_avm::Outcome;
use algoku_client::{Algoku, Chain, Network, Settings, Strategy, Verdict};
use algoku_fixtures::{read_jsonl, SudokuFixture};
use std::process::Command;

/// The fixtures as the CLI writes them: `algoku fixtures --out DIR`.
fn fixtures_from_the_cli() -> Vec<SudokuFixture> {
    let dir = std::env::temp_dir().join(format!("algoku-fixtures-{}", std::process::id()));
    let status = Command::new(env!("CARGO_BIN_EXE_algoku"))
        .args(["fixtures", "--quiet", "--out"])
        .arg(&dir)
        .status()
        .expect("algoku fixtures runs");
    assert!(status.success());
    let file = std::fs::File::open(dir.join("sudoku.jsonl")).expect("sudoku.jsonl written");
    let fixtures = read_jsonl(std::io::BufReader::new(file)).expect("readable fixtures");
    let _ = std::fs::remove_dir_all(&dir);
    fixtures
}

async fn check_all_fixtures(network: Network) -> Option<usize> {
    let chain = match Chain::connect(network, &Settings::from_env()).await {
        Ok(c) => c,
        Err(e) if network == Network::Localnet => {
            eprintln!("SKIPPED differential on LocalNet: {e}");
            return None;
        }
        Err(e) => panic!("{network:?}: {e}"),
    };
    let mut algoku = Algoku::new(chain).unwrap();
    algoku.deploy().await.unwrap();
    let fixtures = fixtures_from_the_cli();
    assert!(fixtures.len() > 150);
    for f in &fixtures {
        let bytes = f.bytes().unwrap();
        let predicted = Outcome::of_project(&bytes);
        // The cheapest group for a valid grid: any grid fits in its budget.
        let outcome = algoku
            .try_strategy(&bytes, Strategy::InnerOpups { inner: 2 }, 0)
            .await
            .unwrap();
        let verdict = match &outcome.failure {
            None => {
                let log = outcome
                    .txns
                    .last()
                    .and_then(|t| t.logs.last())
                    .expect("a return log");
                assert_eq!(&log[..4], &[0x15, 0x1f, 0x7c, 0x75], "{}", f.id);
                Outcome::Valid(log[4] & 0x80 != 0)
            }
            Some(failure) => {
                let message = failure
                    .pc
                    .and_then(|pc| algoku.spec.error_message(pc))
                    .unwrap_or(&failure.message);
                Outcome::Rejected(message.to_string())
            }
        };
        assert_eq!(
            verdict, predicted,
            "{} ({:?}): chain said {verdict}, mirror predicted {predicted}",
            f.id, network
        );
        assert_eq!(verdict.to_expected_string(), f.expected, "{}", f.id);
    }
    // And a full verify (plan, send, confirm) on one valid and one invalid fixture.
    for f in fixtures
        .iter()
        .filter(|f| f.category.as_str() == "valid")
        .take(1)
        .chain(
            fixtures
                .iter()
                .filter(|f| f.category.as_str() == "one_cell_changed")
                .take(1),
        )
    {
        let v = algoku.verify(&f.bytes().unwrap(), false).await.unwrap();
        assert_eq!(Verdict::Valid(f.expected == "true"), v.verdict, "{}", f.id);
        assert!(!v.txids.is_empty());
    }
    Some(fixtures.len())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 1)]
async fn every_fixture_on_the_embedded_evaluator() {
    let n = check_all_fixtures(Network::Embedded).await.unwrap();
    eprintln!("embedded: {n} fixtures agree with the mirror");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 1)]
async fn every_fixture_on_localnet_when_up() {
    if let Some(n) = check_all_fixtures(Network::Localnet).await {
        eprintln!("localnet: {n} fixtures agree with the mirror");
    }
}
