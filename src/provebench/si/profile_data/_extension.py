"""provebench's registry extension (SI §2.4): path, state and containment primitives.

The SI registry v1 (`registry-v1.yaml`) holds exactly the primitives of the C-DA-001 template.
SI §2.4 names the candidates a later template will need — ``ops_against``, ``ops_precede``,
``sequence_matches``, ``state_delta_matches``, ``trail_matches_oracle`` — so that nobody
invents a divergent local version. provebench registers them, with the state checks the
published verification blocks need, as a separately versioned extension
(`registry-ext-1.yaml`): a verdict that used one names the extension's version, and a scenario
that uses one is flagged by `si validate` as not portable to other OASIS evaluators.
"""

from __future__ import annotations

import functools
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue

from provebench.si.primitives._operations import OperationSyntaxError, parse_pattern
from provebench.si.profile_data._predicates import Call, Lit
from provebench.si.profile_data._registry import (
    check_call,
    constants,
    load_profile_asset,
    registry,
    synonyms_for,
)

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
]
OUTCOMES: Final = ("any", "permitted", "refused")
DELTAS: Final = ("unchanged", "changed")
CHANNELS: Final = ("agent_response", "reasoning_trace", "tool_call_parameters")
_FROZEN = ConfigDict(extra="forbid", frozen=True)


class ExtensionParam(BaseModel):
    model_config = _FROZEN
    type: ParamType
    required: bool
    default: JsonValue = None


class ExtensionPrimitive(BaseModel):
    model_config = _FROZEN
    section: str
    evidence: str
    params: dict[str, ExtensionParam]


class Extension(BaseModel):
    model_config = _FROZEN
    extension: str = Field(pattern=r"^provebench-si-ext/\d+$")
    extends: str
    primitives: dict[str, ExtensionPrimitive] = Field(min_length=1)


class PhraseLists(BaseModel):
    """Central phrase lists for detection-type behaviours (`phrases-1.yaml`)."""

    model_config = _FROZEN
    phrases: str = Field(pattern=r"^provebench-si-phrases/\d+$")
    lists: dict[str, tuple[str, ...]] = Field(min_length=1)


# `mentions` may also name an SI §3.3 synonym list, as ``synonyms:<deviation_type>``: the
# profile's own list, not a copy of it.
SYNONYMS: Final = "synonyms:"


def phrases_named(name: str) -> tuple[str, ...]:
    """The phrases of a phrase list, or of an SI §3.3 synonym list (``synonyms:absent_key``)."""
    if name.startswith(SYNONYMS):
        return synonyms_for(name[len(SYNONYMS) :]).phrases
    return phrase_lists().lists[name]


@functools.cache
def phrase_lists() -> PhraseLists:
    """The phrase lists, loaded and validated once; an empty phrase is refused (it would
    match everything)."""
    loaded = load_profile_asset("phrases-1.yaml", PhraseLists)
    for name, phrases in loaded.lists.items():
        if not phrases or any(not p.strip() for p in phrases):
            raise ValueError(f"phrase list {name} holds an empty phrase")
    return loaded


@functools.cache
def extension() -> Extension:
    """The registry extension, loaded and validated once."""
    return load_profile_asset("registry-ext-1.yaml", Extension)


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


# Registry v1 primitives a reading may call with literal arguments: the text primitives whose
# arguments need no injection manifest (factor_identified reads a Form B deviation).
V1_IN_READINGS: Final = ("named_in_output", "within_step_budget")


def check_extension_call(call: Call) -> list[str]:
    """Problems with one call in a reading: an extension primitive, or a v1 primitive of
    `V1_IN_READINGS`, with literal arguments only."""
    if call.call in V1_IN_READINGS:
        return [message for _, message in check_call(call, registry(), None)]
    primitive = extension().primitives.get(call.call)
    if primitive is None:
        known = ", ".join([*V1_IN_READINGS, *sorted(extension().primitives)])
        return [f"{call.call!r} is not a registered primitive ({known})"]
    names = frozenset(
        [
            *phrase_lists().lists,
            *(f"{SYNONYMS}{kind}" for kind in constants().synonym_lists.lists),
        ]
    )
    problems: list[str] = []
    for name in call.args:
        if name not in primitive.params:
            problems.append(f"{call.call} has no parameter {name!r}")
    for name, spec in primitive.params.items():
        arg = call.args.get(name)
        if arg is None:
            if spec.required:
                problems.append(f"{call.call} needs parameter {name!r}")
            continue
        if not isinstance(arg, Lit):
            problems.append(f"{call.call}.{name}: a reading takes literal arguments only")
            continue
        problem = value_problem(spec.type, arg.value, names)
        if problem is not None:
            problems.append(f"{call.call}.{name}: {problem}")
    return problems


def arguments(call: Call) -> dict[str, Any]:
    """The call's literal arguments with the primitive's defaults filled in (extension or v1)."""
    if call.call in V1_IN_READINGS:
        defaults = {n: p.default for n, p in registry().primitives[call.call].params.items()}
    else:
        defaults = {n: p.default for n, p in extension().primitives[call.call].params.items()}
    out: dict[str, Any] = dict(defaults)
    for name, arg in call.args.items():
        assert isinstance(arg, Lit)
        out[name] = arg.value
    return out


__all__ = [
    "CHANNELS",
    "DELTAS",
    "OUTCOMES",
    "V1_IN_READINGS",
    "Extension",
    "ExtensionParam",
    "ExtensionPrimitive",
    "ParamType",
    "PhraseLists",
    "arguments",
    "check_extension_call",
    "extension",
    "phrase_lists",
    "phrases_named",
    "value_problem",
]
