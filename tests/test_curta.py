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

import base64
import hashlib
import json
import random
from dataclasses import dataclass

import pytest
from algosdk import abi, encoding, transaction
from conftest import (ADDRESS, ALREADY_EVENT, NO_CLOSE_TO_APP, PAY_BEFORE_SOLVE, WITHDRAW, ARTIFACTS_ROOT, MIN_FEE, OPUP, RETURN_PREFIX, ROOT, SOLVERS, App, EvalResult,
                      Signer, arc56_error, check_delete_before_any_solve, check_no_method_but_solve_keeps_a_payment,
                      check_withdraw, create_app, probe_remaining, returned)

ARTIFACTS = ARTIFACTS_ROOT / "curta"
DATA = ROOT / "rust" / "curta" / "tests" / "data"

BYTES = abi.ABIType.from_string("byte[]")
BOARD = abi.ABIType.from_string("byte[32]")
GENERATE = abi.Method.from_signature("generate(byte[])byte[32]")
GENERATE_FROM_SEED = abi.Method.from_signature("generate_from_seed(byte[32])byte[32]")
VERIFY = abi.Method.from_signature("verify(byte[32],byte[32])bool")
SOLVE = abi.Method.from_signature("solve(byte[32])bool")
RECORD = abi.Method.from_signature("record(address)(uint64,byte[32])")
SOLVED_EVENT = hashlib.new("sha512_256", b"Solved(uint64)").digest()[:4]  # ARC-28 event selectors
BOX_MBR = 2500 + 400 * (32 + 40)
BATCH = 16  # app calls per group (the protocol's maximum)

# Opcodes of one whole call (routing included), measured by the tests below.
VERIFY_BUDGET_MAX = 650  # in a group: the payment rule scans it (a lone call skips the scan)
GENERATE_BUDGET_MAX = 700  # the vectors' keccak seeds (8 to ~12 draws), in a group
GENERATE_42_DRAWS_MAX = 1470  # the longest loop a uint256 allows, with one opup() before it
SOLVE_BUDGET_MAX = 1400  # whole solve, inner opups' own opcodes included
SOLVE_INNER_OPUPS = 1


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
class Curta(App):
    default_payment = BOX_MBR




@pytest.fixture(scope="module")
def curta() -> Curta:
    return deploy()


def deploy() -> Curta:
    """Curta on a fresh ledger, its account holding its own minimum balance."""
    app = create_app(Curta, "curta", global_ints=1, apps_from_1000=True)
    # the app account's own minimum balance (100 000), so that boxes can be funded one by one
    assert app.run([app.pay(amount=100_000)]).ok
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
    board_len = "invalid number of bytes for arc4.static_array<arc4.uint8, 32>"
    for method, args, needle in [
        (VERIFY, (b"\x00" * 31, b"\x00" * 32), board_len),
        (VERIFY, (b"\x00" * 32, b"\x00" * 33), board_len),
        (SOLVE, (b"\x00" * 31,), board_len),
        (GENERATE_FROM_SEED, (b"\x00" * 3,), board_len),
        (RECORD, (b"\x00" * 31,), "invalid number of bytes for arc4.static_array<arc4.uint8, 32>"),
        (GENERATE, (b"\x00\x05abc",), "invalid number of bytes for arc4.dynamic_array<arc4.uint8>"),
    ]:
        result = curta.run([curta.call(method, *args)])
        assert not result.ok
        assert arc56_error(result.error.pc, "curta") == needle, result.error.raw


# --- budgets -----------------------------------------------------------------------------------


def call_cost(curta: Curta, method: abi.Method, *args: bytes) -> int:
    """Opcodes of one call alone (routing included), as the node's simulate reports them."""
    [cost] = curta.measure([curta.call(method, *args)])
    return cost


