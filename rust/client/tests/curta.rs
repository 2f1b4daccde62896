//! The Curta app through the client on go-algorand's evaluator (embedded):
//! every shared vector of generate and verify against the chain (simulated groups
//! of 16), the app-id check, and the solve game (payment + box, record read back,
//! a wrong solution refused natively before anything is sent).

mod common;

use algoku_client::curta::{Curta, BOX_MBR};
use algoku_client::{Backend, Chain, Network, Settings};
use algoku_curta::board::Board;
use algoku_curta::u256::U256;

fn bytes32(hex_str: &str) -> [u8; 32] {
    hex::decode(hex_str).unwrap().try_into().unwrap()
}

fn vectors(name: &str) -> Vec<serde_json::Value> {
    let path = format!("{}/../curta/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

async fn embedded() -> Curta {
    let chain = Chain::connect(Network::Embedded, &Settings::from_env())
        .await
        .expect("the embedded evaluator starts");
    Curta::new(chain).unwrap()
}

/// The embedded evaluator, the local node, and LocalNet when it answers.
async fn chains() -> Vec<Curta> {
    common::every_chain()
        .await
        .into_iter()
        .map(|c| Curta::new(c).unwrap())
        .collect()
}

#[tokio::test(flavor = "current_thread")]
async fn generate_and_verify_vectors_agree_with_the_chain() {
    for curta in chains().await {
        vectors_agree(curta).await;
    }
}

async fn vectors_agree(mut curta: Curta) {
    curta.deploy().await.unwrap();
    // A sample here (the CLI test tests/curta_chain.rs runs every vector).
    let gen: Vec<_> = vectors("generate.jsonl").into_iter().take(24).collect();
    let seeds: Vec<Vec<u8>> = gen
        .iter()
        .map(|v| hex::decode(v["address"].as_str().unwrap().trim_start_matches("0x")).unwrap())
        .collect();
    let got = curta.generate_many(&seeds).await.unwrap();
    assert_eq!(got.len(), gen.len());
    for (v, (seed, board)) in gen.iter().zip(seeds.iter().zip(&got)) {
        let want = bytes32(v["puzzle"].as_str().unwrap());
        assert_eq!(board, &want, "generate({})", hex::encode(seed));
        assert_eq!(
            algoku_curta::generate::generate(seed).0.to_be_bytes(),
            want,
            "native generate"
        );
    }
    let ver: Vec<_> = vectors("verify.jsonl").into_iter().step_by(9).collect();
    let pairs: Vec<([u8; 32], [u8; 32])> = ver
        .iter()
        .map(|v| {
            (
                bytes32(v["start"].as_str().unwrap()),
                bytes32(v["solution"].as_str().unwrap()),
            )
        })
        .collect();
    let got = curta.verify_many(&pairs).await.unwrap();
    let mut trues = 0;
    for ((v, (s, x)), ok) in ver.iter().zip(&pairs).zip(got) {
        assert_eq!(ok, v["valid"].as_bool().unwrap(), "{v}");
        let native = algoku_curta::verify::verify(
            &Board(U256::from_be_bytes(*s)),
            &Board(U256::from_be_bytes(*x)),
        );
        assert_eq!(ok, native, "native verify on {v}");
        trues += ok as usize;
    }
    assert!(
        trues > 0 && trues < ver.len(),
        "both verdicts are exercised"
    );
}

#[tokio::test(flavor = "current_thread")]
async fn another_app_id_is_refused() {
    let mut curta = embedded().await;
    let app = curta.deploy().await.unwrap().app_id;
    curta.app.use_checked_app(app).await.unwrap();
    assert_eq!(curta.app.id(), Some(app));
    let err = curta.app.use_checked_app(u64::MAX - 1).await.unwrap_err();
    assert!(err.to_string().contains("does not exist"), "{err}");
}

#[tokio::test(flavor = "current_thread")]
async fn solve_pays_the_box_and_records_once() {
    let mut curta = embedded().await;
    let deployment = curta.deploy().await.unwrap();
    let app = deployment.app_id;
    assert!(
        app >= 256 && !deployment.reused,
        "fresh app with a global-state-capable id: {app}"
    );
    // Two transactions at the minimum fee: the creation and the funding payment.
    assert_eq!(deployment.fee, 2 * curta.app.chain.min_fee());
    assert!(deployment.txid.is_some());
    let me = curta.app.chain.address().0;
    let start = curta.my_start().await.unwrap();
    assert_eq!(
        algoku_curta::generate::generate(&me).0.to_be_bytes(),
        start,
        "native start = chain start"
    );
    let solution = algoku_curta::solver::solve(&Board(U256::from_be_bytes(start)))
        .expect("keccak starts have a solution")
        .0
        .to_be_bytes();
    assert_eq!(
        curta.record(me).await.unwrap(),
        None,
        "fresh ledger: no record"
    );
    let s = curta.solve(solution).await.unwrap();
    assert!(s.accepted);
    assert_eq!(s.paid, BOX_MBR);
    let r = curta.record(me).await.unwrap().expect("recorded");
    assert_eq!(r.solution, solution);
    assert!(r.round > 0);
}

#[tokio::test(flavor = "current_thread")]
async fn a_second_play_reports_the_record_and_sends_nothing() {
    use algoku_client::curta::PlayStatus;
    for mut curta in chains().await {
        let kind = curta.app.chain.backend();
        curta.deploy().await.unwrap();
        let first = curta.play(None, false).await.unwrap();
        // LocalNet keeps its ledger (and KMD account) between runs: solved before.
        if kind == Backend::Embedded || first.status == PlayStatus::Solved {
            assert_eq!(first.status, PlayStatus::Solved, "{kind}");
            assert_eq!((first.fee, first.paid), (3_000, BOX_MBR), "{kind}");
        } else {
            assert_eq!(first.status, PlayStatus::AlreadySolved, "{kind}");
        }
        let solvers = curta.solvers().await.unwrap();
        assert!(solvers >= 1, "{kind}");
        if kind == Backend::Embedded {
            assert_eq!(solvers, 1);
        }
        let balance = curta.app.chain.balance().await.unwrap();
        let second = curta.play(None, false).await.unwrap();
        assert_eq!(second.status, PlayStatus::AlreadySolved, "{kind}");
        assert_eq!(second.record, first.record, "{kind}");
        assert_eq!((second.fee, second.paid, second.txids.len()), (0, 0, 0));
        assert_eq!(
            curta.app.chain.balance().await.unwrap(),
            balance,
            "{kind}: nothing spent"
        );
        // The app itself: a second solve of the same address answers true and
        // stores nothing new (no payment needed), the record is unchanged.
        let solution = first.record.clone().unwrap().solution;
        let again = curta.solve_with(solution, false).await.unwrap();
        assert!(again.accepted, "{kind}");
        let me = curta.app.chain.address().0;
        assert_eq!(curta.record(me).await.unwrap(), first.record, "{kind}");
        assert_eq!(
            curta.solvers().await.unwrap(),
            solvers,
            "{kind}: counted once"
        );
    }
}

#[tokio::test(flavor = "current_thread")]
async fn per_call_budgets_add_up_to_the_groups() {
    // Simulate's per-transaction figures add up to the group's; a call measured
    // in the group (or again alone, where it skips the payment scan a larger
    // group makes it run) never uses more than its share of the group.
    let mut curta = embedded().await;
    curta.deploy().await.unwrap();
    let seeds: Vec<Vec<u8>> = (0u8..4).map(|i| vec![i; 20]).collect();
    let measured = curta.generate_measured(&seeds, |_| {}).await.unwrap();
    for m in &measured {
        assert!(m.value.is_ok() && m.fee == 1000, "{m:?}");
    }
    let txns = curta.generate_calls(&seeds).unwrap();
    let group = curta.app.chain.simulate(txns).await.unwrap();
    let shares: Vec<u64> = group.txns.iter().map(|t| t.budget.unwrap()).collect();
    assert_eq!(Some(shares.iter().sum::<u64>()), group.budget_consumed);
    for (m, share) in measured.iter().zip(&shares) {
        assert!(m.budget.unwrap() <= *share, "{m:?} vs {share} in the group");
        assert!(
            share - m.budget.unwrap() < 8 * 20,
            "{m:?} vs {share}: more than a scan apart"
        );
    }
}

#[tokio::test(flavor = "current_thread")]
async fn the_creator_withdraws_a_plain_transfer_and_nothing_below_the_minimum_balance() {
    use algonaut::core::{AppId, MicroAlgos};
    use algonaut::transaction::builder::Pay;
    let mut curta = embedded().await;
    let app = curta.deploy().await.unwrap().app_id;
    // A first solve holds its box's minimum balance; then a plain transfer arrives.
    assert_eq!(
        curta.play(None, false).await.unwrap().status,
        algoku_client::curta::PlayStatus::Solved
    );
    let me = curta.app.chain.address();
    let min_fee = curta.app.chain.min_fee();
    let pay = Pay::new(me, AppId(app).address(), MicroAlgos(7_000))
        .fee(MicroAlgos(min_fee))
        .build(&curta.app.chain.params)
        .unwrap();
    curta.app.chain.send(vec![pay]).await.unwrap();
    let w = curta.app.withdraw().await.unwrap();
    assert_eq!((w.amount, w.fee), (7_000, 2 * min_fee), "{w:?}");
    assert!(w.txid.is_some());
    // Nothing above the minimum balance is left: nothing is sent the second time.
    let again = curta.app.withdraw().await.unwrap();
    assert_eq!((again.amount, again.fee, again.txid), (0, 0, None));
    // The record and its box stay.
    assert!(curta.record(me.0).await.unwrap().is_some());
}
