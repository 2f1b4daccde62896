"""What every contract test shares: go-algorand's evaluator, an app deployed on it from
the committed artifacts, its calls and the reading of their results; and Algoku's
fixture (the verifier deployed once for the whole run) with its methods and grids."""

from __future__ import annotations

import base64
import hashlib
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from algosdk import abi, encoding, logic, transaction
from algosdk.account import generate_account

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS_ROOT = ROOT / "smart_contracts" / "artifacts"
ARTIFACTS = ARTIFACTS_ROOT / "algoku"
sys.path.insert(0, str(ROOT / "scripts"))

import avm_budget  # noqa: E402
from algoku_jig import MIN_FEE, EvalResult, Jig  # noqa: E402

OPUP = abi.Method.from_signature("opup()void")  # every app has it
RETURN_PREFIX = bytes.fromhex("151f7c75")  # the log of an ABI return value
# What both games answer alike (smart_contracts/common.py): the solver count, a player's
# address argument and the ARC-28 event of a repeated solve.
SOLVERS = abi.Method.from_signature("solvers()uint64")
ADDRESS = abi.ABIType.from_string("address")
ALREADY_EVENT = hashlib.new("sha512_256", b"AlreadySolved(uint64)").digest()[:4]
WITHDRAW = abi.Method.from_signature("withdraw()uint64")
# The games' payment rule (smart_contracts/common.py), one message each.
PAY_BEFORE_SOLVE = "a payment to the app must come just before its solve call"
NO_CLOSE_TO_APP = "no payment may close its account to the app"


# --- any app on the evaluator ----------------------------------------------------------------
@dataclass
class Signer:
    """An account that signs its own transactions (a game's player, a sponsor)."""

    sk: str
    addr: str

    @property
    def key(self) -> bytes:
        """The 32-byte public key: the player's box name."""
        return encoding.decode_address(self.addr)


@dataclass
class App:
    """An app created from smart_contracts/artifacts/<contract>/ on its own fresh ledger,
    and the funded account that created it. Each transaction gets its own note."""

    jig: Jig
    app_id: int
    sk: str
    addr: str
    contract: str = "algoku"
    serial: int = field(default=0, init=False)
    # what `pay` sends when no amount is given (a game's box payment)
    default_payment = 0

    @property
    def app_addr(self) -> str:
        return logic.get_application_address(self.app_id)

    def note(self) -> bytes:
        self.serial += 1
        return b"n%d" % self.serial

    def call(self, method: abi.Method, *args: bytes, fee: int = MIN_FEE, sender: str | None = None,
             boxes: list | None = None) -> transaction.Transaction:
        """A call of `method` with already encoded arguments, paying `fee`."""
        sp = self.jig.suggested_params()
        sp.fee, sp.flat_fee = fee, True
        return transaction.ApplicationNoOpTxn(sender or self.addr, sp, self.app_id, [method.get_selector(), *args],
                                              boxes=boxes, note=self.note())

    def pay(self, sender: str | None = None, amount: int | None = None, receiver: str | None = None,
            close: str | None = None) -> transaction.Transaction:
        """A payment to the app account (or `receiver`), `default_payment` unless `amount`."""
        return transaction.PaymentTxn(sender or self.addr, self.jig.suggested_params(), receiver or self.app_addr,
                                      self.default_payment if amount is None else amount, close_remainder_to=close,
                                      note=self.note())

    def probe(self, burn_to: int | None = None, note: bytes | None = None) -> transaction.Transaction:
        """The probe app: logs the pool's remainder; with `burn_to`, first burns the pool down to it."""
        args = [] if burn_to is None else [burn_to.to_bytes(8, "big")]
        return transaction.ApplicationNoOpTxn(self.addr, self.jig.suggested_params(), self.jig.ensure_probe(), args,
                                              note=self.note() if note is None else note)

    def delete(self, fee: int = 2 * MIN_FEE) -> transaction.Transaction:
        """The creator's delete call (2 000 by default: a game's delete makes an inner payment)."""
        sp = self.jig.suggested_params()
        sp.fee, sp.flat_fee = fee, True
        return transaction.ApplicationDeleteTxn(self.addr, sp, self.app_id, note=self.note())

    def balance(self) -> int:
        """The app account's balance."""
        return self.jig.balance(self.app_addr)

    def run(self, txns: list, signers: list[Signer] = ()) -> EvalResult:
        """Group (if more than one), sign (the creator, or any of `signers`) and evaluate."""
        if len(txns) > 1:
            transaction.assign_group_id(txns)
        return self.sign_eval(txns, signers)

    def measure(self, txns: list, signers: list[Signer] = ()) -> list[int | None]:
        """Each transaction's opcodes (`None` for one that is no app call), as algod's
        simulate reports them: group, sign and dry-run `txns` with every program reporting
        (`avm_budget.Meter`, the local node's own measurement). Nothing is committed."""
        for t in txns:
            t.group = None  # (re)grouped here, whoever grouped them before
        if len(txns) > 1:
            transaction.assign_group_id(txns)
        keys = {self.addr: self.sk, **{s.addr: s.sk for s in signers}}
        wire = b"".join(base64.b64decode(encoding.msgpack_encode(t.sign(keys[t.sender]))) for t in txns)
        meter = self.jig.__dict__.setdefault("meter", avm_budget.Meter(self.jig))
        measured = meter.run(wire, [t.type == transaction.constants.APPCALL_TXN for t in txns])
        assert measured.result.ok, measured.result.error
        assert measured.costs is not None, "a program could not be measured"
        return measured.costs

    def sign_eval(self, txns: list, signers: list[Signer] = ()) -> EvalResult:
        keys = {self.addr: self.sk, **{s.addr: s.sk for s in signers}}
        return self.jig.eval([t.sign(keys[t.sender]) for t in txns])