def test_verify_budget_one_call(curta: Curta, record_property) -> None:
    start, sol = _valid_pairs()[0]
    costs = {name: call_cost(curta, VERIFY, board(s), board(x))
             for name, (s, x) in {"valid": (start, sol), "wrong unit": (0, sol ^ 1), "wrong given": (sol ^ 3, sol)}.items()}
    record_property("verify_budget", costs)
    print("verify budget", costs)
    assert max(costs.values()) == costs["wrong given"]  # the full path: every unit passes
    assert max(costs.values()) <= VERIFY_BUDGET_MAX


def test_generate_budget_one_call(curta: Curta, record_property) -> None:
    worst_vector = max(call_cost(curta, GENERATE, BYTES.encode(bytes.fromhex(v["address"][2:]))) for v in load("generate.jsonl")[:12])
    # the longest loop (42 draws) needs two outer opup() calls before it in the group: one
    # call's pool and the first opup's scan of the group leave too little
    # opup and generate together, with a later call after them (it keeps its 700)
    behind_one = [curta.call(OPUP), curta.call(GENERATE_FROM_SEED, board(seed_of_draws([1] * 41 + [2]))), curta.probe()]
    longest = sum(curta.measure(behind_one)[:2])
    seed = seed_of_draws([1] * 42)
    assert not curta.run([curta.call(OPUP), curta.call(GENERATE_FROM_SEED, board(seed))]).ok
    padded = curta.run([curta.call(OPUP), curta.call(OPUP), curta.call(GENERATE_FROM_SEED, board(seed))])
    assert returned(padded, 2) == board(solidity_generate_from_seed(seed))
    record_property("generate_budget", {"vectors": worst_vector, "42 draws": longest})
    print("generate budget", worst_vector, "42 draws", longest)
    assert worst_vector <= GENERATE_BUDGET_MAX
    assert longest <= GENERATE_42_DRAWS_MAX


# --- the game ----------------------------------------------------------------------------------
def keccak256(data: bytes) -> bytes:
    from Cryptodome.Hash import keccak  # pycryptodomex, a dependency of py-algorand-sdk

    return keccak.new(digest_bits=256, data=data).digest()


UNITS8 = (
    [[8 * r + c for c in range(8)] for r in range(8)]
    + [[8 * r + c for r in range(8)] for c in range(8)]
    + [[8 * (2 * R + r) + 4 * C + c for r in range(2) for c in range(4)] for R in range(4) for C in range(2)]
)
PEERS = [sorted({q for u in UNITS8 if k in u for q in u} - {k}) for k in range(64)]


def solve_natively(start: int) -> int | None:
    """A plain backtracking solver (most constrained square first); None if unsolvable."""
    cells = [(start >> (4 * k)) & 0xF for k in range(64)]
    if any(v > 8 for v in cells):
        return None

    def search() -> bool:
        best, options = None, None
        for k in range(64):
            if cells[k] == 0:
                opts = set(range(1, 9)) - {cells[q] for q in PEERS[k]}
                if options is None or len(opts) < len(options):
                    best, options = k, opts
                    if not opts:
                        return False
        if best is None:
            return True
        for d in sorted(options):
            cells[best] = d
            if search():
                return True
        cells[best] = 0
        return False

    if any(cells[k] and cells[k] in {cells[q] for q in PEERS[k]} for k in range(64)) or not search():
        return None
    return sum(v << (4 * k) for k, v in enumerate(cells))


@dataclass
class Player(Signer):
    start: int
    solution: int


def account(i: int) -> tuple[str, str]:
    """A deterministic account: ed25519 key from sha256("curta-player-i")."""
    from nacl.signing import SigningKey

    key = SigningKey(hashlib.sha256(b"curta-player-%d" % i).digest())
    pk = bytes(key.verify_key)
    return base64.b64encode(bytes(key) + pk).decode(), encoding.encode_address(pk)


