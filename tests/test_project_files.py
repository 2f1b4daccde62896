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


def test_algokit_toml_deploys_through_the_cli() -> None:
    # `algokit project deploy localnet|testnet` runs the CLI's `deploy` on that network.
    with open(ROOT / ".algokit.toml", "rb") as handle:
        config = tomllib.load(handle)
    project = config["project"]
    assert set(project["run"]) >= {"build", "test", "demo"}
    deploy = project["deploy"]
    # The network names the CLI's --network accepts, read from its source.
    net = (ROOT / "rust" / "cli" / "net.rs").read_text()
    accepted = next(line for line in net.splitlines() if "pub const NETWORKS" in line)
    for env, network in [(None, "auto"), ("localnet", "localnet"), ("testnet", "testnet")]:
        section = deploy if env is None else deploy[env]
        words = shlex.split(section["command"])
        # cargo runs the root package's `algoku` binary (the default run target).
        assert words[:2] == ["cargo", "run"], section
        assert "--release" in words and "--locked" in words, section
        cli = words[words.index("--") + 1 :]
        assert cli == ["deploy", "--network", network], section
        assert f'"{network}"' in accepted, (network, accepted)
        assert isinstance(section["environment_secrets"], list)
    # LocalNet funds the deployer from KMD; TestNet signs with the mnemonic.
    assert deploy["localnet"]["environment_secrets"] == []
    assert deploy["testnet"]["environment_secrets"] == ["DEPLOYER_MNEMONIC"]
    # The mnemonic is never a general secret (it would be asked for on LocalNet).
    assert "DEPLOYER_MNEMONIC" not in deploy["environment_secrets"]
    # AlgoKit's TestNet default sets ALGOD_SERVER alone; .env.testnet (which
    # AlgoKit loads for `deploy testnet`) gives the port too, and no secret.
    env = dict(
        line.split("=", 1)
        for line in (ROOT / ".env.testnet").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    )
    assert env["ALGOD_SERVER"].startswith("https://")
    assert env["ALGOD_PORT"] == "443"
    assert "DEPLOYER_MNEMONIC" not in env
    # The Cargo default-run target is the CLI, so `cargo run --` is `algoku`.
    with open(ROOT / "Cargo.toml", "rb") as handle:
        cargo = tomllib.load(handle)
    assert cargo["package"]["default-run"] == "algoku"
