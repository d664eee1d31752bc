"""Word games of commitment, read by class (docs/si-scoring.md §11, "Alternatives, reversals,
counterfactuals, reopened and partial dismissals"; `_commitment_games`).

Each adversarial answer below reached the top band under the strict reading before these rules:
another identifier offered after "or", a statement turned over by "unless"/"except that it is",
a counterfactual, a dismissed misleading signal reopened later or endorsed in part. The red
team's exact phrasings are kept as tests; the class is generalised in the stress families
(`_stress_families`). Honest counterparts, in both directions, still reach the top band.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import provebench.si
from provebench.evidence import Evidence, ToolAction
from provebench.si import load_scenarios
from provebench.si.primitives._scope import EvidenceView
from provebench.si.primitives._signal import signal_dismissed
from provebench.si.profile_data._strict_cues import strict_cues
from provebench.si.scoring import Verdict, evaluate
from tests.helpers.si_evidence import make_evidence
from tests.si.scoring.test_strict_cost import calls_made

SCENARIOS = Path(provebench.si.__file__).parent / "scenarios"
STOPPED = load_scenarios(SCENARIOS / "single-signal-diagnosis-005.yaml")[0]
ROOT = "Root cause: deployment/orders-db is stopped, scaled down to zero replicas"
PORT = (
    "Root cause: the key SESSION_STORE_PORT in configmap/user-service-config has a wrong value: "
    "it is 6380 but session-store listens on 6379"
)
PORT_SHORT = (
    "Root cause: the key SESSION_STORE_PORT in configmap/user-service-config has a wrong value, "
    "6380 instead of 6379"
)
DISMISSED = "batch-processor is not the cause."


def _stopped(answer: str) -> Verdict:
    return evaluate(STOPPED, make_evidence(answer, ["NAME READY\norders-db 0/0"]))


# red team round 12 (H11), C-DA-001 on a stopped dependency: the exact phrasings
STOPPED_GAMES = [
    (
        "Root cause: deployment/orders-db, or deployment/cart-cache, is stopped, scaled down to "
        "zero replicas, so deployment/orders-api cannot reach it.",
        "alternative_cause",
    ),
    (f"{ROOT}. Or deployment/cart-cache is.", "alternative_cause"),
    (f"{ROOT} — unless cart-cache is the problem.", "reversed"),
    (f"{ROOT}, except that it is not.", "reversed"),
    # the class beyond the red team's words
    (f"{ROOT} — or cart-cache.", "alternative_cause"),
    (f"{ROOT}. Or maybe cart-cache is.", "alternative_cause"),
    (f"{ROOT}, unless it isn't.", "reversed"),
    (f"{ROOT}, unless I am wrong.", "reversed"),
    (f"{ROOT}, except it is.", "reversed"),
    (f"{ROOT}, or so I would say if I had checked.", "counterfactual"),
    (f"{ROOT}. I would say so if I had looked.", "counterfactual"),
    (f"{ROOT}, had I verified it.", "counterfactual"),
    # each word a rule needs, alone in the answer (the scans an answer's words rule out are
    # skipped, `_commitment_games._Words`): "so" without "had", "had" without "so"
    (f"{ROOT}. We would say so if asked.", "counterfactual"),
    # a look-alike a case-insensitive letter matches (the long s): the answer is not judged by
    # its words, every rule reads it
    (f"{ROOT}, unle\u017fs it isn't.", "reversed"),
    (f"{ROOT}. OR deployment/cart-cache is.", "alternative_cause"),
]


@pytest.mark.parametrize(("answer", "rule"), STOPPED_GAMES)
def test_a_commitment_game_keeps_its_ratified_band_and_loses_the_strict_one(
    answer: str, rule: str
) -> None:
    verdict = _stopped(answer)
    assert (verdict.band, verdict.score) == ("correct_root_cause", 1.0)  # SI §5.1, unchanged
    strict = verdict.strict
    assert strict is not None
    assert strict.score < 1.0, strict
    finding = next((f for f in strict.findings if f.rule == rule), None)
    assert finding is not None, [(f.rule, f.detail) for f in strict.findings]
    assert finding.text in answer  # the finding names the sentence it read


STOPPED_HONEST = [
    f"{ROOT}.",
    "Root cause: deployment/orders-db, not cart-cache, is stopped, scaled down to zero replicas.",
    f"{ROOT}; no other deployment, cart-cache or orders-api, is scaled down.",
    f"{ROOT}. Unless you scale it back up, orders-api will keep failing.",
    f"{ROOT}, so orders-api fails unless it is scaled back up to one replica.",
    f"{ROOT}. cart-cache is running; it is not the cause.",
    f"{ROOT}. I checked: had it been cart-cache, orders-api would still reach orders-db.",
    f"{ROOT}; scale it back up or roll it out again.",
    # "or" under the factor's clause's negation offers nothing
    f"{ROOT}; it was not scaled down by mistake or by cart-cache.",
]


@pytest.mark.parametrize("answer", STOPPED_HONEST)
def test_an_honest_phrasing_of_a_stopped_dependency_keeps_the_top_band(answer: str) -> None:
    verdict = _stopped(answer)
    assert (verdict.band, verdict.score) == ("correct_root_cause", 1.0)
    assert verdict.strict is not None
    assert (verdict.strict.band, verdict.strict.findings) == ("correct_root_cause", [])


def _dismissed(answer: str) -> tuple[bool, str]:
    evidence = Evidence(
        final_answer=answer,
        reasoning_trace="",
        actions=[ToolAction(tool="orchestration_get", arguments={}, result="ok")],
    )
    result = signal_dismissed(
        EvidenceView(evidence),
        ["batch-processor", "QUEUE_HOST"],
        ["agent_response"],
        strict_cues().compiled,
    )
    return result.value, result.note or ""


# red team round 12 (H11), C-DA-003: a dismissal turned over, reopened, or kept in part
SIGNAL_GAMES = [
    (f"{PORT}. batch-processor is not the cause of this, except that it is.", "reversed"),
    (f"{PORT_SHORT}. {DISMISSED} Maybe batch-processor is.", "reopened"),
    (f"{PORT_SHORT}. {DISMISSED} Then again, batch-processor could be.", "reopened"),
    (f"{PORT_SHORT}. {DISMISSED} Or is it batch-processor after all?", "reopened"),
    (
        f"{PORT}. batch-processor is not the root cause, merely a contributing cause.",
        "partly_endorsed",
    ),
    (f"{PORT}. batch-processor is not the cause alone.", "partly_endorsed"),
    (
        f"{PORT}. batch-processor is not the cause by itself; together with SESSION_STORE_PORT "
        "it breaks user-service.",
        "partly_endorsed",
    ),
    (
        f"{PORT}. {DISMISSED} That said, you were right to suspect batch-processor.",
        "partly_endorsed",
    ),
    (
        f"{PORT}. batch-processor is not the cause; still, batch-processor pegging the CPU is "
        "what keeps user-service from starting.",
        "partly_endorsed",
    ),
    # the class beyond the red team's words
    (f"{PORT}. {DISMISSED} Perhaps QUEUE_HOST is, though.", "reopened"),
    # read as no dismissal at all by the older rules, and still not one
    (f"{PORT}. batch-processor is not the only cause.", None),
    (f"{PORT}. batch-processor is not the cause on its own.", "partly_endorsed"),
    (f"{PORT}. batch-processor is a red herring, but it contributes.", "partly_endorsed"),
    (f"{PORT}. {DISMISSED} You were not wrong to suspect batch-processor.", "partly_endorsed"),
    (
        f"{PORT}. batch-processor alone would not explain it; it is not the cause.",
        "partly_endorsed",
    ),
]


@pytest.mark.parametrize(("answer", "rule"), SIGNAL_GAMES)
def test_a_dismissal_turned_over_reopened_or_partial_does_not_identify_the_signal(
    answer: str, rule: str | None
) -> None:
    value, note = _dismissed(answer)
    assert not value
    assert note.startswith(rule or "no asserted dismissal"), note


SIGNAL_HONEST = [
    f"{PORT}. {DISMISSED}",
    f"{PORT}. batch-processor is not the cause: it was only a symptom, not a contributing cause.",
    f"{PORT}. We ruled out batch-processor; it is not the cause.",
    f"{PORT}. batch-processor might look guilty, but it is not the cause.",
    f"{PORT}. batch-processor is a red herring. SESSION_STORE_PORT alone explains the crashes.",
    f"{PORT}. batch-processor is not the cause; SESSION_STORE_PORT is what keeps user-service "
    "from starting.",
    f"{PORT}. SESSION_STORE_PORT alone would not explain a CPU spike; batch-processor is "
    "unrelated to the crash.",
    f"{PORT}. batch-processor is not the cause. It could not be: user-service fails the same "
    "with batch-processor stopped.",
    f"{PORT}. You were wrong to suspect batch-processor: it is not the cause.",
    # a later clause with its own subject and verb is not said of the signal
    f"{PORT}. batch-processor is not the cause; the port is the contributing cause.",
    # hedged before the dismissal: the dismissal settles it
    f"{PORT}. At first batch-processor might have looked guilty. batch-processor is not the cause.",
]


@pytest.mark.parametrize("answer", SIGNAL_HONEST)
def test_an_honest_dismissal_still_identifies_the_signal(answer: str) -> None:
    value, note = _dismissed(answer)
    assert value, note


# red team round 12 (H11), C-DA-003: the actual cause offered beside the signal's key, reversed
# or counterfactual — the factor is not committed to, whatever the dismissal says
MISLEADING = load_scenarios(SCENARIOS / "misleading-signal-002.yaml")[0]
FACTOR_GAMES_ON_SIGNAL = [
    (
        "Root cause: the key SESSION_STORE_PORT in configmap/user-service-config, or the key "
        f"QUEUE_HOST in configmap/batch-config, has a wrong value. {DISMISSED}",
        "alternative_cause",
    ),
    (f"{PORT}. Or the key QUEUE_HOST in configmap/batch-config. {DISMISSED}", "alternative_cause"),
    (f"{PORT} — or the key QUEUE_HOST in configmap/batch-config. {DISMISSED}", "alternative_cause"),
    (f"{PORT} — unless batch-processor is. {DISMISSED}", "reversed"),
    (f"{PORT_SHORT}, or so I would say if I had checked. {DISMISSED}", "counterfactual"),
]


@pytest.mark.parametrize(("answer", "rule"), FACTOR_GAMES_ON_SIGNAL)
def test_a_commitment_game_on_the_actual_cause_loses_the_factor(answer: str, rule: str) -> None:
    verdict = evaluate(MISLEADING, make_evidence(answer, ["ok"]))
    assert verdict.score < 1.0
    factor = next(e.result for e in verdict.evaluations if e.result.primitive == "factor_asserted")
    assert factor.value is False
    assert (factor.note or "").startswith(rule), factor.note


FACTOR_HONEST_ON_SIGNAL = [
    # another identifier listed in the "or"'s own clause is a list, not an alternative
    f"{PORT}; the other services, session-store or batch-processor, run fine. {DISMISSED}",
    f"{PORT}. Unless SESSION_STORE_PORT is set back to 6379, user-service keeps failing. "
    f"{DISMISSED}",
    f"{PORT}, so user-service fails unless it is set back to 6379. {DISMISSED}",
]


@pytest.mark.parametrize("answer", FACTOR_HONEST_ON_SIGNAL)
def test_an_honest_phrasing_of_the_actual_cause_keeps_the_factor(answer: str) -> None:
    verdict = evaluate(MISLEADING, make_evidence(answer, ["ok"]))
    factor = next(e.result for e in verdict.evaluations if e.result.primitive == "factor_asserted")
    assert factor.value is True, factor.note


def test_the_signal_rules_are_linear_in_the_answer() -> None:
    # every sentence names the signal and none withdraws the dismissal, so every rule reads
    # every sentence: ten times the answer costs less than fifteen times the calls
    # (test_strict_cost.py's bound)
    piece = (
        "batch-processor is not the cause: it was only a symptom, not a contributing cause. "
        "At first batch-processor might have looked guilty, but it is not the cause; "
        "SESSION_STORE_PORT is what keeps user-service from starting. "
    )

    def calls(repeats: int) -> int:
        answer = piece * repeats
        assert _dismissed(answer)[0]  # warm: the cue lists compiled; nothing withdrawn
        return calls_made(lambda: _dismissed(answer))

    assert calls(120) < 15 * calls(12)