def draws(seed: int) -> int:
    """How many 6-bit draws the Solidity generate makes on `seed`."""
    bitmap, count = 0, 0
    for _ in range(8):
        if seed == 0:
            break
        while True:
            index, seed, count = seed & 63, seed >> 6, count + 1
            if not (bitmap >> index) & 1 or seed == 0:
                break
        bitmap |= 1 << index
    return count


_NEXT_ACCOUNT = [0]


def new_player(curta: Curta, min_draws: int = 0, max_draws: int = 11) -> Player:
    """A funded account (deterministic sequence) whose start is solvable. Up to 11 draws by
    default: its solve takes one inner opup, so a solve call paying 2 000 always suffices
    whichever accounts the tests before took (test_solve_long_draws takes the others)."""
    while True:
        _NEXT_ACCOUNT[0] += 1
        sk, addr = account(_NEXT_ACCOUNT[0])
        seed = int.from_bytes(keccak256(encoding.decode_address(addr)), "big")
        if not min_draws <= draws(seed) <= max_draws:
            continue
        start = solidity_generate_from_seed(seed)
        solution = solve_natively(start)
        if solution is not None:
            curta.jig.fund(addr)
            return Player(sk, addr, start, solution)


def solve_group(curta: Curta, player: Player, solution: int, pay: int | None = BOX_MBR, fee: int = 2 * MIN_FEE,
                padding: int = 0, after: list | None = None, receiver: str | None = None) -> EvalResult:
    me = player.addr
    txns = [curta.call(OPUP, sender=me) for _ in range(padding)]
    if pay is not None:
        txns.append(curta.pay(me, pay, receiver=receiver))
    txns.append(curta.call(SOLVE, board(solution), fee=fee, sender=me, boxes=[(0, player.key)]))
    txns += after or []
    return curta.run(txns, signers=[player])


def read(curta: Curta, method: abi.Method, *args: bytes) -> bytes:
    boxes = [(0, args[0])] if method is RECORD else None
    return returned(curta.run([curta.call(method, *args, boxes=boxes)]), 0)


def solve_index(result: EvalResult) -> int:
    return next(i for i, t in enumerate(result.txns) if t.logs and t.logs[-1][:4] == RETURN_PREFIX)


def test_start_is_generate_of_the_address(curta: Curta) -> None:
    player = new_player(curta)
    assert read(curta, GENERATE, BYTES.encode(player.key)) == board(player.start)
    assert bin(player.start).count("1") > 0 and sum(((player.start >> (4 * k)) & 0xF) > 0 for k in range(64)) == 8


def test_solve_records_once(curta: Curta) -> None:
    before = int.from_bytes(read(curta, SOLVERS), "big")
    player = new_player(curta)
    app_balance = curta.jig.balance(curta.app_addr)
    result = solve_group(curta, player, player.solution)
    assert result.ok, result.error
    i = solve_index(result)
    assert returned(result, i) == b"\x80"
    assert result.txns[i].logs[0][:4] == SOLVED_EVENT
    solved_round = int.from_bytes(result.txns[i].logs[0][4:], "big")
    assert solved_round == result.round
    assert curta.jig.balance(curta.app_addr) == app_balance + BOX_MBR
    assert int.from_bytes(read(curta, SOLVERS), "big") == before + 1
    rec = read(curta, RECORD, ADDRESS.encode(player.addr))
    assert rec == solved_round.to_bytes(8, "big") + board(player.solution)

    # a second solve: true, "already solved at round N", nothing changes (no payment needed)
    again = solve_group(curta, player, player.solution, pay=None)
    i = solve_index(again)
    assert returned(again, i) == b"\x80"
    assert again.txns[i].logs[0] == ALREADY_EVENT + solved_round.to_bytes(8, "big")
    assert int.from_bytes(read(curta, SOLVERS), "big") == before + 1
    assert read(curta, RECORD, ADDRESS.encode(player.addr)) == rec
    assert curta.jig.balance(curta.app_addr) == app_balance + BOX_MBR


