"""The contract's source and its committed artifacts agree with each other."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys

import pytest
from conftest import ARTIFACTS, ROOT

CONTRACT = ROOT / "smart_contracts" / "algoku" / "contract.py"
CURTA = ROOT / "smart_contracts" / "curta" / "contract.py"


def constant(name: str) -> str:
    m = re.search(rf'^{name} = (?:"([0-9a-f]+)"|(\d+))$', CONTRACT.read_text(), re.M)
    assert m, name
    return m.group(1) or m.group(2)


def unrolled():
    """scripts/unrolled.py, the one source of the contracts' unrolled lines."""
    spec = importlib.util.spec_from_file_location("unrolled", ROOT / "scripts" / "unrolled.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("block", ["lanes", "chunks", "verdicts", "digits"])
def test_unrolled_blocks_are_their_rule(block: str) -> None:
    u = unrolled()
    grids = int(constant("BATCH_MAX"))
    lines = {
        "lanes": u.lanes,
        "chunks": lambda: u.chunks(grids),
        "verdicts": lambda: u.verdicts(grids),
        "digits": u.digits,
    }[block]()
    assert len(lines) > grids
    source = CURTA if block == "digits" else CONTRACT
    text = "\n".join(lines) + "\n"
    assert source.read_text().count(text) == 1, f"{source.name}'s {block} block is not `scripts/unrolled.py {block}`"


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


# Opcodes that cost more than 1 (go-algorand's opcode table, AVM 10).
COST = {"b|": 6, "b&": 6, "b^": 6, "b~": 4, "b+": 10, "b-": 10}


def tail_cost(lines: list[str], i: int) -> int:
    """Budget consumed from line i to `return`: straight-line code (branches fail the test)."""
    labels = {line[:-1]: k for k, line in enumerate(lines) if line.endswith(":")}
    count = 0
    while True:
        line = lines[i]
        if not line or line.endswith(":"):
            i += 1
            continue
        op = line.split()[0]
        assert op not in {"bz", "bnz", "switch", "match", "callsub", "retsub"}, f"branch in the tail: {line}"
        count += COST.get(op, 1)
        if op == "return":
            return count
        i = labels[line.split()[1]] + 1 if op == "b" else i + 1


def after_top_up(lines: list[str], route: str) -> int:
    """Line where `route`'s code continues once its budget is topped up."""
    labels = {line[:-1]: k for k, line in enumerate(lines) if line.endswith(":")}
    (label,) = [k for k in labels if k.startswith(f"main_{route}_route")]
    i = labels[label]
    while True:
        i += 1
        if lines[i] == "callsub ensure_budget":
            return i + 1
        if lines[i] == "global OpcodeBudget" and lines[i + 2] == "<":  # fast check, then the tail
            return labels[lines[i + 3].split()[1]] + 1


@pytest.mark.parametrize(
    ("route", "tail", "handover"),
    [
        ("is_valid_solution", "CHECK_BUDGET", None),
        ("is_valid_solution_lanes", "LANES_TAIL", "LANES_HANDOVER"),
        ("is_solution_of", "SOLUTION_OF_TAIL", "SOLUTION_OF_HANDOVER"),
        ("are_valid_solutions", "BATCH_TAIL", "BATCH_HANDOVER"),
    ],
)
def test_budget_constants_are_exactly_the_compiled_tails(route: str, tail: str, handover: str | None) -> None:
    teal = (ARTIFACTS / "Algoku.approval.teal").read_text()
    lines = [line.split("//")[0].strip() for line in teal.splitlines()]
    assert int(constant(tail)) == tail_cost(lines, after_top_up(lines, route))
    if handover:
        # fast check `global OpcodeBudget; pushint TAIL + HANDOVER; <`
        assert f"pushint {int(constant(tail)) + int(constant(handover))}" in lines


def test_lanes_constants() -> None:
    assert bytes.fromhex(constant("OFFSETS_HEX")) == bytes(16 * (i % 16) for i in range(81))
    assert constant("ZERO_SEGMENT_HEX") == "00" * 32
    lanes = 96

    def lane_bytes(selected: list[int], value: int) -> bytes:
        out = bytearray(2 * lanes)
        for lane in selected:
            out[2 * lane : 2 * lane + 2] = value.to_bytes(2, "big")
        return bytes(out)

    rows = [9 * r + 8 for r in range(9)]
    columns = [72 + c for c in range(9)]
    boxes = [9 * (3 * big_r + 2) + 3 * big_c + 2 for big_r in range(3) for big_c in range(3)]
    digits = sum(0x8000 >> d for d in range(1, 10))
    assert digits == 0x7FC0
    mask = b"\xf0" * 81 + b"".join(lane_bytes(u, 0xFFFF) for u in (rows, columns, boxes))
    expected = bytes(81) + b"".join(lane_bytes(u, digits) for u in (rows, columns, boxes))
    assert bytes.fromhex(constant("CHECK_MASK_HEX")) == mask
    assert bytes.fromhex(constant("CHECK_EXPECTED_HEX")) == expected
    assert constant("LOW_64_HEX") == "0f" * 64 and constant("LOW_17_HEX") == "0f" * 17
    assert constant("PUZZLE_MASK_HEX") == "10" * 81 + "f0" * 81
    assert constant("PUZZLE_EXPECTED_HEX") == "00" * 162


def test_batch_constants() -> None:
    assert int(constant("BATCH_MAX")) == 14
    assert constant("HIGH_9_HEX") == "80" * 9 and constant("ONE_8_HEX") == "01" * 8
    assert constant("ONES_9_HEX") == "ff" * 9
    assert constant("ROWS_OFF_9_HEX") == "ff" * 8 + "00"
    assert constant("BOXES_OFF_9_HEX") == "ffff00" * 3


def test_committed_artifacts_match_a_fresh_compile() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "smart_contracts", "build", "--check"], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_every_contract_is_built_and_checked() -> None:
    """`build --check` above covers every smart_contracts/*/contract.py, and each has its
    artifacts: Algoku, Curta and the Game, and no contract folder is left out."""
    found = sorted(p.parent.name for p in (ROOT / "smart_contracts").glob("*/contract.py"))
    assert found == ["algoku", "curta", "game"], found
    for name, stem in [("algoku", "Algoku"), ("curta", "Curta"), ("game", "Game")]:
        assert (ROOT / "smart_contracts" / name / "contract.py").exists()
        for suffix in ["approval.teal", "approval.bin", "clear.teal", "clear.bin", "arc56.json"]:
            assert (ROOT / "smart_contracts" / "artifacts" / name / f"{stem}.{suffix}").exists()
