"""What an operator observes, derived from the estate by the simulator's own rules.

Pods, their status and restarts, events, log lines, readiness, metrics and traces follow from the
resources alone — never from a scenario's answer key or a declared ``status``. The rules mirror
what a real cluster shows:

- R1 an env var whose ``configMapKeyRef`` / ``secretKeyRef`` names a missing object or key (and is
  not optional) keeps the container from being created: ``CreateContainerConfigError``, a Warning
  ``Failed`` event "couldn't find key K in ConfigMap NS/NAME", no logs, no restarts.
- R2 a ConfigMap mounted as a config file that does not exist: the pod stays
  ``ContainerCreating`` with a Warning ``FailedMount`` event.
- R3 the process exits 1 at start (``CrashLoopBackOff``, restarts, Warning ``BackOff``) when a
  required env var is empty, a strict config loader meets an unknown key or misses a required
  one, a port is not a number, or a connection it makes at start-up fails.
- R4 a connection made while serving fails (no such host, wrong port, a service with 0 ready
  endpoints): the process keeps running, logs the error, fails its readiness probe (Warning
  ``Unhealthy``) and records an error span.
- R5 a deployment offered ``load_rps`` splits it over its scheduled replicas; where one replica's
  share exceeds what its image serves (``capacity_rps``) the process sheds load: it keeps running,
  logs it, and fails its readiness probe. A deployment offered load with no ready pod is
  ``Unavailable`` even at 0 replicas (the traffic has nowhere to go).
- R6 with nodes declared, pods with ``resource_requests`` are placed first-fit (deployments and
  pods in order) where the node's allocatable CPU and memory still fit them; a pod that fits
  nowhere stays ``Pending`` with a Warning ``FailedScheduling`` event.
- R7 a ``wedged`` deployment's processes run but answer nothing: its readiness probe times out.
A service's ready endpoints are the ready pods of the deployments it selects. A workload whose
declared ``status`` holds and names a state in which a real cluster lists its pods not ready
(`NOT_READY_WORDS`: ``CrashLoopBackOff``, ``OOMKilled`` …) has no ready container, so a service
selecting it shows no endpoints (`declared_not_ready`; issue 44, da.cascading-diagnosis-001) —
what the rules above derive is left as it is.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from provebench._errors import ProvebenchError
from provebench.si.sim._estate import (
    Container,
    Deployment,
    Estate,
    cpu_millicores,
    memory_bytes,
    parse_key,
    resource_key,
    selector_of,
    standalone_container,
    template_labels_of,
    with_template,
)
from provebench.si.sim._estate_terms import NOT_READY_WORDS
from provebench.si.sim._process import Outcome, SpanView, run_container, shed_or_wedged

NODE_NAME = "sim-node-1"
CRASH_RESTARTS = 5  # restarts shown for a crash-looping container (a fixed observation time)
_HASH_ALPHABET = "bcdfghjklmnpqrstvwxz2456789"  # the alphabet Kubernetes uses for name suffixes
UNHEALTHY_CONDITIONS = (
    "CreateContainerConfigError",
    "ContainerCreating",
    "CrashLoopBackOff",
    "ImagePullBackOff",
    "Unready",
    "Unavailable",
)


def _digest(text: str) -> bytes:
    return hashlib.sha256(text.encode()).digest()


def name_suffix(seed: str, length: int) -> str:
    digest = _digest(seed)
    return "".join(_HASH_ALPHABET[byte % len(_HASH_ALPHABET)] for byte in digest[:length])


def address(seed: str, prefix: str) -> str:
    digest = _digest(seed)
    return f"{prefix}.{digest[0]}.{1 + digest[1] % 254}"


def declared_not_ready(estate: Estate, key: str) -> bool:
    """Whether the workload at ``key`` (a deployment, or a standalone pod) holds a declared
    ``status`` in which its pods are not ready (`NOT_READY_WORDS`): its containers run as its
    model derives them (their logs, events and metrics unchanged), but none is ready, as the
    word says — so no service shows it as an endpoint. The model's rules do not read it: a
    connection to its service (R4) and the derived conditions (`Observation.conditions`) are
    the model's alone, so no declared observation enters what `si check` varies and compares
    (docs/si-lab.md, "Declared observations")."""
    word = estate.declared_fields(key).get("status")
    return isinstance(word, str) and word.casefold() in NOT_READY_WORDS


@dataclass(frozen=True)
class ContainerView:
    name: str
    image: str
    outcome: Outcome
    # the workload's declared word says its pods are not ready (`declared_not_ready`)
    held_not_ready: bool = False

    @property
    def ready(self) -> bool:
        return self.outcome.phase == "ready" and not self.held_not_ready

    @property
    def restarts(self) -> int:
        return CRASH_RESTARTS if self.outcome.phase == "crash" else 0


@dataclass(frozen=True)
class PodView:
    name: str
    namespace: str
    deployment: str
    labels: dict[str, str]
    ip: str
    containers: tuple[ContainerView, ...]
    node: str = NODE_NAME

    @property
    def standalone(self) -> bool:
        """Whether the pod is an object of its own (`_estate.Pod`), no deployment's."""
        return not self.deployment

    @property
    def status(self) -> str:
        """The STATUS column of a pod listing."""
        for container in self.containers:
            reason = container.outcome.waiting_reason
            if reason is not None:
                return reason
        return "Running"

    @property
    def ready_count(self) -> int:
        return sum(c.ready for c in self.containers)

    @property
    def derived_ready(self) -> bool:
        """Whether every container is ready by the model's rules alone, a declared word aside
        (`declared_not_ready`): what the derived conditions read, so a declared observation
        never enters what `si check` varies and compares (docs/si-lab.md)."""
        return all(c.outcome.phase == "ready" for c in self.containers)

    @property
    def restarts(self) -> int:
        return sum(c.restarts for c in self.containers)


