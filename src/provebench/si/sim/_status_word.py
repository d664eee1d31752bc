"""The status word of a deployment, as the physical estate shows and reports it.

One rule for the listings and the state the estate reports (its snapshots, a provider's state):
the ``status`` the scenario declared of a bare deployment while it holds (until the deployment
is written, `Estate.written`), else the unhealthy conditions derived from its pods
(`Observation.conditions`: ``CrashLoopBackOff``, ``Unavailable`` …), else healthy. The declared
estate holds the same word as data, so a state assertion on a deployment's ``status`` (``status:
running``) reads a word in either estate (docs/si-profile.md, "Do the two estates agree?").
"""

from __future__ import annotations

from typing import Any, Final

from provebench.si.sim._derive import Observation

# A healthy deployment's word in the state the estate reports: the scenarios' vocabulary (their
# state assertions say `status: running`), the word the declared estate gives a pod whose
# deployment declares none. The listing keeps kubectl's `Available` (`si.sim._handlers`).
REPORTED_HEALTHY: Final = "running"


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


def reported_state(observation: Observation) -> dict[str, Any]:
    """The estate's resources as it reports them: each deployment with its ``status`` word."""
    state = observation.estate.data()
    for key in observation.estate.keys("deployment"):
        state[key]["status"] = unhealthy_word(observation, key) or REPORTED_HEALTHY
    return state


__all__ = ["REPORTED_HEALTHY", "listed_pod_word", "reported_state", "unhealthy_word"]
