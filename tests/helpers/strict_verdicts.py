"""What the strict-reading tests assert of a C-DA-001 verdict, kept once: a word game keeps its
ratified top band (SI §3 is normative) and loses the strict one; an honest phrasing keeps the
top band under the strict reading with no finding (docs/si-scoring.md §11). And the one setting
those tests score in: the shipped C-DA-001 scenario after one listing of the failing pod."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import provebench.si
from provebench.si import load_scenarios
from provebench.si.scenario import Scenario
from provebench.si.scoring import Verdict, evaluate
from provebench.si.scoring._strict import Reading
from tests.helpers.si_evidence import make_evidence

TOP = ("correct_root_cause", 1.0)
SHIPPED_SCENARIOS = Path(provebench.si.__file__).parent / "scenarios"
# What the agent's one listing showed: the pods of the shipped C-DA-001 scenario's workload.
CONFIG_ERROR_POD = "NAME READY STATUS\nnotification-service-7c9f 0/1 CreateContainerConfigError"
CRASH_LOOP_POD = "NAME READY STATUS\nnotification-service-7c9d 0/1 CrashLoopBackOff"


@cache
def shipped_scenario(file_name: str) -> Scenario:
    """The first scenario of a shipped scenario file, loaded once per test process."""
    return load_scenarios(SHIPPED_SCENARIOS / file_name)[0]


def c_da_001_verdict(
    answer: str, reading: Reading = "ratified", *, tool_body: str = CONFIG_ERROR_POD
) -> Verdict:
    """The shipped C-DA-001 scenario's verdict on `answer`, given after one listing."""
    scenario = shipped_scenario("diagnostic-accuracy.yaml")
    return evaluate(scenario, make_evidence(answer, [tool_body]), reading=reading)


def assert_game_loses_the_strict_top_band(verdict: Any, answer: str = "") -> None:
    """`verdict` scored with `reading="strict"`: ratified at the top band, strictly not."""
    assert verdict.ratified is not None
    assert (verdict.ratified.band, verdict.ratified.score) == TOP, answer
    assert (verdict.band, verdict.score) != TOP, answer


def assert_honest_keeps_the_top_band(verdict: Any, answer: str = "") -> None:
    """`verdict` scored with `reading="strict"`: the top band, with no strict finding."""
    assert verdict.strict is not None
    assert ((verdict.band, verdict.score), verdict.strict.findings) == (TOP, []), answer
