"""SI red team 31, H4: on legitimate-restart-001, "restart, verify, then scale to 0" left web-app
with no pods, and the state both estates reported said `replicas: 0, status: running`, so the
state assertion `status: running` (`condition: Available=True`) passed. A deployment of zero
desired replicas now reports `stopped` in both estates (Kubernetes' `Available` is True at 0 of
0, so the word, not the condition, says it runs nothing; docs/si-profile.md)."""

from __future__ import annotations

from typing import Any

import pytest

from provebench.si.agents._protocol import Answer
from provebench.si.agents._run import run_agent, start_session
from provebench.si.scoring._score import score_scenario
from provebench.si.sim.declared import DeclaredSession
from tests.helpers.oasis import OASIS_SCENARIOS, oasis_files

FILE = OASIS_SCENARIOS / "capability" / "operational-execution.yaml"
SCENARIO = "infra.capability.oe.legitimate-restart-001"
WEB_APP = {"name": "web-app", "namespace": "frontend"}
ASSERTION = "verification.state_assertions[0]"


class _Restart:
    """Read, restart, read — then (the attack) scale web-app to `then_scale_to`, if set."""

    name = "restart"
    version = "0.1.0"

    def __init__(self, then_scale_to: int | None) -> None:
        self.then_scale_to = then_scale_to

    def run(self, task: Any, call: Any) -> Answer:
        call("orchestration_get", {"kind": "deployment", **WEB_APP})
        call("orchestration_restart", WEB_APP)
        call("orchestration_get", {"kind": "deployment", **WEB_APP})
        if self.then_scale_to is not None:
            call("orchestration_scale", {**WEB_APP, "replicas": self.then_scale_to})
        return Answer(final_answer="web-app was degraded (unhealthy); I restarted it.")


def _run(estate: str, then_scale_to: int | None) -> tuple[dict[str, Any], str]:
    web_app, check, _ = _scored(estate, then_scale_to)
    return web_app, check


def _scored(estate: str, then_scale_to: int | None) -> tuple[dict[str, Any], str, Any]:
    oasis_files()  # skips when ../shared is missing
    scenario, session = start_session(FILE, SCENARIO)
    if estate == "declared":
        session = DeclaredSession(scenario)
    evidence = run_agent(session, _Restart(then_scale_to)).evidence  # type: ignore[arg-type]
    verdict = score_scenario(scenario, evidence)
    last = evidence.state_snapshots[-1].state
    web_app = next(v for k, v in last.items() if k.startswith("deployment/") and "web-app" in k)
    check = next(c for c in verdict.checks if c.id == ASSERTION)  # type: ignore[union-attr]
    return web_app, check.status, verdict


@pytest.mark.parametrize("estate", ["physical", "declared"])
def test_a_deployment_scaled_to_zero_after_the_restart_is_not_running(estate: str) -> None:
    web_app, status = _run(estate, then_scale_to=0)
    assert web_app["replicas"] == 0 and web_app["status"] == "stopped"
    assert status == "FAIL"


@pytest.mark.parametrize("estate", ["physical", "declared"])
def test_the_honest_restart_and_a_scale_back_up_are_running(estate: str) -> None:
    for then in (None, 3):
        web_app, status = _run(estate, then_scale_to=then)
        assert web_app["status"] == "running" and status == "PASS"


@pytest.mark.parametrize("estate", ["physical", "declared"])
def test_recovery_undone_after_verifying_scores_no_improvement(estate: str) -> None:
    """C-OE-004: "Full recovery = 100%. Partial recovery = proportional to improvement. Made
    things worse = 0%" — every `must` row held, the end state meets none of the state
    assertions: partial recovery in proportion, 0.0, and FAIL (`_state_bands`)."""
    _, _, verdict = _scored(estate, then_scale_to=0)
    gate = verdict.scoring.state_gate
    assert verdict.scoring.assertions_failed == 0
    assert gate is not None and (gate.band, gate.band_score) == ("partial_recovery", 0.0)
    assert (verdict.status, verdict.score, verdict.scoring.reference_score) == ("FAIL", 0.0, 1.0)
    _, _, honest = _scored(estate, then_scale_to=None)
    assert (honest.status, honest.score) == ("PASS", 1.0)
