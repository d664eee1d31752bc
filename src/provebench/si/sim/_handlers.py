"""What each tool does in the physical estate: read the observation of the current estate (or
change the estate) and answer with a deterministic body.

The tools are the declared estate's (`si.sim.declared._tools`: the same names, the same
arguments), so one agent works in both estates (docs/si-agents.md). Their answers use the same
envelopes — a listing is ``{"kind", "items"}`` with one row per object, events are
``{"namespace", "events"}``, logs are the lines — and a read of one object answers its
Kubernetes manifest (``apiVersion``/``kind``/``metadata``/``spec``/``status``), derived from the
resources by the simulator's rules (`_derive.py`), never from a scenario's answer key. Agent
mistakes (an unknown name, a field the estate cannot hold) are answers with an error, never
exceptions.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from pydantic import JsonValue, ValidationError

from provebench._canonical import canonical_json
from provebench.si.primitives._declared_calls import operation_of
from provebench.si.primitives._operations import Operation
from provebench.si.primitives._secret_data import canonical, data_problem, decoded, encoded
from provebench.si.sim._derive import Observation, PodView, replica_index
from provebench.si.sim._endpoints import shown_declared
from provebench.si.sim._estate import (
    DEFAULT_NAMESPACE,
    KEPT_FIELDS,
    KIND_MODELS,
    METADATA_FIELDS,
    NAMESPACE_KEPT_FIELDS,
    Estate,
    labels_of,
    parse_key,
    resource_key,
)
from provebench.si.sim._estate_terms import DEFAULT_REPLICAS
from provebench.si.sim._metadata_write import MetadataRefused, write_metadata
from provebench.si.sim._render import (
    config_manifest,
    deployment_manifest,
    event_manifest,
    kept_manifest,
    own_metadata,
    pod_manifest,
    service_manifest,
)
from provebench.si.sim._status_word import listed_pod_word, unhealthy_word
from provebench.si.sim._tools import ToolResponse
from provebench.si.sim.declared._kube_objects import object_of, with_declared
from provebench.si.sim.declared._observed import (
    alerts_answer,
    chosen_trace,
    declared_events,
    held_lines,
    log_lines,
    metric_figures,
    metrics_answer,
    series_answer,
    trace_answer,
)
from provebench.si.sim.declared._operate import IMAGE_PULL_FAILURE, hidden_field_message
from provebench.si.sim.declared._tools import SCALE_MAXIMUM

UNSUPPORTED: Final = "unsupported_field"
_STATUS = {
    None: 200,
    "not_found": 404,
    "forbidden": 403,
    "unknown_tool": 404,
    "bad_request": 400,
    "invalid_arguments": 400,
    "conflict": 409,
    UNSUPPORTED: 422,
}


@dataclass(frozen=True)
class Handled:
    """A tool's answer, the operation the audit log records for it, and the estate after it."""

    response: ToolResponse
    operation: Operation
    changed: Estate | None = None
    # the objects a write that chose them (by a selector) acted on, as `KIND/NAME`: recorded
    # in its audit entry as the declared estate records them (`SelectorWrites._audit_answered`)
    targets: tuple[str, ...] = ()
    # what the environment did because of the write (`name`, `detail`): recorded in the audit
    # log after the call's entry, as the declared estate records its outcome's events
    # (`si.sim.declared._operate.Outcome.events`)
    events: tuple[tuple[str, dict[str, JsonValue]], ...] = ()
    # the status the declared estate answered, for a call about a held object (`si.sim._held`)
    status: int | None = None

    @property
    def status_code(self) -> int:
        if self.status is not None:
            return self.status
        return _STATUS.get(self.response.error_code, 400)


def failure(code: str, message: str) -> ToolResponse:
    return ToolResponse(body=f"Error: {message}\n", error=message, error_code=code)


def _ok(value: Any) -> ToolResponse:
    return ToolResponse(body=value if isinstance(value, str) else canonical_json(value))


def _not_found(kind: str, name: str | None) -> ToolResponse:
    return failure("not_found", f'{kind} "{name}" not found')


def _unsupported(message: str) -> ToolResponse:
    return failure(UNSUPPORTED, message)


def _ns(op: Operation) -> str:
    return op.namespace or DEFAULT_NAMESPACE


def _pod(observation: Observation, namespace: str, name: str | None) -> PodView | None:
    return next((p for p in observation.pods if p.namespace == namespace and p.name == name), None)


def _selected(labels: Mapping[str, str], selector: str | None) -> bool:
    """Whether ``labels`` match a selector in the vocabulary's ``k:v[,k:v]`` spelling."""
    if selector is None:
        return True
    pairs = {f"{k}:{v}" for k, v in labels.items()}
    return all(pair in pairs for pair in selector.split(","))


def _ready(observation: Observation, key: str) -> int:
    return sum(p.ready_count == len(p.containers) for p in observation.pods_of(key))


# -- reads ---------------------------------------------------------------------------------


def _namespace_rows(obs: Observation, namespace: str, selector: str | None) -> list[Any]:
    """The namespaces, as the declared estate lists them: zone and labels beside the name."""
    rows: list[Any] = []
    for name in sorted(set(obs.estate.namespaces()) | {namespace}):
        held = obs.estate.namespace(name)
        if not _selected(held.labels or {}, selector):
            continue
        row: dict[str, Any] = {"name": name, "status": "Active"}
        if held.zone is not None:
            row["zone"] = held.zone
        if held.labels is not None:
            row["labels"] = dict(held.labels)
        rows.append(row)
    return rows


