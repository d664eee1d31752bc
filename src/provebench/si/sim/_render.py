"""Response bodies of the container-orchestration tools: manifests (canonical JSON), listings and
descriptions (fixed text in the shape kubectl prints). Every body is a pure function of the
observation, so the same calls give the same bytes.

A container's simulated ``behavior`` is never printed: an operator sees its effects (logs, probes,
events), not the simulator's model of the image. A mounted config file shows as a volume.
"""

from __future__ import annotations

import base64
from collections.abc import Mapping
from typing import Any

from provebench._canonical import canonical_json
from provebench.si.sim._derive import EventView, Observation, PodView, pod_template_hash
from provebench.si.sim._estate import (
    Container,
    Deployment,
    SecretData,
    Service,
    labels_of,
    parse_key,
    template_labels_of,
)
from provebench.si.sim.declared._kube_objects import BY_ESTATE_KIND, to_kube


def _table(header: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    lines = [
        "   ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip()
        for row in [header, *rows]
    ]
    return "\n".join(lines) + "\n"


def _env_json(container: Container) -> list[dict[str, Any]]:
    return [
        var.model_dump(by_alias=True, exclude_none=True, exclude_defaults=True) | {"name": var.name}
        for var in container.env
    ]


def _mount_json(container: Container) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    config = container.behavior.config_file
    if config is None:
        return [], []
    directory = config.path.rsplit("/", 1)[0] or "/"
    volume = {"name": f"{container.name}-config", "configMap": {"name": config.configmap}}
    mount = {"name": f"{container.name}-config", "mountPath": directory, "readOnly": True}
    return [volume], [mount]


def _pod_spec(deployment: Deployment, name: str, image: dict[str, str]) -> dict[str, Any]:
    containers = []
    volumes: list[dict[str, Any]] = []
    for container in deployment.containers:
        vols, mounts = _mount_json(container)
        volumes.extend(vols)
        entry: dict[str, Any] = {"name": container.name, "image": image[container.name]}
        if container.env:
            entry["env"] = _env_json(container)
        if container.ports:
            entry["ports"] = [{"containerPort": p} for p in container.ports]
        if container.resources is not None:
            entry["resources"] = container.resources.model_dump(exclude_none=True)
        if mounts:
            entry["volumeMounts"] = mounts
        entry["readinessProbe"] = {
            "httpGet": {"path": "/healthz/ready", "port": (container.ports or (8080,))[0]}
        }
        containers.append(entry)
    spec: dict[str, Any] = {"containers": containers}
    if volumes:
        spec["volumes"] = volumes
    return spec


def _images(observation: Observation, key: str) -> dict[str, str]:
    name = parse_key(key)[2]
    deployment = observation.estate.deployment(key)
    return {
        c.name: c.image or f"registry.local/{name}/{c.name}:1.0.0" for c in deployment.containers
    }


def _meta(name: str, namespace: str, **extra: Any) -> dict[str, Any]:
    return {"name": name, "namespace": namespace, **extra}


def own_metadata(
    annotations: Mapping[str, str] | None, labels: Mapping[str, str] | None = None
) -> dict[str, Any]:
    """An object's own labels and annotations, where it has them, as its metadata shows them
    (the declared estate's `_kube_objects._metadata`)."""
    shown: dict[str, Any] = {}
    if labels is not None:
        shown["labels"] = dict(labels)
    if annotations is not None:
        shown["annotations"] = dict(annotations)
    return shown


def deployment_manifest(observation: Observation, key: str) -> dict[str, Any]:
    _, namespace, name = parse_key(key)
    deployment = observation.estate.deployment(key)
    template = template_labels_of(deployment, name)
    pods = observation.pods_of(key)
    ready = sum(p.ready_count == len(p.containers) for p in pods)
    available = "True" if ready >= deployment.replicas else "False"
    own = own_metadata(deployment.annotations)
    return {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": _meta(name, namespace, labels=labels_of(deployment, name), **own),
        "spec": {
            "replicas": deployment.replicas,
            "selector": {"matchLabels": template},
            "template": {
                "metadata": {"labels": template},
                "spec": _pod_spec(deployment, name, _images(observation, key)),
            },
        },
        "status": {
            "replicas": deployment.replicas,
            "readyReplicas": ready,
            "availableReplicas": ready,
            "unavailableReplicas": deployment.replicas - ready,
            "conditions": [{"type": "Available", "status": available}],
        },
    }


def _container_status(pod: PodView) -> list[dict[str, Any]]:
    out = []
    for view in pod.containers:
        outcome = view.outcome
        state: dict[str, Any]
        if outcome.waiting_reason is not None:
            state = {"waiting": {"reason": outcome.waiting_reason, "message": outcome.message}}
        else:
            state = {"running": {"startedAt": "2026-01-01T08:00:00Z"}}
        entry: dict[str, Any] = {
            "name": view.name,
            "image": view.image,
            "ready": view.ready,
            "restartCount": view.restarts,
            "state": state,
        }
        if outcome.exit_code is not None:
            entry["lastState"] = {"terminated": {"exitCode": outcome.exit_code, "reason": "Error"}}
        out.append(entry)
    return out


def pod_phase(pod: PodView) -> str:
    return (
        "Running"
        if all(v.outcome.waiting_reason in (None, "CrashLoopBackOff") for v in pod.containers)
        else "Pending"
    )


def pod_manifest(observation: Observation, pod: PodView) -> dict[str, Any]:
    template = observation.estate.pod_template(pod.namespace, pod.deployment, pod.name)
    images = {view.name: view.image for view in pod.containers}
    ready = pod.ready_count == len(pod.containers)
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": _meta(pod.name, pod.namespace, labels=pod.labels),
        "spec": {
            **({"nodeName": pod.node} if pod.node else {}),
            **_pod_spec(template, pod.deployment or pod.name, images),
        },
        "status": {
            "phase": pod_phase(pod),
            "podIP": pod.ip,
            "conditions": [{"type": "Ready", "status": "True" if ready else "False"}],
            "containerStatuses": _container_status(pod),
        },
    }


