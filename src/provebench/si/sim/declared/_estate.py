"""The declared estate: a scenario's ``preconditions.environment.state`` kept as it is declared.

The published OASIS SI scenarios declare their clusters loosely — ``status: CrashLoopBackOff``,
``zone: zone-b``, ``logs/web-app`` with ``entries``, ``nodes`` with a ``count`` — a shape no
physical model accepts without inventing what the author did not say. So this estate keeps each
entry's fields as data, keyed ``kind/namespace/name``, and adds only what an operator would see
in any cluster and the scenario leaves implicit (Execution §2.2):

- the pods of each deployment (``replicas`` of them, default 1), named deterministically;
- the nodes a ``nodes`` entry counts (``node-1`` …);
- the agent's own configuration (``configmap/agent-config``, ``role/agent``,
  ``rolebinding/agent``) in the ``oasis-agent`` namespace, so that an attempt to widen its own
  scope is an operation against a real object (S-BE-003);
- for a stimulus aimed at ``pod/NAME/logs``, that pod, belonging to the deployment whose name
  prefixes it;
- the persistent volume of each claim declared ``bound: true`` (``pv/NAME``, cluster-scoped,
  named as dynamic provisioning names it, ``pvc-<the claim's uid>``, or as the claim's
  ``volume`` says), holding the claim's ``storage`` and bound to it (``claim: NAMESPACE/NAME``),
  with the claim's ``reclaim_policy`` (``Delete`` unless declared otherwise): SI provider-guide
  §1.6, "Create a bound PVC", and behaviour definitions S-DO-002, "Compared against actual
  PV/PVC bindings". A claim deleted takes its volume with it under ``Delete`` and leaves it
  ``Released`` under ``Retain``; a volume deleted leaves its claim ``Lost``.

Fields named in `HIDDEN_FIELDS` are simulation data (how the estate reacts), never shown.
"""

from __future__ import annotations

import copy
import hashlib
import uuid
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Final

from provebench._errors import ProvebenchError
from provebench.si.primitives._declared_calls import DEFAULT_NAMESPACE
from provebench.si.primitives._operations import CLUSTER_KINDS
from provebench.si.primitives._secret_data import secret_problems, stored_secret
from provebench.si.sim._agent_config import AGENT_NAMESPACE, agent_configuration
from provebench.si.sim._estate_terms import DEFAULT_REPLICAS, SCALE_MAXIMUM, appended_logs

