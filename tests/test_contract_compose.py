"""Verifications compose: several in one group, after budget-hungry calls, before other app calls.

The rule the contract keeps (see "Budget" in its docstring): a call never consumes
the 700 opcodes that later app calls of its group bring, and it funds itself (inner
opups from the group's fee credit) when the pool is short. Everything here runs on
go-algorand's evaluator; each call pays its documented fee.
"""

from __future__ import annotations

import pytest
from algosdk import transaction
from conftest import IS_SOLUTION_OF, IS_VALID, IS_VALID_LANES, MIN_FEE, Deployed, grid_bytes, verdict
from conftest import VALID as GRIDS

VALID = grid_bytes(GRIDS[0])
INVALID = bytes([VALID[1], VALID[0], *VALID[2:]])
PUZZLE = bytes(x if i % 3 == 0 else 0 for i, x in enumerate(VALID))
# Documented fee of one verification, in µALGO.
FEES = {"classic": 3 * MIN_FEE, "lanes": MIN_FEE, "solution_of": MIN_FEE}
# The lowest `left` of the burning probe (the pool holds about `left` - 4 when the
# verification starts) at which a verification still answers: below it, the ABI
# routing and argument decoding run out before the first inner opup adds budget.
# Measured by test_min_start_is_measured.
MIN_START = {"classic": 92, "lanes": 62, "solution_of": 72}


def call(deployed: Deployed, method: str, valid: bool, fee: int | None = None, note: bytes = b""):
    fee = FEES[method] if fee is None else fee
    solution = VALID if valid else INVALID
    if method == "classic":
        return deployed.app_call(IS_VALID, solution, fee=fee, note=note)
    if method == "lanes":
        return deployed.app_call(IS_VALID_LANES, solution, fee=fee, note=note)
    return deployed.app_call(IS_SOLUTION_OF, PUZZLE, solution, fee=fee, note=note)


def plan(kind: str, k: int) -> list[tuple[str, bool]]:
    methods = ["classic", "lanes", "solution_of"] if kind == "mixed" else [kind]
    return [(methods[i % len(methods)], i % 3 != 1) for i in range(k)]


@pytest.mark.parametrize("kind", ["classic", "lanes", "solution_of", "mixed"])
def test_k_verifications_in_one_group(deployed: Deployed, kind: str) -> None:
    for k in range(1, 17):
        calls = plan(kind, k)
        txns = [call(deployed, m, v, note=b"%d" % i) for i, (m, v) in enumerate(calls)]
        result = deployed.run(txns)
        assert result.ok, f"k={k}: {result.error}"
        assert [verdict(result, i) for i in range(k)] == [v for _, v in calls], f"k={k}"
        for i, (m, _) in enumerate(calls):
            if m != "classic":  # the one-call methods never make inner transactions in such groups
                assert result.txns[i].inner_txns == 0, f"k={k}, call {i}"


@pytest.mark.parametrize("method", ["classic", "lanes", "solution_of"])
def test_later_app_calls_keep_their_share(deployed: Deployed, method: str) -> None:
    """[verification, payment, probe]: the probe still finds its own 700 in the pool."""
    pay = transaction.PaymentTxn(deployed.addr, deployed.jig.suggested_params(), deployed.addr, 0)
    result = deployed.run([call(deployed, method, True), pay, deployed.probe()])
    assert verdict(result, 0) is True
    remaining = int.from_bytes(result.txns[-1].logs[-1], "big")
    assert remaining >= 699, remaining  # the probe's first opcode (`global OpcodeBudget`) costs 1


def burn_then(deployed: Deployed, method: str, left: int, fee: int):
    """[probe burning the pool down to `left`, verification paying `fee`]."""
    return deployed.run([deployed.probe(burn_to=left), call(deployed, method, True, fee=fee)])


@pytest.mark.parametrize(
    ("method", "left", "fee"),
    [
        # the pool is short: one inner opup for the one-call methods, three for classic
        ("lanes", 62, 2 * MIN_FEE),
        ("lanes", 300, 2 * MIN_FEE),
        ("solution_of", 72, 2 * MIN_FEE),
        ("solution_of", 600, 2 * MIN_FEE),
        ("classic", 92, 4 * MIN_FEE),
        ("classic", 200, 4 * MIN_FEE),
        # enough left: the documented fee
        ("lanes", 650, MIN_FEE),
        ("classic", 650, 3 * MIN_FEE),
    ],
)
def test_after_a_budget_hungry_call(deployed: Deployed, method: str, left: int, fee: int) -> None:
    ok = burn_then(deployed, method, left, fee)
    assert verdict(ok, 1) is True
    # one microalgo less cannot pay for the inner opups (or the call itself)
    low = burn_then(deployed, method, left, fee - 1)
    assert not low.ok
    assert "fee" in low.error.message or "budget" in low.error.message, low.error.message


@pytest.mark.parametrize("method", ["classic", "lanes", "solution_of"])
def test_min_start_is_measured(deployed: Deployed, method: str) -> None:
    """MIN_START opcodes left are enough (at a fee that pays 3 opups); one fewer fails at any fee."""
    assert verdict(burn_then(deployed, method, MIN_START[method], 5 * MIN_FEE), 1) is True
    short = burn_then(deployed, method, MIN_START[method] - 1, 5 * MIN_FEE)
    assert not short.ok and "budget" in short.error.message, short.error


def test_classic_groups_pay_exactly_their_inner_opups(deployed: Deployed, record_property) -> None:
    """k classic calls share leftovers: the group needs k x 1 000 + 1 000 per inner opup it
    makes (fewer than 2k for k >= 2), and one µALGO less fails. Measured for k = 1..16."""
    opups = {}
    for k in range(1, 17):
        calls = plan("classic", k)
        result = deployed.run([call(deployed, m, v, note=b"%d" % i) for i, (m, v) in enumerate(calls)])
        assert result.ok, result.error
        opups[k] = sum(t.inner_txns for t in result.txns)
        assert opups[k] <= 2 * k
        total = MIN_FEE * (k + opups[k])

        def group_paying(fee_total: int):
            # every call pays the minimum, the first pays the rest
            fees = [fee_total - MIN_FEE * (k - 1)] + [MIN_FEE] * (k - 1)
            return deployed.run([call(deployed, m, v, fee=f, note=b"%d" % i) for i, ((m, v), f) in enumerate(zip(calls, fees))])

        assert [verdict(group_paying(total), i) for i in range(k)] == [v for _, v in calls]
        low = group_paying(total - 1)
        assert not low.ok and "fee too small" in low.error.message, (k, low.error)
    record_property("classic_group_inner_opups", opups)
    print(f"\nclassic, k calls in one group -> inner opups: {opups}")


@pytest.mark.parametrize("left", [62, 100, 300, 620, 640, 700])
def test_lanes_after_lanes_after_a_burn(deployed: Deployed, left: int) -> None:
    """[burn to `left`, lanes, lanes], each lanes call paying one opup: both answer, because a
    lanes call that tops up leaves LANES_HANDOVER for the next one's routing."""
    result = deployed.run(
        [deployed.probe(burn_to=left), call(deployed, "lanes", True, fee=2 * MIN_FEE, note=b"a"), call(deployed, "lanes", False, fee=2 * MIN_FEE, note=b"b")]
    )
    assert verdict(result, 1) is True
    assert verdict(result, 2) is False