def create_app[A: App](cls: type[A], contract: str, global_ints: int = 0, apps_from_1000: bool = False) -> A:
    """`contract` (its artifacts folder) created by a new funded account on a fresh ledger.
    `apps_from_1000`: a placeholder asset first moves new app ids to 1000+, as on a real
    network (go-algorand refuses global-state lookups of app ids below 256)."""
    jig = Jig()
    if apps_from_1000:
        jig.ledger.create_asset(999)
    sk, addr = generate_account()
    jig.fund(addr)
    name = contract.capitalize()
    approval = (ARTIFACTS_ROOT / contract / f"{name}.approval.bin").read_bytes()
    clear = (ARTIFACTS_ROOT / contract / f"{name}.clear.bin").read_bytes()
    create = transaction.ApplicationCreateTxn(
        addr, jig.suggested_params(), transaction.OnComplete.NoOpOC, approval, clear,
        transaction.StateSchema(global_ints, 0), transaction.StateSchema(0, 0),
        extra_pages=(len(approval) + len(clear) - 1) // 2048,
    )
    result = jig.eval([create.sign(sk)])
    assert result.ok, result.error
    app_id = result.txns[0].app_id
    assert app_id
    return cls(jig=jig, app_id=app_id, sk=sk, addr=addr, contract=contract)


def check_delete_before_any_solve(app: App, stray: Signer) -> None:
    """A game's delete with no solve recorded: the app account, holding its own 100 000 and
    a plain transfer from `stray`, closes to the creator (one inner payment, paid by the
    delete's fee of 2 000; 1 000 is too small) and the app is gone."""
    assert app.run([app.pay(stray.addr, 5_000)], signers=[stray]).ok
    creator, app_balance = app.jig.balance(app.addr), app.balance()
    assert app_balance == 105_000
    short = app.run([app.delete(fee=MIN_FEE)])
    assert not short.ok and "fee too small" in short.error.message
    result = app.run([app.delete()])
    assert result.ok, result.error
    assert result.txns[0].inner_txns == 1
    assert not app.jig.has_app(app.app_id)
    assert app.balance() == 0
    assert app.jig.balance(app.addr) == creator - 2 * MIN_FEE + app_balance


def returned(result: EvalResult, index: int = -1) -> bytes:
    """The ABI value returned by the call at `index` (its last log, prefix 151f7c75)."""
    assert result.ok, result.error
    logs = result.txns[index].logs
    assert logs and logs[-1][:4] == RETURN_PREFIX, logs
    return logs[-1][4:]


def probe_remaining(result: EvalResult, index: int = -1) -> int:
    """What the probe app at `index` logged: the pool's remainder when it ran."""
    assert result.ok, result.error
    return int.from_bytes(result.txns[index].logs[-1], "big")


def arc56_error(pc: int | None, contract: str = "algoku") -> str | None:
    """The error message the contract's ARC-56 spec gives for program counter `pc`."""
    spec = json.loads((ARTIFACTS_ROOT / contract / f"{contract.capitalize()}.arc56.json").read_text())
    for entry in spec["sourceInfo"]["approval"]["sourceInfo"]:
        if pc in entry["pc"] and "errorMessage" in entry:
            return entry["errorMessage"]
    return None


