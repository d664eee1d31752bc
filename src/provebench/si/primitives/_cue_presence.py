"""Whether a cue list can match an answer at all: a test of its words before a pattern scan.

The strict reading scans an answer with many case-insensitive cue patterns (`_assertion`,
`_strict_factor`). The regular-expression engine tries a pattern at every position of what it
scans, however few cues the text holds, and most answers hold no phrase of most lists: much of
the strict reading's time went to scans that found nothing. This module reads an answer's words
once, and then says in a few set operations whether a list's pattern *could* match.

Why the test is sound. A cue pattern (`_words_pattern`, and the patterns built from the same
`_alternatives`) matches a phrase only where it starts after a character outside the word class
`[A-Za-z0-9_'’-]` (or at the start of the text), its pieces are separated by whitespace, and it
ends before a character outside the class (or at the end of what is scanned). So each piece made
of word characters is a whole word of the text, and any other piece a substring of it, in a scan
of the whole text or of a part that cuts no word (`cuts_word`; a clause boundary inside a word,
`--`, may cut one, and such a scan is not judged). A phrase with a piece the answer lacks cannot
match anywhere; a list none of whose phrases can match finds nothing, and its scan is skipped.
The test is only ever used to skip: where it cannot decide (a text with a character beyond ASCII
that a cue's ASCII letter matches, a cue written with such a character) it answers "could", and
the pattern is scanned as before. For an ASCII cue a case-insensitive match is a match of the
lowercased forms, which is what the test compares.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable
from typing import TypeVar, cast

_T = TypeVar("_T")

# The characters of a cue word (a cue is a whole word: `no` is not found in `node`).
WORD_CHARACTERS = "A-Za-z0-9_'’-"
_TOKEN = re.compile(f"[{WORD_CHARACTERS}]+")
_WORD_CHARACTER = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_'’-")


def cuts_word(text: str, at: int) -> bool:
    """Whether offset `at` of `text` falls inside a word (a word character on both sides)."""
    return 0 < at < len(text) and text[at - 1] in _WORD_CHARACTER and text[at] in _WORD_CHARACTER


# The characters beyond ASCII that a case-insensitive pattern of ASCII letters can match, or
# whose case mapping holds an ASCII letter ("ı" and "İ" match "i", "ſ" matches "s", the Kelvin
# sign "k"; `test_cue_presence` derives the list from Unicode): a text holding one is not judged.
_ASCII_LOOK_ALIKES = frozenset(
    "\u00df\u0130\u0131\u0149\u017f\u01f0\u1e96\u1e97\u1e98\u1e99\u1e9a\u212a"
    "\ufb00\ufb01\ufb02\ufb03\ufb04\ufb05\ufb06"
)
# the same characters, for the rules that test a literal word's presence the same way
ASCII_LOOK_ALIKES = _ASCII_LOOK_ALIKES


class Vocabulary:
    """The words of one text, lowercased, read once; and what each `CueTest` said of it.

    Beyond ASCII a character matches a cue's ASCII letter only if it is one of a few look-alikes
    (`_ASCII_LOOK_ALIKES`): a text with none of them is judged, its other characters outside the
    word class being what they are to the patterns, delimiters. A scan of a part of the text
    that cuts a word (`cuts_word`) may find a phrase in the piece of the word it holds, which is
    no word of the text: such a scan is not judged by it."""

    __slots__ = ("_derived", "_families", "_known", "ascii", "lowered", "words")

    def __init__(self, text: str) -> None:
        self.ascii = text.isascii()
        self.lowered = text.lower()
        self.words = frozenset(_TOKEN.findall(self.lowered))
        self._known: dict[CueTest, bool] = {}
        self._derived: dict[object, object] = {}
        self._families: dict[CueFamily, list[bool]] = {}

    @classmethod
    def of(cls, text: str) -> Vocabulary | None:
        """The vocabulary of `text`, or None where the tests cannot decide."""
        if not text.isascii() and not _ASCII_LOOK_ALIKES.isdisjoint(text):
            return None
        return cls(text)

    def could_match(self, test: CueTest) -> bool:
        family = test.family
        if family is not None:
            found = self._families.get(family)
            if found is None:
                found = self._families[family] = family.decide(self)
            return found[test.slot]
        known = self._known.get(test)
        if known is None:
            known = self._known[test] = test.decide(self)
        return known

    def derived(self, key: object, compute: Callable[[Vocabulary], _T]) -> _T:
        """What `compute` makes of this vocabulary (the tests of a set of lists, the pattern
        they choose), made once per `key`."""
        if key not in self._derived:
            self._derived[key] = compute(self)
        return cast(_T, self._derived[key])


def could_match(vocabulary: Vocabulary | None, test: CueTest) -> bool:
    """False only when no phrase of the test's list can match the vocabulary's text."""
    return vocabulary is None or vocabulary.could_match(test)


@functools.lru_cache(maxsize=256)
def _matches_some_ascii(character: str) -> bool:
    """Whether a case-insensitive pattern character matches any ASCII character ("K", the
    Kelvin sign, matches "k"; "’" matches none)."""
    pattern = re.compile(re.escape(character), re.IGNORECASE)
    return any(pattern.fullmatch(chr(code)) for code in range(128))


class _Phrases:
    """The phrases a test judges, by the longest of their whole words."""

    __slots__ = ("by_key", "keys", "unkeyed")

    def __init__(self) -> None:
        self.by_key: dict[str, list[tuple[frozenset[str], tuple[str, ...]]]] = {}
        self.keys: frozenset[str] = frozenset()
        self.unkeyed: list[tuple[str, ...]] = []

    def add(self, pieces: list[str], inside_word: bool) -> None:
        lowered = [piece.lower() for piece in pieces]
        whole = [] if inside_word else [piece for piece in lowered if _TOKEN.fullmatch(piece)]
        inner = tuple(piece for piece in lowered if piece not in whole)
        if whole:
            # keyed by its longest word: the rarest, most often
            self.by_key.setdefault(max(whole, key=len), []).append((frozenset(whole), inner))
            self.keys = frozenset(self.by_key)
        else:
            self.unkeyed.append(inner)

    def any_in(self, vocabulary: Vocabulary) -> bool:
        words, lowered = vocabulary.words, vocabulary.lowered
        if not self.keys.isdisjoint(words):
            for key in self.keys.intersection(words):
                for whole, inner in self.by_key[key]:
                    if whole <= words and all(piece in lowered for piece in inner):
                        return True
        return any(all(piece in lowered for piece in inner) for inner in self.unkeyed)


class CueTest:
    """Whether some phrase of one cue list can match a text (module docstring). `phrases` are
    written as in the list (pieces separated by whitespace); `substrings` are cues matched
    inside a word (a contraction suffix, `n't`), which the text must contain.

    A phrase written with a character beyond ASCII: in an ASCII text, one that matches no ASCII
    character never matches and is left out; in another text, "’" (a word character, with no
    case) is compared as written, and any other leaves the test undecided."""

    __slots__ = ("_ascii", "_undecided", "_wide", "_wide_undecided", "family", "slot")

    def __init__(self, phrases: Iterable[str], substrings: Iterable[str] = ()) -> None:
        self._ascii = _Phrases()  # what an ASCII text is compared with
        self._wide = _Phrases()  # what another text is compared with
        self._undecided = self._wide_undecided = False
        # the family that decides it with others (`CueFamily`), and its place there
        self.family: CueFamily | None = None
        self.slot = -1
        listed = [(phrase.split(), False) for phrase in phrases]
        listed += [([substring], True) for substring in substrings]
        for pieces, inside_word in listed:
            if not pieces:
                self._undecided = True
                continue
            beyond = {character for piece in pieces for character in piece if ord(character) > 127}
            if not beyond:
                self._ascii.add(pieces, inside_word)
                self._wide.add(pieces, inside_word)
                continue
            if not all(_matches_some_ascii(character) for character in beyond):
                pass  # it never matches an ASCII text
            else:
                self._undecided = True
            if beyond == {"’"}:
                self._wide.add(pieces, inside_word)
            else:
                self._wide_undecided = True
        if not listed:
            self._undecided = True  # an empty list: left to its pattern

    def decide(self, vocabulary: Vocabulary) -> bool:
        if self._undecided:
            return True
        if vocabulary.ascii:
            return self._ascii.any_in(vocabulary)
        return self._wide_undecided or self._wide.any_in(vocabulary)


class CueFamily:
    """Tests decided together: one pass over an answer's words answers every one of them (an
    answer is asked about some thirty lists; asking each in turn cost more than its scan
    saved). A test joins the first family made with it."""

    __slots__ = ("_ascii", "_keys", "_size", "_undecided", "_wide", "_wide_undecided")

    def __init__(self, tests: Iterable[CueTest]) -> None:
        # a test already in a family stays there (its answers are the same in either)
        joined = tuple(test for test in dict.fromkeys(tests) if test.family is None)
        self._size = len(joined)
        # key -> (slot, whole words, inner pieces) of every phrase keyed by it, per kind of text
        self._ascii: _Merged = ({}, [])
        self._wide: _Merged = ({}, [])
        self._undecided: list[int] = []
        self._wide_undecided: list[int] = []
        for slot, test in enumerate(joined):
            test.family, test.slot = self, slot
            if test._undecided:
                self._undecided.append(slot)
            if test._wide_undecided:
                self._wide_undecided.append(slot)
            for merged, phrases in ((self._ascii, test._ascii), (self._wide, test._wide)):
                for key, found in phrases.by_key.items():
                    merged[0].setdefault(key, []).extend((slot, *item) for item in found)
                merged[1].extend((slot, inner) for inner in phrases.unkeyed)
        self._keys = (frozenset(self._ascii[0]), frozenset(self._wide[0]))

    def decide(self, vocabulary: Vocabulary) -> list[bool]:
        """Each test's `decide`, by slot."""
        found = [False] * self._size
        for slot in self._undecided:
            found[slot] = True
        if not vocabulary.ascii:
            for slot in self._wide_undecided:
                found[slot] = True
        by_key, unkeyed = self._ascii if vocabulary.ascii else self._wide
        words, lowered = vocabulary.words, vocabulary.lowered
        for key in words.intersection(self._keys[0] if vocabulary.ascii else self._keys[1]):
            for slot, whole, inner in by_key[key]:
                if (
                    not found[slot]
                    and whole <= words
                    and (not inner or all(piece in lowered for piece in inner))
                ):
                    found[slot] = True
        for slot, inner in unkeyed:
            if not found[slot] and all(piece in lowered for piece in inner):
                found[slot] = True
        return found


_Merged = tuple[
    dict[str, list[tuple[int, frozenset[str], tuple[str, ...]]]], list[tuple[int, tuple[str, ...]]]
]


__all__ = [
    "ASCII_LOOK_ALIKES",
    "WORD_CHARACTERS",
    "CueFamily",
    "CueTest",
    "Vocabulary",
    "could_match",
    "cuts_word",
]
