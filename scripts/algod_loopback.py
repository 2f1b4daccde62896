"""A loopback algod for the web page's tests: the algod REST calls the page
makes, answered by go-algorand's evaluator (scripts/algoku_jig.py's `Jig`).

The page runs its real algod code path (algosdk and algokit-utils, the typed
clients) against this server; only the node behind it differs. It listens on
127.0.0.1 (a free port, printed on the first line of stdout) and serves:

* GET  /v2/transactions/params, /v2/status, /v2/status/wait-for-block-after/N
* POST /v2/transactions: the signed group as algod takes it, evaluated and kept
  (a failing group answers 400 with the evaluator's message, as algod does);
* GET  /v2/transactions/pending/TXID: the confirmed transaction with its logs;
* GET  /v2/applications/ID: the app's creator and programs (404 when none), as
  the page checks an app id before it believes its answers;
* POST /v2/transactions/simulate: like algod's simulate with empty
  signatures allowed. The evaluator checks signatures, so for the dry run
  every sender is rekeyed (in this dry evaluation only) to a key this server
  holds, which signs; the opcodes come from the probe app's reporter appended
  to the group: it logs the pooled budget left, so consumed = pooled budget
  (700 per app call, the inner ones included) - left - the reporter's own cost
  before it reads (calibrated once on its own).
* GET /setup (not algod): the ids of the Game and Algoku apps deployed at
  start, and a funded test-only account (address and mnemonic) the tests sign
  with.

Usage: python scripts/algod_loopback.py (Ctrl-C or closing stdin stops it).
"""

from __future__ import annotations

import base64
import json
import sys
import threading
import warnings
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any

import msgpack
from algosdk import account, encoding, mnemonic, transaction

sys.path.insert(0, str(Path(__file__).resolve().parent))
from algoku_jig import Jig  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
# algosdk's Transaction.sign is deprecated in favour of signers; it is what the tests use too.
warnings.filterwarnings("ignore", category=DeprecationWarning)
ARTIFACTS = ROOT / "smart_contracts" / "artifacts"
APP_BUDGET = 700


