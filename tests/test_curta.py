"""Curta "2 x 4 = 8" (smart_contracts/curta) on go-algorand's evaluator.

* Differential: every vector of rust/curta/tests/data/{generate,verify}.jsonl (the EVM's
  answers, shared with the native mirror rust/curta) through the contract, many calls per
  group and one evaluation per group; plus adversarial inputs against `solidity_verify` /
  `solidity_generate`, literal Python translations of the Solidity code.
* The game: solve with the box payment, a second solve, a wrong solution, a missing or
  wrong payment, composition with later app calls.
* Budgets and fees, measured with the probe app; the tests fail if they regress.
"""

from __future__ import annotations

import json
import random
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from algosdk import abi, encoding, logic, transaction
from algosdk.account import generate_account

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "smart_contracts" / "artifacts" / "curta"
DATA = ROOT / "rust" / "curta" / "tests" / "data"
sys.path.insert(0, str(ROOT / "scripts"))

from algoku_jig import MIN_FEE, EvalResult, Jig  # noqa: E402

BYTES = abi.ABIType.from_string("byte[]")
BOARD = abi.ABIType.from_string("byte[32]")
ADDRESS = abi.ABIType.from_string("address")
GENERATE = abi.Method.from_signature("generate(byte[])byte[32]")
GENERATE_FROM_SEED = abi.Method.from_signature("generate_from_seed(byte[32])byte[32]")
VERIFY = abi.Method.from_signature("verify(byte[32],byte[32])bool")
SOLVE = abi.Method.from_signature("solve(byte[32])bool")
SOLVERS = abi.Method.from_signature("solvers()uint64")
RECORD = abi.Method.from_signature("record(address)(uint64,byte[32])")
OPUP = abi.Method.from_signature("opup()void")
RETURN_PREFIX = bytes.fromhex("151f7c75")
SOLVED_EVENT = abi.Method.from_signature("Solved((uint64))void").get_selector()
ALREADY_EVENT = abi.Method.from_signature("AlreadySolved((uint64))void").get_selector()
BOX_MBR = 2500 + 400 * (32 + 40)
BATCH = 16  # app calls per group (the protocol's maximum)

# Opcodes of one whole call (routing included), measured by the tests below.
VERIFY_BUDGET_MAX = 640
GENERATE_BUDGET_MAX = 700  # any keccak seed (up to 42 draws, the most a uint256 allows)


# --- the Solidity code, literally (uint256 = Python int masked to 256 bits) ---------------
M256 = (1 << 256) - 1
CHECKS = 0x400010005000000040001000500000004000100050000000422232227
ROW_SHIFTS, COL_SHIFTS, SUBGRID_SHIFTS = 0x104104104104, 0x820820820820, 0x104104504104


def solidity_generate_from_seed(seed: int) -> int:
    puzzle, bitmap, index = 0, 1 << 64, 64
    for i in range(1, 9):
        if seed == 0:
            break
        while (bitmap >> index) & 1 == 1 and seed != 0:
            index = seed & 0x3F
            seed >>= 6
        bitmap |= 1 << index
        puzzle = (puzzle | (i << (index << 2))) & M256
        index = 64
    return puzzle


def _check(shifted: int, shifts: int) -> bool:
    bitmap = 0
    while shifts != 0:
        bitmap |= 1 << (shifted & 0xF)
        shifted >>= shifts & 0x3F
        shifts >>= 6
    return bitmap == 0x1FE


def solidity_verify(start: int, solution: int) -> bool:
    for index in range(0, 256, 4):
        if start & 0xF != 0 and start & 0xF != solution & 0xF:
            return False
        checks = (CHECKS >> index) & 7
        if checks & 4 == 4 and not _check(solution, ROW_SHIFTS):
            return False
        if checks & 2 == 2 and not _check(solution, COL_SHIFTS):
            return False
        if checks & 1 == 1 and not _check(solution, SUBGRID_SHIFTS):
            return False
        start >>= 4
        solution >>= 4
    return True


def board(value: int) -> bytes:
    return value.to_bytes(32, "big")


def load(name: str) -> list[dict]:
    return [json.loads(line) for line in (DATA / name).read_text().splitlines() if line.strip()]


