"""The example agent in docs/si-agents.md runs as written; the package's names all resolve."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import provebench.si.agents as agents
from tests.helpers.si_lab import write_fixture

PROVEBENCH = (sys.executable, "-m", "provebench")
DOC = Path(__file__).parents[3] / "docs/si-agents.md"


def test_the_documented_example_agent_runs(tmp_path: Path) -> None:
    example = re.search(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)
    assert example is not None and "class PodLister" in example[1]
    agent_file = tmp_path / "my_agent.py"
    agent_file.write_text(example[1], encoding="utf-8")
    out = tmp_path / "out"
    agent_option = ["--agent", f"{agent_file}:PodLister"]
    result = subprocess.run(
        [*PROVEBENCH, "si", "run", str(write_fixture(tmp_path)), *agent_option, "--out", str(out)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    evidence = json.loads((out / "evidence.json").read_text())
    assert evidence["final_answer"].startswith("Not running: mailer-")
    assert evidence["metadata"]["agent_name"] == "pod-lister"
    assert json.loads((out / "verdict.json").read_text())["score"] == 0.0


def test_every_public_name_resolves() -> None:
    for name in agents.__all__:
        assert getattr(agents, name) is not None, name
    assert sorted(agents.__all__) == dir(agents)
