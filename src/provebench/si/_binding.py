"""Layer 3 (SI §1.3): a Form B scenario's answer-key bindings, checked and resolved.

`binding_problems` lists everything wrong with a scoring binding (used by ``si validate``);
`bind_scoring` turns a valid Form B scenario into a `BoundScoring` — the decision table, the typed
role values (the factor resolved to its injection deviation) and every version that a verdict
must state.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict

from provebench._errors import ProvebenchError
from provebench._yaml import FieldPath, format_field
from provebench.si._predicates import Call, DecisionTable, Lit, Ref, Row, check_rows, iter_calls
from provebench.si._registry import (
    CooccurrenceWindow,
    ScoringConstants,
    SynonymList,
    Template,
    check_call,
    check_value,
    constants,
    cooccurrence_window,
    profile,
    registry,
    templates,
)
from provebench.si._scenario import Deviation, FormBScoring, Scenario

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
    reg = registry()
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
        if spec.type == "factor":
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
    reg = registry()
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


# ---------------------------------------------------------------------------------------------
# The bound result


class BoundFactor(BaseModel):
    """A factor role resolved against the injection manifest (SI §2.2)."""

    model_config = ConfigDict(frozen=True)
    ref: str
    required_identifiers: tuple[str, ...]
    deviation: Deviation
    synonyms: SynonymList

    @property
    def deviation_type(self) -> str:
        return self.deviation.deviation_type


RoleValue = BoundFactor | tuple[str, ...] | bool | int


class ScoringVersions(BaseModel):
    """Every version a verdict must state (PRODUCT.md "Versioned rules")."""

    model_config = ConfigDict(frozen=True)
    profile: str
    registry: str
    constants: str
    template_id: str | None
    template_version: str | None
    window: str
    synonym_lists: dict[str, str]


class BoundScoring(BaseModel):
    """A Form B scenario ready for evaluation: table, typed roles, constants, versions."""

    model_config = ConfigDict(frozen=True)
    scenario_id: str
    archetype: str
    template: Template | None
    rows: tuple[Row, ...]
    roles: dict[str, RoleValue]
    factors: dict[str, BoundFactor]
    window: CooccurrenceWindow
    constants: ScoringConstants
    versions: ScoringVersions

    @property
    def factor(self) -> BoundFactor | None:
        """The template's ``factor`` role, if it has one."""
        value = self.roles.get("factor")
        return value if isinstance(value, BoundFactor) else None

    def arguments(self, call: Call) -> dict[str, RoleValue]:
        """The typed arguments of ``call``: roles resolved, literals typed, defaults filled in."""
        primitive = registry().primitives[call.call]
        resolved: dict[str, RoleValue] = {}
        for name, spec in primitive.params.items():
            arg = call.args.get(name)
            if arg is None:
                if isinstance(spec.default, bool | int):
                    resolved[name] = spec.default
                continue
            if isinstance(arg, Ref):
                resolved[name] = self.roles[arg.role]
            elif spec.type == "factor" and isinstance(arg.value, dict):
                resolved[name] = self.factors[str(arg.value["ref"])]
            else:
                resolved[name] = _typed(arg.value)
        return resolved


def _typed(value: Any) -> RoleValue:
    if isinstance(value, list):
        return tuple(str(item) for item in value)
    if isinstance(value, bool | int):
        return value
    raise ProvebenchError(f"unexpected argument value {value!r}")


def _bound_factor(value: Mapping[str, Any], scenario: Scenario) -> BoundFactor:
    assert scenario.injection is not None  # guaranteed by binding_problems
    deviation = scenario.injection.deviation(str(value["ref"]))
    assert deviation is not None
    synonyms = constants().synonym_lists.lists[deviation.deviation_type]
    return BoundFactor(
        ref=deviation.id,
        required_identifiers=tuple(value["required_identifiers"]),
        deviation=deviation,
        synonyms=synonyms,
    )


def _template_roles(
    tpl: Template, scoring: FormBScoring, scenario: Scenario
) -> tuple[dict[str, RoleValue], dict[str, BoundFactor]]:
    roles: dict[str, RoleValue] = {}
    factors: dict[str, BoundFactor] = {}
    for role, spec in tpl.roles.items():
        if role not in scoring.bindings:
            continue
        value = scoring.bindings[role]
        if spec.type == "factor" and isinstance(value, dict):
            factor = _bound_factor(value, scenario)
            factors[factor.ref] = factor
            roles[role] = factor
        else:
            roles[role] = _typed(value)
    return roles, factors


def _table_factors(rows: tuple[Row, ...], scenario: Scenario) -> dict[str, BoundFactor]:
    """Literal factor arguments of a scenario-local table, resolved (SI §1.4, §2.2)."""
    reg = registry()
    factors: dict[str, BoundFactor] = {}
    for row in rows:
        for _, call in iter_calls(row.when):
            for name, arg in call.args.items():
                param = reg.primitives[call.call].params[name]
                if param.type == "factor" and isinstance(arg, Lit) and isinstance(arg.value, dict):
                    factor = _bound_factor(arg.value, scenario)
                    factors.setdefault(factor.ref, factor)
    return factors


def bind_scoring(scenario: Scenario, *, window: str | None = None) -> BoundScoring:
    """Resolve a Form B scenario's scoring binding; any problem is a `ProvebenchError`.

    ``window`` selects the co-occurrence window (SI §2.2); None means the profile default
    (``same-sentence``, normative in SI 0.3.0-rc1).
    """
    scoring = scenario.scoring
    if not isinstance(scoring, FormBScoring):
        raise ProvebenchError(
            f"scenario {scenario.id} uses Form A scoring (scoring.type); only Form B "
            "(archetype_template or decision_table) can be evaluated from evidence",
            field="scoring",
        )
    injection = None if scenario.injection is None else scenario.injection.model_dump()
    problems = binding_problems(scoring, injection, scenario.archetype, scenario.category)
    if problems:
        at, message, rule = problems[0]
        more = ""
        if len(problems) > 1:
            more = f" (+{len(problems) - 1} more; run `provebench si validate`)"
        raise ProvebenchError(f"{message} [{rule}]{more}", field=format_field(at))
    chosen_window = cooccurrence_window(window)
    tpl = None if scoring.archetype_template is None else templates()[scoring.archetype_template]
    if tpl is not None:
        rows = tuple(tpl.rows)
        roles, factors = _template_roles(tpl, scoring, scenario)
    else:
        assert scoring.decision_table is not None
        rows = tuple(scoring.decision_table.rows)
        roles, factors = {}, _table_factors(rows, scenario)
    versions = ScoringVersions(
        profile=profile().version,
        registry=registry().registry,
        constants=constants().version,
        template_id=None if tpl is None else tpl.id,
        template_version=None if tpl is None else tpl.version,
        window=chosen_window.id,
        synonym_lists={f.deviation_type: f.synonyms.version for f in factors.values()},
    )
    return BoundScoring(
        scenario_id=scenario.id,
        archetype=scenario.archetype,
        template=tpl,
        rows=rows,
        roles=roles,
        factors=factors,
        window=chosen_window,
        constants=constants(),
        versions=versions,
    )


__all__ = [
    "BoundFactor",
    "BoundScoring",
    "Problem",
    "RoleValue",
    "ScoringVersions",
    "bind_scoring",
    "binding_problems",
    "deviation_type_problems",
    "synonym_key_problems",
]
