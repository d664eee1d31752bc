"""Identifier-shaped tokens ("smtp-config", "configMapKeyRef", "SMTP_PORT") found without trying
the pattern at every letter of every word.

The plain-assertion, unaccounted and accounted rules (docs/si-scoring.md §11) each scan the
answer's sentences and clauses for identifier-shaped tokens, about fourteen scans an answer. A
pattern of the form `[A-Za-z]…` tried at each letter of a word reads on to the word's end each
time, so a scan cost the square of each word's length. Every branch of these patterns opens on
`[A-Za-z]` and, wherever it can match at a letter that follows a letter, can match one
letter earlier too (its opening `[A-Za-z]` or `[A-Za-z]*`/`+` takes the letter before), and every
match ends where the run of letters and digits ends. So the leftmost matches a scan finds all
open at a letter that follows no letter, and the same pattern behind `(?<![A-Za-z])` finds the
same matches, except at the scan's own start when it falls inside a word: that one place is
tried with the pattern itself (`test_identifier_shapes` holds the two to the same matches).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

_LETTER = re.compile(r"[A-Za-z]")


class IdentifierShapes:
    """`pattern`'s matches, found at the openings of words only (module docstring)."""

    __slots__ = ("_at_word_openings", "pattern")

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern = pattern
        self._at_word_openings = re.compile(rf"(?<![A-Za-z])(?:{pattern.pattern})", pattern.flags)

    def finditer(
        self, text: str, pos: int = 0, endpos: int | None = None
    ) -> Iterator[re.Match[str]]:
        """What `pattern.finditer(text, pos, endpos)` gives."""
        end = len(text) if endpos is None else min(endpos, len(text))
        if 0 < pos < end and _LETTER.fullmatch(text[pos - 1]):
            # the scan opens inside a word: the lookbehind would refuse a match there
            first = self.pattern.match(text, pos, end)
            if first is not None:
                yield first
                pos = first.end()
        yield from self._at_word_openings.finditer(text, pos, end)

    def sub(self, replacement: str | Callable[[re.Match[str]], str], text: str) -> str:
        """What `pattern.sub(replacement, text)` gives."""
        return self._at_word_openings.sub(replacement, text)


__all__ = ["IdentifierShapes"]
