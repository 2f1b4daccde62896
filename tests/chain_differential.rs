//! Differential: every 9×9 fixture goes through the client on a real chain, and
//! each verdict (or rejection) must equal the mirror's prediction.
//! Chains: go-algorand's evaluator embedded and, through algod's HTTP API, the
//! local node (always) and LocalNet (when it answers).

mod common;

use algoku_avm::Outcome;
use algoku_client::{Algoku, Chain, Network, Settings, Strategy, Verdict};
use algoku_fixtures::{read_jsonl, SudokuFixture};

/// The fixtures as the CLI writes them: `algoku fixtures --out DIR`.
fn fixtures_from_the_cli() -> Vec<SudokuFixture> {
    // One folder per call: the tests of this file run at the same time.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = CALLS.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let dir = std::env::temp_dir().join(format!("algoku-fixtures-{}-{n}", std::process::id()));
    let r = common::run(&["fixtures", "--quiet", "--out", dir.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let file = std::fs::File::open(dir.join("sudoku.jsonl")).expect("sudoku.jsonl written");
    let fixtures = read_jsonl(std::io::BufReader::new(file)).expect("readable fixtures");
    let _ = std::fs::remove_dir_all(&dir);
    fixtures
}

/// The embedded evaluator.
async fn embedded() -> Chain {
    Chain::connect(Network::Embedded, &Settings::from_env())
        .await
        .expect("the embedded evaluator starts")
}

/// The verifier app deployed on `chain`.
async fn deployed(chain: Chain) -> Algoku {
    let mut algoku = Algoku::new(chain).unwrap();
    algoku.deploy().await.unwrap();
    algoku
}

async fn check_all_fixtures(network: Network, settings: &Settings) -> Option<usize> {
    let chain = match Chain::connect(network, settings).await {
        Ok(c) => c,
        Err(e) if network == Network::Localnet && settings.algod_server.is_none() => {
            eprintln!("no LocalNet: {e}");
            return None;
        }
        Err(e) => panic!("{network:?}: {e}"),
    };
    let mut algoku = deployed(chain).await;
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
                    .and_then(|pc| algoku.app.spec.error_message(pc))
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
    let n = check_all_fixtures(Network::Embedded, &Settings::from_env())
        .await
        .unwrap();
    eprintln!("embedded: {n} fixtures agree with the mirror");
}

/// Through algod's HTTP API: on the local node always (as `algoku node`
/// serves it), and on LocalNet too when one answers.
#[tokio::test(flavor = "multi_thread", worker_threads = 1)]
async fn every_fixture_through_algod_on_the_local_node_and_localnet() {
    let node = algoku_client::node::LocalNode::shared().expect("the local node starts");
    let n = check_all_fixtures(Network::Localnet, &node).await.unwrap();
    eprintln!("local node: {n} fixtures agree with the mirror");
    if let Some(n) = check_all_fixtures(Network::Localnet, &Settings::from_env()).await {
        eprintln!("localnet: {n} fixtures agree with the mirror");
    }
}

/// The one-call methods on the evaluator == the mirror (`algoku_avm::lanes`,
/// `algoku_avm::solution_of`), for every fixture and puzzle pairs made from
/// them (givens kept, one given changed, a puzzle byte of 10 or more).
#[tokio::test(flavor = "multi_thread")]
async fn one_call_methods_equal_the_mirror_on_the_evaluator() {
    use algoku_client::{Call, Method};
    let mut algoku = deployed(embedded().await).await;
    let fixtures = fixtures_from_the_cli();
    let mut calls = Vec::new();
    for f in &fixtures {
        let bytes = f.bytes().unwrap();
        calls.push(Call::grid(Method::Lanes, &bytes));
        if bytes.len() == 81 {
            let mut puzzle: Vec<u8> = bytes
                .iter()
                .enumerate()
                .map(|(i, &b)| if i % 4 == 0 { b } else { 0 })
                .collect();
            calls.push(Call::solution_of(&puzzle, &bytes));
            puzzle[8] = puzzle[8].wrapping_add(1);
            calls.push(Call::solution_of(&puzzle, &bytes));
            puzzle[8] = 0;
            puzzle[40] = 10 + (bytes[0] % 6);
            calls.push(Call::solution_of(&puzzle, &bytes));
        }
    }
    let predict = |c: &Call| match c.method {
        Method::SolutionOf => algoku_avm::solution_of(&c.args[0], &c.args[1]),
        _ => algoku_avm::lanes(&c.args[0]),
    };
    let (grouped, single): (Vec<Call>, Vec<Call>) =
        calls.into_iter().partition(|c| predict(c).is_ok());
    assert!(grouped.len() > 600, "{}", grouped.len());
    let answers = algoku.verify_many(&grouped, true).await.unwrap();
    let mut trues = 0;
    for (c, a) in grouped.iter().zip(&answers) {
        let want = predict(c).unwrap();
        trues += usize::from(want);
        assert_eq!(
            a.verdict,
            Verdict::Valid(want),
            "{:?} {:?}",
            c.method,
            c.args
        );
    }
    assert!(trues >= 40, "the corpus holds solved grids: {trues}");
    // Wrong lengths: the contract's assertion message, as the mirror says.
    assert!(!single.is_empty());
    for c in &single {
        let v = algoku.verify_call(c, true).await.unwrap();
        let Verdict::Rejected { message, .. } = v.verdict else {
            panic!("{:?} answered for a wrong length", c.args)
        };
        let want = predict(c).unwrap_err().to_string();
        assert!(
            want.contains(&message),
            "chain {message:?} vs mirror {want:?}"
        );
    }
}

/// `are_valid_solutions` on the evaluator == the mirror
/// (`algoku_avm::batch::are_valid_solutions`), bit for bit, on thousands of
/// adversarial grids in batches of up to 14 (`algoku_fixtures::batch_corpus`),
/// and every length around a multiple of a grid answers or fails as predicted.
#[tokio::test(flavor = "multi_thread")]
async fn batch_method_equals_the_mirror_on_the_evaluator() {
    use algoku_avm::batch::verdicts;
    use algoku_client::{Call, Method};
    let mut algoku = deployed(embedded().await).await;
    let batch = |bytes: &[u8]| Call {
        method: Method::Batch,
        args: vec![bytes.to_vec()],
    };
    let corpus = algoku_fixtures::batch_corpus(2026, 240);
    let calls: Vec<Call> = corpus.iter().map(|b| batch(b)).collect();
    let want: Vec<bool> = corpus.iter().flat_map(|b| verdicts(b).unwrap()).collect();
    assert!(want.len() >= 3_000, "{}", want.len());
    let answers = algoku.verify_many(&calls, true).await.unwrap();
    assert_eq!(answers.len(), want.len());
    for (k, (a, w)) in answers.iter().zip(&want).enumerate() {
        assert_eq!(a.verdict, Verdict::Valid(*w), "grid {k}");
    }
    assert!(want.iter().filter(|&&w| w).count() >= 300);
    // Around 0, 1, 14 and 15 grids (every length is on the mirror's own test).
    let lengths = algoku_fixtures::length_cases(7)
        .into_iter()
        .filter(|b| [0, 1, 14, 15].contains(&((b.len() + 1) / 81)));
    for bytes in lengths {
        let run = algoku.verify_batch(&[batch(&bytes)], true).await;
        assert!(run.stopped.is_none());
        let predicted = algoku_avm::batch::are_valid_solutions(&bytes);
        let n = bytes.len() / 81;
        match predicted {
            Ok(bits) => {
                assert_eq!(run.answers.len(), n, "length {}", bytes.len());
                for (g, a) in run.answers.iter().enumerate() {
                    let a = a.as_ref().unwrap();
                    assert_eq!(a.verdict, Verdict::Valid(bits >> g & 1 == 1));
                }
            }
            Err(rejection) => {
                let a = run.answers[0].as_ref().unwrap();
                let Verdict::Rejected { message, .. } = &a.verdict else {
                    panic!("length {} answered", bytes.len())
                };
                assert_eq!(message, &rejection.to_string(), "length {}", bytes.len());
            }
        }
    }
}
