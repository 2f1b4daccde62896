"""The evaluator bridge (scripts/algoku_jig.py) reports what went wrong in one short line."""

from __future__ import annotations

import base64
import contextlib
import hashlib
import random
import subprocess
import sys
from dataclasses import dataclass, field

import pytest
from algosdk import encoding, logic, transaction
from algosdk.account import generate_account
import algoku_jig
from conftest import GRID_TYPE, IS_VALID, MIN_FEE, OPUP, ROOT, Deployed, EvalResult, Jig, Signer, returned
from test_game import catalogue, fresh, game, record_of, solvers  # noqa: F401 (fixtures)


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
        refused = deployed.sign_eval([deployed.probe(note=b"one short")])
        assert not refused.ok
        assert f"below min {minimum}" in refused.error.message, refused.error.message
        jig.fund(addr, minimum + 1000)
        assert deployed.sign_eval([deployed.probe(note=b"exact")]).ok
        assert jig.balance(addr) == minimum
    finally:
        jig.fund(addr, before)


# --- the ledger keeps every state across groups ---------------------------------------------------
# A toy app for the random groups. Created bare; opt-in sets local k = 1; NoOp calls by first argument:
# count (global n += 1, last = sender), local V (local k += 1, v = V), pay R A [close] (inner payment
# of A from the app account to R, closing it to R with a 4th argument), call B (inner call of app B's
# count), box K V (box K := V), unbox K. Every other on-completion (close-out, clear, delete) approves.
TOY_TEAL = """#pragma version 10
txn ApplicationID
bz ok
txn OnCompletion
int OptIn
==
bnz opted
txn OnCompletion
int NoOp
!=
bnz ok
pushbytess "count" "local" "pay" "call" "box" "unbox"
txna ApplicationArgs 0
match count local pay call box unbox
err
unbox:
txna ApplicationArgs 1
box_del
pop
b ok
count:
pushbytes "n"
dup
app_global_get
int 1
+
app_global_put
pushbytes "last"
txn Sender
app_global_put
b ok
opted:
txn Sender
pushbytes "k"
int 1
app_local_put
b ok
local:
txn Sender
pushbytes "k"
txn Sender
pushbytes "k"
app_local_get
int 1
+
app_local_put
txn Sender
pushbytes "v"
txna ApplicationArgs 1
app_local_put
b ok
pay:
itxn_begin
int pay
itxn_field TypeEnum
txna ApplicationArgs 1
itxn_field Receiver
txna ApplicationArgs 2
btoi
itxn_field Amount
int 0
itxn_field Fee
txn NumAppArgs
int 4
==
bz submit
txna ApplicationArgs 1
itxn_field CloseRemainderTo
b submit
call:
itxn_begin
int appl
itxn_field TypeEnum
txna ApplicationArgs 1
btoi
itxn_field ApplicationID
pushbytes "count"
itxn_field ApplicationArgs
int 0
itxn_field Fee
submit:
itxn_submit
b ok
box:
txna ApplicationArgs 1
box_del
pop
txna ApplicationArgs 1
txna ApplicationArgs 2
box_put
ok:
int 1
"""
ADDRESS_BYTES = 32


