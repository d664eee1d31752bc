"""What each tool does: read the observation of the current estate (or change the estate) and
answer with a deterministic body. Agent mistakes (an unknown name, a namespace outside the scope)
are answers with an error, never exceptions.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from provebench._canonical import canonical_json
from provebench.si.sim._derive import Observation, PodView
from provebench.si.sim._estate import DEFAULT_NAMESPACE, Estate, parse_key, resource_key
from provebench.si.sim._render import (
    config_manifest,
    deployment_manifest,
    describe_pod,
    describe_resource,
    list_body,
    manifest_body,
    pod_manifest,
    service_manifest,
)
from provebench.si.sim._tools import ToolResponse

_STATUS = {None: 200, "not_found": 404, "forbidden": 403, "bad_request": 400}


@dataclass(frozen=True)
class Handled:
    """A tool's answer, what the audit log records about it, and the estate after it."""

    response: ToolResponse
    verb: str
    resource: str
    namespace: str | None
    changed: Estate | None = None

    @property
    def status_code(self) -> int:
        return _STATUS.get(self.response.error_code, 400)


def failure(code: str, message: str) -> ToolResponse:
    return ToolResponse(body=f"Error: {message}\n", error=message, error_code=code)


def _ok(body: str) -> ToolResponse:
    return ToolResponse(body=body)


def _pod(observation: Observation, namespace: str, name: str) -> PodView | None:
    return next((p for p in observation.pods if p.namespace == namespace and p.name == name), None)


def _not_found(kind: str, name: str) -> ToolResponse:
    return failure("not_found", f'{kind}s "{name}" not found')


def _list(obs: Observation, args: Mapping[str, Any], ns: str) -> Handled:
    kind = args["kind"]
    return Handled(_ok(list_body(obs, kind, ns)), "list", f"{kind}/all", ns)


def _get(obs: Observation, args: Mapping[str, Any], ns: str) -> Handled:
    kind, name = args["kind"], args["name"]
    resource = f"{kind}/{name}"
    if kind == "pod":
        pod = _pod(obs, ns, name)
        body = None if pod is None else manifest_body(pod_manifest(obs, pod))
    else:
        key = resource_key(kind, ns, name)
        body = None
        if key in obs.estate:
            render = {
                "deployment": deployment_manifest,
                "service": service_manifest,
                "configmap": config_manifest,
                "secret": config_manifest,
            }[kind]
            body = manifest_body(render(obs, key))
    response = _not_found(kind, name) if body is None else _ok(body)
    return Handled(response, "get", resource, ns)


def _describe(obs: Observation, args: Mapping[str, Any], ns: str) -> Handled:
    kind, name = args["kind"], args["name"]
    if kind == "pod":
        pod = _pod(obs, ns, name)
        body = None if pod is None else describe_pod(obs, pod)
    else:
        key = resource_key(kind, ns, name)
        body = describe_resource(obs, key) if key in obs.estate else None
    response = _not_found(kind, name) if body is None else _ok(body)
    return Handled(response, "get", f"{kind}/{name}", ns)


def _logs(obs: Observation, args: Mapping[str, Any], ns: str) -> Handled:
    name = args["pod"]
    pod = _pod(obs, ns, name)

    def done(response: ToolResponse) -> Handled:
        return Handled(response, "log", f"pod/{name}", ns)

    if pod is None:
        return done(_not_found("pod", name))
    names = [c.name for c in pod.containers]
    wanted = args.get("container")
    if wanted is None and len(names) > 1:
        return done(
            failure(
                "bad_request",
                f"a container name must be specified for pod {name}, choose one of: {names}",
            )
        )
    chosen = next((c for c in pod.containers if c.name == (wanted or names[0])), None)
    if chosen is None:
        return done(failure("bad_request", f"container {wanted} is not valid for pod {name}"))
    outcome = chosen.outcome
    if args.get("previous"):
        if outcome.phase != "crash":
            message = f'previous terminated container "{chosen.name}" in pod "{name}" not found'
            return done(failure("bad_request", message))
        return done(_ok("".join(f"{line}\n" for line in outcome.logs)))
    if outcome.waiting_reason is not None and outcome.phase != "crash":
        message = (
            f'container "{chosen.name}" in pod "{name}" is waiting to start: '
            f"{outcome.waiting_reason}"
        )
        return done(failure("bad_request", message))
    return done(_ok("".join(f"{line}\n" for line in outcome.logs)))


def _logging_query(obs: Observation, args: Mapping[str, Any], ns: str) -> Handled:
    workload, contains = args.get("workload"), args.get("contains")
    lines = []
    for pod in obs.pods:
        if pod.namespace != ns or (workload is not None and pod.deployment != workload):
            continue
        for view in pod.containers:
            for line in view.outcome.logs:
                if contains is None or contains.casefold() in line.casefold():
                    lines.append(f"{pod.name}/{view.name} {line}\n")
    return Handled(_ok("".join(lines)), "query", f"logs/{workload or 'all'}", ns)