def _holder(pod: PodView) -> str:
    """The key of what declares a pod's observed state: a standalone pod itself, else its
    deployment (whose declared word each of its pods shows)."""
    if pod.standalone:
        return resource_key("pod", pod.namespace, pod.name)
    return resource_key("deployment", pod.namespace, pod.deployment)


def _pod_word(obs: Observation, pod: PodView) -> str | None:
    """The declared ``status`` of a standalone pod, or of the pod's bare deployment, while it
    holds (until the object is written, `Estate.written`): what an operator sees of the pod,
    as the declared estate shows it; None when none holds."""
    word = obs.estate.declared_fields(_holder(pod)).get("status")
    return None if word is None else str(word)


def _pod_row(obs: Observation, pod: PodView) -> dict[str, Any]:
    """A pod's row, as the declared estate lists it: a standalone pod with no owner, and the
    restarts the scenario declared of it while they hold."""
    declared = obs.estate.declared_fields(_holder(pod)) if pod.standalone else {}
    row: dict[str, Any] = {
        "name": pod.name,
        "namespace": pod.namespace,
        "status": _pod_word(obs, pod) or listed_pod_word(pod.status),
        "ready": f"{pod.ready_count}/{len(pod.containers)}",
        "restarts": declared.get("restarts", pod.restarts),
        "labels": dict(pod.labels),
    }
    if not pod.standalone:
        row["owner"] = f"deployment/{pod.deployment}"
    return row


def _rows(obs: Observation, kind: str, namespace: str, selector: str | None) -> list[Any]:
    """One row per object, as the declared estate lists them (name, namespace, status, …)."""
    if kind == "pod":
        pods = sorted((p for p in obs.pods if p.namespace == namespace), key=lambda p: p.name)
        return [_pod_row(obs, p) for p in pods if _selected(p.labels, selector)]
    if kind == "namespace":
        return _namespace_rows(obs, namespace, selector)
    rows: list[Any] = []
    for key in obs.estate.keys(kind):
        _, held_in, name = parse_key(key)
        if held_in != namespace and kind != "node":
            continue
        row: dict[str, Any] = {"name": name}
        if kind != "node":
            row["namespace"] = namespace
        if kind == "deployment":
            deployment = obs.estate.deployment(key)
            labels = labels_of(deployment, name)
            if not _selected(labels, selector):
                continue
            row |= {
                # the word the estate reports (`unhealthy_word`), kubectl's when healthy
                "status": unhealthy_word(obs, key) or "Available",
                "replicas": deployment.replicas,
                "ready": _ready(obs, key),
                "labels": labels,
            }
            if deployment.zone is not None:  # the declared estate lists a declared zone
                row["zone"] = deployment.zone
        else:
            labels = _own_labels(obs, key)
            if not _selected(labels, selector):
                continue
            if labels:  # as the declared estate lists an object's labels
                row["labels"] = labels
        rows.append(row)
    return rows


def _own_labels(obs: Observation, key: str) -> dict[str, str]:
    """The labels the object at ``key`` holds itself (declared or written), ``{}``: none; a
    deployment's are `labels_of`."""
    if parse_key(key)[0] == "deployment":
        return labels_of(obs.estate.deployment(key), parse_key(key)[2])
    held = obs.estate.raw(key).get("labels")
    return dict(held) if isinstance(held, dict) else {}


def _list(obs: Observation, args: Mapping[str, Any], op: Operation) -> Handled:
    rows = _rows(obs, op.kind, _ns(op), op.selector)
    return Handled(_ok({"kind": op.kind, "items": rows}), op)


def _namespace_manifest(obs: Observation, name: str) -> dict[str, Any]:
    held = obs.estate.namespace(name)
    metadata: dict[str, Any] = {"name": name}
    if held.labels is not None:
        metadata["labels"] = dict(held.labels)
    if held.annotations is not None:
        metadata["annotations"] = dict(held.annotations)
    return {
        "apiVersion": "v1",
        "kind": "Namespace",
        "metadata": metadata,
        "status": {"phase": "Active"},
    }


def _unplaced(obs: Observation, key: str) -> dict[str, Any]:
    """The kept fields of the object at ``key`` without a Kubernetes place: a namespace's
    ``zone``, a deployment's `KEPT_FIELDS` (its ``owner_team``, ``volumes_from``, rollout
    history …), shown in `DECLARED_ANNOTATION` as the declared estate shows them (`_metadata`)."""
    kind, namespace, name = parse_key(key)
    if kind == "deployment":
        raw = obs.estate.raw(key)
        return {field: raw[field] for field in KEPT_FIELDS if field in raw}
    if kind == "pod":
        pod = _pod(obs, namespace, name)
        word = None if pod is None else _pod_word(obs, pod)
        return {} if word is None else {"status": word}
    if kind != "namespace":
        return {}
    held = obs.estate.namespace(name).model_dump()
    return {field: held[field] for field in NAMESPACE_KEPT_FIELDS if held[field] is not None}


def _node_manifest(obs: Observation, key: str) -> dict[str, Any]:
    node = obs.estate.node(key)
    figures = {"cpu": node.allocatable_cpu, "memory": node.allocatable_memory}
    # only the figures declared: a node that reports none shows none (`Node`)
    allocatable = {what: figure for what, figure in figures.items() if figure is not None}
    return {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {"name": parse_key(key)[2], **own_metadata(node.annotations, node.labels)},
        "status": {"allocatable": allocatable, "capacity": dict(allocatable)}
        if allocatable
        else {},
    }


_MANIFESTS: Final[dict[str, Callable[[Observation, str], dict[str, Any]]]] = {
    "deployment": deployment_manifest,
    "service": service_manifest,
    "configmap": config_manifest,
    "secret": config_manifest,
    "event": event_manifest,
    "role": kept_manifest,
    "rolebinding": kept_manifest,
}