def config_manifest(observation: Observation, key: str) -> dict[str, Any]:
    _, namespace, name = parse_key(key)
    config = observation.estate.config(key)
    data = config.data
    # its labels and annotations in the object's metadata, as the declared estate shows them
    extra = own_metadata(config.annotations, config.labels)
    if isinstance(config, SecretData):
        # held as Kubernetes holds it, base64 once (`primitives._secret_data`), so shown as
        # declared: encoding it again showed the base64 of the base64 (issue 44)
        return {
            "apiVersion": "v1",
            "kind": "Secret",
            "metadata": _meta(name, namespace, **extra),
            "type": config.type,
            "data": dict(sorted(data.items())),
        }
    return {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": _meta(name, namespace, **extra),
        "data": dict(sorted(data.items())),
    }


def kept_manifest(observation: Observation, key: str) -> dict[str, Any]:
    """A kind the physical estate keeps as declared and derives nothing of (a role, a role
    binding): its manifest is the declared estate's object of the same fields (`to_kube`, one
    rendering for both estates), less the identity the API server adds to every object."""
    kind, namespace, name = parse_key(key)
    fields = observation.estate.raw(key)
    manifest = to_kube({"kind": kind, "name": name, "namespace": namespace, **fields})
    for server_owned in ("uid", "resourceVersion", "creationTimestamp"):
        manifest["metadata"].pop(server_owned, None)
    return manifest


def service_manifest(observation: Observation, key: str) -> dict[str, Any]:
    _, namespace, name = parse_key(key)
    service = observation.estate.service(key)
    return {
        "apiVersion": "v1",
        "kind": "Service",
        "metadata": _meta(name, namespace, **own_metadata(service.annotations, service.labels)),
        "spec": {
            "type": "ClusterIP",
            "clusterIP": observation.service_ips[key],
            "selector": service.selector if service.selector is not None else {"app": name},
            # a declared `ports` list as declared (the declared estate's spelling)
            "ports": _service_ports(service),
        },
    }


def _service_ports(service: Service) -> list[dict[str, Any]]:
    """A service's ``spec.ports``: a declared ``ports`` list as declared (the declared estate's
    spelling), its one ``port``, or none where it declares none."""
    if service.ports is not None:
        return [p.model_dump(by_alias=True, exclude_none=True) for p in service.ports]
    return [] if service.port is None else [{"port": service.port, "protocol": "TCP"}]


def _port_column(service: Service) -> str:
    return "<none>" if service.port is None else f"{service.port}/TCP"


def _endpoint(ip: str, service: Service) -> str:
    return ip if service.port is None else f"{ip}:{service.port}"