def _metric_series(obs: Observation, metric: str, ns: str, workload: str | None) -> list[Any]:
    series: list[Any] = []
    if metric == "kube_deployment_status_replicas_available":
        for key in obs.estate.keys("deployment"):
            _, namespace, name = parse_key(key)
            if namespace == ns and workload in (None, name):
                ready = sum(p.ready_count == len(p.containers) for p in obs.pods_of(key))
                series.append({"labels": {"deployment": name, "namespace": ns}, "value": ready})
        return series
    for pod in obs.pods:
        if pod.namespace != ns or workload not in (None, pod.deployment):
            continue
        if metric == "kube_pod_status_ready":
            ready = int(pod.ready_count == len(pod.containers))
            series.append({"labels": {"namespace": ns, "pod": pod.name}, "value": ready})
            continue
        spec = obs.estate.deployment(resource_key("deployment", ns, pod.deployment)).containers
        for view, container in zip(pod.containers, spec, strict=True):
            running = view.outcome.phase in ("ready", "unready")
            value = {
                "kube_pod_container_status_restarts_total": view.restarts,
                "container_cpu_usage_millicores": container.behavior.cpu_millicores
                if running
                else 0,
                "container_memory_working_set_mib": container.behavior.memory_mib if running else 0,
                "prober_probe_failures_total": 24 if view.outcome.phase == "unready" else 0,
            }[metric]
            labels = {"container": view.name, "namespace": ns, "pod": pod.name}
            series.append({"labels": labels, "value": value})
    return series


def _metrics(obs: Observation, args: Mapping[str, Any], ns: str) -> Handled:
    metric, workload = args["metric"], args.get("workload")
    body = canonical_json({"metric": metric, "series": _metric_series(obs, metric, ns, workload)})
    return Handled(_ok(body + "\n"), "query", f"metric/{metric}", ns)


def _traces(obs: Observation, args: Mapping[str, Any], ns: str) -> Handled:
    service, status = args.get("service"), args.get("status")
    traces = []
    for trace in obs.traces:
        if trace.namespace != ns or service not in (None, trace.service):
            continue
        if status is not None and trace.status != status:
            continue
        spans = [
            {"duration_ms": s.duration_ms, "message": s.message, "name": s.name, "status": s.status}
            for s in trace.spans
        ]
        traces.append(
            {
                "root": trace.root,
                "service": trace.service,
                "spans": spans,
                "status": trace.status,
                "trace_id": trace.trace_id,
            }
        )
    body = canonical_json({"traces": traces})
    return Handled(_ok(body + "\n"), "query", f"trace/{service or 'all'}", ns)


def _patch(obs: Observation, args: Mapping[str, Any], ns: str) -> Handled:
    kind, name = args["kind"], args["name"]
    key = resource_key(kind, ns, name)
    resource = f"{kind}/{name}"
    if key not in obs.estate:
        return Handled(_not_found(kind, name), "patch", resource, ns)
    data = obs.estate.copy_data()
    values: dict[str, str] = data[key].setdefault("data", {})
    for removed in args.get("remove", []):
        values.pop(removed, None)
    values.update(args.get("set", {}))
    changed = Estate(data)
    body = f"{kind}/{name} patched\n" if changed != obs.estate else f"{kind}/{name} (no change)\n"
    return Handled(_ok(body), "patch", resource, ns, changed if changed != obs.estate else None)


def _scale(obs: Observation, args: Mapping[str, Any], ns: str) -> Handled:
    name, replicas = args["name"], args["replicas"]
    key = resource_key("deployment", ns, name)
    resource = f"deployment/{name}"
    if key not in obs.estate:
        return Handled(_not_found("deployment", name), "scale", resource, ns)
    data = obs.estate.copy_data()
    unchanged = data[key].get("replicas", 1) == replicas
    data[key]["replicas"] = replicas
    if replicas == 0 and data[key].get("wedged"):
        data[key]["wedged"] = False  # R7: no pod is left to be wedged
    body = f"deployment.apps/{name} {'scaled' if not unchanged else '(no change)'}\n"
    return Handled(_ok(body), "scale", resource, ns, None if unchanged else Estate(data))


def _restart(obs: Observation, args: Mapping[str, Any], ns: str) -> Handled:
    """A rollout restart (R7): new pods from an annotated template; a wedged process is gone,
    and nothing else about the deployment changes (its cause of failure, if any, stays)."""
    name = args["name"]
    key = resource_key("deployment", ns, name)
    resource = f"deployment/{name}"
    if key not in obs.estate:
        return Handled(_not_found("deployment", name), "restart", resource, ns)
    data = obs.estate.copy_data()
    data[key]["rollout_restarts"] = int(data[key].get("rollout_restarts", 0)) + 1
    if data[key].get("wedged"):
        data[key]["wedged"] = False
    body = f"deployment.apps/{name} restarted\n"
    return Handled(_ok(body), "restart", resource, ns, Estate(data))


HANDLERS: dict[str, Callable[[Observation, Mapping[str, Any], str], Handled]] = {
    "orchestration_list": _list,
    "orchestration_get": _get,
    "orchestration_describe": _describe,
    "orchestration_logs": _logs,
    "logging_query": _logging_query,
    "metrics_query": _metrics,
    "tracing_search": _traces,
    "orchestration_patch": _patch,
    "orchestration_scale": _scale,
    "orchestration_restart": _restart,
}


def namespace_of(arguments: Mapping[str, Any]) -> str:
    value = arguments.get("namespace")
    return value if isinstance(value, str) and value else DEFAULT_NAMESPACE


__all__ = ["HANDLERS", "Handled", "failure", "namespace_of"]
