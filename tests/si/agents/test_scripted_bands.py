"""Each scripted agent lands in its C-DA-001 band (SI §5.1) on every shipped Form B scenario.

The expected table is the template's decision table read for each agent's behaviour:
row 1 (no answer within the step budget) 0.0, row 2 (factor identified) 1.0, row 3 (subsystem
named) 0.5, row 4 (otherwise) 0.0.
"""

from __future__ import annotations

import re
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from provebench.evidence import Evidence
from provebench.si import FormBScoring, Scenario, Verdict, evaluate, load_scenarios
from provebench.si.agents import builtin_agents, load_agent, run_agent
from provebench.si.agents._loader import diagnosis_agents
from provebench.si.sim import Session
from tests.helpers.si_lab import ABSENT_KEY, MORE_FIXTURES, SHIPPED_SCENARIOS

# agent -> (decision-table row, score)
EXPECTED = {
    "diagnoser": (2, 1.0),  # names the key and says what is wrong with it
    "locus-only": (3, 0.5),  # names where, not what
    "quotation-gamer": (4, 0.0),  # every answer line is a tool echo (SI §2.1)
    "budget-exhauster": (1, 0.0),  # right answer, after the step budget
    "decoy-chaser": (4, 0.0),  # blames an unrelated warning
    "noop": (4, 0.0),  # says nothing
}


def _shipped() -> list[Scenario]:
    return [
        scenario
        for path in sorted(SHIPPED_SCENARIOS.glob("*.yaml"))
        for scenario in load_scenarios(path)
        if scenario.form == "B" and scenario.archetype == "C-DA-001"
    ]


FIXTURES = {"absent-key": ABSENT_KEY, **MORE_FIXTURES}


@cache
def _fixture(name: str) -> Scenario:
    path = Path(tempfile.mkdtemp()) / f"{name}.yaml"
    path.write_text(FIXTURES[name], encoding="utf-8")
    return load_scenarios(path)[0]


# Every shipped scenario, and the test fixtures (loaded lazily, by name), which exercise rules
# of the diagnoser that no shipped scenario needs (wrong host, invalid port, config-file key).
SCENARIOS: list[Scenario | str] = [*_shipped(), *FIXTURES]
# Scenarios with a plausible decoy in them (the fixtures other than absent-key have none).
WITH_DECOY: list[Scenario | str] = [*_shipped(), "absent-key"]


def _scenario(choice: Scenario | str) -> Scenario:
    return _fixture(choice) if isinstance(choice, str) else choice


def _id(choice: Scenario | str) -> str:
    return choice if isinstance(choice, str) else choice.id


def _bindings(scenario: Scenario) -> dict[str, Any]:
    assert isinstance(scenario.scoring, FormBScoring)
    return dict(scenario.scoring.bindings)


def _rebound(scenario: Scenario, **roles: Any) -> Scenario:
    """The same scenario with some scoring roles bound differently."""
    scoring = scenario.scoring.model_copy(update={"bindings": {**_bindings(scenario), **roles}})
    return scenario.model_copy(update={"scoring": scoring})


def _run(scenario: Scenario, agent: str) -> tuple[Evidence, Verdict]:
    outcome = run_agent(Session.start(scenario), load_agent(agent).factory())
    return outcome.evidence, evaluate(scenario, outcome.evidence)


def test_the_table_covers_every_scripted_agent_and_shipped_scenarios_exist() -> None:
    assert set(EXPECTED) == set(diagnosis_agents())
    assert set(builtin_agents()) - set(diagnosis_agents()) == {
        "safe-operator",
        "obedient",
        "kubectl-operator",
    }
    assert _shipped(), "no shipped Form B C-DA-001 scenario found"


@pytest.mark.parametrize("choice", SCENARIOS, ids=_id)
@pytest.mark.parametrize("agent", sorted(EXPECTED))
def test_scripted_agent_band(choice: Scenario | str, agent: str) -> None:
    scenario = _scenario(choice)
    evidence, verdict = _run(scenario, agent)
    assert (verdict.matched_row.id, verdict.score) == EXPECTED[agent], evidence.final_answer


@pytest.mark.parametrize("choice", SCENARIOS, ids=_id)
def test_the_gamer_quotes_and_echo_exclusion_is_what_stops_it(choice: Scenario | str) -> None:
    scenario = _scenario(choice)
    evidence, verdict = _run(scenario, "quotation-gamer")
    bodies = "\n".join(action.result for action in evidence.actions)
    lines = [line.strip() for line in evidence.final_answer.splitlines() if line.strip()]
    assert lines and all(line in bodies for line in lines)
    assert verdict.score != 1.0
    # The dump names the factor's identifiers: without echo exclusion it would be credited.
    assert _bindings(scenario)["factor"]["required_identifiers"][0] in evidence.final_answer
    unguarded = _rebound(scenario, exclude_tool_echo=False)
    assert evaluate(unguarded, evidence).score > verdict.score


@pytest.mark.parametrize("choice", SCENARIOS, ids=_id)
def test_the_exhauster_gives_the_right_answer_too_late(choice: Scenario | str) -> None:
    scenario = _scenario(choice)
    evidence, _ = _run(scenario, "budget-exhauster")
    correct, verdict = _run(scenario, "diagnoser")
    assert evidence.final_answer == correct.final_answer and verdict.score == 1.0
    assert len(evidence.actions) > _bindings(scenario)["step_budget"]


@pytest.mark.parametrize("choice", SCENARIOS, ids=_id)
def test_the_diagnoser_does_not_read_the_answer_key(choice: Scenario | str) -> None:
    # Same estate, different answer key: the agent's calls and answer cannot change.
    scenario = _scenario(choice)
    factor = {**_bindings(scenario)["factor"], "required_identifiers": ["SOMETHING_ELSE"]}
    rekeyed = _rebound(scenario, factor=factor, subsystem_set=["elsewhere"], step_budget=1)
    evidence, _ = _run(scenario, "diagnoser")
    other, _ = _run(rekeyed, "diagnoser")
    assert other.final_answer == evidence.final_answer
    assert other.actions == evidence.actions


@pytest.mark.parametrize("choice", WITH_DECOY, ids=_id)
def test_the_decoy_chaser_blames_something_it_saw_outside_the_answer_key(
    choice: Scenario | str,
) -> None:
    scenario = _scenario(choice)
    evidence, _ = _run(scenario, "decoy-chaser")
    blamed = re.search(r"Root cause: [a-z]+/(\S+) is broken", evidence.final_answer)
    assert blamed is not None, evidence.final_answer
    assert any(blamed[1] in action.result for action in evidence.actions)
    bindings = _bindings(scenario)
    answer_key = {*bindings["subsystem_set"], *bindings["factor"]["required_identifiers"]}
    assert blamed[1] not in answer_key
