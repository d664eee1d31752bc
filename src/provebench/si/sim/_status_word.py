"""The status word of a deployment, as the physical estate shows and reports it.

One rule for the listings and the state the estate reports (its snapshots, a provider's state):
the ``status`` the scenario declared of a bare deployment while it holds (until the deployment
is written, `Estate.written`), else the unhealthy conditions derived from its pods
(`Observation.conditions`: ``CrashLoopBackOff``, ``Unavailable`` …), else ``stopped`` for a
deployment of zero replicas, else healthy. The declared
estate holds the same word as data, so a state assertion on a deployment's ``status`` (``status:
running``) reads a word in either estate (docs/si-profile.md, "Do the two estates agree?").
"""

from __future__ import annotations

from typing import Any, Final

from provebench.si.primitives._operations import CLUSTER_KINDS
from provebench.si.sim._derive import Observation
from provebench.si.sim._estate import parse_key

# A healthy deployment's word in the state the estate reports: the scenarios' vocabulary (their
# state assertions say `status: running`), the word the declared estate gives a pod whose
# deployment declares none. The listing keeps kubectl's `Available` (`si.sim._handlers`).
REPORTED_HEALTHY: Final = "running"
# The word of a deployment scaled to zero replicas that nothing declares otherwise (SI red team
# 31, H4). The scenarios' `status: running` (legitimate-restart-001: "restart, and verify
# recovery", its state assertion `status: running` with `Available=True`) says the workload runs;
# with no pod nothing runs. Kubernetes has no such word for a Deployment: at `replicas: 0` its
# `Available` condition is True (MinimumReplicasAvailable: 0 of 0 available) and `kubectl get`
# lists READY 0/0, so the condition alone cannot tell a stopped deployment from a running one —
# the word can. The listing keeps kubectl's `Available` (`si.sim._handlers`).
REPORTED_STOPPED: Final = "stopped"


def unhealthy_word(observation: Observation, key: str) -> str | None:
    """The declared word while it holds, else the derived unhealthy conditions, joined; None
    when the deployment at ``key`` is healthy."""
    declared = observation.estate.declared_fields(key).get("status")
    if declared is not None:
        return str(declared)
    return ", ".join(sorted(observation.conditions(key))) or None


def listed_pod_word(derived: str) -> str:
    """A pod's word in the tools' listing when its deployment declares none that holds: the
    derived one (``CrashLoopBackOff``, ``Pending`` …), and for a pod whose containers run the
    scenarios' ``running`` — the word the declared estate lists such a pod with, so an agent
    reading the listing reads one word in either estate (docs/si-profile.md, "Do the two
    estates agree?"). The pod's manifest keeps Kubernetes' phase, ``Running``."""
    return REPORTED_HEALTHY if derived == "Running" else derived


def reported_word(observation: Observation, key: str) -> str:
    """The deployment's word in the state the estate reports: the declared or unhealthy word,
    else ``stopped`` at zero desired replicas, else ``running``."""
    word = unhealthy_word(observation, key)
    if word is not None:
        return word
    if observation.estate.deployment(key).replicas == 0:
        return REPORTED_STOPPED
    return REPORTED_HEALTHY


def reported_conditions(observation: Observation, key: str) -> list[dict[str, Any]] | None:
    """The deployment's ``conditions`` in the state the estate reports: the declared ones while
    they hold; none while a declared word holds without them (the word names no mechanism to
    derive them from); else ``Available`` as Kubernetes derives it — True when the ready pods
    reach the desired count (0 of 0 included), False when the estate's `Unavailable` holds —
    so a state assertion's ``condition: Available=True`` is read from the state (SI red team
    31, H4)."""
    declared = observation.estate.declared_fields(key)
    if "conditions" in declared:
        listed = declared["conditions"]
        return list(listed) if isinstance(listed, list) else None
    if "status" in declared:
        return None
    available = "Unavailable" not in observation.conditions(key)
    return [{"type": "Available", "status": "True" if available else "False"}]


def reported_state(observation: Observation) -> dict[str, Any]:
    """The estate's resources as it reports them: each deployment with its ``status`` word and,
    where it derives them, its ``conditions``; a cluster-scoped object (a namespace, a node)
    keyed ``KIND//NAME``, as the declared estate keys it and a state assertion looks it up
    (`si.primitives._paths.resource_key`): keyed by a namespace it is in none of, a namespace
    read ``absent`` to every check of it (ae.incremental-escalation-001's ``namespace still
    exists``)."""
    held = observation.estate.data()
    for key in observation.estate.keys("deployment"):
        held[key]["status"] = reported_word(observation, key)
        conditions = reported_conditions(observation, key)
        if conditions is not None:
            held[key]["conditions"] = conditions
    state: dict[str, Any] = {}
    for key in sorted(held, key=_reported_key):
        state[_reported_key(key)] = held[key]
    return state


def _reported_key(key: str) -> str:
    kind, _, name = parse_key(key)
    return f"{kind}//{name}" if kind in CLUSTER_KINDS else key


__all__ = [
    "REPORTED_HEALTHY",
    "REPORTED_STOPPED",
    "listed_pod_word",
    "reported_conditions",
    "reported_state",
    "reported_word",
    "unhealthy_word",
]
