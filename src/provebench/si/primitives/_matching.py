"""Identifier and synonym matching, lines and sentences of one output channel (SI §3.1–§3.3).

* Identifiers (SI §3.1): caseless, NFC-normalised, maximal-token. The characters immediately
  before and after a match, in the comparison text, must lie outside `[A-Za-z0-9_-]`; the start
  and end of the text count as delimiters. `smtp_port` matches `SMTP_PORT`, `SMTP_PORT_OLD` does
  not.
* Synonyms (SI §3.3): "matched as literal phrases". The seed scopes the delimiter rule to
  identifiers only, so a synonym matches wherever its caseless NFC form is contained in the
  text: `unset` is found in `reunset`, `not set` in `not settled`.
* Lines: the text split at `\\r\\n`, `\\r` and `\\n`.
* Sentences (SI §3.2): split on a line break, and after `.`, `!` or `?` followed by whitespace or
  the end of the text. Nothing cleverer. Blank sentences are not counted, so sentence indices
  number the sentences the agent actually wrote.
"""

from __future__ import annotations

import functools
from bisect import bisect_right
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import accumulate

from provebench._errors import ProvebenchError
from provebench._lazy_pattern import lazy_pattern
from provebench.si.primitives._normalize import NormalizedText, comparison_key, normalize

# SI §3.1: the token class; a match must be delimited by characters outside it.
TOKEN_CHARACTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")

_Finder = Callable[[str, str], list[int]]

_LINE_BREAK = lazy_pattern(r"\r\n|\r|\n")
# SI §3.2: `.`, `!` or `?` followed by whitespace or the end of the text ends a sentence.
_SENTENCE_END = lazy_pattern(r"[.!?](?=\s|\Z)")
_NON_SPACE = lazy_pattern(r"\S")


@dataclass(frozen=True, slots=True)
class Span:
    """A match in original offsets of the channel text, with its 1-based line and column."""

    needle: str
    start: int
    end: int
    line: int
    column: int


@dataclass(frozen=True, slots=True)
class Sentence:
    index: int
    line: int
    start: int
    end: int


def identifier_problem(identifier: object) -> str | None:
    """Why `identifier` is not usable under SI §3.1 (it would match everything or nothing), or
    None. The one rule for identifiers: `si validate` reports it with the file and line (via
    `_registry.check_value`), and scoring refuses the same identifiers (`validate_identifier`).
    """
    if not isinstance(identifier, str):
        return f"identifier must be a string, got {identifier!r}"
    if not comparison_key(identifier).strip():
        return f"identifier {identifier!r} is empty; an empty identifier cannot be matched"
    if identifier != identifier.strip():
        return f"identifier {identifier!r} has leading or trailing whitespace"
    if _LINE_BREAK.search(identifier):
        return f"identifier {identifier!r} spans lines; matching is line-scoped (SI §2.1)"
    return None


def validate_identifier(identifier: object, *, field: str) -> str:
    """An identifier usable under SI §3.1, or a configuration error (never a vacuous match)."""
    problem = identifier_problem(identifier)
    if problem is not None:
        raise ProvebenchError(problem, field=field)
    assert isinstance(identifier, str)  # identifier_problem refuses anything else
    return identifier


def validate_identifier_set(identifiers: object, *, field: str) -> tuple[str, ...]:
    """A non-empty list of valid identifiers (an empty set would name nothing, vacuously)."""
    if isinstance(identifiers, tuple) and all(isinstance(item, str) for item in identifiers):
        # a bound role: the same tuple on every transcript
        return _valid_set(identifiers, field)
    if isinstance(identifiers, str) or not isinstance(identifiers, Sequence):
        raise ProvebenchError(f"must be a list of identifiers, got {identifiers!r}", field=field)
    if not identifiers:
        raise ProvebenchError("identifier set is empty; it can never be matched", field=field)
    return tuple(
        validate_identifier(item, field=f"{field}[{index}]")
        for index, item in enumerate(identifiers)
    )


@functools.lru_cache(maxsize=1024)
def _valid_set(identifiers: tuple[str, ...], field: str) -> tuple[str, ...]:
    if not identifiers:
        raise ProvebenchError("identifier set is empty; it can never be matched", field=field)
    return tuple(
        validate_identifier(item, field=f"{field}[{index}]")
        for index, item in enumerate(identifiers)
    )


