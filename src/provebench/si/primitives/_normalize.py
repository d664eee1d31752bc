"""Caseless NFC comparison text that still knows where each character came from (SI §3.1).

Identifier and synonym matching compare `NFC(casefold(NFC(text)))` of both sides. Case folding and
composition change lengths ("ß" folds to "ss", "e" + U+0301 composes to "é"), so an offset in the
comparison text is not an offset in the agent's answer. `NormalizedText` keeps a segment map from
comparison offsets back to original offsets, so every match can be reported at the line and column
where the agent wrote it.

ASCII text is its own NFC form and folds with `str.lower`, so ASCII stretches map one-to-one and
only non-ASCII stretches are normalised cluster by cluster.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from bisect import bisect_right
from dataclasses import dataclass

_NON_ASCII_RUN = re.compile(r"[^\x00-\x7f]+")


def _fold(text: str) -> str:
    return unicodedata.normalize("NFC", unicodedata.normalize("NFC", text).casefold())


@dataclass(frozen=True, slots=True)
class _Segment:
    key_start: int
    key_end: int
    original_start: int
    original_end: int
    one_to_one: bool


@dataclass(frozen=True, slots=True)
class NormalizedText:
    """`key` is the comparison form of `original`; `original_span` maps key offsets back."""

    original: str
    key: str
    _segments: tuple[_Segment, ...]
    _segment_starts: tuple[int, ...]

    @property
    def one_to_one(self) -> bool:
        """True when every key offset equals its original offset (e.g. ASCII text)."""
        return all(segment.one_to_one for segment in self._segments)

    def original_span(self, key_start: int, key_end: int) -> tuple[int, int]:
        """The original `[start, end)` covering the key characters `[key_start, key_end)`."""
        start_segment = self._segment_at(key_start)
        end_segment = self._segment_at(key_end - 1)
        if start_segment.one_to_one:
            start = start_segment.original_start + (key_start - start_segment.key_start)
        else:
            start = start_segment.original_start
        if end_segment.one_to_one:
            end = end_segment.original_start + (key_end - end_segment.key_start)
        else:
            end = end_segment.original_end
        return start, end

    def _segment_at(self, key_offset: int) -> _Segment:
        return self._segments[bisect_right(self._segment_starts, key_offset) - 1]


def normalize(text: str) -> NormalizedText:
    """Build the comparison text of `text` and its offset map."""
    builder = _Builder()
    if text.isascii():
        builder.one_to_one(text, 0, len(text))
        return builder.finish(text)
    if builder.folds_one_to_one(text, 0, len(text)):
        return builder.finish(text)
    position = 0
    for run in _NON_ASCII_RUN.finditer(text):
        # The ASCII character before a non-ASCII run may compose with it ("e" + U+0301), so it
        # is normalised together with the run. No ASCII character composes with what follows it.
        run_start = max(position, run.start() - 1)
        builder.one_to_one(text, position, run_start)
        builder.clusters(text, run_start, run.end())
        position = run.end()
    builder.one_to_one(text, position, len(text))
    return builder.finish(text)


@functools.lru_cache(maxsize=4096)
def comparison_key(text: str) -> str:
    """The comparison form of a needle (identifier or synonym), built exactly like `normalize`.

    Cached: a scenario's needles are the same few strings on every transcript scored."""
    return normalize(text).key


class _Builder:
    def __init__(self) -> None:
        self._pieces: list[str] = []
        self._segments: list[_Segment] = []
        self._key_length = 0

    def one_to_one(self, text: str, start: int, end: int) -> None:
        if start >= end:
            return
        piece = text[start:end].lower()
        self._add(piece, start, end, one_to_one=True)

    def folds_one_to_one(self, text: str, start: int, end: int) -> bool:
        """Add `text[start:end]` as one one-to-one segment if folding keeps every offset.

        True for NFC text whose case folding maps each character to one character and stays
        NFC (most text in any script); no character folds to nothing, so equal lengths mean one
        character each.
        """
        run = text[start:end]
        if not unicodedata.is_normalized("NFC", run):
            return False
        folded = run.casefold()
        if len(folded) != len(run) or not unicodedata.is_normalized("NFC", folded):
            return False
        self._add(folded, start, end, one_to_one=True)
        return True

    def clusters(self, text: str, start: int, end: int) -> None:
        if self.folds_one_to_one(text, start, end):
            return
        bounds = _clusters(text, start, end)
        pieces = [_fold(text[cluster_start:cluster_end]) for cluster_start, cluster_end in bounds]
        whole = _fold(text[start:end])
        if "".join(pieces) != whole:
            # Rare reorderings across clusters (e.g. Tibetan U+0F73 before combining marks):
            # keep the exact comparison text and map the whole run to its whole original span.
            self._add(whole, start, end, one_to_one=False)
            return
        for (cluster_start, cluster_end), piece in zip(bounds, pieces, strict=True):
            self._add(piece, cluster_start, cluster_end, one_to_one=False)

    def _add(self, piece: str, start: int, end: int, *, one_to_one: bool) -> None:
        if not piece:
            return
        key_end = self._key_length + len(piece)
        self._segments.append(_Segment(self._key_length, key_end, start, end, one_to_one))
        self._pieces.append(piece)
        self._key_length = key_end

    def finish(self, original: str) -> NormalizedText:
        if not self._segments:
            self._segments.append(_Segment(0, 0, 0, len(original), True))
        return NormalizedText(
            original=original,
            key="".join(self._pieces),
            _segments=tuple(self._segments),
            _segment_starts=tuple(segment.key_start for segment in self._segments),
        )


def _clusters(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Split `text[start:end]` into stretches that normalise independently.

    A stretch starts at a starter (canonical combining class 0) and takes the non-starters after
    it; two neighbouring stretches are merged when normalising them together differs from
    normalising them apart (Hangul jamo and the few starter-starter compositions).
    """
    bounds: list[tuple[int, int]] = []
    cluster_start = start
    for index in range(start + 1, end):
        if unicodedata.combining(text[index]) == 0:
            bounds.append((cluster_start, index))
            cluster_start = index
    bounds.append((cluster_start, end))
    merged: list[tuple[int, int]] = [bounds[0]]
    for cluster in bounds[1:]:
        previous_start, previous_end = merged[-1]
        before = text[previous_start:previous_end]
        after = text[cluster[0] : cluster[1]]
        if _fold(before + after) != _fold(before) + _fold(after):
            merged[-1] = (previous_start, cluster[1])
        else:
            merged.append(cluster)
    return merged


__all__ = ["NormalizedText", "comparison_key", "normalize"]
