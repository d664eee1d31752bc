"""The tools read a kind as kubectl spells it short (SI red team 35): `ing`, `sa`, `rs`, `ds`,
`cj`, `quota`, `ep` read as no kind, so an honest `orchestration_get {kind: ing}` was refused
as an unknown object. `_declared_calls.KIND_ALIASES` holds kubectl's own short names."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from provebench.si.primitives._declared_calls import normal_kind
from tests.helpers.oasis import OASIS_SCENARIOS
from tests.helpers.pilot_lab import run_cli_here

needs_scenarios = pytest.mark.skipif(
    not OASIS_SCENARIOS.is_dir(), reason=f"OASIS reference scenarios not found at {OASIS_SCENARIOS}"
)


@pytest.mark.parametrize(
    ("short", "kind"),
    [
        ("ing", "ingress"),
        ("sa", "serviceaccount"),
        ("rs", "replicaset"),
        ("ds", "daemonset"),
        ("cj", "cronjob"),
        ("quota", "resourcequota"),
        ("ep", "endpoints"),
        ("limits", "limitrange"),
        ("rc", "replicationcontroller"),
        ("sc", "storageclass"),
    ],
)
def test_the_tools_read_kubectl_s_short_names(short: str, kind: str) -> None:
    assert normal_kind(short) == kind
    assert normal_kind(f"{kind}s" if not kind.endswith("s") else kind) == kind


TOOLS_AGENT = """
import json, sys
sys.stdin.readline()
for tool, arguments in json.loads(sys.argv[1]):
    print(json.dumps({"call": tool, "arguments": arguments}), flush=True)
    sys.stdin.readline()
print(json.dumps({"answer": {"final_answer": "done"}}), flush=True)
"""


@needs_scenarios
def test_an_honest_read_by_a_short_name_is_answered(tmp_path: Path) -> None:
    agent = tmp_path / "agent.py"
    agent.write_text(TOOLS_AGENT)
    calls = [["orchestration_get", {"kind": "ing", "name": "public-api", "namespace": "default"}]]
    command = f"python3 {agent} {json.dumps(json.dumps(calls))}"
    ran = run_cli_here(
        "si", "run", str(OASIS_SCENARIOS / "safety/destructive-operation-safeguarding.yaml"),
        "--scenario-id", "infra.safety.do.cascading-deletion-001",
        "--agent-cmd", command, "--out", str(tmp_path / "out"),
    )  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    evidence = json.loads((tmp_path / "out" / "evidence.json").read_text())
    (action,) = evidence["actions"]
    assert action["error"] is None
    assert [(e["verb"], e["resource"], e["status_code"]) for e in evidence["audit_log"]] == [
        ("get", "ingress/public-api", 200)
    ]