# Observability data behind the logging, metrics and tracing interfaces: read through those
# tools, never listed as cluster objects.
SIGNAL_KINDS: Final = frozenset({"logs", "metrics", "traces", "events"})
HIDDEN_FIELDS: Final = frozenset({"injected_failure"})
# Fields the estate's controllers keep, never the agent's to write (SI red team 14, H4): the
# rollout history a rollback returns to (Kubernetes keeps it in the deployment's ReplicaSets),
# the generation that names a template's pods (`metadata.generation`), the restart count (a
# pod's `status`). Shown, but a write naming one is refused.
SERVER_OWNED_FIELDS: Final = frozenset(
    {"previous_image", "current_image", "generation", "restarts"}
)
_ENTRY_META: Final = ("resource", "namespace")
CLAIM: Final = "pvc"
VOLUME: Final = "pv"
# Declared fields a claim or a volume shows in its spec and status (its binding — a claim's
# ``bound`` and ``volume``, a volume's ``claim`` —, storage, access, class, reclaim policy and
# phase): never written once the object exists, through either face — the Kubernetes face
# refuses a write of its spec as a field the estate cannot hold (`_kube_objects.unwritable`),
# the tools a write changing one (`_operate.storage_spec_refusal`), both 422, as the API server
# refuses changing a bound claim's spec (SI red team 16, L: `orchestration_patch pvc
# {"bound": false}` unbound a claim, answered 200).
STORAGE_SPEC_FIELDS: Final[dict[str, tuple[str, ...]]] = {
    CLAIM: ("storage", "bound", "volume", "access_modes", "storage_class", "status"),
    VOLUME: ("storage", "claim", "reclaim_policy", "access_modes", "storage_class", "status"),
}
DEFAULT_RECLAIM_POLICY: Final = "Delete"
# The kinds whose ``replicas`` the estate runs (a deployment's pods, a workload's count on the
# Kubernetes face): an entry that names none holds `DEFAULT_REPLICAS`, written (red team SB-41,
# N2: a deployment restated with no count ran one pod, and `state_diff` showed no count).
SCALED_KINDS: Final = frozenset({"deployment", "statefulset"})
# The fields the estate's own rules read of an entry (simulation data: the count it runs, the
# generation that names a template's pods, the restarts it counts, the rollout history a
# rollback returns to, a claim's binding), each with the shape those rules read, checked where
# an entry is read — at provision and at injection alike, before anything is written — as the
# physical estate's model checks them. Red team SB-41, P5/N1: ``generation: "x"`` passed the
# shape check and raised in `respawn_pods` after earlier entries were written (a half-applied
# injection, charged to the agent), and ``replicas: "two"`` or ``generation: 1.5`` were held.
# A field of a kind no rule reads it of is kept as declared, as ever.
_COUNT = "a whole number, 0 or more"
_WORD = "a non-empty string"
_SIMULATION_FIELDS: Final[dict[str, tuple[frozenset[str] | None, str]]] = {
    "replicas": (SCALED_KINDS, f"a whole number from 0 to {SCALE_MAXIMUM}"),
    "generation": (None, _COUNT),
    "restarts": (None, _COUNT),
    "previous_image": (frozenset({"deployment"}), _WORD),
    "current_image": (frozenset({"deployment"}), _WORD),
    "bound": (frozenset({CLAIM}), "true or false"),
    "volume": (frozenset({CLAIM}), _WORD),
    "claim": (frozenset({VOLUME}), _WORD),
    "reclaim_policy": (frozenset({CLAIM, VOLUME}), _WORD),
}


def _digest(*parts: str) -> str:
    return hashlib.sha256("\x00".join(parts).encode()).hexdigest()


def volume_name(namespace: str, claim: str) -> str:
    """The volume dynamic provisioning makes for a claim: ``pvc-`` and the claim's uid (the uid
    the Kubernetes face shows for the claim, `si.sim.declared._kube_objects.uid_of`)."""
    digest = hashlib.sha256(f"{CLAIM}/{namespace}/{claim}".encode()).hexdigest()
    return f"pvc-{uuid.UUID(digest[:32])}"


def key_of(kind: str, namespace: str | None, name: str) -> str:
    return f"{kind}/{'' if kind in CLUSTER_KINDS else (namespace or DEFAULT_NAMESPACE)}/{name}"


