"""AlgoKit's typed Python clients, generated from the committed ARC-56 specs.

`algokitgen-py` (PyPI algokit-client-generator, pinned in requirements.txt)
turns each spec into a module; the module must import, and every ABI method
of the spec must build a call with the spec's signature and selector (offline:
algokit-utils builds the call without contacting algod).
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

SPECS = sorted((ROOT / "smart_contracts" / "artifacts").glob("*/*.arc56.json"))
GENERATOR = Path(sys.executable).parent / "algokitgen-py"
ZERO_ADDRESS = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAY5HFKQ"


def sample(abi_type: str) -> object:
    """A value of an ABI argument type, for building a call."""
    if abi_type == "byte[]":
        return bytes(range(1, 82))
    if abi_type.startswith("byte[") and abi_type.endswith("]"):
        return bytes(int(abi_type[5:-1]))
    if abi_type.startswith("uint"):
        return 7
    if abi_type == "address":
        return ZERO_ADDRESS
    raise AssertionError(f"no sample value for ABI type {abi_type}: add one to this test")


def signature(method: dict) -> str:
    args = ",".join(a["type"] for a in method["args"])
    return f"{method['name']}({args}){method['returns']['type']}"


def generate(spec: Path, out_dir: Path):
    """Runs the generator on `spec` and imports the module it writes."""
    assert GENERATOR.is_file(), (
        f"{GENERATOR} is missing: install requirements.txt (scripts/test.sh does)"
    )
    name = spec.stem.split(".")[0].lower() + "_client"
    target = out_dir / f"{name}.py"
    subprocess.run([str(GENERATOR), "-a", str(spec), "-o", str(target)], check=True, capture_output=True)
    loader = importlib.util.spec_from_file_location(name, target)
    assert loader is not None and loader.loader is not None
    module = importlib.util.module_from_spec(loader)
    loader.loader.exec_module(module)
    return module


def test_there_are_specs() -> None:
    assert {s.parent.name for s in SPECS} >= {"algoku", "curta"}


@pytest.mark.parametrize("spec", SPECS, ids=[s.parent.name for s in SPECS])
def test_generated_python_client_builds_every_method(spec: Path, tmp_path: Path) -> None:
    import algokit_utils

    arc56 = json.loads(spec.read_text())
    contract = arc56["name"]
    module = generate(spec, tmp_path)
    client_class = getattr(module, f"{contract}Client")
    assert hasattr(module, f"{contract}Factory")
    send = getattr(module, f"{contract}Send")

    # No algod is contacted: the client only builds the calls.
    algorand = algokit_utils.AlgorandClient.default_localnet()
    client = client_class(algorand=algorand, app_id=1234, default_sender=ZERO_ADDRESS)
    assert client.app_id == 1234
    for method in arc56["methods"]:
        name = method["name"]
        assert callable(getattr(send, name, None)), f"{contract}Send lacks {name}"
        build = getattr(client.params, name)
        args = tuple(sample(a["type"]) for a in method["args"])
        call = build(args=args) if args else build()
        sig = signature(method)
        assert call.method.get_signature() == sig
        assert call.method.get_selector() == hashlib.new("sha512_256", sig.encode()).digest()[:4]
        assert call.app_id == 1234
        assert len(call.args or []) == len(args)