@dataclass(frozen=True)
class EventView:
    namespace: str
    type: str
    reason: str
    involved: str
    message: str
    count: int = 1


@dataclass(frozen=True)
class TraceView:
    trace_id: str
    namespace: str
    service: str
    root: str
    spans: tuple[SpanView, ...]

    @property
    def status(self) -> str:
        return "error" if any(s.status == "error" for s in self.spans) else "ok"


@dataclass(frozen=True)
class Observation:
    """Everything the tools can show about one estate."""

    estate: Estate
    pods: tuple[PodView, ...]
    events: tuple[EventView, ...]
    traces: tuple[TraceView, ...]
    service_ips: dict[str, str] = field(default_factory=dict)
    endpoints: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def pods_of(self, deployment_key: str) -> tuple[PodView, ...]:
        _, namespace, name = parse_key(deployment_key)
        return tuple(p for p in self.pods if p.namespace == namespace and p.deployment == name)

    def conditions(self, deployment_key: str) -> frozenset[str]:
        """The unhealthy conditions an operator can observe on a deployment."""
        desired = self.estate.deployment(deployment_key).replicas
        pods = self.pods_of(deployment_key)
        found = {p.status for p in pods if p.status != "Running"}
        if any(p.status == "Running" and not p.derived_ready for p in pods):
            found.add("Unready")
        ready = sum(p.derived_ready for p in pods)
        offered = self.estate.deployment(deployment_key).load_rps
        if ready < desired or (offered and not ready):
            found.add("Unavailable")
        return frozenset(found)

    def unhealthy(self) -> list[str]:
        """``deployment/NS/NAME: conditions`` for every deployment that is not fully ready."""
        out = []
        for key in self.estate.keys("deployment"):
            found = self.conditions(key)
            if found:
                out.append(f"{key}: {', '.join(sorted(found))}")
        return out


def pod_template_hash(namespace: str, name: str, deployment: Deployment) -> str:
    """The ReplicaSet suffix: a hash of the pod template, as Kubernetes derives it."""
    # The simulated image behaviour is not part of the pod template, so not of its hash.
    template = deployment.model_dump_json(
        include={"containers": {"__all__": {"name", "image", "env", "ports"}}}
    )
    # A rollout restart annotates the template (kubectl's restartedAt), so its hash changes.
    if deployment.rollout_restarts:
        template += f"/restartedAt={deployment.rollout_restarts}"
    return name_suffix(f"{namespace}/{name}/{template}", 10)


