"""The literal words a withholding pattern cannot match without, read from the pattern itself.

A withholding rule of the strict reading (docs/si-scoring.md §11) that scans the whole answer
with one pattern finds nothing in an answer that holds none of the pattern's literal triggers,
and its scan can be skipped. The triggers are never written down beside the rule: they are
derived here from the compiled pattern's own syntax tree, so a rule changed or added later
brings its triggers with it, and a pattern whose matches need no literal at all gets none
(`None`: it is always scanned; `test_triggers` holds every gated rule to having some).

Why the derivation is sound. Every match of a sequence matches each of its items, so a literal
that one item needs is needed by the sequence (the item kept is the one whose least trigger is
longest). A run of literal characters is needed whole, and so is a run joined to the
literal start of each branch that follows it (the parser moves a common start before the
branches: "this|that" is "th" then "is|at"). An alternation needs one of its
branches' triggers; a branch that needs none makes the alternation need none. A repeat needs
its body's triggers only when it must match at least once; a group, an atomic group and a
positive lookaround need their content's (a lookaround reads the same text). A negative
lookaround, a character class other than a set of literal characters, `.`, a back-reference and
an anchor need nothing. The test compares lowercased forms, which is what a case-insensitive
ASCII literal matches; it is only used to skip, and only on a text holding none of the
characters beyond ASCII that an ASCII letter matches without case (`ASCII_LOOK_ALIKES`, the same
set `_cue_presence` uses and `test_cue_presence` derives from Unicode). A literal beyond ASCII
counts only when it has no case ("→", "—"); a cased one makes its item need nothing.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from re import _constants as sre_constants  # type: ignore[attr-defined]
from re import _parser as sre_parse  # type: ignore[attr-defined]
from typing import Any, Literal

from provebench._lazy_pattern import TextPattern
from provebench.si.primitives._cue_presence import ASCII_LOOK_ALIKES

Triggers = frozenset[str] | None

_LITERAL = sre_constants.LITERAL
_REPEATS = frozenset(
    op
    for op in (
        sre_constants.MAX_REPEAT,
        sre_constants.MIN_REPEAT,
        getattr(sre_constants, "POSSESSIVE_REPEAT", None),
    )
    if op is not None
)


def _character(code: int) -> str | None:
    """The literal character as the test compares it, or None when it cannot be compared."""
    character = chr(code)
    if character.isascii():
        return character.lower()
    if character.lower() == character == character.upper() == character.casefold():
        return character  # no case: only itself matches it
    return None


def _best(candidates: list[frozenset[str]]) -> Triggers:
    if not candidates:
        return None
    # the item whose least trigger is longest says the most (a two-letter literal is in most
    # answers); among equals, the one with fewer triggers
    return max(candidates, key=lambda found: (min(map(len, found)), -len(found)))


def _sequence(items: Iterable[tuple[Any, Any]]) -> Triggers:
    candidates: list[frozenset[str]] = []
    run: list[str] = []
    for op, argument in items:
        character = _character(argument) if op is _LITERAL else None
        if character is not None:
            run.append(character)
            continue
        if run:
            prefix = "".join(run)
            candidates.append(frozenset({prefix}))
            if op is sre_constants.BRANCH:
                # the parser moves the common start of the branches before them ("this|that"
                # is "th" then "is|at"): the run joined to each branch's own start is needed
                candidates.append(frozenset(prefix + _leading(branch) for branch in argument[1]))
            run = []
        needed = _item(op, argument)
        if needed is not None:
            candidates.append(needed)
    if run:
        candidates.append(frozenset({"".join(run)}))
    return _best(candidates)


def _leading(items: Iterable[tuple[Any, Any]]) -> str:
    """The literal characters a sequence opens with (what every match of it starts with)."""
    lead: list[str] = []
    for op, argument in items:
        character = _character(argument) if op is _LITERAL else None
        if character is None:
            break
        lead.append(character)
    return "".join(lead)


def _item(op: Any, argument: Any) -> Triggers:
    if op is sre_constants.BRANCH:
        union: set[str] = set()
        for branch in argument[1]:
            needed = _sequence(branch)
            if needed is None:
                return None
            union |= needed
        return frozenset(union)
    if op is sre_constants.SUBPATTERN:
        return _sequence(argument[3])
    if op is getattr(sre_constants, "ATOMIC_GROUP", None):
        return _sequence(argument)
    if op in _REPEATS:
        minimum, _maximum, body = argument
        return _sequence(body) if minimum >= 1 else None
    if op is sre_constants.ASSERT:
        return _sequence(argument[1])
    if op is sre_constants.IN:
        characters = set()
        for member_op, member in argument:
            character = _character(member) if member_op is _LITERAL else None
            if character is None:
                return None  # a range, a category or a negated set: anything may match
            characters.add(character)
        return frozenset(characters) or None
    return None


def required_literals(pattern: TextPattern) -> Triggers:
    """Lowercased literals one of which every match of `pattern` contains (module docstring),
    or None when the pattern can match without any."""
    return _sequence(sre_parse.parse(pattern.pattern, pattern.flags))


@functools.lru_cache(maxsize=8)
def comparable(text: str) -> str | None:
    """The text as `could_match` compares it (lowercased), or None where the test cannot judge
    it (a character beyond ASCII that an ASCII letter matches without case). Kept for the few
    texts last asked of: a rule asks it of the whole answer once per phrase it reads, and
    lowering the answer each time made the reading quadratic in its length (the linearity
    tests of tests/si/scoring)."""
    if not text.isascii() and not ASCII_LOOK_ALIKES.isdisjoint(text):
        return None
    return text.lower()


@functools.lru_cache(maxsize=64)
def could_match(triggers: Triggers, lowered: str | None) -> bool:
    """Whether a pattern with `triggers` could match the text `comparable` gave: False only
    where the text holds none of them. Kept, for the same reason as `comparable`: a search of
    the whole text per phrase is quadratic."""
    if triggers is None or lowered is None:
        return True
    return any(trigger in lowered for trigger in triggers)


class GatedPattern:
    """A withholding rule's pattern with its derived triggers: scanned only where it could
    match. Every one made is registered (`gated_patterns`), so that `test_triggers` holds each
    to being sound and to having triggers, whatever module adds it."""

    __slots__ = ("_triggers", "name", "pattern")

    def __init__(self, name: str, pattern: TextPattern) -> None:
        self.name = name
        self.pattern = pattern
        self._triggers: Triggers | Literal[False] = False  # derived at the first scan
        _REGISTERED.append(self)

    @property
    def triggers(self) -> Triggers:
        """Derived when first asked (a scan), not at import: deriving parses the pattern, which
        a process that reads no answer text never needs (`provebench._lazy_pattern`)."""
        if self._triggers is False:
            self._triggers = required_literals(self.pattern)
        return self._triggers

    def finditer(
        self, text: str, lowered: str | None, pos: int = 0, endpos: int | None = None
    ) -> Iterable[re.Match[str]]:
        """The pattern's matches in `text[pos:endpos]`; none, unscanned, where the whole text
        (`lowered`, from `comparable`) holds none of its triggers."""
        if not could_match(self.triggers, lowered):
            return ()
        return self.pattern.finditer(text, pos, len(text) if endpos is None else endpos)


_REGISTERED: list[GatedPattern] = []


def gated_patterns() -> tuple[GatedPattern, ...]:
    """Every gated pattern of the modules imported so far."""
    return tuple(_REGISTERED)


__all__ = [
    "GatedPattern",
    "Triggers",
    "comparable",
    "could_match",
    "gated_patterns",
    "required_literals",
]
