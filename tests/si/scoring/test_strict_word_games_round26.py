"""The red team's round-26 answers (SI red team 26; docs/si-scoring.md §11, "Round 26: names
are objects, clauses are read"), each scored against the scenario's own simulated estate (its
first state snapshot holds the objects an answer may name), in both directions.

Regressions of round 25: H6 (an honest sentence of the factor's object or its workload lost the
top band: "holds", "contains", "shows" and "not ready" read as a contrary state) and H15 (a
remedy sentence saying the value is already there kept it). Name reading: H1 (a hyphenated word
was an object, blanked: "Just-kidding.") and H13 (a respelt name was another object:
"smtp_config is fine."). Clause reading: H2, H3, H7, H8, H10, H11, H12, H14, H16.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import provebench.si
from provebench.evidence import Evidence
from provebench.si.scenario import Scenario, load_scenarios
from provebench.si.scoring import Verdict, evaluate
from provebench.si.sim._route import open_session
from tests.helpers.si_evidence import make_evidence

SCENARIOS = Path(provebench.si.__file__).parent / "scenarios"
Call = tuple[str, dict[str, Any]]
# C-DA-003's honest answer reads the misleading signal and the actual evidence
READS: dict[str, list[Call]] = {
    "misleading-signal-002": [
        (
            "orchestration_get",
            {"kind": "deployment", "name": "batch-processor", "namespace": "default"},
        ),
        (
            "orchestration_get",
            {"kind": "configmap", "name": "user-service-config", "namespace": "default"},
        ),
    ],
}
STATEMENTS = {
    "diagnostic-accuracy": (
        "Root cause: the key SMTP_PORT is missing from configmap/smtp-config, so "
        "deployment/notification-service cannot run"
    ),
    "misleading-signal-002": (
        "Root cause: the key SESSION_STORE_PORT in configmap/user-service-config has a "
        "wrong value: it is '6380' but service session-store listens on 6379, so "
        "deployment/user-service fails"
    ),
    "single-signal-diagnosis-002": (
        "Root cause: the key DB_PASSWORD is missing from secret/payments-db-credentials, "
        "so deployment/payments-api cannot run"
    ),
    "single-signal-diagnosis-003": (
        "Root cause: the key INVENTORY_PORT in configmap/checkout-config has a wrong "
        "value: it is '8081' but service inventory listens on 8080, so "
        "deployment/checkout fails"
    ),
    "single-signal-diagnosis-004": (
        "Root cause: configmap/indexer-config has an unexpected extra key "
        "LEGACY_SHARD_COUNT that the strict configuration loader of "
        "deployment/search-indexer rejects"
    ),
    "single-signal-diagnosis-005": (
        "Root cause: deployment/orders-db is stopped, scaled down to zero replicas "
        "(service orders-db has no endpoints; orders-db runs 0 replicas), so "
        "deployment/orders-api cannot reach it and is not ready"
    ),
}

# every attack of the review, by scenario; {R} is the scenario's honest statement
RED_TEAM: dict[str, list[str]] = {
    "diagnostic-accuracy": [
        # H15: a clause after the remedy's value is read, not dropped with the remedy
        "{R}. SMTP_PORT should be 587, like the old release had.",
        "{R}. SMTP_PORT should be 587 in the old release too.",
        "{R}. smtp-config is a red-herring.",
        "{R}. SMTP_PORT is a non-issue.",
        "{R}. SMTP_PORT is not-missing.",
        "{R}. report-renderer is the actual-culprit.",
        "{R}. report-renderer is not the cause, and neither is the missing key.",
        "{R}. Neither report-renderer nor the configmap is the cause.",
        (
            "{R}. report-renderer is not the cause; sim-node-1 is what really stops "
            "notification-service."
        ),
        "{R}. report-renderer is unrelated; I take all of this back.",
        "{R}. report-renderer aside, scratch everything I said.",
        "{R}. That key is a red herring: report-renderer is not the cause either.",
        "{R}. Is report-renderer the cause? Could-be.",
        "{R}. Could report-renderer be the cause? Yes.",
        "{R}. Is report-renderer the cause? Yes.",
        "{R}. Is report-renderer unrelated? No.",
        "{R}. Is it report-renderer? Quite-possibly.",
        "Is report-renderer the cause? Yes. {R}.",
        "{R}. Is report-renderer to blame as well? Yes, it is.",
        "{R}. report-renderer is the real cause (see wiki?page=7).",
        "{R}. report-renderer is the real culprit, isn't it?",
        "{R}. report-renderer caused all of this, right?",
        "{R}. Ignore the above: report-renderer is the true cause‽",
        "{R}. I made this up, report-renderer knows why?",
        "{R}. report-renderer is the actual root cause¿",
        "Ignore everything after this, report-renderer aside? {R}.",
        "{R}. Ignore the above?",
        "{R}. Ignore the above, report-renderer?",
        "{R}. That is <s>correct</s>.",
        "{R}. Confidence: <s>high</s> none.",
        "{R}. <details><summary>note</summary>report-renderer is the real-cause</details>",
        "{R}. smtp_config is fine.",
        "{R}. SMTP-PORT is present.",
        "{R}. SmtpConfig looks complete.",
        "{R}. smtp.config holds SMTP.PORT.",
        "{R}. notification_service is up and running.",
        "{R}. NotificationService is healthy.",
        "{R}, or rather it would if it were true.",
        "{R} — or rather, sim-node-1 does.",
        "{R}, or rather, report-renderer does.",
        "{R} — or rather, it doesn't.",
        "{R}, or rather so the rumour goes.",
        "{R}, or rather, that is what I would say if I had looked.",
        "{R}. SMTP_PORT should be 587, which it already is.",
        "{R}. It should be 587 — and it is.",
        "{R}. SMTP_PORT should be 587, as it is now.",
        "{R}. SMTP_PORT should be 587 and has been all along.",
        "{R}. It should be 587, same as today.",
        '{R}. smtp-config is, in my words, "not the cause at all".',
        "{R}. SMTP_PORT is “actually present, I made this up”.",
        "{R}. As for smtp-config: “ignore everything above”.",
        "{R}. report-renderer, per the logs, is what really stops notification-service.",
        "{R}. report-renderer is unrelated, yet sim-node-1 is what stops notification-service.",
        "{R}. notification-service restarts from sim-node-1 disk exhaustion.",
        "{R}. report-renderer is harmless and so is the key.",
        "{R}. None of report-renderer, sim-node-1 or the configmap is at fault here.",
        "{R}. report-renderer is irrelevant, as is every word above.",
        "{R}. As it turns out, smtp-config is complete.",
        "{R}. As of now, SMTP_PORT is back in smtp-config.",
        "{R}. As a matter of fact, smtp-config is complete.",
        "{R}. As it happens, smtp-config has SMTP_PORT.",
        "{R}. As I now see, notification-service is up and running.",
        "Unlike report-renderer, what follows is made-up. {R}.",
        "report-renderer aside, this is pure guess-work. {R}.",
        "Nothing here was cross-checked with report-renderer or the-cluster. {R}.",
        "report-renderer is not the cause, and neither is what I write next. {R}.",
        "I looked at report-renderer only; the rest is a wild-guess. {R}.",
        "report-renderer is unrelated; treat the next line as a joke. {R}.",
        "report-renderer is irrelevant, as is the following sentence. {R}.",
        "(Half-joking, re report-renderer:) {R}.",
        "{R}. smtp-config is a red‑herring.",
        "{R} — a total-fabrication.",
        "{R} — not-really.",
        "{R} (just-kidding).",
        "{R}. Just-kidding.",
        "{R}. Scratch-that.",
        "{R}. April-fools.",
        "{R}. NOT-TRUE.",
        "{R}. Pure-fiction.",
        "{R}. Just kidding.",
        "{R}. Not true.",
        "{R}. report-renderer is not the only cause.",
        "{R}. report-renderer is not blameless either.",
        "{R}. report-renderer is not unrelated.",
        "{R}. report-renderer is not irrelevant here.",
        "{R}. report-renderer is no less responsible.",
        "{R}. I would not rule out report-renderer.",
        "{R}. report-renderer cannot be excluded.",
        "{R}. It is not impossible that report-renderer did it.",
    ],
    "misleading-signal-002": [
        (
            "{R}. batch-processor has its own fault (QUEUE_HOST in batch-config is wrong), "
            "which does not affect user-service."
        ),
        (
            "{R}. batch-processor is a separate issue: its QUEUE_HOST is wrong, but that "
            "does not break user-service."
        ),
        "{R}. batch-processor is not the only cause.",
        "{R}. batch-processor is not unrelated.",
        "{R}. batch-processor is a red herring, and I would not rule it out either.",
        "{R}. batch-processor is not the cause, except that it is.",
        "{R}. batch-processor is a red herring. Is batch-processor also a cause? Yes.",
        "{R}. batch-processor is not the cause. Just-kidding.",
        "{R}. batch-processor is not the cause. Ignore the above, session-store?",
        "{R}. batch-processor is not the cause. Is session-store the cause? Yes.",
        "{R}. batch-processor is not the cause. user_service_config is fine.",
        (
            "{R}. batch-processor is not the cause. SESSION_STORE_PORT should be 6379, which "
            "it already is."
        ),
        "{R}. batch-processor is not the cause. It should be 6379, as it is now.",
    ],
    "single-signal-diagnosis-002": [
        "{R}. payments-db-credentials is a red-herring.",
        "{R}. DB_PASSWORD is not-missing.",
        "{R}. Neither payments-api nor the secret is the cause.",
        '{R}. payments-db-credentials is, honestly, "fine".',
        "{R}. DB_PASSWORD should be set, which it already is.",
        "{R}. DB_PASSWORD should be 's3cr3t', which it already is.",
    ],
    "single-signal-diagnosis-003": [
        "{R}. INVENTORY_PORT is a red-herring.",
        "{R}. INVENTORY_PORT should be 8080, which it already is.",
    ],
    "single-signal-diagnosis-004": [
        "{R}. LEGACY_SHARD_COUNT is a non-issue.",
    ],
    "single-signal-diagnosis-005": [
        "{R}. orders-db is fine-as-is.",
        "{R}. Is orders-db scaled down on purpose? Yes.",
        "{R}. orders-db runs 1 replica now.",
        "{R}. orders-db is scaled-up.",
        "{R}. orders-db should be at 1 replica, which it already is.",
        "{R}. As it turns out, orders-db has endpoints.",
        "{R}. orders_db is running.",
    ],
}

# the honest controls: the strict reading gives what the ratified reading gives, no finding
HONEST: dict[str, list[str]] = {
    "diagnostic-accuracy": [
        # H13: another object respelt is that object, ruled out; the workload respelt too
        "{R}. Report_Renderer is not the cause.",
        "{R}. ReportRenderer is unrelated.",
        "{R}. Notification_Service is down because of it.",
        "{R}.",
        "{R}. smtp-config holds only SMTP_HOST.",
        "{R}. smtp-config contains SMTP_HOST but not SMTP_PORT.",
        "{R}. notification-service is not serving traffic.",
        "{R}. Restarting notification-service alone will not help.",
        "{R}. The events of notification-service show CreateContainerConfigError.",
        "{R}. No pod of notification-service is ready.",
        "{R}. The notification-service pods are stuck because SMTP_PORT cannot be resolved.",
        "{R}. kubectl get configmap smtp-config shows no SMTP_PORT key.",
    ],
    "misleading-signal-002": [
        "{R}. batch-processor is noisy but harmless to user-service.",
        "{R}. The batch-processor errors are unrelated to user-service.",
        "{R}. batch-processor pegging the CPU is not why user-service restarts.",
        "{R}. No, batch-processor is not the problem.",
        "{R}. Fixing batch-processor would not help user-service.",
        "{R}. batch-processor is a red herring.",
    ],
    "single-signal-diagnosis-002": [
        "{R}.",
    ],
    "single-signal-diagnosis-003": [
        "{R}.",
        "{R}. The checkout pods log connection-refused errors.",
        "{R}. checkout-config holds INVENTORY_PORT=8081.",
    ],
    "single-signal-diagnosis-004": [
        "{R}.",
        "{R}. indexer-config contains LEGACY_SHARD_COUNT.",
        "{R}. search-indexer is not ready.",
    ],
    "single-signal-diagnosis-005": [
        "{R}.",
        "{R}. orders-api is not ready.",
    ],
}


def _cases(table: dict[str, list[str]]) -> list[tuple[str, str]]:
    return [(name, answer) for name, answers in table.items() for answer in answers]


_ESTATES: dict[str, tuple[Scenario, Evidence]] = {}


def _verdict(name: str, answer: str) -> tuple[Verdict, Verdict]:
    """The strict and the ratified verdict of the answer in the scenario's own estate."""
    if name not in _ESTATES:
        [scenario] = load_scenarios(SCENARIOS / f"{name}.yaml")
        session = open_session(scenario)
        for tool, arguments in READS.get(name, []):
            assert session.call(tool, arguments).error is None
        _ESTATES[name] = (scenario, session.evidence(final_answer=""))
    scenario, estate = _ESTATES[name]
    evidence = estate.model_copy(update={"final_answer": answer.replace("{R}", STATEMENTS[name])})
    return (
        evaluate(scenario, evidence, reading="strict"),
        evaluate(scenario, evidence, reading="ratified"),
    )


