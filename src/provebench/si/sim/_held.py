"""The kinds the physical estate does not simulate, held as objects of their own kind, as the
declared estate holds them (docs/si-lab.md, "Held kinds").

A PersistentVolumeClaim (and the volume bound to it), a HorizontalPodAutoscaler, an Ingress, a
NetworkPolicy, and the profile's non-Kubernetes kinds — a dashboard, a runbook, a database
migration, a GitOps application — have no rule of the physical model: nothing the estate
derives reads them, and what a scenario declares of them is all there is to show. So the
physical estate keeps each as the declared estate keeps it — its declared fields, in a
`DeclaredEstate` of their own — and a call about one is the declared estate's call, performed by
its `Performer`: listed, read (the Kubernetes object the face serves: a claim bound to its
volume, an autoscaler's bounds), written, created and deleted by the same rules, so a claim
deleted takes its volume with it under ``Delete`` (the irreversible act a safety scenario
forbids) and a database rollback, a GitOps sync are what they are there. The objects are in the
state snapshots under the declared estate's keys (``pvc/NAMESPACE/NAME``, ``pv//NAME``).

The declared estate's two rules that cross into a simulated kind are kept across it: a write
of an autoscaler brings its target deployment's replica count within its bounds (`bounded`),
and a write of a deployment GitOps manages (``managed_by: gitops``) puts its application
``OutOfSync`` (`drifted`). *Limits* (docs/si-lab.md): an ingress's word is not derived from its
backend's endpoints, and a network policy refuses no connection — as in the declared estate.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

from pydantic import JsonValue

from provebench.si.primitives._autoscaler_bounds import read_autoscaler
from provebench.si.primitives._declared_calls import normal_kind
from provebench.si.sim._estate import HELD_KINDS, held_entry
from provebench.si.sim.declared._estate import CLAIM, DeclaredEstate, shown
from provebench.si.sim.declared._operate import Outcome, Performer
from provebench.si.sim.declared._tools import Tool

# The tools of those systems: each call is about held objects only.
_HELD_TOOLS: Final = frozenset(
    {
        "dashboards_list",
        "dashboards_get",
        "gitops_get",
        "gitops_sync",
        "database_status",
        "database_rollback",
    }
)


def held_entries(entries: Iterable[object]) -> list[Mapping[str, Any]]:
    """The state entries of held kinds (the others are the physical estate's resources)."""
    return [e for e in entries if isinstance(e, Mapping) and held_entry(e)]


class HeldObjects:
    """The held objects of one run: the declared estate's store and rules for them."""

    def __init__(self, entries: Iterable[Mapping[str, Any]]) -> None:
        self.estate = DeclaredEstate({})
        self.estate.apply_entries(list(entries), field="preconditions.environment.state")
        self._performer = Performer(self.estate)

    def injected(self, entries: Sequence[object], *, field: str) -> tuple[HeldObjects, list[str]]:
        """These held objects with those of ``entries`` (a whole ``/inject-state`` request, the
        other kinds skipped) created or replaced, as the declared estate applies them, and the
        keys written; a malformed entry is an error naming its place in ``entries``, and these
        objects are left as they are (the result is a copy)."""
        held = [(index, e) for index, e in enumerate(entries) if isinstance(e, Mapping)]
        held = [(index, e) for index, e in held if held_entry(e)]
        copied = HeldObjects(())
        copied.estate = self.estate.copy()
        copied._performer = Performer(copied.estate)
        written = copied.estate.apply_entries(
            [e for _, e in held], field=field, indices=[index for index, _ in held]
        )
        return copied, written

    def answers(self, tool: str, kind: str | None) -> bool:
        """Whether a call of ``tool`` about ``kind`` is about held objects."""
        return tool in _HELD_TOOLS or (kind is not None and normal_kind(kind) in HELD_KINDS)

    def perform(self, tool: Tool, arguments: Mapping[str, Any], operation: Any) -> Outcome:
        return self._performer.perform(tool, arguments, operation)

    def resource(self, kind: str, namespace: str | None, name: str) -> dict[str, Any] | None:
        """One held object as a tool shows it (its declared fields), or None."""
        found = self.estate.get(normal_kind(kind), namespace, name)
        return None if found is None else shown(found)

    def data(self) -> dict[str, Any]:
        """The held objects, keyed as the declared estate keys them (the snapshots' keys)."""
        return self.estate.data()

    def bounded(self, name: str, namespace: str | None, replicas: int) -> int | None:
        """The replica count the autoscaler ``name`` holds its target deployment to, given
        its ``replicas``, or None (no such autoscaler, a target of another kind, or a count
        already inside the bounds): the HPA controller's work, as the declared estate does it
        (`Performer._autoscale`)."""
        bounds = read_autoscaler(self.estate.get("hpa", namespace, name))
        if bounds.kind != "deployment" or bounds.name is None:
            return None
        held = replicas
        if bounds.low is not None:
            held = max(held, bounds.low)
        if bounds.high is not None:
            held = min(held, bounds.high)
        return None if held == replicas else held

    def target_of(self, name: str, namespace: str | None) -> str | None:
        """The deployment the autoscaler ``name`` targets, or None."""
        bounds = read_autoscaler(self.estate.get("hpa", namespace, name))
        return bounds.name if bounds.kind == "deployment" else None

    def drifted(self, deployment: str) -> tuple[str, dict[str, JsonValue]] | None:
        """A write of a GitOps-managed deployment puts its application ``OutOfSync``: the
        environment's event, or None when the application is absent or already out of sync
        (the declared estate's `Performer._drift`)."""
        application = self.estate.get("gitops-application", None, deployment)
        if application is None or application.get("sync_status") == "OutOfSync":
            return None
        application["sync_status"] = "OutOfSync"
        detail: dict[str, JsonValue] = {
            "application": deployment,
            "cause": "live state differs from source",
        }
        return ("GitOpsDrift", detail)

    def delete_namespace(self, namespace: str) -> bool:
        """Delete every held object in ``namespace`` (its claims' volumes released by their
        reclaim policy), as the namespace's delete does; whether any was."""
        inner = list(self.estate.items(namespace=namespace))
        for resource in inner:
            self.estate.remove(resource["kind"], namespace, resource["name"])
            if resource["kind"] == CLAIM:
                self.estate.release_volume(resource)
        return bool(inner)


__all__ = ["HELD_KINDS", "HeldObjects", "held_entries"]
