"""SI agents provebench did not ship run sealed: classes through the worker, programs through
the JSON-lines agent protocol (docs/si-agents.md, docs/sandbox.md)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.si_lab import write_fixture

pytestmark = [pytest.mark.timeout(120), pytest.mark.slow]  # slow: not in make check

PROVEBENCH = (sys.executable, "-m", "provebench")
DOC = Path(__file__).parents[2] / "docs/si-agents.md"
SHIPPED_SCENARIOS = Path(__file__).parents[2] / "src/provebench/si/scenarios"


def si_run(tmp_path: Path, *agent: str, extra: tuple[str, ...] = ()) -> tuple[Any, dict[str, Any]]:
    out = tmp_path / "out"
    result = subprocess.run(
        [*PROVEBENCH, "si", "run", str(write_fixture(tmp_path)), *agent, "--out", str(out), *extra],
        capture_output=True,
        text=True,
        check=False,
        timeout=100,
    )
    evidence = (
        json.loads((out / "evidence.json").read_text()) if (out / "evidence.json").exists() else {}
    )
    return result, evidence


def test_the_documented_protocol_agent_runs(tmp_path: Path) -> None:
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)
    [program] = [block for block in blocks if "sys.stdin.readline()" in block]
    (tmp_path / "my_agent.py").write_text(program, encoding="utf-8")
    result, evidence = si_run(tmp_path, "--agent-cmd", f"python3 {tmp_path / 'my_agent.py'}")
    assert result.returncode == 0, result.stderr
    assert evidence["final_answer"].startswith("Pods:\n")
    assert [action["tool"] for action in evidence["actions"]] == ["orchestration_list"]
    metadata = evidence["metadata"]
    assert metadata["agent_name"] == "external"
    assert metadata["agent_isolation"]["mode"] == "sandbox"
    verdict = json.loads((tmp_path / "out" / "verdict.json").read_text())
    assert verdict["non_scoring"]["agent_isolation"] == metadata["agent_isolation"]


PEEKER = """
from pathlib import Path
from provebench.si.agents import Answer


class Peeker:
    name = "peeker"
    version = "1"

    def run(self, task, call):
        found = []
        for target in TARGETS:
            try:
                found.append(f"{target}: {len(Path(target).read_text())} bytes")
            except IsADirectoryError:
                found.append(f"{target}: {sorted(p.name for p in Path(target).iterdir())}")
            except OSError as error:
                found.append(f"{target}: refused {type(error).__name__}")
        return Answer(final_answer="\\n".join(found))