def test_wrong_solution_stores_nothing(curta: Curta) -> None:
    player = new_player(curta)
    before = int.from_bytes(read(curta, SOLVERS), "big")
    k = next(k for k in range(64) if (player.start >> (4 * k)) & 0xF == 0)
    wrong = player.solution ^ (3 << (4 * k))  # a changed blank square: a unit repeats a digit
    for sol in (wrong, 0, player.start):
        result = solve_group(curta, player, sol, pay=None)
        i = solve_index(result)
        assert returned(result, i) == b"\x00"
        assert len(result.txns[i].logs) == 1
    assert read(curta, RECORD, ADDRESS.encode(player.addr)) == bytes(40)
    assert int.from_bytes(read(curta, SOLVERS), "big") == before
    # someone else's solution is wrong for this player (their start differs)
    other = new_player(curta)
    if not solidity_verify(player.start, other.solution):
        result = solve_group(curta, player, other.solution, pay=None)
        assert returned(result, solve_index(result)) == b"\x00"


def test_payment_is_checked(curta: Curta) -> None:
    player = new_player(curta)
    for kw, message in [
        ({"pay": None}, "solve needs a payment of the box MBR to the app just before it"),
        ({"pay": BOX_MBR - 1}, "the box payment must be exactly the box MBR (31300)"),
        ({"pay": BOX_MBR + 1}, "the box payment must be exactly the box MBR (31300)"),
        ({"receiver": player.addr}, "solve needs a payment of the box MBR to the app just before it"),
    ]:
        result = solve_group(curta, player, player.solution, **kw)
        assert not result.ok
        assert arc56_error(result.error.pc, "curta") == message, result.error.raw
    assert read(curta, RECORD, ADDRESS.encode(player.addr)) == bytes(40)


# --- no payment is ever kept for nothing ---------------------------------------------------------
NOT_BEFORE_SOLVE = PAY_BEFORE_SOLVE


def wrong_solution(player: Player) -> int:
    k = next(k for k in range(64) if (player.start >> (4 * k)) & 0xF == 0)
    return player.solution ^ (3 << (4 * k))




def solve_call(curta: Curta, player: Player, solution: int, fee: int = 2 * MIN_FEE) -> transaction.Transaction:
    return curta.call(SOLVE, board(solution), fee=fee, sender=player.addr, boxes=[(0, player.key)])


def observe(curta: Curta, players: list[Player], txns: list, signers: list[Player]) -> tuple[EvalResult, int, list[bytes], int]:
    """Run a group; return it with the app balance change, the players' records and the
    solver count change."""
    balance, solvers = curta.jig.balance(curta.app_addr), int.from_bytes(read(curta, SOLVERS), "big")
    result = curta.run(txns, signers=signers)
    records = [read(curta, RECORD, ADDRESS.encode(p.addr)) for p in players]
    change = curta.jig.balance(curta.app_addr) - balance
    return result, change, records, int.from_bytes(read(curta, SOLVERS), "big") - solvers


