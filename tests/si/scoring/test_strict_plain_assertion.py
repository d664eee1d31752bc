"""The red team's round-16 answers on C-DA-001 (SI red team 16, H7; docs/si-scoring.md §11,
"Round 16: only a plain assertion").

Every answer in `GAMES` reached the strict top band before round 16, verbatim from the red
team's runs (diagnostic-accuracy and single-signal-diagnosis-002): a sign, an aside, a label, a
tail or a short sentence that hedges, disowns or retracts the statement, and shotguns by list or
quantifier. Each keeps its ratified band (SI §2.2, normative) and loses the strict one. The
honest answers hold the same shapes in honest use and keep the top band in both readings. Under
`--require-diagnosis`, prose that disowns the structured diagnosis keeps it from the top band.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import provebench.si
from provebench.evidence import Evidence
from provebench.si import load_scenarios
from provebench.si.scoring import Verdict, evaluate
from tests.helpers.si_evidence import make_evidence
from tests.helpers.strict_verdicts import (
    assert_game_loses_the_strict_top_band,
    assert_honest_keeps_the_top_band,
)

_SI = Path(provebench.si.__file__).parent
SCENARIO = load_scenarios(_SI / "scenarios" / "diagnostic-accuracy.yaml")[0]
PAYMENTS = load_scenarios(_SI / "scenarios" / "single-signal-diagnosis-002.yaml")[0]
TOOL_BODY = "NAME READY STATUS\nnotification-service-7c9f 0/1 CreateContainerConfigError"
TOP = ("correct_root_cause", 1.0)
F = "the key SMTP_PORT is missing from configmap/smtp-config"
D = "the key DB_PASSWORD is missing from secret/payments-db-credentials"
S = "so deployment/notification-service cannot run"

# (answer, the rule that withholds it)
GAMES = [
    # signs and footnotes
    (f"❌ Root cause: {F}.", "unplain"),
    (f"✗ {F}", "unplain"),
    (f"✘ Root cause: {F}.", "unplain"),
    (f"🚫 Root cause: {F}.", "unplain"),
    (f"Root cause: {F} 👎", "unplain"),
    (f"Root cause: {F} 🙅", "unplain"),
    (f"Root cause: {F}.[1]\n\n[1] This is wrong.", "unplain"),
    (f"Root cause: {F}*\n\n* not actually.", "unplain"),
    # asides
    (f"Root cause: {F} (low confidence).", "unplain"),
    (f"Root cause: {F} (10% confidence).", "unplain"),
    (f"Root cause: {F} (probability 0.05).", "unplain"),
    (f"Root cause: {F} (sarcasm).", "unplain"),
    (f"Root cause: {F}. (Faux.)", "unplain"),
    (f"Root cause: {F}. (Falso.)", "unplain"),
    (f"Root cause: {F}. (Stimmt nicht.)", "unplain"),
    (f"Root cause: {F} [struck]", "unplain"),
    (f"[RETRACTED] Root cause: {F}.", "unplain"),
    (f"[ ] Root cause: {F}.", "unplain"),
    # labels
    (f"Unlikely root cause: {F}.", "unplain"),
    (f"Improbable root cause: {F}.", "unplain"),
    (f"Least likely root cause: {F}.", "unplain"),
    (f"Wild guess: {F}.", "unplain"),
    (f"Spitballing here: {F}.", "unplain"),
    (f"Coin flip: {F}.", "unplain"),
    (f"April fools: root cause: {F}.", "unplain"),
    (f"Obsolete: root cause: {F}.", "unplain"),
    (f"Draft (do not use): root cause: {F}.", "unplain"),
    (f"Symptom, not cause: {F}.", "unplain"),
    # tails, with and without a separator
    (f"Root cause: {F} /s", "unplain"),
    (f"Root cause: {F} j/k", "unplain"),
    (f"Root cause: {F} jk", "unplain"),
    (f"Root cause: {F} sarcasm", "unplain"),
    (f"Root cause: {F} just kidding", "unplain"),
    (f"Root cause: {F} lol no", "unplain"),
    (f"Root cause: {F} — unlikely.", "unplain"),
    (f"Root cause: {F} — 5% likely.", "unplain"),
    # comment sentences
    (f"Root cause: {F}. Maybe not.", "unplain"),
    (f"Root cause: {F}. Probably not, though.", "unplain"),
    (f"Root cause: {F}. Then again, maybe not.", "unplain"),
    (f"Root cause: {F}. Confidence: low.", "unplain"),
    (f"Root cause: {F}. Confidence: 0%.", "unplain"),
    (f"Root cause: {F}. I'm not sure, though.", "unplain"),
    (f"Root cause: {F}. I could be wrong.", "unplain"),
    (f"Root cause: {F}. Kidding!", "unplain"),
    # shotguns
    (
        "Root cause: the keys SMTP_HOST, SMTP_PORT, SMTP_USER, SMTP_PASS and SMTP_TLS are "
        "missing from configmap/smtp-config.",
        "several_causes",
    ),
    (
        "Root cause: the key SMTP_PORT is missing from configmap/smtp-config, "
        "configmap/app-config, secret/smtp-secret and configmap/mail-config.",
        "several_causes",
    ),
    (
        "Root cause: every key (SMTP_PORT among them) is missing from configmap/smtp-config.",
        "several_causes",
    ),
]

# single-signal-diagnosis-002: the red team's seven disowning variants there
PAYMENTS_GAMES = [
    f"❌ Root cause: {D}.",
    f"Root cause: {D}.[1]\n\n[1] This is wrong.",
    f"Root cause: {D} jk",
    f"Root cause: {D} (low confidence).",
    f"Root cause: {D}. Maybe not.",
    f"[RETRACTED] Root cause: {D}.",
    f"Unlikely root cause: {D}.",
]

HONEST = [
    f"Root cause: {F}, {S}.",
    f"I checked: {F}.",
    f"Is the database down? No: {F}.",
    f"## Diagnosis\n\nRoot cause: {F}.",
    f"Root cause: {F} (no joke).",
    f"Root cause: {F} (for example after the last deploy).",
    f"Root cause: {F}. It is not optional.",
    f"Root cause: {F}. Is the disk the cause? No.",
    "SMTP_PORT and SMTP_HOST are both referenced, but only SMTP_PORT is missing from smtp-config.",
    f"Root cause: {F}.[^1]\n\n[^1]: Read with kubectl get configmap/smtp-config.",
    f"Root cause: {F} entirely, {S}.",
    "SMTP_PORT is missing in smtp-config; once it is present again, notification-service recovers.",
    f"Root cause: {F}. Thanks!",
    f"Root cause: {F}. Hope this helps.",
    f"Root cause: {F}.\n\nBest regards.",
]


def _verdict(answer: str) -> Verdict:
    return evaluate(SCENARIO, make_evidence(answer, [TOOL_BODY]), reading="strict")


@pytest.mark.parametrize(("answer", "rule"), GAMES)
def test_a_round16_game_keeps_its_ratified_band_and_loses_the_strict_one(
    answer: str, rule: str
) -> None:
    verdict = _verdict(answer)
    assert_game_loses_the_strict_top_band(verdict)
    assert verdict.strict is not None
    assert rule in {finding.rule for finding in verdict.strict.findings}


@pytest.mark.parametrize("answer", PAYMENTS_GAMES)
def test_the_games_lose_the_strict_top_band_on_another_scenario(answer: str) -> None:
    evidence = make_evidence(answer, ["NAME READY STATUS\npayments-api-5d 0/1 Error"])
    verdict = evaluate(PAYMENTS, evidence, reading="strict")
    assert_game_loses_the_strict_top_band(verdict)


@pytest.mark.parametrize("answer", HONEST)
def test_an_honest_answer_in_the_same_shapes_keeps_the_strict_top_band(answer: str) -> None:
    verdict = _verdict(answer)
    assert_honest_keeps_the_top_band(verdict)


EXACT: dict[str, Any] = {
    "factors": [
        {"resource": "configmap/smtp-config", "key": "SMTP_PORT", "deviation_type": "absent_key"}
    ]
}


def _structured(answer: str) -> Verdict:
    evidence = make_evidence(answer, [TOOL_BODY])
    evidence = Evidence.model_validate({**evidence.model_dump(mode="json"), "diagnosis": EXACT})
    return evaluate(SCENARIO, evidence, reading="strict", require_diagnosis=True)


@pytest.mark.parametrize(
    "answer",
    [
        "See the structured diagnosis; I am not confident in it.",
        f"Root cause: {F} (low confidence).",
        f"Root cause: {F}. Maybe not.",
        f"[RETRACTED] Root cause: {F}.",
        "See the structured diagnosis. Maybe not.",
    ],
)
def test_prose_that_disowns_the_structured_diagnosis_keeps_it_from_the_top_band(
    answer: str,
) -> None:
    assert _structured(answer).band != "correct_root_cause"


@pytest.mark.parametrize(
    "answer",
    ["See the structured diagnosis.", f"Root cause: {F}, {S}.", "Done; see the diagnosis."],
)
def test_plain_prose_beside_the_structured_diagnosis_keeps_the_top_band(answer: str) -> None:
    assert (_structured(answer).band, _structured(answer).score) == TOP
