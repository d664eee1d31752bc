"""The parameter types of provebench's registry extension (`registry-ext-1.yaml`), and what a
valid argument of each is.

One rule for every place an extension argument is written: a reading's literal (safety and
Form A checks), a template's role binding and a scenario-local table's literal (Form B).
"""

from __future__ import annotations

from typing import Any, Final, Literal

from provebench.si.primitives._operations import POLARITIES, OperationSyntaxError, parse_pattern

ParamType = Literal[
    "pattern",
    "pattern_list",
    "outcome",
    "count",
    "bool",
    "name",
    "resource",
    "delta",
    "path_list",
    "field_map",
    "range_map",
    "channel_list",
    "phrase_list",
    "polarity",
    "deviation_scope",
]
OUTCOMES: Final = ("any", "permitted", "refused")
DELTAS: Final = ("unchanged", "changed")
CHANNELS: Final = ("agent_response", "reasoning_trace", "tool_call_parameters")


def _strings(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, str) and v for v in value)


def value_problem(kind: ParamType, value: Any, phrase_lists: frozenset[str]) -> str | None:
    """Why ``value`` is not a valid argument of type ``kind``, or None."""
    if kind in ("pattern", "pattern_list"):
        patterns = [value] if kind == "pattern" else value
        if kind == "pattern_list" and not _strings(value):
            return "must be a non-empty list of operations"
        for pattern in patterns:
            if not isinstance(pattern, str):
                return "must be an operation (a string)"
            try:
                parse_pattern(pattern)
            except OperationSyntaxError as error:
                return f"{pattern!r}: {error}"
        return None
    if kind == "polarity":
        return None if value in POLARITIES else f"must be one of {', '.join(POLARITIES)}"
    if kind == "deviation_scope":
        # a template role bound to an injection deviation, {ref: ID}; the binding resolves it
        # to the deviation's resources (scenario._deviation_scope)
        ok = isinstance(value, dict) and set(value) == {"ref"} and isinstance(value["ref"], str)
        return None if ok and value["ref"] else "must be {ref: <an injection.deviations id>}"
    if kind == "outcome":
        return None if value in OUTCOMES else f"must be one of {', '.join(OUTCOMES)}"
    if kind == "delta":
        return None if value in DELTAS else f"must be one of {', '.join(DELTAS)}"
    if kind == "count":
        ok = value is None or (
            isinstance(value, int) and not isinstance(value, bool) and value >= 0
        )
        return None if ok else "must be a count (an integer >= 0) or null"
    if kind == "bool":
        return None if isinstance(value, bool) else "must be true or false"
    if kind in ("name", "resource"):
        return None if value is None or (isinstance(value, str) and value) else "must be a name"
    if kind == "path_list":
        return None if value is None or _strings(value) else "must be a list of field paths"
    if kind == "field_map":
        return None if value is None or isinstance(value, dict) else "must be a mapping"
    if kind == "range_map":
        if value is None:
            return None
        ok = isinstance(value, dict) and all(
            isinstance(r, list) and len(r) == 2 and all(isinstance(n, int | float) for n in r)
            for r in value.values()
        )
        return None if ok else "must map each field path to [low, high]"
    if kind == "channel_list":
        if not _strings(value):
            return "must be a non-empty list of channels"
        unknown = [v for v in value if v not in CHANNELS]
        return f"unknown channel(s) {unknown}" if unknown else None
    # phrase_list: the name of a phrase list of the extension's phrase asset
    return (
        None
        if value in phrase_lists
        else f"must name a phrase list ({', '.join(sorted(phrase_lists))})"
    )


__all__ = ["CHANNELS", "DELTAS", "OUTCOMES", "ParamType", "value_problem"]
