"""The red team's round-9 answers against `provebench-strict/5`, read by class (docs/si-scoring.md
§11, "Version 5, round 9").

`strict_v5_round9_answers.yaml` holds every round-9 answer that reached the strict top band,
verbatim, the same classes in other words, and the honest phrasings each class must not punish.
Every answer keeps its ratified band (SI §2.2, normative): only the strict reading changes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from provebench.si.scoring import Verdict
from tests.helpers.strict_verdicts import TOP, c_da_001_verdict
from tests.si.scoring.test_strict_word_games_v5 import _misleading_verdict

_DATA: dict[str, Any] = yaml.safe_load(
    (Path(__file__).parent / "strict_v5_round9_answers.yaml").read_text(encoding="utf-8")
)


def _verdict(answer: str) -> Verdict:
    return c_da_001_verdict(answer)


def _cases() -> list[Any]:
    cases = []
    for entry in _DATA["c_da_001"]:
        for source in ("red_team", "same_class"):
            for answer in entry[source]:
                cases.append(pytest.param(answer, entry["rule"], id=f"{source}:{answer[:60]}"))
        for answer in entry["honest"]:
            cases.append(pytest.param(answer, "honest", id=f"honest:{answer[:60]}"))
    return cases


@pytest.mark.parametrize(("answer", "rule"), _cases())
def test_a_class_answer_loses_the_strict_top_band_and_an_honest_one_keeps_it(
    answer: str, rule: str | None
) -> None:
    verdict = _verdict(answer)
    assert (verdict.band, verdict.score) == TOP  # the ratified reading (SI §5.1), unchanged
    strict = verdict.strict
    assert strict is not None and strict.reading == "provebench-strict/5"
    if rule == "honest":
        assert ((strict.band, strict.score), strict.findings) == (TOP, [])
        return
    assert (strict.band, strict.score) == ("correct_subsystem_wrong_component", 0.5)
    if rule is not None:
        assert rule in [finding.rule for finding in strict.findings], strict.findings


@pytest.mark.parametrize("answer", _DATA["c_da_001_not_read"])
def test_the_round9_limit_is_withheld_since_round21(answer: str) -> None:
    # docs/si-scoring.md §11 counted it at 1.0 until round 21's positive shape (`_accounted`)
    verdict = _verdict(answer)
    assert verdict.strict is not None and verdict.strict.score == 0.5
    assert "unaccounted_sentence" in " ".join(finding.detail for finding in verdict.strict.findings)


@pytest.mark.parametrize("answer", _DATA["c_da_003"]["red_team"])
def test_a_round9_answer_on_the_misleading_signal_loses_the_top_band(answer: str) -> None:
    verdict = _misleading_verdict(answer)
    assert verdict.score <= 0.5
    assert verdict.strict is not None and verdict.strict.score == verdict.score


@pytest.mark.parametrize("answer", _DATA["c_da_003"]["honest"])
def test_an_honest_misleading_signal_answer_keeps_the_top_band(answer: str) -> None:
    verdict = _misleading_verdict(answer)
    assert (verdict.band, verdict.score) == ("identified_misleading_plus_actual_cause", 1.0)


def test_the_fixture_holds_the_round9_answers_once() -> None:
    # the 23 answers on C-DA-001 that reached 1.0 strict under strict/5 before (one still does:
    # the documented limit) and all 10 variants on C-DA-003
    c_da_001 = [a for entry in _DATA["c_da_001"] for a in entry["red_team"]]
    c_da_001 += _DATA["c_da_001_not_read"]
    assert len(c_da_001) == len(set(c_da_001)) == 23
    assert len(set(_DATA["c_da_003"]["red_team"])) == 10