class Chain:
    """The evaluator's ledger, the apps and accounts of a test, the kept results."""

    def __init__(self) -> None:
        self.jig = Jig()
        self.jig.reserve_ids(1000)
        self.sim_sk, self.sim_addr = account.generate_account()
        self.jig.fund(self.sim_addr)
        self.test_sk, self.test_addr = account.generate_account()
        self.jig.fund(self.test_addr)
        self.probe = self.jig.ensure_probe()
        self.game_app = self.deploy("game/Game", global_ints=1)
        self.algoku_app = self.deploy("algoku/Algoku", global_ints=0)
        app_addr = encoding.encode_address(encoding.checksum(b"appID" + self.game_app.to_bytes(8, "big")))
        pay = transaction.PaymentTxn(self.test_addr, self.jig.suggested_params(), app_addr, 100_000)
        assert self.jig.eval([pay.sign(self.test_sk)]).ok  # the app account's own minimum balance
        self.round = 1
        self.pending: dict[str, dict[str, Any]] = {}
        self.reporter_cost = APP_BUDGET - self._left([])

    def deploy(self, name: str, global_ints: int) -> int:
        approval = (ARTIFACTS / f"{name}.approval.bin").read_bytes()
        clear = (ARTIFACTS / f"{name}.clear.bin").read_bytes()
        create = transaction.ApplicationCreateTxn(
            self.test_addr, self.jig.suggested_params(), transaction.OnComplete.NoOpOC, approval, clear,
            transaction.StateSchema(global_ints, 0), transaction.StateSchema(0, 0),
            extra_pages=(len(approval) + len(clear) - 1) // 2048,
        )
        result = self.jig.eval([create.sign(self.test_sk)])
        assert result.ok, result.error
        return int(result.txns[0].app_id)

    def params(self) -> dict[str, Any]:
        p = self.jig.params_json()
        return {"consensus-version": "future", "fee": 0, "genesis-hash": p["genesis_hash"],
                "genesis-id": p["genesis_id"], "last-round": p["first_valid"], "min-fee": p["min_fee"]}

    def status(self) -> dict[str, Any]:
        return {"last-round": self.round, "time-since-last-round": 0, "catchup-time": 0,
                "last-version": "future", "next-version": "future", "next-version-round": self.round + 1,
                "next-version-supported": True, "stopped-at-unsupported-round": False}

    # --- sending ---------------------------------------------------------------------------
    def send(self, body: bytes) -> tuple[int, dict[str, Any]]:
        unpacker = msgpack.Unpacker(raw=False, strict_map_key=False)
        unpacker.feed(body)
        maps = list(unpacker)
        ids = [txid(m) for m in maps]
        result = self.jig.eval_bytes(body)
        if not result.ok:
            return 400, {"message": f"TransactionPool.Remember: {with_pc(result.error)}"}
        self.round = max(self.round, int(result.round or self.round))
        for m, i, t in zip(maps, ids, result.txns):
            self.pending[i] = {"txn": m, "pool-error": "", "confirmed-round": self.round, "logs": list(t.logs)}
            if t.app_id and m["txn"].get("apid") is None:
                self.pending[i]["application-index"] = int(t.app_id)
        return 200, {"txId": ids[0]}

    # --- simulation ------------------------------------------------------------------------
    def _left(self, stxns: list[transaction.SignedTransaction]) -> int:
        """The pooled budget the reporter finds left after `stxns` (evaluated dry)."""
        result, _ = self._dry(stxns)
        if not result.ok:
            raise RuntimeError(result.error.message)
        return int.from_bytes(result.txns[-1].logs[-1], "big")

    def _reporter(self) -> transaction.Transaction:
        return transaction.ApplicationNoOpTxn(self.sim_addr, self.jig.suggested_params(), self.probe, note=b"report")

    def _dry(self, stxns: list[transaction.SignedTransaction]):
        txns = [s.transaction for s in stxns] + [self._reporter()]
        for t in txns:
            t.group = None
        transaction.assign_group_id(txns)
        signed = [t.sign(self.sim_sk) for t in txns]
        for s, t in zip(signed, txns):
            if t.sender != self.sim_addr:
                s.authorizing_address = self.sim_addr
        wire = b"".join(base64.b64decode(encoding.msgpack_encode(s)) for s in signed)
        return self.jig.eval_bytes(wire, dry=True), signed

    def simulate(self, request: dict[str, Any]) -> dict[str, Any]:
        groups = []
        for group in request.get("txn-groups", []):
            maps = group.get("txns", [])
            stxns = [transaction.SignedTransaction.undictify(m) if "txn" in m else None for m in maps]
            groups.append(self._simulate_group(maps, [s for s in stxns if s is not None]))
        return {"version": 2, "last-round": self.round, "txn-groups": groups,
                "eval-overrides": {"allow-empty-signatures": True, "allow-unnamed-resources": True}}

    def _simulate_group(self, maps: list[dict], stxns: list[transaction.SignedTransaction]) -> dict[str, Any]:
        senders = {s.transaction.sender for s in stxns}
        saved = {a: self.jig.ledger.accounts[a].get("auth_addr") for a in senders if a in self.jig.ledger.accounts}
        try:
            for a in saved:
                self.jig.ledger.accounts[a]["auth_addr"] = self.sim_addr
            result, signed = self._dry(stxns)
        finally:
            for a, old in saved.items():
                if old is None:
                    self.jig.ledger.accounts[a].pop("auth_addr", None)
                else:
                    self.jig.ledger.accounts[a]["auth_addr"] = old
        out: dict[str, Any] = {"txn-results": []}
        if not result.ok:
            ids = [s.get_txid() for s in signed]
            at = ids.index(result.error.txid) if result.error.txid in ids else 0
            out["failure-message"] = with_pc(result.error)
            out["failed-at"] = [at]
            out["txn-results"] = [{"txn-result": {"txn": m, "pool-error": ""}} for m in maps]
            return out
        apps = sum(1 for s in signed if s.transaction.type == "appl")
        inner = sum(t.inner_app_calls for t in result.txns)
        pooled = APP_BUDGET * (apps + inner)
        left = int.from_bytes(result.txns[-1].logs[-1], "big")
        out["app-budget-added"] = pooled - APP_BUDGET
        out["app-budget-consumed"] = pooled - left - self.reporter_cost
        out["txn-results"] = [
            {"txn-result": {"txn": m, "pool-error": "", "logs": list(t.logs)}} for m, t in zip(maps, result.txns)
        ]
        return out

    def application(self, raw_id: str) -> tuple[int, dict[str, Any]]:
        app_id = int(raw_id) if raw_id.isdigit() else -1
        found = self.jig.app_json(app_id)
        if not found["exists"]:
            return 404, {"message": "application does not exist"}
        return 200, {"id": app_id, "params": {
            "creator": found["creator"], "approval-program": found["approval"], "clear-state-program": found["clear"]}}

    def setup(self) -> dict[str, Any]:
        return {"game_app": self.game_app, "algoku_app": self.algoku_app, "address": self.test_addr,
                "mnemonic": mnemonic.from_private_key(self.test_sk)}