# --- Algoku, the verifier ----------------------------------------------------------------------
GRID_TYPE = abi.ABIType.from_string("byte[]")
IS_VALID = abi.Method.from_signature("is_valid_solution(byte[])bool")
IS_VALID_LANES = abi.Method.from_signature("is_valid_solution_lanes(byte[])bool")
IS_SOLUTION_OF = abi.Method.from_signature("is_solution_of(byte[],byte[])bool")
ARE_VALID = abi.Method.from_signature("are_valid_solutions(byte[])uint64")
# Solved grids, one digit a character (the original Algoku tests' grids).
VALID = [
    "953168742862734951417952836746893125281645397395271468138529674574386219629417583",
    "256734198891265374347198652514683729728519436963427581135942867689371245472856913",
    "964532178187694235235817964629451783573986412841273596416728359352169847798345621",
    "123675948456982371789314562964157283517238496832496157271849635395761824648523719",
    "123745689456819237789263514897452361632198745541637928315924876274586193968371452",
]


def grid_bytes(digits: str) -> bytes:
    """81 digits -> 81 bytes, one digit a byte."""
    return bytes(int(c) for c in digits)


class Deployed(App):
    """Algoku, the verifier: its byte[] calls and the padded is_valid_solution group."""

    def call_group(self, grid: bytes, fee: int = 3 * MIN_FEE, padding: int = 0, probe: bool = False) -> list:
        """[opup() x padding, is_valid_solution(grid) paying `fee`, probe?], grouped."""
        txns = [self.call(OPUP) for _ in range(padding)]
        txns.append(self.app_call(IS_VALID, grid, fee=fee))
        if probe:
            txns.append(self.probe())
        if len(txns) > 1:
            transaction.assign_group_id(txns)
        return txns

    def app_call(self, method: abi.Method, *args: bytes, fee: int = MIN_FEE, note: bytes = b"") -> transaction.Transaction:
        """One ABI call of `method` with byte[] arguments, paying `fee`."""
        sp = self.jig.suggested_params()
        sp.fee, sp.flat_fee = fee, True
        app_args = [method.get_selector(), *(GRID_TYPE.encode(a) for a in args)]
        return transaction.ApplicationNoOpTxn(self.addr, sp, self.app_id, app_args, note=note)

    def verify(self, grid: bytes, **kw) -> EvalResult:
        return self.sign_eval(self.call_group(grid, **kw))


def verdict(result: EvalResult, index: int = -1) -> bool:
    """The ABI bool returned by the call at `index`."""
    return returned(result, index) == b"\x80"


@pytest.fixture(scope="session")
def deployed() -> Deployed:
    return create_app(Deployed, "algoku")


def check_no_method_but_solve_keeps_a_payment(app: App, calls: dict, payer: Signer) -> None:
    """A game's payment rule, method by method: a payment to the app account beside any call
    but `solve` (before it, after it, or closing its account into the app) fails the whole
    group; nothing moves. `calls` maps a method's name to a function making its call."""
    before = app.balance()
    for name, make in calls.items():
        for txns, closing in (([app.pay(payer.addr), make()], False), ([make(), app.pay(payer.addr)], False),
                              ([make(), app.pay(payer.addr, 0, receiver=payer.addr, close=app.app_addr)], True)):
            result = app.run(txns, signers=[payer])
            assert not result.ok, name
            message = NO_CLOSE_TO_APP if closing else PAY_BEFORE_SOLVE
            assert arc56_error(result.error.pc, app.contract) == message, (name, result.error.raw)
            assert app.balance() == before, name
        assert app.run([make()]).ok, name  # the same call alone is fine


def check_withdraw(app: App, stranger: Signer) -> None:
    """The creator takes back what the app account holds above its minimum balance (a plain
    transfer, with no app call: the program cannot refuse it), and nothing below it: the
    boxes' minimum balance stays. Only the creator; the call pays 2 000 for its inner payment."""
    assert app.run([app.pay(stranger.addr, 7_000)], signers=[stranger]).ok  # a plain transfer
    refused = app.run([app.call(WITHDRAW, sender=stranger.addr, fee=2 * MIN_FEE)], signers=[stranger])
    assert not refused.ok and arc56_error(refused.error.pc, app.contract) == "only the creator can withdraw"
    short = app.run([app.call(WITHDRAW, fee=MIN_FEE)])
    assert not short.ok and "fee too small" in short.error.message
    creator, held = app.jig.balance(app.addr), app.balance()
    result = app.run([app.call(WITHDRAW, fee=2 * MIN_FEE)])
    assert result.ok, result.error
    amount = int.from_bytes(returned(result, 0), "big")
    assert amount >= 7_000 and result.txns[0].inner_txns == 1
    assert app.balance() == held - amount
    assert app.jig.balance(app.addr) == creator - 2 * MIN_FEE + amount
    # nothing above the minimum balance is left: a second withdrawal takes 0, with no inner payment
    again = app.run([app.call(WITHDRAW, fee=2 * MIN_FEE)])
    assert int.from_bytes(returned(again, 0), "big") == 0 and again.txns[0].inner_txns == 0
    assert app.balance() == held - amount
