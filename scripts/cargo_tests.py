"""The Rust workspace's tests, their binaries side by side: `cargo test --workspace`
with the test binaries run N at a time instead of one after another.

cargo test runs each test binary in turn, and most of ours spend their time in the
evaluator's process or waiting on a node, so one binary leaves a core idle. Here
every test target is built once (`cargo test --no-run`), then the binaries run on a
pool of N workers (default: the evaluator's slots, one per core), each as cargo
runs it (its package's folder as working directory, CARGO_MANIFEST_DIR and
CARGO_PKG_NAME set), the slowest of the last run first; each binary's output is
printed whole when it ends. Then the doc tests (`cargo test --doc`). Arguments
after the options go to every test binary (a name filter, `--nocapture`).

    python scripts/cargo_tests.py [--jobs N] [-- TEST ARGS]

Exit status: 0 when every binary and the doc tests pass, 1 otherwise (each failure
named at the end).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from algoku_jig import slot_count  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
TARGET = Path(os.environ.get("CARGO_TARGET_DIR") or ROOT / "target")
# Each binary's seconds in the last run: the slowest start first, so none is left alone at the end.
TIMES = TARGET / "test-binary-seconds.json"


@dataclass
class Binary:
    """A test executable and the package it belongs to."""

    path: str
    package: str
    folder: str
    name: str  # `lib`, `test chain`, `bin algoku`: the target's kind and name

    @property
    def key(self) -> str:
        return f"{self.package}:{self.name}"


def build() -> list[Binary]:
    """Every test target of the workspace, built (`cargo test --no-run`)."""
    cargo = os.environ.get("CARGO", "cargo")
    proc = subprocess.run([cargo, "test", "--workspace", "--locked", "--no-run", "--message-format=json-render-diagnostics"],
                          cwd=ROOT, stdout=subprocess.PIPE, text=True)
    if proc.returncode != 0:
        sys.exit(proc.returncode)
    meta = subprocess.run([cargo, "metadata", "--no-deps", "--format-version", "1", "--locked"], cwd=ROOT,
                          stdout=subprocess.PIPE, text=True, check=True)
    names = {p["manifest_path"]: p["name"] for p in json.loads(meta.stdout)["packages"]}
    out = []
    for line in proc.stdout.splitlines():
        msg = json.loads(line)
        if msg.get("reason") != "compiler-artifact" or not msg.get("executable") or not msg["profile"]["test"]:
            continue
        target = msg["target"]
        kind = "lib" if target["kind"] == ["lib"] else f"{target['kind'][0]} {target['name']}"
        manifest = msg["manifest_path"]
        out.append(Binary(msg["executable"], names[manifest], str(Path(manifest).parent), kind))
    return out


def run(binary: Binary, args: list[str]) -> tuple[Binary, int, str, float]:
    """One test binary as cargo runs it: its output (stdout then stderr) and seconds."""
    env = {**os.environ, "CARGO_MANIFEST_DIR": binary.folder, "CARGO_PKG_NAME": binary.package}
    start = time.monotonic()
    proc = subprocess.run([binary.path, *args], cwd=binary.folder, env=env, capture_output=True, text=True)
    return binary, proc.returncode, proc.stdout + proc.stderr, time.monotonic() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=slot_count(), help="test binaries at once (default: one per evaluator slot)")
    parser.add_argument("args", nargs="*", help="passed to every test binary")
    opts = parser.parse_args()
    binaries = build()
    last = json.loads(TIMES.read_text()) if TIMES.exists() else {}
    binaries.sort(key=lambda b: -last.get(b.key, 0.0))
    failed, seconds = [], {}
    with ThreadPoolExecutor(max_workers=max(1, opts.jobs)) as pool:
        for done in as_completed([pool.submit(run, b, opts.args) for b in binaries]):
            binary, code, output, took = done.result()
            seconds[binary.key] = round(took, 2)
            print(f"     Running {binary.name} of {binary.package} ({binary.path}): {took:.1f} s\n{output}", flush=True)
            if code != 0:
                failed.append(binary.key)
    TIMES.write_text(json.dumps(seconds, indent=0, sort_keys=True))
    doc = subprocess.run([os.environ.get("CARGO", "cargo"), "test", "--workspace", "--locked", "--doc", *(["--", *opts.args] if opts.args else [])], cwd=ROOT)
    if doc.returncode != 0:
        failed.append("doc tests")
    slowest = sorted(seconds.items(), key=lambda kv: -kv[1])[:10]
    print("slowest test binaries: " + ", ".join(f"{k} {v:.1f} s" for k, v in slowest))
    if failed:
        print(f"error: {len(failed)} failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    print(f"{len(binaries)} test binaries and the doc tests passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
