"""The batch verifier `are_valid_solutions` on go-algorand's evaluator.

Every bit of every answer is compared with a plain Python statement of the rule
(`solved`) on a deterministic corpus of adversarial batches; the budget and the
fee per grid are measured with the probe app and the tests fail if they regress.
"""

from __future__ import annotations

import json
import random

import pytest
from conftest import ARTIFACTS, ARE_VALID, MIN_FEE, RETURN_PREFIX, Deployed, arc56_error, probe_remaining
from test_contract_lanes import UNITS, straight_line_cost, swapped, valid_grids

BATCH_MAX = 14
# Opcodes of a whole call (ABI routing included): straight-line code after the
# length checks, so every input costs the same.
BATCH_OPCODES = 691
# One call answers BATCH_MAX grids at the minimum fee.
FEE_PER_GRID_MAX = 100
DIGIT_BYTE = {d: (0x80 >> (d - 1) if d <= 8 else 0) for d in range(1, 10)}
BYTE_DIGIT = {b: d for d, b in DIGIT_BYTE.items()}


def encode(g: bytes) -> bytes:
    """A grid of digits 1..9 (one byte a digit) in the batch encoding."""
    return bytes(DIGIT_BYTE[x] for x in g)


def solved(cells: bytes) -> bool:
    """The rule: 81 bytes, each one digit's byte, every row, column and box holds 1..9."""
    if len(cells) != 81 or any(b not in BYTE_DIGIT for b in cells):
        return False
    digits = [BYTE_DIGIT[b] for b in cells]
    return all({digits[i] for i in u} == set(range(1, 10)) for u in UNITS)


def adversarial_cells() -> list[bytes]:
    """81-byte grids in the batch encoding, mostly one byte away from a solution."""
    rng = random.Random(1405)
    valid = [encode(g) for g in valid_grids()]
    out = list(valid)
    base = valid[0]
    # every byte value at a few cells: zero (a second 9), single bits (another
    # digit), several bits, the top bit with others
    for cell in [0, 8, 40, 72, 80]:
        for value in range(256):
            if value != base[cell]:
                g = bytearray(base)
                g[cell] = value
                out.append(bytes(g))
    # every cell gets an extra bit at every position
    for cell in range(81):
        for bit in range(8):
            g = bytearray(valid[cell % len(valid)])
            g[cell] |= 0x80 >> bit
            out.append(bytes(g))
    # two cells swapped, two cells of a unit set to the same digit
    out += swapped(valid, rng, 60)
    # a multi-bit cell beside a zero cell in the same row: the row still ORs to 0xff
    for _ in range(30):
        g = bytearray(rng.choice(valid))
        r = rng.randrange(9)
        i, j = rng.sample(range(9 * r, 9 * r + 9), 2)
        g[i] |= g[j]
        g[j] = 0
        out.append(bytes(g))
    # constants and noise
    for v in [0, 0x80, 0xFF, 0x01]:
        out.append(bytes([v]) * 81)
    for _ in range(20):
        out.append(bytes(rng.randrange(256) for _ in range(81)))
    for _ in range(20):
        out.append(bytes(rng.choice(list(BYTE_DIGIT)) for _ in range(81)))
    return out


def answers(deployed: Deployed, batches: list[bytes]) -> list[int]:
    """Run the batches 16 calls per atomic group at the minimum fee: the uint64 answers."""
    out: list[int] = []
    for start in range(0, len(batches), 16):
        chunk = batches[start : start + 16]
        txns = [deployed.app_call(ARE_VALID, b, note=b"%d" % k) for k, b in enumerate(chunk)]
        result = deployed.run(txns)
        assert result.ok, result.error
        for t in result.txns:
            assert t.inner_txns == 0
            assert t.logs[-1][:4] == RETURN_PREFIX
            out.append(int.from_bytes(t.logs[-1][4:], "big"))
    return out


def check_batches(deployed: Deployed, batches: list[bytes]) -> None:
    wrong = []
    for batch, answer in zip(batches, answers(deployed, batches)):
        n = len(batch) // 81
        expected = sum(1 << g for g in range(n) if solved(batch[81 * g : 81 * g + 81]))
        if answer != expected:
            wrong.append((batch.hex(), bin(answer), bin(expected)))
    assert not wrong, wrong[:3]


def test_corpus_is_adversarial_enough() -> None:
    cells = adversarial_cells()
    assert len(cells) >= 2000 and sum(map(solved, cells)) >= 20


def test_corpus_matches_rule(deployed: Deployed) -> None:
    cells = adversarial_cells()
    batches = [b"".join(cells[k : k + BATCH_MAX]) for k in range(0, len(cells), BATCH_MAX)]
    check_batches(deployed, batches)


