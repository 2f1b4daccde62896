"""The web page's test node: the local node (scripts/algoku_node.py) with the
Game and Algoku apps deployed at start, and `GET /setup` (not algod) naming
them and the funded account the tests sign with (KMD's dispenser, play money).

The page runs its real algod code path (algosdk and algokit-utils, the typed
clients) against it; only the node behind algod's API differs from LocalNet.
It listens on 127.0.0.1, prints `listening on URL` (a free port), and stops
when its standard input closes (the test's end) or on Ctrl-C.

Usage: python scripts/algod_loopback.py
"""

from __future__ import annotations

import base64
import sys
import threading
from pathlib import Path
from typing import Any

from algosdk import encoding, mnemonic, transaction

sys.path.insert(0, str(Path(__file__).resolve().parent))
import algoku_node  # noqa: E402

ARTIFACTS = Path(__file__).resolve().parent.parent / "smart_contracts" / "artifacts"


class Loopback(algoku_node.Node):
    """The node, with the page's three apps deployed by the dispenser."""

    def __init__(self) -> None:
        super().__init__()
        self.game_app = self.deploy("game/Game", global_ints=1)
        self.algoku_app = self.deploy("algoku/Algoku", global_ints=0)
        self.curta_app = self.deploy("curta/Curta", global_ints=1)
        # The games' app accounts' own minimum balance, as their deployer would pay it.
        for app in (self.game_app, self.curta_app):
            account = encoding.encode_address(encoding.checksum(b"appID" + app.to_bytes(8, "big")))
            self.submit(transaction.PaymentTxn(self.dispenser, self.jig.suggested_params(), account, 100_000))

    def submit(self, txn: transaction.Transaction) -> dict[str, Any]:
        txn.genesis_id, txn.first_valid_round, txn.last_valid_round = self.genesis_id, self.round, self.round + 1000
        signed = txn.sign(self.dispenser_sk)
        with self.lock:
            self.send(base64.b64decode(encoding.msgpack_encode(signed)))
        return self.pending[signed.get_txid()]

    def deploy(self, name: str, global_ints: int) -> int:
        approval = (ARTIFACTS / f"{name}.approval.bin").read_bytes()
        clear = (ARTIFACTS / f"{name}.clear.bin").read_bytes()
        create = transaction.ApplicationCreateTxn(
            self.dispenser, self.jig.suggested_params(), transaction.OnComplete.NoOpOC, approval, clear,
            transaction.StateSchema(global_ints, 0), transaction.StateSchema(0, 0),
            extra_pages=(len(approval) + len(clear) - 1) // 2048)
        return int(self.submit(create)["application-index"])

    def setup(self) -> dict[str, Any]:
        return {"game_app": self.game_app, "algoku_app": self.algoku_app, "curta_app": self.curta_app,
                "address": self.dispenser, "kmd": getattr(self, "kmd_url", None),
                "mnemonic": mnemonic.from_private_key(self.dispenser_sk)}


class Routes(algoku_node.AlgodRoutes):
    open_paths = (*algoku_node.AlgodRoutes.open_paths, "/setup")
    # The page's tests also point TestNet and MainNet pages (no token) at it; a wrong token is still refused.
    token_required = False

    def route(self, method: str, path: str, query: dict, body: bytes) -> tuple[int, Any, bool]:
        if method == "GET" and path == "/setup":
            return 200, self.node.setup(), False  # type: ignore[attr-defined]
        return super().route(method, path, query, body)


def main() -> int:
    node = Loopback()
    server = algoku_node.listen(Routes, node, 0)
    # KMD too, on a port of its own: the page's KMD wallet connects to it (its URL is in /setup).
    kmd = algoku_node.listen(algoku_node.KmdRoutes, node, 0)
    node.kmd_url = f"http://127.0.0.1:{kmd.server_address[1]}"
    threading.Thread(target=kmd.serve_forever, daemon=True).start()
    print(f"listening on http://127.0.0.1:{server.server_address[1]}", flush=True)
    threading.Thread(target=lambda: (sys.stdin.read(), server.shutdown()), daemon=True).start()
    return algoku_node.serve(server)


if __name__ == "__main__":
    sys.exit(main())
