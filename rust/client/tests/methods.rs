//! The verifier methods, the batch path and the app check, against real chains:
//! go-algorand's evaluator (always) and LocalNet (when it answers).

mod common;

use algoku_client::{Call, Method, Verdict};
use algonaut::core::CompiledTeal;
use algonaut::transaction::builder::CreateApplication;
use algonaut::transaction::transaction::StateSchema;
use common::{chains, grid, VALID};

#[tokio::test(flavor = "current_thread")]
async fn the_one_call_method_is_chosen_and_costs_one_min_fee() {
    for mut algoku in chains().await {
        let kind = algoku.app.chain.backend();
        let min_fee = algoku.app.chain.min_fee();
        algoku.deploy().await.unwrap();
        let v = algoku.verify_auto(&grid(VALID), false).await.unwrap();
        assert_eq!(v.verdict, Verdict::Valid(true), "{kind}");
        assert_eq!(v.method, Method::Lanes, "{kind}");
        assert_eq!(v.fee, min_fee, "{kind}: one app call, no inner opup");
        assert_eq!(
            v.other_methods,
            vec![(Method::Classic, 3 * min_fee)],
            "{kind}"
        );
        assert!(v.budget_consumed.is_some_and(|b| b <= 600), "{kind}: {v:?}");

        let mut wrong = grid(VALID);
        wrong.swap(0, 1);
        let v = algoku.verify_auto(&wrong, true).await.unwrap();
        assert_eq!(v.verdict, Verdict::Valid(false), "{kind}");
        assert_eq!((v.fee, v.simulated_only), (0, true), "{kind}");

        // Bound to a puzzle: the givens must agree.
        let solution = grid(VALID);
        let mut puzzle = solution.clone();
        for (i, cell) in puzzle.iter_mut().enumerate() {
            if i % 3 != 0 {
                *cell = 0;
            }
        }
        let v = algoku
            .verify_call(&Call::solution_of(&puzzle, &solution), false)
            .await
            .unwrap();
        assert_eq!(v.verdict, Verdict::Valid(true), "{kind}");
        assert_eq!(v.fee, min_fee, "{kind}");
        puzzle[0] = puzzle[0] % 9 + 1;
        let v = algoku
            .verify_call(&Call::solution_of(&puzzle, &solution), true)
            .await
            .unwrap();
        assert_eq!(v.verdict, Verdict::Valid(false), "{kind}");
    }
}

#[tokio::test(flavor = "current_thread")]
async fn batches_answer_each_call_in_order() {
    for mut algoku in chains().await {
        let kind = algoku.app.chain.backend();
        algoku.deploy().await.unwrap();
        let valid = grid(VALID);
        let mut calls = Vec::new();
        for k in 0..20u8 {
            let mut g = valid.clone();
            if k % 3 == 1 {
                g[usize::from(k)] = (g[usize::from(k)] % 9) + 1;
            }
            calls.push(Call::grid(Method::Lanes, &g));
        }
        let answers = algoku.verify_many(&calls, false).await.unwrap();
        assert_eq!(answers.len(), 20, "{kind}");
        for (k, a) in answers.iter().enumerate() {
            assert_eq!(a.verdict, Verdict::Valid(k % 3 != 1), "{kind}: call {k}");
            assert_eq!(a.fee, algoku.app.chain.min_fee(), "{kind}");
        }
        // 16 calls share one group (one confirmed round), the 4 others the next.
        assert_eq!(
            answers[0].confirmed_round, answers[15].confirmed_round,
            "{kind}"
        );
        assert!(answers[16].txid.is_some());
    }
}

/// A decoy app that answers `true` to every call: it logs 151f7c75 80.
const DECOY: [u8; 12] = [
    0x0a, 0x80, 0x05, 0x15, 0x1f, 0x7c, 0x75, 0x80, 0xb0, 0x81, 0x01, 0x43,
];
const APPROVE: [u8; 4] = [0x0a, 0x81, 0x01, 0x43];

#[tokio::test(flavor = "current_thread")]
async fn an_app_id_is_trusted_only_if_it_runs_the_algoku_program() {
    for mut algoku in chains().await {
        let kind = algoku.app.chain.backend();
        let real = algoku.deploy().await.unwrap().app_id;
        let create = CreateApplication::new(
            algoku.app.chain.address(),
            CompiledTeal(DECOY.to_vec()),
            CompiledTeal(APPROVE.to_vec()),
            StateSchema::empty(),
            StateSchema::empty(),
        )
        .build(&algoku.app.chain.params)
        .unwrap();
        let (outcome, _) = algoku.app.chain.send(vec![create]).await.unwrap();
        let decoy = outcome.txns[0].created_app.expect("decoy created");

        // Unchecked, the decoy says a garbage grid is a solution.
        algoku.app.use_app(decoy);
        let fooled = algoku
            .verify_call(&Call::grid(Method::Lanes, &[7u8; 81]), true)
            .await;
        assert_eq!(fooled.unwrap().verdict, Verdict::Valid(true), "{kind}");

        let err = algoku
            .app
            .use_checked_app(decoy)
            .await
            .unwrap_err()
            .to_string();
        assert!(
            err.contains(&format!("app {decoy} is not Algoku")),
            "{kind}: {err}"
        );
        let err = algoku
            .app
            .use_checked_app(999_999)
            .await
            .unwrap_err()
            .to_string();
        assert!(err.contains("does not exist"), "{kind}: {err}");

        algoku.app.use_checked_app(real).await.unwrap();
        assert_eq!(algoku.app.id(), Some(real));
    }
}
