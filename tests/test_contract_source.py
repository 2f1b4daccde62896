"""The contract's source and its committed artifacts agree with each other."""

from __future__ import annotations

import re
import subprocess
import sys

from conftest import ARTIFACTS, ROOT

CONTRACT = ROOT / "smart_contracts" / "algoku" / "contract.py"


def constant(name: str) -> str:
    m = re.search(rf'^{name} = (?:"([0-9a-f]+)"|(\d+))$', CONTRACT.read_text(), re.M)
    assert m, name
    return m.group(1) or m.group(2)


def test_lookup_tables_are_the_originals() -> None:
    assert bytes.fromhex(constant("ROW_HEX")) == bytes(0x10 * (i // 9 + 1) for i in range(81))
    assert bytes.fromhex(constant("COLUMN_HEX")) == bytes(0x10 * (i % 9 + 1) for i in range(81))
    assert bytes.fromhex(constant("BOX_HEX")) == bytes(0x10 * (3 * (i // 27) + (i % 9) // 3 + 1) for i in range(81))
    assert constant("GROUP_HEX") == "01ff" * 9 + "00"
    assert constant("MASKS_HEX") == constant("GROUP_HEX") * 3
    assert constant("HIGH_NIBBLES_HEX") == "f0" * 81


def test_unrolled_body_spells_out_the_lookup_tables() -> None:
    calls = re.findall(
        r"mask = _clear_cell\(mask, grid, UInt64\((\d+)\), UInt64\(0x([0-9a-f]{2})\), "
        r"UInt64\(0x([0-9a-f]{2})\), UInt64\(0x([0-9a-f]{2})\)\)",
        CONTRACT.read_text(),
    )
    assert [int(c[0]) for c in calls] == list(range(81))
    for name, column in (("ROW_HEX", 1), ("COLUMN_HEX", 2), ("BOX_HEX", 3)):
        assert bytes(int(c[column], 16) for c in calls) == bytes.fromhex(constant(name)), name


def straight_line_tail(teal: str) -> int:
    """Opcodes executed from the end of ensure_budget's loop to `return` (no branches there)."""
    lines = [line.split("//")[0].strip() for line in teal.splitlines()]
    labels = {line[:-1]: i for i, line in enumerate(lines) if line.endswith(":")}
    (start,) = [k for k in labels if k.startswith("main_after_while")]
    i, count = labels[start] + 1, 0
    while True:
        line = lines[i]
        if not line or line.endswith(":"):
            i += 1
            continue
        op = line.split()[0]
        assert op not in {"bz", "bnz", "switch", "match", "callsub"}, f"branch in the tail: {line}"
        count += 1
        if op == "return":
            return count
        i = labels[line.split()[1]] + 1 if op == "b" else i + 1


def test_check_budget_is_exactly_the_compiled_tail() -> None:
    teal = (ARTIFACTS / "Algoku.approval.teal").read_text()
    tail = straight_line_tail(teal)
    assert int(constant("CHECK_BUDGET")) == tail
    # ensure_budget asks for CHECK_BUDGET plus puya's buffer of 10
    assert f"pushint {tail + 10}" in teal


def test_committed_artifacts_match_a_fresh_compile() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "smart_contracts", "build", "--check"], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr
