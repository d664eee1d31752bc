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

import operator
from bisect import bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import repeat
from operator import itemgetter

import ahocorasick  # type: ignore[import-not-found]  # ships no type information

# Up to this many distinct anchors, one `str.find` scan per anchor beats one automaton pass.
_FIND_SCAN_ANCHOR_LIMIT = 4
# Direct containment checks are used while they cost at most this many times the body bytes.
_DIRECT_CHECK_BUDGET_FACTOR = 4
_first_item = itemgetter(0)
_last_item = itemgetter(2)


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
    by_anchor, single_hit = _anchor_segments(sorted(set(candidates.values())), bodies)
    exact: dict[str, int] = {}
    for segments in by_anchor.values():
        stripped_segments = dict(zip(map(str.strip, segments), segments.values(), strict=True))
        if not exact and len(stripped_segments) == len(segments):
            exact = stripped_segments  # no two segments strip alike: nothing to take a min of
            continue
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
    for anchor in single_hit:
        if anchor in remaining:
            remaining[anchor] = _may_be_contained(remaining[anchor], anchor, by_anchor[anchor])
    remaining = {anchor: lines for anchor, lines in remaining.items() if lines}
    if remaining:
        sources.update(_contained(remaining, by_anchor, sum(map(len, bodies))))
    return sources


def _may_be_contained(lines: list[str], anchor: str, segments: Mapping[str, int]) -> list[str]:
    """The lines that may lie inside a segment, when each segment holds the anchor once.

    A line contained in a segment has its first anchor on the segment's one anchor, so the text
    before it ends the segment's text before the anchor, and the text after it starts the
    segment's text after the anchor. Both are checked as set lookups of suffixes and prefixes
    of each length the lines need, computed by C calls; what passes is checked exactly.
    """
    splits = list(map(str.partition, lines, repeat(anchor)))
    segment_splits = list(map(str.partition, segments, repeat(anchor)))
    segment_lefts = list(map(_first_item, segment_splits))
    segment_rights = list(map(_last_item, segment_splits))
    left_ok = _sides_present(list(map(_first_item, splits)), segment_lefts, suffix=True)
    right_ok = _sides_present(list(map(_last_item, splits)), segment_rights, suffix=False)
    return [
        line
        for line, (left, _, right) in zip(lines, splits, strict=True)
        if left in left_ok and right in right_ok
    ]


def _sides_present(sides: list[str], segment_sides: list[str], *, suffix: bool) -> set[str]:
    """The sides that end (suffix) or start (prefix) some segment side."""
    present: set[str] = set()
    by_length: dict[int, set[str]] = {}
    for side in sides:
        by_length.setdefault(len(side), set()).add(side)
    for length, wanted in by_length.items():
        if length == 0:
            present.add("")
            continue
        cut = itemgetter(slice(-length, None) if suffix else slice(0, length))
        present.update(wanted.intersection(map(cut, segment_sides)))
    return present


Segments = dict[str, dict[str, int]]


def _anchor_segments(anchors: Sequence[str], bodies: Sequence[str]) -> tuple[Segments, set[str]]:
    """anchor -> every distinct body line (between `\\n`s) holding it -> first action index;
    and the anchors that occur at most once in every body line (see `_may_be_contained`).

    A candidate holds no line break, so any occurrence of it in a body lies inside one such line.
    """
    by_anchor: Segments = {anchor: {} for anchor in anchors}
    if len(anchors) > _FIND_SCAN_ANCHOR_LIMIT:
        automaton = _automaton(anchors)
        for action_index, body in enumerate(bodies):
            _collect_automaton(body, automaton, action_index, by_anchor)
        return by_anchor, set()
    single_hit = {anchor for anchor in anchors if not _overlaps_itself(anchor)}
    # Bodies in reverse order, each one's lines merged with one `update`: the lowest action
    # index is written last, so it is the one kept.
    for action_index in range(len(bodies) - 1, -1, -1):
        body = bodies[action_index]
        for anchor in anchors:
            found = _split_segments(body, anchor)
            if found is None:
                single_hit.discard(anchor)
                collected: dict[str, int] = {}
                _collect_find(body, anchor, action_index, collected)
                by_anchor[anchor].update(collected)
            elif found:
                by_anchor[anchor].update(dict.fromkeys(found, action_index))
    return by_anchor, single_hit


def _split_segments(body: str, anchor: str) -> list[str] | None:
    """The body lines holding `anchor`, by C-level splits; None when a line holds it twice."""
    pieces = body.split(anchor)
    if len(pieces) == 1:
        return []
    inner = pieces[1:-1]
    if inner and not all(map(operator.contains, inner, repeat("\n"))):
        return None  # two occurrences on one line: `_collect_find` takes this body
    lefts = map(_last_item, map(str.rpartition, pieces[:-1], repeat("\n")))
    rights = map(_first_item, map(str.partition, pieces[1:], repeat("\n")))
    return list(map(anchor.join, zip(lefts, rights, strict=True)))


def _overlaps_itself(anchor: str) -> bool:
    """True when two occurrences of the anchor can overlap (a proper prefix is a suffix):
    `str.split` then misses occurrences, which the containment filter relies on."""
    return any(anchor[:size] == anchor[-size:] for size in range(1, len(anchor)))


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
