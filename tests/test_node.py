"""The local node (scripts/algoku_node.py) driven by independent clients.

py-algorand-sdk and algokit-utils talk to it as to LocalNet: algod v2 and KMD v1
over HTTP, LocalNet's token and genesis id, its funded default wallet. The
node's simulate must report the opcode budget a group really uses (checked
against a probe app's own reading of the pool), and every exchange of this
module is checked against algod's OpenAPI spec at the end.
"""

from __future__ import annotations

import base64
import json
import os
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import msgpack
import pytest
from algokit_utils import AlgoAmount, AlgoClientNetworkConfig, AlgorandClient, AppClientMethodCallParams, \
    AppFactory, AppFactoryParams
from algosdk import abi, account, encoding, kmd, logic, transaction
from algosdk.atomic_transaction_composer import AccountTransactionSigner, AtomicTransactionComposer, \
    TransactionWithSigner
from algosdk.v2client import algod, models

from conftest import ARTIFACTS, IS_VALID, IS_VALID_LANES, OPUP, ROOT, VALID, grid_bytes

sys.path.insert(0, str(ROOT / "scripts"))
import openapi_check  # noqa: E402

TOKEN = "a" * 64
PROBE_TEAL = "#pragma version 10\nglobal OpcodeBudget\nitob\nlog\npushint 1\n"  # logs the pool left
QUIET_TEAL = "#pragma version 10\npushint 7\npop\npushint 1\nreturn\n"  # reads nothing: 4 opcodes


class Node:
    def __init__(self, record: Path) -> None:
        env = {**os.environ, "ALGOKU_NODE_RECORD": str(record)}
        self.proc = subprocess.Popen(
            [sys.executable, str(ROOT / "scripts" / "algoku_node.py"), "--algod-port", "0", "--kmd-port", "0",
             "--exit-with-parent"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, text=True)
        assert self.proc.stdout is not None
        self.algod_url = self.proc.stdout.readline().split()[1]
        self.kmd_url = self.proc.stdout.readline().split()[1]
        self.record = record
        self.algod = algod.AlgodClient(TOKEN, self.algod_url)
        self.kmd = kmd.KMDClient(TOKEN, self.kmd_url)
        handle = self.kmd.init_wallet_handle(self.kmd.list_wallets()[0]["id"], "")
        self.address = self.kmd.list_keys(handle)[0]
        self.signer = AccountTransactionSigner(self.kmd.export_key(handle, "", self.address))
        self.kmd.release_wallet_handle(handle)

    def send(self, txn: transaction.Transaction) -> dict:
        signed = self.signer.sign_transactions([txn], [0])[0]
        return transaction.wait_for_confirmation(self.algod, self.algod.send_transaction(signed), 4)

    def create(self, approval: bytes, clear: bytes, extra_pages: int = 0, note: bytes = b"",
               global_ints: int = 0) -> int:
        create = transaction.ApplicationCreateTxn(
            self.address, self.algod.suggested_params(), transaction.OnComplete.NoOpOC, approval, clear,
            transaction.StateSchema(global_ints, 0), transaction.StateSchema(0, 0), extra_pages=extra_pages,
            note=note)
        return self.send(create)["application-index"]

    def teal_app(self, teal: str, global_ints: int = 0) -> int:
        program = base64.b64decode(self.algod.compile(teal)["result"])
        return self.create(program, program, note=teal.encode(), global_ints=global_ints)

    def raw(self, method: str, path: str, body: bytes | None = None, headers: dict | None = None) -> tuple[int, dict]:
        request = urllib.request.Request(self.algod_url + path, data=body, method=method,
                                         headers={"X-Algo-API-Token": TOKEN, **(headers or {})})
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                return answer.status, json.loads(answer.read() or b"null")
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read() or b"null")


@pytest.fixture(scope="module")
def node(tmp_path_factory: pytest.TempPathFactory):
    n = Node(tmp_path_factory.mktemp("node") / "exchanges.jsonl")
    yield n
    n.proc.terminate()
    n.proc.wait(timeout=10)


