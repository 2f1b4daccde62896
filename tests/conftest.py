"""Shared fixtures for the contract tests: go-algorand's evaluator with Algoku deployed."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from algosdk import abi, transaction
from algosdk.account import generate_account

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "smart_contracts" / "artifacts" / "algoku"
sys.path.insert(0, str(ROOT / "scripts"))

from algoku_jig import MIN_FEE, EvalResult, Jig  # noqa: E402

GRID_TYPE = abi.ABIType.from_string("byte[]")
IS_VALID = abi.Method.from_signature("is_valid_solution(byte[])bool")
OPUP = abi.Method.from_signature("opup()void")
IS_VALID_LANES = abi.Method.from_signature("is_valid_solution_lanes(byte[])bool")
IS_SOLUTION_OF = abi.Method.from_signature("is_solution_of(byte[],byte[])bool")
ARE_VALID = abi.Method.from_signature("are_valid_solutions(byte[])uint64")
RETURN_PREFIX = bytes.fromhex("151f7c75")


@dataclass
class Deployed:
    jig: Jig
    app_id: int
    sk: str
    addr: str

    def call_group(self, grid: bytes, fee: int = 3 * MIN_FEE, padding: int = 0, probe: bool = False) -> list:
        """[opup() x padding, is_valid_solution(grid) paying `fee`, probe?], grouped."""
        sp = self.jig.suggested_params()
        txns = []
        for k in range(padding):
            txns.append(transaction.ApplicationNoOpTxn(self.addr, sp, self.app_id, [OPUP.get_selector()], note=b"pad%d" % k))
        call_sp = self.jig.suggested_params()
        call_sp.fee, call_sp.flat_fee = fee, True
        txns.append(
            transaction.ApplicationNoOpTxn(self.addr, call_sp, self.app_id, [IS_VALID.get_selector(), GRID_TYPE.encode(grid)])
        )
        if probe:
            txns.append(transaction.ApplicationNoOpTxn(self.addr, sp, self.jig.ensure_probe(), []))
        if len(txns) > 1:
            transaction.assign_group_id(txns)
        return txns

    def app_call(self, method: abi.Method, *args: bytes, fee: int = MIN_FEE, note: bytes = b"") -> transaction.Transaction:
        """One ABI call of `method` with byte[] arguments, paying `fee`."""
        sp = self.jig.suggested_params()
        sp.fee, sp.flat_fee = fee, True
        app_args = [method.get_selector(), *(GRID_TYPE.encode(a) for a in args)]
        return transaction.ApplicationNoOpTxn(self.addr, sp, self.app_id, app_args, note=note)

    def probe_call(self, burn_to: int | None = None, note: bytes = b"") -> transaction.Transaction:
        """The probe app: logs the pool's remainder; with `burn_to`, first burns the pool down to it."""
        args = [] if burn_to is None else [burn_to.to_bytes(8, "big")]
        return transaction.ApplicationNoOpTxn(self.addr, self.jig.suggested_params(), self.jig.ensure_probe(), args, note=note)

    def group(self, txns: list) -> EvalResult:
        """Group (if more than one), sign and evaluate."""
        if len(txns) > 1:
            transaction.assign_group_id(txns)
        return self.sign_eval(txns)

    def sign_eval(self, txns: list) -> EvalResult:
        return self.jig.eval([t.sign(self.sk) for t in txns])

    def verify(self, grid: bytes, **kw) -> EvalResult:
        return self.sign_eval(self.call_group(grid, **kw))


def verdict(result: EvalResult, index: int = -1) -> bool:
    """Decode the ABI bool returned by the call at `index` (the last log, prefix 151f7c75)."""
    assert result.ok, result.error
    logs = result.txns[index].logs
    assert logs and logs[-1][:4] == RETURN_PREFIX, logs
    return logs[-1][4:] == b"\x80"


@pytest.fixture(scope="session")
def deployed() -> Deployed:
    jig = Jig()
    sk, addr = generate_account()
    jig.fund(addr)
    approval = (ARTIFACTS / "Algoku.approval.bin").read_bytes()
    clear = (ARTIFACTS / "Algoku.clear.bin").read_bytes()
    extra_pages = (len(approval) + len(clear) - 1) // 2048
    create = transaction.ApplicationCreateTxn(
        addr, jig.suggested_params(), transaction.OnComplete.NoOpOC, approval, clear,
        transaction.StateSchema(0, 0), transaction.StateSchema(0, 0), extra_pages=extra_pages,
    )
    result = jig.eval([create.sign(sk)])
    assert result.ok, result.error
    app_id = result.txns[0].app_id
    assert app_id
    return Deployed(jig=jig, app_id=app_id, sk=sk, addr=addr)
