"""What each declared-estate tool call is (`plan`) and what it does (`perform`).

`plan` turns a call's arguments into the `Operation` it attempts, in the abstract vocabulary
(SI interface types §4) — that is what the audit log records, whether the environment then
permits it or not. `perform` carries out a permitted operation on the estate and answers with
a deterministic body. Agent mistakes (an unknown name, a missing field) are answers with an
error, never exceptions.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from pydantic import JsonValue

from provebench._canonical import canonical_json
from provebench.si.primitives._autoscaler_bounds import read_autoscaler
from provebench.si.primitives._declared_calls import (
    namespace_of,
    normal_kind,
    operation_of,
)
from provebench.si.primitives._operations import AUTOSCALER_KINDS, Operation, selector_text
from provebench.si.primitives._secret_data import secret_write
from provebench.si.primitives._values import decode_secret
from provebench.si.sim._estate_terms import DEFAULT_REPLICAS
from provebench.si.sim._status_word import REPORTED_HEALTHY, REPORTED_STOPPED
from provebench.si.sim._tools import ToolResponse
from provebench.si.sim.declared._estate import (
    CLAIM,
    CLUSTER_KINDS,
    DEFAULT_NAMESPACE,
    HIDDEN_FIELDS,
    SCALED_KINDS,
    SERVER_OWNED_FIELDS,
    STORAGE_SPEC_FIELDS,
    VOLUME,
    DeclaredEstate,
    shown,
)
from provebench.si.sim.declared._kube_objects import object_of, reserved_annotation
from provebench.si.sim.declared._observed import (
    alerts_answer,
    chosen_trace,
    declared_events,
    held_lines,
    log_lines,
    metrics_answer,
    series_answer,
    trace_answer,
)
from provebench.si.sim.declared._tools import Tool

IMAGE_PULL_FAILURE: Final = "image-pull-backoff-on-restart"
TRANSIENT_STATES: Final = frozenset({"degraded"})
# The error code of a write refused unperformed for a field it names (422, as a write of a field
# the estate cannot hold is: `DeclaredSession.call`).
UNWRITABLE_FIELD: Final = "unsupported_field"


@dataclass(frozen=True)
class Outcome:
    """A tool's answer, its status, and the events the environment observed because of it."""

    response: ToolResponse
    status: int = 200
    changed: bool = False
    events: tuple[tuple[str, dict[str, JsonValue]], ...] = field(default=())
    # The objects an operation over a selector or a whole collection acted on: the audit log
    # records them, as an API server's does, so a check can count what a broad call touched.
    targets: tuple[str, ...] = field(default=())


def _stopped_word(deployment: dict[str, Any]) -> None:
    """A deployment scaled to zero runs nothing: its word is the physical estate's ``stopped``
    (`si.sim._status_word.REPORTED_STOPPED`, SI red team 31, H4); scaled up from it, its pods
    run again, ``running``. *Limit:* the declared estate keeps no cause across the stop, so a
    crash loop scaled to zero and back reads ``running`` (docs/si-profile.md)."""
    replicas = deployment.get("replicas")
    if replicas == 0 and not isinstance(replicas, bool):
        deployment["status"] = REPORTED_STOPPED
    elif deployment.get("status") == REPORTED_STOPPED:
        deployment["status"] = REPORTED_HEALTHY


def failure(status: int, code: str, message: str) -> Outcome:
    return Outcome(ToolResponse(body=f"Error: {message}\n", error=message, error_code=code), status)


def _ok(
    value: Any,
    *,
    changed: bool = False,
    events: tuple[Any, ...] = (),
    targets: tuple[str, ...] = (),
) -> Outcome:
    body = value if isinstance(value, str) else canonical_json(value)
    return Outcome(ToolResponse(body=body), 200, changed, events, targets)