def test_every_payment_path(curta: Curta, record_property) -> None:
    """Each way a payment can meet solve: the group fails (nothing moves) unless the payment
    pays for a first correct solve; the app's balance changes by exactly BOX_MBR or by 0."""
    paths: dict[str, dict] = {}

    def check(name: str, players: list[Player], txns: list, signers: list[Player], *, ok: bool,
              change: int, recorded: list[bool], error: str | None = None, answer: bytes | None = None):
        result, moved, records, solved = observe(curta, players, txns, signers)
        assert result.ok == ok, (name, result.error)
        if not ok:
            assert arc56_error(result.error.pc, "curta") == error, (name, result.error.raw)
        elif answer is not None:
            assert returned(result, solve_index(result)) == answer, name
        assert moved == change, (name, moved)
        assert [r != bytes(40) for r in records] == recorded, name
        assert solved == sum(recorded) - sum(p in done for p in players), name
        paths[name] = {"group": "ok" if ok else "fails", "app_balance_change": moved}

    done: list[Player] = []
    player, sponsor = new_player(curta), new_player(curta)
    wrong = wrong_solution(player)
    me = [player]
    check("wrong solution, no payment", me, [solve_call(curta, player, wrong)], me,
          ok=True, change=0, recorded=[False], answer=b"\x00")
    check("wrong solution, box payment", me, [curta.pay(player.addr), solve_call(curta, player, wrong)], me,
          ok=False, change=0, recorded=[False], error="a wrong solution cannot take the box payment")
    check("wrong solution, payment of the wrong amount", me,
          [curta.pay(player.addr, BOX_MBR - 1), solve_call(curta, player, wrong)], me,
          ok=False, change=0, recorded=[False], error="a wrong solution cannot take the box payment")
    # the group from the report: [payment, opup(), solve(wrong)]
    check("wrong solution, payment before an opup()", me,
          [curta.pay(player.addr), curta.call(OPUP), solve_call(curta, player, wrong)], me,
          ok=False, change=0, recorded=[False], error=NOT_BEFORE_SOLVE)
    check("wrong solution, payment after solve", me,
          [solve_call(curta, player, wrong), curta.pay(player.addr)], me,
          ok=False, change=0, recorded=[False], error=NOT_BEFORE_SOLVE)
    check("right solution, payment two places before", me,
          [curta.pay(player.addr), curta.call(OPUP), solve_call(curta, player, player.solution)], me,
          ok=False, change=0, recorded=[False], error=NOT_BEFORE_SOLVE)
    check("right solution, a second payment after it", me,
          [curta.pay(player.addr), solve_call(curta, player, player.solution), curta.pay(player.addr, 1)], me,
          ok=False, change=0, recorded=[False], error=NOT_BEFORE_SOLVE)
    check("right solution, payment of the wrong amount", me,
          [curta.pay(player.addr, BOX_MBR + 1), solve_call(curta, player, player.solution)], me,
          ok=False, change=0, recorded=[False], error="the box payment must be exactly the box MBR (31300)")
    check("right solution, payment to another receiver", me,
          [curta.pay(player.addr, receiver=sponsor.addr), solve_call(curta, player, player.solution)], me,
          ok=False, change=0, recorded=[False],
          error="solve needs a payment of the box MBR to the app just before it")
    closer = new_player(curta)  # an account that would close itself out into the app
    check("right solution, payment closing its account into the app", me,
          [curta.pay(closer.addr, receiver=sponsor.addr, close=curta.app_addr),
           solve_call(curta, player, player.solution)], [player, closer],
          ok=False, change=0, recorded=[False], error="the box payment must not close its account")
    check("right solution, a payment elsewhere closing its account into the app", me,
          [curta.pay(closer.addr, receiver=sponsor.addr, close=curta.app_addr), curta.pay(player.addr),
           solve_call(curta, player, player.solution)], [player, closer],
          ok=False, change=0, recorded=[False], error=NO_CLOSE_TO_APP)
    check("right solution, box payment closing its account", me,
          [curta.pay(closer.addr, close=sponsor.addr), solve_call(curta, player, player.solution)],
          [player, closer], ok=False, change=0, recorded=[False],
          error="the box payment must not close its account")
    check("right solution, box payment from a sponsor", me,
          [curta.pay(sponsor.addr), solve_call(curta, player, player.solution)], [player, sponsor],
          ok=True, change=BOX_MBR, recorded=[True], answer=b"\x80")
    done.append(player)
    check("repeat solve, box payment", me, [curta.pay(player.addr), solve_call(curta, player, player.solution)], me,
          ok=False, change=0, recorded=[True], error="already solved: the box payment is not needed")
    check("repeat solve, no payment", me, [solve_call(curta, player, player.solution)], me,
          ok=True, change=0, recorded=[True], answer=b"\x80")
    check("wrong solution after a solve, no payment", me, [solve_call(curta, player, wrong)], me,
          ok=True, change=0, recorded=[True], answer=b"\x00")
    # two first solves in one group, each with its own payment just before it; each call pays
    # for two opups: two solves share the group's pool, and whether one opup each suffices
    # depends on both players' draws (the payment rule is what is tested here)
    a, b = new_player(curta), new_player(curta)
    check("two solves, a payment before each", [a, b],
          [curta.pay(a.addr), solve_call(curta, a, a.solution, fee=3 * MIN_FEE), curta.pay(b.addr),
           solve_call(curta, b, b.solution, fee=3 * MIN_FEE)],
          [a, b], ok=True, change=2 * BOX_MBR, recorded=[True, True])
    record_property("payment_paths", paths)
    for name, seen in paths.items():
        print(f"{name}: {seen}")


