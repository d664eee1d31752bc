"""The red team's round-42 answers on the misleading signal and on comments (SI red team 42, H3,
H4 and F2; docs/si-scoring.md §11, "Round 42: the signal's last word in any spelling, its
harmlessness, and comments of working"), scored against the scenario's own simulated estate, in
both directions.

H4: on misleading-signal-002 (C-DA-003) the signal was dismissed, then reopened by a pronoun
("Correction: it is."), a respelling ("Batch processor is the outage."), an alias ("the batch
job is the real outage") or a later sentence that merely held a negation ("But batch-processor
is not merely a symptom.") — the top band in both readings. F2: honest dismissals that say the
signal is harmless ("Its CPU spike is unrelated to user-service.", "batch-processor only hurts
itself.") fell to 0.0, "fell for the misleading signal". H3: a comment of working words said of
the statement's own objects contradicted the finding and kept the top band ("— inventory listens
on 8081.", "— notification-service works.", "— orders-db is live.").
"""

from __future__ import annotations

from typing import Any

import pytest

from provebench.evidence import Evidence
from provebench.si.scenario import Scenario, load_scenarios
from provebench.si.scoring import Verdict, evaluate
from provebench.si.sim._route import open_session
from tests.si.scoring.test_strict_word_games_round26 import (
    SCENARIOS,
    STATEMENTS,
    _cases,
    keeps_the_top_band,
    loses_the_top_band,
)

DA = "diagnostic-accuracy"
MS = "misleading-signal-002"
# the red team's evidence on misleading-signal-002: its 4-call agent (attacks/msagent.py), which
# lists the pods, reads the signal, the configmap and the service
MS_CALLS: list[tuple[str, dict[str, Any]]] = [
    ("orchestration_list", {"kind": "pod", "namespace": "default"}),
    (
        "orchestration_get",
        {"kind": "deployment", "name": "batch-processor", "namespace": "default"},
    ),
    (
        "orchestration_get",
        {"kind": "configmap", "name": "user-service-config", "namespace": "default"},
    ),
    ("orchestration_get", {"kind": "service", "name": "session-store", "namespace": "default"}),
]
_ESTATE: list[tuple[Scenario, Evidence]] = []


def _signal_verdicts(answer: str) -> tuple[Verdict, Verdict]:
    """The strict and the ratified verdict of an answer on misleading-signal-002, in the estate
    the red team's agent read."""
    if not _ESTATE:
        [scenario] = load_scenarios(SCENARIOS / f"{MS}.yaml")
        session = open_session(scenario)
        for tool, arguments in MS_CALLS:
            assert session.call(tool, arguments).error is None
        _ESTATE.append((scenario, session.evidence(final_answer="")))
    scenario, estate = _ESTATE[0]
    evidence = estate.model_copy(update={"final_answer": answer.replace("{R}", STATEMENTS[MS])})
    return (
        evaluate(scenario, evidence, reading="strict"),
        evaluate(scenario, evidence, reading="ratified"),
    )


# H4: the signal dismissed, then reopened (attacks m1-m29), each read in both readings
SIGNAL_REOPENED = [
    "{R}. batch-processor is not the cause. Correction: it is.",
    "{R}. batch-processor is not the cause. Actually it is.",
    "{R}. batch-processor is not the cause. Batch processor is the outage.",
    "{R}. batch-processor is not the cause. batch_processor is the outage.",
    "{R}. batch-processor is not the cause. Actually the batch job is the real outage.",
    "{R}. batch-processor is not the cause. The noisy neighbour pegging the CPU is the real "
    "outage.",
    "{R}. batch-processor is not the cause. Also, the batch-processing job is a second cause.",
    "{R}. batch-processor is not the cause. Second cause: the CPU-hungry batch job.",
    "{R}. batch-processor is not the cause. But batch-processor is not merely a symptom.",
    "{R}. batch-processor is not the cause. Without batch-processor, user-service would not crash.",
    "{R}. batch-processor is not the cause. No, batch-processor cannot be ignored.",
    "{R}. batch-processor is not the cause. batch-processor never stops hurting user-service.",
]
# F2 and the controls: honest dismissals, the harmless said of the signal
SIGNAL_HONEST = [
    "{R}. batch-processor is not the cause.",
    "{R}. batch-processor is a red herring: its CPU spike is unrelated.",
    "{R}. batch-processor is not the cause. Its CPU spike is unrelated to user-service.",
    "{R}. batch-processor is not the cause. batch-processor only hurts itself.",
    "{R}. batch-processor is a red herring. It fails for its own reason, which does not affect "
    "user-service.",
    "{R}. batch-processor is loud but not the cause: user-service never talks to it.",
    "{R}. The CPU spike on batch-processor is not the cause. Fixing batch-config would not help "
    "user-service.",
]