@dataclass
class Model:
    """The state the blocks' deltas imply: each block's transactions, inner ones included, with
    their ApplyData (fees, amounts, closing amounts, created app ids, global and local deltas,
    opt-in, close-out, clear, delete). Boxes are not in a block: they come from the box calls of
    the groups that went through."""

    balances: dict[str, int]
    apps: set[int] = field(default_factory=set)
    globals: dict[int, dict] = field(default_factory=dict)
    locals: dict[tuple[str, int], dict] = field(default_factory=dict)
    boxes: dict[tuple[int, bytes], bytes] = field(default_factory=dict)

    def take(self, block: dict) -> None:
        for stib in block.get(b"txns", []):
            self.txn(stib[b"txn"], stib)

    def add(self, address: str, microalgos: int) -> None:
        self.balances[address] = self.balances.get(address, 0) + microalgos

    def txn(self, txn: dict, ad: dict) -> None:
        sender = encoding.encode_address(txn[b"snd"])
        self.add(sender, -txn.get(b"fee", 0))
        if txn[b"type"] == b"pay":
            self.add(sender, -txn.get(b"amt", 0))
            self.add(encoding.encode_address(txn[b"rcv"]), txn.get(b"amt", 0))
            if b"close" in txn:
                self.add(sender, -ad.get(b"ca", 0))
                self.add(encoding.encode_address(txn[b"close"]), ad.get(b"ca", 0))
        elif txn[b"type"] == b"appl":
            self.app_call(sender, txn, ad)

    def app_call(self, sender: str, txn: dict, ad: dict) -> None:
        app = txn.get(b"apid") or ad[b"apid"]
        if not txn.get(b"apid"):
            self.apps.add(app)
            self.globals[app] = {}
        on_completion = txn.get(b"apan", 0)
        if on_completion == transaction.OnComplete.OptInOC:
            self.locals[(sender, app)] = {}
        delta = ad.get(b"dt", {})
        apply_delta(self.globals[app], delta.get(b"gd", {}))
        accounts = [sender] + [encoding.encode_address(a) for a in txn.get(b"apat", []) + delta.get(b"sa", [])]
        for index, change in delta.get(b"ld", {}).items():
            apply_delta(self.locals[(accounts[index], app)], change)
        for inner in delta.get(b"itx", []):
            self.txn(inner[b"txn"], inner)
        if on_completion in (transaction.OnComplete.CloseOutOC, transaction.OnComplete.ClearStateOC):
            del self.locals[(sender, app)]
        if on_completion == transaction.OnComplete.DeleteApplicationOC:
            self.apps.remove(app)
            del self.globals[app]

    def view(self) -> tuple:
        return ({a: b for a, b in self.balances.items() if b}, {a: self.globals[a] for a in self.apps}, self.locals,
                self.boxes)


def apply_delta(state: dict, delta: dict) -> None:
    for key, change in delta.items():
        if change[b"at"] == 1:
            state[key] = change.get(b"bs", b"")
        elif change[b"at"] == 2:
            state[key] = change.get(b"ui", 0)
        else:
            del state[key]


def ledger_view(jig: Jig) -> tuple:
    """The wrapper's ledger in the model's shape."""
    ledger = jig.ledger
    balances = {a: acc["balances"][0][0] for a, acc in ledger.accounts.items() if acc["balances"][0][0]}
    states = {(a, app): dict(s) for a, acc in ledger.accounts.items() for app, s in acc["local_states"].items()}
    boxes = {(app, k): bytes(v) for app, kv in ledger.boxes.items() for k, v in kv.items()}
    return balances, {a: dict(ledger.global_states.get(a, {})) for a in ledger.apps}, states, boxes


def keypair(seed: int, n: int) -> Signer:
    from nacl.signing import SigningKey

    key = SigningKey(hashlib.sha256(b"algoku-jig-%d-%d" % (seed, n)).digest())
    pk = bytes(key.verify_key)
    return Signer(sk=base64.b64encode(bytes(key) + pk).decode(), addr=encoding.encode_address(pk))


