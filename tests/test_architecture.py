"""docs/architecture.md stays true: its table of crate edges is the workspace's, as `cargo
metadata` reads the manifests (normal dependencies between the workspace's own crates)."""

from __future__ import annotations

import json
import re
import subprocess

from conftest import ROOT


def workspace_edges() -> dict[str, set[str]]:
    out = subprocess.run(["cargo", "metadata", "--no-deps", "--format-version", "1", "--offline"],
                         cwd=ROOT, capture_output=True, text=True, check=True).stdout
    packages = json.loads(out)["packages"]
    names = {p["name"] for p in packages}
    return {p["name"]: {d["name"] for d in p["dependencies"] if d["name"] in names and d.get("kind") is None}
            for p in packages}


def documented_edges() -> dict[str, set[str]]:
    text = (ROOT / "docs" / "architecture.md").read_text()
    table = text.split("| crate | uses (its normal dependencies in the workspace) |", 1)[1]
    edges = {}
    for line in table.splitlines()[2:]:
        if not line.startswith("|"):
            break
        crate, uses = (cell.strip() for cell in line.strip("|").split("|"))
        name = re.match(r"`([^`]+)`", crate).group(1)
        edges[name] = set() if uses == "—" else {u.strip() for u in uses.split(",")}
    return edges


def test_the_architecture_page_lists_every_crate_edge() -> None:
    assert documented_edges() == workspace_edges()