def _pod_names(namespace: str, name: str, deployment: Deployment) -> list[str]:
    pod_hash = pod_template_hash(namespace, name, deployment)
    replaced = deployment.pod_replacements

    def seed(i: int) -> str:
        # a replacement pod is a new object with a new name (`Deployment.pod_replacements`)
        times = replaced[i] if i < len(replaced) else 0
        return f"{namespace}/{name}/{pod_hash}/{i}" + (f"/replaced={times}" if times else "")

    return [f"{name}-{pod_hash}-{name_suffix(seed(i), 5)}" for i in range(deployment.replicas)]


def replica_index(namespace: str, name: str, deployment: Deployment, pod: str) -> int | None:
    """The index of the deployment's pod named ``pod`` among its replicas (None: not its)."""
    names = _pod_names(namespace, name, deployment)
    return names.index(pod) if pod in names else None


# The declared fields of a deployment its pod template is made of (`with_template`).
_TEMPLATE_FIELDS = ("containers", "image", "env", "current_image", "previous_image")


def declared_pod_names(
    namespace: str, name: str, fields: Mapping[str, Any], restarts: int, replicas: int
) -> list[str]:
    """The names of the pods of a deployment the declared estate holds, by the rule that names
    the physical estate's (`_pod_names`: its pod template, as a ReplicaSet names them) — one
    rule, so the two estates list the same pods (docs/si-profile.md, "Do the two estates
    agree?"). ``fields`` are its declared fields, read as the physical model reads them (a
    template it cannot read is its bare ``image``); ``restarts`` the template changes the
    declared estate counts (its ``generation``), each a new ``restartedAt``."""
    template = {k: fields[k] for k in _TEMPLATE_FIELDS if k in fields}
    try:
        deployment = Deployment.model_validate(template)
    except ValidationError:
        image = fields.get("image")
        deployment = Deployment(image=image if isinstance(image, str) else None)
    counted = with_template(deployment, name).model_copy(
        update={"rollout_restarts": restarts, "replicas": replicas}
    )
    return _pod_names(namespace, name, counted)


@dataclass(frozen=True)
class Placement:
    """R6's outcome: each deployment's pods' nodes (``""``: fits nowhere) and, for a pod that
    fits nowhere, the scheduler's FailedScheduling message."""

    nodes: dict[str, tuple[str, ...]]
    failed: dict[str, str]


def schedule(estate: Estate) -> Placement:
    """R6: place pods first-fit; without a declared node every pod runs on the simulator's one
    node (no capacity model, as before nodes were simulated)."""
    nodes = list(estate.keys("node"))
    free = {
        key: [
            # a node that reports no allocatable figure has none to give (`Node`)
            cpu_millicores(estate.node(key).allocatable_cpu or "0"),
            memory_bytes(estate.node(key).allocatable_memory or "0"),
        ]
        for key in nodes
    }
    placed: dict[str, tuple[str, ...]] = {}
    failed: dict[str, str] = {}
    for key in estate.keys("deployment"):
        deployment = estate.deployment(key)
        requests = deployment.resource_requests
        if not nodes or requests is None:
            placed[key] = (NODE_NAME,) * deployment.replicas
            continue
        need = (cpu_millicores(requests.cpu), memory_bytes(requests.memory))
        pods: list[str] = []
        for _ in range(deployment.replicas):
            home = next((n for n in nodes if free[n][0] >= need[0] and free[n][1] >= need[1]), "")
            if home:
                free[home][0] -= need[0]
                free[home][1] -= need[1]
            else:
                short = [
                    f"{sum(free[n][i] < need[i] for n in nodes)} Insufficient {what}"
                    for i, what in enumerate(("cpu", "memory"))
                    if any(free[n][i] < need[i] for n in nodes)
                ]
                failed[key] = f"0/{len(nodes)} nodes are available: {', '.join(short)}."
            pods.append(parse_key(home)[2] if home else "")
        placed[key] = tuple(pods)
    return Placement(placed, failed)


