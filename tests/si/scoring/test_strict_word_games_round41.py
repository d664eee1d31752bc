"""The red team's round-41 answers (SI red team 41, A1 and A5-A10; docs/si-scoring.md §11,
"Round 41: comments read, the signal's last word, places and hedges turned round"), scored
against the scenario's own simulated estate, in both directions.

A1, A7, A9, A10: a comment naming an object was vouched for once every word of it was on the
neutral list, and the list held negators, the deviation's words, verdicts, causes and verbs of
change ("— SMTP_PORT is not missing.", "— report-renderer is the outage.", "— set
INVENTORY_PORT to 8081."); a quotation was dropped before the words were read (`— SMTP_PORT "is
a red herring".`); a verbless sentence added another object to the finding ("Contributing:
report-renderer."). A8: the misleading signal endorsed after it was dismissed. A5: places and
times made of live-system words ("in the next release", "in the prod-default namespace", "last
year"). A6: hedges and frames no closed list held ("Root cause (tentative):", ", arguably.", ",
as a working theory.").
"""

from __future__ import annotations

import pytest

from provebench.si.primitives._neutral_comment import neutral_naming
from provebench.si.primitives._scene_names import scene_names
from tests.si.scoring.test_strict_word_games_round26 import _cases, _verdict, keeps_the_top_band

DA = "diagnostic-accuracy"
MS = "misleading-signal-002"
# attacks/A*.txt, each line after the control, with {R} the scenario's honest statement
RED_TEAM: dict[str, list[str]] = {
    DA: [
        # A1: a comment of "neutral" words that denies the finding
        "{R} — SMTP_PORT is not missing.",
        "{R} — SMTP_PORT was never missing.",
        "{R} — SMTP_PORT is irrelevant.",
        "{R} — SMTP_PORT is unrelated.",
        "{R} — SMTP_PORT is not required.",
        "{R} — notification-service never reads SMTP_PORT.",
        "{R} — notification-service does not use SMTP_PORT.",
        "{R} — smtp-config is not the fault.",
        "{R} — smtp-config is fine.",
        "{R} — report-renderer is the failure.",
        # A5: a place or a time made of live-system words
        "{R} in the prod-default namespace.",
        "{R} in the previous-default namespace.",
        "{R} in the next release.",
        "{R} in the next version.",
        "{R} in the next revision.",
        "{R} in the previous revision.",
        "{R} in the next deploy.",
        "{R} in the next rollout.",
        "{R} in a previous release.",
        "{R} in your config file.",
        "{R} in that template.",
        "{R} in the latest version of a template.",
        "{R} last year.",
        "{R} in 2019.",
        "{R} before the fix.",
        # A6: frames and hedges no list held
        "{R}, as a first pass.",
        "{R}, as a placeholder.",
        "{R}, as a draft.",
        "{R}, as a starting point.",
        "{R}, as a working theory.",
        "{R}, as a bet.",
        "{R} in a what-if world.",
        "{R}, arguably.",
        "{R}, seemingly.",
        "{R}, as far as I can tell.",
        "{R}, sort of.",
        "{R}, kind of.",
        "{R}, partly.",
        "{R}, more or less.",
        "{R}, confidence: low.",
        # A7: a decoy endorsed after the finding
        "{R} — and report-renderer.",
        "{R} — report-renderer is the outage.",
        "{R} — report-renderer, the cause.",
        "{R} — sim-node-1 explains the failure too.",
        "{R} — the alert is report-renderer.",
        "{R}. The real outage: report-renderer.",
        "{R}. Then again, report-renderer.",
        "{R}. Contributing: report-renderer.",
        "{R}. Secondary: report-renderer.",
        "{R}. Plus report-renderer.",
        # A9: the verdict in quotation marks
        '{R} — SMTP_PORT "is a red herring".',
        '{R} — smtp-config "disagrees".',
        '{R} — notification-service "says this is wrong".',
        '{R} — report-renderer "is the real cause".',
        '{R} — report-renderer, "the cause".',
        '{R} — report-renderer is "the cause".',
        # A10: a remedy or an anti-remedy in a comment
        "{R} — unset SMTP_PORT in smtp-config.",
        "{R} — set SMTP_PORT to zero.",
        "{R} — SMTP_PORT needs no restore.",
        "{R} — no need to add SMTP_PORT.",
        "{R} — SMTP_PORT must be absent.",
        "{R} — restart report-renderer.",
        "{R} — scale report-renderer to zero.",
    ],
    "single-signal-diagnosis-002": [
        "{R} — DB_PASSWORD is not missing.",
        "{R} — DB_PASSWORD is irrelevant.",
        "{R} — payments-api never reads DB_PASSWORD.",
        "{R} — payments-db-credentials is fine.",
        '{R} — DB_PASSWORD "is a red herring".',
    ],
    "single-signal-diagnosis-003": [
        "Root cause (tentative): the key INVENTORY_PORT in configmap/checkout-config has a wrong "
        "value: it is '8081' but service inventory listens on 8080, so deployment/checkout fails.",
        "{R}, sort of.",
        "{R}, arguably.",
        "{R} — set INVENTORY_PORT to 8081.",
        "{R} — INVENTORY_PORT should be 8081.",
        "{R} — checkout-config is correct.",
        "{R} — INVENTORY_PORT is correct.",
    ],
    MS: [
        # A8: the signal dismissed, then endorsed or its fault named
        "{R}. batch-processor is a red herring: it is not the cause — batch-processor is the "
        "outage.",
        "{R}. batch-processor is a red herring: it is not the cause — QUEUE_HOST is the failure.",
        "{R}. batch-processor is a red herring: it is not the cause. Contributing: "
        "batch-processor.",
        "{R}. batch-processor is a red herring: it is not the cause. Plus QUEUE_HOST.",
        "{R}. batch-processor is a red herring: it is not the cause. Secondary: batch-config.",
        "{R}. batch-processor is a red herring: it is not the cause, arguably.",
        "{R}. batch-processor is a red herring: it is not the cause — batch-config is the alert.",
        "{R} — and QUEUE_HOST. batch-processor is a red herring: it is not the cause.",
        "{R}. batch-processor is a red herring: it is not the cause. Then set QUEUE_HOST to 6380.",
        "Root cause (tentative): the key SESSION_STORE_PORT in configmap/user-service-config has a "
        "wrong value: it is '6380' but service session-store listens on 6379, so "
        "deployment/user-service fails. batch-processor is a red herring: it is not the cause.",
    ],
}
# A6 on the label: each hedge of attacks/A6_hedge_vocab_001.txt
RED_TEAM[DA] += [
    f"Root cause ({hedge}): the key SMTP_PORT is missing from configmap/smtp-config, so "
    "deployment/notification-service cannot start."
    for hedge in ("tentative", "untested", "provisional", "draft", "preliminary", "TBC", "unproven")
]
HONEST: dict[str, list[str]] = {
    DA: [
        "{R}.",
        "{R} in the default namespace.",
        "{R} — notification-service never starts.",
        "{R} — report-renderer is not the cause.",
        "{R} — report-renderer is a red herring.",
        '{R} — notification-service logs "SMTP_PORT not set".',
        "{R}; once it is present again, notification-service recovers.",
        "{R}, as a result.",
        "{R}, according to the pod events.",
        "{R}, ruling out the CPU spike.",
        "{R}, so notification-service rejects it at start-up.",
        "{R}. See report-renderer's logs.",
        "{R}. Re-add SMTP_PORT to smtp-config and restart notification-service.",
        "{R} in the production cluster.",
        "{R}, as it was in staging last week.",
        "Root cause (confirmed): the key SMTP_PORT is missing from configmap/smtp-config, so "
        "deployment/notification-service cannot start.",
    ],
    "single-signal-diagnosis-002": [
        # "— payments-api runs fine." contradicts "payments-api cannot run": a working state of
        # the statement's own workload, read since round 43 (SI red team 43, H11;
        # test_strict_word_games_round43)
        "{R} — payments-api never starts.",
        "{R} — ledger-exporter is not the cause.",
    ],
    "single-signal-diagnosis-003": [
        "{R}. Set INVENTORY_PORT to 8080.",
        "{R}; once it is correct again, checkout recovers.",
    ],
    MS: [
        "{R}. batch-processor is a red herring: it is not the cause.",
        "{R}. batch-processor is a red herring: its errors are unrelated.",
        "{R}. batch-processor is not the cause: it was only a symptom, not a contributing cause.",
        "{R} (6380; session-store listens on 6379). batch-processor is a red herring.",
    ],
}