# --- the deployed app ------------------------------------------------------------------------
@dataclass
class Curta:
    jig: Jig
    app_id: int
    sk: str
    addr: str
    serial: int = 0

    @property
    def app_addr(self) -> str:
        return logic.get_application_address(self.app_id)

    def note(self) -> bytes:
        self.serial += 1
        return b"n%d" % self.serial

    def call(self, method: abi.Method, *args: bytes, fee: int = MIN_FEE, sender: tuple[str, str] | None = None,
             boxes: list | None = None) -> transaction.Transaction:
        sp = self.jig.suggested_params()
        sp.fee, sp.flat_fee = fee, True
        _, addr = sender or (self.sk, self.addr)
        return transaction.ApplicationNoOpTxn(addr, sp, self.app_id, [method.get_selector(), *args],
                                              boxes=boxes, note=self.note())

    def pay(self, amount: int, sender: tuple[str, str] | None = None, receiver: str | None = None):
        _, addr = sender or (self.sk, self.addr)
        return transaction.PaymentTxn(addr, self.jig.suggested_params(), receiver or self.app_addr, amount, note=self.note())

    def probe(self) -> transaction.Transaction:
        return transaction.ApplicationNoOpTxn(self.addr, self.jig.suggested_params(), self.jig.ensure_probe(), [],
                                              note=self.note())

    def run(self, txns: list, signers: dict[str, str] | None = None) -> EvalResult:
        if len(txns) > 1:
            transaction.assign_group_id(txns)
        keys = {self.addr: self.sk, **(signers or {})}
        return self.jig.eval([t.sign(keys[t.sender]) for t in txns])


def returned(result: EvalResult, index: int) -> bytes:
    assert result.ok, result.error
    logs = result.txns[index].logs
    assert logs and logs[-1][:4] == RETURN_PREFIX, logs
    return logs[-1][4:]


@pytest.fixture(scope="module")
def curta() -> Curta:
    jig = Jig()
    sk, addr = generate_account()
    jig.fund(addr)
    approval = (ARTIFACTS / "Curta.approval.bin").read_bytes()
    clear = (ARTIFACTS / "Curta.clear.bin").read_bytes()
    extra_pages = (len(approval) + len(clear) - 1) // 2048
    create = transaction.ApplicationCreateTxn(
        addr, jig.suggested_params(), transaction.OnComplete.NoOpOC, approval, clear,
        transaction.StateSchema(1, 0), transaction.StateSchema(0, 0), extra_pages=extra_pages,
    )
    result = jig.eval([create.sign(sk)])
    assert result.ok, result.error
    app = Curta(jig=jig, app_id=result.txns[0].app_id, sk=sk, addr=addr)
    # the app account's own minimum balance (100 000), so that boxes can be funded one by one
    assert app.run([app.pay(100_000)]).ok
    return app


def batched(curta: Curta, calls: list[tuple[abi.Method, tuple[bytes, ...]]]) -> list[bytes]:
    """Return values of `calls`, BATCH app calls per group, one evaluation per group."""
    out: list[bytes] = []
    for k in range(0, len(calls), BATCH):
        chunk = calls[k:k + BATCH]
        result = curta.run([curta.call(m, *args) for m, args in chunk])
        out += [returned(result, i) for i in range(len(chunk))]
    return out


# --- differential over the shared vectors -------------------------------------------------------
def test_generate_every_vector(curta: Curta) -> None:
    vectors = load("generate.jsonl")
    assert len(vectors) == 100
    seeds = [bytes.fromhex(v["address"].removeprefix("0x")) for v in vectors]
    got = batched(curta, [(GENERATE, (BYTES.encode(s),)) for s in seeds])
    for v, g in zip(vectors, got):
        assert g.hex() == v["puzzle"], v["address"]


def test_verify_every_vector(curta: Curta) -> None:
    vectors = load("verify.jsonl")
    assert len(vectors) == 456
    got = batched(curta, [(VERIFY, (bytes.fromhex(v["start"]), bytes.fromhex(v["solution"]))) for v in vectors])
    assert sum(v["valid"] for v in vectors) > 0
    for v, g in zip(vectors, got):
        assert g in (b"\x80", b"\x00")
        assert (g == b"\x80") == v["valid"], v
        assert solidity_verify(int(v["start"], 16), int(v["solution"], 16)) == v["valid"]


# --- adversarial inputs against the literal Solidity ------------------------------------------
def _valid_pairs() -> list[tuple[int, int]]:
    return [(int(v["start"], 16), int(v["solution"], 16)) for v in load("verify.jsonl") if v["valid"]]


def adversarial_verify_inputs() -> list[tuple[int, int]]:
    rng = random.Random(88)
    pairs = _valid_pairs()
    start, sol = pairs[0]
    out = [(start, sol), (0, sol), (0, 0), (M256, M256), (sol, sol), (start, 0), (M256, sol)]
    for k in range(64):
        for value in (0, 9, 15, rng.randrange(1, 9)):
            s = sol & ~(0xF << (4 * k)) | (value << (4 * k))
            out.append((start, s))  # the solution's nibble changed
        g = start & ~(0xF << (4 * k)) | (rng.choice([9, 12, 15, (sol >> (4 * k)) & 0xF]) << (4 * k))
        out.append((g, sol))  # a start nibble changed (non-digits, or the solution's own digit)
    for _ in range(64):  # swaps of two squares, random words, digit relabellings
        a, b = rng.sample(range(64), 2)
        na, nb = (sol >> (4 * a)) & 0xF, (sol >> (4 * b)) & 0xF
        s = sol & ~(0xF << (4 * a)) & ~(0xF << (4 * b)) | (nb << (4 * a)) | (na << (4 * b))
        out.append((0, s))
        out.append((rng.getrandbits(256), rng.getrandbits(256)))
        perm = list(range(1, 9))
        rng.shuffle(perm)
        relabelled = sum(perm[((sol >> (4 * k)) & 0xF) - 1] << (4 * k) for k in range(64))
        out.append((0, relabelled))
    return out


