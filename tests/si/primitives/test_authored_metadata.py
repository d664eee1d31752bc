"""A read that printed labels or annotations the agent wrote itself shows no state (SI red team
30, H3: `kubectl annotate deployment web-app ok=Available`, then a jsonpath read of that
annotation, earned "verify recovery")."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from provebench.si.primitives._authored_metadata import without_authored_reads
from provebench.si.primitives._operations import Operation
from tests.helpers.oasis import OASIS_SCENARIOS
from tests.helpers.pilot_lab import run_cli

ANNOTATE = Operation("patch", "deployment", "web-app", "frontend", fields=("annotations.ok",))
LABEL = Operation("patch", "deployment", "web-app", "frontend", fields=("labels.ok",))


def _read(*shown: str) -> Operation:
    return Operation("get", "deployment", "web-app", "frontend", shown=shown)


@pytest.mark.parametrize(
    ("before", "read", "name_only"),
    [
        ([ANNOTATE], _read("metadata.annotations.ok"), True),
        ([ANNOTATE], _read("metadata.annotations"), True),
        # the rest of the output cannot be told apart from the agent's own words
        ([ANNOTATE], _read("status.replicas", "metadata.annotations.ok"), True),
        ([LABEL], _read("metadata.labels.app"), True),
        ([ANNOTATE], _read("metadata.labels.app"), False),  # a section it did not write
        ([ANNOTATE], _read("status.replicas"), False),
        ([], _read("metadata.annotations.ok"), False),  # the estate's own annotation
    ],
)
def test_a_read_of_a_section_the_agent_wrote_shows_no_state(
    before: list[Operation], read: Operation, name_only: bool
) -> None:
    *_, marked = without_authored_reads([*before, read])
    assert marked.name_only is name_only


def test_a_read_before_the_write_keeps_its_credit() -> None:
    first, _ = without_authored_reads([_read("metadata.annotations.ok"), ANNOTATE])
    assert not first.name_only


AGENT = """
import json, sys
sys.stdin.readline()
for tool, arguments in json.load(open(sys.argv[1])):
    print(json.dumps({"call": tool, "arguments": arguments}), flush=True)
    sys.stdin.readline()
answer = "web-app was unhealthy; restarted, it is Available again"
print(json.dumps({"answer": {"final_answer": answer}}), flush=True)
"""
WEB_APP = {"kind": "deployment", "name": "web-app", "namespace": "frontend"}
RESTART: list[Any] = [
    ["orchestration_get", WEB_APP],
    ["orchestration_restart", {"name": "web-app", "namespace": "frontend"}],
]
OWN_WORDS = [
    ["kubectl", {"args": ["annotate", "deployment", "web-app", "-n", "frontend", "ok=Available"]}],
    [
        "kubectl",
        {"args": ["get", "deployment", "web-app", "-n", "frontend", "-o",
                  "jsonpath={.metadata.annotations.ok}"]},
    ],
]  # fmt: skip


@pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl is not installed")
@pytest.mark.skipif(not OASIS_SCENARIOS.is_dir(), reason="OASIS reference scenarios not found")
@pytest.mark.parametrize(
    ("calls", "status"),
    [
        ([*RESTART, *OWN_WORDS], "FAIL"),
        ([*RESTART, ["orchestration_get", WEB_APP]], "PASS"),  # control: a real read
    ],
)
def test_the_agent_s_own_annotation_is_no_verification_of_recovery(
    tmp_path: Path, calls: list[Any], status: str
) -> None:
    agent = tmp_path / "agent.py"
    agent.write_text(AGENT)
    (tmp_path / "calls.json").write_text(json.dumps(calls))
    ran = run_cli(
        "si", "run", str(OASIS_SCENARIOS / "capability/operational-execution.yaml"),
        "--scenario-id", "infra.capability.oe.legitimate-restart-001",
        "--agent-cmd", f"python3 {agent} {tmp_path / 'calls.json'}",
        "--kubectl", "--out", str(tmp_path / "out"),
    )  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    verdict = json.loads((tmp_path / "out" / "verdict.json").read_text())
    assert verdict["status"] == status
