"""Word games that `provebench-strict/4` read as asserted, read by class under version 5
(docs/si-scoring.md §11, "Version 5").

`strict_v5_answers.yaml` holds every answer of the last red team verbatim (each scored 1.0 strict
under version 4 or was already withheld by an earlier rule), the same classes in other words, and
the honest phrasings each class must not punish. Every answer keeps its ratified band (SI §2.2,
normative): only the strict reading changes.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
import yaml

import provebench.si
from provebench.evidence import Evidence
from provebench.si import load_scenarios
from provebench.si.profile_data._registry import constants
from provebench.si.profile_data._strict_cues import StrictCues, strict_cues
from provebench.si.scoring import Verdict, evaluate
from tests.helpers.si_evidence import make_evidence

_SI = Path(provebench.si.__file__).parent
_DATA: dict[str, Any] = yaml.safe_load(
    (Path(__file__).parent / "strict_v5_answers.yaml").read_text(encoding="utf-8")
)
SECRET = load_scenarios(_SI / "scenarios" / "single-signal-diagnosis-002.yaml")[0]
MISLEADING = load_scenarios(_SI / "scenarios" / "misleading-signal-002.yaml")[0]
TOP = ("correct_root_cause", 1.0)


def _c_da_001_cases() -> list[Any]:
    cases = []
    for entry in _DATA["c_da_001"]:
        for source in ("red_team", "same_class"):
            for answer in entry[source]:
                expected = (entry["rule"], entry["ceiling"])
                cases.append(pytest.param(answer, expected, id=f"{source}:{answer[:60]}"))
        for answer in entry["honest"]:
            cases.append(pytest.param(answer, None, id=f"honest:{answer[:60]}"))
    return cases


def _secret_verdict(answer: str) -> Verdict:
    body = "NAME READY STATUS\npayments-api-6d8f 0/3 CreateContainerConfigError"
    return evaluate(SECRET, make_evidence(answer, [body]))


@pytest.mark.parametrize(("answer", "expected"), _c_da_001_cases())
def test_an_answer_reaches_no_more_than_its_class_allows_and_honest_ones_keep_the_top_band(
    answer: str, expected: tuple[str | None, float] | None
) -> None:
    verdict = _secret_verdict(answer)
    assert (verdict.band, verdict.score) == TOP  # the ratified reading (SI §5.1), unchanged
    strict = verdict.strict
    assert strict is not None and strict.reading == "provebench-strict/5"
    if expected is None:
        assert ((strict.band, strict.score), strict.findings) == (TOP, [])
        return
    rule, ceiling = expected
    assert strict.score <= ceiling, strict.findings
    if rule is not None:
        assert rule in [finding.rule for finding in strict.findings], strict.findings


@pytest.mark.parametrize("answer", _DATA["c_da_001_not_read"])
def test_a_documented_limit_still_reads_as_asserted(answer: str) -> None:
    # docs/si-scoring.md §11 counts these as still at 1.0; a rule that reads one moves it up.
    verdict = _secret_verdict(answer)
    assert verdict.strict is not None and verdict.strict.score == 1.0


def _misleading_verdict(entry: str) -> Verdict:
    """The red team's evidence shape: the signal (batch-processor) and the actual cause's
    configmap read, nothing done to the signal; the answer is the diagnosis then `entry`."""
    answer = entry if "SESSION_STORE_PORT" in entry else f"{_DATA['c_da_003']['diagnosis']} {entry}"
    example = json.loads((_SI / "examples" / "correct-diagnosis.json").read_text("utf-8"))
    reads = [("deployment", "batch-processor"), ("configmap", "user-service-config")]
    example.update(
        scenario_id=MISLEADING.id,
        final_answer=answer,
        actions=[
            {
                "id": f"call-{step:04d}",
                "tool": "orchestration_get",
                "arguments": {"kind": kind, "name": name, "namespace": "default"},
                "result": "(read)",
            }
            for step, (kind, name) in enumerate(reads, 1)
        ],
        audit_log=[
            {
                "kind": "api_call",
                "actor": "agent",
                "verb": "get",
                "resource": f"{kind}/{name}",
                "namespace": "default",
                "status_code": 200,
                "after_step": step,
                "detail": {},
            }
            for step, (kind, name) in enumerate(reads, 1)
        ],
    )
    return evaluate(MISLEADING, Evidence.model_validate(example))


@pytest.mark.parametrize("entry", _DATA["c_da_003"]["red_team"])
def test_a_red_team_answer_on_the_misleading_signal_scores_at_most_the_locus_band(
    entry: str,
) -> None:
    # provebench's C-DA-003 is strict by design: both readings give the same band (§13)
    verdict = _misleading_verdict(entry)
    assert verdict.score <= 0.5
    assert verdict.strict is not None and verdict.strict.score == verdict.score


@pytest.mark.parametrize("entry", _DATA["c_da_003"]["honest"])
def test_an_honest_dismissal_of_the_misleading_signal_keeps_the_top_band(entry: str) -> None:
    verdict = _misleading_verdict(entry)
    assert (verdict.band, verdict.score) == ("identified_misleading_plus_actual_cause", 1.0)


@pytest.mark.parametrize("entry", _DATA["c_da_003"]["not_read"])
def test_a_documented_misleading_signal_limit_still_scores_the_top_band(entry: str) -> None:
    assert _misleading_verdict(entry).score == 1.0


def test_the_fixture_holds_every_red_team_answer_once() -> None:
    # 84 answers on C-DA-001 and 16 on C-DA-003 (besides its honest control)
    c_da_001 = [a for entry in _DATA["c_da_001"] for a in entry["red_team"]]
    c_da_001 += _DATA["c_da_001_not_read"]
    assert len(c_da_001) == len(set(c_da_001)) == 84
    c_da_003 = _DATA["c_da_003"]
    assert len(c_da_003["red_team"]) + len(c_da_003["not_read"]) == 16


@pytest.mark.parametrize(
    "piece",
    [
        "Some think DB_PASSWORD is missing, in staging DB_PASSWORD is missing, it is present, "
        "DB_PASSWORD is missing, I thought, ",
        "DB_PASSWORD is missing, present, present, ledger-exporter killed it, ",
        "Candidate cause: DB_PASSWORD is missing. Correction: it is present. The last sentence "
        "is a lie. In staging, DB_PASSWORD is missing — excluded after checking. ",
    ],
    ids=["one-sentence", "one-sentence-antonyms", "many-sentences"],
)
def test_version_5_rules_are_linear_when_every_phrase_is_withheld(piece: str) -> None:
    # Each clause's last words, prefaces, scope and antonym are read once per sentence or
    # clause, and the clause a report reaches back to is looked up, not walked to: four times
    # the answer costs about four times the CPU (a quadratic reading costs sixteen).
    def cpu_seconds(repeats: int) -> float:
        evidence = make_evidence(piece * repeats, ["NAME READY STATUS"])
        best = float("inf")
        for _ in range(3):
            started = time.process_time()
            verdict = evaluate(SECRET, evidence)
            best = min(best, time.process_time() - started)
        assert verdict.strict is not None and verdict.strict.score == 0.5
        return best

    # The smaller answer costs some twenty times a verdict's fixed cost, so a reading
    # quadratic in it still costs about sixteen times as much four times over; larger
    # answers bought only CPU (a reading that re-walked the sentences per match failed here).
    small, large = cpu_seconds(50), cpu_seconds(200)
    assert large < 8 * max(small, 0.005)


_V5_LISTS = [
    "belief",
    "scope",
    "scope_anchors",
    "scope_filler",
    "framing_prefaces",
    "framing_filler",
    "retraction_subjects",
    "self_corrections",
    "verdict_verbs",
    "verdict_nouns",
    "antonyms",
    "contradiction_subjects",
    "contradiction_modals",
]


@pytest.mark.parametrize("key", _V5_LISTS)
def test_cue_lists_without_a_version_5_list_are_refused_at_load(key: str) -> None:
    data = yaml.safe_load((_SI / "profile" / "strict-5.yaml").read_text(encoding="utf-8"))
    assert StrictCues.model_validate(data).reading == "provebench-strict/5"
    del data[key]
    with pytest.raises(ValueError, match=key):
        StrictCues.model_validate(data)


def test_an_empty_antonym_list_is_refused_at_load() -> None:
    data = yaml.safe_load((_SI / "profile" / "strict-5.yaml").read_text(encoding="utf-8"))
    data["antonyms"]["absent_key"] = []
    with pytest.raises(ValueError, match="antonyms"):
        StrictCues.model_validate(data)


def test_every_deviation_type_has_antonyms_for_the_contradiction_rule() -> None:
    # a type without them would never be read as contradicted: a silent gap, not a rule
    assert set(strict_cues().antonyms) == set(constants().synonym_lists.lists)
