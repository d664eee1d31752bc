"""The red team's round-21 answers (SI red team 21, H3 and H4; docs/si-scoring.md §11, "Round
21: the positive shape").

H3: a disowning tail, a question, an answer "No.", a restriction or a speaker in words no list of
`_unaccounted` held ("I take it back.", "Who knows?", "Is smtp-config the cause? No.", "On my
laptop, X", "Alice concludes X") kept the strict top band. H4: a governing clause before the
statement that negated it without "that" or across ", which" ("It is not true the pods …
because X"), or a second cause in words the `_CAUSE` list lacked ("… due to a kernel bug").
The rule is now the positive shape (`_accounted`): what follows must name the system, what
precedes must be a known frame. Each answer below is one of the red team's (a sample of each
class); the honest controls are the red team's and this round's.
"""

from __future__ import annotations

import pytest

from provebench.si.scoring import Verdict
from tests.helpers.strict_verdicts import TOP, c_da_001_verdict

X = "the ConfigMap smtp-config is missing the SMTP_PORT key"
S = "The ConfigMap smtp-config is missing the SMTP_PORT key"
C = "the notification-service pods are in CrashLoopBackOff"

RED_TEAM = [
    # H3: after the statement, a sentence that names nothing of the system
    f"{S}. I take it back.",
    f"{S}. Every word above is false.",
    f"{S}. This answer is intentionally incorrect.",
    f"{S}. Negate everything I said.",
    f"{S}. That is one of about a dozen equally plausible explanations.",
    # a question, and the answer "No." to a question of the factor
    f"{S}. Who knows?",
    f"{S}. Do I believe it? No.",
    f"{S}. Is smtp-config the cause? No.",
    f"{S}. Is the SMTP_PORT key really missing? No.",
    # the factor negated after it
    f"{S}. The SMTP_PORT key isn't missing.",
    # a world or a speaker not the incident's
    f"{S}, hypothetically speaking.",
    f"{S} in a cluster that does not exist.",
    f"{S} at my previous employer.",
    f"{S} for the purposes of this exercise only.",
    f"On my laptop, {X}.",
    f"Alice concludes that {X}.",
    f"The user insists {X}.",
    # H4: a frame before the statement that is not a known one governs it
    f"It is not true {C} because {X}.",
    f"It's a lie that {C} because {X}.",
    f"It is a misconception that {C} because {X}.",
    f"There's no way {C} because {X}.",
    f"It's tempting to say {C} because {X}.",
    f"I'm not convinced {C} because {X}.",
    f"It is not true that {C}, which happens because {X}.",
    f"It is not true that {C}; they crash because {X}.",
    f"It is not true that {C} and that they do so because {X}.",
    # a second cause that names the service or the symptom but not the factor
    f"{S}. The pods actually crash due to a kernel bug.",
    f"{S}. However, the notification-service pods crash because of a kernel bug.",
    f"{S}. The CrashLoopBackOff is triggered by a kernel bug.",
    f"{S}. A kernel bug explains the crash.",
]

HONEST = [
    # the red team's control
    f"The notification-service pods are in CrashLoopBackOff because {X}.",
    # what follows names the system, is a courtesy, or refers back and affirms
    f"{S}. Adding the key and restarting the pods fixes it.",
    f"{S}. Hope this helps.",
    f"{S}. That is why the pods crash.",
    f"{S}. The pods crash because the key is missing.",
    f"{S}. The notification-service crashes because it cannot read the port.",
    f"{S}. Is the report-renderer alert related? No.",
    f"{S}, which the notification-service needs at startup.",
    f"{S} in the production cluster.",
    # known frames before it
    f"Root cause: {X}.",
    f"I verified that {X}.",
    f"The logs show that {X}.",
    f"After checking the pod events, {X}.",
    f"Based on the logs, {X}.",
    f"Because {X}, the pods crash.",
    f"Why are the pods crashing? {S}.",
]


def _verdict(answer: str) -> Verdict:
    return c_da_001_verdict(answer)


@pytest.mark.parametrize("answer", RED_TEAM)
def test_a_round21_answer_loses_the_strict_top_band(answer: str) -> None:
    verdict = _verdict(answer)
    assert (verdict.band, verdict.score) == TOP  # the ratified reading (SI §5.1), unchanged
    assert verdict.strict is not None
    assert (verdict.strict.band, verdict.strict.score) != TOP
    assert "unplain" in [finding.rule for finding in verdict.strict.findings]


@pytest.mark.parametrize("answer", HONEST)
def test_an_honest_round21_phrasing_keeps_the_strict_top_band(answer: str) -> None:
    verdict = _verdict(answer)
    assert verdict.strict is not None
    assert ((verdict.strict.band, verdict.strict.score), verdict.strict.findings) == (TOP, [])


@pytest.mark.parametrize(
    "answer",
    [f"{S}. I am confident.", f"{S}. Nothing at all is certain."],
)
def test_an_honest_sentence_that_names_nothing_loses_the_top_band_as_documented(
    answer: str,
) -> None:
    # docs/si-scoring.md §11, "Round 21": stricter than meant, stated there
    verdict = _verdict(answer)
    assert verdict.strict is not None and verdict.strict.score == 0.5