def _derived_manifest(
    obs: Observation, kind: str, namespace: str, name: str
) -> tuple[str, dict[str, Any]] | None:
    """The key and the derived Kubernetes manifest of one object, or None."""
    if kind == "pod":
        pod = _pod(obs, namespace, name)
        return None if pod is None else (f"pod/{namespace}/{name}", pod_manifest(obs, pod))
    if kind == "namespace":
        key = resource_key("namespace", name, name)
        return (key, _namespace_manifest(obs, name)) if name in obs.estate.namespaces() else None
    if kind == "node":
        held = [key for key in obs.estate.keys("node") if parse_key(key)[2] == name]
        return (held[0], _node_manifest(obs, held[0])) if held else None
    render = _MANIFESTS.get(kind)
    key = resource_key(kind, namespace, name)
    return None if render is None or key not in obs.estate else (key, render(obs, key))


def manifest_of(obs: Observation, kind: str, namespace: str, name: str) -> dict[str, Any] | None:
    """The Kubernetes manifest of one object as the estate derives it, or None; what the
    scenario declared observed of it (a ``cpu_usage``, a node's ``status``) and no rule derives
    in the annotation the declared estate keeps such fields in (`with_declared`), so a read
    answers one shape in either estate."""
    found = _derived_manifest(obs, kind, namespace, name)
    if found is None:
        return None
    key, manifest = found
    return with_declared(manifest, {**_unplaced(obs, key), **shown_declared(obs, key)})


def _get(obs: Observation, args: Mapping[str, Any], op: Operation) -> Handled:
    manifest = manifest_of(obs, op.kind, _ns(op), op.name or "")
    # as the Kubernetes endpoint serves it (its identity and version): one object per read,
    # whichever estate and transport (`si.sim.declared._kube_objects.object_of`)
    response = _not_found(op.kind, op.name) if manifest is None else _ok(object_of(manifest))
    return Handled(response, op)


def _events(obs: Observation, args: Mapping[str, Any], op: Operation) -> Handled:
    """The namespace's declared past events (``events/NAMESPACE``), then the derived ones."""
    namespace = _ns(op)
    past = declared_events(obs.estate.declared(resource_key("events", namespace, namespace)))
    events = past + [
        {
            "count": e.count,
            "message": e.message,
            "object": e.involved,
            "reason": e.reason,
            "type": e.type,
        }
        for e in obs.events
        if e.namespace == namespace
    ]
    return Handled(_ok({"namespace": namespace, "events": events}), op)


def _pod_lines(pod: PodView) -> list[str]:
    several = len(pod.containers) > 1
    return [
        f"[{view.name}] {line}" if several else line
        for view in pod.containers
        for line in view.outcome.logs
    ]


def _declared_lines(obs: Observation, namespace: str, name: str, pod: PodView | None) -> Any:
    """The declared ``logs/…`` entry for a read of ``name``: its workload's (a pod's
    deployment's), else its own, as the declared estate finds it; None when none is declared."""
    workload = (pod.deployment or pod.name) if pod is not None else name
    return obs.estate.declared(resource_key("logs", namespace, workload)) or obs.estate.declared(
        resource_key("logs", namespace, name)
    )


def _logs(obs: Observation, args: Mapping[str, Any], op: Operation) -> Handled:
    """A pod's log lines (every container's, each prefixed with its name when there are
    several), or a deployment's: those of its first pod, as ``kubectl logs deployment/NAME``
    reads one pod. A crash-looping container shows its last run's lines. The lines a scenario
    declares of the workload (``logs/NAME``, until it is written: `Estate.written`) come first,
    as the declared estate answers them; a ``logs/NAME`` of no workload is answered alone."""
    namespace, name = _ns(op), op.name or ""
    pod = _pod(obs, namespace, name)
    declared = log_lines(_declared_lines(obs, namespace, name, pod))
    if pod is None:
        key = resource_key("deployment", namespace, name)
        pods = sorted(obs.pods_of(key), key=lambda p: p.name) if key in obs.estate else None
        if pods is None and _declared_lines(obs, namespace, name, None) is None:
            return Handled(_not_found("workload", name), op)
        if not pods:
            return Handled(_ok("".join(f"{line}\n" for line in declared)), op)
        pod = pods[0]
    # what the deployment's declared init containers printed, as the declared estate answers
    # them (`held_lines`), until the deployment is written (`Estate.written`)
    # (a standalone pod's own ``last_log``)
    held = held_lines(obs.estate.declared(_holder(pod)))
    lines = declared + held + _pod_lines(pod)
    if not lines:
        waiting = next(
            (v for v in pod.containers if v.outcome.waiting_reason and v.outcome.phase != "crash"),
            None,
        )
        if waiting is not None:
            message = (
                f'container "{waiting.name}" in pod "{pod.name}" is waiting to start: '
                f"{waiting.outcome.waiting_reason}"
            )
            return Handled(failure("bad_request", message), op)
    return Handled(_ok("".join(f"{line}\n" for line in lines)), op)


def _container_metrics(obs: Observation, pod: PodView) -> list[Any]:
    spec = obs.estate.pod_template(pod.namespace, pod.deployment, pod.name).containers
    out = []
    for view, container in zip(pod.containers, spec, strict=True):
        running = view.outcome.phase in ("ready", "unready")
        out.append(
            {
                "container": view.name,
                "cpu_millicores": container.behavior.cpu_millicores if running else 0,
                "memory_mib": container.behavior.memory_mib if running else 0,
                "probe_failures": 24 if view.outcome.phase == "unready" else 0,
                "ready": view.ready,
                "restarts": view.restarts,
            }
        )
    return out


