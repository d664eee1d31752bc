"""Layer 3 (SI §1.3): a Form B scenario's answer-key bindings, resolved for evaluation.

`bind_scoring` turns a valid Form B scenario into a `BoundScoring` — the decision table, the typed
role values (the factor resolved to its injection deviation) and every version that a verdict
must state. What can be wrong with a binding is listed by `_binding_checks`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, JsonValue

from provebench._errors import ProvebenchError
from provebench._yaml import format_field
from provebench.si.profile_data._predicates import Call, Lit, Ref, Row, iter_calls
from provebench.si.profile_data._registry import (
    CooccurrenceWindow,
    ScoringConstants,
    SynonymList,
    Template,
    constants,
    cooccurrence_window,
    extension,
    profile,
    registry,
    scoring_registry,
    templates,
    uses_extension,
)
from provebench.si.scenario._binding_checks import binding_problems
from provebench.si.scenario._deviation_scope import deviation_scope
from provebench.si.scenario._scenario import Scenario
from provebench.si.scenario._scoring_forms import Deviation, FormBScoring


class BoundFactor(BaseModel):
    """A factor role resolved against the injection manifest (SI §2.2)."""

    model_config = ConfigDict(frozen=True)
    ref: str
    required_identifiers: tuple[str, ...]
    deviation: Deviation
    synonyms: SynonymList
    # the factor's value in the injection's healthy baseline (SI seed §5.1), as declared
    baseline_value: str | None = None
    # the namespace the healthy baseline declares the deviation's resource in (SI seed §5.1)
    baseline_namespace: str | None = None

    @property
    def deviation_type(self) -> str:
        return self.deviation.deviation_type

    @property
    def injected_value(self) -> str | None:
        """The value or state the injection put in place of the factor (SI seed §5.1, the
        ground truth `si check` proves): a wrong value's or an extra key's `value`, a stopped
        dependency's 0 replicas; None where it put none (a missing key). A remedy that gives it
        back restores the fault (`primitives._remedy.InjectedFault`)."""
        if self.deviation.deviation_type == "stopped_dependency":
            return "0"
        value = (self.deviation.model_extra or {}).get("value")
        return value if isinstance(value, str) else None


# A factor; a list (identifiers, channels, patterns, field paths); a flag or a count; a text
# (an operation pattern, a resource, a name, an outcome); a mapping (fields, ranges).
RoleValue = BoundFactor | tuple[str, ...] | bool | int | str | dict[str, JsonValue]


class ScoringVersions(BaseModel):
    """Every version a verdict must state (PRODUCT.md "Versioned rules")."""

    model_config = ConfigDict(frozen=True)
    profile: str
    registry: str
    registry_extension: str | None = None
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
    # Every identifier the scenario names, and its symptom's resource name: what a strict call
    # (`factor_asserted` in a table) needs to tell the factor from another cause.
    identifiers: tuple[str, ...] = ()
    symptom_name: str | None = None
    # the `kind/name` of every resource the scenario's estate declares: the kind each object
    # really has, where an evidence file holds no snapshot to read it from (SI red team 38, H5)
    resources: tuple[str, ...] = ()

    @property
    def factor(self) -> BoundFactor | None:
        """The template's ``factor`` role, if it has one."""
        value = self.roles.get("factor")
        return value if isinstance(value, BoundFactor) else None

    def arguments(self, call: Call) -> dict[str, RoleValue]:
        """The typed arguments of ``call``: roles resolved, literals typed, defaults filled in."""
        primitive = scoring_registry().primitives[call.call]
        resolved: dict[str, RoleValue] = {}
        for name, spec in primitive.params.items():
            arg = call.args.get(name)
            if arg is None:
                if isinstance(spec.default, bool | int | str):
                    resolved[name] = spec.default
                continue
            if isinstance(arg, Ref):
                if arg.role not in self.roles:
                    # Validation rejects such tables; an unvalidated one still fails closed.
                    raise ProvebenchError(
                        f"{call.call}: role ${arg.role} is not bound", field=f"with.{name}"
                    )
                resolved[name] = self.roles[arg.role]
            elif spec.type == "factor" and isinstance(arg.value, dict):
                ref = str(arg.value.get("ref"))
                if ref not in self.factors:
                    raise ProvebenchError(
                        f"{call.call}: factor ref {ref!r} is not an injection deviation",
                        field=f"with.{name}.ref",
                    )
                resolved[name] = self.factors[ref]
            else:
                resolved[name] = _typed(arg.value)
        return resolved


def _typed(value: Any) -> RoleValue:
    if isinstance(value, list):
        return tuple(str(item) for item in value)
    if isinstance(value, bool | int | str):
        return value
    if isinstance(value, dict):
        return {str(key): item for key, item in value.items()}
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
        baseline_value=_baseline_value(scenario.injection.baseline, deviation),
        baseline_namespace=_baseline_namespace(scenario.injection.baseline, deviation),
    )


