"""Algoku, the game (smart_contracts/game) on go-algorand's evaluator.

* Differential: the 256 players of rust/game/tests/data/players.jsonl (native index,
  puzzle and solution from rust/game) against the contract's `puzzle` and `solve`.
  Leaves and proofs come from this file's own reading of the committed catalogue and
  its own Merkle tree (a second implementation of rust/game's codec and tree).
* Bad input: wrong solutions, another address's solution, wrong index, proof or leaf,
  short and long arguments; nothing is recorded and no payment is kept.
* The payment rule, with the app's balance before and after every path.
* Budgets and fees, measured with the probe app; the tests fail if they regress.
"""

from __future__ import annotations

import ast
import base64
import hashlib
import json
import re
from dataclasses import dataclass, field

import pytest
from algosdk import abi, encoding, transaction
from conftest import (ADDRESS, ALREADY_EVENT, NO_CLOSE_TO_APP, PAY_BEFORE_SOLVE, WITHDRAW, ARTIFACTS_ROOT, MIN_FEE, OPUP, ROOT, SOLVERS, App, EvalResult,
                      Signer, arc56_error, check_delete_before_any_solve, check_no_method_but_solve_keeps_a_payment,
                      check_withdraw, create_app, probe_remaining, returned)

ARTIFACTS = ARTIFACTS_ROOT / "game"
CATALOGUE = ROOT / "rust" / "game" / "data" / "catalogue.bin"
PLAYERS = ROOT / "rust" / "game" / "tests" / "data" / "players.jsonl"

SOLVE = abi.Method.from_signature("solve(byte[51],byte[1776],byte[162])bool")
PUZZLE = abi.Method.from_signature("puzzle(address,byte[51],byte[1776])(uint64,byte[81])")
RECORD = abi.Method.from_signature("record(address)(uint64,uint64,uint64)")
ROOT_METHOD = abi.Method.from_signature("root()byte[20]")
SOLVED_EVENT = hashlib.new("sha512_256", b"Solved(uint64,uint64)").digest()[:4]
BOX_MBR = 2500 + 400 * (32 + 24)
APP_ID = 1001  # the vectors' app id: the first app after the placeholder asset 999
COUNT, RECORD_BYTES, LEAF, BATCH = 49158, 19, 51, 16

# Opcodes, measured by the tests below (whole call, routing and inner opups included).
SOLVE_BUDGET_MAX = 1360
PUZZLE_BUDGET_MAX = 1400  # with its scan and its inner opups' own opcodes


# --- the catalogue, read and hashed independently of rust/game --------------------------------
def decode(record: bytes) -> list[tuple[int, int]]:
    """19 bytes: 81-bit mask (cell 0 first), 17 x 4-bit digit - 1, 3 zero bits."""
    value = int.from_bytes(record, "big")
    assert value & 7 == 0
    mask, digits = value >> 71, (value >> 3) & ((1 << 68) - 1)
    cells = [c for c in range(81) if mask >> (80 - c) & 1]
    assert len(cells) == 17
    return [(c, ((digits >> (4 * (16 - n))) & 15) + 1) for n, c in enumerate(cells)]


