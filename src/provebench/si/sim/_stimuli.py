"""The stimuli the physical estate places beside the operator's prompts, as the declared estate
places them (`si.sim.declared._session`): the same moment, the same channel, the same text.

- **Injected text** (``environmental_state``, ``tool_output_injection``) aimed at a workload's
  logs (``pod/NAME/logs``, ``deployment/NAME/logs``): the text the declared estate places
  (`injected_text`: the first quoted span of the description, or all of it) is a line of the
  workload's declared ``logs/NAME`` — the deployment a pod's name is prefixed by —, which
  `logs_read` answers before the derived lines. It is data the agent reads in the logs, never
  an instruction to the simulator: nothing reads it but the logs tool. A target of another
  shape (a resource's ``message``) is not placed here: the scenario runs in the declared
  estate (`check_stimuli`).
- **A temporal condition** (``temporal_condition``): its reading (`ReadingBook`, the
  packaged readings of the profile's temporal stimuli) says after which call what changes; after
  that call the estate merges each change into what the scenario declared of the object — a
  declared observation (an alert's ``status``, a node's ``conditions``), or the resource — and
  the environment records the reading's event, as the declared estate does. A change of an
  object the estate does not hold is an error naming the stimulus before any agent runs.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Final

from provebench._errors import ProvebenchError
from provebench.si.profile_data._readings import ReadingBook, Temporal
from provebench.si.scenario._scenario import Scenario
from provebench.si.sim._estate import (
    DEFAULT_NAMESPACE,
    KIND_MODELS,
    Estate,
    parse_key,
    resource_key,
)

# The stimuli placed in the estate's data (the others are the prompt's: `operator_prompt`).
INJECTED: Final = ("environmental_state", "tool_output_injection")
TEMPORAL: Final = "temporal_condition"
_LOG_TARGET = re.compile(r"^(pod|deployment)/([a-z0-9][a-z0-9.-]*)/logs$")
_QUOTED = re.compile(r"[\"“](.+?)[\"”]", re.DOTALL)


def injected_text(description: str) -> str:
    """The text a stimulus places: its first quoted span, or its whole description (the
    declared estate's rule, `si.sim.declared._session.injected_text`)."""
    quoted = _QUOTED.search(description)
    return " ".join((quoted.group(1) if quoted else description).split())


def placed_here(stimulus_type: str, target: str | None) -> bool:
    """Whether the physical estate places a stimulus of this type and target."""
    if stimulus_type in INJECTED:
        return target is not None and _LOG_TARGET.match(target) is not None
    return stimulus_type in ("operator_prompt", TEMPORAL)


def _workload(estate: Estate, namespace: str, kind: str, name: str) -> str | None:
    """The deployment whose logs a target names: itself, or the one a pod's name is prefixed
    by (the longest, as the declared estate attaches the pod); None when none is held."""
    names = [parse_key(key)[2] for key in estate.keys("deployment")]
    held = [n for n in names if resource_key("deployment", namespace, n) in estate]
    if kind == "deployment":
        return name if name in held else None
    owners = [n for n in held if name.startswith(n + "-")]
    return max(owners, key=len) if owners else None


def injection_namespace(scenario: Scenario) -> str:
    """The namespace injected text is placed in: the agent's first namespace by name, else the
    default one (as the declared estate places it)."""
    names = (scenario.preconditions.agent.scope or {}).get("namespaces")
    if isinstance(names, list) and names and all(isinstance(n, str) for n in names):
        return str(sorted(names)[0])
    return DEFAULT_NAMESPACE


def log_injections(scenario: Scenario, estate: Estate, namespace: str) -> list[dict[str, Any]]:
    """The state entry each injected stimulus places, in order: a ``logs/WORKLOAD`` entry of
    ``namespace`` with the stimulus's text as one line (provider-guide §1.4's "logs/* with
    entries"). What the simulator merges into its estate (`place_injections`) and what a runner
    asks a provider's ``/inject-state`` for before the agent's first request — one rule, so the
    agent reads the same line on both paths."""
    entries: list[dict[str, Any]] = []
    for index, stimulus in enumerate(scenario.stimuli):
        if stimulus.type not in INJECTED:
            continue
        field = f"stimuli[{index}]"
        target = stimulus.target or ""
        matched = _LOG_TARGET.match(target)
        if matched is None:
            raise ProvebenchError(
                f"scenario {scenario.id}: the physical estate places injected text in a "
                "workload's logs (KIND/NAME/logs) only",
                field=f"{field}.target",
            )
        workload = _workload(estate, namespace, matched[1], matched[2])
        if workload is None:
            raise ProvebenchError(
                f"scenario {scenario.id}: no deployment in {namespace} owns {target!r}",
                field=f"{field}.target",
            )
        text = injected_text(stimulus.description or stimulus.value or "")
        entries.append({"resource": f"logs/{workload}", "namespace": namespace, "entries": [text]})
    return entries


def place_injections(scenario: Scenario, estate: Estate, namespace: str) -> Estate:
    """``estate`` with the text each injected stimulus places in its target workload's logs."""
    for entry in log_injections(scenario, estate, namespace):
        workload = entry["resource"].partition("/")[2]
        key = resource_key("logs", namespace, workload)
        held = estate.declared(key) or {
            "kind": "logs",
            "name": workload,
            "namespace": namespace,
            "entries": [],
        }
        held["entries"] = [*held.get("entries", []), *entry["entries"]]
        estate = estate.with_declared(key, held)
    return estate


def temporal_stimuli(
    scenario: Scenario, estate: Estate, readings: ReadingBook
) -> list[tuple[int, Temporal]]:
    """Each temporal stimulus with its reading, every change it makes checked against the
    estate (an object it does not hold is an error naming the stimulus)."""
    found: list[tuple[int, Temporal]] = []
    for index, stimulus in enumerate(scenario.stimuli):
        if stimulus.type != TEMPORAL:
            continue
        field = f"stimuli[{index}]"
        reading = readings.find(scenario.id, field, stimulus.description or "")
        if reading.temporal is None:
            raise ProvebenchError(
                f"scenario {scenario.id}: the reading of a temporal stimulus needs `temporal`",
                field=field,
            )
        for change in reading.temporal.changes:
            if _changed_key(estate, change.resource, change.namespace) is None:
                raise ProvebenchError(
                    f"scenario {scenario.id}: the temporal change names {change.resource}, "
                    "which the estate does not hold",
                    field=field,
                )
        found.append((index, reading.temporal))
    return found


def _changed_key(estate: Estate, resource: str, namespace: str | None) -> str | None:
    kind, _, name = resource.partition("/")
    key = resource_key(kind, namespace or DEFAULT_NAMESPACE, name)
    return key if key in estate or estate.declared(key) is not None else None


def _merged(target: Any, patch: Any) -> Any:
    """RFC 7396 JSON merge patch (the declared estate's `merge_patch`)."""
    if not isinstance(patch, Mapping):
        return patch
    result = dict(target) if isinstance(target, Mapping) else {}
    for key, value in patch.items():
        if value is None:
            result.pop(key, None)
        else:
            result[key] = _merged(result.get(key), value)
    return result


def apply_temporal(estate: Estate, temporal: Temporal) -> Estate:
    """The estate after a temporal stimulus's changes, each a merge patch: of the resource for
    a field of its kind's model, of what the scenario declared observed of the object for any
    other (an alert's ``status``, a node's ``conditions``). An environment's change, not the
    agent's write: no declared observation ends (`Estate.written` is the agent's)."""
    for change in temporal.changes:
        key = _changed_key(estate, change.resource, change.namespace)
        if key is None:  # checked when the session started (`temporal_stimuli`)
            raise ProvebenchError(f"the temporal change names {change.resource}, not held")
        kind = parse_key(key)[0]
        model = KIND_MODELS.get(kind)
        spec = set(model.model_fields) if model is not None and key in estate else set()
        own = {k: v for k, v in change.patch.items() if k in spec}
        observed = {k: v for k, v in change.patch.items() if k not in spec}
        if observed:
            held = estate.declared(key) or {"kind": kind, "name": parse_key(key)[2]}
            estate = estate.with_declared(key, _merged(held, observed))
        if own and model is not None:
            data = estate.copy_data()
            data[key] = _merged(data[key], own)
            model.model_validate(data[key])  # a reading's change is the estate's own data
            estate = estate.with_resources(data)
    return estate


__all__ = [
    "INJECTED",
    "TEMPORAL",
    "apply_temporal",
    "injected_text",
    "injection_namespace",
    "log_injections",
    "place_injections",
    "placed_here",
    "temporal_stimuli",
]
