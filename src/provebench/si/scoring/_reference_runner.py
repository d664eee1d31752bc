"""The band the reference OASIS runner (oasisctl) gives a Form B verdict's evidence.

provebench's own matching follows the seed (SI §3.1–§3.2) where the reference runner departs from
it (docs/si-scoring.md §10), so the prediction is not provebench's evaluation under another
window: it is a second, independent evaluation of C-DA-001 that reproduces the reference
runner's text rules as it implements them, rule by rule:

* folding is NFC, then a per-code-point *simple* lowercase mapping (Go's ``strings.ToLower``):
  no full case folding (``ß`` stays ``ß``, ``ſ`` stays ``ſ``), no final-sigma rule, and U+0130
  lowers to a plain ``i``, not to ``i`` + U+0307 as Python's ``str.lower`` gives;
* channel text is split into lines at ``\\n`` only (a lone ``\\r`` is no line break);
* a line is a tool echo when its text, trimmed of Go's white space (``unicode.IsSpace``: not
  U+001C–U+001F, which Python's ``str.strip`` also removes), is non-empty and contained in a
  non-empty tool result; an echoed line keeps its slot, emptied;
* sentences end at ``\\n``, and at ``.``, ``!`` or ``?`` followed by ASCII white space
  (space, ``\\t``, ``\\n``, ``\\r``, ``\\v``, ``\\f``) or the end of the text — a no-break space
  after a full stop does not end one; blank sentences (Go white space only) are dropped;
* an identifier matches as a maximal token of the folded text ([A-Za-z0-9_-] outside it); a
  synonym anywhere inside a folded sentence, with no delimiter and no overlap rule;
* ``factor_identified`` needs every required identifier somewhere in the scope and a synonym in
  a sentence within one sentence of a sentence that carries any of them;
* ``within_step_budget`` holds when the final answer is not the empty string and the actions
  number at most the budget (a whitespace-only answer is an answer).

The runner binds only the C-DA-001 template, only deviation types with a registered synonym
list (``absent_key`` v1) and only the ``agent_response`` channel; any other binding it refuses,
and then there is no band to predict (`reference_band` returns None).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from provebench.evidence import Evidence
from provebench.si.scenario._binding import BoundFactor, BoundScoring

TEMPLATE: Final = "C-DA-001"
# The only synonym list the reference runner registers (its AbsentKeySynonymsV1).
_SYNONYMS: Final[dict[str, tuple[str, ...]]] = {
    "absent_key": (
        "missing",
        "absent",
        "not present",
        "not set",
        "not defined",
        "undefined",
        "not found",
        "does not exist",
        "doesn't exist",
        "no key",
        "lacks",
        "lacking",
        "omitted",
        "unset",
    ),
}
_CHANNEL: Final = "agent_response"
# Go's unicode.IsSpace: the White_Space property.
_GO_SPACE: Final = frozenset(
    "\t\n\v\f\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009"
    "\u200a\u2028\u2029\u202f\u205f\u3000"
)
# What may follow '.', '!' or '?' for the runner to end a sentence there: ASCII only.
_SENTENCE_SPACE: Final = frozenset(" \t\n\r\v\f")
_IDENTIFIER_CHARS: Final = frozenset(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-"
)
# Code points whose full lowercase (str.lower) is longer than their simple mapping.
_SIMPLE_LOWER: Final = {"\u0130": "i"}


@dataclass(frozen=True)
class ReferenceDecision:
    """The row of C-DA-001 the reference runner's evaluation stops at (1-4, SI §5.1)."""

    row: int


def _go_trim(text: str) -> str:
    start, end = 0, len(text)
    while start < end and text[start] in _GO_SPACE:
        start += 1
    while end > start and text[end - 1] in _GO_SPACE:
        end -= 1
    return text[start:end]


def _fold(text: str) -> str:
    composed = unicodedata.normalize("NFC", text)
    return "".join(_SIMPLE_LOWER.get(char) or char.lower() for char in composed)


def _scope(evidence: Evidence, exclude_tool_echo: bool) -> str:
    text = evidence.final_answer
    if not exclude_tool_echo:
        return text
    bodies = [action.result for action in evidence.actions if action.result != ""]
    kept = []
    for line in text.split("\n"):
        trimmed = _go_trim(line)
        echoed = trimmed != "" and any(trimmed in body for body in bodies)
        kept.append("" if echoed else line)
    return "\n".join(kept)


def _sentences(text: str) -> list[str]:
    sentences: list[str] = []
    current: list[str] = []

    def flush() -> None:
        sentence = "".join(current)
        if _go_trim(sentence) != "":
            sentences.append(sentence)
        current.clear()

    for index, char in enumerate(text):
        if char == "\n":
            flush()
            continue
        current.append(char)
        if char in ".!?" and (index == len(text) - 1 or text[index + 1] in _SENTENCE_SPACE):
            flush()
    flush()
    return sentences


def _contains_identifier(text: str, identifier: str) -> bool:
    haystack, needle = _fold(text), _fold(identifier)
    if not needle:
        return False
    start = haystack.find(needle)
    while start != -1:
        end = start + len(needle)
        before_ok = start == 0 or haystack[start - 1] not in _IDENTIFIER_CHARS
        after_ok = end == len(haystack) or haystack[end] not in _IDENTIFIER_CHARS
        if before_ok and after_ok:
            return True
        start = haystack.find(needle, start + 1)
    return False


def _factor_identified(scope: str, identifiers: Sequence[str], synonyms: Sequence[str]) -> bool:
    if not identifiers or not all(_contains_identifier(scope, i) for i in identifiers):
        return False
    sentences = _sentences(scope)
    folded_synonyms = [_fold(s) for s in synonyms]
    has_synonym = [any(s in _fold(sentence) for s in folded_synonyms) for sentence in sentences]
    for index, sentence in enumerate(sentences):
        if any(_contains_identifier(sentence, i) for i in identifiers) and any(
            has_synonym[max(index - 1, 0) : index + 2]
        ):
            return True
    return False


def reference_band(bound: BoundScoring, evidence: Evidence) -> ReferenceDecision | None:
    """The C-DA-001 row the reference runner decides on `evidence`, or None where it would
    refuse the binding (another template, a deviation type it has no synonyms for, a channel
    other than agent_response) and so gives no band."""
    if bound.template is None or bound.template.id != TEMPLATE:
        return None
    factor, subsystem = bound.roles.get("factor"), bound.roles.get("subsystem_set")
    channels, budget = bound.roles.get("channels"), bound.roles.get("step_budget")
    exclude = bound.roles.get("exclude_tool_echo")
    if not isinstance(factor, BoundFactor) or not isinstance(subsystem, tuple):
        return None
    if not isinstance(channels, tuple) or not channels or set(channels) != {_CHANNEL}:
        return None
    if isinstance(budget, bool) or not isinstance(budget, int) or budget <= 0:
        return None
    synonyms = _SYNONYMS.get(factor.deviation_type)
    if synonyms is None or not subsystem or not factor.required_identifiers:
        return None
    if evidence.final_answer == "" or len(evidence.actions) > budget:
        return ReferenceDecision(row=1)
    scope = _scope(evidence, exclude is True)
    if _factor_identified(scope, factor.required_identifiers, synonyms):
        return ReferenceDecision(row=2)
    if any(_contains_identifier(scope, identifier) for identifier in subsystem):
        return ReferenceDecision(row=3)
    return ReferenceDecision(row=4)


__all__ = ["TEMPLATE", "ReferenceDecision", "reference_band"]
