"""The counterfactual rule (SI §5.1) for provebench's operation templates (C-OE-002, C-OE-004):
their answer keys are operations and the state those leave, not a diagnosis, so `si check`
proves them by *acting* in the simulator with the very handlers an agent calls.

- C-OE-002 (``operation``, ``target``, ``acceptable``): scaling the target to each replica count
  the tool accepts, the counts that clear the symptom must be exactly the acceptable range — so
  the range is what the load and scheduling models derive (R5, R6), never a free list.
- C-OE-004 (``act_then_verify``, ``target``, ``healthy``): the act restarts the target and clears
  the symptom, leaving the ``healthy`` fields; a restart of any other deployment clears nothing
  and leaves them unmet; the injected state does not hold them (so the table's state check can
  fail); the verification reads the target.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from provebench._errors import ProvebenchError
from provebench.si.scenario._binding import BoundScoring
from provebench.si.sim._derive import observe
from provebench.si.sim._estate import Estate, parse_key
from provebench.si.sim._handlers import perform

# The replica counts `si check` sweeps when it proves a scenario's acceptable range
# (`acceptable_range_derived`, docs/si-lab.md): 0 to 20, each derived in full. A count the
# estate runs beyond them (up to the tools' bound) is never in a scenario's answer key.
_MAX_REPLICAS = 20


def _parts(pattern: object, field: str) -> tuple[str, str, str | None]:
    """``verb kind/name namespace=NS`` → (verb, kind/name, NS or None)."""
    words = pattern.split() if isinstance(pattern, str) else []
    if len(words) < 2:
        raise ProvebenchError("must be `VERB KIND/NAME [namespace=NS]`", field=field)
    namespace = next((w[10:] for w in words[2:] if w.startswith("namespace=")), None)
    return words[0], words[1], namespace


def _holds(actual: Any, wanted: Mapping[str, Any]) -> bool:
    """The ``fields`` comparison of `state_matches` (registry extension): every wanted value,
    nested maps path by path; booleans by identity, numbers by value, the rest as text."""
    for name, value in wanted.items():
        if not isinstance(actual, Mapping) or name not in actual:
            return False
        got = actual[name]
        if isinstance(value, Mapping) and value:
            if not _holds(got, value):
                return False
        elif isinstance(value, bool) or isinstance(got, bool):
            if value is not got:
                return False
        elif isinstance(value, int | float) and isinstance(got, int | float):
            if value != got:
                return False
        elif str(value) != str(got):
            return False
    return True


def _act(estate: Estate, tool: str, arguments: dict[str, Any], namespace: str) -> Estate:
    verb = {"orchestration_scale": "scale", "orchestration_restart": "restart"}[tool]
    handled = perform(observe(estate), tool, verb, {**arguments, "namespace": namespace})
    if handled.response.error is not None:
        raise ProvebenchError(
            f"the simulator refuses {tool} {arguments}: {handled.response.error}",
            field="scoring",
        )
    return handled.changed or estate


def _target(bound: BoundScoring, symptom_key: str) -> tuple[str, str, str]:
    """(deployment name, namespace, failure or "") of the table's target against the symptom."""
    target, namespace = bound.roles.get("target"), bound.roles.get("namespace")
    _, symptom_ns, symptom_name = parse_key(symptom_key)
    wrong = ""
    if target != f"deployment/{symptom_name}" or namespace != symptom_ns:
        wrong = (
            f"the target {target} (namespace {namespace}) is not the symptom's deployment "
            f"deployment/{symptom_name} (namespace {symptom_ns})"
        )
    return symptom_name, symptom_ns, wrong


def replica_range(bound: BoundScoring) -> tuple[int, int]:
    """The ``acceptable: {replicas: [low, high]}`` of a C-OE-002 table, as whole numbers."""
    acceptable = bound.roles.get("acceptable")
    if not isinstance(acceptable, Mapping) or set(acceptable) != {"replicas"}:
        raise ProvebenchError(
            "the simulator derives an acceptable range for `replicas` only",
            field="scoring.acceptable",
        )
    bounds = acceptable["replicas"]
    whole = [
        int(b)
        for b in (bounds if isinstance(bounds, list | tuple) else ())
        if isinstance(b, int | float) and not isinstance(b, bool) and float(b).is_integer()
    ]
    if not isinstance(bounds, list | tuple) or len(whole) != 2 or len(bounds) != 2:
        raise ProvebenchError(
            "replicas must be [low, high] whole numbers", field="scoring.acceptable"
        )
    return whole[0], whole[1]


def is_operation_table(bound: BoundScoring) -> bool:
    """Whether the table's answer key is operations and state (C-OE-002, C-OE-004 roles)."""
    roles = bound.roles
    return ("acceptable" in roles and "operation" in roles) or (
        "act_then_verify" in roles and "healthy" in roles
    )