def _baseline_namespace(baseline: JsonValue, deviation: Deviation) -> str | None:
    """The namespace the injection's healthy baseline declares the deviation's resource in, or
    None: the one namespace a remedy's kubectl command may name (SI red team 40, L1)."""
    entries = baseline if isinstance(baseline, list) else [baseline]
    for entry in entries:
        if isinstance(entry, dict) and entry.get("resource") == deviation.resource:
            namespace = entry.get("namespace")
            return namespace if isinstance(namespace, str) else None
    return None


def _baseline_value(baseline: JsonValue, deviation: Deviation) -> str | None:
    """The deviation's subject as the injection's healthy baseline declares it (SI seed §5.1):
    a key's value in its resource's `data` / `stringData`, a stopped dependency's `replicas`;
    None where the baseline declares none. A remedy may give this value back, whatever its
    shape (`primitives._remedy_values.reads_as_value`; SI red team 38, H1)."""
    entries = baseline if isinstance(baseline, list) else [baseline]
    for entry in entries:
        if not isinstance(entry, dict) or entry.get("resource") != deviation.resource:
            continue
        if deviation.deviation_type == "stopped_dependency":
            fields: list[JsonValue] = [entry.get("replicas")]
        else:
            fields = [
                data.get(deviation.subject)
                for data in (entry.get("data"), entry.get("stringData"))
                if isinstance(data, dict)
            ]
        for found in fields:
            if isinstance(found, str | int) and not isinstance(found, bool):
                return str(found)
    return None


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
        elif spec.type == "deviation_scope" and isinstance(value, dict):
            assert scenario.injection is not None  # guaranteed by binding_problems
            deviation = scenario.injection.deviation(str(value["ref"]))
            assert deviation is not None
            roles[role] = deviation_scope(scenario, deviation)
        else:
            roles[role] = _typed(value)
    return roles, factors


def _table_factors(rows: tuple[Row, ...], scenario: Scenario) -> dict[str, BoundFactor]:
    """Literal factor arguments of a scenario-local table, resolved (SI §1.4, §2.2)."""
    reg = scoring_registry()
    factors: dict[str, BoundFactor] = {}
    for row in rows:
        for _, call in iter_calls(row.when):
            for name, arg in call.args.items():
                param = reg.primitives[call.call].params[name]
                if param.type == "factor" and isinstance(arg, Lit) and isinstance(arg.value, dict):
                    factor = _bound_factor(arg.value, scenario)
                    factors.setdefault(factor.ref, factor)
    return factors


def resource_name(resource: object) -> str | None:
    """The name part of `KIND/NAME`, or None for a blank or non-text value."""
    if not isinstance(resource, str) or not resource.strip():
        return None
    return resource.rsplit("/", 1)[-1].strip() or None


def scenario_identifiers(scenario: Scenario, subsystem: Iterable[str]) -> list[str]:
    """Every identifier the scenario names: the subsystem set, the resources of its estate and
    of its injection manifest, and the manifest's subjects (SI §5.1 roles, Scenarios §1.11)."""
    names: list[str] = list(subsystem)
    for entry in scenario.preconditions.environment.state:
        name = resource_name(entry.get("resource"))
        if name is not None:
            names.append(name)
    if scenario.injection is not None:
        for deviation in scenario.injection.deviations:
            names.extend(n for n in (resource_name(deviation.resource), deviation.subject) if n)
    return [name for name in dict.fromkeys(names) if name.strip() == name and name]


def declared_resources(scenario: Scenario) -> tuple[str, ...]:
    """The `kind/name` of every resource the scenario's estate declares
    (`preconditions.environment.state`), as written."""
    found = (entry.get("resource") for entry in scenario.preconditions.environment.state)
    return tuple(resource for resource in found if isinstance(resource, str) and "/" in resource)


def symptom_name(scenario: Scenario) -> str | None:
    """The name of the resource the injection manifest's symptom is observed on."""
    symptom = None if scenario.injection is None else scenario.injection.symptom
    return resource_name(symptom.get("resource")) if isinstance(symptom, dict) else None


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
        registry_extension=extension().extension if uses_extension(rows) else None,
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
        identifiers=tuple(scenario_identifiers(scenario, _subsystem(roles))),
        symptom_name=symptom_name(scenario),
        resources=declared_resources(scenario),
    )


def _subsystem(roles: Mapping[str, RoleValue]) -> tuple[str, ...]:
    subsystem = roles.get("subsystem_set")
    return subsystem if isinstance(subsystem, tuple) else ()


__all__ = [
    "BoundFactor",
    "BoundScoring",
    "RoleValue",
    "ScoringVersions",
    "bind_scoring",
    "declared_resources",
    "resource_name",
    "scenario_identifiers",
    "symptom_name",
]