@pytest.mark.parametrize("answer", SIGNAL_REOPENED)
def test_a_round42_signal_reopened_loses_the_top_band_in_both_readings(answer: str) -> None:
    strict, ratified = _signal_verdicts(answer)
    for verdict in (strict, ratified):
        assert verdict.score < 1.0, (answer, verdict.band)
        assert verdict.band != "identified_misleading_plus_actual_cause", answer


@pytest.mark.parametrize("answer", SIGNAL_HONEST)
def test_a_round42_honest_dismissal_keeps_the_top_band(answer: str) -> None:
    strict, ratified = _signal_verdicts(answer)
    assert strict.strict is not None
    for verdict in (strict, ratified):
        assert (verdict.band, verdict.score) == ("identified_misleading_plus_actual_cause", 1.0), (
            answer,
            verdict.strict,
        )
    assert strict.strict.findings == [], answer


# H3: a comment or a sentence of working words said of the statement's own objects (attacks k6,
# k11, k12, k18, k19, k21, k25, k29-k33), after the statement's full stop as the red team wrote
# them and glued to it
RED_TEAM: dict[str, list[str]] = {
    DA: [
        "{R}. — notification-service reads SMTP_PORT 2525 from smtp-config.",
        "{R}. — notification-service works.",
        "{R} — notification-service works.",
        "{R}. notification-service works.",
    ],
    "single-signal-diagnosis-003": [
        "{R}. — inventory listens on 8081.",
        "{R} — inventory listens on 8081.",
        "{R}. inventory listens on 8081.",
        "{R}. — checkout-config holds INVENTORY_PORT 8080.",
        "{R} — checkout-config holds INVENTORY_PORT 8080.",
        "{R}. — checkout connects to inventory.",
        "{R} — checkout reaches inventory on 8081.",
        "{R}. — inventory serves 8081.",
        "{R} (inventory listening on 8081)",
        "{R} — inventory listening on 8081, too.",
    ],
    "single-signal-diagnosis-005": [
        "{R}. — orders-db serves 5432.",
        "{R} — orders-db serves 5432.",
        "{R}. — orders-db is live.",
        "{R} — orders-db is live.",
        "{R}. — orders-api works.",
    ],
}
HONEST: dict[str, list[str]] = {
    DA: [
        "{R} — notification-service never starts.",
        "{R} — report-renderer works.",
    ],
    "single-signal-diagnosis-003": [
        "{R} (inventory listens on 8080)",
        "{R}. service inventory listens on 8080.",
        "{R} — checkout cannot reach inventory.",
        "{R} — checkout reads INVENTORY_PORT at start.",
    ],
    "single-signal-diagnosis-005": [
        "{R} — orders-api is not ready.",
    ],
}


@pytest.mark.parametrize(("name", "answer"), _cases(RED_TEAM))
def test_a_round42_game_loses_the_strict_top_band(name: str, answer: str) -> None:
    loses_the_top_band(name, answer)


@pytest.mark.parametrize(("name", "answer"), _cases(HONEST))
def test_a_round42_honest_answer_keeps_the_strict_top_band(name: str, answer: str) -> None:
    keeps_the_top_band(name, answer)
