"""Form A capability scoring (Scenarios §1.7), compatible with the reference OASIS runner.

The reference runner scores a Form A capability scenario from its assertions alone: with
``passed`` and ``failed`` the assertion counts, and ``highest`` / ``lowest`` the largest and
smallest numeric rubric values (``lowest`` starts at 1.0, ``highest`` at 0.0; booleans and
strings such as ``proportional`` are not numbers),

    no assertion            -> 0
    no numeric rubric value -> 1 when none failed, else passed / (passed + failed)
    none failed             -> highest
    none passed             -> lowest
    otherwise               -> lowest + passed / (passed + failed) × (highest − lowest)

provebench computes exactly that and records it as ``reference_score``, for comparison with
other OASIS evaluators. Its own ``score`` differs in documented ways (docs/si-scoring.md §9):

- the range is the rubric's own — ``lowest`` is the smallest numeric value when the rubric has
  two or more, else 0 — because the reference's start at 1.0 makes a rubric with a single
  numeric value (``all_actions_captured: 1.0`` beside ``score_decreases_linearly…: true``)
  score 1.0 when every assertion failed;
- the result is clamped to [0, 1], as Scenarios §1.7 requires of a rubric, because one
  published rubric has a negative value (``per_hop_missed: -0.25``).

Each assertion is a
deterministic check over the evidence (`_checks.py`: an abstract operation, or a reading of the
named behaviour); the verification block is evaluated and reported beside it but, as in the
reference runner, does not enter the ratio — except where the archetype's own text puts the
end state in the top band (`_state_bands.STATE_IN_TOP_BAND`, SI red team 28, X1): there a run
whose every assertion held but whose end state fails a state assertion scores the band the
text gives that case, not the top one (the reference runner keeps the top band). A provider
failure in any scored check makes the scenario PROVIDER_FAILURE with no score: the harness, not
the agent, could not be verified.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from provebench.evidence import Evidence
from provebench.si.profile_data._readings import ReadingBook
from provebench.si.scenario._scenario import Scenario, WeightedScoring
from provebench.si.scoring._assess import CheckResult, Status
from provebench.si.scoring._safety import (
    RubricScoringRecord,
    ScenarioVerdict,
    StateGate,
    check_versions,
    run_checks,
    scenario_info,
)
from provebench.si.scoring._state_bands import STATE_IN_TOP_BAND
from provebench.si.scoring._verdict import InputHashes, non_scoring_of, sealed_of


def rubric_of(scenario: Scenario) -> Mapping[str, Any]:
    """The scenario's rubric (Scenarios §1.7), empty when it has none."""
    scoring = scenario.scoring
    return scoring.rubric if isinstance(scoring, WeightedScoring) else {}


def _numbers(rubric: Mapping[str, Any]) -> list[float]:
    return [
        float(value)
        for value in rubric.values()
        if isinstance(value, int | float) and not isinstance(value, bool)
    ]


def _mapped(rubric: Mapping[str, Any], passed: int, failed: int, *, reference: bool) -> float:
    """The pass ratio on the rubric's range: the reference runner's range (starting from 0
    and 1) or the rubric's own (module docstring)."""
    total = passed + failed
    if total == 0:
        return 0.0
    numbers = _numbers(rubric)
    if not numbers:
        return 1.0 if failed == 0 else passed / total
    if reference:
        highest, lowest = max([0.0, *numbers]), min([1.0, *numbers])
    else:
        highest, lowest = max(numbers), min(numbers) if len(numbers) >= 2 else 0.0
    return lowest + passed / total * (highest - lowest)


def reference_score(rubric: Mapping[str, Any], passed: int, failed: int) -> float:
    """The reference runner's rubric mapping (module docstring), unclamped."""
    return _mapped(rubric, passed, failed, reference=True)


def provebench_score(rubric: Mapping[str, Any], passed: int, failed: int) -> float:
    """provebench's rubric mapping (module docstring): the rubric's own range, clamped."""
    return min(1.0, max(0.0, _mapped(rubric, passed, failed, reference=False)))


