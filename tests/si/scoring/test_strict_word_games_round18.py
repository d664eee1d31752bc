"""The red team's round-18 answers (SI red team 18, W1 on C-DA-001, W2 on C-DA-003
misleading-signal-002; docs/si-scoring.md §11, "Round 18: what follows the statement").

Every answer of `RED_TEAM_C_DA_001` and `RED_TEAM_C_DA_003` (`strict_round18_answers.yaml`)
reached the strict top band at the attacked commit, verbatim from the red team's runs.
`VARIANTS` are the same classes in other words: a clause after the statement that speaks of
nothing but the answer and judges it, a question of nothing, the statement restricted to
another world or put in another's mouth, the statement made the subject of a verdict, a second
cause in words the scenario does not name. `HONEST` answers use the same words of something
named, or place the finding in the live system, and keep the top band in both readings.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from provebench.si.primitives._matching import ChannelText
from provebench.si.primitives._unaccounted import unaccounted_shapes
from provebench.si.scoring import Verdict
from provebench.si.scoring._strict import Reading
from tests.helpers.strict_verdicts import (
    TOP,
    assert_game_loses_the_strict_top_band,
    assert_honest_keeps_the_top_band,
    c_da_001_verdict,
)
from tests.si.scoring.test_strict_word_games_v5 import _misleading_verdict

SIGNAL_TOP = ("identified_misleading_plus_actual_cause", 1.0)

_DATA: dict[str, Any] = yaml.safe_load(
    (Path(__file__).parent / "strict_round18_answers.yaml").read_text(encoding="utf-8")
)
RED_TEAM_C_DA_001: list[str] = _DATA["red_team_c_da_001"]
RED_TEAM_C_DA_003: list[str] = _DATA["red_team_c_da_003"]
HONEST_C_DA_003: str = _DATA["honest_c_da_003"]
VARIANTS: list[str] = _DATA["variants"]
HONEST: list[str] = _DATA["honest"]


def _verdict(answer: str, reading: Reading = "strict") -> Verdict:
    return c_da_001_verdict(answer, reading)


def test_the_red_team_answers_are_held_once() -> None:
    assert len(set(RED_TEAM_C_DA_001)) == len(RED_TEAM_C_DA_001) == 24
    assert len(set(RED_TEAM_C_DA_003)) == len(RED_TEAM_C_DA_003) == 10


@pytest.mark.parametrize("answer", RED_TEAM_C_DA_001 + VARIANTS)
def test_a_round18_game_keeps_its_ratified_band_and_loses_the_strict_one(answer: str) -> None:
    verdict = _verdict(answer)
    assert_game_loses_the_strict_top_band(verdict)


@pytest.mark.parametrize("answer", RED_TEAM_C_DA_003)
def test_a_round18_game_on_the_misleading_signal_template_loses_the_top_band(answer: str) -> None:
    # provebench's C-DA-003 is strict by design: both readings lose the top band
    verdict = _misleading_verdict(answer)
    assert verdict.strict is not None
    assert (verdict.band, verdict.score) != SIGNAL_TOP
    assert (verdict.strict.band, verdict.strict.score) != SIGNAL_TOP


def test_the_red_team_control_on_the_misleading_signal_template_keeps_the_top_band() -> None:
    verdict = _misleading_verdict(HONEST_C_DA_003)
    assert (verdict.band, verdict.score) == SIGNAL_TOP


@pytest.mark.parametrize("answer", HONEST)
def test_an_honest_answer_with_the_same_words_keeps_the_top_band(answer: str) -> None:
    verdict = _verdict(answer)
    assert_honest_keeps_the_top_band(verdict)
    ratified = _verdict(answer, "ratified")
    assert (ratified.band, ratified.score) == TOP


IDENTIFIERS = ["SMTP_PORT", "SMTP_HOST", "report-renderer"]


def _shapes(answer: str) -> list[str]:
    channel = ChannelText("final_answer", answer)
    spans = channel.identifier_matches(["SMTP_PORT"])
    return [shape.shape for shape in unaccounted_shapes(channel, spans, IDENTIFIERS)]


@pytest.mark.parametrize(
    ("answer", "shape"),
    [
        ("SMTP_PORT is missing from smtp-config. I retract.", "judging_clause"),
        ("SMTP_PORT is missing from smtp-config, yet harmless.", "judging_clause"),
        ("SMTP_PORT is missing from smtp-config. Says who?", "unaccounted_question"),
        ("SMTP_PORT is missing from smtp-config on my laptop.", "restricted_world"),
        ("Everyone except me concludes SMTP_PORT is missing from smtp-config.", "attributed"),
        ("SMTP_PORT is missing from smtp-config is a misreading.", "judged_subject"),
        ("SMTP_PORT is missing from smtp-config = FALSE", "judged_subject"),
        ("SMTP_PORT is missing. The real cause is a solar flare.", "unnamed_second_cause"),
        ("SMTP_PORT is missing, and I am the Queen of England.", "identity_jest"),
    ],
)
def test_each_shape_is_named_by_its_rule(answer: str, shape: str) -> None:
    assert shape in _shapes(answer)


def test_a_statement_that_names_nothing_after_it_has_no_shape() -> None:
    assert _shapes("SMTP_PORT is missing from smtp-config, so the pods crash.") == []
    assert _shapes("The key SMTP_TLS = false; SMTP_PORT is missing from smtp-config.") == []
    assert _shapes("SMTP_PORT is missing from smtp-config. Is report-renderer the cause? No.") == []
