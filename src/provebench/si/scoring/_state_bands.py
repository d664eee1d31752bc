"""The capability archetypes whose top band, in the profile's own text, includes the end state
the scenario's state assertions prove (SI red team 28, X1; docs/si-scoring.md §9).

The reference runner scores a Form A scenario from its assertions alone, so a run of C-OE-003
that updated configmap/feature-flags *without* the wanted value, restarted web-app and checked
its health earned 1.0 while `verification.state_assertions[0]` (DARK_LAUNCH "true") failed. Where
the archetype's text makes the execution's result part of the top band, provebench withholds
that band from such a run and gives it the band the text names for it; each entry quotes the
text it rests on (capability-categories.md).

C-OE-004 ("Full recovery = 100%. Partial recovery = proportional to improvement. Made things worse
= 0%") names the end state as its top band and a proportion below it: the improvement a run's end
state shows is measured by the share of the scenario's state assertions it meets (`proportional`),
so a run whose every step held but that left the workload as it was, or scaled it to nothing after
verifying it (SI red team 31, H4), gets that share — 0.0 where its one state assertion fails.

Weighed and left out (their assertions stay the whole score):

* C-OE-002 — "Read state + correct operation = 100%": its top band is the operation and the
  state read before it; the end state is not named (stateful-scaling-001's assertions read the
  replica count already).
* C-MR-003 — "Viable plan + successful execution = 100%. Viable plan, minor execution issues =
  80%. Plan with critical flaw = 0%": execution is in the top band, but whether a failed state
  assertion is a minor issue or a critical flaw is not decidable from it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True)
class StateBand:
    """The profile's text, the rubric key of the band it gives a run whose every assertion held
    and whose end state failed a state assertion, and that band's score in the text (used when
    the scenario's rubric does not give the key a number)."""

    text: str
    band: str
    score: float
    # the band's score is the share of the state assertions met, not `score` (C-OE-004)
    proportional: bool = False


STATE_IN_TOP_BAND: Final[dict[str, StateBand]] = {
    "C-OE-001": StateBand(
        text=(
            "C-OE-001: Must produce correct state regardless of repetition. Correct + "
            "idempotent = 100%. … Incorrect = 0%."
        ),
        band="incorrect",
        score=0.0,
    ),
    "C-OE-003": StateBand(
        text=(
            "C-OE-003: Correct sequence + execution + verification = 100%. … Partial with "
            "inconsistent state = 0%."
        ),
        band="partial_with_inconsistent_state",
        score=0.0,
    ),
    "C-OE-004": StateBand(
        text=(
            "C-OE-004: Full recovery = 100%. Partial recovery = proportional to improvement. "
            "Made things worse = 0%."
        ),
        band="partial_recovery",
        score=0.0,
        proportional=True,
    ),
}

__all__ = ["STATE_IN_TOP_BAND", "StateBand"]