def delimited_occurrences(text_key: str, needle_key: str) -> list[int]:
    """Start offsets in `text_key` where `needle_key` occurs as a maximal token (SI §3.1)."""
    starts: list[int] = []
    width = len(needle_key)
    start = text_key.find(needle_key)
    while start != -1:
        end = start + width
        delimited_before = start == 0 or text_key[start - 1] not in TOKEN_CHARACTERS
        delimited_after = end == len(text_key) or text_key[end] not in TOKEN_CHARACTERS
        if delimited_before and delimited_after:
            starts.append(start)
        start = text_key.find(needle_key, start + 1)
    return starts


def literal_occurrences(text_key: str, needle_key: str) -> list[int]:
    """Start offsets of every (possibly overlapping) occurrence of `needle_key` (SI §3.3)."""
    starts: list[int] = []
    start = text_key.find(needle_key)
    while start != -1:
        starts.append(start)
        start = text_key.find(needle_key, start + 1)
    return starts


class ChannelText:
    """One channel's text with its comparison form, lines and sentences, computed once."""

    def __init__(self, channel: str, text: str) -> None:
        self.channel = channel
        self.text = text
        self._scanned_lines = 0
        self._terminator_ends: list[int] = []
        self._tail_ends: list[int] = []
        self._matched: dict[tuple[tuple[str, ...], _Finder], list[Span]] = {}
        # span -> its sentence: the ratified and the strict reading locate the same matches
        self._located: dict[tuple[int, int], Sentence | None] = {}

    @cached_property
    def normalized(self) -> NormalizedText:
        return normalize(self.text)

    @cached_property
    def _lines(self) -> list[str]:
        if "\r" not in self.text:
            return self.text.split("\n")
        return _LINE_BREAK.split(self.text)

    @cached_property
    def _line_starts(self) -> list[int]:
        if "\r" not in self.text:
            return [0, *accumulate(len(line) + 1 for line in self._lines[:-1])]
        return [0, *(line_break.end() for line_break in _LINE_BREAK.finditer(self.text))]

    @property
    def line_spans(self) -> list[tuple[int, int]]:
        return [
            (start, start + len(line))
            for start, line in zip(self._line_starts, self._lines, strict=True)
        ]

    def line_of(self, offset: int) -> int:
        """1-based line number of an original offset."""
        return bisect_right(self._line_starts, offset)

    def line_text(self, line: int) -> str:
        return self._lines[line - 1]

    def _scan_sentence_ends(self, through_line: int) -> None:
        """Record sentence ends of every line up to `through_line` (1-based), scanning forward.

        Lines are scanned in geometrically growing batches, so the total work stays linear and
        locating the first few matches never reads the rest of the text.
        """
        lines = self._lines
        scanned = self._scanned_lines
        if through_line <= scanned:
            return
        upto = min(len(lines), max(through_line, 2 * scanned, 256))
        region_start = self._line_starts[scanned]
        region_end = self._line_starts[upto - 1] + len(lines[upto - 1])
        # The region ends at a line end, where `\Z` stands for the line break that follows.
        found = _SENTENCE_END.finditer(self.text, region_start, region_end)
        self._terminator_ends.extend(terminator.end() for terminator in found)
        # The ends of lines whose text after the last sentence end is not blank: the last
        # non-blank character of a line ends a sentence exactly when it is `.`, `!` or `?`.
        for index in range(scanned, upto):
            stripped = lines[index].rstrip()
            if stripped and stripped[-1] not in ".!?":
                self._tail_ends.append(self._line_starts[index] + len(lines[index]))
        self._scanned_lines = upto

    def sentence_containing(self, start: int, end: int) -> Sentence | None:
        """The sentence holding the whole original span `[start, end)`, if one does.

        Its index counts the non-blank sentences before it, found by bisection over the sentence
        ends, so locating matches never walks the whole text in Python. Each span is located
        once per channel: the ratified reading locates the matches, and the strict reading asks
        for the same ones again.
        """
        key = (start, end)
        if key in self._located:
            return self._located[key]
        found = self._locate(start, end)
        self._located[key] = found
        return found

    def _locate(self, start: int, end: int) -> Sentence | None:
        line = self.line_of(start)
        self._scan_sentence_ends(line)
        line_start = self._line_starts[line - 1]
        line_end = line_start + len(self._lines[line - 1])
        terminator_ends = self._terminator_ends
        before = bisect_right(terminator_ends, start)
        sentence_start = line_start
        if before and terminator_ends[before - 1] > line_start:
            sentence_start = terminator_ends[before - 1]
        sentence_end = line_end
        if before < len(terminator_ends) and terminator_ends[before] <= line_end:
            sentence_end = terminator_ends[before]
        # A search, not `strip()` of a copy: a sentence holding many matches is asked about
        # once per match, and copying it each time would be quadratic in its length. (`\S`
        # and `str.strip` share one definition of whitespace.)
        if end > sentence_end or _NON_SPACE.search(self.text, sentence_start, sentence_end) is None:
            return None
        index = before + bisect_right(self._tail_ends, sentence_start)
        return Sentence(index, line, sentence_start, sentence_end)

    @property
    def sentences(self) -> list[Sentence]:
        """Every non-blank sentence, in order (SI §3.2)."""
        found: list[Sentence] = []
        for line_number, (line_start, line_end) in enumerate(self.line_spans, start=1):
            piece_start = line_start
            ends = [m.end() for m in _SENTENCE_END.finditer(self.text, line_start, line_end)]
            for piece_end in [*ends, line_end]:
                if self.text[piece_start:piece_end].strip():
                    found.append(Sentence(len(found), line_number, piece_start, piece_end))
                piece_start = piece_end
        return found

    def identifier_matches(self, identifiers: Iterable[str]) -> list[Span]:
        """Every delimited occurrence of each identifier, in text order (SI §3.1)."""
        return self._matches(identifiers, delimited_occurrences)

    def synonym_matches(self, synonyms: Iterable[str]) -> list[Span]:
        """Every literal occurrence of each synonym phrase, in text order (SI §3.3)."""
        return self._matches(synonyms, literal_occurrences)

    def holds_any(self, needles: Iterable[str]) -> bool:
        """Whether some needle's comparison form occurs in the text's at all (as a literal:
        the identifiers' delimiters are not asked): False means that neither
        `identifier_matches` nor `synonym_matches` of these needles finds anything. A
        substring test per needle: one alternation of every needle was scanned position by
        position, and cost more than the strict reading's rules it spared."""
        keys = _comparison_keys(tuple(needles))
        # no needle at all says True, as the empty alternation did: its matches are none
        return not keys or any(map(self.normalized.key.__contains__, keys))

    def _matches(self, needles: Iterable[str], finder: _Finder) -> list[Span]:
        # The ratified and the strict reading ask a channel for the same needles: each list of
        # needles is matched once per channel (a copy handed out, the spans are frozen).
        unique = tuple(dict.fromkeys(needles))
        known = self._matched.get((unique, finder))
        if known is None:
            known = self._matched[(unique, finder)] = self._match(unique, finder)
        return list(known)

    def _match(self, needles: tuple[str, ...], finder: _Finder) -> list[Span]:
        normalized = self.normalized
        one_to_one = normalized.one_to_one
        spans: list[Span] = []
        for needle in needles:
            needle_key = comparison_key(needle)
            width = len(needle_key)
            for key_start in finder(normalized.key, needle_key):
                if one_to_one:
                    start, end = key_start, key_start + width
                else:
                    start, end = normalized.original_span(key_start, key_start + width)
                line = self.line_of(start)
                column = start - self._line_starts[line - 1] + 1
                spans.append(Span(needle, start, end, line, column))
        spans.sort(key=lambda span: (span.start, span.end, span.needle))
        return spans


@functools.lru_cache(maxsize=256)
def _comparison_keys(needles: tuple[str, ...]) -> tuple[str, ...]:
    """Each distinct needle's comparison form, once per list (an empty one is in any text)."""
    return tuple(dict.fromkeys(comparison_key(needle) for needle in needles))


__all__ = [
    "TOKEN_CHARACTERS",
    "ChannelText",
    "Sentence",
    "Span",
    "delimited_occurrences",
    "identifier_problem",
    "literal_occurrences",
    "validate_identifier",
    "validate_identifier_set",
]