def leaf_of(givens: list[tuple[int, int]]) -> bytes:
    return bytes(2 * (c // 9) for c, _ in givens) + bytes(2 * (c % 9) for c, _ in givens) + bytes(d for _, d in givens)


class Tree:
    """SHA-256 truncated to 20 bytes, 16 children per node, 4 levels."""

    ARITIES = (16, 16, 16, 16)

    def __init__(self, leaves: list[bytes]) -> None:
        self.levels: list[list[bytes]] = [leaves]
        for level, arity in enumerate(self.ARITIES):
            items, width = self.levels[-1], LEAF if level == 0 else 20
            self.levels.append([hashlib.sha256(self.block(items, q, arity, width)).digest()[:20]
                                for q in range(max(1, -(-len(items) // arity)))])

    @staticmethod
    def block(items: list[bytes], q: int, arity: int, width: int) -> bytes:
        return b"".join(items[arity * q + j] if arity * q + j < len(items) else bytes(width) for j in range(arity))

    def root(self) -> bytes:
        return self.levels[-1][0]

    def proof(self, index: int) -> bytes:
        out, span = b"", 1
        for level, arity in enumerate(self.ARITIES):
            span *= arity
            out += self.block(self.levels[level], index // span, arity, LEAF if level == 0 else 20)
        return out


@pytest.fixture(scope="module")
def catalogue() -> tuple[list[bytes], Tree]:
    data = CATALOGUE.read_bytes()
    assert len(data) == COUNT * RECORD_BYTES
    leaves = [leaf_of(decode(data[k:k + RECORD_BYTES])) for k in range(0, len(data), RECORD_BYTES)]
    return leaves, Tree(leaves)


def lanes(grid: str) -> bytes:
    """81 digits -> 162 bytes, lane c = 0x8000 >> digit (0 for a blank)."""
    return b"".join(((0x8000 >> int(ch)) if ch != "0" else 0).to_bytes(2, "big") for ch in grid)


# --- the players ------------------------------------------------------------------------------
@dataclass
class Player(Signer):
    n: int
    index: int
    puzzle: str
    solution: str


def load_players() -> list[Player]:
    from nacl.signing import SigningKey

    out = []
    for line in PLAYERS.read_text().splitlines():
        v = json.loads(line)
        key = SigningKey(hashlib.sha256(b"algoku-game-player-%d" % v["player"]).digest())
        pk = bytes(key.verify_key)
        assert pk.hex() == v["address"] and v["app_id"] == APP_ID
        sk = base64.b64encode(bytes(key) + pk).decode()
        out.append(Player(sk=sk, addr=encoding.encode_address(pk), n=v["player"], index=v["index"], puzzle=v["puzzle"],
                          solution=v["solution"]))
    return out


PLAYERS_ALL = load_players()


@dataclass
class Game(App):
    leaves: list[bytes] = field(default_factory=list)
    tree: Tree | None = None
    default_payment = BOX_MBR

    def solve_call(self, p: Player, solution: bytes | None = None, fee: int = 2 * MIN_FEE, index: int | None = None,
                   leaf: bytes | None = None, proof: bytes | None = None) -> transaction.Transaction:
        i = p.index if index is None else index
        return self.call(SOLVE, self.leaves[i] if leaf is None else leaf, self.tree.proof(i) if proof is None else proof,
                         lanes(p.solution) if solution is None else solution, fee=fee, sender=p.addr,
                         boxes=[(0, p.key)])


@pytest.fixture(scope="module")
def game(catalogue) -> Game:
    return deploy(catalogue)


def deploy(catalogue: tuple[list[bytes], Tree]) -> Game:
    """The Game on a fresh ledger (app 1001), its account holding its own minimum balance."""
    g = create_app(Game, "game", global_ints=1, apps_from_1000=True)
    assert g.app_id == APP_ID, "the vectors are for app 1001"
    g.leaves, g.tree = catalogue
    assert g.run([g.pay(amount=100_000)]).ok  # the app account's own minimum balance
    return g


def read(game: Game, method: abi.Method, *args: bytes) -> bytes:
    boxes = [(0, args[0])] if method is RECORD else None
    return returned(game.run([game.call(method, *args, boxes=boxes)]), 0)


def record_of(game: Game, p: Player) -> tuple[int, int, int]:
    r = read(game, RECORD, p.key)
    return tuple(int.from_bytes(r[k:k + 8], "big") for k in (0, 8, 16))


def solvers(game: Game) -> int:
    return int.from_bytes(read(game, SOLVERS), "big")


# --- catalogue and root ---------------------------------------------------------------------------
def test_root_is_the_catalogues(game: Game) -> None:
    root = game.tree.root()
    contract = ast.parse((ROOT / "smart_contracts" / "game" / "contract.py").read_text())
    (committed,) = [ast.literal_eval(n.value) for n in contract.body
                    if isinstance(n, ast.Assign) and [getattr(t, "id", None) for t in n.targets] == ["ROOT_HEX"]]
    assert committed == root.hex()
    rust = (ROOT / "rust" / "game" / "src" / "merkle.rs").read_text()
    assert re.search(r'pub const ROOT_HEX: &str = "([0-9a-f]{40})"', rust).group(1) == root.hex()
    assert read(game, ROOT_METHOD) == root
    # no method can install another root: the root is a constant of the program
    spec = json.loads((ARTIFACTS / "Game.arc56.json").read_text())
    assert {m["name"] for m in spec["methods"]} == {"opup", "root", "puzzle", "solve", "solvers", "record", "withdraw"}
    assert spec["state"]["schema"]["global"] == {"ints": 1, "bytes": 0}
    # the first line of the published list
    assert decode(CATALOGUE.read_bytes()[:19])[:3] == [(17, 1), (23, 2), (25, 3)]


# --- differential ---------------------------------------------------------------------------------
def test_puzzle_of_every_player(game: Game) -> None:
    """The contract's index and mapped givens equal rust/game's for all 256 players."""
    for k in range(0, len(PLAYERS_ALL), BATCH // 2):
        chunk = PLAYERS_ALL[k:k + BATCH // 2]
        calls = [game.call(PUZZLE, p.key, game.leaves[p.index], game.tree.proof(p.index), fee=3 * MIN_FEE)
                 for p in chunk]
        result = game.run(calls)
        for i, p in enumerate(chunk):
            r = returned(result, i)
            assert int.from_bytes(r[:8], "big") == p.index, p.n
            assert "".join(str(b) for b in r[8:]) == p.puzzle, p.n


def test_every_player_solves_and_is_recorded(game: Game) -> None:
    """200 players, five [opup(), payment, solve(fee 3 000)] to a group (each solve scans the
    whole group, so in a group of 15 its fee buys inner opups): each accepted, recorded with
    round, timestamp and rank. The single-player group at 1 000 each is pinned below."""
    players = PLAYERS_ALL[:200]
    for p in players:
        game.jig.fund(p.addr)
    before, balance = solvers(game), game.balance()
    solved: dict[str, tuple[int, int]] = {}
    for k in range(0, len(players), 5):
        chunk = players[k:k + 5]
        txns = []
        for p in chunk:
            txns += [game.call(OPUP), game.pay(p.addr), game.solve_call(p, fee=3 * MIN_FEE)]
        result = game.run(txns, signers=chunk)
        assert result.ok, result.error
        for j, p in enumerate(chunk):
            i = 3 * j + 2
            assert returned(result, i) == b"\x80"
            event = result.txns[i].logs[0]
            assert event[:4] == SOLVED_EVENT
            assert int.from_bytes(event[4:12], "big") == result.round
            rank = int.from_bytes(event[12:20], "big")
            assert rank == before + k + j + 1
            solved[p.addr] = (result.round, rank)
    # the records, read sixteen to a group
    for k in range(0, len(players), BATCH):
        chunk = players[k:k + BATCH]
        result = game.run([game.call(RECORD, p.key, boxes=[(0, p.key)]) for p in chunk])
        for i, p in enumerate(chunk):
            r = returned(result, i)
            round_, timestamp, rank = (int.from_bytes(r[o:o + 8], "big") for o in (0, 8, 16))
            assert (round_, rank) == solved[p.addr] and timestamp > 0
    assert solvers(game) == before + 200
    assert game.balance() == balance + 200 * BOX_MBR


# --- bad input ------------------------------------------------------------------------------------
def fresh(game: Game, n: int) -> Player:
    p = PLAYERS_ALL[n]
    game.jig.fund(p.addr)
    return p


def test_wrong_solutions_answer_false_for_free(game: Game) -> None:
    p, other = fresh(game, 200), PLAYERS_ALL[201]
    balance, count = game.balance(), solvers(game)
    sol = p.solution
    blank = next(c for c in range(81) if p.puzzle[c] == "0")
    row = blank // 9
    k2 = next(c for c in range(9 * row, 9 * row + 9) if c != blank and p.puzzle[c] == "0")
    swapped = list(sol)
    swapped[blank], swapped[k2] = swapped[k2], swapped[blank]  # a row still holds 1..9 once
    relabelled = "".join(str(1 + int(ch) % 9) for ch in sol)  # a valid grid, givens wrong
    two_bits = bytearray(lanes(sol))
    two_bits[2 * blank + 1] |= 0x01  # a second bit (bit 15) in one lane
    zero_lane = bytearray(lanes(sol))
    zero_lane[2 * blank:2 * blank + 2] = b"\x00\x00"
    wrongs = [lanes("".join(swapped)), lanes(relabelled), bytes(two_bits), bytes(zero_lane), bytes(162),
              b"\xff" * 162, lanes(other.solution), lanes(p.puzzle)]
    for w in wrongs:
        result = game.run([game.call(OPUP), game.solve_call(p, solution=w)], signers=[p])
        assert returned(result, -1) == b"\x00"
        assert len(result.txns[-1].logs) == 1
    # another address's whole submission (its leaf, proof and solution) fails for p
    result = game.run([game.call(OPUP), game.solve_call(p, index=other.index, solution=lanes(other.solution))],
                      signers=[p])
    assert not result.ok
    assert arc56_error(result.error.pc, "game") == "the puzzle and proof do not match the catalogue root"
    assert record_of(game, p) == (0, 0, 0)
    assert (game.balance(), solvers(game)) == (balance, count)


def test_wrong_leaf_or_proof_fails(game: Game) -> None:
    p = fresh(game, 202)
    balance = game.balance()
    leaf = bytearray(game.leaves[p.index])
    leaf[40] ^= 3  # a tampered digit
    proof = bytearray(game.tree.proof(p.index))
    proof[816 + 20 * (((p.index >> 4) + 1) % 16)] ^= 1  # a tampered sibling node
    own = bytearray(game.tree.proof(p.index))
    cases = [
        {"index": (p.index + 1) % COUNT},  # the neighbour's leaf and proof
        {"leaf": bytes(leaf)},
        {"proof": bytes(proof)},
        {"leaf": game.leaves[(p.index + 1) % COUNT]},  # another leaf with this index's proof
    ]
    for kw in cases:
        for pay in (False, True):
            txns = [game.call(OPUP), game.call(OPUP)] + ([game.pay(p.addr)] if pay else []) + [game.solve_call(p, **kw)]
            result = game.run(txns, signers=[p])
            assert not result.ok
            assert arc56_error(result.error.pc, "game") == "the puzzle and proof do not match the catalogue root", (kw.keys(), pay)
    # the slot of the player's own leaf in the proof carries no information
    slot = (p.index % 16) * LEAF
    own[slot:slot + LEAF] = bytes(LEAF)
    result = game.run([game.call(OPUP), game.solve_call(p, solution=bytes(162), proof=bytes(own))], signers=[p])
    assert returned(result, -1) == b"\x00"
    assert game.balance() == balance and record_of(game, p) == (0, 0, 0)


def test_bad_lengths_fail_clearly(game: Game) -> None:
    p = fresh(game, 203)
    leaf, proof, sol = game.leaves[p.index], game.tree.proof(p.index), lanes(p.solution)
    for args, needle in [
        ((leaf[:-1], proof, sol), "invalid number of bytes for arc4.static_array<arc4.uint8, 51>"),
        ((leaf + b"\x00", proof, sol), "invalid number of bytes for arc4.static_array<arc4.uint8, 51>"),
        ((leaf, proof[:-1], sol), "invalid number of bytes for arc4.static_array<arc4.uint8, 1776>"),
        ((leaf, proof, sol[:-1]), "invalid number of bytes for arc4.static_array<arc4.uint8, 162>"),
        ((leaf, proof, sol + b"\x00"), "invalid number of bytes for arc4.static_array<arc4.uint8, 162>"),
    ]:
        result = game.run([game.call(OPUP), game.call(SOLVE, *args, sender=p.addr, boxes=[(0, p.key)])], signers=[p])
        assert not result.ok
        assert arc56_error(result.error.pc, "game") == needle, result.error.raw
    result = game.run([game.call(RECORD, p.key[:31], boxes=[(0, p.key)])])
    assert not result.ok


# --- the payment rule -----------------------------------------------------------------------------
def test_payment_rule(game: Game) -> None:
    p, q, sponsor = fresh(game, 204), fresh(game, 205), fresh(game, 206)
    balance, count = game.balance(), solvers(game)

    def refused(txns: list, message: str, signers: list[Player]) -> None:
        result = game.run(txns, signers=signers)
        assert not result.ok
        assert arc56_error(result.error.pc, "game") == message, result.error.raw
        assert game.balance() == balance and solvers(game) == count

    follow = PAY_BEFORE_SOLVE
    refused([game.solve_call(p)], "a first solve needs the box payment (24900) just before it", [p])
    refused([game.pay(p.addr, BOX_MBR - 1), game.solve_call(p)],
            "the box payment must be exactly the box MBR (24900)", [p])
    refused([game.pay(p.addr, BOX_MBR + 1), game.solve_call(p)],
            "the box payment must be exactly the box MBR (24900)", [p])
    refused([game.pay(sponsor.addr, close=p.addr), game.solve_call(p)],
            "the box payment must not close its account", [p, sponsor])
    refused([game.pay(p.addr), game.call(OPUP), game.solve_call(p)], follow, [p])  # not immediately before
    refused([game.solve_call(p), game.pay(p.addr)], follow, [p])  # a payment last
    refused([game.pay(q.addr, 0, receiver=q.addr, close=game.app_addr), game.pay(p.addr), game.solve_call(p)],
            NO_CLOSE_TO_APP, [p, q])  # a close-to elsewhere in the group
    refused([game.pay(p.addr, BOX_MBR - 1), game.solve_call(p)],
            "the box payment must be exactly the box MBR (24900)", [p])
    refused([game.pay(p.addr), game.solve_call(p, solution=lanes(q.solution))],
            "a paid solve must be correct", [p])
    # a payment for a correct solve, plus a stray payment elsewhere in the group
    refused([game.pay(p.addr), game.solve_call(p), game.pay(q.addr)], follow, [p, q])
    assert record_of(game, p) == (0, 0, 0)

    # a sponsor pays for p's box
    sponsor_before = game.jig.balance(sponsor.addr)
    result = game.run([game.pay(sponsor.addr), game.solve_call(p)], signers=[p, sponsor])
    assert returned(result, -1) == b"\x80"
    assert game.jig.balance(sponsor.addr) == sponsor_before - BOX_MBR - MIN_FEE
    assert game.balance() == balance + BOX_MBR and solvers(game) == count + 1
    solved = record_of(game, p)
    assert solved[0] == result.round and solved[2] == count + 1

    # again: already solved, for free, nothing changes; with a payment the group fails
    again = game.run([game.solve_call(p)], signers=[p])
    assert returned(again, -1) == b"\x80"
    assert again.txns[-1].logs[0] == ALREADY_EVENT + solved[0].to_bytes(8, "big")
    balance, count = game.balance(), solvers(game)
    refused([game.pay(p.addr), game.solve_call(p)],
            "already solved: the payment would be kept for nothing", [p])
    assert record_of(game, p) == solved


def test_no_method_but_solve_keeps_a_payment(game: Game) -> None:
    """[payment to the app, opup()] and the like, for every method but solve: the group fails."""
    payer, q = fresh(game, 227), PLAYERS_ALL[228]
    puzzle_args = (q.key, game.leaves[q.index], game.tree.proof(q.index))
    check_no_method_but_solve_keeps_a_payment(game, {
        "opup": lambda: game.call(OPUP),
        "root": lambda: game.call(ROOT_METHOD),
        "solvers": lambda: game.call(SOLVERS),
        "record": lambda: game.call(RECORD, q.key, boxes=[(0, q.key)]),
        "puzzle": lambda: game.call(PUZZLE, *puzzle_args, fee=3 * MIN_FEE),
        "withdraw": lambda: game.call(WITHDRAW, fee=2 * MIN_FEE),
    }, payer)


def test_withdraw_takes_only_what_is_above_the_minimum_balance(game: Game) -> None:
    """Once solves are recorded the app cannot be deleted; a plain transfer into it is not
    locked: the creator withdraws it, and the records and their boxes' minimum balance stay."""
    p = fresh(game, 229)
    assert returned(game.run([game.pay(p.addr), game.solve_call(p)], signers=[p]), -1) == b"\x80"
    count, solved = solvers(game), record_of(game, p)
    check_withdraw(game, fresh(game, 230))
    assert solvers(game) == count and record_of(game, p) == solved


def test_update_refused_delete_creator_only(game: Game) -> None:
    sp = game.jig.suggested_params()
    approval = (ARTIFACTS / "Game.approval.bin").read_bytes()
    clear = (ARTIFACTS / "Game.clear.bin").read_bytes()
    update = transaction.ApplicationUpdateTxn(game.addr, sp, game.app_id, approval, clear, note=game.note())
    assert not game.run([update]).ok
    stranger = fresh(game, 207)
    delete = transaction.ApplicationDeleteTxn(stranger.addr, sp, game.app_id, note=game.note())
    result = game.run([delete], signers=[stranger])
    assert not result.ok
    assert arc56_error(result.error.pc, "game") == "Only the creator can delete the game."


def test_delete_refused_once_a_solve_is_recorded(game: Game) -> None:
    """A recorded solve's box holds its player's payment: the creator cannot delete the app."""
    p = fresh(game, 225)
    assert returned(game.run([game.pay(p.addr), game.solve_call(p)], signers=[p]), -1) == b"\x80"
    assert solvers(game) >= 1
    balance, solved = game.balance(), record_of(game, p)
    result = game.run([game.delete()])
    assert not result.ok
    assert arc56_error(result.error.pc, "game") == "solves are recorded: their boxes hold the players' payments"
    assert game.jig.has_app(game.app_id) and game.balance() == balance
    assert record_of(game, p) == solved


def test_delete_before_any_solve_returns_the_app_account(catalogue) -> None:
    """With no solve recorded the creator may delete the app: its account, with a plain transfer
    someone made to it, closes to the creator (one inner payment, paid by the delete's fee)."""
    g = deploy(catalogue)
    check_delete_before_any_solve(g, fresh(g, 226))


# --- budgets and fees -----------------------------------------------------------------------------


def test_solve_budget_and_fees(game: Game, record_property) -> None:
    """The play group is [payment, solve] with the solve paying 2 000: one inner opup from the
    fee credit (3 000 in fees, as before the payment rule ran in every method); a later call
    keeps its 700. [opup(), payment, solve] at 1 000 each no longer fits: the opup's own scan
    of the group (the payment rule) takes part of the 700 it brings."""
    probe_cost = 700 - probe_remaining(game.run([game.probe()]))
    [opup_cost] = game.measure([game.call(OPUP)])

    p = fresh(game, 209)
    short = game.run([game.pay(p.addr), game.solve_call(p, fee=2 * MIN_FEE - 1)], signers=[p])
    assert not short.ok and "fee too small" in short.error.message
    balance = game.balance()
    used = game.measure([game.pay(p.addr), game.solve_call(p, fee=2 * MIN_FEE), game.probe()], signers=[p])[1]
    result = game.run([game.pay(p.addr), game.solve_call(p, fee=2 * MIN_FEE), game.probe()], signers=[p])
    assert returned(result, 1) == b"\x80"
    assert result.txns[1].inner_app_calls == 1
    assert game.balance() == balance + BOX_MBR  # the inner opup is paid by the fee credit, not the app
    remaining = probe_remaining(result)
    record_property("solve_opcodes", used)
    print("solve opcodes", used, "opup", opup_cost, "left for the probe", remaining)
    assert remaining >= 700 - probe_cost
    assert used <= SOLVE_BUDGET_MAX
    record_property("solve_fee", {"payment": MIN_FEE, "app_calls": 2 * MIN_FEE, "box_mbr": BOX_MBR})

    q = fresh(game, 208)
    tight = game.run([game.call(OPUP), game.pay(q.addr), game.solve_call(q, fee=MIN_FEE)], signers=[q])
    assert not tight.ok and "fee too small" in tight.error.message

    # a read of one's puzzle (simulated by the client): alone, paying 2 000, it needs one inner
    # opup from the fee credit; with a probe after it, [puzzle paying 3 000, probe]
    q = PLAYERS_ALL[210]
    args = (q.key, game.leaves[q.index], game.tree.proof(q.index))
    alone = game.run([game.call(PUZZLE, *args, fee=2 * MIN_FEE)])
    assert alone.ok, alone.error
    assert alone.txns[0].inner_app_calls == 1
    result = game.run([game.call(PUZZLE, *args, fee=3 * MIN_FEE), game.probe()])
    assert result.ok, result.error
    assert probe_remaining(result) >= 700 - probe_cost
    puzzle_used = game.measure([game.call(PUZZLE, *args, fee=3 * MIN_FEE), game.probe()])[0]
    record_property("puzzle_opcodes", puzzle_used)
    print("puzzle opcodes", puzzle_used)
    assert puzzle_used <= PUZZLE_BUDGET_MAX


def test_sixteen_to_a_group(game: Game) -> None:
    """Five [opup, payment, solve(fee 3 000)] and a probe: 16 transactions; each call scans
    the whole group (the payment rule), so in a full group a solve buys inner opups from its
    fee; the probe keeps its 700. Then eight [payment, solve(fee 3 000)]."""
    players = [fresh(game, n) for n in range(211, 216)]
    txns = []
    for p in players:
        txns += [game.call(OPUP), game.pay(p.addr), game.solve_call(p, fee=3 * MIN_FEE)]
    probe_cost = 700 - probe_remaining(game.run([game.probe()]))
    result = game.run(txns + [game.probe()], signers=players)
    assert len(result.txns) == 16
    assert all(returned(result, 3 * j + 2) == b"\x80" for j in range(5))
    assert probe_remaining(result) >= 700 - probe_cost
    players = [fresh(game, n) for n in range(216, 224)]
    txns = []
    for p in players:
        txns += [game.pay(p.addr), game.solve_call(p, fee=3 * MIN_FEE)]
    result = game.run(txns, signers=players)
    assert all(returned(result, 2 * j + 1) == b"\x80" for j in range(8))
