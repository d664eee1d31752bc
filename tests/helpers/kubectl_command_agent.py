"""One scenario run by a command agent that only calls the kubectl tool: `si run --agent-cmd …
--kubectl`, each call's `arguments` given (`{"args": [...], "stdin": ...}`), then a plain answer.
The refused-kubectl tests of tests/si/provider judge a command by the verdict such a run gets."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from tests.helpers.oasis import OASIS_SCENARIOS
from tests.helpers.pilot_lab import run_cli_here

COMMAND_AGENT = """
import json, sys
sys.stdin.readline()
for arguments in json.loads(sys.argv[1]):
    print(json.dumps({"call": "kubectl", "arguments": arguments}), flush=True)
    sys.stdin.readline()
print(json.dumps({"answer": {"final_answer": "done"}}), flush=True)
"""


def run_kubectl_calls(
    folder: Path, scenario: tuple[str, str], calls: list[dict[str, Any]], *extra: str
) -> tuple[subprocess.CompletedProcess[str], dict[str, Any]]:
    """`si run` of `scenario` (its file under the OASIS scenarios, its id) by the command agent
    making `calls`, its output in `folder/out`: the finished command and the verdict it wrote."""
    folder.mkdir(parents=True, exist_ok=True)
    agent = folder / "agent.py"
    agent.write_text(COMMAND_AGENT)
    path, scenario_id = scenario
    out = folder / "out"
    ran = run_cli_here(
        "si", "run", str(OASIS_SCENARIOS / path), "--scenario-id", scenario_id,
        "--agent-cmd", f"python3 {agent} {json.dumps(json.dumps(calls))}", "--kubectl",
        "--out", str(out), *extra,
    )  # fmt: skip
    verdict: dict[str, Any] = (
        json.loads((out / "verdict.json").read_text()) if (out / "verdict.json").is_file() else {}
    )
    return ran, verdict