class _Deriver:
    def __init__(self, estate: Estate) -> None:
        self.estate = estate
        self.outcomes: dict[str, tuple[Outcome, ...]] = {}
        self._busy: set[str] = set()
        self.placement = schedule(estate)

    def scheduled(self, key: str) -> int:
        return sum(bool(node) for node in self.placement.nodes[key])

    def service_ip(self, key: str) -> str:
        return address(key, "10.96")

    def ready_endpoints(self, service_key: str) -> int:
        _, namespace, name = parse_key(service_key)
        selector = selector_of(self.estate.service(service_key), name)
        total = 0
        for key in self.estate.keys("deployment"):
            _, ns, dep_name = parse_key(key)
            deployment = self.estate.deployment(key)
            pod_labels = template_labels_of(deployment, dep_name)
            if ns != namespace or not selector.items() <= pod_labels.items():
                continue
            if all(o.phase == "ready" for o in self.deployment_outcomes(key)):
                total += self.scheduled(key)
        return total

    def find_service(self, host: str, namespace: str) -> str | None:
        parts = host.split(".")
        name = parts[0]
        ns = parts[1] if len(parts) > 1 else namespace
        if len(parts) > 2 and parts[2:] not in (["svc"], ["svc", "cluster", "local"]):
            return None
        key = resource_key("service", ns, name)
        return key if key in self.estate else None

    def deployment_outcomes(self, key: str) -> tuple[Outcome, ...]:
        if key in self.outcomes:
            return self.outcomes[key]
        if key in self._busy:
            raise ProvebenchError(
                f"{key} depends on itself through its connections; the simulator cannot "
                "decide its readiness",
                field="preconditions.environment.state",
            )
        _, namespace, name = parse_key(key)
        deployment = self.estate.deployment(key)
        if deployment.pull_backoff:
            # the template's image cannot be pulled: no container is created, so none runs,
            # reads its config or dials anything (R1 stops before the process starts)
            pulled = tuple(
                Outcome("image_pull", f'Back-off pulling image "{_image(container, name)}"')
                for container in deployment.containers
            )
            self.outcomes[key] = pulled
            return pulled
        self._busy.add(key)
        scheduled = self.scheduled(key)
        found = tuple(
            shed_or_wedged(
                run_container(self.estate, namespace, container, self._lookup),
                container,
                wedged=deployment.wedged,
                share_rps=-(-(deployment.load_rps or 0) // scheduled) if scheduled else 0,
            )
            for container in deployment.containers
        )
        self._busy.discard(key)
        self.outcomes[key] = found
        return found

    def _lookup(self, host: str, namespace: str) -> tuple[str, int | None, int] | None:
        """(cluster IP, port, ready endpoints) of the service a host name resolves to."""
        key = self.find_service(host, namespace)
        if key is None:
            return None
        return self.service_ip(key), self.estate.service(key).port, self.ready_endpoints(key)


def _image(container: Container, deployment_name: str) -> str:
    return container.image or f"registry.local/{deployment_name}/{container.name}:1.0.0"


def _standalone(estate: Estate, deriver: _Deriver, key: str) -> tuple[PodView, list[EventView]]:
    """A standalone pod (`_estate.Pod`) and its events: its one container run by the rules
    every container is (R1-R4), on its declared node (a ``spec.nodeName``, which the scheduler
    does not place) or the simulator's one."""
    _, namespace, name = parse_key(key)
    pod = estate.pod(key)
    container = standalone_container(pod, name)
    outcome = run_container(estate, namespace, container, deriver._lookup)
    down = declared_not_ready(estate, key)
    views = (ContainerView(container.name, _image(container, name), outcome, down),)
    node = pod.node or NODE_NAME
    view = PodView(
        name=name,
        namespace=namespace,
        deployment="",
        labels=dict(pod.labels or {}),
        ip=address(f"pod/{namespace}/{name}", "10.244"),
        containers=views,
        node=node,
    )
    return view, _pod_events(namespace, name, views, node)


def observe(estate: Estate) -> Observation:
    """Derive every observation from the estate (deterministic: same estate, same views)."""
    deriver = _Deriver(estate)
    pods: list[PodView] = []
    events: list[EventView] = []
    traces: list[TraceView] = []
    for key in estate.keys("deployment"):
        _, namespace, name = parse_key(key)
        deployment = estate.deployment(key)
        outcomes = deriver.deployment_outcomes(key)
        down = declared_not_ready(estate, key)
        views = tuple(
            ContainerView(c.name, _image(c, name), o, down)
            for c, o in zip(deployment.containers, outcomes, strict=True)
        )
        pod_names = _pod_names(namespace, name, deployment)
        pending = tuple(
            ContainerView(c.name, _image(c, name), Outcome("unscheduled", ""))
            for c in deployment.containers
        )
        for pod_name, node in zip(pod_names, deriver.placement.nodes[key], strict=True):
            pods.append(
                PodView(
                    name=pod_name,
                    namespace=namespace,
                    deployment=name,
                    labels=template_labels_of(deployment, name),
                    ip=address(f"pod/{namespace}/{pod_name}", "10.244") if node else "",
                    containers=views if node else pending,
                    node=node,
                )
            )
            if node:
                events.extend(_pod_events(namespace, pod_name, views, node))
            else:
                message = deriver.placement.failed[key]
                events.append(
                    EventView(namespace, "Warning", "FailedScheduling", f"pod/{pod_name}", message)
                )
        if pod_names and views and all(v.outcome.phase in ("ready", "unready") for v in views):
            spans = tuple(span for v in views for span in v.outcome.spans)
            if spans:
                trace_id = _digest(f"trace/{key}").hex()[:32]
                root = f"{name}: handle request"
                traces.append(TraceView(trace_id, namespace, name, root, spans))
        events.append(
            EventView(
                namespace,
                "Normal",
                "ScalingReplicaSet",
                f"deployment/{name}",
                f"Scaled {'down' if deployment.replicas == 0 else 'up'} replica set "
                f"{name}-{pod_template_hash(namespace, name, deployment)} to {deployment.replicas}",
            )
        )
    for key in estate.keys("pod"):
        pod, pod_events = _standalone(estate, deriver, key)
        pods.append(pod)
        events.extend(pod_events)
    for key in estate.keys("event"):
        _, namespace, _ = parse_key(key)
        event = estate.event(key)
        events.append(
            EventView(namespace, event.type, event.reason, event.involved, event.message, 1)
        )
    service_ips = {key: deriver.service_ip(key) for key in estate.keys("service")}
    endpoints = {
        key: tuple(
            p.ip
            for p in pods
            if p.namespace == parse_key(key)[1]
            and selector_of(estate.service(key), parse_key(key)[2]).items() <= p.labels.items()
            and p.ready_count == len(p.containers)
        )
        for key in estate.keys("service")
    }
    return Observation(estate, tuple(pods), tuple(events), tuple(traces), service_ips, endpoints)


def _pod_events(
    namespace: str, pod: str, views: tuple[ContainerView, ...], node: str
) -> list[EventView]:
    involved = f"pod/{pod}"

    def event(kind: str, reason: str, message: str, count: int = 1) -> EventView:
        return EventView(namespace, kind, reason, involved, message, count)

    out = [event("Normal", "Scheduled", f"Successfully assigned {namespace}/{pod} to {node}")]
    for view in views:
        out.extend(_container_events(view, pod, event))
    return out


def _container_events(
    view: ContainerView, pod: str, event: Callable[..., EventView]
) -> list[EventView]:
    outcome = view.outcome
    if outcome.phase == "mount_error":
        return [event("Warning", "FailedMount", outcome.message, 6)]
    if outcome.phase == "image_pull":
        return [
            event("Normal", "Pulling", f'Pulling image "{view.image}"', 4),
            event("Warning", "Failed", f'Failed to pull image "{view.image}": not found', 4),
            event("Warning", "Failed", "Error: ImagePullBackOff", 6),
            event("Normal", "BackOff", outcome.message, 6),
        ]
    pulled = f'Container image "{view.image}" already present on machine'
    if outcome.phase == "config_error":
        return [
            event("Normal", "Pulled", pulled, 8),
            event("Warning", "Failed", outcome.message, 8),
        ]
    out = [
        event("Normal", "Pulled", pulled, 1 + view.restarts),
        event("Normal", "Created", f"Created container {view.name}", 1 + view.restarts),
        event("Normal", "Started", f"Started container {view.name}", 1 + view.restarts),
    ]
    if outcome.phase == "crash":
        message = f"Back-off restarting failed container {view.name} in pod {pod}"
        out.append(event("Warning", "BackOff", message, 2 * view.restarts))
    if outcome.phase == "unready":
        out.append(event("Warning", "Unhealthy", outcome.message, 24))
    return out


__all__ = [
    "CRASH_RESTARTS",
    "NODE_NAME",
    "UNHEALTHY_CONDITIONS",
    "ContainerView",
    "EventView",
    "Observation",
    "Placement",
    "PodView",
    "SpanView",
    "TraceView",
    "address",
    "declared_not_ready",
    "name_suffix",
    "observe",
    "pod_template_hash",
    "replica_index",
    "schedule",
]
