"""The evaluator bridge (scripts/algoku_jig.py) reports what went wrong in one short line."""

from __future__ import annotations

from algosdk import transaction
from conftest import GRID_TYPE, IS_VALID, Deployed


def test_oversized_arguments_say_why_in_one_line(deployed: Deployed) -> None:
    # The evaluator prints a multi-kilobyte Go dump of the transaction before the cause.
    sp = deployed.jig.suggested_params()
    call = transaction.ApplicationNoOpTxn(
        deployed.addr, sp, deployed.app_id, [IS_VALID.get_selector(), GRID_TYPE.encode(bytes(4096))]
    )
    result = deployed.sign_eval([call])
    assert not result.ok
    message = result.error.message
    assert message.startswith("transaction invalid: application args total length too long"), message
    assert len(message) < 200 and "\n" not in message and "_struct" not in message


def test_missing_app_says_so(deployed: Deployed) -> None:
    sp = deployed.jig.suggested_params()
    call = transaction.ApplicationNoOpTxn(deployed.addr, sp, 999_999, [IS_VALID.get_selector(), GRID_TYPE.encode(bytes(81))])
    result = deployed.sign_eval([call])
    assert not result.ok
    assert "999999" in result.error.message and "does not exist" in result.error.message


def test_min_balance_is_the_evaluators(deployed: Deployed) -> None:
    # The bridge's minimum balance is the one the evaluator enforces: one fee
    # above it a call goes through; one µALGO less and it is refused, naming it.
    jig, addr = deployed.jig, deployed.addr
    minimum = jig.min_balance(addr)
    assert minimum >= 200_000  # the account itself and the app it created
    before = jig.balance(addr)
    try:
        jig.fund(addr, minimum + 999)
        refused = deployed.sign_eval([deployed.probe_call(note=b"one short")])
        assert not refused.ok
        assert f"below min {minimum}" in refused.error.message, refused.error.message
        jig.fund(addr, minimum + 1000)
        assert deployed.sign_eval([deployed.probe_call(note=b"exact")]).ok
        assert jig.balance(addr) == minimum
    finally:
        jig.fund(addr, before)