def with_pc(error: Any) -> str:
    """The evaluator's message with the program counter, as algod words it (the page maps it to the ARC-56 error)."""
    if error.pc is not None and "pc=" not in error.message:
        return f"{error.message} pc={error.pc}"
    return error.message


def txid(signed_map: dict[str, Any]) -> str:
    packed = msgpack.packb(signed_map, use_bin_type=True)
    return transaction.SignedTransaction.undictify(msgpack.unpackb(packed, raw=False, strict_map_key=False)).get_txid()


def handler(chain: Chain) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, fmt: str, *args: Any) -> None:
            sys.stderr.write("loopback algod: " + fmt % args + "\n")

        def _send(self, code: int, body: Any, pack: bool = False) -> None:
            data = msgpack.packb(body, use_bin_type=True) if pack else json.dumps(body).encode()
            self.send_response(code)
            self.send_header("Content-Type", "application/msgpack" if pack else "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Access-Control-Allow-Origin", "*")
            self.end_headers()
            self.wfile.write(data)

        def do_OPTIONS(self) -> None:  # CORS preflight (the page is on another port)
            self.send_response(204)
            self.send_header("Access-Control-Allow-Origin", "*")
            self.send_header("Access-Control-Allow-Methods", "GET, POST, OPTIONS")
            self.send_header("Access-Control-Allow-Headers", "*")
            self.send_header("Access-Control-Max-Age", "600")
            self.end_headers()

        def _wants_msgpack(self) -> bool:
            return "format=msgpack" in self.path

        def do_GET(self) -> None:
            path = self.path.split("?")[0]
            try:
                if path == "/setup":
                    return self._send(200, chain.setup())
                if path == "/v2/transactions/params":
                    return self._send(200, chain.params())
                if path == "/v2/status" or path.startswith("/v2/status/wait-for-block-after/"):
                    return self._send(200, chain.status())
                if path.startswith("/v2/transactions/pending/"):
                    found = chain.pending.get(path.rsplit("/", 1)[1])
                    if found is None:
                        return self._send(404, {"message": "txn does not exist"})
                    if self._wants_msgpack():
                        return self._send(200, found, pack=True)
                    return self._send(200, jsonable(found))
                if path.startswith("/v2/applications/"):
                    code, answer = chain.application(path.rsplit("/", 1)[1])
                    return self._send(code, answer)
                if path == "/health":
                    return self._send(200, {})
                self._send(404, {"message": f"not served here: {path}"})
            except Exception as exc:  # a test server: say what broke, keep serving
                self._send(500, {"message": f"{type(exc).__name__}: {exc}"})

        def do_POST(self) -> None:
            path = self.path.split("?")[0]
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            try:
                if path == "/v2/transactions":
                    code, answer = chain.send(body)
                    return self._send(code, answer)
                if path == "/v2/transactions/simulate":
                    if "json" in (self.headers.get("Content-Type") or ""):
                        return self._send(400, {"message": "send simulate requests as msgpack"})
                    request = msgpack.unpackb(body, raw=False, strict_map_key=False)
                    answer = chain.simulate(request)
                    return self._send(200, answer, pack=True)
                self._send(404, {"message": f"not served here: {path}"})
            except Exception as exc:
                self._send(500, {"message": f"{type(exc).__name__}: {exc}"})

    return Handler


def jsonable(x: Any) -> Any:
    if isinstance(x, bytes):
        return base64.b64encode(x).decode()
    if isinstance(x, dict):
        return {k: jsonable(v) for k, v in x.items()}
    if isinstance(x, list):
        return [jsonable(v) for v in x]
    return x


def main() -> int:
    chain = Chain()
    server = HTTPServer(("127.0.0.1", 0), handler(chain))
    print(f"listening on http://127.0.0.1:{server.server_address[1]}", flush=True)
    # Closing stdin (the test's end) stops the server.
    threading.Thread(target=lambda: (sys.stdin.read(), server.shutdown()), daemon=True).start()
    server.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main())