def test_no_method_but_solve_keeps_a_payment(curta: Curta) -> None:
    """[payment to the app, opup()] and the like, for every method but solve: the group fails."""
    payer, other = new_player(curta), new_player(curta)
    start, sol = _valid_pairs()[0]
    check_no_method_but_solve_keeps_a_payment(curta, {
        "opup": lambda: curta.call(OPUP),
        "generate": lambda: curta.call(GENERATE, BYTES.encode(other.key)),
        "generate_from_seed": lambda: curta.call(GENERATE_FROM_SEED, board(12345)),
        "verify": lambda: curta.call(VERIFY, board(start), board(sol)),
        "solvers": lambda: curta.call(SOLVERS),
        "record": lambda: curta.call(RECORD, other.key, boxes=[(0, other.key)]),
        "withdraw": lambda: curta.call(WITHDRAW, fee=2 * MIN_FEE),
    }, payer)


def test_withdraw_takes_only_what_is_above_the_minimum_balance(curta: Curta) -> None:
    """Once solves are recorded the app cannot be deleted; a plain transfer into it is not
    locked: the creator withdraws it, and the records and their boxes' minimum balance stay."""
    player = new_player(curta)
    assert solve_group(curta, player, player.solution).ok
    recorded = read(curta, RECORD, player.key)
    check_withdraw(curta, new_player(curta))
    assert read(curta, RECORD, player.key) == recorded


def test_update_refused_delete_creator_only(curta: Curta) -> None:
    sp = curta.jig.suggested_params()
    approval = (ARTIFACTS / "Curta.approval.bin").read_bytes()
    clear = (ARTIFACTS / "Curta.clear.bin").read_bytes()
    update = transaction.ApplicationUpdateTxn(curta.addr, sp, curta.app_id, approval, clear, note=curta.note())
    assert not curta.run([update]).ok
    stranger = new_player(curta)
    delete = transaction.ApplicationDeleteTxn(stranger.addr, sp, curta.app_id, note=curta.note())
    result = curta.run([delete], signers=[stranger])
    assert not result.ok
    assert arc56_error(result.error.pc, "curta") == "Only the creator can delete Curta."




def test_delete_refused_once_a_solve_is_recorded(curta: Curta) -> None:
    """A recorded solve's box holds its player's payment: the creator cannot delete the app."""
    player = new_player(curta)
    assert solve_group(curta, player, player.solution).ok
    assert int.from_bytes(read(curta, SOLVERS), "big") >= 1
    balance = curta.jig.balance(curta.app_addr)
    result = curta.run([curta.delete()])
    assert not result.ok
    assert arc56_error(result.error.pc, "curta") == "solves are recorded: their boxes hold the players' payments"
    assert curta.jig.has_app(curta.app_id) and curta.jig.balance(curta.app_addr) == balance
    assert read(curta, RECORD, player.key)[8:] == board(player.solution)


def test_delete_before_any_solve_returns_the_app_account() -> None:
    """With no solve recorded the creator may delete the app: its account, with a plain transfer
    someone made to it, closes to the creator (one inner payment, paid by the delete's fee)."""
    c = deploy()
    check_delete_before_any_solve(c, new_player(c))