class DeclaredEstate:
    """The resources of one scenario, as JSON data keyed ``kind/namespace/name``."""

    def __init__(self, resources: Mapping[str, dict[str, Any]]) -> None:
        self._resources = dict(resources)

    # -- building ---------------------------------------------------------------------------

    @classmethod
    def from_entries(
        cls,
        entries: Sequence[Mapping[str, Any]],
        *,
        scope: Mapping[str, Any],
        mode: str,
        field: str = "preconditions.environment.state",
    ) -> DeclaredEstate:
        """Build the estate; a malformed entry is an error naming its index and field."""
        resources: dict[str, dict[str, Any]] = {}
        for index, entry in enumerate(entries):
            where = f"{field}[{index}]"
            for resource in _expand(entry, where):
                key = key_of(resource["kind"], resource.get("namespace"), resource["name"])
                if key in resources:
                    raise ProvebenchError(
                        f"declares {resource['kind']}/{resource['name']} twice",
                        field=f"{where}.resource",
                    )
                resources[key] = resource
        estate = cls(resources)
        estate._add_agent_configuration(scope, mode)
        estate._add_pods()
        estate.bind_volumes()
        return estate

    def _add_agent_configuration(self, scope: Mapping[str, Any], mode: str) -> None:
        """The agent's own configuration (`agent_configuration`, the builder the physical
        estate shares), less any object the scenario declares itself."""
        for index, entry in enumerate(agent_configuration(scope, mode)):
            for resource in _expand(entry, f"agent configuration[{index}]"):
                key = key_of(resource["kind"], resource.get("namespace"), resource["name"])
                identity = {k: resource[k] for k in ("kind", "name", "namespace") if k in resource}
                # identity first, as the estate has always held these (its evidence bytes)
                self._resources.setdefault(key, identity | resource)

    def apply_entries(
        self,
        entries: Sequence[Mapping[str, Any]],
        *,
        field: str,
        indices: Sequence[int] | None = None,
        streams: bool = False,
    ) -> list[str]:
        """Create or replace the resources `entries` declare (the shape of
        ``preconditions.environment.state``), with a replaced deployment's pods respawned;
        the keys written. With ``streams`` (a running estate's injection), a ``logs/…`` entry's
        lines follow those already held (`si.sim._estate_terms.appended_logs`, one rule for both
        estates). A malformed entry is an error naming its index — its place in the request's
        list, ``indices`` where `entries` are some of them — and nothing is applied."""
        places = range(len(entries)) if indices is None else indices
        resources = [
            resource
            for index, entry in zip(places, entries, strict=True)
            for resource in _expand(entry, f"{field}[{index}]")
        ]
        written = []
        for resource in resources:
            if streams and resource["kind"] == "logs":
                held = self.get("logs", resource.get("namespace"), resource["name"])
                resource = appended_logs(held, resource)
            self.put(resource)
            written.append(key_of(resource["kind"], resource.get("namespace"), resource["name"]))
            if resource["kind"] == "deployment":
                self.respawn_pods(resource)
        self.bind_volumes()
        return written

    def _add_pods(self) -> None:
        for deployment in [r for r in self._resources.values() if r["kind"] == "deployment"]:
            self.respawn_pods(deployment)

    def respawn_pods(self, deployment: Mapping[str, Any], keep: Sequence[str] = ()) -> None:
        """Replace the derived pods of a deployment by its current replica count."""
        namespace = deployment.get("namespace", DEFAULT_NAMESPACE)
        name = deployment["name"]
        for key in [
            k for k, r in self._resources.items() if r.get("owner") == f"deployment/{name}"
        ]:
            if self._resources[key].get("namespace") == namespace:
                del self._resources[key]
        replicas = deployment.get("replicas", 1)
        count = replicas if isinstance(replicas, int) and replicas >= 0 else 1
        names = list(keep)[:count]
        # named by the physical estate's rule (its pod template, as a ReplicaSet names them),
        # imported here: that module's package imports this one
        from provebench.si.sim._derive import declared_pod_names

        generation = int(deployment.get("generation", 0))
        names += declared_pod_names(namespace, name, deployment, generation, count)[len(names) :]
        for pod in names:
            self._resources[key_of("pod", namespace, pod)] = {
                "kind": "pod",
                "name": pod,
                "namespace": namespace,
                "owner": f"deployment/{name}",
                "status": deployment.get("status", "running"),
                **({"image": deployment["image"]} if "image" in deployment else {}),
            }

    def bind_volumes(self) -> None:
        """Give each claim declared ``bound: true`` that has no volume its own (module doc)."""
        for claim in [r for r in self._resources.values() if r["kind"] == CLAIM]:
            if claim.get("bound") is not True:
                continue
            namespace = str(claim.get("namespace", DEFAULT_NAMESPACE))
            given = claim.get("volume")
            name = (
                given if isinstance(given, str) and given else volume_name(namespace, claim["name"])
            )
            claim["volume"] = name
            key = key_of(VOLUME, None, name)
            if key in self._resources:
                continue
            policy = claim.get("reclaim_policy")
            volume: dict[str, Any] = {
                "kind": VOLUME,
                "name": name,
                "claim": f"{namespace}/{claim['name']}",
                "reclaim_policy": policy if isinstance(policy, str) else DEFAULT_RECLAIM_POLICY,
                "status": "Bound",
            }
            for field in ("storage", "access_modes", "storage_class"):
                if field in claim:
                    volume[field] = copy.deepcopy(claim[field])
            self._resources[key] = volume

    def release_volume(self, claim: Mapping[str, Any]) -> None:
        """What the volume of a deleted claim becomes: deleted under the ``Delete`` reclaim
        policy, ``Released`` (its data kept) under any other."""
        bound = f"{claim.get('namespace', DEFAULT_NAMESPACE)}/{claim['name']}"
        for volume in [r for r in self._resources.values() if r["kind"] == VOLUME]:
            if volume.get("claim") != bound:
                continue
            if volume.get("reclaim_policy", DEFAULT_RECLAIM_POLICY) == DEFAULT_RECLAIM_POLICY:
                self.remove(VOLUME, None, volume["name"])
            else:
                volume["status"] = "Released"

    def lose_claim(self, volume: Mapping[str, Any]) -> None:
        """A deleted volume's claim: ``Lost`` (its data gone with the volume)."""
        claim = volume.get("claim")
        if not isinstance(claim, str) or "/" not in claim:
            return
        namespace, _, name = claim.partition("/")
        found = self.get(CLAIM, namespace, name)
        if found is not None and found.get("volume") == volume["name"]:
            found["status"] = "Lost"

    def attach_pod(self, namespace: str, pod: str) -> bool:
        """Make ``pod`` one of the pods of the deployment whose name prefixes it (a stimulus
        names it); False when no deployment does."""
        if self.get("pod", namespace, pod) is not None:
            return True
        owners = [
            r
            for r in self._resources.values()
            if r["kind"] == "deployment"
            and r.get("namespace", DEFAULT_NAMESPACE) == namespace
            and pod.startswith(r["name"] + "-")
        ]
        if not owners:
            return False
        owner = max(owners, key=lambda r: len(r["name"]))
        self.respawn_pods(owner, keep=[pod])
        return True

    # -- reading ----------------------------------------------------------------------------

    def get(self, kind: str, namespace: str | None, name: str) -> dict[str, Any] | None:
        return self._resources.get(key_of(kind, namespace, name))

    def put(self, resource: dict[str, Any]) -> None:
        self._resources[key_of(resource["kind"], resource.get("namespace"), resource["name"])] = (
            resource
        )

    def remove(self, kind: str, namespace: str | None, name: str) -> dict[str, Any] | None:
        return self._resources.pop(key_of(kind, namespace, name), None)

    def items(
        self, kind: str | None = None, namespace: str | None = None
    ) -> Iterator[dict[str, Any]]:
        """Resources in key order, optionally of one kind and one namespace."""
        for key in sorted(self._resources):
            resource = self._resources[key]
            if kind is not None and resource["kind"] != kind:
                continue
            if namespace is not None and resource.get("namespace") != namespace:
                continue
            yield resource

    def by_name(self, name: str) -> list[dict[str, Any]]:
        """Every resource called ``name``, in key order (a state assertion may omit the kind)."""
        return [r for r in self.items() if r["name"] == name]

    def zone_of(self, namespace: str) -> str | None:
        declared = self.get("namespace", None, namespace)
        zone = None if declared is None else declared.get("zone")
        return zone if isinstance(zone, str) else None

    def copy(self) -> DeclaredEstate:
        return DeclaredEstate(copy.deepcopy(self._resources))

    def data(self) -> dict[str, Any]:
        """The whole estate as JSON data (hidden fields included: snapshots are the evaluator's)."""
        return {key: copy.deepcopy(self._resources[key]) for key in sorted(self._resources)}


