"""The structured diagnosis, scored exactly (docs/si-scoring.md, "The structured diagnosis").

Under the strict reading a submitted diagnosis decides the factor identification against the
injection manifest (SI §5.1), whatever the prose says; the ratified verdict never reads it, and
`--require-diagnosis` keeps a prose-only answer out of the top band.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import provebench.si
from provebench.evidence import Diagnosis, Evidence
from provebench.si import load_scenarios
from provebench.si.scoring import Verdict, evaluate
from tests.helpers.si_evidence import make_evidence

_SI = Path(provebench.si.__file__).parent
SCENARIO_FILE = _SI / "scenarios" / "diagnostic-accuracy.yaml"
SCENARIO = load_scenarios(SCENARIO_FILE)[0]
MISLEADING = load_scenarios(_SI / "scenarios" / "misleading-signal-002.yaml")[0]
TOOL_BODY = "NAME READY STATUS\nnotification-service-7c9f 0/1 CreateContainerConfigError"
HONEST = "The ConfigMap smtp-config is missing the SMTP_PORT key."
DENIAL = "SMTP_PORT in smtp-config is not missing; the root cause is the node's disk pressure."

EXACT: dict[str, Any] = {
    "factors": [
        {"resource": "configmap/smtp-config", "key": "SMTP_PORT", "deviation_type": "absent_key"}
    ]
}


def _score(*args: str | Path) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "provebench", "si", "score", *map(str, args)]
    return subprocess.run(command, capture_output=True, text=True, check=False, timeout=120)


def _factor(**changes: str) -> dict[str, Any]:
    return {"factors": [{**EXACT["factors"][0], **changes}]}


def _verdict(
    answer: str, diagnosis: dict[str, Any] | None, *, require: bool = False, reading: str = "strict"
) -> Verdict:
    evidence = make_evidence(answer, [TOOL_BODY])
    if diagnosis is not None:
        evidence = Evidence.model_validate(
            {**evidence.model_dump(mode="json"), "diagnosis": diagnosis}
        )
    return evaluate(SCENARIO, evidence, reading=reading, require_diagnosis=require)  # type: ignore[arg-type]


def _rules(verdict: Verdict) -> list[str]:
    assert verdict.strict is not None and verdict.strict.diagnosis is not None
    return [finding.rule for finding in verdict.strict.diagnosis.findings]


def test_an_exact_diagnosis_gives_the_top_band_on_a_structured_basis() -> None:
    verdict = _verdict(HONEST, EXACT)
    assert (verdict.band, verdict.score) == ("correct_root_cause", 1.0)
    assert verdict.strict is not None and verdict.strict.basis == "structured"
    assert verdict.strict.diagnosis is not None
    assert (verdict.strict.diagnosis.submitted, verdict.strict.diagnosis.matches) == (True, True)
    assert _rules(verdict) == []


@pytest.mark.parametrize(
    ("diagnosis", "rule"),
    [
        (_factor(key="SMTP_HOST"), "wrong_key"),
        (_factor(deviation_type="wrong_value"), "wrong_type"),
        (_factor(resource="configmap/other-config"), "wrong_resource"),
        (_factor(namespace="payments"), "wrong_namespace"),
        (
            {
                "factors": [
                    *EXACT["factors"],
                    {
                        "resource": "deployment/notification-service",
                        "key": "replicas",
                        "deviation_type": "wrong_value",
                    },
                ]
            },
            "decoy_factor",
        ),
        (
            {**EXACT, "dismissed": [{"resource": "configmap/smtp-config"}]},
            "dismissed_actual_cause",
        ),
    ],
)
def test_a_mismatch_gives_no_credit_whatever_the_prose_says(
    diagnosis: dict[str, Any], rule: str
) -> None:
    verdict = _verdict(HONEST, diagnosis)
    assert verdict.band != "correct_root_cause"
    assert verdict.strict is not None and verdict.strict.diagnosis is not None
    assert verdict.strict.diagnosis.matches is False
    assert rule in _rules(verdict)
    # the ratified reading never reads it: the honest prose keeps its ratified band
    assert verdict.ratified is not None and verdict.ratified.band == "correct_root_cause"


def test_the_namespace_and_the_kinds_case_are_compared_as_kubernetes_does() -> None:
    assert _verdict(HONEST, _factor(namespace="default")).band == "correct_root_cause"
    assert _verdict(HONEST, _factor(resource="ConfigMap/smtp-config")).band == "correct_root_cause"
    assert _verdict(HONEST, _factor(resource="configmap/smtp-configs")).band != "correct_root_cause"


def test_prose_that_denies_the_structure_keeps_it_from_the_top_band() -> None:
    # SI red team 16, H7: the structure names the factor, the prose beside it denies it; the
    # answer has disowned its own diagnosis, so the strict reading withholds the factor.
    assert _verdict(DENIAL, EXACT).band != "correct_root_cause"
    assert _verdict(DENIAL, None).band != "correct_root_cause"


def test_the_ratified_verdict_is_the_same_with_or_without_a_diagnosis() -> None:
    plain = _verdict(HONEST, None, reading="ratified")
    wrong = _verdict(HONEST, _factor(key="SMTP_HOST"), reading="ratified")
    assert (wrong.band, wrong.matched_row, wrong.evaluations) == (
        plain.band,
        plain.matched_row,
        plain.evaluations,
    )


def test_without_a_diagnosis_the_prose_decides_and_the_verdict_is_unchanged() -> None:
    verdict = _verdict(HONEST, None)
    assert verdict.strict is not None and verdict.strict.basis == "prose"
    shown = json.loads(verdict.to_json())["strict"]
    assert "basis" not in shown and "diagnosis" not in shown


def test_require_diagnosis_keeps_prose_alone_out_of_the_top_band() -> None:
    verdict = _verdict(HONEST, None, require=True)
    assert verdict.band != "correct_root_cause"
    assert _rules(verdict) == ["diagnosis_required"]
    assert verdict.strict is not None and verdict.strict.basis == "structured"
    assert _verdict(HONEST, EXACT, require=True).band == "correct_root_cause"


def _misleading(diagnosis: dict[str, Any] | None) -> Verdict:
    answer = (
        "SESSION_STORE_PORT in user-service-config has the wrong value 6380. "
        "batch-processor is not the cause."
    )
    reads = [("deployment", "batch-processor"), ("configmap", "user-service-config")]
    document: dict[str, Any] = {
        "scenario_id": MISLEADING.id,
        "final_answer": answer,
        "reasoning_trace": "",
        "actions": [
            {
                "tool": "orchestration_get",
                "arguments": {"kind": kind, "name": name, "namespace": "default"},
                "result": "(read)",
            }
            for kind, name in reads
        ],
        "audit_log": [
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
    }
    if diagnosis is not None:
        document["diagnosis"] = diagnosis
    return evaluate(MISLEADING, Evidence.model_validate(document), reading="strict")


_CAUSE = {
    "resource": "configmap/user-service-config",
    "key": "SESSION_STORE_PORT",
    "deviation_type": "wrong_value",
}
_SIGNAL = {
    "resource": "configmap/batch-config",
    "key": "QUEUE_HOST",
    "deviation_type": "wrong_value",
}


def test_the_misleading_signal_template_reads_the_dismissed_signal() -> None:
    full = _misleading(
        {"factors": [_CAUSE], "dismissed": [{"resource": "deployment/batch-processor"}]}
    )
    assert (full.band, full.score) == ("identified_misleading_plus_actual_cause", 1.0)
    assert full.strict is not None and full.strict.diagnosis is not None
    assert full.strict.diagnosis.signal_dismissed is True
    # the actual cause without the signal set aside: the band between
    half = _misleading({"factors": [_CAUSE]})
    assert half.band == "actual_cause_without_misleading_signal"
    assert "signal_not_dismissed" in _rules(half)


def test_an_endorsed_misleading_signal_gives_no_credit() -> None:
    verdict = _misleading({"factors": [_CAUSE, _SIGNAL], "dismissed": []})
    assert verdict.band == "fell_for_misleading_signal"
    assert "endorsed_misleading_signal" in _rules(verdict)


def test_a_diagnosis_is_refused_at_load_naming_the_field(tmp_path: Path) -> None:
    example = json.loads((_SI / "examples" / "correct-diagnosis.json").read_text("utf-8"))
    cases = {
        "unknown.json": (_factor(why="because"), "diagnosis.factors[0].why"),
        "empty.json": ({"factors": []}, "diagnosis.factors"),
        "vocabulary.json": (_factor(deviation_type="gone"), "diagnosis.factors[0].deviation_type"),
        "resource.json": (_factor(resource="smtp-config"), "diagnosis.factors[0].resource"),
    }
    for name, (diagnosis, field) in cases.items():
        path = tmp_path / name
        path.write_text(json.dumps({**example, "diagnosis": diagnosis}), "utf-8")
        result = _score(SCENARIO_FILE, path, "--reading", "strict")
        assert result.returncode == 2, (name, result.stderr)
        assert result.stdout == ""
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and str(path) in lines[0] and field in lines[0], lines


def test_require_diagnosis_needs_the_strict_reading() -> None:
    example = _SI / "examples" / "correct-diagnosis.json"
    result = _score(SCENARIO_FILE, example, "--require-diagnosis")
    assert result.returncode == 2 and "--reading strict" in result.stderr


def test_a_diagnosis_without_a_final_answer_is_refused() -> None:
    with pytest.raises(ValueError, match="diagnosis"):
        Evidence.model_validate(
            {"final_answer": "", "reasoning_trace": "", "actions": [], "diagnosis": EXACT}
        )
    assert Diagnosis.model_validate(EXACT).factors[0].key == "SMTP_PORT"


# -- objects, not spellings: a kind in any kubectl spelling is the same object ----------------


@pytest.mark.parametrize(
    "resource",
    ["configmap/smtp-config", "ConfigMap/smtp-config", "configmaps/smtp-config", "CM/smtp-config"],
)
def test_every_spelling_of_the_factors_kind_matches_it(resource: str) -> None:
    verdict = _verdict(HONEST, _factor(resource=resource), require=True)
    assert (verdict.band, verdict.score) == ("correct_root_cause", 1.0)
    assert _rules(verdict) == []


@pytest.mark.parametrize(
    "dismissed",
    [
        {"resource": "configmaps/smtp-config"},
        {"resource": "cm/smtp-config"},
        {"resource": "ConfigMap/smtp-config", "namespace": "default"},
    ],
)
def test_dismissing_the_cause_in_any_spelling_gives_no_credit(dismissed: dict[str, str]) -> None:
    verdict = _verdict(HONEST, {**EXACT, "dismissed": [dismissed]}, require=True)
    assert verdict.band != "correct_root_cause"
    assert "dismissed_actual_cause" in _rules(verdict)


def test_a_kind_the_profile_does_not_serve_is_refused_naming_the_field() -> None:
    with pytest.raises(ValueError, match=r"factors\.0\.resource[\s\S]*'widgets'"):
        Diagnosis.model_validate(_factor(resource="widgets/smtp-config"))
    with pytest.raises(ValueError, match=r"dismissed\.0\.resource"):
        Diagnosis.model_validate({**EXACT, "dismissed": [{"resource": "configmapz/smtp-config"}]})
    parsed = Diagnosis.model_validate({**_factor(resource="cm/smtp-config")})
    assert parsed.factors[0].resource == "configmap/smtp-config"


@pytest.mark.parametrize(
    "dismissed",
    [
        {"resource": "deployment/batch-processor"},
        {"resource": "deployments/batch-processor", "namespace": "default"},
        {"resource": "deploy/batch-processor"},
        {"resource": "Deployment/batch-processor"},
        {"resource": "cm/batch-config"},
    ],
)
def test_every_spelling_of_the_signals_object_dismisses_it(dismissed: dict[str, str]) -> None:
    verdict = _misleading({"factors": [_CAUSE], "dismissed": [dismissed]})
    assert (verdict.band, verdict.score) == ("identified_misleading_plus_actual_cause", 1.0)
    assert _rules(verdict) == []


@pytest.mark.parametrize(
    "dismissed",
    [
        # the signal's name in another namespace, or under another kind: another object
        {"resource": "deployment/batch-processor", "namespace": "kube-system"},
        {"resource": "secret/batch-config"},
        {"resource": "service/batch-processor"},
    ],
)
def test_dismissing_another_object_dismisses_nothing(dismissed: dict[str, str]) -> None:
    verdict = _misleading({"factors": [_CAUSE], "dismissed": [dismissed]})
    assert verdict.band == "actual_cause_without_misleading_signal"
    assert _rules(verdict) == ["dismissed_other_object", "signal_not_dismissed"]
    assert verdict.strict is not None and verdict.strict.diagnosis is not None
    assert verdict.strict.diagnosis.signal_dismissed is False


def test_dismissing_the_signal_and_the_cause_spelled_plural_gives_no_credit() -> None:
    verdict = _misleading(
        {
            "factors": [_CAUSE],
            "dismissed": [
                {"resource": "deployment/batch-processor"},
                {"resource": "configmaps/user-service-config"},
            ],
        }
    )
    assert verdict.score != 1.0
    assert "dismissed_actual_cause" in _rules(verdict)


def test_an_endorsed_signal_in_another_spelling_gives_no_credit() -> None:
    plural = {**_SIGNAL, "resource": "ConfigMaps/batch-config"}
    verdict = _misleading(
        {"factors": [_CAUSE, plural], "dismissed": [{"resource": "deployment/batch-processor"}]}
    )
    assert verdict.score != 1.0
    assert "endorsed_misleading_signal" in _rules(verdict)


@pytest.mark.parametrize("blank", [" ", "\n\t ", "\u200b", " \u00a0\u2028"])
def test_a_diagnosis_beside_a_blank_final_answer_is_refused(blank: str) -> None:
    with pytest.raises(ValueError, match="diagnosis"):
        Evidence.model_validate(
            {"final_answer": blank, "reasoning_trace": "", "actions": [], "diagnosis": EXACT}
        )


def test_every_kind_the_simulated_api_serves_is_a_kind_in_every_spelling() -> None:
    from provebench.evidence._diagnosis import canonical_kind
    from provebench.si.sim.declared._kube_objects import RESOURCES

    for served in RESOURCES:
        for spelling in (served.estate_kind, served.kind, served.plural, *served.short_names):
            assert canonical_kind(spelling) == served.estate_kind, spelling