"""


def test_a_sealed_agent_reads_no_scenario_and_no_shipped_answer_key(tmp_path: Path) -> None:
    scenario = write_fixture(tmp_path)
    targets = [str(scenario), str(SHIPPED_SCENARIOS), str(tmp_path / "out")]
    (tmp_path / "peeker.py").write_text(f"TARGETS = {targets!r}\n" + PEEKER, encoding="utf-8")
    result, evidence = si_run(tmp_path, "--agent", f"{tmp_path / 'peeker.py'}:Peeker")
    assert result.returncode == 0, result.stderr
    lines = evidence["final_answer"].splitlines()
    assert len(lines) == 3, lines
    # beside the agent's code: the run's snapshot of that folder never held it (red team round
    # 13b, H5: a class runs from its snapshot, as a pilot run does)
    assert lines[0] == f"{scenario}: refused FileNotFoundError"
    assert lines[1] == f"{SHIPPED_SCENARIOS}: []"  # an empty, read-only folder
    assert lines[2] in (f"{tmp_path / 'out'}: []", f"{tmp_path / 'out'}: refused FileNotFoundError")
    assert evidence["metadata"]["agent_isolation"]["mode"] == "sandbox"


def test_a_sealed_agent_given_through_a_link_reads_no_scenario_beside_it(tmp_path: Path) -> None:
    """The agent's code folder spelled through a link to the folder that holds the scenario:
    bubblewrap shows the folder, and the scenario is hidden where it shows it (by identity)."""
    scenario = write_fixture(tmp_path)
    alias = tmp_path.parent / f"{tmp_path.name}-alias"
    alias.symlink_to(tmp_path)
    targets = [str(alias / scenario.name)]
    (tmp_path / "peeker.py").write_text(f"TARGETS = {targets!r}\n" + PEEKER, encoding="utf-8")
    result, evidence = si_run(tmp_path, "--agent", f"{alias / 'peeker.py'}:Peeker")
    assert result.returncode == 0, result.stderr
    assert evidence["final_answer"] == f"{targets[0]}: refused FileNotFoundError"


def test_a_sealed_agent_never_reads_the_laboratory_key_that_signs_its_run(
    tmp_path: Path,
) -> None:
    # The key folder inside the agent's own code folder: shown with the code unless hidden.
    keys = tmp_path / "keys"
    (tmp_path / "peeker.py").write_text(f"TARGETS = {[str(keys)]!r}\n" + PEEKER, encoding="utf-8")
    out = tmp_path / "out"
    env = {**os.environ, "PROVEBENCH_KEY_DIR": str(keys)}
    made = subprocess.run([*PROVEBENCH, "attest", "key"], env=env, capture_output=True, check=False)
    assert made.returncode == 0 and len(list(keys.iterdir())) >= 2  # the key, before the run
    result = subprocess.run(
        [*PROVEBENCH, "si", "run", str(write_fixture(tmp_path)), "--agent",
         f"{tmp_path / 'peeker.py'}:Peeker", "--out", str(out)],
        capture_output=True, text=True, check=False, timeout=100,
        env=env,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    answer = json.loads((out / "evidence.json").read_text())["final_answer"]
    assert answer == f"{keys}: refused FileNotFoundError"  # not in the code's snapshot
    assert (out / "run.dsse.json").is_file()


@pytest.mark.parametrize(
    ("program", "ending"),
    [
        ("print('not json', flush=True)", "AgentChannelLost"),
        ("import sys; sys.stdin.readline()", "AgentChannelLost: the agent ended without answering"),
        ("print('[1, 2]', flush=True)", "ProtocolError: a message must be a JSON object"),
        ('print(\'{"call": "x", "arguments": 3}\', flush=True)', "ProtocolError"),
        ("print('{\"hello\": 1}', flush=True)", "ProtocolError: unexpected message 'hello'"),
        (
            'print(\'{"error": {"type": "Gave", "message": "up"}}\', flush=True)',
            "Gave: up",
        ),
        ("import time; time.sleep(30)", "no message from the agent within its time limit"),
    ],
)
def test_a_broken_protocol_is_the_agents_error(tmp_path: Path, program: str, ending: str) -> None:
    (tmp_path / "agent.py").write_text(program + "\n", encoding="utf-8")
    result, evidence = si_run(
        tmp_path, "--agent-cmd", f"python3 {tmp_path / 'agent.py'}", extra=("--agent-timeout", "2")
    )
    assert result.returncode == 0, result.stderr
    assert "agent_error: " in result.stdout and ending in result.stdout, result.stdout
    assert evidence["final_answer"] == ""


def test_the_tool_call_cap_holds_for_a_program(tmp_path: Path) -> None:
    program = textwrap.dedent(
        """
        import json, sys
        sys.stdin.readline()
        while True:
            print(json.dumps({"call": "orchestration_list", "arguments": {"kind": "pod"}}),
                  flush=True)
            sys.stdin.readline()
        """
    )
    (tmp_path / "agent.py").write_text(program, encoding="utf-8")
    result, evidence = si_run(
        tmp_path, "--agent-cmd", f"python3 {tmp_path / 'agent.py'}", extra=("--max-tool-calls", "3")
    )
    assert result.returncode == 0, result.stderr
    assert "tool_call_cap" in result.stdout
    assert len(evidence["actions"]) == 3 and evidence["final_answer"] == ""


def test_exactly_one_of_agent_and_agent_cmd(tmp_path: Path) -> None:
    result, _ = si_run(tmp_path, "--agent", "noop", "--agent-cmd", "python3 x.py")
    assert result.returncode == 2
    assert "exactly one of --agent, --agent-cmd and --agent-url" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