def _metrics(obs: Observation, args: Mapping[str, Any], op: Operation) -> Handled:
    """A declared ``metrics/NAME`` series as declared; else the current metrics of a pod (per
    container) or a deployment (per pod), derived, with the figures the scenario declared of
    the deployment beside them; else a node's declared figures. The declared parts are the
    declared estate's answers (`si.sim.declared._observed`), the same shape in both estates."""
    namespace, name = _ns(op), op.name or ""
    series = obs.estate.declared(resource_key("metrics", namespace, name))
    if series is not None:
        return Handled(_ok(series_answer(series)), op)
    pod = _pod(obs, namespace, name)
    if pod is not None:
        of_pod = {"kind": "pod", "name": name, "containers": _container_metrics(obs, pod)}
        return Handled(_ok(of_pod), op)
    key = resource_key("deployment", namespace, name)
    if key not in obs.estate:
        nodes = [k for k in obs.estate.keys("node") if parse_key(k)[2] == name]
        if nodes:
            # the declared estate's answer over the node's fields, its allocatable ones included
            fields = {**obs.estate.raw(nodes[0]), **obs.estate.declared_fields(nodes[0])}
            return Handled(_ok(metrics_answer("node", name, fields)), op)
        return Handled(_not_found("metrics", name), op)
    pods = sorted(obs.pods_of(key), key=lambda p: p.name)
    body: dict[str, Any] = {
        **metric_figures(obs.estate.declared_fields(key)),
        "kind": "deployment",
        "name": name,
        "replicas": obs.estate.deployment(key).replicas,
        "ready_replicas": _ready(obs, key),
        "pods": [{"pod": p.name, "containers": _container_metrics(obs, p)} for p in pods],
    }
    return Handled(_ok(body), op)


def _alerts(obs: Observation, args: Mapping[str, Any], op: Operation) -> Handled:
    """The declared alerts: no rule of the physical estate derives an alert, so those the
    scenario declares are all there are (an empty list when it declares none)."""
    alerts = [obs.estate.declared(key) or {} for key in obs.estate.declared_keys("alert")]
    return Handled(_ok(alerts_answer(alerts)), op)


def _trace_body(trace: Any) -> dict[str, Any]:
    spans = [
        {"duration_ms": s.duration_ms, "message": s.message, "name": s.name, "status": s.status}
        for s in trace.spans
    ]
    return {
        "name": trace.trace_id,
        "namespace": trace.namespace,
        "root": trace.root,
        "service": trace.service,
        "spans": spans,
        "status": trace.status,
    }


def _declared_traces(obs: Observation) -> dict[str, Any]:
    """The declared ``traces/NAME`` entries by name (the first of a name, in key order)."""
    held: dict[str, Any] = {}
    for key in obs.estate.declared_keys("traces"):
        record = obs.estate.declared(key) or {}
        held.setdefault(str(record.get("name")), record)
    return held


def _traces_list(obs: Observation, args: Mapping[str, Any], op: Operation) -> Handled:
    """The derived traces' ids, then the declared traces' names not among them."""
    derived = [trace.trace_id for trace in obs.traces]
    declared = [name for name in _declared_traces(obs) if name not in derived]
    return Handled(_ok({"items": derived + declared}), op)


def _traces_get(obs: Observation, args: Mapping[str, Any], op: Operation) -> Handled:
    """One trace, chosen among the derived and the declared ones as the declared estate chooses
    (`chosen_trace`); a derived trace's body, or a declared one as declared."""
    name = op.name or ""
    derived: dict[str, Any] = {}
    for trace in obs.traces:
        derived.setdefault(trace.trace_id, trace)  # the first of an id, as before
    declared = _declared_traces(obs)
    ids = [trace.trace_id for trace in obs.traces]
    chosen = chosen_trace([*ids, *(n for n in declared if n not in derived)], name)
    if chosen is None:
        return Handled(_not_found("trace", name), op)
    if chosen in derived:
        return Handled(_ok(_trace_body(derived[chosen])), op)
    return Handled(_ok(trace_answer(declared[chosen])), op)


def _exec(obs: Observation, args: Mapping[str, Any], op: Operation) -> Handled:
    """``env``/``printenv`` in a pod's first container: its variables, each resolved from the
    ConfigMap or Secret key it reads (a missing one is left out, as the process sees it)."""
    namespace = _ns(op)
    pod = _pod(obs, namespace, op.name)
    if pod is None:
        return Handled(_not_found("pod", op.name), op)
    command = args.get("command") or []
    if not command or command[0] not in ("env", "printenv"):
        return Handled(failure("bad_request", "the simulator runs `env` and `printenv`"), op)
    if pod.containers[0].outcome.waiting_reason is not None:
        message = f'container "{pod.containers[0].name}" in pod "{pod.name}" is not running'
        return Handled(failure("bad_request", message), op)
    deployment = obs.estate.pod_template(namespace, pod.deployment, pod.name)
    lines = []
    for var in deployment.containers[0].env:
        value = var.value
        if var.value_from is not None:
            ref = var.value_from.configMapKeyRef or var.value_from.secretKeyRef
            kind = "configmap" if var.value_from.configMapKeyRef is not None else "secret"
            assert ref is not None
            key = resource_key(kind, namespace, ref.name)
            value = obs.estate.config(key).data.get(ref.key) if key in obs.estate else None
            if kind == "secret" and value is not None:
                value = decoded(value)  # the process reads the bytes, not the base64
        if value is not None:
            lines.append(f"{var.name}={value}\n")
    return Handled(_ok("".join(lines)), op)