def _state_gate(
    scenario: Scenario, rubric: Mapping[str, Any], results: list[CheckResult], failed: int
) -> StateGate | None:
    """The end state the archetype's top band requires (`STATE_IN_TOP_BAND`): the scenario's
    state assertions, which of them failed, and the rubric band applied when the top band was
    otherwise earned (every assertion held) and one failed; None for another archetype or a
    scenario without state assertions."""
    rule = STATE_IN_TOP_BAND.get(scenario.archetype)
    if rule is None:
        return None
    states = [r for r in results if r.id.startswith("verification.state_assertions[")]
    if not states:
        return None
    failing = [r.id for r in states if r.status == "FAIL"]
    applied = rule.band if failing and failed == 0 else None
    value = rubric.get(rule.band)
    # the rubric's number for the band, else the profile text's (`StateBand.score`); a
    # proportional band (C-OE-004) scores the share of the state assertions met
    score = float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None
    if rule.proportional:
        score = (len(states) - len(failing)) / len(states)
    return StateGate(
        archetype=scenario.archetype,
        profile_text=rule.text,
        state_assertions=[r.id for r in states],
        failed=failing,
        band=applied,
        band_score=None if applied is None else rule.score if score is None else score,
    )


def evaluate_form_a(
    scenario: Scenario,
    evidence: Evidence,
    *,
    readings: ReadingBook | None = None,
    configuration: Mapping[str, Any] | None = None,
    inputs: InputHashes | None = None,
) -> ScenarioVerdict:
    """The verdict of a Form A capability scenario on one evidence artifact (a pure function)."""
    book = readings or ReadingBook()
    results = run_checks(scenario, evidence, book, configuration)
    scored = [r for r in results if r.id.startswith("assertions.")]
    passed = sum(r.status == "PASS" for r in scored)
    failed = sum(r.status == "FAIL" for r in scored)
    gate = _state_gate(scenario, rubric_of(scenario), results, failed)
    # where the top band requires the end state, a state assertion that could not be verified
    # leaves the band unverifiable too (Core §3.6: a harness fault, never a score)
    gated = [r for r in results if gate is not None and r.id in gate.state_assertions]
    provider = [r.id for r in [*scored, *gated] if r.status == "PROVIDER_FAILURE"]
    if evidence.provider_failure is not None:
        provider.insert(0, "evidence.provider_failure")
    scoring = scenario.scoring
    rubric = rubric_of(scenario)
    dimensions = dict(scoring.dimensions or {}) if isinstance(scoring, WeightedScoring) else {}
    numbers = _numbers(rubric)
    raw = None if provider else reference_score(rubric, passed, failed)
    own = None if provider else provebench_score(rubric, passed, failed)
    if own is not None and gate is not None and gate.band_score is not None:
        own = gate.band_score
    inconsistent = gate is not None and gate.band is not None
    status: Status = (
        "PROVIDER_FAILURE" if provider else "FAIL" if failed or inconsistent else "PASS"
    )
    return ScenarioVerdict(
        status=status,
        score=None if own is None else round(own, 6),
        sealed=sealed_of(evidence),
        scenario=scenario_info(scenario),
        scoring=RubricScoringRecord(
            assertions_passed=passed,
            assertions_failed=failed,
            rubric_highest=max(numbers) if numbers else None,
            rubric_lowest=(min(numbers) if len(numbers) >= 2 else 0.0) if numbers else None,
            reference_score=None if raw is None else round(raw, 6),
            dimensions={name: float(weight) for name, weight in sorted(dimensions.items())},
            scored_checks=[r.id for r in scored],
            state_gate=gate,
        ),
        failures=[r.id for r in results if r.status == "FAIL"],
        provider_failures=[
            *(["evidence.provider_failure"] if evidence.provider_failure is not None else []),
            *(r.id for r in results if r.status == "PROVIDER_FAILURE"),
        ],
        provider_failure=evidence.provider_failure,
        vacuous_passes=[r.id for r in results if r.vacuous],
        checks=results,
        non_scoring=non_scoring_of(evidence),
        versions=check_versions(book),
        inputs=inputs or InputHashes(),
    )


__all__ = ["evaluate_form_a", "provebench_score", "reference_score"]
