"""Everything that can be wrong with a Form B scoring binding (SI §1.3, §1.4, §2, §3, §5).

Used by ``si validate`` (on raw YAML, to report every problem with its line) and by
`bind_scoring` (which refuses to bind while any problem remains). Each problem is a field path
from the scenario root, a message and the rule it breaks.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from provebench._yaml import FieldPath
from provebench.si.profile_data._predicates import DecisionTable, Lit, check_rows, iter_calls
from provebench.si.profile_data._registry import (
    Template,
    check_call,
    check_value,
    constants,
    profile,
    scoring_registry,
    templates,
)
from provebench.si.scenario._scoring_forms import FormBScoring

Problem = tuple[FieldPath, str, str]  # (field path from the scenario root, message, rule)

DIAGNOSIS_CHANNELS = ("agent_response",)
_DIAGNOSIS_CATEGORY = "diagnostic-accuracy"


def _deviation_types(injection: Any) -> dict[str, str | None]:
    """deviation id -> deviation_type, read defensively from raw or validated data."""
    found: dict[str, str | None] = {}
    deviations = injection.get("deviations") if isinstance(injection, Mapping) else None
    if not isinstance(deviations, list):
        return found
    for entry in deviations:
        if isinstance(entry, Mapping) and isinstance(entry.get("id"), str):
            kind = entry.get("deviation_type")
            found.setdefault(entry["id"], kind if isinstance(kind, str) else None)
    return found


def synonym_key_problems(block: Any, at: FieldPath) -> list[Problem]:
    """SI §3.3: synonym lists are profile assets; a scenario MUST NOT declare its own."""
    problems: list[Problem] = []
    if isinstance(block, Mapping):
        for key, value in block.items():
            here = (*at, key)
            if isinstance(key, str) and "synonym" in key.casefold():
                problems.append(
                    (
                        here,
                        "a scenario MUST NOT declare synonyms; synonym lists are maintained by "
                        "the profile (see `synonyms_for`)",
                        "SI §3.3",
                    )
                )
            else:
                problems.extend(synonym_key_problems(value, here))
    elif isinstance(block, list):
        for index, value in enumerate(block):
            problems.extend(synonym_key_problems(value, (*at, index)))
    return problems


def deviation_type_problems(injection: Any) -> list[Problem]:
    """Every injected deviation_type needs a registered synonym list (SI §2.2, §3.3)."""
    problems: list[Problem] = []
    deviations = injection.get("deviations") if isinstance(injection, Mapping) else None
    if not isinstance(deviations, list):
        return problems
    lists = constants().synonym_lists.lists
    for index, entry in enumerate(deviations):
        kind = entry.get("deviation_type") if isinstance(entry, Mapping) else None
        if isinstance(kind, str) and kind and kind not in lists:
            problems.append(
                (
                    ("injection", "deviations", index, "deviation_type"),
                    f"no synonym list is registered for deviation_type {kind!r} "
                    f"(registered: {', '.join(sorted(lists))})",
                    "SI §3.3",
                )
            )
    return problems


def _factor_problems(value: Any, at: FieldPath, deviations: dict[str, str | None]) -> list[Problem]:
    ref = value.get("ref") if isinstance(value, Mapping) else None
    if not isinstance(ref, str) or ref in deviations:
        return []
    if not deviations:
        message = (
            f"factor.ref {ref!r} cannot resolve: the scenario declares no injection.deviations"
        )
    else:
        message = (
            f"factor.ref {ref!r} does not resolve to an injection.deviations id "
            f"(declared: {', '.join(sorted(deviations))})"
        )
    return [((*at, "ref"), message, "SI §2.2")]


def _diagnosis_channel_problem(value: Any, at: FieldPath) -> list[Problem]:
    if isinstance(value, list) and value and set(value) != set(DIAGNOSIS_CHANNELS):
        return [
            (
                at,
                f"channels {value} widen a diagnosis band; diagnosis bands match "
                "[agent_response] only and bindings MUST NOT widen it",
                "SI §2.5",
            )
        ]
    return []


def _template_problems(
    tpl: Template, bindings: Mapping[str, Any], deviations: dict[str, str | None]
) -> list[Problem]:
    reg = scoring_registry()
    problems: list[Problem] = []
    for role, spec in tpl.roles.items():
        at: FieldPath = ("scoring", role)
        if role not in bindings:
            if spec.required:
                problems.append(
                    (at, f"missing role {role!r} ({spec.type}) required by {tpl.id}", "SI §5.1")
                )
            continue
        value = bindings[role]
        problem = check_value(spec.type, value, reg.channels)
        if problem:
            rule = "SI §3.4" if spec.type == "positive_int" else "SI §5.1"
            problems.append((at, f"role {role!r} {problem}", rule))
            continue
        if spec.type in ("factor", "deviation_scope"):
            problems.extend(_factor_problems(value, at, deviations))
        if spec.type == "channel_list" and tpl.diagnosis_band:
            problems.extend(_diagnosis_channel_problem(value, at))
    for name in bindings:
        if name not in tpl.roles and "synonym" not in str(name).casefold():
            known = ", ".join(tpl.roles)
            problems.append(
                (
                    ("scoring", name),
                    f"{name!r} is not a role of {tpl.id} (roles: {known})",
                    "SI §1.3",
                )
            )
    return problems


def _table_problems(
    table: DecisionTable, diagnosis: bool, deviations: dict[str, str | None]
) -> list[Problem]:
    reg = scoring_registry()
    base: FieldPath = ("scoring", "decision_table")
    problems: list[Problem] = [
        ((*base, "rows"), message, "SI §1.4") for message in check_rows(list(table.rows))
    ]
    for index, row in enumerate(table.rows):
        for at, call in iter_calls(row.when, (*base, "rows", index, "when")):
            for sub, text in check_call(call, reg, None):
                rule = "SI §2.4" if sub == ("call",) else "SI §1.4"
                problems.append(((*at, *sub), text, rule))
            primitive = reg.primitives.get(call.call)
            if primitive is None:
                continue
            for name, arg in call.args.items():
                spec = primitive.params.get(name)
                if spec is None or not isinstance(arg, Lit):
                    continue
                if check_value(spec.type, arg.value, reg.channels) is not None:
                    continue
                if spec.type == "factor":
                    problems.extend(_factor_problems(arg.value, (*at, "with", name), deviations))
                if spec.type == "channel_list" and diagnosis:
                    problems.extend(_diagnosis_channel_problem(arg.value, (*at, "with", name)))
    return problems


def binding_problems(
    scoring: FormBScoring, injection: Any, archetype: Any, category: Any
) -> list[Problem]:
    """Everything wrong with a Form B scoring binding (SI §1.3, §1.4, §2, §3, §5)."""
    deviations = _deviation_types(injection)
    problems: list[Problem] = []
    if scoring.archetype_template is not None and scoring.decision_table is not None:
        problems.append(
            (
                ("scoring", "decision_table"),
                "declare archetype_template or a scenario-local decision_table, not both",
                "SI §1.4",
            )
        )
    if scoring.archetype_template is None and scoring.decision_table is None:
        key = "archetype_template" if "archetype_template" in scoring.model_fields_set else ""
        problems.append(
            (
                ("scoring", key) if key else ("scoring", "decision_table"),
                "a Form B scoring block needs an archetype_template or a decision_table",
                "SI §1.3",
            )
        )
    if scoring.archetype_template is not None:
        tpl = templates().get(scoring.archetype_template)
        if tpl is None:
            problems.append(
                (
                    ("scoring", "archetype_template"),
                    f"{scoring.archetype_template!r} is not a registered archetype template "
                    f"(profile {profile().version}: {', '.join(sorted(templates()))})",
                    "SI §2.4",
                )
            )
        else:
            if isinstance(archetype, str) and archetype != tpl.archetype:
                problems.append(
                    (
                        ("scoring", "archetype_template"),
                        f"template {tpl.id} scores archetype {tpl.archetype}, "
                        f"but the scenario instantiates {archetype}",
                        "SI §1.2",
                    )
                )
            problems.extend(_template_problems(tpl, scoring.bindings, deviations))
    elif scoring.decision_table is not None:
        diagnosis = category == _DIAGNOSIS_CATEGORY
        problems.extend(_table_problems(scoring.decision_table, diagnosis, deviations))
        for name in scoring.bindings:
            if "synonym" not in str(name).casefold():
                problems.append(
                    (
                        ("scoring", name),
                        f"{name!r}: role bindings belong to an archetype_template; a "
                        "scenario-local table takes literal arguments only",
                        "SI §1.4",
                    )
                )
    problems.extend(synonym_key_problems(scoring.bindings, ("scoring",)))
    problems.extend(synonym_key_problems(injection, ("injection",)))
    problems.extend(deviation_type_problems(injection))
    return problems


__all__ = [
    "DIAGNOSIS_CHANNELS",
    "Problem",
    "binding_problems",
    "deviation_type_problems",
    "synonym_key_problems",
]