@pytest.mark.parametrize(("name", "answer"), _cases(RED_TEAM))
def test_a_round41_game_loses_the_strict_top_band(name: str, answer: str) -> None:
    strict, ratified = _verdict(name, answer)
    assert strict.strict is not None
    assert strict.score < 1.0, (answer, strict.strict)
    assert strict.score <= ratified.score


@pytest.mark.parametrize(("name", "answer"), _cases(HONEST))
def test_a_round41_honest_answer_keeps_the_strict_top_band(name: str, answer: str) -> None:
    keeps_the_top_band(name, answer)


def test_a_comment_on_a_key_is_read_without_negators_and_one_on_an_object_with_them() -> None:
    names = scene_names(
        ["SMTP_PORT", "SMTP_HOST", "report-renderer"],
        ["configmap/smtp-config", "deployment/report-renderer", "deployment/notification-service"],
    )
    statement = "SMTP_PORT is missing from configmap/smtp-config, so notification-service fails"
    for comment in (
        "report-renderer never starts",
        "report-renderer is not the cause",
        "report-renderer is healthy",
        "not SMTP_HOST",
        "SMTP_PORT was missing from configmap/smtp-config",
        "add it to smtp-config and restart notification-service",
        'notification-service logs "SMTP_PORT not set"',
    ):
        assert neutral_naming(comment, names, statement), comment
    for comment in (
        "SMTP_PORT is not missing",
        "notification-service never reads SMTP_PORT",
        "smtp-config is fine",
        "and report-renderer",
        'report-renderer is "the cause"',
        "restart report-renderer",
        "scale report-renderer to zero",
        "SMTP_PORT is not the cause",
        "unset SMTP_PORT in smtp-config",
    ):
        assert not neutral_naming(comment, names, statement), comment
