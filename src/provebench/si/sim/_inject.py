"""From a scenario to estates: the healthy baseline, the injected state, and their delta (SI §5.1).

The healthy estate is ``preconditions.environment.state`` with each entry of the *structured*
``injection.baseline`` (a list of resource entries in the same shape) replacing its resource: the
baseline names the touched resources as they are when healthy. Applying ``injection.deviations``
to it yields the injected estate, which must be exactly the declared state — so the state an agent
investigates and the answer key cannot drift apart. Restoring undoes every deviation.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any, Final

from pydantic import JsonValue

from provebench._errors import ProvebenchError
from provebench.evidence import StateChange
from provebench.si.primitives._secret_data import canonical, data_problem
from provebench.si.scenario._scenario import Deviation, Scenario
from provebench.si.sim._agent_config import agent_configuration
from provebench.si.sim._estate import (
    Estate,
    parse_key,
    resource_key,
    selector_of,
    split_resource,
)


class _Absent:
    def __repr__(self) -> str:
        return "ABSENT"


ABSENT: Final = _Absent()
STATE_FIELD = "preconditions.environment.state"
BASELINE_FIELD = "injection.baseline"
DEVIATION_TYPES = (
    "absent_key",
    "wrong_value",
    "extra_key",
    "stopped_dependency",
    "load_change",
    "wedged_process",
)
# Extra fields a deviation may carry for the simulator (besides id/resource/deviation_type/subject).
# `misleading: true` marks a misleading signal (C-DA-003): a real deviation an operator sees,
# whose restoration must leave the symptom (`si check` proves it, SI §5.1's counterfactual rule).
_DEVIATION_EXTRAS = frozenset({"value", "namespace", "description", "misleading"})


@dataclass(frozen=True)
class AppliedDeviation:
    """One deviation as applied: where it changed the estate and what was there before."""

    deviation_id: str
    key: str
    path: tuple[str, ...]
    before: Any
    after: Any


@dataclass(frozen=True)
class Scene:
    """What the simulator builds from one scenario."""

    healthy: Estate | None
    injected: Estate
    applied: tuple[AppliedDeviation, ...]


def _deviation_field(index: int, name: str) -> str:
    return f"injection.deviations[{index}].{name}"


def _find(estate: Estate, deviation: Deviation, index: int) -> str:
    kind, name = split_resource(deviation.resource, field=_deviation_field(index, "resource"))
    namespace = (deviation.model_extra or {}).get("namespace")
    if namespace is not None:
        key = resource_key(kind, str(namespace), name)
        if key not in estate:
            raise ProvebenchError(
                f"{deviation.resource} in namespace {namespace} is not in the baseline",
                field=_deviation_field(index, "resource"),
            )
        return key
    found = [key for key in estate.keys(kind) if parse_key(key)[2] == name]
    if not found:
        raise ProvebenchError(
            f"{deviation.resource} is not in the baseline (injection.baseline overlaid on "
            f"{STATE_FIELD})",
            field=_deviation_field(index, "resource"),
        )
    if len(found) > 1:
        raise ProvebenchError(
            f"{deviation.resource} exists in several namespaces; add `namespace`",
            field=_deviation_field(index, "resource"),
        )
    return found[0]


def _value(deviation: Deviation, index: int) -> str:
    value = (deviation.model_extra or {}).get("value")
    if not isinstance(value, str):
        raise ProvebenchError(
            f"a {deviation.deviation_type} deviation needs `value` (a string)",
            field=_deviation_field(index, "value"),
        )
    return value


def _check_extras(deviation: Deviation, index: int) -> None:
    extras = deviation.model_extra or {}
    for name in sorted(set(extras) - _DEVIATION_EXTRAS):
        raise ProvebenchError(
            f"unknown deviation field {name!r} (allowed: {', '.join(sorted(_DEVIATION_EXTRAS))})",
            field=_deviation_field(index, name),
        )
    if not isinstance(extras.get("misleading", False), bool):
        raise ProvebenchError("must be true or false", field=_deviation_field(index, "misleading"))


def is_misleading(deviation: Deviation) -> bool:
    """Whether the manifest marks this deviation as a misleading signal (not a cause)."""
    return (deviation.model_extra or {}).get("misleading") is True


def _data_change(
    data: dict[str, dict[str, Any]], key: str, deviation: Deviation, index: int
) -> AppliedDeviation:
    kind = parse_key(key)[0]
    if kind not in ("configmap", "secret"):
        raise ProvebenchError(
            f"a {deviation.deviation_type} deviation applies to a configmap or a secret, "
            f"not a {kind}",
            field=_deviation_field(index, "resource"),
        )
    values: dict[str, str] = data[key].setdefault("data", {})
    subject = deviation.subject
    before: Any = values.get(subject, ABSENT)
    kind_name = deviation.deviation_type
    if kind_name in ("absent_key", "wrong_value") and before is ABSENT:
        raise ProvebenchError(
            f"{deviation.resource} has no key {subject!r} in the baseline",
            field=_deviation_field(index, "subject"),
        )
    if kind_name == "extra_key" and before is not ABSENT:
        raise ProvebenchError(
            f"{deviation.resource} already has key {subject!r} in the baseline; extra_key adds "
            "a key the baseline lacks",
            field=_deviation_field(index, "subject"),
        )
    after: Any = ABSENT if kind_name == "absent_key" else _value(deviation, index)
    if kind == "secret" and after is not ABSENT:
        # a Secret's data value is base64, as the scenario declares it and Kubernetes holds it
        # (`primitives._secret_data`)
        why = data_problem(after)
        if why is not None:
            raise ProvebenchError(why, field=_deviation_field(index, "value"))
        after = canonical(after)
    if after == before:
        raise ProvebenchError(
            f"the deviation changes nothing: {subject} is already {before!r} in the baseline",
            field=_deviation_field(index, "value"),
        )
    if after is ABSENT:
        del values[subject]
    else:
        values[subject] = after
    return AppliedDeviation(deviation.id, key, ("data", subject), before, after)


def _stop(
    data: dict[str, dict[str, Any]], key: str, deviation: Deviation, index: int
) -> AppliedDeviation:
    kind, namespace, name = parse_key(key)
    if kind != "deployment":
        raise ProvebenchError(
            f"a stopped_dependency deviation applies to a deployment, not a {kind}",
            field=_deviation_field(index, "resource"),
        )
    labels = data[key].get("labels") or {"app": name}
    services = [
        parse_key(svc)[2]
        for svc in Estate(data).keys("service")
        if parse_key(svc)[1] == namespace
        and selector_of(Estate(data).service(svc), parse_key(svc)[2]).items() <= labels.items()
    ]
    if deviation.subject not in (name, *services):
        raise ProvebenchError(
            f"subject {deviation.subject!r} names neither deployment {name} nor a service "
            f"backed by it ({', '.join(services) or 'none'})",
            field=_deviation_field(index, "subject"),
        )
    before = data[key].get("replicas", 1)
    if before == 0:
        raise ProvebenchError(
            f"the deviation changes nothing: {deviation.resource} already has 0 replicas",
            field=_deviation_field(index, "resource"),
        )
    data[key]["replicas"] = 0
    return AppliedDeviation(deviation.id, key, ("replicas",), before, 0)


def _deployment_change(
    data: dict[str, dict[str, Any]], key: str, deviation: Deviation, index: int
) -> AppliedDeviation:
    """``load_change`` (the offered load becomes ``value`` req/s, R5) and ``wedged_process``
    (the current pods' processes wedge, R7): runtime facts of a deployment, named by it."""
    kind, _, name = parse_key(key)
    kind_name = deviation.deviation_type
    if kind != "deployment":
        raise ProvebenchError(
            f"a {kind_name} deviation applies to a deployment, not a {kind}",
            field=_deviation_field(index, "resource"),
        )
    if deviation.subject != name:
        raise ProvebenchError(
            f"subject {deviation.subject!r} must name the deployment ({name})",
            field=_deviation_field(index, "subject"),
        )
    field_name = "load_rps" if kind_name == "load_change" else "wedged"
    before: Any = data[key].get(field_name, ABSENT)
    if kind_name == "load_change":
        text = _value(deviation, index)
        if not text.isdigit():
            raise ProvebenchError(
                "a load_change value is the offered load in requests per second, digits only",
                field=_deviation_field(index, "value"),
            )
        after: Any = int(text)
        if before is ABSENT:
            raise ProvebenchError(
                f"{deviation.resource} declares no load_rps in the baseline to change",
                field=_deviation_field(index, "resource"),
            )
    else:
        after = True
    if after == before:
        raise ProvebenchError(
            f"the deviation changes nothing: {field_name} is already {before!r} in the baseline",
            field=_deviation_field(index, "value" if kind_name == "load_change" else "resource"),
        )
    data[key][field_name] = after
    return AppliedDeviation(deviation.id, key, (field_name,), before, after)


def apply_deviations(
    healthy: Estate, deviations: list[Deviation]
) -> tuple[Estate, tuple[AppliedDeviation, ...]]:
    """The injected estate and what each deviation changed; bad deviations name their field."""
    data = healthy.copy_data()
    applied: list[AppliedDeviation] = []
    for index, deviation in enumerate(deviations):
        _check_extras(deviation, index)
        if deviation.deviation_type not in DEVIATION_TYPES:
            raise ProvebenchError(
                f"deviation_type {deviation.deviation_type!r} is not simulated "
                f"(simulated: {', '.join(DEVIATION_TYPES)})",
                field=_deviation_field(index, "deviation_type"),
            )
        key = _find(Estate(data), deviation, index)
        if deviation.deviation_type == "stopped_dependency":
            applied.append(_stop(data, key, deviation, index))
        elif deviation.deviation_type in ("load_change", "wedged_process"):
            applied.append(_deployment_change(data, key, deviation, index))
        else:
            applied.append(_data_change(data, key, deviation, index))
    return healthy.with_resources(data), tuple(applied)


def restore(injected: Estate, applied: tuple[AppliedDeviation, ...]) -> Estate:
    """Undo every applied deviation, last first (the counterfactual of SI §5.1)."""
    data = injected.copy_data()
    for change in reversed(applied):
        holder: dict[str, Any] = data[change.key]
        for part in change.path[:-1]:
            holder = holder.setdefault(part, {})
        if change.before is ABSENT:
            holder.pop(change.path[-1], None)
        else:
            holder[change.path[-1]] = copy.deepcopy(change.before)
    return injected.with_resources(data)


def _diff(path: str, before: Any, after: Any, out: list[StateChange]) -> None:
    if isinstance(before, dict) and isinstance(after, dict):
        for name in sorted(set(before) | set(after)):
            here = f"{path}.{name}"
            if name not in after:
                out.append(StateChange(path=here, op="remove", before=_json(before[name])))
            elif name not in before:
                out.append(StateChange(path=here, op="add", after=_json(after[name])))
            else:
                _diff(here, before[name], after[name], out)
    elif before != after:
        out.append(StateChange(path=path, op="replace", before=_json(before), after=_json(after)))


def _json(value: Any) -> JsonValue:
    return copy.deepcopy(value)  # type: ignore[no-any-return]


def delta(before: Estate, after: Estate) -> list[StateChange]:
    """Every changed value between two estates, addressed ``KIND/NS/NAME.field.…``."""
    out: list[StateChange] = []
    left, right = before.data(), after.data()
    for key in sorted(set(left) | set(right)):
        if key not in right:
            out.append(StateChange(path=key, op="remove", before=_json(left[key])))
        elif key not in left:
            out.append(StateChange(path=key, op="add", after=_json(right[key])))
        else:
            _diff(key, left[key], right[key], out)
    return out


def declared_state(scenario: Scenario, field: str = STATE_FIELD) -> Estate:
    """The declared state with the agent's own configuration (`agent_configuration`, the
    builder the declared estate shares) beside it, less any object the scenario declares: so
    an assertion that the agent left its configuration unchanged has that object to check.
    A bad entry names ``field`` (the provider's request names its own)."""
    state = Estate.from_entries(scenario.preconditions.environment.state, field=field)
    agent = scenario.preconditions.agent
    own = Estate.from_entries(
        agent_configuration(agent.scope or {}, agent.mode), field="agent configuration"
    )
    return state.with_resources({**own.copy_data(), **state.copy_data()})


def build_scene(scenario: Scenario) -> Scene:
    """The healthy and injected estates of a scenario; the injected one is checked to be the
    declared state. Without an injection manifest the declared state is all there is."""
    state = declared_state(scenario)
    injection = scenario.injection
    if injection is None:
        return Scene(healthy=None, injected=state, applied=())
    if not isinstance(injection.baseline, list):
        raise ProvebenchError(
            "the baseline is prose and cannot be simulated; write it as a list of resource "
            f"entries in the shape of {STATE_FIELD} (see docs/si-lab.md)",
            field=BASELINE_FIELD,
        )
    healthy = state.overlaid(injection.baseline, field=BASELINE_FIELD)
    injected, applied = apply_deviations(healthy, injection.deviations)
    mismatch = delta(state, injected)
    if mismatch:
        first = mismatch[0]
        raise ProvebenchError(
            f"baseline + deviations give {first.path} = {_shown(first.after, first.op, 'add')} "
            f"but the declared state has {_shown(first.before, first.op, 'remove')} "
            f"({len(mismatch)} difference(s))",
            field=STATE_FIELD,
        )
    return Scene(healthy=healthy, injected=injected, applied=applied)


def _shown(value: JsonValue, op: str, absent_when_not: str) -> str:
    if op not in (absent_when_not, "replace"):
        return "nothing"
    return repr(value)


__all__ = [
    "ABSENT",
    "BASELINE_FIELD",
    "DEVIATION_TYPES",
    "STATE_FIELD",
    "AppliedDeviation",
    "Scene",
    "apply_deviations",
    "build_scene",
    "declared_state",
    "delta",
    "is_misleading",
    "restore",
]
