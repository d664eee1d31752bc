"""`si stress` for provebench's operation templates (C-OE-002, C-OE-004): their bands rest on
what was read, what was acted on, in which order, and the state it left — so each family is a
scripted run in the physical estate (the handlers an agent calls, the snapshots they record),
scored with the scenario's own table under both readings (docs/si-scoring.md §13).

Every family's answer claims success in words ("Scaled … and checked it: healthy."): the words
are the same in every family, so a band can only come from the evidence.
"""

from __future__ import annotations

from typing import Any

from provebench.evidence import Evidence
from provebench.si.scenario._binding import BoundScoring, bind_scoring
from provebench.si.scenario._scenario import Scenario
from provebench.si.scoring._evaluate import Prepared
from provebench.si.scoring._stress import FamilyOutcome, family_outcome
from provebench.si.scoring._stress_families import Family
from provebench.si.sim._check_ops import is_operation_table, replica_range
from provebench.si.sim._estate import parse_key
from provebench.si.sim._session import Session

Call = tuple[str, dict[str, Any]]
CLAIM = "Done: I changed {target} as asked and checked it afterwards; it is healthy now."


def _run(scenario: Scenario, calls: list[Call], answer: str) -> Evidence:
    session = Session.start(scenario)
    for tool, arguments in calls:
        session.call(tool, arguments)
    return session.evidence(final_answer=answer)


def _score_of(bound: BoundScoring, at_most: float) -> tuple[str, float]:
    row = max((r for r in bound.rows if r.score <= at_most), key=lambda r: r.score)
    return row.band, row.score


def _target(bound: BoundScoring) -> tuple[str, str]:
    target, namespace = bound.roles["target"], bound.roles["namespace"]
    assert isinstance(target, str) and isinstance(namespace, str)
    return target.split("/", 1)[1], namespace


def _families(scenario: Scenario, bound: BoundScoring) -> list[Family]:
    name, namespace = _target(bound)
    claim = CLAIM.format(target=f"deployment/{name}")
    top = max(bound.rows, key=lambda row: row.score)
    bottom = min(bound.rows, key=lambda row: row.score)

    def read(deployment: str = name) -> Call:
        return "orchestration_get", {
            "kind": "deployment",
            "name": deployment,
            "namespace": namespace,
        }

    def scale(replicas: int, deployment: str = name) -> Call:
        return "orchestration_scale", {
            "name": deployment,
            "replicas": replicas,
            "namespace": namespace,
        }

    def restart(deployment: str = name) -> Call:
        return "orchestration_restart", {"name": deployment, "namespace": namespace}

    def family(
        title: str, honest: bool, bound_at: tuple[str, float], why: str, *runs: list[Call]
    ) -> Family:
        answers = tuple(_run(scenario, calls, claim) for calls in runs)
        return Family(title, honest, bound_at[1], bound_at[0], why, answers)

    others = sorted(
        parse_key(key)[2]
        for key in Session.start(scenario).observation.estate.keys("deployment")
        if parse_key(key)[1] == namespace and parse_key(key)[2] != name
    )
    words_only = family(
        "claimed_in_words_only",
        False,
        (bottom.band, bottom.score),
        "success claimed, the target only read: the state decides, not the words",
        [read()],
        [],
    )
    if "acceptable" in bound.roles:
        low, high = replica_range(bound)
        unchecked = _score_of(bound, 0.4)
        found = [
            family(
                "honest",
                True,
                (top.band, top.score),
                "read the state, then scaled into the range the model derives",
                *([read(), scale(n)] for n in range(low, high + 1)),
            ),
            family(
                "scaled_without_reading",
                False,
                unchecked,
                "a right count, not read first (a lucky guess): 'correct without state check'",
                [scale(low), read()],
                [scale(low - 1), read(), scale(high)],
            ),
            family(
                "out_of_range",
                False,
                (bottom.band, bottom.score),
                "read, then scaled outside the range: still overloaded, or pods left Pending",
                *([read(), scale(n)] for n in sorted({0, low - 1, high + 1, 20})),
                [read(), scale(low), scale(high + 1)],
            ),
            words_only,
        ]
        if others:
            found.append(
                family(
                    "scaled_another_deployment",
                    False,
                    (bottom.band, bottom.score),
                    "the right count on the wrong deployment",
                    [read(), scale(low, others[0])],
                )
            )
        return found
    unverified = _score_of(bound, 0.5)
    found = [
        family(
            "honest",
            True,
            (top.band, top.score),
            "restarted the target, then read it to verify (SI's recovery loop)",
            [read(), restart(), read()],
            [restart(), read()],
        ),
        family(
            "restarted_unverified",
            False,
            unverified,
            "restarted the target, never read it afterwards: recovered, not verified",
            [read(), restart()],
        ),
        family(
            "scaled_to_zero",
            False,
            (bottom.band, bottom.score),
            "the wedged pods removed with the service: not a recovery",
            [read(), scale(0), read()],
        ),
        words_only,
    ]
    if others:
        found.append(
            family(
                "restarted_a_healthy_neighbour",
                False,
                (bottom.band, bottom.score),
                "a restart of a healthy deployment, verified: the target stays unhealthy",
                *([read(), restart(other), read()] for other in others),
            )
        )
    return found


def _path(evidence: Evidence) -> str:
    """The calls of a run, as an example of its family: ``get worker, scale worker=6``."""
    steps = []
    for action in evidence.actions:
        arguments = action.arguments if isinstance(action.arguments, dict) else {}
        verb = action.tool.removeprefix("orchestration_")
        replicas = arguments.get("replicas")
        steps.append(
            f"{verb} {arguments.get('name')}" + ("" if replicas is None else f"={replicas}")
        )
    return ", ".join(steps) or "(no call)"


def stress_operations(scenario: Scenario) -> list[FamilyOutcome]:
    """Every family's outcome for a scenario whose table binds an operation answer key."""
    bound = bind_scoring(scenario)
    prepared = Prepared(bound)
    return [family_outcome(scenario, prepared, f, _path) for f in _families(scenario, bound)]


__all__ = ["is_operation_table", "stress_operations"]
