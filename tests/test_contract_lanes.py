"""The one-call verifier `is_valid_solution_lanes` and `is_solution_of`, on go-algorand's evaluator.

Every verdict is compared with a plain Python statement of the rule (`solved`,
`solves`) on a deterministic corpus of adversarial inputs; budgets are measured
with the probe app (it logs the pool's remainder) and the tests fail if they regress.
"""

from __future__ import annotations

import json
import random

import pytest
from conftest import ARTIFACTS, IS_SOLUTION_OF, IS_VALID_LANES, MIN_FEE, VALID, Deployed, arc56_error, grid_bytes, verdict

UNITS = (
    [[9 * r + c for c in range(9)] for r in range(9)]
    + [[9 * r + c for r in range(9)] for c in range(9)]
    + [[9 * (3 * (b // 3) + r) + 3 * (b % 3) + c for r in range(3) for c in range(3)] for b in range(9)]
)
# Opcodes of a whole call (ABI routing included), measured below: the methods are
# straight-line code after the length checks, so every 81-byte input costs the same.
LANES_BUDGET_MAX = 600
SOLUTION_OF_BUDGET_MAX = 700  # one app call




def solved(g: bytes) -> bool:
    """The rule: 81 bytes, each 1..9, every row, column and box holds 1..9."""
    return len(g) == 81 and all(1 <= x <= 9 for x in g) and all({g[i] for i in u} == set(range(1, 10)) for u in UNITS)


def solves(puzzle: bytes, solution: bytes) -> bool:
    """The rule: `solution` is solved and agrees with every given (non-zero byte) of `puzzle`."""
    return solved(solution) and len(puzzle) == 81 and all(p == 0 or p == s for p, s in zip(puzzle, solution))


def relabel(g: bytes, rng: random.Random) -> bytes:
    perm = list(range(1, 10))
    rng.shuffle(perm)
    return bytes(perm[x - 1] for x in g)


def transpose(g: bytes) -> bytes:
    return bytes(g[9 * c + r] for r in range(9) for c in range(9))


def valid_grids() -> list[bytes]:
    rng = random.Random(7)
    out = [grid_bytes(d) for d in VALID]
    out += [transpose(g) for g in out]
    out += [relabel(out[k % len(out)], rng) for k in range(10)]
    return out


def swapped(grids: list[bytes], rng: random.Random, count: int) -> list[bytes]:
    """`count` grids drawn from `grids`, each with two different cells swapped."""
    out = []
    for _ in range(count):
        g = bytearray(rng.choice(grids))
        i, j = rng.sample(range(81), 2)
        g[i], g[j] = g[j], g[i]
        out.append(bytes(g))
    return out


def adversarial_grids() -> list[bytes]:
    """A deterministic corpus of 81-byte inputs, mostly invalid, aimed at the lanes encoding."""
    rng = random.Random(2026)
    valid = valid_grids()
    out: list[bytes] = list(valid)
    base = valid[0]
    # one cell set to a value outside 1..9: 0 and 10..15 set a lane bit outside 1..9,
    # 16 + d aliases digit d, larger bytes would index other lanes after `| OFFSETS`
    for value in [0, 10, 11, 12, 13, 14, 15, 16, 17, 25, 26, 31, 32, 33, 48, 0x7F, 0x80, 0x8F, 0xF0, 0xF5, 0xFF]:
        for cell in [0, 15, 16, 40, 63, 64, 79, 80]:
            g = bytearray(base)
            g[cell] = value
            out.append(bytes(g))
    # the same digit plus 16k at every cell: only the high nibbles differ from a solution
    for k in [1, 2, 8, 15]:
        out.append(bytes(x + 16 * k for x in base))
    # one cell + 16k, the lane of cell i + k (the next cells' lanes) aliases
    for cell in [3, 20, 47]:
        g = bytearray(valid[1])
        g[cell] += 16 * rng.randrange(1, 15)
        out.append(bytes(g))
    # swaps of two different cells (same row, same column, same box, anywhere)
    out += swapped(valid, rng, 40)
    # rows and columns right, boxes wrong (cyclic Latin square); rows and boxes right,
    # columns wrong (two cells of one row swapped inside their box); columns and boxes
    # right, rows wrong (transposed)
    out.append(bytes((r + c) % 9 + 1 for r in range(9) for c in range(9)))
    g = bytearray(base)
    g[0], g[1] = g[1], g[0]
    out.append(bytes(g))
    out.append(transpose(bytes(g)))
    # every row a permutation (random rows)
    for _ in range(6):
        rows = []
        for _r in range(9):
            row = list(range(1, 10))
            rng.shuffle(row)
            rows += row
        out.append(bytes(rows))
    # digit relabelings that merge two digits, duplicates of a lane bit
    for a, b in [(1, 2), (9, 1), (5, 10), (3, 0)]:
        out.append(bytes(b if x == a else x for x in base))
    # 10..15 in place of 1..6 (the same low nibble pattern shifted outside 1..9)
    out.append(bytes(x + 9 if x <= 6 else x for x in base))
    # constants and noise
    for v in [0, 1, 9, 10, 15, 16, 0xFF]:
        out.append(bytes([v]) * 81)
    out.append(bytes(range(81)))
    for _ in range(20):
        out.append(bytes(rng.randrange(256) for _ in range(81)))
    for _ in range(20):
        out.append(bytes(rng.randrange(1, 10) for _ in range(81)))
    for _ in range(10):
        out.append(bytes(rng.randrange(16) for _ in range(81)))
    return out


def puzzle_pairs() -> list[tuple[bytes, bytes]]:
    """(puzzle, solution) pairs: right and wrong givens, bad bytes in either."""
    rng = random.Random(81)
    valid = valid_grids()
    pairs: list[tuple[bytes, bytes]] = []
    for s in valid:
        blanks = rng.sample(range(81), rng.randrange(40, 64))
        p = bytearray(s)
        for i in blanks:
            p[i] = 0
        pairs.append((bytes(p), s))
        pairs.append((bytes(81), s))  # no givens
        pairs.append((s, s))  # every cell given
        # one given disagrees: another digit, 10..15, 16 + the digit, 0x10, 0xff
        for value in [s[5] % 9 + 1, 10, 15, s[5] + 16, 0x10, 0xF0 | s[5], 0xFF]:
            q = bytearray(p)
            q[5] = value
            pairs.append((bytes(q), s))
        q = bytearray(p)
        q[blanks[0]] = s[blanks[0]] % 9 + 1  # a blank filled with a wrong given
        pairs.append((bytes(q), s))
        q = bytearray(p)
        q[80] = s[80] + 16  # cell 80: the last chunk of the b+ trick
        pairs.append((bytes(q), s))
        q = bytearray(p)
        q[63], q[64] = s[63] + 16, s[64] + 16  # both sides of the 64-byte chunk border
        pairs.append((bytes(q), s))
    # the givens of one solution against another solution
    for a, b in zip(valid, valid[1:]):
        p = bytearray(a)
        for i in rng.sample(range(81), 50):
            p[i] = 0
        pairs.append((bytes(p), b))
    # right givens, broken solutions (from the grid corpus)
    for g in adversarial_grids()[len(valid) :: 4]:
        pairs.append((bytes(81), g))
        pairs.append((bytes(x if x < 10 and rng.random() < 0.3 else 0 for x in g), g))
    # random puzzles
    for _ in range(10):
        s = rng.choice(valid)
        pairs.append((bytes(rng.randrange(16) for _ in range(81)), s))
    return pairs


def batch_verdicts(deployed: Deployed, calls: list[tuple], method, fee: int = MIN_FEE) -> list[bool]:
    """Run the calls 16 per atomic group (each paying `fee`): the verdicts, in order."""
    verdicts: list[bool] = []
    for start in range(0, len(calls), 16):
        chunk = calls[start : start + 16]
        txns = [deployed.app_call(method, *args, fee=fee, note=b"%d" % k) for k, args in enumerate(chunk)]
        result = deployed.run(txns)
        assert result.ok, result.error
        assert all(t.inner_txns == 0 for t in result.txns)
        verdicts += [verdict(result, index=k) for k in range(len(chunk))]
    return verdicts




def test_corpus_is_adversarial_enough() -> None:
    grids = adversarial_grids()
    pairs = puzzle_pairs()
    assert len(grids) >= 200 and len(set(grids)) >= 200
    assert len(pairs) >= 200
    assert sum(map(solved, grids)) >= 20 and sum(not solved(g) for g in grids) >= 180
    assert sum(solves(p, s) for p, s in pairs) >= 40 and sum(not solves(p, s) for p, s in pairs) >= 150


def test_lanes_corpus_matches_rule(deployed: Deployed) -> None:
    grids = adversarial_grids()
    got = batch_verdicts(deployed, [(g,) for g in grids], IS_VALID_LANES)
    wrong = [g.hex() for g, v in zip(grids, got) if v != solved(g)]
    assert not wrong, wrong


def test_solution_of_corpus_matches_rule(deployed: Deployed) -> None:
    pairs = puzzle_pairs()
    got = batch_verdicts(deployed, pairs, IS_SOLUTION_OF)
    wrong = [(p.hex(), s.hex()) for (p, s), v in zip(pairs, got) if v != solves(p, s)]
    assert not wrong, wrong


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((bytes(80),), "Grid must be 81 bytes long."),
        ((bytes(82),), "Grid must be 81 bytes long."),
        ((b"",), "Grid must be 81 bytes long."),
    ],
)
def test_lanes_wrong_length_fails(deployed: Deployed, args: tuple, message: str) -> None:
    result = deployed.run([deployed.app_call(IS_VALID_LANES, *args)])
    assert not result.ok and "assert failed" in result.error.message
    assert arc56_error(result.error.pc) == message


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((bytes(80), grid_bytes(VALID[0])), "Puzzle must be 81 bytes long."),
        ((bytes(82), grid_bytes(VALID[0])), "Puzzle must be 81 bytes long."),
        ((bytes(81), grid_bytes(VALID[0])[:80]), "Solution must be 81 bytes long."),
        ((bytes(81), b""), "Solution must be 81 bytes long."),
    ],
)
def test_solution_of_wrong_length_fails(deployed: Deployed, args: tuple, message: str) -> None:
    result = deployed.run([deployed.app_call(IS_SOLUTION_OF, *args)])
    assert not result.ok and "assert failed" in result.error.message
    assert arc56_error(result.error.pc) == message