def test_swaps_across_grids_and_every_count(deployed: Deployed) -> None:
    rng = random.Random(99)
    valid = [encode(g) for g in valid_grids()]
    batches = []
    for n in range(0, BATCH_MAX + 1):
        grids = [bytearray(rng.choice(valid)) for _ in range(n)]
        for g in range(n - 1):
            if rng.random() < 0.5:  # the same cell of two neighbouring grids swapped
                c = rng.randrange(81)
                grids[g][c], grids[g + 1][c] = grids[g + 1][c], grids[g][c]
        batches.append(b"".join(bytes(g) for g in grids))
    # the first or last byte of the whole batch broken (chunk and padding borders)
    full = b"".join(valid[k % len(valid)] for k in range(BATCH_MAX))
    batches += [bytes([0xFF]) + full[1:], full[:-1] + bytes([0x03]), bytes(81 * (BATCH_MAX - 1)) + valid[0]]
    check_batches(deployed, batches)


@pytest.mark.parametrize("length", [1, 80, 82, 161, 163, 81 * BATCH_MAX - 1, 81 * BATCH_MAX + 1])
def test_not_whole_grids_fails(deployed: Deployed, length: int) -> None:
    result = deployed.run([deployed.app_call(ARE_VALID, bytes(length))])
    assert not result.ok and "assert failed" in result.error.message
    assert arc56_error(result.error.pc) == "Grids must be 81 bytes each."


@pytest.mark.parametrize("grids", [BATCH_MAX + 1, 20, 25])
def test_too_many_grids_fails(deployed: Deployed, grids: int) -> None:
    result = deployed.run([deployed.app_call(ARE_VALID, bytes(81 * grids))])
    assert not result.ok and "assert failed" in result.error.message
    assert arc56_error(result.error.pc) == "At most 14 grids a call."


def test_budget_one_call(deployed: Deployed, record_property) -> None:
    valid = encode(valid_grids()[0])
    inputs = [b"", valid, valid * BATCH_MAX, bytes([0xFF] * 81 * BATCH_MAX), b"".join(adversarial_cells()[100:114])]
    cost = straight_line_cost(deployed, ARE_VALID, [(b,) for b in inputs])
    record_property("are_valid_solutions_opcodes", cost)
    print(f"\nare_valid_solutions: {cost} opcodes per call of up to {BATCH_MAX} grids, routing included")
    assert cost <= BATCH_OPCODES


def test_fee_per_grid_at_min_fee(deployed: Deployed) -> None:
    full = b"".join(encode(g) for g in valid_grids()[:BATCH_MAX])
    result = deployed.run([deployed.app_call(ARE_VALID, full)])
    assert result.ok and result.txns[0].inner_txns == 0
    assert int.from_bytes(result.txns[0].logs[-1][4:], "big") == (1 << BATCH_MAX) - 1
    assert MIN_FEE / BATCH_MAX <= FEE_PER_GRID_MAX
    assert not deployed.run([deployed.app_call(ARE_VALID, full, fee=MIN_FEE - 1)]).ok


def test_sixteen_calls_in_a_group_leave_the_next_call_its_share(deployed: Deployed) -> None:
    full = b"".join(encode(g) for g in valid_grids()[:BATCH_MAX])
    txns = [deployed.app_call(ARE_VALID, full, note=b"%d" % k) for k in range(15)] + [deployed.probe()]
    result = deployed.run(txns)
    assert result.ok, result.error
    assert all(t.inner_txns == 0 for t in result.txns)
    assert probe_remaining(result) >= 700 - 10


def test_after_a_budget_hungry_call_it_tops_up_from_its_fee(deployed: Deployed) -> None:
    full = b"".join(encode(g) for g in valid_grids()[:BATCH_MAX])
    # the probe leaves 100 of the pool: the routing runs, the call tops up with one inner opup
    low = deployed.run([deployed.probe(burn_to=100), deployed.app_call(ARE_VALID, full, fee=2 * MIN_FEE - 1)])
    assert not low.ok
    paid = deployed.run([deployed.probe(burn_to=100, note=b"b"), deployed.app_call(ARE_VALID, full, fee=2 * MIN_FEE)])
    assert paid.ok, paid.error
    assert paid.txns[1].inner_txns == 1
    assert int.from_bytes(paid.txns[1].logs[-1][4:], "big") == (1 << BATCH_MAX) - 1


def test_arc56_spec_describes_the_encoding() -> None:
    spec = json.loads((ARTIFACTS / "Algoku.arc56.json").read_text())
    (method,) = [m for m in spec["methods"] if m["name"] == "are_valid_solutions"]
    assert [a["type"] for a in method["args"]] == ["byte[]"] and method["returns"]["type"] == "uint64"
    assert "0x80 >> (d - 1)" in method["desc"] and "0x00 for 9" in method["desc"]
    assert ARE_VALID.get_selector().hex() == "cf28c543"
    messages = {e.get("errorMessage") for e in spec["sourceInfo"]["approval"]["sourceInfo"]}
    assert {"Grids must be 81 bytes each.", "At most 14 grids a call."} <= messages
