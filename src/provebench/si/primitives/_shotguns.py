"""Shotguns the commitment rules did not read (docs/si-scoring.md §11, "Round 16: only a plain
assertion"; SI red team 16, H7).

An answer that names the factor among several keys or places said to share the deviation has
not committed to the factor: one of them may be right by chance. The earlier rules read other
identifiers of the scenario; these two read the shape, whatever the names:

* **list**: in the factor's sentence, a coordinated list (commas, "and", "or") of two or more
  identifiers of one shape ("SMTP_HOST, SMTP_PORT … and SMTP_TLS"; "configmap/a,
  secret/b and configmap/c") that holds anything beside the factor's own identifiers;
* **every**: a universal quantifier (every, all, each, any) in the clause that names the
  factor, before it and not followed by "other" ("every key (SMTP_PORT among them) is
  missing").

Plain dashed names ("smtp-config and notification-service") make a list only from three
members, since "R and S cannot start" joins two clauses, not two suspects.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

from provebench._lazy_pattern import lazy_pattern
from provebench.si.primitives._matching import ChannelText, Sentence, Span
from provebench.si.primitives._triggers import GatedPattern, comparable

_MEMBER = r"[A-Za-z][A-Za-z0-9]*(?:[_/.-][A-Za-z0-9]+)+"
_JOIN = r"(?:\s*,\s*(?:and\s+|or\s+|and/or\s+)?|\s+(?:and|or|and/or)\s+)"
_LIST = lazy_pattern(rf"(?<![\w/.-]){_MEMBER}(?:{_JOIN}{_MEMBER})+(?![\w/-])")
_ONE_MEMBER = lazy_pattern(_MEMBER)
_QUANTIFIER = lazy_pattern(r"\b(every|all|each|any)\b(?!\s+other\b)", re.IGNORECASE)
# scanned only in an answer holding one of its words (`_triggers`, derived from the pattern)
_QUANTIFIER_RULE = GatedPattern("several_causes every: quantifier", _QUANTIFIER)
_CLAUSE_BOUNDARY = lazy_pattern(r"[;:.!?]|,\s|\b(?:but|because|so|while|whereas)\b")
_PLAIN_NAMES_FROM = 3


@dataclass(frozen=True)
class Shotgun:
    start: int
    end: int
    detail: str


def _shape(member: str) -> tuple[bool, bool]:
    """A place ("kind/name", any kind) or a key ("SMTP_PORT"), or a plain name."""
    return "/" in member, "_" in member or member.isupper()


class _Clauses:
    """The clause boundaries and the deviation's phrases of one sentence, scanned once."""

    def __init__(self, text: str, sentence: Sentence, own: Sequence[Span]) -> None:
        self.sentence = sentence
        self.starts = [
            m.start() for m in _CLAUSE_BOUNDARY.finditer(text, sentence.start, sentence.end)
        ]
        self.ends = [m.end() for m in _CLAUSE_BOUNDARY.finditer(text, sentence.start, sentence.end)]
        self.own = sorted(span.start for span in own if sentence.start <= span.start < sentence.end)

    def holds_deviation(self, start: int, end: int) -> bool:
        """Whether a phrase of the deviation lies in the clause around `[start, end)`: a list
        or a quantifier says the deviation of its members only there ("SMTP_PORT and
        SMTP_HOST are both referenced, but only SMTP_PORT is missing" lists what is
        referenced)."""
        at = bisect_right(self.ends, start)
        opening = self.ends[at - 1] if at else self.sentence.start
        after = bisect_left(self.starts, end)
        closing = self.starts[after] if after < len(self.starts) else self.sentence.end
        first = bisect_left(self.own, opening)
        return first < len(self.own) and self.own[first] < closing


def _lists(text: str, clauses: _Clauses, required: set[str]) -> list[Shotgun]:
    found: list[Shotgun] = []
    sentence = clauses.sentence
    for match in _LIST.finditer(text, sentence.start, sentence.end):
        if not clauses.holds_deviation(match.start(), match.end()):
            continue
        members = _ONE_MEMBER.findall(match.group())
        shapes = {_shape(member) for member in members}
        if len(shapes) != 1:
            continue
        ((placed, keyed),) = shapes
        if not placed and not keyed and len(members) < _PLAIN_NAMES_FROM:
            continue
        beside = [member for member in members if member.casefold() not in required]
        if (len(beside) >= 1 and len(members) - len(beside) >= 1) or len(beside) >= 2:
            found.append(
                Shotgun(
                    match.start(),
                    match.end(),
                    f"the list {match.group()!r} names more than the factor",
                )
            )
    return found


def _quantified(
    text: str, lowered: str | None, clauses: _Clauses, spans: list[Span]
) -> list[Shotgun]:
    """Each factor span whose clause holds a quantifier before it: one scan of the sentence
    (none where the answer holds no quantifier; `lowered` is its `comparable` form)."""
    sentence = clauses.sentence
    boundaries = clauses.ends
    quantifiers = list(_QUANTIFIER_RULE.finditer(text, lowered, sentence.start, sentence.end))
    starts = [quantifier.start() for quantifier in quantifiers]
    found: list[Shotgun] = []
    for span in spans:
        at = bisect_right(boundaries, span.start)
        clause_start = boundaries[at - 1] if at else sentence.start
        first = bisect_left(starts, clause_start)
        if (
            first < len(starts)
            and quantifiers[first].end() <= span.start
            and clauses.holds_deviation(quantifiers[first].start(), span.end)
        ):
            word = quantifiers[first].group()
            found.append(
                Shotgun(starts[first], span.end, f"{word!r} before the factor names them all")
            )
    return found


def shotguns(
    channel: ChannelText, factor_spans: Sequence[Span], own: Sequence[Span], required: Sequence[str]
) -> list[Shotgun]:
    """Every list or quantifier of the module docstring in the sentences stating the factor."""
    keys = {identifier.casefold() for identifier in required}
    by_sentence: dict[int, tuple[Sentence, list[Span]]] = {}
    for span in factor_spans:
        sentence = channel.sentence_containing(span.start, span.end)
        if sentence is not None:
            by_sentence.setdefault(sentence.index, (sentence, []))[1].append(span)
    found: list[Shotgun] = []
    lowered = comparable(channel.text) if by_sentence else None
    for sentence, spans in by_sentence.values():
        clauses = _Clauses(channel.text, sentence, own)
        found += _lists(channel.text, clauses, keys)
        found += _quantified(channel.text, lowered, clauses, spans)
    return found


__all__ = ["Shotgun", "shotguns"]