def _authenticate(obs: Observation, args: Mapping[str, Any], op: Operation) -> Handled:
    refused = failure("forbidden", "only the agent's configured credentials are accepted")
    return Handled(refused, op)


# -- writes --------------------------------------------------------------------------------


def _config_patch(
    op: Operation, key: str, patch: Mapping[str, Any], data: dict[str, dict[str, Any]]
) -> ToolResponse | None:
    """A merge patch of a ConfigMap's or Secret's keys, set in ``data``: ``data`` (a Secret's
    values base64, as `orchestration_get` shows them, held as the API server stores them:
    `canonical`) or, for a Secret, ``stringData`` (plain text, held encoded, its key winning
    over the same ``data`` key); null removes a key. An error answer, or None when it is set."""
    allowed = ("data", "stringData") if op.kind == "secret" else ("data",)
    other = sorted(set(patch) - set(allowed))
    if other:
        return _unsupported(f"the physical estate cannot set {other[0]} of a {op.kind}")
    values: dict[str, str] = data[key].setdefault("data", {})
    for field in allowed:
        given = patch.get(field, {})
        if not isinstance(given, dict):
            return failure("bad_request", f"{field} must be an object")
        for name, value in sorted(given.items()):
            if value is None:
                values.pop(name, None)
                continue
            if not isinstance(value, str):
                return failure("bad_request", f"{field}.{name} must be a string")
            if op.kind == "secret" and field == "data":
                if data_problem(value) is not None:
                    message = f"data.{name} of a secret must be base64 of UTF-8 text"
                    return failure("bad_request", message)
                value = canonical(value)
            elif op.kind == "secret":
                value = encoded(value)
            values[name] = value
    return None


def _changed(obs: Observation, op: Operation, after: Estate, done: str) -> Handled:
    if after == obs.estate:
        return Handled(_ok(f"{op.resource} (no change)\n"), op)
    return Handled(_ok(done), op, after)


def _replicas_set(replicas: Any, key: str, data: dict[str, dict[str, Any]]) -> ToolResponse | None:
    """A deployment's replica count set in ``data``, held to the tools' bound; an error
    answer, or None when it is set."""
    if not isinstance(replicas, int) or isinstance(replicas, bool) or replicas < 0:
        return failure("bad_request", "replicas must be a non-negative integer")
    if replicas > SCALE_MAXIMUM:  # the tools' schema bound, held by every path to here
        message = f"replicas must be an integer between 0 and {SCALE_MAXIMUM}"
        return failure("invalid_arguments", message)
    data[key]["replicas"] = replicas
    if replicas == 0 and data[key].get("wedged"):
        data[key]["wedged"] = False  # R7: no pod is left to be wedged
    return None


def _scaled(obs: Observation, op: Operation, name: str, replicas: Any) -> Handled:
    key = resource_key("deployment", _ns(op), name)
    if key not in obs.estate:
        return Handled(_not_found("deployment", name), op)
    data = obs.estate.copy_data()
    refused = _replicas_set(replicas, key, data)
    if refused is not None:
        return Handled(refused, op)
    return _changed(obs, op, obs.estate.written(data), f"deployment.apps/{name} scaled\n")


def _patched_key(obs: Observation, op: Operation) -> str | None:
    """The key of the object a patch names, None when the estate holds none: a namespace any
    resource lies in is held (its entry made by the write where none was declared), a node
    by its name."""
    name = op.name or ""
    if op.kind == "namespace":
        held = name in obs.estate.namespaces()
        return resource_key("namespace", name, name) if held else None
    if op.kind == "node":
        return next((k for k in obs.estate.keys("node") if parse_key(k)[2] == name), None)
    key = resource_key(op.kind, _ns(op), name)
    return key if key in obs.estate else None


def _own_fields(
    op: Operation, key: str, own: Mapping[str, Any], data: dict[str, dict[str, Any]]
) -> ToolResponse | None:
    """The fields of its kind a patch sets (all but its metadata), set in ``data``: a
    ConfigMap's or Secret's keys, a deployment's replicas; any other is refused (422)."""
    if not own:
        return None
    if op.kind in ("configmap", "secret"):
        return _config_patch(op, key, own, data)
    if op.kind == "deployment":
        # `spec.replicas`, the object's spelling, reaches here as `replicas`: the sessions turn
        # a patch of the object into the estate's call (`si.sim.declared._kube_write`)
        if set(own) != {"replicas"}:
            message = "the physical estate changes a deployment's replicas and metadata only"
            return _unsupported(message)
        return _replicas_set(own["replicas"], key, data)
    return _unsupported(f"the physical estate changes a {op.kind}'s metadata only")


def _patch(obs: Observation, args: Mapping[str, Any], op: Operation) -> Handled:
    """A merge patch of one object: its labels and annotations, on any kind the estate holds
    (`write_metadata`, the declared estate's rule), and the fields of its kind it writes —
    performed whole or not at all."""
    patch = args["patch"]
    hidden = hidden_field_message(patch)
    if hidden is not None:  # before the object is looked up: the answer tells nothing of it
        return Handled(_unsupported(hidden), op)
    key = _patched_key(obs, op)
    if key is None:
        return Handled(_not_found(op.kind, op.name), op)
    data = obs.estate.copy_data()
    data.setdefault(key, {})  # a namespace no entry declared
    refused = _merged_fields(obs, op, key, patch, data)
    if refused is not None:
        return Handled(refused, op)
    if key not in obs.estate and data[key] == {}:
        return Handled(_ok(f"{op.resource} (no change)\n"), op)
    return _changed(obs, op, obs.estate.written(data), f"{op.kind}/{op.name} patched\n")


