"""The contract's source and its committed artifacts agree with each other."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest
from conftest import ARTIFACTS, ROOT

CONTRACT = ROOT / "smart_contracts" / "algoku" / "contract.py"
CURTA = ROOT / "smart_contracts" / "curta" / "contract.py"
GAME = ROOT / "smart_contracts" / "game" / "contract.py"


def unrolled():
    """scripts/unrolled.py, the one source of the contracts' unrolled lines and derived constants."""
    spec = importlib.util.spec_from_file_location("unrolled", ROOT / "scripts" / "unrolled.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def constant(name: str) -> str:
    """One of Algoku's module-level constants, from the contract's syntax tree."""
    return str(unrolled().constant(CONTRACT, name))


def test_generated_code_is_as_its_rules() -> None:
    """Every unrolled block and derived constant of the three contracts is what
    scripts/unrolled.py writes from its rule."""
    result = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "unrolled.py"), "--check"], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_generator_rewrites_a_changed_block_and_constant() -> None:
    u = unrolled()
    for path in (CONTRACT, CURTA, GAME):
        text = path.read_text()
        blocks = u.blocks()[path]
        assert blocks, path
        for name, body in blocks.items():
            changed = text.replace(body[-1] + "\n", body[-1].replace("True", "False").replace("+=", "-=") + " # changed\n", 1)
            assert changed != text, (path.name, name)
            assert u.generated(path, changed) == text, (path.name, name)
        for name in u.CONSTANTS[path]:
            value = str(u.constant(path, name))
            changed = text.replace(f'{name} = "{value}"', f'{name} = "{value[:-2]}00"' if not value.endswith("00") else f'{name} = "{value[:-2]}ff"', 1)
            assert changed != text, (path.name, name)
            assert u.generated(path, changed) == text, (path.name, name)


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
