"""The SI answer as text, marked up from the verdict's own match locations (SI §2.1, §2.2, §5.1):
the identifiers and synonyms that matched highlighted where they stand, and the lines that
tool-echo exclusion removed struck through, each with the tool call whose response held it.

The text comes from the evidence the verdict scored — `evidence.json` beside the verdict, used
only when its sha256 is the one the verdict names (`inputs.evidence_file_sha256`); nothing is
re-matched here, every mark is a location the verdict states.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Final

CHANNELS: Final = ("agent_response", "reasoning_trace")
_FIELD_OF: Final = {"agent_response": "final_answer", "reasoning_trace": "reasoning_trace"}
# Lines as the matcher numbers them (si/primitives/_matching.py): any of CRLF, CR, LF ends one.
_LINE_BREAK: Final = re.compile(r"\r\n|\r|\n")


def _marks(
    references: Sequence[Mapping[str, Any]],
) -> dict[tuple[str, int], list[tuple[int, int, str]]]:
    """(channel, line) -> [(start, end, kind)] from the verdict's match locations."""
    marks: dict[tuple[str, int], list[tuple[int, int, str]]] = {}
    for ref in references:
        column, text = ref.get("column"), ref.get("text")
        if not isinstance(column, int) or not isinstance(text, str) or column < 1:
            continue  # an excluded line, or a location without a column
        kind = "synonym" if "synonym" in str(ref.get("at", "")) else "identifier"
        start = column - 1
        key = (str(ref["channel"]), int(ref["line"]))
        marks.setdefault(key, []).append((start, start + len(text), kind))
    return marks


def _excluded(verdict: Mapping[str, Any]) -> dict[tuple[str, int], str]:
    found: dict[tuple[str, int], str] = {}

    def walk(value: Any) -> None:
        if isinstance(value, Mapping):
            for line in value.get("excluded_lines") or []:
                if isinstance(line, Mapping) and isinstance(line.get("line"), int):
                    call = f"{line.get('tool')} (action {line.get('action_index')})"
                    found[(str(line.get("channel")), int(line["line"]))] = call
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(verdict.get("evaluations"))
    return found


def _deciding(references: Sequence[Mapping[str, Any]]) -> dict[tuple[str, int], int]:
    """(channel, line) -> sentence of the co-occurrence that decided `factor_identified`: the
    identifier and the synonym found in one sentence (SI §3.2)."""
    found: dict[tuple[str, int], int] = {}
    for ref in references:
        at = str(ref.get("at", ""))
        if ".cooccurrence." in at and isinstance(ref.get("line"), int):
            sentence = ref.get("sentence")
            found[(str(ref["channel"]), int(ref["line"]))] = (
                sentence if isinstance(sentence, int) else -1
            )
    return found


def _segments(text: str, marks: list[tuple[int, int, str]]) -> list[tuple[str, str]]:
    """The line cut into (text, kind) pieces; overlapping marks keep the first."""
    pieces: list[tuple[str, str]] = []
    at = 0
    for start, end, kind in sorted(set(marks)):
        if start < at or end > len(text):
            continue
        if start > at:
            pieces.append((text[at:start], ""))
        pieces.append((text[start:end], kind))
        at = end
    if at < len(text) or not pieces:
        pieces.append((text[at:], ""))
    return pieces


def answer_view(
    verdict: Mapping[str, Any], evidence: Mapping[str, Any], references: Sequence[Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """Per channel with text: its lines, each cut into marked pieces, or struck as an echo."""
    marks, excluded, deciding = _marks(references), _excluded(verdict), _deciding(references)
    channels = []
    for channel in CHANNELS:
        text = evidence.get(_FIELD_OF[channel])
        if not isinstance(text, str) or not text:
            continue
        lines = []
        for number, line in enumerate(_LINE_BREAK.split(text), start=1):
            echo = excluded.get((channel, number))
            lines.append(
                {
                    "number": number,
                    "echo_of": echo,
                    "decides": deciding.get((channel, number)),
                    "pieces": _segments(line, [] if echo else marks.get((channel, number), [])),
                }
            )
        channels.append({"channel": channel, "lines": lines})
    return channels


__all__ = ["CHANNELS", "answer_view"]
