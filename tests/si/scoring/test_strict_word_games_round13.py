"""The red team's round-13 answers (SI red team 13: W1, W1b, W2, W3), read by class
(docs/si-scoring.md §11, "Round 13: named but not made").

`strict_round13_answers.yaml` holds every round-13 word game that reached the strict top band,
verbatim, and the honest phrasings the same rules must not punish. On C-DA-001 each game keeps
its ratified band (SI §2.2, normative) and loses the strict one, with the finding of its class;
on C-DA-003 (strict by design) a game on the factor falls to the bottom band, a dismissal that
does not dismiss to the band without the signal, and every honest answer keeps the top band.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
import yaml

import provebench.si
from provebench.si import load_scenarios
from provebench.si.scoring import Verdict, evaluate
from tests.helpers.si_evidence import make_evidence
from tests.si.scoring.test_strict_word_games_v5 import _misleading_verdict

_SI = Path(provebench.si.__file__).parent
_DATA: dict[str, Any] = yaml.safe_load(
    (Path(__file__).parent / "strict_round13_answers.yaml").read_text(encoding="utf-8")
)
SCENARIO = load_scenarios(_SI / "scenarios" / "single-signal-diagnosis-002.yaml")[0]
TOOL_BODY = "NAME READY STATUS\npayments-api-5d8f 0/1 CreateContainerConfigError"
TOP = ("correct_root_cause", 1.0)
LOCUS = ("correct_subsystem_wrong_component", 0.5)
SIGNAL_TOP = ("identified_misleading_plus_actual_cause", 1.0)
FELL_FOR = ("fell_for_misleading_signal", 0.0)
WITHOUT_SIGNAL = ("actual_cause_without_misleading_signal", 0.5)
DISOWNS_THE_WHOLE_ANSWER = frozenset(
    {
        "batch-processor is a red herring: it is not the cause. I'm lying.",
        # round 26 (SI red team 26, H10): a dismissal denied ("cannot rule it out") asserts
        # batch-processor as a second cause, so the factor is withheld too
        "batch-processor is not the cause; I cannot rule it out though.",
    }
)
C_DA_003: dict[str, Any] = _DATA["c_da_003"]


def _verdict(answer: str) -> Verdict:
    return evaluate(SCENARIO, make_evidence(answer, [TOOL_BODY]))


def _strict(verdict: Verdict) -> tuple[str, float]:
    assert verdict.strict is not None
    return verdict.strict.band, verdict.strict.score


def _games() -> list[Any]:
    return [
        pytest.param(answer, entry["rule"], id=f"{entry['rule']}:{answer[:50]}")
        for entry in _DATA["c_da_001_games"]
        for answer in entry["red_team"]
    ]


@pytest.mark.parametrize(("answer", "rule"), _games())
def test_a_round13_game_keeps_its_ratified_band_and_loses_the_strict_one(
    answer: str, rule: str
) -> None:
    verdict = _verdict(answer)
    assert (verdict.band, verdict.score) == TOP  # the ratified reading, unchanged
    assert _strict(verdict) == LOCUS
    assert verdict.strict is not None
    assert rule in [finding.rule for finding in verdict.strict.findings], verdict.strict.findings


@pytest.mark.parametrize("answer", _DATA["c_da_001_honest"])
def test_an_honest_c_da_001_answer_keeps_the_strict_top_band(answer: str) -> None:
    verdict = _verdict(answer)
    assert (verdict.band, verdict.score) == TOP
    assert verdict.strict is not None
    assert (_strict(verdict), verdict.strict.findings) == (TOP, [])


@pytest.mark.parametrize("answer", _DATA["c_da_001_honest_not_read"])
def test_a_documented_c_da_001_limit_is_read_by_the_strict_reading_alone(answer: str) -> None:
    # docs/si-scoring.md §11, round 13: "no DB_PASSWORD key" is no phrase of SI §3.3's list,
    # so the ratified reading finds no co-occurrence; since round 33 the strict reading reads
    # "R has no K key" as the absent key's phrase (`_missing_key`) and credits it.
    verdict = _verdict(answer)
    assert (verdict.band, verdict.score) == LOCUS
    assert _strict(verdict) == ("correct_root_cause", 1.0)


@pytest.mark.parametrize("answer", C_DA_003["factor_red_team"])
def test_a_round13_game_on_the_factor_falls_for_the_signal(answer: str) -> None:
    verdict = _misleading_verdict(answer)
    assert (verdict.band, verdict.score) == FELL_FOR
    assert _strict(verdict) == FELL_FOR


@pytest.mark.parametrize("tail", C_DA_003["dismissal_red_team"])
def test_a_round13_dismissal_that_does_not_dismiss_is_not_identified(tail: str) -> None:
    verdict = _misleading_verdict(f"{C_DA_003['diagnosis']} {tail}")
    if tail in DISOWNS_THE_WHOLE_ANSWER:
        # round 18 (SI red team 18, W2): a judging sentence after the statement ("I'm lying.")
        # disowns the factor too, not only the dismissal: the table's lowest row
        assert (verdict.band, verdict.score) == _strict(verdict) == FELL_FOR
        return
    assert (verdict.band, verdict.score) == WITHOUT_SIGNAL
    assert _strict(verdict) == WITHOUT_SIGNAL


@pytest.mark.parametrize("answer", C_DA_003["honest"])
def test_an_honest_misleading_signal_answer_keeps_the_top_band(answer: str) -> None:
    verdict = _misleading_verdict(answer)
    assert (verdict.band, verdict.score) == SIGNAL_TOP
    assert _strict(verdict) == SIGNAL_TOP


@pytest.mark.parametrize("answer", C_DA_003["honest_not_read"])
def test_a_documented_c_da_003_limit_is_still_below_the_top_band(answer: str) -> None:
    # docs/si-scoring.md §11, round 13: counted there; a rule that reads one moves it up
    verdict = _misleading_verdict(answer)
    assert verdict.score < 1.0


def test_the_fixture_holds_the_round13_answers_once() -> None:
    c_da_001 = [answer for entry in _DATA["c_da_001_games"] for answer in entry["red_team"]]
    assert len(c_da_001) == len(set(c_da_001)) == 15
    assert len(set(C_DA_003["factor_red_team"])) == 17
    assert len(set(C_DA_003["dismissal_red_team"])) == 15


@pytest.mark.parametrize(
    "piece",
    [
        # one sentence: every phrase withheld by a round-13 rule, each read against its clause,
        # its sentence's end and the next sentence once per clause or sentence, not per phrase
        "I want DB_PASSWORD to be missing from payments-db-credentials, DB_PASSWORD will be "
        "missing, DB_PASSWORD/DB_USER is missing, DB_PASSWORD is missing with 50% probability, ",
        # one list: every item under the same negating heading, each line looked up once
        "\n- DB_PASSWORD is missing from payments-db-credentials",
    ],
    ids=["one-sentence", "one-list"],
)
def test_the_round13_rules_are_linear_when_every_phrase_is_withheld(piece: str) -> None:
    def cpu_seconds(repeats: int) -> float:
        evidence = make_evidence("Ruled out:" + piece * repeats + ".", [TOOL_BODY])
        best = float("inf")
        for _ in range(3):
            started = time.process_time()
            verdict = evaluate(SCENARIO, evidence)
            best = min(best, time.process_time() - started)
        assert verdict.strict is not None and verdict.strict.score == 0.5
        return best

    # The smaller answer costs some twenty times a verdict's fixed cost, so a reading
    # quadratic in it still costs about sixteen times as much four times over; larger
    # answers bought only CPU (a reading that re-walked the sentences per match failed here).
    small, large = cpu_seconds(50), cpu_seconds(200)
    assert large < 8 * max(small, 0.005)


def test_the_round13_dismissal_rules_are_linear_in_one_sentence() -> None:
    piece = (
        "I am not sure batch-processor is not NOT the cause, QUEUE_HOST is also making "
        "user-service crash, batch-config is not the cause "
    )

    def cpu_seconds(repeats: int) -> float:
        best = float("inf")
        for _ in range(3):
            started = time.process_time()
            verdict = _misleading_verdict(f"{C_DA_003['diagnosis']} {piece * repeats}.")
            best = min(best, time.process_time() - started)
        assert verdict.score <= 0.5
        return best

    # The smaller answer costs some twenty times a verdict's fixed cost, so a reading
    # quadratic in it still costs about sixteen times as much four times over; larger
    # answers bought only CPU (a reading that re-walked the sentences per match failed here).
    small, large = cpu_seconds(50), cpu_seconds(200)
    assert large < 8 * max(small, 0.005)
