"""Tool-echo exclusion: which answer lines appear verbatim in a tool response body (SI §2.1).

Semantics. A line of the agent's output is an echo when its text, with leading and trailing
whitespace removed, is contained in the body of some captured tool response. Removing the
surrounding whitespace means re-indenting a dumped manifest does not escape exclusion; it can only
ever exclude more, never credit more. The comparison is otherwise exact: no case folding, no
normalisation ("verbatim"). Blank lines are never echoes: they hold no match either way.

Cost. The obvious check searches every body for every answer line: answer lines x body bytes.
Only lines holding a match can change a verdict, and an echoed line's matched substring (its
*anchor*, e.g. the exact `SMTP_PORT` it contains) must occur in the body at the same place. So:

1. scan the bodies once per distinct anchor (`str.find`, or one Aho-Corasick pass when there are
   many distinct anchors), collecting each distinct body line that holds an anchor;
2. a candidate equal to such a body line (stripped) is an echo: one hash-set lookup;
3. the rest are searched inside the collected body lines only, directly when that is cheap and with
   one Aho-Corasick automaton over the remaining candidates otherwise.

Every step is linear in the body bytes plus the answer size (plus reported matches).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import ahocorasick  # type: ignore[import-not-found]  # ships no type information

# Up to this many distinct anchors, one `str.find` scan per anchor beats one automaton pass.
_FIND_SCAN_ANCHOR_LIMIT = 4
# Direct containment checks are used while they cost at most this many times the body bytes.
_DIRECT_CHECK_BUDGET_FACTOR = 4


@dataclass(frozen=True, slots=True)
class EchoSource:
    """The tool response reported as the line's source.

    The first action (invocation order) whose body holds the line as a whole line (surrounding
    whitespace aside); when no body does, the first whose body contains it inside a longer line.
    """

    action_index: int


def echo_sources(candidates: Mapping[str, str], bodies: Sequence[str]) -> dict[str, EchoSource]:
    """For each candidate line that is an echo, its `EchoSource`.

    `candidates` maps a stripped, non-blank answer line to its anchor, a non-empty substring of
    that line. Lines that are not echoes are absent from the result.
    """
    if not candidates or not bodies:
        return {}
    by_anchor = _anchor_segments(sorted(set(candidates.values())), bodies)
    exact: dict[str, int] = {}
    for segments in by_anchor.values():
        for segment, index in segments.items():
            stripped = segment.strip()
            exact[stripped] = min(index, exact.get(stripped, index))
    sources: dict[str, EchoSource] = {}
    remaining: dict[str, list[str]] = {}
    for line, anchor in candidates.items():
        if line in exact:
            sources[line] = EchoSource(exact[line])
        else:
            remaining.setdefault(anchor, []).append(line)
    if remaining:
        sources.update(_contained(remaining, by_anchor, sum(map(len, bodies))))
    return sources


Segments = dict[str, dict[str, int]]


def _anchor_segments(anchors: Sequence[str], bodies: Sequence[str]) -> Segments:
    """anchor -> every distinct body line (between `\\n`s) holding it -> first action index.

    A candidate holds no line break, so any occurrence of it in a body lies inside one such line.
    """
    by_anchor: Segments = {anchor: {} for anchor in anchors}
    automaton = None if len(anchors) <= _FIND_SCAN_ANCHOR_LIMIT else _automaton(anchors)
    for action_index, body in enumerate(bodies):
        if automaton is None:
            for anchor in anchors:
                _collect_find(body, anchor, action_index, by_anchor[anchor])
        else:
            _collect_automaton(body, automaton, action_index, by_anchor)
    return by_anchor


def _segment_around(body: str, start: int, end: int) -> tuple[int, int]:
    segment_start = body.rfind("\n", 0, start) + 1
    segment_end = body.find("\n", end)
    return segment_start, len(body) if segment_end == -1 else segment_end


def _collect_find(body: str, anchor: str, action_index: int, segments: dict[str, int]) -> None:
    # The hot loop of echo exclusion: method lookups are bound once (measured in bench/).
    find, rfind, remember = body.find, body.rfind, segments.setdefault
    position = find(anchor)
    while position != -1:
        segment_start = rfind("\n", 0, position) + 1
        segment_end = find("\n", position)
        if segment_end == -1:
            segment_end = len(body)
        remember(body[segment_start:segment_end], action_index)
        # The rest of this body line is already collected: resume after it.
        position = find(anchor, segment_end)


def _collect_automaton(
    body: str, automaton: ahocorasick.Automaton, action_index: int, by_anchor: Segments
) -> None:
    resume = 0
    while resume < len(body):
        found = next(automaton.iter(body, resume), None)
        if found is None:
            return
        last, anchor = found
        segment_start, segment_end = _segment_around(body, last + 1 - len(anchor), last + 1)
        segment = body[segment_start:segment_end]
        for _, held in automaton.iter(segment):
            by_anchor[held].setdefault(segment, action_index)
        resume = segment_end + 1


def _contained(
    lines_by_anchor: Mapping[str, list[str]], by_anchor: Segments, body_bytes: int
) -> dict[str, EchoSource]:
    """Candidates contained in (not equal to) a collected body line."""
    direct_cost = sum(
        sum(map(len, by_anchor[anchor])) * len(lines) for anchor, lines in lines_by_anchor.items()
    )
    if direct_cost <= _DIRECT_CHECK_BUDGET_FACTOR * body_bytes:
        return _contained_direct(lines_by_anchor, by_anchor)
    lines = [line for lines in lines_by_anchor.values() for line in lines]
    return _contained_automaton(lines, by_anchor)


def _joined(segments: Mapping[str, int]) -> tuple[str, list[int], list[int]]:
    """The segments in first-action order, joined by `\\n`, with start offsets and indices.

    A candidate holds no `\\n`, so it occurs in the joined text exactly where it occurs in one
    segment, and its first occurrence lies in the segment of the lowest action index.
    """
    ordered = sorted(segments.items(), key=lambda item: (item[1], item[0]))
    starts: list[int] = []
    offset = 0
    for segment, _ in ordered:
        starts.append(offset)
        offset += len(segment) + 1
    return "\n".join(segment for segment, _ in ordered), starts, [i for _, i in ordered]


def _contained_direct(
    lines_by_anchor: Mapping[str, list[str]], by_anchor: Segments
) -> dict[str, EchoSource]:
    sources: dict[str, EchoSource] = {}
    for anchor, lines in lines_by_anchor.items():
        haystack, starts, indices = _joined(by_anchor[anchor])
        for line in lines:
            position = haystack.find(line)
            if position != -1:
                sources[line] = EchoSource(indices[bisect_right(starts, position) - 1])
    return sources


def _contained_automaton(lines: list[str], by_anchor: Segments) -> dict[str, EchoSource]:
    first_index: dict[str, int] = {}
    for segments in by_anchor.values():
        for segment, index in segments.items():
            first_index[segment] = min(index, first_index.get(segment, index))
    haystack, starts, indices = _joined(first_index)
    automaton = _automaton(lines)
    sources: dict[str, EchoSource] = {}
    # Occurrences come in order of their end, and the segments in order of action index, so a
    # line's first occurrence names its first source; stop once every line has one.
    for last, line in automaton.iter(haystack):
        if line not in sources:
            sources[line] = EchoSource(indices[bisect_right(starts, last) - 1])
            if len(sources) == len(lines):
                break
    return sources


def _automaton(patterns: Sequence[str]) -> ahocorasick.Automaton:
    automaton = ahocorasick.Automaton()
    for pattern in patterns:
        automaton.add_word(pattern, pattern)
    automaton.make_automaton()
    return automaton


__all__ = ["EchoSource", "echo_sources"]
