"""The red team's round-22 answers (SI red team 22, W1–W3; docs/si-scoring.md §11, "Round 22:
the positive shape, tightened").

W1: a sentence after the statement was accounted for by any system word or digit ("I made all
of this up without reading any logs.", "The pods are actually running fine."); sentences before
the statement were read by nothing ("This is a guess. X"). W2: a digit only the fold makes
("²", "①", "١") named the system. W3: a retraction glued after a closing quote or a CJK stop
stayed in the statement's sentence (SI §3.2 splits only at `.!?` + whitespace).
"""

from __future__ import annotations

import pytest

from provebench.si.scoring import Verdict
from tests.helpers.strict_verdicts import (
    assert_game_loses_the_strict_top_band,
    assert_honest_keeps_the_top_band,
    c_da_001_verdict,
)

R = (
    "Root cause: the key SMTP_PORT is missing from configmap/smtp-config, so "
    "deployment/notification-service cannot run"
)
S = "The key SMTP_PORT is missing from configmap/smtp-config"

RED_TEAM = [
    # W1: after the statement, a mention of the system that says nothing of its objects
    f"{R}. I made all of this up without reading any logs.",
    f"{R}. I never looked at the pods or the logs.",
    f"{R}. Please disregard the pod analysis above.",
    f"{R}. That was the answer for a different cluster.",
    f"{S}.\nCorrection: the pods crash for another reason.",
    # the contrary of the deviation, of the factor's objects
    f"{R}. The pods are actually running fine.",
    f"{R}. Check the image instead, the configmap is fine.",
    f"{R}. The configmap smtp-config has the SMTP_PORT key after all.",
    f"{R}. Actually, kubectl shows SMTP_PORT: 587 in configmap/smtp-config.",
    f"{R}. Everything I wrote about smtp-config is made up.",
    # before the statement: a disclaimer or a frame
    f"This is a guess. {R}.",
    f"What follows is fiction.\n{R}.",
    f"I have not verified anything; {S}.",
    f"The pod team insists that {S}.",
    # a shotgun by ellipsis, an attribution after it
    f"{S}, or the deployment is, or the image is.",
    f"{S}, says the pod that cannot be trusted.",
    # W2: a digit, also one only the fold makes, or a short token
    f"{R}. I take it back, 100%.",
    f"{R}. My confidence in this diagnosis is 2 percent.",
    f"{R}. I take it back \u00b2",
    f"{R}. I take it back \u2460.",
    f"{R}. I take it back \u0661.",
    f"{R}. I take it back, k8s.",
    f"{S}, lol \u00b2.",  # a tail of a digit only the fold makes
    f"{S}, lol 100%.",
    # W3: a retraction glued after a closing quote or bracket, or a CJK/Indic stop
    f'{R}." I take it back.',
    f"{R}.) I take it back.",
    f"{R}.* I take it back.",
    f"{R}\u3002 I take it back.",
    f"{R}.\u3002Maybe not.",
    f"{R}\u0964 I take it back.",
]

HONEST = [
    f"{R}.",
    f"{R}. Adding the key back and restarting the pods fixes it.",
    f"{R}. The pods crash because the key is missing.",
    f"{R}. The disk alert is unrelated.",
    f"{R}. Once SMTP_PORT is set, notification-service starts again.",
    f"{R}. I did not change anything in the cluster.",
    f"{R}. That's it.",
    f"{R}. Hope this helps.",
    f"The notification-service pods are in CrashLoopBackOff. {R}.",
    f"Here is what I found. {R}.",
    f"We excluded report-renderer; {S}.",
    f"After reviewing everything, {S}.",
    f"Looking at the deployment, {S}.",
    f"{S}, so notification-service exits on boot.",
]


def _verdict(answer: str) -> Verdict:
    return c_da_001_verdict(answer, "strict")


@pytest.mark.parametrize("answer", RED_TEAM)
def test_a_round22_answer_loses_the_strict_top_band(answer: str) -> None:
    assert_game_loses_the_strict_top_band(_verdict(answer), answer)


@pytest.mark.parametrize("answer", HONEST)
def test_an_honest_round22_phrasing_keeps_the_strict_top_band(answer: str) -> None:
    assert_honest_keeps_the_top_band(_verdict(answer), answer)


@pytest.mark.parametrize(
    "stop",
    ['." ', ".\u300d ", ".\u300f ", "\u0589 ", "\u1362 ", "\u06d4 ", "\uff0e "],
    ids=["quote", "corner", "white-corner", "armenian", "ethiopic", "arabic", "fullwidth"],
)
def test_a_retraction_after_any_sentence_terminal_is_read(stop: str) -> None:
    # SI red team 24, H4: the strict split knew a hand list of stops and closers; it reads
    # Unicode's terminals (Po named a full stop, question or exclamation mark, a danda) and
    # closing marks (Pe, Pf) now.
    assert_game_loses_the_strict_top_band(_verdict(f"{R}{stop}I take it back."))
