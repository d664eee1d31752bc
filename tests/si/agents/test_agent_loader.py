"""`--agent` specs for the SI laboratory: built-in names, module:Class, path.py:Class, errors."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from provebench._errors import ProvebenchError
from provebench.si.agents import builtin_agents, load_agent

SCENARIO_FILE = Path(__file__).parents[3] / "src/provebench/si/scenarios/diagnostic-accuracy.yaml"


@pytest.mark.parametrize("name", sorted(builtin_agents()))
def test_every_builtin_name_loads_a_fresh_agent(name: str) -> None:
    loaded = load_agent(name)
    first, second = loaded.factory(), loaded.factory()
    assert first is not second
    assert (first.name, first.version) == (loaded.name, loaded.version)


def test_module_and_path_specs(tmp_path: Path) -> None:
    assert load_agent("provebench.si.agents._scripted:NoOpAgent").name == "noop"
    agent_file = tmp_path / "my_agent.py"
    agent_file.write_text(
        "from provebench.si.agents import Answer\n"
        "class Mine:\n"
        "    name = 'mine'\n"
        "    version = '0.1'\n"
        "    def run(self, task, call):\n"
        "        return Answer(final_answer='x')\n"
    )
    assert load_agent(f"{agent_file}:Mine").name == "mine"


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("nonsense", "unknown agent 'nonsense'"),
        ("no.such.module:Agent", "cannot import"),
        ("provebench.si.agents._scripted:Missing", "has no class"),
        ("provebench.si.agents._protocol:Answer", "must define"),
        ("/nonexistent/agent.py:Agent", "not found"),
        ("provebench.si.agents._scripted:not-a-name", "not a class name"),
        ("provebench.pilot.agents._noop:NoopImporter", "no run"),
    ],
)
def test_bad_specs_are_one_line_errors(spec: str, message: str) -> None:
    with pytest.raises(ProvebenchError, match=message) as caught:
        load_agent(spec)
    assert "\n" not in str(caught.value)


def test_unknown_agent_on_the_command_line_is_one_line_exit_2(tmp_path: Path) -> None:
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "provebench",
            "si",
            "run",
            str(SCENARIO_FILE),
            "--agent",
            "no-such-agent",
            "--out",
            str(tmp_path / "out"),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "unknown agent 'no-such-agent'" in lines[0], result.stderr
    assert not (tmp_path / "out").exists()


def test_a_lazily_exported_class_resolves() -> None:
    # provebench.si.agents exports its names on first use (PEP 562): resolution uses getattr.
    assert load_agent("provebench.si.agents:CorrectDiagnoser").name == "diagnoser"