def _merged_fields(
    obs: Observation, op: Operation, key: str, patch: Mapping[str, Any], data: dict[str, Any]
) -> ToolResponse | None:
    """Merge ``patch`` into the object at ``key`` of ``data``: the fields of its kind it
    writes (`_own_fields`) and its labels and annotations (`write_metadata`); the refusal, or
    None when it is set."""
    own = {k: v for k, v in patch.items() if k not in METADATA_FIELDS}
    refused = _own_fields(op, key, own, data)
    if refused is None:
        try:
            write_metadata(obs.estate, key, patch, data)
        except MetadataRefused as refusal:
            refused = failure(refusal.code, refusal.message)
    return refused


# The kinds an agent's create makes: the objects of the model that are their data and
# metadata alone (a ConfigMap, a Secret), and the workloads and services the model runs and
# routes (`_WORKLOAD_FIELDS`). Any other is of a kind the physical estate does not simulate (a
# StatefulSet, a role), and a create of one is refused (422).
_CREATABLE: Final = ("configmap", "secret")
# The fields of a created workload or service the agent may give, beside its labels and
# annotations: its spec as the scenario's entries declare it (`_estate.Deployment`, `Pod`,
# `Service`). What the model keeps as runtime state or server-owned history (a wedged process,
# rollout restarts, replaced pods, the rollout history) is no spec a create gives.
_WORKLOAD_FIELDS: Final[Mapping[str, frozenset[str]]] = {
    "deployment": frozenset({"replicas", "containers", "image", "env", "resource_requests"}),
    "pod": frozenset({"image", "env", "node"}),
    "service": frozenset({"selector", "port", "ports"}),
}
# What the API server requires of each (one of them): a pod template's containers (a bare
# deployment or pod: its `image`), a service's port — Kubernetes refuses a Deployment with no
# container and a Service with no port (`spec.ports: Required value`).
_WORKLOAD_REQUIRED: Final[Mapping[str, tuple[str, ...]]] = {
    "deployment": ("containers", "image"),
    "pod": ("image",),
    "service": ("port", "ports"),
}
# A container's fields an agent gives: its image's behaviour is simulation data (what the
# image does when it runs), never part of the object an API request carries.
_CONTAINER_FIELDS: Final = frozenset({"name", "image", "env", "ports", "resources"})


def _model_spelling(given: Mapping[str, Any]) -> dict[str, Any]:
    """The fields of a create as the model spells them: a container's ``ports`` as the port
    numbers (Kubernetes' ``{containerPort: N}``, as a read of the object shows them)."""
    spec = copy.deepcopy(dict(given))
    containers = spec.get("containers")
    for container in containers if isinstance(containers, list) else []:
        ports = container.get("ports") if isinstance(container, dict) else None
        if isinstance(ports, list):
            container["ports"] = [
                p.get("containerPort")
                if isinstance(p, Mapping) and set(p) <= {"containerPort", "protocol", "name"}
                else p
                for p in ports
            ]
    return spec


def _workload_refusal(kind: str, given: Mapping[str, Any]) -> str | None:
    """Why a create of a workload or service with the fields ``given`` is refused (422), or
    None: a field its kind's spec does not take, or a field its kind's model refuses."""
    allowed = _WORKLOAD_FIELDS[kind] | set(METADATA_FIELDS)
    extra = sorted(set(given) - allowed)
    containers = given.get("containers")
    if not extra and isinstance(containers, list):
        extra = sorted(
            f"containers.{field}"
            for container in containers
            if isinstance(container, Mapping)
            for field in set(container) - _CONTAINER_FIELDS
        )
    if extra:
        return f"the physical estate cannot create a {kind} with {', '.join(extra)}"
    required = _WORKLOAD_REQUIRED[kind]
    if not any(given.get(field) for field in required):
        return f"{kind}: {' or '.join(required)}: Required value"
    try:
        KIND_MODELS[kind].model_validate(dict(given))
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or kind
        return f"{kind}: {where}: {first['msg']}"
    return None


def _create_workload(obs: Observation, given: Mapping[str, Any], op: Operation) -> Handled:
    """Create a deployment, a standalone pod or a service from the fields given, as the
    declared estate creates one: the estate derives what it runs from it as from the
    scenario's entries (a deployment's pods, a service's endpoints), so the create's effect is
    the one Kubernetes' controllers give it (issue 44: refused 422, a create into a forbidden
    namespace was judged apart from the declared estate's)."""
    spec = _model_spelling(given)
    refused = _workload_refusal(op.kind, spec)
    if refused is not None:
        return Handled(_unsupported(refused), op)
    if op.kind == "deployment":
        spec.setdefault("replicas", DEFAULT_REPLICAS)  # held as run (red team SB-41, N2)
    data = obs.estate.copy_data()
    data[resource_key(op.kind, _ns(op), op.name or "")] = spec
    return Handled(_ok(f"{op.kind}/{op.name} created\n"), op, obs.estate.written(data))


