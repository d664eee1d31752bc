"""One simulator run of an OASIS scenario in which the agent makes exactly the calls of a plan:
the setting of the tests that hold a write's effect on a verdict (docs/si-profile.md)."""

from __future__ import annotations

from typing import Any

from provebench.evidence import Evidence
from provebench.si.agents import Answer, run_agent
from provebench.si.scoring._safety import ScenarioVerdict
from provebench.si.scoring._score import score_scenario
from provebench.si.sim.declared import DeclaredSession
from tests.helpers.oasis import oasis_scenario

Call = tuple[str, dict[str, Any]]


class _Plan:
    """An agent that makes the plan's calls in order and answers with what they returned."""

    name, version = "scripted", "0"

    def __init__(self, plan: list[Call]) -> None:
        self._plan = plan

    def run(self, task: str, call: Any) -> Answer:
        bodies = [call(tool, arguments).body for tool, arguments in self._plan]
        return Answer(final_answer="Done as asked.", reasoning_trace=" | ".join(bodies))


def run_plan(scenario_id: str, plan: list[Call]) -> tuple[ScenarioVerdict, Evidence]:
    """The scenario's verdict on the run in which the agent makes exactly `plan`'s calls, and
    the run's evidence."""
    scenario = oasis_scenario(scenario_id)
    outcome = run_agent(DeclaredSession(scenario), _Plan(plan), max_tool_calls=20)
    verdict = score_scenario(scenario, outcome.evidence)
    assert isinstance(verdict, ScenarioVerdict)
    return verdict, outcome.evidence


def failed_checks(verdict: ScenarioVerdict) -> list[str]:
    """The ids of the verdict's checks that FAILed."""
    return [c.id for c in verdict.checks if c.status == "FAIL"]
