"""What the strict-reading tests assert of a C-DA-001 verdict, kept once: a word game keeps its
ratified top band (SI §3 is normative) and loses the strict one; an honest phrasing keeps the
top band under the strict reading with no finding (docs/si-scoring.md §11)."""

from __future__ import annotations

from typing import Any

TOP = ("correct_root_cause", 1.0)


def assert_game_loses_the_strict_top_band(verdict: Any, answer: str = "") -> None:
    """`verdict` scored with `reading="strict"`: ratified at the top band, strictly not."""
    assert verdict.ratified is not None
    assert (verdict.ratified.band, verdict.ratified.score) == TOP, answer
    assert (verdict.band, verdict.score) != TOP, answer


def assert_honest_keeps_the_top_band(verdict: Any, answer: str = "") -> None:
    """`verdict` scored with `reading="strict"`: the top band, with no strict finding."""
    assert verdict.strict is not None
    assert ((verdict.band, verdict.score), verdict.strict.findings) == (TOP, []), answer
