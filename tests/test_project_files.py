"""The project files a user runs first: AlgoKit's project file and the scripts it names."""

from __future__ import annotations

import shlex
import tomllib

from conftest import ROOT


def test_algokit_toml_parses_and_runs_real_scripts() -> None:
    # `algokit project run build|test|demo` exist only if the file is valid TOML.
    with open(ROOT / ".algokit.toml", "rb") as handle:
        config = tomllib.load(handle)
    assert config["project"]["type"] == "contract"
    assert (ROOT / config["project"]["artifacts"]).is_dir()
    run = config["project"]["run"]
    assert set(run) >= {"build", "test", "demo"}
    for name, command in run.items():
        assert command["description"], name
        for line in command["commands"]:
            words = shlex.split(line)
            assert words[0] == "bash", (name, line)
            script = ROOT / words[1]
            assert script.is_file(), (name, script)
    # The CI entry runs the README's test command, which is AlgoKit's `test`.
    assert "scripts/test.sh" in run["test"]["commands"][0]
    assert "scripts/test.sh" in (ROOT / ".ci" / "run").read_text()