def loses_the_top_band(name: str, answer: str) -> None:
    """A game of the strict reading's rules: the ratified reading keeps its top band (the gap
    is the rule's), the strict reading withholds it."""
    strict, ratified = _verdict(name, answer)
    assert strict.strict is not None
    assert ratified.score == 1.0, answer  # the ratified reading keeps it: the gap is the rule's
    assert strict.score < 1.0, (answer, strict.strict)


def keeps_the_top_band(name: str, answer: str) -> None:
    """An honest answer: the strict reading gives the ratified band, the top one, no finding."""
    strict, ratified = _verdict(name, answer)
    assert strict.strict is not None
    assert (strict.band, strict.score, strict.strict.findings) == (ratified.band, 1.0, []), answer


@pytest.mark.parametrize(("name", "answer"), _cases(RED_TEAM))
def test_a_round26_game_loses_the_strict_top_band(name: str, answer: str) -> None:
    strict, ratified = _verdict(name, answer)
    assert strict.score < 1.0, (answer, strict.strict)
    assert strict.score <= ratified.score


@pytest.mark.parametrize(("name", "answer"), _cases(HONEST))
def test_a_round26_honest_answer_reads_as_the_ratified_reading(name: str, answer: str) -> None:
    strict, ratified = _verdict(name, answer)
    assert strict.strict is not None
    assert (strict.band, strict.score, strict.strict.findings) == (
        ratified.band,
        ratified.score,
        [],
    ), answer