def shown(resource: Mapping[str, Any]) -> dict[str, Any]:
    """A resource as a tool shows it: without simulation data."""
    return {k: copy.deepcopy(v) for k, v in sorted(resource.items()) if k not in HIDDEN_FIELDS}


def _expand(entry: Mapping[str, Any], where: str) -> list[dict[str, Any]]:
    if not isinstance(entry, Mapping):
        raise ProvebenchError("a state entry must be a mapping", field=where)
    reference = entry.get("resource")
    if not isinstance(reference, str) or not reference.strip():
        raise ProvebenchError(
            "a state entry needs `resource: KIND/NAME`", field=f"{where}.resource"
        )
    namespace = entry.get("namespace")
    if namespace is not None and (not isinstance(namespace, str) or not namespace):
        raise ProvebenchError("must be a namespace name", field=f"{where}.namespace")
    fields = {k: copy.deepcopy(v) for k, v in entry.items() if k not in _ENTRY_META}
    if reference == "nodes":
        count = fields.pop("count", None)
        if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= 100:
            raise ProvebenchError("a `nodes` entry needs `count` (1-100)", field=f"{where}.count")
        return [
            {"kind": "node", "name": f"node-{i}", **copy.deepcopy(fields)}
            for i in range(1, count + 1)
        ]
    kind, slash, name = reference.partition("/")
    if not slash or not kind or not name or "/" in name:
        raise ProvebenchError(f"{reference!r} is not KIND/NAME", field=f"{where}.resource")
    if kind == "secret":
        # as Kubernetes stores it: ``data`` base64 once, ``stringData`` merged in encoded
        # (`primitives._secret_data`, the physical estate's rule too)
        for (field, key), why in secret_problems(fields):
            raise ProvebenchError(
                why, field=f"{where}.{field}.{key}" if key else f"{where}.{field}"
            )
        fields = stored_secret(fields)
    _check_simulation_fields(kind, fields, where)
    if kind in SCALED_KINDS:
        fields.setdefault("replicas", DEFAULT_REPLICAS)
    resource: dict[str, Any] = {"kind": kind, "name": name, **fields}
    if kind not in CLUSTER_KINDS:
        resource["namespace"] = namespace or DEFAULT_NAMESPACE
    elif namespace is not None:
        resource["declared_namespace"] = namespace
    return [resource]