def measure(deployed: Deployed, method, *args: bytes) -> int:
    """Opcodes consumed by one call of `method` alone (routing included), as the node's
    simulate reports them; it needs no inner opup."""
    result = deployed.run([deployed.app_call(method, *args)])
    assert result.ok, result.error
    assert result.txns[0].inner_txns == 0
    [cost] = deployed.measure([deployed.app_call(method, *args)])
    return cost


def straight_line_cost(deployed: Deployed, method, inputs: list[tuple[bytes, ...]]) -> int:
    """What one call of `method` costs on every one of `inputs`: straight-line code, so
    one figure for all of them, and that figure is also the worst case."""
    costs = {measure(deployed, method, *args) for args in inputs}
    assert len(costs) == 1, costs
    return costs.pop()


def test_lanes_budget_one_call(deployed: Deployed, record_property) -> None:
    inputs = [grid_bytes(VALID[0]), bytes(81), bytes([0xFF] * 81), bytes([10] * 81), adversarial_grids()[40]]
    cost = straight_line_cost(deployed, IS_VALID_LANES, [(g,) for g in inputs])
    record_property("is_valid_solution_lanes_opcodes", cost)
    print(f"\nis_valid_solution_lanes: {cost} opcodes per call, routing included")
    assert cost <= LANES_BUDGET_MAX


