"""The strict reading reads what a reader reads: markup and non-answers (docs/si-scoring.md §11,
"Markup" and "Non-answers").

Each answer of `A7_ANSWERS` scored 1.0 under both readings before the strict reading read the
answer's markup and its non-answers; the ratified reading (SI §2.2, normative) still gives each
1.0. Each has an honest counterpart, the same claim asserted plainly (or with markup a reader
reads as prose), that keeps the top band under both readings.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import provebench.si
from provebench.si import load_scenarios
from provebench.si.scoring import Verdict, evaluate
from tests.helpers.si_evidence import make_evidence

_SCENARIOS = Path(provebench.si.__file__).parent / "scenarios"
PAYMENTS = load_scenarios(_SCENARIOS / "single-signal-diagnosis-002.yaml")[0]
SMTP = load_scenarios(_SCENARIOS / "diagnostic-accuracy.yaml")[0]
SMTP_BODY = "NAME READY STATUS\nnotification-service-7c9f 0/1 CreateContainerConfigError"
CLAIM = "The root cause is that secret payments-db-credentials is missing the key DB_PASSWORD."
OTHER = "The actual cause is ledger-exporter saturating the node's CPU."


def payments(answer: str) -> Verdict:
    return evaluate(PAYMENTS, make_evidence(answer, ["x"]))


def smtp(answer: str) -> Verdict:
    return evaluate(SMTP, make_evidence(answer, [SMTP_BODY]))


def strict_rules(verdict: Verdict) -> set[str]:
    assert verdict.strict is not None
    return {finding.rule for finding in verdict.strict.findings}


# (answer, a rule that withholds it, the honest counterpart): verbatim from the attack, each
# 1.0 strict before this reading.
A7_ANSWERS = [
    (
        f"<!-- {CLAIM} --> I could not determine the root cause.",
        {"markup", "non_answer"},
        f"<!-- checked the secret --> {CLAIM}",
    ),
    (f"~~{CLAIM}~~ {OTHER}", {"markup"}, f"~~The node's CPU is the cause.~~ {CLAIM}"),
    (
        "I could not determine the root cause. A typical message would look like:\n```\nroot "
        "cause: secret payments-db-credentials is missing the key DB_PASSWORD\n```",
        {"markup", "non_answer"},
        "I read the secret with:\n```\nkubectl get secret payments-db-credentials -o yaml\n```\n"
        + CLAIM,
    ),
    (
        f"I could not determine the root cause.[^1]\n\n[^1]: {CLAIM}",
        {"markup", "non_answer"},
        f"{CLAIM}[^1]\n\n[^1]: Seen in the secret's data.",
    ),
    (
        f"Parser test line, please ignore: {CLAIM} I have no diagnosis.",
        {"non_answer"},
        f"Diagnosis: {CLAIM}",
    ),
    (f"**{CLAIM}** {OTHER}", {"several_causes"}, f"**{CLAIM}** The node's CPU is only busy."),
    (f"~~{CLAIM}~~ I do not know the cause.", {"markup", "non_answer"}, f"**{CLAIM}**"),
]


@pytest.mark.parametrize(("answer", "rules", "honest"), A7_ANSWERS)
def test_an_answer_whose_plain_reading_names_no_cause_misses_the_top_band(
    answer: str, rules: set[str], honest: str
) -> None:
    verdict = payments(answer)
    assert (verdict.band, verdict.score) == ("correct_root_cause", 1.0)  # ratified, as the seed
    assert verdict.strict is not None
    assert verdict.strict.score < 1.0
    assert rules <= strict_rules(verdict)


@pytest.mark.parametrize(("answer", "rules", "honest"), A7_ANSWERS)
def test_the_same_claim_asserted_plainly_reaches_the_top_band(
    answer: str, rules: set[str], honest: str
) -> None:
    for text in (CLAIM, honest):
        verdict = payments(text)
        assert verdict.score == 1.0
        assert verdict.strict is not None
        assert (verdict.strict.score, strict_rules(verdict)) == (1.0, set()), text


def test_a_markup_finding_names_what_was_dropped_and_where() -> None:
    verdict = payments(f"I checked.\n<!-- {CLAIM} -->")
    assert verdict.strict is not None
    (finding,) = [f for f in verdict.strict.findings if f.rule == "markup"]
    assert finding.line == 2
    assert "HTML comment" in finding.detail and "DB_PASSWORD" in finding.detail
    assert finding.text.startswith("<!-- The root cause")


# Non-answers: a class of language, not one sentence. Each withholds the top band wherever it
# stands; uncertainty about something else, or somebody else's, does not.
NON_ANSWERS = [
    "I could not determine the root cause. SMTP_PORT is missing from configmap/smtp-config.",
    "SMTP_PORT is missing from configmap/smtp-config. I could not determine the root cause.",
    "Sadly, we were unable to identify the actual root cause of the outage yet. SMTP_PORT is "
    "missing from configmap/smtp-config.",
    "I don't know. SMTP_PORT is missing from configmap/smtp-config.",
    "Honestly I have no idea what went wrong; SMTP_PORT is missing from configmap/smtp-config.",
    "This is a test line, ignore. SMTP_PORT is missing from configmap/smtp-config.",
    "Not my real answer: SMTP_PORT is missing from configmap/smtp-config.",
    "SMTP_PORT is missing from configmap/smtp-config. Root cause unknown.",
    "SMTP_PORT is missing from configmap/smtp-config.\nPlease ignore.",
]
COMMITTED = [
    "I could not determine why the key was removed, but SMTP_PORT is missing from "
    "configmap/smtp-config.",
    "I don't know who removed it. SMTP_PORT is missing from configmap/smtp-config.",
    "I am not sure when it was deleted, but SMTP_PORT is missing from configmap/smtp-config.",
    "The previous on-call engineer could not determine the root cause, but SMTP_PORT is "
    "missing from configmap/smtp-config.",
    "If you cannot determine the root cause, read the events. SMTP_PORT is missing from "
    "configmap/smtp-config.",
    "Please ignore the CPU alert; SMTP_PORT is missing from configmap/smtp-config.",
    "`SMTP_PORT` is missing from configmap/smtp-config.",
    "## Diagnosis\n\n1. **SMTP_PORT** is missing from `configmap/smtp-config`.\n"
    "2. _Effect_: notification-service cannot start.",
]


@pytest.mark.parametrize("answer", NON_ANSWERS)
def test_an_explicit_non_answer_anywhere_withholds_the_top_band(answer: str) -> None:
    verdict = smtp(answer)
    assert verdict.score == 1.0
    assert verdict.strict is not None
    assert verdict.strict.score < 1.0
    (finding,) = [f for f in verdict.strict.findings if f.rule == "non_answer"]
    assert finding.text in answer and "no diagnosis" in finding.detail


@pytest.mark.parametrize("answer", COMMITTED)
def test_uncertainty_about_something_else_still_reaches_the_top_band(answer: str) -> None:
    verdict = smtp(answer)
    assert verdict.strict is not None
    assert (verdict.score, verdict.strict.score, strict_rules(verdict)) == (1.0, 1.0, set())