@pytest.fixture(scope="module")
def algoku_app(node: Node) -> int:
    approval = (ARTIFACTS / "Algoku.approval.bin").read_bytes()
    clear = (ARTIFACTS / "Algoku.clear.bin").read_bytes()
    return node.create(approval, clear, extra_pages=(len(approval) + len(clear) - 1) // 2048)


def simulate(node: Node, calls: list) -> dict:
    """Simulates [(app, method or None, args, fee)], unsigned; the group's result."""
    atc = AtomicTransactionComposer()
    for i, (app, method, args, fee) in enumerate(calls):
        sp = node.algod.suggested_params()
        sp.flat_fee, sp.fee = True, fee
        if method is None:
            atc.add_transaction(TransactionWithSigner(
                transaction.ApplicationNoOpTxn(node.address, sp, app, note=bytes([i])), node.signer))
        else:
            atc.add_method_call(app, method, node.address, sp, node.signer, method_args=args, note=bytes([i]))
    request = models.SimulateRequest(txn_groups=[], allow_empty_signatures=True)
    return atc.simulate(node.algod, request).simulate_response["txn-groups"][0]


def test_algod_answers_as_localnet_does(node: Node) -> None:
    status = node.algod.status()
    params = node.algod.suggested_params()
    assert params.gen == "dockernet-v1" and params.first >= status["last-round"]
    assert node.algod.health() is None
    assert node.algod.genesis()["alloc"][0]["addr"] == node.address
    before = node.algod.status()["last-round"]
    node.send(transaction.PaymentTxn(node.address, node.algod.suggested_params(), node.address, 0))
    after = node.algod.status_after_block(before)  # the block it made: no wait
    assert after["last-round"] == before + 1
    info = node.algod.account_info(node.address)
    assert info["amount"] > 0 and info["min-balance"] == 100_000
    # algod's errors: JSON `message`, algod's status codes.
    assert node.raw("GET", "/v2/applications/999999")[0] == 404
    assert node.raw("GET", "/v2/accounts/NOTANADDRESS")[0] == 400
    assert node.raw("POST", "/v2/transactions", b"\x00garbage")[0] == 400
    code, answer = node.raw("GET", "/v2/status", headers={"X-Algo-API-Token": "wrong"})
    assert (code, answer["message"]) == (401, "Invalid API Token")
    code, answer = node.raw("GET", "/v2/blocks/1")
    assert code == 501 and "GET /v2/blocks/1" in answer["message"]


def test_a_transaction_sent_twice_is_refused_and_again_in_a_later_round_is_new(node: Node) -> None:
    sp = node.algod.suggested_params()
    pay = transaction.PaymentTxn(node.address, sp, node.address, 0, note=b"twice")
    node.send(pay)
    with pytest.raises(Exception, match="already in ledger"):
        node.send(pay)
    again = transaction.PaymentTxn(node.address, node.algod.suggested_params(), node.address, 0, note=b"twice")
    assert again.get_txid() != pay.get_txid()
    node.send(again)


def test_groups_posted_together_share_a_block_and_each_is_answered_on_its_own(node: Node) -> None:
    """As a pool fills a block: concurrent POSTs are confirmed in one round, a refused group
    is refused alone (its POST says why), the same group twice is accepted once."""
    from concurrent.futures import ThreadPoolExecutor
    sp = node.algod.suggested_params()
    good = [node.signer.sign_transactions([transaction.PaymentTxn(node.address, sp, node.address, 0,
                                                                  note=f"together {i}".encode())], [0])[0]
            for i in range(12)]
    # A payment from an account with nothing: the evaluator refuses it, naming its transaction.
    sk, empty = account.generate_account()
    bad = transaction.PaymentTxn(empty, sp, node.address, 1, note=b"overspend").sign(sk)
    posts = good + [bad, good[0]]

    def post(stxn: transaction.SignedTransaction) -> tuple[int, dict]:
        return node.raw("POST", "/v2/transactions", base64.b64decode(encoding.msgpack_encode(stxn)),
                        {"Content-Type": "application/x-binary"})

    with ThreadPoolExecutor(len(posts)) as pool:
        answers = list(pool.map(post, posts))
    accepted = [a for (code, a) in answers if code == 200]
    refused = [a["message"] for (code, a) in answers if code != 200]
    assert sorted(a["txId"] for a in accepted) == sorted(s.get_txid() for s in good), answers
    assert len(refused) == 2 and any("overspend" in m for m in refused) \
        and any("already in ledger" in m for m in refused), refused
    rounds = {node.algod.pending_transaction_info(s.get_txid())["confirmed-round"] for s in good}
    assert len(rounds) < len(good) / 2, f"{len(good)} groups sent together took rounds {sorted(rounds)}"


def test_kmd_holds_the_funded_default_wallet(node: Node) -> None:
    wallets = node.kmd.list_wallets()
    assert [w["name"] for w in wallets] == ["unencrypted-default-wallet"]
    handle = node.kmd.init_wallet_handle(wallets[0]["id"], "")
    pay = transaction.PaymentTxn(node.address, node.algod.suggested_params(), node.address, 0, note=b"kmd")
    signed = node.kmd.sign_transaction(handle, "", pay)
    transaction.wait_for_confirmation(node.algod, node.algod.send_transaction(signed), 4)
    node.kmd.release_wallet_handle(handle)
    with pytest.raises(Exception):
        node.kmd.init_wallet_handle(wallets[0]["id"], "not the password")


def test_algokit_utils_deploys_the_arc56_app_and_calls_it(node: Node) -> None:
    algorand = AlgorandClient.from_config(
        algod_config=AlgoClientNetworkConfig(server=node.algod_url, token=TOKEN),
        kmd_config=AlgoClientNetworkConfig(server=node.kmd_url, token=TOKEN))
    assert algorand.client.is_localnet()
    player = algorand.account.random()
    algorand.account.ensure_funded(player, algorand.account.localnet_dispenser(), AlgoAmount.from_algo(1))
    spec = (ARTIFACTS / "Algoku.arc56.json").read_text()
    factory = AppFactory(AppFactoryParams(algorand=algorand, app_spec=spec, default_sender=player.address))
    client, _ = factory.send.bare.create()
    for grid, valid in ((VALID[0], True), (VALID[0][::-1][:80] + "1", False)):
        result = client.send.call(AppClientMethodCallParams(method="is_valid_solution_lanes",
                                                            args=[grid_bytes(grid)]))
        assert result.abi_return is valid
    assert algorand.client.algod.application_info(client.app_id)["params"]["creator"] == player.address


def test_simulate_reports_what_the_group_uses_as_a_probe_reads_it(node: Node, algoku_app: int) -> None:
    grid = grid_bytes(VALID[0])
    group = [(algoku_app, OPUP, [], 1000), (algoku_app, OPUP, [], 1000), (algoku_app, IS_VALID, [grid], 1000)]
    quiet, probe = node.teal_app(QUIET_TEAL), node.teal_app(PROBE_TEAL)
    measured = simulate(node, group + [(quiet, None, [], 1000)])
    costs = [r["app-budget-consumed"] for r in measured["txn-results"]]
    assert measured["app-budget-added"] == 4 * 700
    assert measured["app-budget-consumed"] == sum(costs) and costs[-1] == 4
    # The same group with a probe last (same size, same calls after each): the pool
    # it finds left, before its own read (1 opcode), is what the group did not use.
    read = simulate(node, group + [(probe, None, [], 1000)])
    assert "app-budget-consumed" not in read  # the probe reads the budget: the node does not guess
    left = int.from_bytes(base64.b64decode(read["txn-results"][-1]["txn-result"]["logs"][0]), "big")
    assert sum(costs[:-1]) == 4 * 700 - left - 1
    # Alone with its inner opups: the inner calls' 700 each count as added.
    alone = simulate(node, [(algoku_app, IS_VALID, [grid], 3000)])
    inner = alone["txn-results"][0]["txn-result"]["inner-txns"]
    assert alone["app-budget-added"] == 700 * (1 + len(inner))
    assert 2 * 700 < alone["app-budget-consumed"] <= alone["app-budget-added"]
    one_call = simulate(node, [(algoku_app, IS_VALID_LANES, [grid], 1000)])
    assert 0 < one_call["app-budget-consumed"] < 700


def test_simulate_failure_names_the_program_counter_of_the_app_as_deployed(node: Node, algoku_app: int) -> None:
    failed = simulate(node, [(algoku_app, IS_VALID_LANES, [b"\x01" * 80], 1000)])
    assert failed["failed-at"] == [0]
    pc = int(failed["failure-message"].rsplit("pc=", 1)[1].split()[0].rstrip(","))
    spec = json.loads((ARTIFACTS / "Algoku.arc56.json").read_text())
    assert any(pc in entry["pc"] for entry in spec["sourceInfo"]["approval"]["sourceInfo"]), failed


def test_simulate_answers_msgpack_when_asked(node: Node, algoku_app: int) -> None:
    txn = transaction.ApplicationNoOpTxn(node.address, node.algod.suggested_params(), algoku_app,
                                         [IS_VALID_LANES.get_selector(), abi.ABIType.from_string("byte[]").encode(
                                             grid_bytes(VALID[0]))])
    request = {"allow-empty-signatures": True,
               "txn-groups": [{"txns": [msgpack.unpackb(base64.b64decode(encoding.msgpack_encode(
                   transaction.SignedTransaction(txn, None))))]}]}
    http = urllib.request.Request(node.algod_url + "/v2/transactions/simulate?format=msgpack",
                                  data=msgpack.packb(request), method="POST",
                                  headers={"X-Algo-API-Token": TOKEN, "Content-Type": "application/msgpack"})
    with urllib.request.urlopen(http, timeout=10) as answer:
        assert answer.headers["Content-Type"] == "application/msgpack"
        result = msgpack.unpackb(answer.read(), strict_map_key=False)
    assert result["txn-groups"][0]["app-budget-consumed"] > 0


def test_msgpack_answers_carry_bytes_where_algod_has_bytes_and_text_where_it_has_text(node: Node) -> None:
    teal = '#pragma version 10\npushbytes "k"\npushint 7\napp_global_put\npushbytes "k"\nlog\npushint 1\n'
    program = base64.b64decode(node.algod.compile(teal)["result"])
    create = transaction.ApplicationCreateTxn(
        node.address, node.algod.suggested_params(), transaction.OnComplete.NoOpOC, program, program,
        transaction.StateSchema(1, 0), transaction.StateSchema(0, 0))
    txid = node.send(create)["txn"]["txn"] and create.get_txid()
    path = f"/v2/transactions/pending/{txid}"
    http = urllib.request.Request(f"{node.algod_url}{path}?format=msgpack", headers={"X-Algo-API-Token": TOKEN})
    with urllib.request.urlopen(http, timeout=10) as answer:
        body = answer.read()
    found = msgpack.unpackb(body, strict_map_key=False)
    assert found["logs"] == [b"k"]  # bytes in algod's model: raw
    assert found["global-state-delta"] == [{"key": "aw==", "value": {"action": 2, "uint": 7}}]  # text: base64
    assert openapi_check.check_response("GET", path, 200, "application/msgpack", body) == []
    # The checker tells them apart: a raw key where algod sends base64 text is wrong.
    found["global-state-delta"][0]["key"] = b"k"
    assert openapi_check.check_response("GET", path, 200, "application/msgpack", msgpack.packb(found))


def test_boxes_are_listed_and_read_by_name(node: Node) -> None:
    teal = '#pragma version 10\ntxn ApplicationID\nbz done\npushbytes "b"\npushbytes "hello"\nbox_put\ndone:\npushint 1\n'
    app = node.teal_app(teal)
    sp = node.algod.suggested_params()
    fund = transaction.PaymentTxn(node.address, sp, logic.get_application_address(app), 200_000)
    put = transaction.ApplicationNoOpTxn(node.address, sp, app, boxes=[(0, b"b")])
    transaction.assign_group_id([fund, put])
    signed = node.signer.sign_transactions([fund, put], [0, 1])
    transaction.wait_for_confirmation(node.algod, node.algod.send_transactions(signed), 4)
    assert node.algod.application_boxes(app)["boxes"] == [{"name": base64.b64encode(b"b").decode()}]
    for name in ("str:b", "b64:" + base64.b64encode(b"b").decode()):
        box = node.algod.application_box_by_name(app, name.split(":", 1)[1].encode() if name.startswith("str") else b"b")
        assert base64.b64decode(box["value"]) == b"hello"
    assert node.raw("GET", f"/v2/applications/{app}/box?name=str:nothing")[0] == 404
    assert node.raw("GET", f"/v2/applications/{app}/box?name=bad")[0] == 400


def test_bodies_over_algods_limit_are_refused_before_they_are_read(node: Node) -> None:
    host, port = node.algod_url.split("//")[1].split(":")
    with socket.create_connection((host, int(port)), timeout=10) as conn:
        conn.sendall(f"POST /v2/transactions HTTP/1.1\r\nHost: {host}\r\nX-Algo-API-Token: {TOKEN}\r\n"
                     f"Content-Length: {1 << 40}\r\n\r\n".encode())
        raw = b""
        while chunk := conn.recv(4096):  # the node answers, then closes
            raw += chunk
    head = raw.decode()
    assert head.startswith("HTTP/1.1 413"), head
    assert '"message"' in head


def test_the_checker_finds_what_breaks_the_spec() -> None:
    """openapi_check must be able to fail: a missing field, a stray parameter, a wrong status."""
    account_path = "/v2/accounts/" + account.generate_account()[1]
    incomplete = json.dumps({"address": "x", "amount": 1}).encode()
    assert openapi_check.check_response("GET", account_path, 200, "application/json", incomplete)
    assert openapi_check.check_request("GET", "/v2/status", {"colour": "red"}, "", b"")
    assert openapi_check.check_request("GET", "/v2/status", {"format": "xml"}, "", b"")
    assert openapi_check.check_request("GET", "/v2/nowhere", {}, "", b"")
    assert openapi_check.check_response("GET", "/v2/status", 501, "application/json", b"{}")


def test_every_exchange_follows_algods_openapi_spec(node: Node) -> None:
    """Last in this module: every request the clients above sent and every answer."""
    lines = [json.loads(line) for line in node.record.read_text().splitlines() if line.strip()]
    algod_lines = [line for line in lines if line["server"] == "algod"]
    assert len(algod_lines) > 50
    problems = [p for line in algod_lines for p in openapi_check.check_record(line)[1]]
    # The deliberately bad requests above are the only ones off the spec.
    deliberate = ("/v2/accounts/NOTANADDRESS", "/v2/blocks/1", "POST /v2/transactions: status 413")
    assert [p for p in problems if not any(d in p for d in deliberate)] == []