def test_solution_of_budget_one_call(deployed: Deployed, record_property) -> None:
    s = grid_bytes(VALID[1])
    inputs = [(bytes(81), s), (s, s), (bytes([0xFF] * 81), s), (bytes(81), bytes([0xFF] * 81)), (bytes([15] * 81), bytes(81))]
    cost = straight_line_cost(deployed, IS_SOLUTION_OF, inputs)
    record_property("is_solution_of_opcodes", cost)
    print(f"\nis_solution_of: {cost} opcodes per call, routing included")
    assert cost <= SOLUTION_OF_BUDGET_MAX


@pytest.mark.parametrize("method", ["lanes", "solution_of"])
def test_one_call_at_min_fee_no_inner_transaction(deployed: Deployed, method: str) -> None:
    s = grid_bytes(VALID[2])
    call = deployed.app_call(IS_VALID_LANES, s) if method == "lanes" else deployed.app_call(IS_SOLUTION_OF, bytes(81), s)
    result = deployed.run([call])
    assert verdict(result) is True
    assert result.txns[0].inner_txns == 0
    low = deployed.app_call(IS_VALID_LANES, s, fee=MIN_FEE - 1) if method == "lanes" else deployed.app_call(IS_SOLUTION_OF, bytes(81), s, fee=MIN_FEE - 1)
    assert not deployed.run([low]).ok


def test_arc56_spec_has_the_new_methods_and_their_errors() -> None:
    spec = json.loads((ARTIFACTS / "Algoku.arc56.json").read_text())
    signatures = {
        f"{m['name']}({','.join(a['type'] for a in m['args'])}){m['returns']['type']}" for m in spec["methods"]
    }
    assert {
        "opup()void",
        "is_valid_solution(byte[])bool",
        "is_valid_solution_lanes(byte[])bool",
        "is_solution_of(byte[],byte[])bool",
    } <= signatures
    messages = {e.get("errorMessage") for e in spec["sourceInfo"]["approval"]["sourceInfo"]}
    assert {"Grid must be 81 bytes long.", "Puzzle must be 81 bytes long.", "Solution must be 81 bytes long."} <= messages
    # the selectors the client uses
    assert IS_VALID_LANES.get_selector().hex() == "9417a7ce"
    assert IS_SOLUTION_OF.get_selector().hex() == "b7376a71"
