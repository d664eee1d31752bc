"""An object of the physical estate as its tools serve it, derived from the provider's state
(SI red team 25, A4).

A write spelled as the Kubernetes object is translated against the object a read shows
(`_kube_write.as_estate_calls`). In the physical estate a read shows a manifest the estate
derives — a pod, a node, a ConfigMap with its `apiVersion` — while `/state-snapshot` holds the
resources it derives them from (no pods, no nodes, no manifests). Translated against the
snapshot's entry, a refused write of a pod label was `patch {}` at the runner and a 422 of
`labels.x` at the provider: an honest agent's refused write became a PROVIDER_FAILURE. So the
runner derives the served object as the physical estate does (`si.sim._handlers.manifest_of`),
from the provider's state (held to what the runner knows, `_fetch_held`) and what the scenario
declared observed, which no write changes — the same manifest the provider's session translates
against.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from provebench._errors import ProvebenchError
from provebench.si.scenario._scenario import Scenario
from provebench.si.sim._derive import observe
from provebench.si.sim._estate import Estate, parse_key, resource_key
from provebench.si.sim._handlers import manifest_of
from provebench.si.sim._status_inputs import status_inputs
from provebench.si.sim.declared._estate import HIDDEN_FIELDS, key_of

# What the snapshot adds to name each resource (`_observe._identified`), not the resource's own.
_IDENTITY: Final = ("kind", "name", "namespace")
# What the estate reports of a kind beside its resource: a deployment's status word and its
# conditions (`si.sim._status_word.reported_state`), derived or declared, never a field a write
# sets.
_REPORTED: Final = {"deployment": ("status", "conditions")}


class ServedObjects:
    """The physical estate of one scenario, as far as the runner knows it without the provider:
    its first resources (with the simulation data a snapshot never shows) and what it declared
    observed."""

    def __init__(self, scenario: Scenario) -> None:
        self._base = Estate.from_entries(
            scenario.preconditions.environment.state, field="environment.state"
        )
        base_data = self._base.data()
        # the snapshot's key of each resource -> the estate's (a namespace's differs)
        self._keys = {_snapshot_key(key): key for key in base_data}
        self._first = base_data

    def manifest(
        self, state: Mapping[str, Any], kind: str, namespace: str | None, name: str
    ) -> dict[str, Any] | None:
        """The manifest a read of (kind, namespace, name) shows in the estate whose resources
        are the snapshot ``state`` (keyed ``kind/namespace/name``), or None."""
        estate = self._estate_of(state)
        return manifest_of(observe(estate), kind, namespace or "default", name)

    def status_inputs(self, state: Mapping[str, Any], key: str) -> frozenset[str]:
        """The snapshot keys of the objects the status word of the deployment at ``key`` (a
        snapshot key) is derived from in the estate whose resources are ``state`` — the
        estate's own reading (`si.sim._status_inputs`). None where ``state`` lacks it or holds
        what the estate's model cannot read: then no write explains the word (fail closed)."""
        estate_key = self._keys.get(key) or _estate_key(key)
        try:
            estate = self._estate_of(state)
            if estate_key not in estate:
                return frozenset()
            read = status_inputs(estate, estate_key)
        except (ValueError, ProvebenchError):  # pydantic's ValidationError is a ValueError
            return frozenset()
        return frozenset(_snapshot_key(key) for key in read)

    def _estate_of(self, state: Mapping[str, Any]) -> Estate:
        """The estate whose resources are the snapshot ``state`` (keyed
        ``kind/namespace/name``), with the simulation data the snapshot leaves out."""
        resources: dict[str, dict[str, Any]] = {}
        for key, shown in state.items():
            if not isinstance(shown, dict):
                continue
            estate_key = self._keys.get(key) or _estate_key(key)
            first = self._first.get(estate_key, {})
            reported = _REPORTED.get(parse_key(estate_key)[0], ())
            resource = {
                k: v
                for k, v in shown.items()
                if (k not in _IDENTITY or k in first) and k not in reported
            }
            # the simulation data a snapshot leaves out (`HIDDEN_FIELDS`): no write sets it
            resource.update({k: v for k, v in first.items() if k in HIDDEN_FIELDS})
            resources[estate_key] = resource
        return self._base.written(resources)


def _snapshot_key(estate_key: str) -> str:
    kind, namespace, name = parse_key(estate_key)
    return key_of(kind, namespace, name)


def _estate_key(snapshot_key: str) -> str:
    kind, namespace, name = snapshot_key.split("/", 2)
    return resource_key(kind, name if kind == "namespace" else namespace or "default", name)


__all__ = ["ServedObjects"]