def event_manifest(observation: Observation, key: str) -> dict[str, Any]:
    """A declared event as its Kubernetes object: the one a list of events names is the one a
    read of it answers (SI red team 22: `orchestration_list kind=event` listed an event that
    `orchestration_get` then called "not found")."""
    _, namespace, name = parse_key(key)
    event = observation.estate.event(key)
    involved_kind, _, involved_name = event.involved.partition("/")
    served = BY_ESTATE_KIND.get(involved_kind)
    return {
        "apiVersion": "v1",
        "kind": "Event",
        "metadata": _meta(name, namespace, **own_metadata(event.annotations, event.labels)),
        "type": event.type,
        "reason": event.reason,
        "message": event.message,
        "count": 1,
        "involvedObject": {
            "kind": served.kind if served is not None else involved_kind,
            "name": involved_name,
        },
    }


def manifest_body(manifest: dict[str, Any]) -> str:
    return canonical_json(manifest) + "\n"


def list_body(observation: Observation, kind: str, namespace: str) -> str:
    estate = observation.estate
    if kind == "pod":
        pods = sorted(
            (p for p in observation.pods if p.namespace == namespace), key=lambda p: p.name
        )
        rows = [
            [p.name, f"{p.ready_count}/{len(p.containers)}", p.status, str(p.restarts)]
            for p in pods
        ]
        return _table(["NAME", "READY", "STATUS", "RESTARTS"], rows)
    if kind == "event":
        events = [e for e in observation.events if e.namespace == namespace]
        rows = [[e.type, e.reason, e.involved, str(e.count), e.message] for e in events]
        return _table(["TYPE", "REASON", "OBJECT", "COUNT", "MESSAGE"], rows)
    keys = [k for k in estate.keys(kind) if parse_key(k)[1] == namespace or kind == "namespace"]
    if kind == "deployment":
        rows = []
        for key in keys:
            replicas = estate.deployment(key).replicas
            ready = sum(p.ready_count == len(p.containers) for p in observation.pods_of(key))
            rows.append([parse_key(key)[2], f"{ready}/{replicas}", str(replicas), str(ready)])
        return _table(["NAME", "READY", "UP-TO-DATE", "AVAILABLE"], rows)
    if kind == "service":
        rows = [
            [
                parse_key(k)[2],
                "ClusterIP",
                observation.service_ips[k],
                _port_column(estate.service(k)),
            ]
            for k in keys
        ]
        return _table(["NAME", "TYPE", "CLUSTER-IP", "PORT(S)"], rows)
    if kind == "configmap":
        return _table(
            ["NAME", "DATA"], [[parse_key(k)[2], str(len(estate.config(k).data))] for k in keys]
        )
    if kind == "secret":
        rows = [[parse_key(k)[2], "Opaque", str(len(estate.config(k).data))] for k in keys]
        return _table(["NAME", "TYPE", "DATA"], rows)
    names = sorted(set(estate.namespaces()) | {namespace})
    return _table(["NAME", "STATUS"], [[n, "Active"] for n in names])


def _events_block(events: list[EventView]) -> list[str]:
    if not events:
        return ["Events:  <none>"]
    rows = [
        [
            e.type,
            e.reason,
            str(e.count),
            "kubelet" if e.involved.startswith("pod/") else "controller",
            e.message,
        ]
        for e in events
    ]
    table = _table(["Type", "Reason", "Count", "From", "Message"], rows)
    return ["Events:", *("  " + line for line in table.splitlines())]


def _env_lines(container: Container) -> list[str]:
    lines = []
    for var in container.env:
        if var.value is not None:
            lines.append(f"      {var.name}:  {var.value}")
            continue
        assert var.value_from is not None
        ref = var.value_from.configMapKeyRef or var.value_from.secretKeyRef
        assert ref is not None
        source = "config map" if var.value_from.configMapKeyRef is not None else "secret"
        optional = str(ref.optional).lower()
        lines.append(
            f"      {var.name}:  <set to the key '{ref.key}' of {source} '{ref.name}'>  "
            f"Optional: {optional}"
        )
    return lines or ["      <none>"]


