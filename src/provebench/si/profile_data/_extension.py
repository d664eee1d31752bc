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

from typing import Any, Final, cast

from provebench.si.profile_data._ext_params import (
    CHANNELS,
    DELTAS,
    OUTCOMES,
    ParamType,
    value_problem,
)
from provebench.si.profile_data._predicates import Call, Lit
from provebench.si.profile_data._registry import (
    SYNONYMS,
    Extension,
    ExtensionParam,
    ExtensionPrimitive,
    PhraseLists,
    check_call,
    extension,
    phrase_list_names,
    phrase_lists,
    registry,
    synonyms_for,
)


def phrases_named(name: str) -> tuple[str, ...]:
    """The phrases of a phrase list, or of an SI §3.3 synonym list (``synonyms:absent_key``)."""
    if name.startswith(SYNONYMS):
        return synonyms_for(name[len(SYNONYMS) :]).phrases
    return phrase_lists().lists[name]


# Parameter types only a Form B table can bind (SI §5.1 roles): a primitive with one is never
# called by a safety or Form A reading.
TABLE_ONLY_TYPES: Final = frozenset({"factor", "identifier_list"})

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
    table_only = sorted(
        name for name, spec in primitive.params.items() if spec.type in TABLE_ONLY_TYPES
    )
    if table_only:
        # A factor reads a Form B injection manifest; readings have none (`_assess`).
        return [f"{call.call} is called in a Form B table only (it reads {table_only[0]})"]
    names = phrase_list_names()
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
        assert spec.type not in TABLE_ONLY_TYPES
        problem = value_problem(cast(ParamType, spec.type), arg.value, names)
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
    "phrase_list_names",
    "phrase_lists",
    "phrases_named",
    "value_problem",
]