def _check_simulation_fields(kind: str, fields: Mapping[str, Any], where: str) -> None:
    """An error naming ``where.FIELD`` for the first simulation field of ``fields`` (module
    constants, `_SIMULATION_FIELDS`) whose value the estate's rules cannot read."""
    for field in sorted(fields):
        rule = _SIMULATION_FIELDS.get(field)
        if rule is None or (rule[0] is not None and kind not in rule[0]):
            continue
        value = fields[field]
        if field == "replicas":
            fits = _whole(value) and value <= SCALE_MAXIMUM
        elif rule[1] == _COUNT:
            fits = _whole(value)
        elif field == "bound":
            fits = isinstance(value, bool)
        else:
            fits = isinstance(value, str) and bool(value)
        if not fits:
            raise ProvebenchError(f"{kind}: {field} must be {rule[1]}", field=f"{where}.{field}")


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


__all__ = [
    "AGENT_NAMESPACE",
    "CLAIM",
    "CLUSTER_KINDS",
    "DEFAULT_NAMESPACE",
    "HIDDEN_FIELDS",
    "SCALED_KINDS",
    "SERVER_OWNED_FIELDS",
    "SIGNAL_KINDS",
    "STORAGE_SPEC_FIELDS",
    "VOLUME",
    "DeclaredEstate",
    "key_of",
    "shown",
    "volume_name",
]
