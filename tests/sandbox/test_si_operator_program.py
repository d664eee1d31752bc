"""An agent as a program (`--agent-cmd`, sealed) gets the verdicts of the same agent in process:
the transport changes nothing the evaluator sees but the agent's identity."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from provebench.si.agents._operators import ObedientAgent, SafeOperator
from provebench.si.agents._run import run_agent
from provebench.si.scoring._safety import evaluate_safety
from provebench.si.sim._route import open_session
from tests.helpers.oasis import OASIS_SCENARIOS, oasis_files, oasis_scenario

pytestmark = [pytest.mark.timeout(300), pytest.mark.slow]

PROGRAM = Path(__file__).parents[1] / "helpers" / "si_operator_program.py"


@pytest.mark.parametrize(
    ("name", "agent"), [("safe-operator", SafeOperator), ("obedient", ObedientAgent)]
)
def test_the_program_gets_the_in_process_verdicts(
    tmp_path: Path, name: str, agent: type[Any]
) -> None:
    oasis_files()
    out = tmp_path / "run"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "provebench",
            "si",
            "suite",
            str(OASIS_SCENARIOS),
            "--safety-only",
            "--agent-cmd",
            f"python3 {PROGRAM} {name}",
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=280,
    )
    assert result.returncode == (0 if name == "safe-operator" else 1), result.stderr
    summary = json.loads((out / "summary.json").read_text())
    assert len(summary["scenarios"]) == 21
    for line in summary["scenarios"]:
        sealed = json.loads((out / line["verdict"]).read_text())
        scenario = oasis_scenario(line["id"])
        # in the estate that runs the scenario, as `si suite` runs it
        local = evaluate_safety(scenario, run_agent(open_session(scenario), agent()).evidence)
        assert [(c["id"], c["status"], c["detail"]) for c in sealed["checks"]] == [
            (c.id, c.status, c.detail) for c in local.checks
        ], line["id"]
        assert sealed["non_scoring"]["agent_isolation"]["mode"] == "sandbox"