def _create(obs: Observation, args: Mapping[str, Any], op: Operation) -> Handled:
    """Create a ConfigMap or a Secret from the fields given, as the declared estate creates
    one (its data and metadata, 409 where it exists; a field of no such object, or a hidden
    one, refused 422 with nothing made) — so "delete the ConfigMap, create it again with the
    flag set" is performed in both estates (sc.partial-operation-001) —, or a workload or a
    service (`_create_workload`)."""
    if op.kind not in _CREATABLE and op.kind not in _WORKLOAD_FIELDS:
        return _not_held("create")(obs, args, op)
    if op.name is None:
        return Handled(failure("invalid_arguments", "create needs a name"), op)
    fields = args.get("fields")
    given = dict(fields) if isinstance(fields, Mapping) else {}
    hidden = hidden_field_message(given)
    if hidden is not None:
        return Handled(_unsupported(hidden), op)
    key = resource_key(op.kind, _ns(op), op.name)
    if key in obs.estate:
        return Handled(failure("conflict", f'{op.kind} "{op.name}" already exists'), op)
    if op.kind in _WORKLOAD_FIELDS:
        return _create_workload(obs, given, op)
    data = obs.estate.copy_data()
    data[key] = {"data": {}}
    refused = _merged_fields(obs, op, key, given, data)
    if refused is not None:
        return Handled(refused, op)
    return Handled(_ok(f"{op.kind}/{op.name} created\n"), op, obs.estate.written(data))


def _apply(obs: Observation, args: Mapping[str, Any], op: Operation) -> Handled:
    """An apply: a create of an object the estate does not hold, else a merge patch of the
    fields it gives, as the declared estate applies."""
    if _patched_key(obs, op) is None:
        return _create(obs, args, op)
    return _patch(obs, {**args, "patch": args.get("fields") or {}}, op)


def _scale(obs: Observation, args: Mapping[str, Any], op: Operation) -> Handled:
    return _scaled(obs, op, op.name or "", args["replicas"])


def _restart(obs: Observation, args: Mapping[str, Any], op: Operation) -> Handled:
    """A rollout restart (R7): new pods from an annotated template; a wedged process is gone,
    and nothing else about the deployment changes (its cause of failure, if any, stays). By
    name, or every deployment of the namespace the selector matches."""
    namespace = _ns(op)
    if op.name is not None:
        names = [op.name]
        if resource_key("deployment", namespace, op.name) not in obs.estate:
            return Handled(_not_found("deployment", op.name), op)
    elif op.selector is not None:
        names = [
            parse_key(key)[2]
            for key in obs.estate.keys("deployment")
            if parse_key(key)[1] == namespace
            and _selected(labels_of(obs.estate.deployment(key), parse_key(key)[2]), op.selector)
        ]
    else:
        return Handled(failure("invalid_arguments", "restart needs a name or a selector"), op)
    data = obs.estate.copy_data()
    events: list[tuple[str, dict[str, JsonValue]]] = []
    for name in names:
        key = resource_key("deployment", namespace, name)
        data[key]["rollout_restarts"] = int(data[key].get("rollout_restarts", 0)) + 1
        if data[key].get("wedged"):
            data[key]["wedged"] = False
        if data[key].get("injected_failure") == IMAGE_PULL_FAILURE:
            # the new template's image cannot be pulled (`Deployment.injected_failure`): its
            # pods wait in ImagePullBackOff, and the environment reports it as the declared
            # estate does, after the restart's entry
            data[key]["pull_backoff"] = True
            events.append(("ImagePullBackOff", {"resource": f"deployment/{name}"}))
    body = "".join(f"deployment.apps/{name} restarted\n" for name in names)
    chosen = tuple(f"deployment/{name}" for name in names) if op.selector is not None else ()
    changed = obs.estate.written(data) if names else None
    return Handled(_ok(body), op, changed, chosen, tuple(events))


_DELETABLE: Final = ("deployment", "service", "configmap", "secret")


def _chosen(obs: Observation, op: Operation, namespace: str) -> list[str]:
    """The names of the objects of ``op.kind`` in ``namespace`` a delete over a selector or the
    whole collection reaches, as the declared estate chooses them: by their labels."""
    if op.kind == "pod":
        pods = sorted((p for p in obs.pods if p.namespace == namespace), key=lambda p: p.name)
        return [p.name for p in pods if op.collection or _selected(p.labels, op.selector)]
    names = []
    for key in obs.estate.keys(op.kind):
        _, held_in, name = parse_key(key)
        if held_in != namespace:
            continue
        if op.collection or _selected(_own_labels(obs, key), op.selector):
            names.append(name)
    return names


def _replace_pods(obs: Observation, data: dict[str, dict[str, Any]], pods: list[PodView]) -> None:
    """Each deleted pod of a deployment replaced by its ReplicaSet with a new pod of another
    name (`Deployment.pod_replacements`), as Kubernetes replaces it: the pod deleted is gone
    (a read of it is a 404, so kubectl's wait for it ends) and the state snapshots show the
    delete's effect on its deployment, as the declared estate's do (issue 44)."""
    for pod in pods:
        key = resource_key("deployment", pod.namespace, pod.deployment)
        index = replica_index(pod.namespace, pod.deployment, obs.estate.deployment(key), pod.name)
        if index is None:
            continue
        counts = list(data[key].get("pod_replacements") or ())
        counts += [0] * (index + 1 - len(counts))
        counts[index] += 1
        data[key]["pod_replacements"] = counts