class Scenario:
    """Seeded random groups on a fresh ledger: five players; toy apps X and Y, each created by a
    player of its own (so a call of X that calls Y leaves Y's creator out of the group); Z, a toy
    app player 2 creates and deletes along the way (no one opts into it: a deleted app's local
    states are dropped here, kept by algod)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.jig = Jig()
        self.jig.reserve_ids(1000)
        self.players = [keypair(seed, n) for n in range(5)]
        for p in self.players:
            self.jig.fund(p.addr)
        self.model = Model({a: acc["balances"][0][0] for a, acc in self.jig.ledger.accounts.items()})
        self.toy = Jig.compile(TOY_TEAL)
        self.serial = 0
        self.x = self.create(self.players[3])
        self.y = self.create(self.players[4])
        self.z: int | None = None
        self.run([self.pay(self.players[0], logic.get_application_address(self.x), 1_000_000),
                  self.pay(self.players[1], logic.get_application_address(self.y), 1_000_000)], [])

    def params(self, fee: int = MIN_FEE) -> transaction.SuggestedParams:
        sp = self.jig.suggested_params()
        sp.fee, sp.flat_fee = fee, True
        return sp

    def note(self) -> bytes:
        self.serial += 1
        return b"r%d" % self.serial

    def create(self, who: Signer) -> int:
        create = transaction.ApplicationCreateTxn(
            who.addr, self.params(), transaction.OnComplete.NoOpOC, self.toy, self.toy,
            transaction.StateSchema(1, 1), transaction.StateSchema(1, 1), note=self.note())
        result = self.run([create], [])
        assert result.ok, result.error
        return result.txns[0].app_id

    def pay(self, who: Signer, receiver: str, amount: int) -> transaction.Transaction:
        return transaction.PaymentTxn(who.addr, self.params(), receiver, amount, note=self.note())

    def call(self, who: Signer, app: int, args: list, fee: int = MIN_FEE, **kw) -> transaction.Transaction:
        on_complete = kw.pop("on_complete", transaction.OnComplete.NoOpOC)
        return transaction.ApplicationCallTxn(who.addr, self.params(fee), app, on_complete, app_args=args,
                                              note=self.note(), **kw)

    def run(self, txns: list, boxes: list) -> EvalResult:
        """Sign, evaluate; on success the model takes the block and the box effects."""
        if len(txns) > 1:
            transaction.assign_group_id(txns)
        keys = {p.addr: p.sk for p in self.players}
        result = self.jig.eval([t.sign(keys[t.sender]) for t in txns])
        if result.ok:
            self.model.take(result.block)
            for app, key, value in boxes:
                if value is None:
                    self.model.boxes.pop((app, key), None)
                else:
                    self.model.boxes[(app, key)] = value
        return result

    # --- one random transaction (and its box effect) -------------------------------------------
    def step(self) -> tuple[transaction.Transaction, tuple | None]:
        rng, p = self.rng, self.rng.choice(self.players)
        apps = [a for a in (self.x, self.y, self.z) if a]
        app, kind = rng.choice(apps), rng.randrange(11)
        if kind == 0:
            return self.pay(p, rng.choice(self.players).addr, rng.randrange(300_000)), None
        if kind == 1:
            return self.pay(p, logic.get_application_address(app), rng.randrange(50_000, 300_000)), None
        if kind == 2:
            return self.call(p, app, [b"count"]), None
        if kind == 3:
            other = rng.choice([a for a in apps if a != app])
            return self.call(p, app, [b"call", other.to_bytes(8, "big")], fee=2 * MIN_FEE, foreign_apps=[other]), None
        if kind == 4:
            return self.inner_payment(p, app), None
        if kind in (5, 6):
            key, value = rng.choice([b"a", b"bb", b"c" * 9]), rng.randbytes(rng.randrange(1, 24))
            args, effect = ([b"box", key, value], value) if kind == 5 else ([b"unbox", key], None)
            return self.call(p, app, args, boxes=[(0, key)]), (app, key, effect)
        return self.local_step(p, rng.choice([self.x, self.y])), None

    def inner_payment(self, p: Signer, app: int) -> transaction.Transaction:
        """The app pays a player (a foreign account) or another app's account (a foreign app)."""
        rng, others = self.rng, [a for a in (self.x, self.y, self.z) if a and a != app]
        close = [b"close"] if rng.random() < 0.1 else []
        amount = rng.randrange(60_000).to_bytes(8, "big")
        if rng.random() < 0.5:
            q = rng.choice(self.players).addr
            args, kw = [b"pay", encoding.decode_address(q), amount, *close], {"accounts": [q]}
        else:
            other = rng.choice(others)
            args = [b"pay", encoding.decode_address(logic.get_application_address(other)), amount, *close]
            kw = {"foreign_apps": [other]}
        return self.call(p, app, args, fee=2 * MIN_FEE, **kw)

    def local_step(self, p: Signer, app: int) -> transaction.Transaction:
        """Mostly what the player's state allows: opt in, else write, close out or clear."""
        oc, draw = transaction.OnComplete, self.rng.random()
        if ((p.addr, app) not in self.model.locals) == (draw < 0.8):
            return self.call(p, app, [], on_complete=oc.OptInOC)
        if draw < 0.9 or draw >= 0.8 and (p.addr, app) in self.model.locals and self.rng.random() < 0.6:
            return self.call(p, app, [b"local", self.rng.randbytes(5)])
        return self.call(p, app, [], on_complete=self.rng.choice([oc.CloseOutOC, oc.ClearStateOC]))

    def group(self) -> EvalResult:
        """A random group of 1 to 4 transactions, or Z's creation or deletion."""
        if self.rng.random() < 0.08:
            if self.z is None:
                self.z = self.create(self.players[2])
                return EvalResult(ok=True)
            delete = transaction.ApplicationDeleteTxn(self.players[2].addr, self.params(), self.z, note=self.note())
            result = self.run([delete], [])
            if result.ok:
                self.z = None
            return result
        steps = [self.step() for _ in range(self.rng.randrange(1, 5))]
        return self.run([t for t, _ in steps], [effect for _, effect in steps if effect])


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_groups_keep_every_state(seed: int) -> None:
    """After every group (accepted or refused) the wrapper's ledger is the state the blocks imply:
    every balance (app accounts moved only by inner payments included), every app's global and
    local state, every box, the apps that exist."""
    s = Scenario(seed)
    assert ledger_view(s.jig) == s.model.view()
    accepted = 0
    for n in range(40):
        result = s.group()
        accepted += result.ok
        assert ledger_view(s.jig) == s.model.view(), f"seed {seed}, group {n}"
    assert accepted >= 15  # most groups go through: the comparison is not only of refusals


