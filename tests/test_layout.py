"""The Rust code's layout: no two files of a crate import each other, even through others.

A module file uses another when it names it by path (`crate::a::b`, `super::x`, `self::y`)
outside comments and its test module; a use of a module's own ancestors (its parent's items)
does not count. Any cycle in that graph is a circle between files, which the layout forbids:
each idea has one home and the arrows point one way (docs/architecture.md).
"""

from __future__ import annotations

import re
from pathlib import Path

from conftest import ROOT

PATH = re.compile(r"\b(crate|super|self)((?:::\w+)+)")
TESTS = re.compile(r"#\[cfg\(test\)\]\s*mod tests\s*\{.*", re.S)


def module_of(src: Path, path: Path) -> tuple[str, ...]:
    parts = list(path.relative_to(src).with_suffix("").parts)
    return tuple(parts[:-1] if parts[-1] in ("mod", "lib", "main") else parts)


def imports(src: Path) -> dict[tuple[str, ...], set[tuple[str, ...]]]:
    files = {module_of(src, p): p for p in src.rglob("*.rs")}
    graph: dict[tuple[str, ...], set[tuple[str, ...]]] = {m: set() for m in files}
    for module, path in files.items():
        is_dir = path.stem in ("mod", "lib", "main")
        code = "\n".join(l for l in path.read_text().splitlines() if not l.lstrip().startswith("//"))
        for root, rest in PATH.findall(TESTS.sub("", code)):
            base = {"crate": (), "super": module[:-1], "self": module if is_dir else module[:-1]}[root]
            target, at = None, base
            for name in rest.strip(":").split("::"):
                at = at + (name,)
                if at in files:
                    target = at
            if target is not None and module[: len(target)] != target:
                graph[module].add(target)
    return graph


def circles(graph: dict[tuple[str, ...], set[tuple[str, ...]]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict = {}
    low: dict = {}
    stack: list = []
    found: list[list[str]] = []

    def visit(v: tuple[str, ...]) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append("/".join(w) or "lib")
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in graph:
        if v not in index:
            visit(v)
    return found


def test_the_detector_finds_a_circle() -> None:
    graph = {("a",): {("b",)}, ("b",): {("c",)}, ("c",): {("a",)}, ("d",): {("a",)}}
    assert circles(graph) == [["a", "b", "c"]]


def test_no_circle_between_the_files_of_a_crate() -> None:
    crates = [d for d in sorted((ROOT / "rust").iterdir()) if (d / "Cargo.toml").is_file()]
    assert len(crates) >= 10
    # The binary's crate: its manifest is the workspace root's, its files rust/cli.
    crates.append(ROOT / "rust" / "cli")
    found, modules = {}, 0
    for crate in crates:
        src = crate / "src" if (crate / "src").is_dir() else crate
        graph = imports(src)
        modules += len(graph)
        if cycles := circles(graph):
            found[crate.name] = cycles
    assert modules > 85
    assert not found, f"files that import each other: {found}"


WEB_IMPORT = re.compile(r"""^\s*(?:import|export)\b[^'"]*?\bfrom\s+['"](\.{1,2}/[^'"]+)['"]""", re.M)


def web_imports(src: Path) -> dict[tuple[str, ...], set[tuple[str, ...]]]:
    """The web page's modules (TypeScript) and the modules each imports by relative path
    (type-only imports too: a circle of types is still a circle of ideas)."""
    files = {p.relative_to(src).with_suffix("").parts: p for p in src.rglob("*.ts*") if p.suffix in (".ts", ".tsx")}
    graph: dict[tuple[str, ...], set[tuple[str, ...]]] = {m: set() for m in files}
    for module, path in files.items():
        for spec in WEB_IMPORT.findall(path.read_text()):
            target = (path.parent / spec).resolve()
            for candidate in (target.with_suffix(".ts"), target.with_suffix(".tsx"), target / "index.ts"):
                if candidate.is_file() and candidate.resolve().is_relative_to(src.resolve()):
                    graph[module].add(candidate.resolve().relative_to(src.resolve()).with_suffix("").parts)
                    break
    return graph


def test_no_circle_between_the_web_pages_modules() -> None:
    graph = web_imports(ROOT / "web" / "src")
    assert len(graph) > 10 and sum(map(len, graph.values())) > 20
    assert ("Play",) in graph and ("wallet",) in graph[("Play",)], "the detector reads the imports"
    assert not circles(graph), f"web modules that import each other: {circles(graph)}"


ARG_FIELD = re.compile(r"#\[arg\([^\]]*\]\s*(?:///[^\n]*\s*)*(?:pub\s+)?(\w+)\s*:", re.S)


def test_the_network_option_has_one_declaration() -> None:
    """`--network` is declared once (`net::NetworkArgs`); every command flattens it and
    adjusts its default or help with `mut_arg`, so its names and parser cannot drift."""
    cli = ROOT / "rust" / "cli"
    declared = {
        str(p.relative_to(cli)) for p in cli.rglob("*.rs") if "network" in ARG_FIELD.findall(p.read_text())
    }
    assert declared == {"net.rs"}, f"--network declared in {sorted(declared)}"
    assert "app_id" in ARG_FIELD.findall((cli / "net.rs").read_text()), "the detector reads the fields"