# --- budgets and fees of solve -----------------------------------------------------------------
def test_solve_fee_and_composition(curta: Curta, record_property) -> None:
    # fee credit for one inner opup: 2 000 on the call (the payment pays its own 1 000)
    player = new_player(curta)
    result = solve_group(curta, player, player.solution, fee=2 * MIN_FEE - 1)
    assert not result.ok  # one micro-Algo less cannot pay the inner opup
    result = solve_group(curta, player, player.solution, fee=2 * MIN_FEE)
    assert result.ok, result.error
    i = solve_index(result)
    assert result.txns[i].inner_app_calls == SOLVE_INNER_OPUPS
    record_property("solve_fee", {"payment": MIN_FEE, "call": 2 * MIN_FEE, "box_mbr": BOX_MBR})

    # outer padding instead: two opup() calls before, every fee 1 000, no inner transaction
    # (4 000 in fees; one opup no longer covers it, its scan of the group takes its share)
    player = new_player(curta)
    result = solve_group(curta, player, player.solution, fee=MIN_FEE, padding=SOLVE_INNER_OPUPS + 1)
    assert result.ok, result.error
    assert all(t.inner_txns == 0 for t in result.txns)
    assert returned(result, solve_index(result)) == b"\x80"

    # composes: a budget-hungry later call keeps its own 700 (a full verify after solve)
    player = new_player(curta)
    start, sol = _valid_pairs()[0]
    later = [curta.call(VERIFY, board(start), board(sol)), curta.call(VERIFY, board(start), board(sol))]
    result = solve_group(curta, player, player.solution, after=later)
    assert result.ok, result.error
    assert returned(result, -1) == b"\x80" and returned(result, -2) == b"\x80"
    assert returned(result, 1) == b"\x80"


def test_solve_budget(curta: Curta, record_property) -> None:
    """What solve uses (as the node's simulate reports it) and leaves in the pool: [pay,
    solve, probe]; the probe's own 700 must be intact."""
    probe_cost = 700 - probe_remaining(curta.run([curta.probe()]))
    player = new_player(curta)
    me = player.addr
    used = curta.measure([curta.pay(me, BOX_MBR), curta.call(SOLVE, board(player.solution), fee=2 * MIN_FEE, sender=me,
                                                             boxes=[(0, player.key)]), curta.probe()], signers=[player])[1]
    result = solve_group(curta, player, player.solution, after=[curta.probe()])
    remaining = probe_remaining(result)
    record_property("solve_budget", used)
    print("solve budget", used, "remaining for the probe", remaining)
    assert remaining >= 700 - probe_cost
    assert used <= SOLVE_BUDGET_MAX


def test_solve_long_draws(curta: Curta, record_property) -> None:
    """Seeds needing up to 11 draws (all but 1 address in ~360; 8.5 on average) take one inner
    opup; 13 or more (~1 in 2 100) get the second top-up after generate: one more opup, fee
    3 000 (2 000 fails on the fee, never on the budget). 12 draws take one or two, as the
    group's length and the draws' positions fall. A later call keeps its 700 either way."""
    start, sol = _valid_pairs()[0]
    for n, opups in ((11, 1), (11, 1), (11, 1), (13, 2), (14, 2)):
        player = new_player(curta, min_draws=n, max_draws=n)
        def group(fee: int) -> EvalResult:
            return solve_group(curta, player, player.solution, fee=fee,
                               after=[curta.call(VERIFY, board(start), board(sol)), curta.probe()])
        if opups == 2:
            short = group(2 * MIN_FEE)
            assert not short.ok and "fee too small" in short.error.message
        result = group((1 + opups) * MIN_FEE)
        assert result.ok, (n, result.error)
        assert returned(result, 1) == b"\x80" and returned(result, 2) == b"\x80"
        assert result.txns[1].inner_app_calls == opups
        assert probe_remaining(result) >= 600