def test_an_unrelated_payment_keeps_the_games_solver_count(game) -> None:
    """A payment between two players (the Game's creator not in the group) leaves the Game's
    solver count alone: the next solver gets the next rank."""
    first, a, b, second = (fresh(game, n) for n in (240, 241, 242, 243))
    count = solvers(game)

    def solve(p) -> None:
        assert returned(game.run([game.call(OPUP), game.pay(p.addr), game.solve_call(p)], [p]), -1) == b"\x80"

    solve(first)
    assert record_of(game, first)[2] == count + 1
    assert game.run([game.pay(a.addr, 1_000, receiver=b.addr)], [a]).ok
    solve(second)
    assert record_of(game, second)[2] == count + 2
    assert solvers(game) == count + 2


def test_a_held_lock_is_said_at_once_and_given_up_after_its_limit() -> None:
    """Other processes holding every slot of the evaluator: one line on stderr, then an error,
    never a silent wait."""
    waiter = ("import sys; sys.path.insert(0, 'scripts'); import algoku_jig\n"
              "try:\n"
              "    with algoku_jig.evaluator_lock(limit=0.5): pass\n"
              "except algoku_jig.EvaluatorStuck as e:\n"
              "    print(e); sys.exit(3)\n")
    slots = algoku_jig.slot_count()
    with contextlib.ExitStack() as held:
        taken = {held.enter_context(algoku_jig.evaluator_lock()).number for _ in range(slots)}
        done = subprocess.run([sys.executable, "-c", waiter], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert taken == set(range(slots))
    assert done.returncode == 3, done.stderr
    locks = " ".join(["/tmp/jig.lock", *(f"/tmp/jg{k}.lock" for k in range(1, slots))])
    who = "another process holds" if slots == 1 else f"other processes hold all {slots} ("
    assert done.stderr.startswith(f"waiting for the evaluator: {who}"), done.stderr
    assert locks in done.stderr and f"for 0 s; is one stuck? (`fuser {locks}` names it)" in done.stdout, done.stdout


def test_an_evaluation_takes_a_free_slot_while_another_is_held(monkeypatch) -> None:
    """One slot held by this process: an evaluation runs at once in another slot, with the
    binary and the directory of that slot, and gives the same block as slot 0 would."""
    if algoku_jig.slot_count() < 2:
        pytest.skip("one evaluator slot on this machine (ALGOKU_JIG_SLOTS)")
    used = []
    run = algoku_jig.run_evaluator
    monkeypatch.setattr(algoku_jig, "run_evaluator", lambda slot, *c: used.append(slot) or run(slot, *c))
    jig = Jig()
    sk, addr = generate_account()
    jig.fund(addr)
    pay = transaction.PaymentTxn(addr, jig.suggested_params(), addr, 0, note=b"slot")
    with algoku_jig.evaluator_lock() as held:
        result = jig.eval([pay.sign(sk)])
    assert result.ok, result.error
    assert used[-1].number != held.number and used[-1].dir != held.dir
    assert (used[-1].number == 0) == (used[-1].binary() == algoku_jig.Slot(0).binary())
    assert jig.balance(addr) == algoku_jig.DEFAULT_BALANCE - MIN_FEE


def test_an_evaluation_past_its_limit_is_an_error(monkeypatch) -> None:
    jig = Jig()
    jig.eval([])  # the evaluator's fresh databases are made once a process, before the limit shrinks
    monkeypatch.setattr(algoku_jig, "EVAL_LIMIT", 0.001)
    with pytest.raises(algoku_jig.EvaluatorStuck, match="did not finish `eval` within"):
        jig.eval([])
