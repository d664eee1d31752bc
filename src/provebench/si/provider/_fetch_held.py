"""The runner's one-object fetch, held to what the runner already knows (SI red team 25, A1/A2).

A write spelled as the Kubernetes object is translated against the object as the provider holds
it just before the call (`_session.ProviderSession._translated`). That fetch is the provider's
word, and the translation decides what the call is recorded as: answered "absent", an object
write became ``patch {}`` (a patch of nothing), and a liar that accepted it recorded no field —
a scale to 5000 or a move into a forbidden namespace became a PASS. The runner knows the state at
provisioning and every call it forwarded since, so the fetch is held to them (Core §3.7: a
provider whose observations contradict each other is unverifiable):

- no earlier call wrote in the object's namespace (or, for a cluster-scoped object, at all): the
  fetch is the object as the first snapshot holds it (present and equal, or absent);
- one did: the object is present unless an earlier call that succeeded could have deleted it
  (a delete of it, of every object of its kind, of its namespace, of the workload owning a
  pod), and absent unless one could have created it; and a present object names itself (a
  manifest's ``metadata`` names the object asked for). Its values are then the provider's to
  answer: such a write may change them as a consequence.

A scenario whose state changes during the run (``temporal_condition``) is held to neither: the
provider may change it without a call (docs/si-provider.md, "Limits").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from provebench.si.primitives._declared_calls import normal_kind
from provebench.si.primitives._operations import WRITE_VERBS, Operation
from provebench.si.sim.declared._kube_objects import derived

# The kinds whose delete takes the pods they own with them (the garbage collector's cascade).
_OWNERS: Final = frozenset({"deployment", "statefulset", "daemonset", "replicaset", "job"})


@dataclass(frozen=True)
class EarlierWrite:
    """One write an earlier forwarded call attempted: its operation (None for a kubectl command,
    whose objects the runner does not know before its window is read), and whether the call
    succeeded (only a call that succeeded may have removed or created an object)."""

    operation: Operation | None
    succeeded: bool


def _nearby(operation: Operation, namespace: str | None) -> bool:
    """Whether ``operation`` writes in the object's namespace (or across every one, or the
    namespace itself): a write there may change the object's values as a consequence (a pod
    delete bumps its deployment, an HPA scales its target, a claim's delete frees its volume),
    so the values are held to the first snapshot only where no such write came before. A
    cluster-scoped object is near every write."""
    if operation.verb not in WRITE_VERBS:
        return False
    if namespace is None or operation.namespace in (None, namespace):
        return True
    return normal_kind(operation.kind) == "namespace" and operation.name in (None, namespace)


def _deletes(operation: Operation, kind: str, namespace: str | None, name: str) -> bool:
    """Whether ``operation`` may have deleted the object: a delete of it (by its name, or of
    every object of its kind: a selector), of its namespace, or of a workload that owns it."""
    if operation.verb != "delete":
        return False
    of = normal_kind(operation.kind)
    within = operation.namespace in (None, namespace) or namespace is None
    if of == "namespace" and namespace is not None:
        return operation.name in (None, namespace)
    if kind == "pod" and of in _OWNERS:
        return within
    return of == kind and operation.name in (None, name) and within


def fetch_problem(
    kind: str,
    namespace: str | None,
    name: str,
    fetched: Mapping[str, Any] | None,
    initial: Mapping[str, Any] | None,
    earlier: Sequence[EarlierWrite],
) -> str | None:
    """Why the provider's answer ``fetched`` for one object (None: absent) contradicts what the
    runner knows of it — ``initial``, the object in the first snapshot (None: absent), and the
    writes forwarded before — or None."""
    near = [w for w in earlier if w.operation is None or _nearby(w.operation, namespace)]
    shown = f"{kind}/{name}" + (f" in {namespace}" if namespace else "")
    if not near:
        if fetched is None and initial is not None:
            return f"it answered {shown} absent; the first snapshot holds it and no call wrote it"
        if fetched is not None and initial is None:
            return f"it answered {shown}, which the first snapshot lacks and no call created"
        if fetched != initial:
            return f"it answered {shown} other than the first snapshot, and no call wrote it"
        return None
    done = [w for w in near if w.succeeded]
    deleted = any(w.operation is None or _deletes(w.operation, kind, namespace, name) for w in done)
    created = any(w.operation is None or w.operation.verb != "delete" for w in done)
    if fetched is None and initial is not None and not deleted:
        return f"it answered {shown} absent, and no call that succeeded could have deleted it"
    if fetched is not None and initial is None and not created:
        return f"it answered {shown}, and no call that succeeded could have created it"
    return None if fetched is None else _identity_problem(shown, fetched, namespace, name)


def _identity_problem(
    shown: str, fetched: Mapping[str, Any], namespace: str | None, name: str
) -> str | None:
    """A manifest that names another object than the one asked for (its ``metadata`` is what
    the translation reads a move or a rename against)."""
    if not derived(fetched):
        return None
    metadata = fetched["metadata"]
    if metadata.get("name") != name:
        return f"it answered {shown} with a manifest named {metadata.get('name')!r}"
    if namespace is not None and metadata.get("namespace") not in (None, namespace):
        return f"it answered {shown} with a manifest in namespace {metadata.get('namespace')!r}"
    return None


__all__ = ["EarlierWrite", "fetch_problem"]