def operation_checks(
    bound: BoundScoring, injected: Estate, symptom_key: str, condition: str
) -> list[tuple[str, bool, str]]:
    """(check, ok, detail) for a table binding an operation answer key; [] for any other."""
    roles = bound.roles
    if "acceptable" in roles and "operation" in roles:
        return _scaling_checks(bound, injected, symptom_key)
    if "act_then_verify" in roles and "healthy" in roles:
        return _restart_checks(bound, injected, symptom_key, condition)
    return []


def _scaling_checks(
    bound: BoundScoring, injected: Estate, symptom_key: str
) -> list[tuple[str, bool, str]]:
    name, namespace, wrong_target = _target(bound, symptom_key)
    verb, resource, op_ns = _parts(bound.roles["operation"], "scoring.operation")
    acts_on_target = verb == "scale" and resource == f"deployment/{name}" and op_ns == namespace
    low, high = replica_range(bound)
    clears = [
        n
        for n in range(_MAX_REPLICAS + 1)
        if not observe(
            _act(injected, "orchestration_scale", {"name": name, "replicas": n}, namespace)
        ).conditions(symptom_key)
    ]
    wanted = [n for n in range(_MAX_REPLICAS + 1) if low <= n <= high]
    shown = ", ".join(str(n) for n in clears) or "none"
    return [
        (
            "operation_on_target",
            acts_on_target and not wrong_target,
            wrong_target
            or (
                f"`{bound.roles['operation']}` scales the target"
                if acts_on_target
                else f"`{bound.roles['operation']}` does not scale deployment/{name} "
                f"namespace={namespace}"
            ),
        ),
        (
            "acceptable_range_derived",
            clears == wanted,
            f"replica counts that clear the symptom: {shown}; acceptable: {low}..{high}",
        ),
    ]


def _restart_checks(
    bound: BoundScoring, injected: Estate, symptom_key: str, condition: str
) -> list[tuple[str, bool, str]]:
    name, namespace, wrong_target = _target(bound, symptom_key)
    steps = bound.roles["act_then_verify"]
    healthy = bound.roles["healthy"]
    assert isinstance(steps, tuple) and isinstance(healthy, Mapping)
    act = _parts(steps[0], "scoring.act_then_verify[0]")
    verify = _parts(steps[-1], f"scoring.act_then_verify[{len(steps) - 1}]")
    is_restart = act == ("restart", f"deployment/{name}", namespace)
    reads_target = verify[0] == "get" and verify[1:] == (f"deployment/{name}", namespace)

    def restarted(deployment_key: str) -> Estate:
        _, ns, other = parse_key(deployment_key)
        return _act(injected, "orchestration_restart", {"name": other}, ns)

    target_key = f"deployment/{namespace}/{name}"
    after = restarted(target_key)
    left = observe(after).conditions(symptom_key)
    cleared = condition not in left and not left and _holds(after.raw(target_key), healthy)
    kept = []
    for key in injected.keys("deployment"):
        if key == target_key:
            continue
        other = restarted(key)
        if condition not in observe(other).conditions(symptom_key) or _holds(
            other.raw(target_key), healthy
        ):
            kept.append(key)
    others = [k for k in injected.keys("deployment") if k != target_key]
    return [
        (
            "act_restarts_target",
            is_restart and reads_target and not wrong_target,
            wrong_target
            or (
                "the act restarts the target and the verification reads it"
                if is_restart and reads_target
                else f"act_then_verify must restart deployment/{name} namespace={namespace} "
                "and end with a get of it"
            ),
        ),
        (
            "act_clears_symptom",
            cleared,
            f"after a restart of deployment/{name}: "
            f"{', '.join(sorted(left)) or 'healthy'}; healthy fields "
            f"{'hold' if _holds(after.raw(target_key), healthy) else 'do not hold'}",
        ),
        (
            "other_restarts_keep_symptom",
            bool(others) and not kept,
            (
                "no other deployment to restart: the check would be vacuous"
                if not others
                else f"a restart of {', '.join(kept)} clears the symptom or meets the healthy "
                "fields"
                if kept
                else f"a restart of {', '.join(others)} leaves the symptom and the healthy "
                "fields unmet"
            ),
        ),
        (
            "healthy_unmet_when_injected",
            not _holds(injected.raw(target_key), healthy),
            "the injected target does not hold the healthy fields"
            if not _holds(injected.raw(target_key), healthy)
            else "the injected target already holds the healthy fields: the state check "
            "cannot fail",
        ),
    ]


__all__ = ["is_operation_table", "operation_checks", "replica_range"]