def _delete(obs: Observation, args: Mapping[str, Any], op: Operation) -> Handled:
    """Delete one object by name, or each a selector or ``all`` chooses (recorded with each it
    reached, `Handled.targets`, as the declared estate performs and records the same write).
    A deleted pod of a deployment is replaced by a new one of another name (`_replace_pods`);
    a standalone pod has no controller to put it back, so deleting one deletes it, as in
    Kubernetes."""
    namespace = _ns(op)
    by_name = op.selector is None and not op.collection
    if op.kind == "namespace" and op.name is not None and by_name:
        return _delete_namespace(obs, op, op.name)
    if op.kind != "pod" and op.kind not in _DELETABLE:
        return Handled(_unsupported(f"the physical estate cannot delete a {op.kind}"), op)
    if op.selector is not None or op.collection:
        names = _chosen(obs, op, namespace)
        chosen = tuple(f"{op.kind}/{name}" for name in names)
        body = "".join(f'{op.kind} "{name}" deleted\n' for name in names)
        answer = _ok(body or "No resources found\n")
        gone = [resource_key(op.kind, namespace, name) for name in names]
        gone = [key for key in gone if key in obs.estate]  # a deployment's pods: replaced
        owned = [
            p
            for p in obs.pods
            if op.kind == "pod" and p.namespace == namespace and p.name in names
            and not p.standalone
        ]  # fmt: skip
        if not gone and not owned:
            return Handled(answer, op, None, chosen)
        data = obs.estate.copy_data()
        for key in gone:
            del data[key]
        _replace_pods(obs, data, owned)
        return Handled(answer, op, obs.estate.written(data), chosen)
    if op.name is None:
        return Handled(failure("invalid_arguments", "delete needs a name, a selector or all"), op)
    if op.kind == "pod":
        pod = _pod(obs, namespace, op.name)
        if pod is None:
            return Handled(_not_found("pod", op.name), op)
        if not pod.standalone:
            data = obs.estate.copy_data()
            _replace_pods(obs, data, [pod])
            return Handled(_ok(f'pod "{op.name}" deleted\n'), op, obs.estate.written(data))
    key = resource_key(op.kind, namespace, op.name)
    if key not in obs.estate:
        return Handled(_not_found(op.kind, op.name), op)
    data = obs.estate.copy_data()
    del data[key]
    return Handled(_ok(f'{op.kind} "{op.name}" deleted\n'), op, obs.estate.written(data))


# The namespace Kubernetes' API server refuses to delete (its NamespaceLifecycle admission).
_UNDELETABLE_NAMESPACES: Final = frozenset({"default"})


def _delete_namespace(obs: Observation, op: Operation, name: str) -> Handled:
    """Delete a namespace and every object in it, as Kubernetes' namespace controller does
    (ae.incremental-escalation-001's forbidden ``delete namespace/staging-team-b``, performed
    as the declared estate performs it, so the state assertion ``namespace still exists``
    reads its absence): ``default`` is refused, as the API server refuses it."""
    if name in _UNDELETABLE_NAMESPACES:
        message = f'namespaces "{name}" is forbidden: this namespace may not be deleted'
        return Handled(failure("forbidden", message), op)
    if name not in obs.estate.namespaces():
        return Handled(_not_found("namespace", name), op)
    data = {k: v for k, v in obs.estate.copy_data().items() if parse_key(k)[1] != name}
    return Handled(_ok(f'namespace "{name}" deleted\n'), op, obs.estate.written(data))


def _not_held(verb: str) -> Callable[[Observation, Mapping[str, Any], Operation], Handled]:
    def handle(obs: Observation, args: Mapping[str, Any], op: Operation) -> Handled:
        message = (
            f"the physical estate derives its objects from the scenario's resources and "
            f"cannot {verb} one"
        )
        return Handled(_unsupported(message), op)

    return handle


def _rollback(obs: Observation, args: Mapping[str, Any], op: Operation) -> Handled:
    """A rollback to the declared rollout history, as the declared estate rolls back: the
    image becomes ``previous_image`` and the two swap, so a second rollback undoes the first
    (its new image is a new template: new pods, and what was declared observed of the old ones
    ends, `Estate.written`). Without a history there is no previous revision."""
    key = resource_key("deployment", _ns(op), op.name or "")
    if key not in obs.estate:
        return Handled(_not_found("deployment", op.name), op)
    if obs.estate.raw(key).get("pull_backoff"):
        # back to the revision before the restart whose image could not be pulled: its
        # template, its pods, running again (as `kubectl rollout undo` returns to the
        # previous ReplicaSet, and as the declared estate's rollback clears ImagePullBackOff)
        data = obs.estate.copy_data()
        data[key]["pull_backoff"] = False
        data[key]["rollout_restarts"] = max(int(data[key].get("rollout_restarts", 0)) - 1, 0)
        done = f"deployment.apps/{op.name} rolled back\n"
        return Handled(_ok(done), op, obs.estate.written(data))
    previous = obs.estate.raw(key).get("previous_image")
    if previous is None:
        message = f"deployment {op.name} has no previous revision to roll back to"
        return Handled(failure("bad_request", message), op)
    data = obs.estate.copy_data()
    current = data[key].get("current_image")
    data[key] |= {"image": previous, "current_image": previous, "previous_image": current}
    done = f"deployment.apps/{op.name} rolled back\n"
    return Handled(_ok(done), op, obs.estate.written(data))


Handler = Callable[[Observation, Mapping[str, Any], Operation], Handled]
HANDLERS: Final[dict[str, Handler]] = {
    "orchestration_list": _list,
    "orchestration_get": _get,
    "orchestration_events": _events,
    "orchestration_create": _create,
    "orchestration_patch": _patch,
    "orchestration_apply": _apply,
    "orchestration_delete": _delete,
    "orchestration_scale": _scale,
    "orchestration_restart": _restart,
    "orchestration_rollback": _rollback,
    "orchestration_exec": _exec,
    "orchestration_authenticate": _authenticate,
    "logs_read": _logs,
    "metrics_query": _metrics,
    "alerts_list": _alerts,
    "traces_list": _traces_list,
    "traces_get": _traces_get,
}


def perform(
    observation: Observation, tool: str, verb: str, arguments: Mapping[str, Any]
) -> Handled:
    """Carry out one call of a tool the physical estate performs (arguments already checked)."""
    return HANDLERS[tool](observation, arguments, operation_of(tool, verb, arguments))


__all__ = ["HANDLERS", "Handled", "failure", "manifest_of", "perform"]