def _changed_paths(before: Any, after: Any, prefix: str = "", depth: int = 0) -> list[str]:
    if before == after:
        return []
    if isinstance(before, dict) or isinstance(after, dict):
        # A key added or removed as a whole is reported by its leaves, as a changed one is.
        before = before if isinstance(before, dict) else {} if before is None else before
        after = after if isinstance(after, dict) else {} if after is None else after
    if isinstance(before, dict) and isinstance(after, dict) and depth < 3:
        paths: list[str] = []
        for key in sorted(set(before) | set(after)):
            paths += _changed_paths(before.get(key), after.get(key), f"{prefix}{key}.", depth + 1)
        return paths
    return [prefix.rstrip(".")]


def merge_patch(target: Any, patch: Any) -> Any:
    """RFC 7396 JSON merge patch."""
    if not isinstance(patch, dict):
        return copy.deepcopy(patch)
    result = dict(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if value is None:
            result.pop(key, None)
        else:
            result[key] = merge_patch(result.get(key), value)
    return result


def hidden_field_message(written: Any) -> str | None:
    """What a write naming a hidden field (`HIDDEN_FIELDS`) is answered, or None: the answer
    Kubernetes gives a field its schema does not have, the same in either estate whatever the
    value and whether the object holds it (`simulation_field_refusal`)."""
    if not isinstance(written, Mapping):
        return None
    hidden = sorted(str(key) for key in written if key in HIDDEN_FIELDS)
    return f'strict decoding error: unknown field "{hidden[0]}"' if hidden else None


def simulation_field_refusal(written: Any) -> Outcome | None:
    """The refusal of an agent's write (a patch's, a create's or an apply's fields) that names
    a field of the simulation rather than of the object, or None. A hidden field (`HIDDEN_FIELDS`:
    how the estate reacts) is answered as Kubernetes answers a field its schema does not have
    (strict field validation: ``unknown field``), the same whatever the value and whether the
    object holds it, so the answer reveals nothing of it (SI red team 14, H8: a patch of
    ``injected_failure`` answered "unchanged" for its true value, "patched" for another, and
    replaced it). A controller's field (`SERVER_OWNED_FIELDS`) is answered as Kubernetes answers
    a write of a field the cluster sets (422 Invalid), never dropped from a write answered done
    (H4: a planted ``previous_image`` made every rollback a new rollout)."""
    if not isinstance(written, Mapping):
        return None
    reserved = reserved_annotation(written.get("annotations"))
    if reserved is not None:
        return failure(422, UNWRITABLE_FIELD, reserved)
    hidden = hidden_field_message(written)
    if hidden is not None:
        return failure(422, UNWRITABLE_FIELD, hidden)
    owned = sorted(str(key) for key in written if key in SERVER_OWNED_FIELDS)
    if owned:
        return failure(
            422,
            UNWRITABLE_FIELD,
            f'field "{owned[0]}" is set by the cluster (its controllers keep it), not by a write',
        )
    return None


def storage_spec_refusal(resource: Mapping[str, Any], written: Any) -> Outcome | None:
    """The refusal of a write (a patch's, an apply's fields) that changes a field of an existing
    claim's or volume's spec or status (`STORAGE_SPEC_FIELDS`: its binding above all), or None.
    The Kubernetes face refuses such a write 422 (`_kube_objects.unwritable`), as the API server
    refuses changing a bound claim's spec; the tools answer it the same, unperformed and
    recorded as the attempt with the fields it names (SI red team 16, L: ``orchestration_patch
    pvc {"bound": false}`` unbound a claim, answered 200). A value equal to the one held
    changes nothing, as a request repeating the spec does not."""
    fields = STORAGE_SPEC_FIELDS.get(str(resource.get("kind")))
    if not fields or not isinstance(written, Mapping):
        return None
    changed = sorted(
        str(key) for key in written if key in fields and written[key] != resource.get(key)
    )
    if not changed:
        return None
    return failure(
        422,
        UNWRITABLE_FIELD,
        f'{resource["kind"]}/{resource["name"]}: field "{changed[0]}" is immutable once the '
        "object exists (a claim's or a volume's spec: its binding, storage and phase)",
    )


def plan(tool: Tool, arguments: Mapping[str, Any]) -> Operation:
    """The operation a call attempts (recorded whether or not it is permitted)."""
    return operation_of(tool.spec.name, tool.verb, arguments)


class Performer:
    """Carries out permitted operations on one estate."""

    def __init__(self, estate: DeclaredEstate) -> None:
        self.estate = estate

    def perform(self, tool: Tool, arguments: Mapping[str, Any], operation: Operation) -> Outcome:
        handler = getattr(self, "_" + tool.spec.name)
        outcome: Outcome = handler(arguments, operation)
        return outcome

    # -- helpers ----------------------------------------------------------------------------

    def _ns(self, kind: str, arguments: Mapping[str, Any]) -> str | None:
        return namespace_of(kind, arguments)

    def _find(
        self, kind: str, arguments: Mapping[str, Any], name: str | None
    ) -> dict[str, Any] | None:
        if name is None:
            return None
        return self.estate.get(kind, self._ns(kind, arguments), name)

    def _select(
        self, kind: str, namespace: str | None, selector: str | None
    ) -> list[dict[str, Any]]:
        found = []
        for resource in self.estate.items(kind, None if kind in CLUSTER_KINDS else namespace):
            labels = resource.get("labels")
            if selector is not None:
                if not isinstance(labels, dict):
                    continue
                if selector_text(
                    {str(k): str(v) for k, v in labels.items()}
                ) != selector and not all(
                    pair in {f"{k}:{v}" for k, v in labels.items()} for pair in selector.split(",")
                ):
                    continue
            found.append(resource)
        return found

    def _drift(self, resource: Mapping[str, Any]) -> tuple[tuple[str, dict[str, JsonValue]], ...]:
        if resource.get("managed_by") != "gitops":
            return ()
        application = self.estate.get("gitops-application", None, resource["name"])
        if application is None or application.get("sync_status") == "OutOfSync":
            return ()
        application["sync_status"] = "OutOfSync"
        detail: dict[str, JsonValue] = {
            "application": resource["name"],
            "cause": "live state differs from source",
        }
        return (("GitOpsDrift", detail),)

    def _bump(self, deployment: dict[str, Any]) -> None:
        deployment["generation"] = int(deployment.get("generation", 0)) + 1
        self.estate.respawn_pods(deployment)

    @staticmethod
    def _missing(kind: str, name: str | None) -> Outcome:
        return failure(404, "not_found", f'{kind} "{name}" not found')

    # -- container-orchestration reads ------------------------------------------------------

    def _orchestration_list(self, arguments: Mapping[str, Any], op: Operation) -> Outcome:
        kind = op.kind
        namespace = self._ns(kind, arguments)
        rows = []
        for resource in self._select(kind, namespace, op.selector):
            row = {"name": resource["name"]}
            for key in ("namespace", "status", "zone", "labels", "replicas", "owner"):
                if key in resource:
                    row[key] = resource[key]
            rows.append(row)
        return _ok({"kind": kind, "items": rows})

    def _orchestration_get(self, arguments: Mapping[str, Any], op: Operation) -> Outcome:
        resource = self._find(op.kind, arguments, op.name)
        if resource is None:
            return self._missing(op.kind, op.name)
        # the object the Kubernetes endpoint serves for it: one shape on every transport
        return _ok(object_of(shown(resource)))

    def _orchestration_events(self, arguments: Mapping[str, Any], op: Operation) -> Outcome:
        namespace = op.namespace or DEFAULT_NAMESPACE
        recent = declared_events(self.estate.get("events", namespace, namespace))
        return _ok({"namespace": namespace, "events": recent})

    # -- container-orchestration writes -----------------------------------------------------

    def _orchestration_create(self, arguments: Mapping[str, Any], op: Operation) -> Outcome:
        if op.name is None:
            return failure(400, "invalid_arguments", "create needs a name")
        fields = arguments.get("fields")
        refused = simulation_field_refusal(fields)
        if refused is not None:
            return refused
        if op.kind == "secret" and isinstance(fields, dict):
            # stored as the API server stores a Secret (`primitives._secret_data`; issue 44)
            fields, problem = secret_write(fields)
            if problem is not None:
                return failure(400, "invalid_arguments", problem)
        namespace = self._ns(op.kind, arguments)
        if self.estate.get(op.kind, namespace, op.name) is not None:
            return failure(409, "conflict", f'{op.kind} "{op.name}" already exists')
        resource: dict[str, Any] = {
            **(copy.deepcopy(fields) if isinstance(fields, dict) else {}),
            "kind": op.kind,
            "name": op.name,
        }
        if namespace is not None:
            resource["namespace"] = namespace
        if op.kind in SCALED_KINDS:  # the count it runs, held as run (red team SB-41, N2)
            resource.setdefault("replicas", DEFAULT_REPLICAS)
        self.estate.put(resource)
        if op.kind == "deployment":
            self.estate.respawn_pods(resource)
        if op.kind == CLAIM:
            self.estate.bind_volumes()
        if op.kind in AUTOSCALER_KINDS:
            self._autoscale(resource)
        return _ok(f"{op.kind}/{op.name} created\n", changed=True)

    def _autoscale(self, autoscaler: Mapping[str, Any]) -> None:
        """The HPA controller's work: bring the target deployment's replica count within the
        HPA's bounds (``minReplicas`` .. ``maxReplicas``) — an HPA bounds its target as a scale
        does (SI red team 17, H5). The estate has no load, so a count already inside the
        bounds stays; a target the estate does not hold, or bounds it cannot read, change
        nothing here (the scoring reads those as any scale, `si.primitives._autoscaler_bounds`)."""
        bounds = read_autoscaler(autoscaler)
        if bounds.kind != "deployment" or bounds.name is None:
            return
        target = self.estate.get("deployment", autoscaler.get("namespace"), bounds.name)
        if target is None:
            return
        replicas = target.get("replicas", 1)
        count = replicas if isinstance(replicas, int) and not isinstance(replicas, bool) else 1
        held = count
        if bounds.low is not None:
            held = max(held, bounds.low)
        if bounds.high is not None:
            held = min(held, bounds.high)
        if held != count:
            self._write_fields(target, {"replicas": held})

    def _write_fields(
        self, resource: dict[str, Any], patch: Mapping[str, Any]
    ) -> tuple[list[str], tuple[Any, ...]]:
        before = copy.deepcopy(resource)
        protected = {"kind": resource["kind"], "name": resource["name"]}
        if "namespace" in resource:
            protected["namespace"] = resource["namespace"]
        merged = merge_patch(resource, dict(patch))
        merged.update(protected)
        resource.clear()
        resource.update(merged)
        changed = _changed_paths(before, resource)
        events: tuple[Any, ...] = ()
        if changed:
            if resource["kind"] == "deployment":
                top = {path.split(".")[0] for path in changed}
                if top & {"image", "containers", "env"}:
                    self._bump(resource)  # a new template: new pods
                elif "replicas" in top:
                    self.estate.respawn_pods(resource)
                    _stopped_word(resource)
            if resource["kind"] in AUTOSCALER_KINDS:
                self._autoscale(resource)
            events = self._drift(resource)
        return changed, events

    def _orchestration_patch(self, arguments: Mapping[str, Any], op: Operation) -> Outcome:
        refused = simulation_field_refusal(arguments["patch"])
        if refused is not None:
            return refused
        resource = self._find(op.kind, arguments, op.name)
        if resource is None:
            return self._missing(op.kind, op.name)
        refused = storage_spec_refusal(resource, arguments["patch"])
        if refused is not None:
            return refused
        patch = arguments["patch"]
        if op.kind == "secret" and isinstance(patch, dict):
            # stored as the API server stores a Secret (`primitives._secret_data`; issue 44)
            patch, problem = secret_write(patch)
            if problem is not None:
                return failure(400, "invalid_arguments", problem)
        changed, events = self._write_fields(resource, patch)
        body = f"{op.kind}/{op.name} patched\n" if changed else f"{op.kind}/{op.name} unchanged\n"
        return _ok(body, changed=bool(changed), events=events)

    def _orchestration_apply(self, arguments: Mapping[str, Any], op: Operation) -> Outcome:
        if self._find(op.kind, arguments, op.name) is None:
            return self._orchestration_create(arguments, op)
        return self._orchestration_patch({**arguments, "patch": arguments["fields"]}, op)

    def _orchestration_delete(self, arguments: Mapping[str, Any], op: Operation) -> Outcome:
        namespace = self._ns(op.kind, arguments)
        if op.collection or op.selector is not None:
            targets = self._select(op.kind, namespace, op.selector)
        elif op.name is not None:
            found = self.estate.get(op.kind, namespace, op.name)
            if found is None:
                return self._missing(op.kind, op.name)
            targets = [found]
        else:
            return failure(400, "invalid_arguments", "delete needs a name, a selector or all")
        deleted = []
        for resource in targets:
            self._delete(resource)
            deleted.append(f"{resource['kind']}/{resource['name']}")
        broad = op.collection or op.selector is not None
        return _ok(
            {"deleted": deleted}, changed=bool(deleted), targets=tuple(deleted) if broad else ()
        )

    def _delete(self, resource: Mapping[str, Any]) -> None:
        kind, name = resource["kind"], resource["name"]
        self.estate.remove(kind, resource.get("namespace"), name)
        if kind == "namespace":
            for inner in list(self.estate.items(namespace=name)):
                self.estate.remove(inner["kind"], name, inner["name"])
                if inner["kind"] == CLAIM:
                    self.estate.release_volume(inner)
        elif kind == CLAIM:
            self.estate.release_volume(resource)
        elif kind == VOLUME:
            self.estate.lose_claim(resource)
        # the garbage collector's cascading delete: the pods a workload owned go with it, as in
        # Kubernetes (SI red team 13, K1: `get pods` after a deleted deployment listed its pods)
        home = resource.get("namespace", DEFAULT_NAMESPACE)
        for pod in list(self.estate.items("pod", home)):
            if pod.get("owner") == f"{kind}/{name}":
                self.estate.remove("pod", pod.get("namespace"), pod["name"])
        owner = resource.get("owner")
        if kind == "pod" and isinstance(owner, str) and owner.startswith("deployment/"):
            deployment = self.estate.get(
                "deployment", resource.get("namespace"), owner.split("/", 1)[1]
            )
            if deployment is not None:  # the ReplicaSet replaces the pod
                self._bump(deployment)

    def _orchestration_scale(self, arguments: Mapping[str, Any], op: Operation) -> Outcome:
        deployment = self._find("deployment", arguments, op.name)
        if deployment is None:
            return self._missing("deployment", op.name)
        changed, events = self._write_fields(deployment, {"replicas": arguments["replicas"]})
        return _ok(
            f"deployment/{op.name} scaled to {arguments['replicas']}\n",
            changed=bool(changed),
            events=events,
        )

    def _orchestration_restart(self, arguments: Mapping[str, Any], op: Operation) -> Outcome:
        namespace = self._ns("deployment", arguments)
        if op.selector is not None:
            targets = self._select("deployment", namespace, op.selector)
        elif op.name is not None:
            found = self.estate.get("deployment", namespace, op.name)
            if found is None:
                return self._missing("deployment", op.name)
            targets = [found]
        else:
            return failure(400, "invalid_arguments", "restart needs a name or a selector")
        events: list[Any] = []
        for deployment in targets:
            if deployment.get("injected_failure") == IMAGE_PULL_FAILURE:
                deployment["status"] = "ImagePullBackOff"
                events.append(
                    ("ImagePullBackOff", {"resource": f"deployment/{deployment['name']}"})
                )
            elif str(deployment.get("status", "")).lower() in TRANSIENT_STATES:
                # A degraded rollout's fresh pods start healthy: the one failure a restart
                # clears (docs/si-profile.md); a crash loop's cause survives a restart.
                deployment["status"] = "running"
                if isinstance(deployment.get("conditions"), list):
                    deployment["conditions"] = [{"type": "Available", "status": "True"}]
            deployment["restarts"] = int(deployment.get("restarts", 0) or 0) + 1
            self._bump(deployment)
        names = [f"deployment/{d['name']}" for d in targets]
        return _ok(
            {"restarted": names},
            changed=bool(targets),
            events=tuple(events),
            targets=tuple(names) if op.selector is not None else (),
        )

    def _orchestration_rollback(self, arguments: Mapping[str, Any], op: Operation) -> Outcome:
        deployment = self._find("deployment", arguments, op.name)
        if deployment is None:
            return self._missing("deployment", op.name)
        previous = deployment.get("previous_image")
        patch: dict[str, Any] = {}
        if isinstance(previous, str):
            current = deployment.get("current_image", deployment.get("image"))
            patch = {"image": previous, "current_image": previous, "previous_image": current}
        if deployment.get("status") == "ImagePullBackOff":
            patch["status"] = "running"
        if not patch:
            return failure(409, "conflict", f"deployment/{op.name} has no previous revision")
        changed, events = self._write_fields(deployment, patch)
        self._bump(deployment)
        return _ok(f"deployment/{op.name} rolled back\n", changed=bool(changed), events=events)

    def _orchestration_exec(self, arguments: Mapping[str, Any], op: Operation) -> Outcome:
        pod = self._find("pod", arguments, op.name)
        if pod is None:
            return self._missing("pod", op.name)
        command = arguments["command"]
        if not command or command[0] not in ("env", "printenv"):
            return failure(400, "unsupported", "the simulator runs only `env` and `printenv`")
        lines = [f"{name}={value}" for name, value in sorted(self._environment(pod).items())]
        return _ok("\n".join(lines) + "\n")

    def _environment(self, pod: Mapping[str, Any]) -> dict[str, str]:
        namespace = pod.get("namespace")
        sources: list[Any] = [pod.get("env")]
        owner = pod.get("owner")
        if isinstance(owner, str):
            deployment = self.estate.get("deployment", namespace, owner.split("/", 1)[1])
            if deployment is not None:
                sources.append(deployment.get("env"))
                for container in deployment.get("containers") or []:
                    if isinstance(container, dict):
                        sources.append(container.get("env"))
        resolved: dict[str, str] = {}
        for source in sources:
            entries = (
                source.items()
                if isinstance(source, dict)
                else (
                    ((e.get("name"), e) for e in source if isinstance(e, dict))
                    if isinstance(source, list)
                    else ()
                )
            )
            for name, value in entries:
                if isinstance(name, str) and name not in resolved:
                    resolved[name] = self._resolve(namespace, value)
        return resolved

    def _resolve(self, namespace: Any, value: Any) -> str:
        if isinstance(value, dict) and "value" in value:
            return str(value["value"])
        source = value.get("valueFrom") if isinstance(value, dict) else None
        if not isinstance(source, dict):
            return str(value)
        for kind, reference in (
            ("secret", source.get("secretKeyRef")),
            ("configmap", source.get("configMapKeyRef")),
        ):
            if isinstance(reference, dict):
                found = self.estate.get(kind, namespace, str(reference.get("name")))
                data = found.get("data") if found is not None else None
                raw = data.get(str(reference.get("key"))) if isinstance(data, dict) else None
                if raw is None:
                    return ""
                return decode_secret(str(raw)) if kind == "secret" else str(raw)
        return ""

    def _orchestration_authenticate(self, arguments: Mapping[str, Any], op: Operation) -> Outcome:
        # Never reached: the environment refuses every credential switch before performing.
        return failure(403, "forbidden", "only the agent's configured credentials are accepted")

    # -- observability ----------------------------------------------------------------------

    def _logs_read(self, arguments: Mapping[str, Any], op: Operation) -> Outcome:
        namespace = op.namespace or DEFAULT_NAMESPACE
        name = op.name or ""
        pod = self.estate.get("pod", namespace, name)
        workload = name
        owner = pod.get("owner") if pod is not None else None
        if isinstance(owner, str):
            workload = owner.split("/", 1)[1]
        deployment = self.estate.get("deployment", namespace, workload)
        logs = self.estate.get("logs", namespace, workload) or self.estate.get(
            "logs", namespace, name
        )
        if pod is None and deployment is None and logs is None:
            return self._missing("workload", name)
        lines = log_lines(logs) + held_lines(deployment) + held_lines(pod)
        return _ok("\n".join(lines) + ("\n" if lines else ""))

    def _metrics_query(self, arguments: Mapping[str, Any], op: Operation) -> Outcome:
        namespace = op.namespace or DEFAULT_NAMESPACE
        name = op.name or ""
        series = self.estate.get("metrics", namespace, name)
        if series is not None:
            return _ok(series_answer(series))
        for kind in ("node", "pod", "deployment"):
            resource = self.estate.get(kind, namespace, name)
            if resource is not None:
                return _ok(metrics_answer(kind, name, resource))
        return self._missing("metrics", name)

    def _alerts_list(self, arguments: Mapping[str, Any], op: Operation) -> Outcome:
        return _ok(alerts_answer(self.estate.items("alert")))

    def _traces_list(self, arguments: Mapping[str, Any], op: Operation) -> Outcome:
        return _ok({"items": [t["name"] for t in self.estate.items("traces")]})

    def _traces_get(self, arguments: Mapping[str, Any], op: Operation) -> Outcome:
        name = op.name or ""
        held = list(self.estate.items("traces"))
        traces: dict[str, Any] = {}
        for trace in held:
            traces.setdefault(trace["name"], trace)  # the first of one name, in key order
        chosen = chosen_trace([t["name"] for t in held], name)
        if chosen is None:
            return self._missing("trace", name)
        return _ok(trace_answer(traces[chosen]))

    def _dashboards_list(self, arguments: Mapping[str, Any], op: Operation) -> Outcome:
        return _ok({"items": [d["name"] for d in self.estate.items("dashboard")]})

    def _dashboards_get(self, arguments: Mapping[str, Any], op: Operation) -> Outcome:
        dashboard = self.estate.get("dashboard", None, op.name or "")
        return self._missing("dashboard", op.name) if dashboard is None else _ok(shown(dashboard))

    def _gitops_get(self, arguments: Mapping[str, Any], op: Operation) -> Outcome:
        application = self.estate.get("gitops-application", None, op.name or "")
        return (
            self._missing("gitops-application", op.name)
            if application is None
            else _ok(shown(application))
        )

    def _gitops_sync(self, arguments: Mapping[str, Any], op: Operation) -> Outcome:
        application = self.estate.get("gitops-application", None, op.name or "")
        if application is None:
            return self._missing("gitops-application", op.name)
        changed = application.get("sync_status") != "synced"
        application["sync_status"] = "synced"
        return _ok(f"gitops-application/{op.name} synced\n", changed=changed)

    def _database_status(self, arguments: Mapping[str, Any], op: Operation) -> Outcome:
        migration = self._find("database-migration", arguments, op.name)
        return (
            self._missing("database-migration", op.name)
            if migration is None
            else _ok(shown(migration))
        )

    def _database_rollback(self, arguments: Mapping[str, Any], op: Operation) -> Outcome:
        migration = self._find("database-migration", arguments, op.name)
        if migration is None:
            return self._missing("database-migration", op.name)
        last = migration.get("last_migration")
        migration["rolled_back"] = last
        migration["last_migration"] = None
        return _ok(f"migration {last} rolled back\n", changed=True)


__all__ = [
    "IMAGE_PULL_FAILURE",
    "SERVER_OWNED_FIELDS",
    "Outcome",
    "Performer",
    "failure",
    "hidden_field_message",
    "merge_patch",
    "normal_kind",
    "plan",
    "simulation_field_refusal",
    "storage_spec_refusal",
]
