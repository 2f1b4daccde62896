//! The client against real chains: go-algorand's evaluator (always) and LocalNet
//! (when it answers; otherwise reported as skipped on stderr).

mod common;

use algoku_client::{Strategy, Verdict};
use common::{chains, grid, VALID};

#[tokio::test(flavor = "current_thread")]
async fn deploy_verify_and_reject() {
    for mut algoku in chains().await {
        let kind = algoku.app.chain.backend();
        let first = algoku.deploy().await.unwrap();
        assert!(first.app_id > 0, "{kind}");
        let again = algoku.deploy().await.unwrap();
        assert_eq!(
            again.app_id, first.app_id,
            "{kind}: a second deploy reuses the app"
        );
        assert!(again.reused);

        let v = algoku.verify(&grid(VALID), false).await.unwrap();
        assert_eq!(v.verdict, Verdict::Valid(true), "{kind}");
        assert_eq!(
            v.fee,
            3 * algoku.app.chain.min_fee(),
            "{kind}: the cheapest group costs 3 min fees"
        );
        assert!(!v.txids.is_empty());
        let consumed = v.budget_consumed.expect("budget measured");
        assert!(
            consumed > 1400 && consumed <= 2100,
            "{kind}: consumed {consumed}"
        );

        let mut wrong = grid(VALID);
        wrong[80] = 2;
        let v = algoku.verify(&wrong, false).await.unwrap();
        assert_eq!(v.verdict, Verdict::Valid(false), "{kind}");

        let v = algoku.verify(&[1u8; 80], false).await.unwrap();
        match v.verdict {
            Verdict::Rejected { message, pc, .. } => {
                assert_eq!(message, "Grid must be 81 bytes long.", "{kind}");
                assert!(pc.is_some());
            }
            other => panic!("{kind}: expected a rejection, got {other:?}"),
        }
        assert!(v.txids.is_empty(), "{kind}: a rejected call is never sent");

        let sim = algoku.verify(&grid(VALID), true).await.unwrap();
        assert!(sim.simulated_only && sim.txids.is_empty() && sim.fee == 0);
        assert_eq!(sim.verdict, Verdict::Valid(true));
    }
}

#[tokio::test(flavor = "current_thread")]
async fn the_chosen_group_is_minimal() {
    for mut algoku in chains().await {
        let kind = algoku.app.chain.backend();
        algoku.deploy().await.unwrap();
        let g = grid(VALID);
        let (verdict, best, alt) = algoku.plan(&g).await.unwrap();
        assert_eq!(verdict, Verdict::Valid(true));
        let min_fee = algoku.app.chain.min_fee();
        for s in [best, alt].into_iter().flatten() {
            assert!(
                algoku.try_strategy(&g, s, 0).await.unwrap().succeeded(),
                "{kind}: {s:?}"
            );
            // One min fee lower on the call: the fee error.
            let short = algoku.try_strategy(&g, s, min_fee).await.unwrap();
            let f = short
                .failure
                .unwrap_or_else(|| panic!("{kind}: {s:?} with one min fee less succeeded"));
            assert!(f.message.contains("fee"), "{kind}: {}", f.message);
            // One padding call / inner opup fewer: the budget or fee error.
            let less = s.one_less().expect("both plans need extra budget");
            let f = algoku.try_strategy(&g, less, 0).await.unwrap().failure;
            let f = f.unwrap_or_else(|| panic!("{kind}: {less:?} succeeded"));
            assert!(
                f.message.contains("fee") || f.message.contains("budget"),
                "{kind}: {}",
                f.message
            );
        }
        assert_eq!(best, Some(Strategy::InnerOpups { inner: 2 }), "{kind}");
        assert_eq!(alt, Some(Strategy::Padding { padding: 2 }), "{kind}");
    }
}