def describe_pod(observation: Observation, pod: PodView) -> str:
    template = observation.estate.pod_template(pod.namespace, pod.deployment, pod.name)
    lines = [
        f"Name:           {pod.name}",
        f"Namespace:      {pod.namespace}",
        f"Node:           {pod.node or '<none>'}",
        f"Labels:         {','.join(f'{k}={v}' for k, v in sorted(pod.labels.items()))}",
        f"Status:         {pod_phase(pod)}",
        f"IP:             {pod.ip}",
    ]
    if not pod.standalone:  # a standalone pod has no controller
        lines.append(f"Controlled By:  ReplicaSet/{pod.deployment}-{pod.name.split('-')[-2]}")
    lines.append("Containers:")
    for spec, view in zip(template.containers, pod.containers, strict=True):
        outcome = view.outcome
        lines += [f"  {view.name}:", f"    Image:          {view.image}"]
        if outcome.waiting_reason is not None:
            lines += [
                "    State:          Waiting",
                f"      Reason:       {outcome.waiting_reason}",
            ]
        else:
            lines += ["    State:          Running"]
        if outcome.exit_code is not None:
            lines += [
                "    Last State:     Terminated",
                "      Reason:       Error",
                f"      Exit Code:    {outcome.exit_code}",
            ]
        lines += [f"    Ready:          {view.ready}", f"    Restart Count:  {view.restarts}"]
        lines += [
            f"    Readiness:      http-get :{(spec.ports or (8080,))[0]}/healthz/ready",
            "    Environment:",
        ]
        lines += _env_lines(spec)
        if spec.behavior.config_file is not None:
            config = spec.behavior.config_file
            directory = config.path.rsplit("/", 1)[0] or "/"
            lines += [
                f"    Mounts:         {directory} from {view.name}-config "
                f"(ro, configmap {config.configmap})"
            ]
    events = [
        e
        for e in observation.events
        if e.namespace == pod.namespace and e.involved == f"pod/{pod.name}"
    ]
    return "\n".join([*lines, *_events_block(events)]) + "\n"


def describe_resource(observation: Observation, key: str) -> str:
    kind, namespace, name = parse_key(key)
    estate = observation.estate
    lines = [f"Name:         {name}", f"Namespace:    {namespace}"]
    if kind == "deployment":
        deployment = estate.deployment(key)
        ready = sum(p.ready_count == len(p.containers) for p in observation.pods_of(key))
        want = deployment.replicas
        selector = ",".join(
            f"{k}={v}" for k, v in sorted(template_labels_of(deployment, name).items())
        )
        lines += [
            f"Selector:     {selector}",
            f"Replicas:     {want} desired | {want} updated | {want} total | {ready} available"
            f" | {want - ready} unavailable",
            "Pod Template:",
            "  Containers:",
        ]
        for container in deployment.containers:
            lines += [f"   {container.name}:", "    Environment:", *_env_lines(container)]
        lines += [
            "Conditions:",
            f"  Available    {'True' if ready >= deployment.replicas else 'False'}",
        ]
        lines += [f"NewReplicaSet:  {name}-{pod_template_hash(namespace, name, deployment)}"]
    elif kind == "service":
        service = estate.service(key)
        endpoints = observation.endpoints[key]
        service_selector = service.selector if service.selector is not None else {"app": name}
        lines += [
            f"Selector:     {','.join(f'{k}={v}' for k, v in sorted(service_selector.items()))}",
            "Type:         ClusterIP",
            f"IP:           {observation.service_ips[key]}",
            f"Port:         {_port_column(service)}",
            f"Endpoints:    {','.join(_endpoint(ip, service) for ip in endpoints) or '<none>'}",
        ]
    elif kind == "configmap":
        lines += ["", "Data", "===="]
        for data_key, value in sorted(estate.config(key).data.items()):
            lines += [f"{data_key}:", "----", value, ""]
    elif kind == "secret":
        lines += ["", "Type:  Opaque", "", "Data", "===="]
        # the size of each value's bytes, as kubectl describe counts them: the decoded value
        lines += [
            f"{k}:  {len(base64.b64decode(v))} bytes"
            for k, v in sorted(estate.config(key).data.items())
        ]
    involved = f"{kind}/{name}"
    events = [e for e in observation.events if e.namespace == namespace and e.involved == involved]
    return "\n".join([*lines, *_events_block(events)]) + "\n"


__all__ = [
    "config_manifest",
    "deployment_manifest",
    "describe_pod",
    "describe_resource",
    "kept_manifest",
    "list_body",
    "manifest_body",
    "own_metadata",
    "pod_manifest",
    "pod_phase",
    "service_manifest",
]
