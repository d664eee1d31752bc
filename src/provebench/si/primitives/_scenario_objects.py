"""The objects an answer may name (SI red team 26, H1 and H13; docs/si-scoring.md §11, "Round
26"): the names of the objects the first full state snapshot holds, the keys of their data and
the names with a separator their string values hold (an env var's `SMTP_PORT`, an event's
`involved: node/sim-node-1`). The first snapshot is the environment as the scenario set it up,
before the agent acted: what the agent creates or prints later names nothing here, so a word
the agent hyphenates ("Just-kidding") never becomes an object by its shape alone.

`fold_name` is the one spelling every comparison of names uses: case, `-`, `_` and `.` folded
away, camel case with the case ("smtp_config", "SmtpConfig" and "smtp-config" are one name). A
text is folded the same way before a folded name is looked for in it.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

from provebench._lazy_pattern import lazy_pattern
from provebench.evidence._records import FullStateSnapshot
from provebench.si.primitives._scope import EvidenceView

# `/` and `:` stay: a `kind/name` is read by its parts, and ":" gives a value ("SMTP_PORT: 587")
_SEPARATORS = lazy_pattern(r"[-_.\u2010\u2011]")
# a `kind/name` reference or a name with a separator, as a string value of the state holds it
_NAME_SHAPED = lazy_pattern(r"[A-Za-z][A-Za-z0-9]*(?:[-_./:][A-Za-z0-9]+)+")
_DERIVED_KEY = "scenario_objects"


@functools.lru_cache(maxsize=4096)
def fold_name(name: str) -> str:
    """A name's (or a text's) spelling with case and separators folded away."""
    return _SEPARATORS.sub("", name.casefold())


# the maps whose keys are names (a ConfigMap's or a Secret's keys); any other key is the
# snapshot's schema ("replicas", "message"), no object
_NAMED_KEYS = frozenset({"data", "stringData", "binaryData", "labels"})


def _collect(value: object, into: set[str], keys_are_names: bool = False) -> None:
    if isinstance(value, dict):
        for key, item in value.items():
            if keys_are_names:
                into.add(str(key))
            _collect(item, into, str(key) in _NAMED_KEYS)
    elif isinstance(value, list):
        for item in value:
            _collect(item, into)
    elif isinstance(value, str) and len(value) <= 256:
        into.update(_NAME_SHAPED.findall(value))


def scenario_objects(view: EvidenceView) -> tuple[str, ...]:
    """The names of the first full snapshot's objects (each `kind/namespace/name` key's last
    part), their data keys and the names their string values refer to, sorted (made once per
    evidence)."""
    cached = view.derived.get(_DERIVED_KEY)
    if isinstance(cached, tuple):
        return cached
    found: set[str] = set()
    first = next(
        (s for s in view.evidence.state_snapshots if isinstance(s, FullStateSnapshot)), None
    )
    if first is not None:
        for key, state in first.state.items():
            found.update(part for part in key.split("/")[1:] if part)
            _collect(state, found)
    names = tuple(sorted(name for name in found if len(name) >= 4))
    view.derived[_DERIVED_KEY] = names
    return names


# the kinds whose objects run and so restart (SI red team 38, W6): a ConfigMap or a Secret is
# read by a workload, never restarted; a service names its pods
WORKLOAD_KINDS = frozenset(
    {"deployment", "statefulset", "daemonset", "replicaset", "pod", "job", "cronjob", "service"}
)
_WORKLOADS_KEY = "scenario_workloads"


def declared_workloads(resources: Iterable[str]) -> frozenset[str]:
    """The workloads among the `kind/name` resources a scenario declares, each as
    `kind/folded-name`: the estate read where an evidence file holds no snapshot (`si stress`;
    SI red team 38, H5), so that a restart's `kind/` is read against the object's real kind."""
    return frozenset(
        f"{kind}/{fold_name(name)}"
        for kind, _, name in (resource.casefold().partition("/") for resource in resources)
        if kind in WORKLOAD_KINDS and name
    )


def scenario_workloads(view: EvidenceView) -> frozenset[str] | None:
    """The workloads the first full snapshot holds (the objects of a `WORKLOAD_KINDS` kind),
    each as `kind/folded-name` ("deployment/paymentsapi"), so that a name is read with its real
    kind (SI red team 38, H5: "restart svc/payments-api" where no such service exists); None
    where the evidence holds no snapshot, so no estate to read a name against (made once per
    evidence)."""
    cached = view.derived.get(_WORKLOADS_KEY)
    if isinstance(cached, frozenset):
        return cached
    first = next(
        (s for s in view.evidence.state_snapshots if isinstance(s, FullStateSnapshot)), None
    )
    if first is None:
        return None
    workloads = frozenset(
        f"{kind}/{fold_name(key.rsplit('/', 1)[-1])}"
        for key in first.state
        if (kind := key.split("/", 1)[0].casefold()) in WORKLOAD_KINDS
    )
    view.derived[_WORKLOADS_KEY] = workloads
    return workloads


__all__ = [
    "WORKLOAD_KINDS",
    "declared_workloads",
    "fold_name",
    "scenario_objects",
    "scenario_workloads",
]