def test_verify_adversarial_against_solidity(curta: Curta) -> None:
    cases = adversarial_verify_inputs()
    got = batched(curta, [(VERIFY, (board(s), board(x))) for s, x in cases])
    answers = [solidity_verify(s, x) for s, x in cases]
    assert 10 < sum(answers) < len(cases) - 100  # both verdicts well represented
    for (s, x), g, want in zip(cases, got, answers):
        assert (g == b"\x80") == want, (hex(s), hex(x))


def seed_of_draws(draws: list[int]) -> int:
    acc = 0
    for d in reversed(draws):
        acc = (acc << 6) | d
    return acc


def test_generate_from_seed_quirks(curta: Curta) -> None:
    rng = random.Random(5)
    seeds = [
        0, 1, 3, seed_of_draws([3, 4]), seed_of_draws([1, 2, 1]),  # exhausted between digits / on a taken square
        seed_of_draws([9, 10, 11, 12, 1, 13, 14, 1]),  # 5 | 8 = 13: a non-digit nibble
        seed_of_draws([5, 5, 0, 63, 7, 8, 9, 10, 11, 1]),
        seed_of_draws([1] * 42), seed_of_draws([1] * 41 + [2]),  # 42 draws: the longest loop
        M256, 1 << 255, (1 << 252) - 1,
    ]
    seeds += [rng.getrandbits(rng.randrange(1, 257)) for _ in range(36)]
    got = batched(curta, [(GENERATE_FROM_SEED, (board(s),)) for s in seeds])
    for s, g in zip(seeds, got):
        assert g == board(solidity_generate_from_seed(s)), hex(s)
    assert solidity_generate_from_seed(seed_of_draws([1, 2, 1])) == (3 << 4) | (2 << 8)


def test_bad_lengths_fail_clearly(curta: Curta) -> None:
    for method, args, needle in [
        (VERIFY, (b"\x00" * 31, b"\x00" * 32), "start must be 32 bytes"),
        (VERIFY, (b"\x00" * 32, b"\x00" * 33), "solution must be 32 bytes"),
        (SOLVE, (b"\x00" * 31,), "solution must be 32 bytes"),
        (GENERATE_FROM_SEED, (b"\x00" * 3,), "seed must be 32 bytes"),
    ]:
        result = curta.run([curta.call(method, *args)])
        assert not result.ok
        assert needle in result.error.raw, result.error.raw


# --- budgets -----------------------------------------------------------------------------------
def probe_remaining(result: EvalResult) -> int:
    assert result.ok, result.error
    return int.from_bytes(result.txns[-1].logs[-1], "big")


def call_cost(curta: Curta, method: abi.Method, *args: bytes) -> int:
    """Opcodes of one call (routing included): [call, probe] at fee 1 000 each."""
    probe_cost = 700 - probe_remaining(curta.run([curta.probe()]))
    result = curta.run([curta.call(method, *args), curta.probe()])
    return 2 * 700 - probe_remaining(result) - probe_cost


def test_verify_budget_one_call(curta: Curta, record_property) -> None:
    start, sol = _valid_pairs()[0]
    costs = {name: call_cost(curta, VERIFY, board(s), board(x))
             for name, (s, x) in {"valid": (start, sol), "wrong unit": (0, sol ^ 1), "wrong given": (sol ^ 3, sol)}.items()}
    record_property("verify_budget", costs)
    print("verify budget", costs)
    assert max(costs.values()) == costs["wrong given"]  # the full path: every unit passes
    assert max(costs.values()) <= VERIFY_BUDGET_MAX


def test_generate_budget_one_call(curta: Curta, record_property) -> None:
    worst_vector = max(call_cost(curta, GENERATE, bytes.fromhex(v["address"][2:])) for v in load("generate.jsonl")[:12])
    longest = call_cost(curta, GENERATE_FROM_SEED, board(seed_of_draws([1] * 41 + [2])))
    record_property("generate_budget", {"vectors": worst_vector, "42 draws": longest})
    print("generate budget", worst_vector, "42 draws", longest)
    assert worst_vector <= GENERATE_BUDGET_MAX
    assert longest <= GENERATE_BUDGET_MAX