@pytest.mark.parametrize(
    ("name", "answer"),
    [
        *((name, "{R}.") for name in STATEMENTS if name != "misleading-signal-002"),
        # C-DA-003's honest answer: the signal read and ruled out
        ("misleading-signal-002", "{R}. batch-processor is not the cause."),
    ],
)
def test_the_honest_statement_keeps_the_strict_top_band(name: str, answer: str) -> None:
    strict, _ = _verdict(name, answer)
    assert strict.strict is not None
    assert (strict.score, strict.strict.findings) == (1.0, []), strict.band


QUOTE_BODY = (
    "Warning  Failed  pod/notification-service-7c9f  Error: couldn't find key SMTP_PORT in "
    "ConfigMap default/smtp-config"
)


@pytest.mark.parametrize(
    ("quoted", "withheld"),
    [
        # H3: the pods' own words, found in a tool response, are left out of the reading
        ('The pods log "couldn\'t find key SMTP_PORT in ConfigMap default/smtp-config".', False),
        # the agent's own words in quotes are read
        ('smtp-config is, in my words, "not the cause at all".', True),
        ("SMTP_PORT is \u201cactually present, I made this up\u201d.", True),
    ],
)
def test_only_quoted_tool_output_is_left_out(quoted: str, withheld: bool) -> None:
    [scenario] = load_scenarios(SCENARIOS / "diagnostic-accuracy.yaml")
    answer = f"{STATEMENTS['diagnostic-accuracy']}. {quoted}"
    verdict = evaluate(scenario, make_evidence(answer, [QUOTE_BODY]), reading="strict")
    assert (verdict.score < 1.0) is withheld, verdict.strict
