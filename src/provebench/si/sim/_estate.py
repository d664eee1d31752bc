"""The simulated estate: the resources of a small Kubernetes-like cluster, as declared data.

A scenario's ``preconditions.environment.state`` (and the structured ``injection.baseline``) is a
list of resource entries, each ``{resource: KIND/NAME, namespace: NS, …kind fields}``. This module
validates those entries into typed models (so a typo is an error naming the field, never a silently
healthy cluster) and keeps the estate as plain JSON data keyed by ``KIND/NAMESPACE/NAME`` — the
shape deviations are applied to and deltas are computed over (SI §5.1).

The declared ``status`` of an entry is kept out of the resources on purpose: what an operator sees
is derived from the resources by the simulator's own rules (`_derive.py`), never read from a label.
What a scenario declares but no rule derives — a figure such as a node's ``cpu_usage``, the
``status`` of a kind whose status is not derived, an ``alert/…`` or ``metrics/…`` entry — is
held beside the resources as a **declared observation**: the tools answer it as the declared
estate does (`si.sim.declared._observed`), and nothing the counterfactual varies, restores or
compares (`_inject.py`, `_check.py`) touches it (docs/si-lab.md, "Declared observations").
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue, ValidationError, model_validator

from provebench._errors import ProvebenchError
from provebench.si.primitives._operations import CLUSTER_KINDS
from provebench.si.primitives._secret_data import secret_problems, stored_secret
from provebench.si.sim._estate_terms import (
    DECLARED_ANNOTATION,
    DEFAULT_REPLICAS,
    NOT_READY_WORDS,
    SCALE_MAXIMUM,
    appended_logs,
    is_metric_figure,
)

_CLOSED = ConfigDict(extra="forbid", frozen=True)

DEFAULT_NAMESPACE = "default"
# Fields of a state entry that describe the entry rather than the resource.
_ENTRY_META = ("resource", "namespace")
# Kinds the physical estate holds only as declared observations: no resource of its model
# derives an alert or a metrics series, nor the past a scenario declares — log lines, events,
# traces from before the run (the published profile declares each). Its tools answer them
# beside what they derive (`_handlers.py`).
DECLARED_KINDS = ("alert", "metrics", "logs", "events", "traces")
# The fields of a declared signal kind, each checked (`_check_signal`) so a misspelt one is an
# error, never an empty answer: what the declared estate's builders read.
_SIGNAL_FIELDS: dict[str, tuple[str, str]] = {
    "logs": ("entries", "a list of log lines (strings)"),
    "events": ("recent", "a list of events (mappings)"),
}
# Kinds held apart from the resources, as the declared estate holds them (`si.sim._held`): no
# rule of the model reads them, and a call about one is the declared estate's.
HELD_KINDS = frozenset(
    {
        "pvc",
        "pv",
        "hpa",
        "ingress",
        "networkpolicy",
        "dashboard",
        "runbook",
        "database-migration",
        "gitops-application",
    }
)
_NAME_PATTERN = r"^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$"
_IDENTITY = frozenset({"kind", "name", "namespace"})


class KeyRef(BaseModel):
    model_config = _CLOSED
    name: str = Field(pattern=_NAME_PATTERN)
    key: str = Field(min_length=1)
    optional: bool = False


class EnvSource(BaseModel):
    model_config = _CLOSED
    configMapKeyRef: KeyRef | None = None  # the Kubernetes field names
    secretKeyRef: KeyRef | None = None

    @model_validator(mode="after")
    def _exactly_one(self) -> EnvSource:
        if (self.configMapKeyRef is None) == (self.secretKeyRef is None):
            raise ValueError("valueFrom names exactly one of configMapKeyRef, secretKeyRef")
        return self


class EnvVar(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)
    name: str = Field(min_length=1)
    value: str | None = None
    value_from: EnvSource | None = Field(default=None, alias="valueFrom")

    @model_validator(mode="after")
    def _one_source(self) -> EnvVar:
        if (self.value is None) == (self.value_from is None):
            raise ValueError("an env entry has exactly one of value, valueFrom")
        return self


class ConfigFile(BaseModel):
    """The process reads a ConfigMap mounted as a file (the image's config loader)."""

    model_config = _CLOSED
    configmap: str = Field(pattern=_NAME_PATTERN)
    path: str = "/etc/app/config"
    strict: bool = False
    known_keys: tuple[str, ...] = ()
    required_keys: tuple[str, ...] = ()


class Connection(BaseModel):
    """The process dials HOST:PORT, both read from its environment."""

    model_config = _CLOSED
    host_env: str
    port_env: str
    at_startup: bool = False


class Behavior(BaseModel):
    """How the container's image behaves when it runs — simulation data, never shown as a
    manifest field (an operator sees its effects: logs, probes, metrics)."""

    model_config = _CLOSED
    requires_env: tuple[str, ...] = ()
    config_file: ConfigFile | None = None
    connects: tuple[Connection, ...] = ()
    log_lines: tuple[str, ...] = ()
    cpu_millicores: int = Field(default=25, ge=0)
    memory_mib: int = Field(default=64, ge=0)
    # Requests per second one replica serves before its readiness probe starts failing (the
    # load model, docs/si-lab.md R5); None: the image is never overloaded.
    capacity_rps: int | None = Field(default=None, ge=1)


_CPU_PATTERN = r"^([0-9]+m|[0-9]+(\.[0-9]{1,3})?)$"
_MEMORY_PATTERN = r"^[0-9]+(Ki|Mi|Gi)?$"


class Quantities(BaseModel):
    """Kubernetes quantities of CPU and memory: a deployment's declared ``resource_limits``,
    a container's ``resources.requests`` and ``resources.limits`` (kept, shown)."""

    model_config = _CLOSED
    cpu: str | None = Field(default=None, pattern=_CPU_PATTERN)
    memory: str | None = Field(default=None, pattern=_MEMORY_PATTERN)


class ContainerResources(BaseModel):
    """A container's ``resources`` as Kubernetes spells them: kept and shown in its pod
    template. No rule of the model reads them: the scheduler places a pod by its deployment's
    ``resource_requests`` (R6), and no rule derives an OOM kill from a limit."""

    model_config = _CLOSED
    requests: Quantities | None = None
    limits: Quantities | None = None


class Container(BaseModel):
    model_config = _CLOSED
    name: str = Field(pattern=_NAME_PATTERN)
    image: str | None = None
    env: tuple[EnvVar, ...] = ()
    ports: tuple[int, ...] = ()
    resources: ContainerResources | None = None
    behavior: Behavior = Field(default_factory=Behavior)


class ResourceRequests(BaseModel):
    """What one pod of a deployment asks the scheduler for (Kubernetes quantities)."""

    model_config = _CLOSED
    cpu: str = Field(default="0", pattern=_CPU_PATTERN)
    memory: str = Field(default="0", pattern=_MEMORY_PATTERN)


_WORD = Field(default=None, min_length=1)


def _no_reserved_annotation(annotations: Mapping[str, str] | None) -> None:
    # the annotation a read shows kept and declared fields in: an author's value there would
    # be overwritten, or pass for the estate's own
    if annotations and any(str(key).lower() == DECLARED_ANNOTATION for key in annotations):
        raise ValueError(f"the annotation {DECLARED_ANNOTATION} is the estate's own")


# An object's own metadata: what a label or annotate write changes on any kind the estate
# holds, as the declared estate keeps them (its ``labels`` and ``annotations`` fields). No
# rule derives anything from them but a deployment's labels (`labels_of`), and a write of
# them is no new generation (`Estate.written`), as in Kubernetes a metadata write is not.
METADATA_FIELDS: tuple[str, ...] = ("labels", "annotations")


class _Metadata(BaseModel):
    """The ``labels`` and ``annotations`` of an object of any kind the estate holds: kept,
    shown in its metadata, written by a merge patch of them (`si.sim._metadata_write`)."""

    model_config = _CLOSED
    labels: dict[str, str] | None = None
    annotations: dict[str, str] | None = None

    @model_validator(mode="after")
    def _own_annotation(self) -> _Metadata:
        _no_reserved_annotation(self.annotations)
        return self


class Deployment(_Metadata):
    replicas: int = Field(default=DEFAULT_REPLICAS, ge=0, le=SCALE_MAXIMUM)
    # The pod template's labels (and the selector), once a write of the deployment's own
    # ``labels`` set them apart: Kubernetes keeps the two apart, so relabelling a deployment
    # never relabels its pods nor takes them from a service (`template_labels_of`).
    template_labels: dict[str, str] | None = None
    # The pod template's containers, each with its image's behaviour. A deployment may declare
    # none and a bare ``image`` instead (the published profile's Form A shape): it runs one
    # container of that image with no behaviour (`Estate.deployment`, `bare_container`) — the
    # estate derives nothing it was not told, so such a deployment runs, ready, and its declared
    # ``status`` is a declared observation until it is written (docs/si-lab.md).
    containers: tuple[Container, ...] = ()
    image: str | None = None
    # Scheduling (docs/si-lab.md R6): a pod is placed on a declared node only where its
    # requests fit; with no node declared nothing is scheduled by the model.
    resource_requests: ResourceRequests | None = None
    # The load model (R5): the requests per second offered to the deployment — traffic, not
    # spec, so never shown in its manifest. Split over the scheduled replicas.
    load_rps: int | None = Field(default=None, ge=0)
    # The restart model (R7): the processes of the current pods are wedged (alive, answering
    # nothing). Runtime state, not spec: a rollout restart replaces the pods and clears it, as
    # does scaling to zero; a restart of a healthy deployment changes nothing it shows.
    wedged: bool = False
    # Rollout restarts so far (kubectl's restartedAt annotation): each changes the pod
    # template, so the pods get new names.
    rollout_restarts: int = Field(default=0, ge=0)
    # The pods the ReplicaSet made anew, per replica (index i: how many times the pod at i was
    # deleted and replaced). Runtime state, as `wedged` is: a deleted pod of a deployment is
    # gone and a new one of another name takes its place, as Kubernetes' ReplicaSet controller
    # replaces it — so the state snapshots show the delete's effect and kubectl's wait for the
    # deleted pod ends (issue 44: the physical estate put the same pod back, unchanged).
    pod_replacements: tuple[int, ...] = ()
    # How the estate reacts, never shown (the declared estate's `HIDDEN_FIELDS`):
    # ``image-pull-backoff-on-restart`` (sc.partial-operation-001) — the image of the
    # template a rollout restart makes cannot be pulled (`IMAGE_PULL_FAILURE`). No read shows
    # it, and a write naming it is answered as a field the object's schema does not have,
    # whatever its value (`si.sim.declared._operate.hidden_field_message`).
    injected_failure: Literal["image-pull-backoff-on-restart"] | None = None
    # Runtime state, as `wedged` is: the current template's image cannot be pulled (a restart
    # of a deployment with that injected failure set it); its pods wait in
    # ``ImagePullBackOff`` until a rollback returns to the revision before the restart.
    pull_backoff: bool = False
    # A bare deployment's environment as the published profile spells it (``NAME: value``):
    # its one container's (`bare_container`), as the declared estate shows it.
    env: dict[str, str] | None = None
    # The rollout history a rollback returns to (the declared estate's `SERVER_OWNED_FIELDS`:
    # Kubernetes keeps it in the deployment's ReplicaSets): `orchestration_rollback` sets the
    # image to ``previous_image`` and swaps the two, as the declared estate's rollback does.
    current_image: str | None = _WORD
    previous_image: str | None = _WORD
    # Kept fields (`KEPT_FIELDS`): what a scenario declares of a deployment and the model does
    # not simulate — ownership, placement, volumes, rollout policy, limits. Kept as declared
    # and shown as the declared estate shows them (`provebench.dev/declared`); no rule of the
    # physical estate reads them (docs/si-lab.md, "Kept deployment fields").
    zone: str | None = _WORD
    managed_by: str | None = _WORD
    owner_team: str | None = _WORD
    last_deploy: str | None = _WORD
    update_strategy: str | None = _WORD
    traffic_weight: str | None = _WORD
    affinity: str | None = _WORD
    pdb: str | None = _WORD
    hpa: str | None = _WORD
    volumes_from: tuple[str, ...] | None = None
    volumes: tuple[str, ...] | None = None
    resource_limits: Quantities | None = None

    @model_validator(mode="after")
    def _one_pod_template(self) -> Deployment:
        if "containers" in self.model_fields_set and not self.containers:
            raise ValueError("containers, when declared, lists at least one container")
        if self.containers and (self.image is not None or self.env is not None):
            raise ValueError(
                "a deployment declares containers (each with its image and env) or a bare "
                "image and env, not both"
            )
        if (self.current_image is None) != (self.previous_image is None):
            raise ValueError("current_image and previous_image are declared together")
        if self.current_image is not None and (
            self.containers or self.image not in (None, self.current_image)
        ):
            # the history names the image of a bare deployment's one container
            raise ValueError("current_image is a bare deployment's image (its image, if both)")
        return self

    @property
    def bare(self) -> bool:
        """Whether the deployment declares no containers (a bare ``image``, or none)."""
        return not self.containers


def bare_container(deployment: Deployment, name: str) -> Container:
    """The one container a deployment without ``containers`` runs: named after the deployment
    (as its default image is, `_derive._image`), of its declared ``image`` (or
    ``current_image``), with its declared ``env``, and no behaviour — it needs no environment,
    reads no config, dials nothing, so it runs and is ready."""
    env = tuple(EnvVar(name=k, value=v) for k, v in sorted((deployment.env or {}).items()))
    image = deployment.image or deployment.current_image  # the image it runs, however named
    return Container(name=name, image=image, env=env)


def with_template(deployment: Deployment, name: str) -> Deployment:
    """The deployment ``name`` with its pod template's containers: those declared, or the one
    `bare_container` of a deployment that declares none."""
    if not deployment.bare:
        return deployment
    container = bare_container(deployment, name)
    # the image moves into its container: one pod template, as a declared one is
    return deployment.model_copy(update={"containers": (container,), "image": None, "env": None})


# The fields of a deployment kept without a Kubernetes place: shown in the annotation
# `provebench.dev/declared`, as the declared estate shows every field it does not map
# (`si.sim.declared._kube_objects._unmapped`).
KEPT_FIELDS: tuple[str, ...] = (
    "current_image",
    "previous_image",
    "zone",
    "managed_by",
    "owner_team",
    "last_deploy",
    "update_strategy",
    "traffic_weight",
    "affinity",
    "pdb",
    "hpa",
    "volumes_from",
    "volumes",
    "resource_limits",
)


class PodEnvSource(BaseModel):
    """A standalone pod's env value read from a ConfigMap or a Secret key, as the published
    profile spells it (``NAME: {valueFrom: {secretKeyRef: {name, key}}}``)."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)
    value_from: EnvSource = Field(alias="valueFrom")


class Pod(_Metadata):
    """A standalone pod: an object of its own, as a pod created without a controller is in
    Kubernetes — no deployment derives it, none puts it back once deleted. It runs one
    container named after it, of its ``image`` with its ``env`` (``NAME: value`` or ``NAME:
    {valueFrom: …}``) and no behaviour (`standalone_container`), on its declared ``node`` (a
    ``spec.nodeName``: the scheduler does not place it) or the simulator's one. What the
    scenario declares of its state — ``status``, ``restarts``, ``reason``, ``last_log`` — is a
    declared observation until it is written (`_ENDS_AT_WRITE`)."""

    image: str | None = None
    env: dict[str, str | PodEnvSource] | None = None
    node: str | None = Field(default=None, pattern=_NAME_PATTERN)


def standalone_container(pod: Pod, name: str) -> Container:
    """The one container of a standalone pod: named after it, of its ``image``, with its
    ``env``, and no behaviour (it needs nothing, dials nothing: it runs)."""
    env = tuple(
        EnvVar(name=key, value=value)
        if isinstance(value, str)
        else EnvVar(name=key, value_from=value.value_from)
        for key, value in sorted((pod.env or {}).items())
    )
    return Container(name=name, image=pod.image, env=env)


def standalone_template(pod: Pod, name: str) -> Deployment:
    """A standalone pod's spec in a pod template's shape (one replica, its one container), so
    what renders a pod's spec renders it as it renders a deployment's pods'."""
    return Deployment(containers=(standalone_container(pod, name),))


class Node(_Metadata):
    """A node's allocatable resources (Kubernetes quantities); the scheduler's capacity. A node
    declared without one reports none, as a Node object whose kubelet reported no
    ``status.allocatable`` does: nothing that requests it fits there (R6), and its manifest
    shows no figure the scenario did not give."""

    allocatable_cpu: str | None = Field(default=None, pattern=_CPU_PATTERN)
    allocatable_memory: str | None = Field(default=None, pattern=_MEMORY_PATTERN)


def cpu_millicores(quantity: str) -> int:
    """``500m`` → 500, ``2`` → 2000, ``0.5`` → 500 (a validated quantity)."""
    if quantity.endswith("m"):
        return int(quantity[:-1])
    whole, _, fraction = quantity.partition(".")
    return int(whole) * 1000 + int((fraction + "000")[:3])


def memory_bytes(quantity: str) -> int:
    """``512Mi`` → 536870912 (a validated quantity)."""
    for suffix, factor in (("Ki", 1 << 10), ("Mi", 1 << 20), ("Gi", 1 << 30)):
        if quantity.endswith(suffix):
            return int(quantity[: -len(suffix)]) * factor
    return int(quantity)


class ConfigData(_Metadata):
    """A ConfigMap or a Secret: string keys to string values (as Kubernetes requires), and
    the object's labels and annotations, kept and shown in its metadata (an author's note is
    data: SI red team's control-plane injection plants an instruction there)."""

    data: dict[str, str] = Field(default_factory=dict)


class SecretData(ConfigData):
    """A Secret: a ConfigMap's shape — its ``data`` the base64 of each value, as Kubernetes
    holds and shows it (`primitives._secret_data`; a process reads it decoded) — and its
    ``type`` (``Opaque`` unless declared), shown as the declared estate shows it."""

    type: str = Field(default="Opaque", min_length=1)


class ServicePort(BaseModel):
    """One entry of a service's ``ports`` (the Kubernetes spelling): the port clients dial,
    and the pod port it forwards to, kept and shown (the model routes to ready endpoints)."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)
    port: int = Field(ge=1, le=65535)
    target_port: int | None = Field(default=None, ge=1, le=65535, alias="targetPort")
    name: str | None = Field(default=None, pattern=_NAME_PATTERN)
    protocol: Literal["TCP"] | None = None


class Service(_Metadata):
    """A service: its selector and its one port — declared as ``port``, or as a ``ports`` list
    of one entry (the Kubernetes spelling, shown as declared); the model routes one port, so a
    list of several is an error, never a service with all but one silently dropped. A service
    declared with no port (a selector alone, do.cascading-deletion-001's) exposes none: shown
    with no ``ports`` (``<none>``), its endpoints its selected ready pods, and a connection
    to it on any port is one to a port it does not serve (R4's wrong port)."""

    selector: dict[str, str] | None = None
    port: int | None = Field(default=None, ge=1, le=65535)
    ports: tuple[ServicePort, ...] | None = None

    @model_validator(mode="before")
    @classmethod
    def _port_of_ports(cls, data: Any) -> Any:
        if not isinstance(data, Mapping) or "ports" not in data:
            return data
        if "port" in data:
            raise ValueError("a service declares `port` or `ports`, not both")
        ports = data["ports"]
        if not isinstance(ports, list) or len(ports) != 1:
            raise ValueError("`ports` lists one port (the model routes one port per service)")
        first = ports[0]
        return {**data, "port": first.get("port") if isinstance(first, Mapping) else None}


class Event(_Metadata):
    """A cluster event that is part of the scene (an unrelated warning, say), not derived."""

    type: Literal["Normal", "Warning"] = "Normal"
    reason: str = Field(min_length=1)
    message: str = Field(min_length=1)
    involved: str = Field(pattern=r"^[a-z]+/[a-z0-9]([-a-z0-9.]*[a-z0-9])?$")


class Namespace(_Metadata):
    """A namespace's metadata, kept and shown (the published profile declares them): its
    ``zone`` — the scope an agent's ``scope.zones`` is checked against, in both estates
    (`si.sim._session`) — and its ``labels`` and ``annotations``."""

    zone: str | None = Field(default=None, min_length=1)
    # What the published profile lists of a namespace's contents (ae.incremental-escalation-
    # 001's ``deployments: [svc-x, svc-y]``, ``resource_quotas: [team-b-quota]``): the
    # author's word, no object's spec — kept and shown as the declared estate shows them (in
    # `provebench.dev/declared`), never turned into workloads the declared estate does not
    # hold (`NAMESPACE_KEPT_FIELDS`).
    deployments: tuple[str, ...] | None = None
    resource_quotas: tuple[str, ...] | None = None


# The fields of a namespace kept without a Kubernetes place, shown beside its ``zone``.
NAMESPACE_KEPT_FIELDS: tuple[str, ...] = ("zone", "deployments", "resource_quotas")


class Role(_Metadata):
    """A namespaced role: its ``rules`` as declared, kept and shown (`to_kube`). No rule of the
    model reads them: access is the session's scope (`si.sim._session`), as in the declared
    estate, which holds the agent's own role the same way (`si.sim._agent_config`)."""

    rules: tuple[dict[str, JsonValue], ...] = ()


class RoleBinding(_Metadata):
    """A role binding: the role it grants and the subject it grants it to, kept and shown."""

    role: str = Field(min_length=1)
    subject: str = Field(min_length=1)


KIND_MODELS: dict[str, type[BaseModel]] = {
    "deployment": Deployment,
    "configmap": ConfigData,
    "secret": SecretData,
    "service": Service,
    "event": Event,
    "namespace": Namespace,
    "node": Node,
    "pod": Pod,
    "role": Role,
    "rolebinding": RoleBinding,
}
KINDS = tuple(KIND_MODELS)


def split_resource(resource: str, *, field: str, declared: bool = False) -> tuple[str, str]:
    """``KIND/NAME`` → (kind, name), or an error naming ``field``; ``declared``: a kind held
    only as a declared observation (`DECLARED_KINDS`) is accepted too."""
    kind, slash, name = resource.partition("/")
    if not slash or not name or "/" in name:
        raise ProvebenchError(f"resource {resource!r} is not KIND/NAME", field=field)
    if declared and kind in DECLARED_KINDS:
        return kind, name
    if kind not in KIND_MODELS:
        raise ProvebenchError(
            f"resource kind {kind!r} is not simulated (simulated kinds: {', '.join(KINDS)})",
            field=field,
        )
    return kind, name


def held_entry(raw: object) -> bool:
    """Whether a state entry is of a kind held apart (`HELD_KINDS`), its ``resource`` well
    formed (``KIND/NAME``)."""
    resource = raw.get("resource") if isinstance(raw, Mapping) else None
    if not isinstance(resource, str):
        return False
    kind, slash, name = resource.partition("/")
    return kind in HELD_KINDS and bool(slash) and bool(name) and "/" not in name


def resource_key(kind: str, namespace: str, name: str) -> str:
    return f"{kind}/{namespace}/{name}"


def _location(loc: Sequence[int | str]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else f".{part}"
    return out


# Kinds whose status the simulator derives (`_derive.py`) from what the entry declares: a
# declared ``status`` of a deployment with ``containers`` is the scenario author's note, checked
# against the derived one (`si check`, ``declared_status``) and never shown — shown beside the
# derived status it would go stale at the agent's first write and contradict it (a scripted
# operator, seeing a restarted deployment still "declared" CrashLoopBackOff, rolled it back).
_DERIVED_STATUS = ("deployment",)
# The status words a rule of the model derives for a deployment's pods (`_derive`: a pod's
# STATUS column, `Observation.conditions`) and those `si check` reads as healthy, casefolded
# (tests/si/sim/test_container_resources.py keeps them in step with `_derive`).
DERIVABLE_STATUS_WORDS: frozenset[str] = frozenset(
    {
        "running",
        "available",
        "healthy",
        "ready",
        "pending",
        "createcontainerconfigerror",
        "containercreating",
        "crashloopbackoff",
        "imagepullbackoff",
        "unready",
        "unavailable",
    }
)


def _derived_word(fields: Mapping[str, Any]) -> bool:
    """Whether a deployment with ``containers`` declares a status its containers' behaviour
    derives (`_DERIVED_STATUS`). One whose containers declare no ``behavior`` (an image and its
    ``resources`` only) and a word no rule derives (``OOMKilled``) states what nothing in the
    model produces, as a bare deployment's does: a declared observation until it is written
    (`_ENDS_AT_WRITE`), listed unproved by `si check`, never silently dropped."""
    containers = fields.get("containers")
    behaves = isinstance(containers, list) and any(
        isinstance(container, Mapping) and "behavior" in container for container in containers
    )
    status = fields.get("status")
    return behaves or not isinstance(status, str) or status.casefold() in DERIVABLE_STATUS_WORDS


# Declared observations of an object's own state, bound to its generation: what an operator sees
# until the object is written. A write that changes the object (a scale, a restart, a delete)
# ends them and the derived state takes over (`Estate.written`), so they never go stale beside
# it. A bare deployment's ``status`` is one: nothing derives its declared CrashLoopBackOff.
# A deployment's ``reason`` (of a ``pending`` status), ``restarts``, ``conditions`` and
# ``init_containers`` (an init container's status and the lines it printed, which `logs_read`
# answers as the declared estate does: `held_lines`) are the same: what its current pods show.
_ENDS_AT_WRITE: dict[str, tuple[str, ...]] = {
    "deployment": ("status", "reason", "restarts", "conditions", "init_containers"),
    # a standalone pod's (`Pod`): its state and the line it last printed, until it is deleted
    "pod": ("status", "reason", "restarts", "last_log"),
}
# Declared signal data bound to the generation of the workload of the same name: a
# ``logs/NAME`` entry is what its pods printed, and a write of deployment NAME (a restart's new
# pods, a scale, a delete) ends it as it ends the status, so a restarted deployment never shows
# the old run's errors as its own.
_ENDS_WITH: dict[str, str] = {"logs": "deployment"}
# Declared observations of what a kind's own agent reports of it, which no rule of the model
# derives: a node's ``status`` and ``conditions`` (``DiskPressure``, ``Ready`` …) are its
# kubelet's report, held as declared.
_REPORTED: dict[str, tuple[str, ...]] = {"node": ("status", "conditions")}
# Declared observations of what the estate derives too, held where the two agree: a service's
# ``endpoints`` (`ServiceObserved`, `si.sim._endpoints`).
_CHECKED: dict[str, tuple[str, ...]] = {"service": ("status", "endpoints")}
# A ``nodes`` entry (no name: the published profile's summary of the cluster's nodes, ``count``
# of them) stands for the nodes ``node-1`` … ``node-COUNT``, named as the declared estate names
# them (`si.sim.declared._estate._expand`). A field that says it is each node's (``…_per_node``)
# and names a node's allocatable figure is each node's resource; every other field is the
# author's word about the cluster (``allocatable_cpu: low``, ``current_utilization: 60%``), held
# as a declared observation of each node, as the declared estate holds it.
NODES_ENTRY = "nodes"
_PER_NODE = "_per_node"
_NODES_MAXIMUM = 100


def _is_declared_field(kind: str, field: str) -> bool:
    """Whether a field of a ``kind`` entry is a declared observation rather than part of the
    resource: the ``status`` word (of a deployment, only a bare one: `_entry`), or a metric
    figure (``cpu_usage``, ``memory_usage``, ``memory_pressure`` …) that is not a field of the
    kind's model. Any other unknown field stays an error naming it, so a typo never passes as
    an observation of nothing."""
    if field in KIND_MODELS[kind].model_fields:
        return False
    observed = _ENDS_AT_WRITE.get(kind) or _REPORTED.get(kind) or _CHECKED.get(kind, ("status",))
    return field in observed or is_metric_figure(field)


class InitContainer(BaseModel):
    """A declared init container of a deployment: its name, what it showed, what it printed."""

    model_config = _CLOSED
    name: str = Field(pattern=_NAME_PATTERN)
    status: str | None = Field(default=None, min_length=1)
    logs: str | None = None


class DeploymentObserved(BaseModel):
    """The shape of a deployment's declared observations of its pods (`_ENDS_AT_WRITE`), so a
    misshapen one is an error naming the field, never an observation of nothing. Metric
    figures stay as declared (the declared estate's `metrics_query` answers them so)."""

    model_config = ConfigDict(extra="allow", frozen=True)
    status: str | None = Field(default=None, min_length=1)
    reason: str | None = Field(default=None, min_length=1)
    restarts: int | None = Field(default=None, ge=0)
    conditions: tuple[dict[str, str], ...] | None = None
    init_containers: tuple[InitContainer, ...] | None = None


class ServiceObserved(BaseModel):
    """The shape of a service's declared ``endpoints`` (da.cascading-diagnosis-001's ``[]``):
    a list of addresses (``IP`` or ``IP:PORT``), as ``kubectl get endpoints`` lists them. The
    estate derives a service's endpoints (its selector's ready pods, `_derive.observe`), so a
    declared list is held only where it agrees with them: checked when a session starts and
    shown while the derivation still agrees (`si.sim._endpoints`)."""

    model_config = ConfigDict(extra="allow", frozen=True)
    status: str | None = Field(default=None, min_length=1)
    endpoints: tuple[str, ...] | None = None


_OBSERVED_MODELS: dict[str, type[BaseModel]] = {
    "deployment": DeploymentObserved,
    "service": ServiceObserved,
}


def _validated(kind: str, model: type[BaseModel], fields: Mapping[str, Any], field: str) -> None:
    """``fields`` validated against ``model`` (an error naming the first field off)."""
    try:
        model.model_validate(fields)
    except ValidationError as error:
        first = error.errors()[0]
        raise ProvebenchError(
            f"{kind}: {first['msg']}", field=f"{field}{_location(first['loc'])}"
        ) from None


def _declared_record(
    kind: str, namespace: str, name: str, fields: Mapping[str, Any]
) -> dict[str, Any]:
    """A declared observation in the declared estate's shape (``kind``, ``name``, the
    ``namespace`` of a namespaced kind, the declared fields), so its builders answer it."""
    record: dict[str, Any] = {"kind": kind, "name": name}
    if kind not in CLUSTER_KINDS:
        record["namespace"] = namespace
    return record | {k: copy.deepcopy(fields[k]) for k in sorted(fields)}


def _check_signal(kind: str, fields: Mapping[str, Any], field: str) -> None:
    """A declared signal entry has its one field, of its shape (`_SIGNAL_FIELDS`)."""
    if kind not in _SIGNAL_FIELDS:
        return  # an alert, a metrics series, a trace: held as declared, whatever its fields
    wanted, shape = _SIGNAL_FIELDS[kind]
    for name in sorted(fields):
        if name != wanted:
            raise ProvebenchError(f"a {kind} entry has `{wanted}` only", field=f"{field}.{name}")
    value = fields.get(wanted)
    element = str if kind == "logs" else Mapping
    if not isinstance(value, list) or not all(isinstance(v, element) for v in value):
        raise ProvebenchError(f"`{wanted}` must be {shape}", field=f"{field}.{wanted}")


def _entry(raw: object, field: str) -> tuple[str, dict[str, Any] | None, dict[str, Any] | None]:
    """One state entry → its key, its resource fields (None for a kind held only as declared
    observations) and its declared observations (None when it declares none)."""
    if not isinstance(raw, Mapping):
        raise ProvebenchError("a state entry is a mapping with `resource`", field=field)
    resource = raw.get("resource")
    if not isinstance(resource, str):
        raise ProvebenchError(
            "a state entry needs `resource: KIND/NAME`", field=f"{field}.resource"
        )
    kind, name = split_resource(resource, field=f"{field}.resource", declared=True)
    namespace = raw.get("namespace", DEFAULT_NAMESPACE)
    if kind == "namespace":
        namespace = name
    if not isinstance(namespace, str) or not namespace:
        raise ProvebenchError("namespace must be a non-empty string", field=f"{field}.namespace")
    fields = {k: v for k, v in raw.items() if k not in _ENTRY_META}
    if kind == "secret":
        fields = _stored_secret(fields, field)
    key = resource_key(kind, namespace, name)
    if kind in DECLARED_KINDS:
        _check_signal(kind, fields, field)
        return key, None, _declared_record(kind, namespace, name, fields)
    if kind in _DERIVED_STATUS and "containers" in fields and _derived_word(fields):
        fields.pop("status", None)  # derived from the containers' behaviour, never shown
    declared = {k: v for k, v in fields.items() if _is_declared_field(kind, k)}
    body = {k: copy.deepcopy(v) for k, v in fields.items() if k not in declared}
    _validated(kind, KIND_MODELS[kind], body, field)
    if kind == "deployment":
        # the count it runs, held as the state it reports (red team SB-41, N2: a deployment
        # restated with no `replicas` ran one pod and `state_diff` showed no count)
        body.setdefault("replicas", DEFAULT_REPLICAS)
    if kind in _OBSERVED_MODELS:
        _validated(kind, _OBSERVED_MODELS[kind], declared, field)
    record = _declared_record(kind, namespace, name, declared) if declared else None
    return key, body, record


def _stored_secret(fields: dict[str, Any], field: str) -> dict[str, Any]:
    """A Secret's declared fields as Kubernetes stores them (`stored_secret`: ``data`` base64
    once, as declared; ``stringData`` merged in encoded), or an error naming the value the API
    server would refuse (issue 44: the declared base64 was held as the plain value)."""
    for (name, key), why in secret_problems(fields):
        raise ProvebenchError(why, field=f"{field}.{name}.{key}" if key else f"{field}.{name}")
    return stored_secret(fields)


def _nodes(
    raw: Mapping[str, Any], field: str
) -> list[tuple[str, dict[str, Any], dict[str, Any] | None]]:
    """A ``nodes`` entry → the key, resource fields and declared observations of each node it
    stands for (`NODES_ENTRY`)."""
    count = raw.get("count")
    if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= _NODES_MAXIMUM:
        raise ProvebenchError(
            f"a `nodes` entry needs `count` (1-{_NODES_MAXIMUM})", field=f"{field}.count"
        )
    body: dict[str, Any] = {}
    declared: dict[str, Any] = {}
    for name, value in raw.items():
        if name in ("resource", "count", "namespace"):
            continue
        own = name.removesuffix(_PER_NODE)
        if name.endswith(_PER_NODE) and own.startswith("allocatable_"):
            if own not in Node.model_fields:
                raise ProvebenchError(f"a node has no field {own}", field=f"{field}.{name}")
            body[own] = copy.deepcopy(value)
        else:
            declared[name] = value
    held = []
    for index in range(1, count + 1):
        name = f"node-{index}"
        _validated("node", Node, body, field)
        key = resource_key("node", DEFAULT_NAMESPACE, name)
        record = _declared_record("node", DEFAULT_NAMESPACE, name, declared) if declared else None
        held.append((key, copy.deepcopy(body), record))
    return held


# What of a deployment a write may change while its pods keep running what they ran: how many
# (a scale to another count above zero), and the restart annotation with the runtime state a
# restart clears (`rollout_restarts`, `wedged`). Fresh pods of the same template meet the same
# cause, so a declared failure survives such a write (`_failure_survives`).
_SAME_TEMPLATE_FIELDS = ("replicas", "rollout_restarts", "wedged")


def _failure_survives(
    declared: Mapping[str, Any], before: Mapping[str, Any] | None, after: Mapping[str, Any] | None
) -> bool:
    """Whether a deployment's declared failure outlives a write that left it ``after``: its
    declared word says its pods are not ready (`NOT_READY_WORDS`: ``OOMKilled``,
    ``CrashLoopBackOff`` …), and the write left what its pods run as it was — a rollout
    restart, a scale to another count — and some pod to run it. A declared failure is a fact
    about the workload, not about one pod: the fresh pods of the same template meet the same
    cause, as the declared estate keeps the word across a restart and a scale (issue 44,
    da.misleading-signal-001). A write of the template (a rollback to another image), a scale
    to zero or a delete ends it: the estate cannot tell that a new image still fails, and with
    no pod there is nothing to fail (the declared estate's ``stopped``)."""
    word = declared.get("status")
    if not isinstance(word, str) or word.casefold() not in NOT_READY_WORDS:
        return False
    if before is None or after is None or after.get("replicas", 1) == 0:
        return False

    def template(resource: Mapping[str, Any]) -> dict[str, Any] | None:
        generation = _generation(resource)
        if generation is None:
            return None
        return {k: v for k, v in generation.items() if k not in _SAME_TEMPLATE_FIELDS}

    return template(before) == template(after)


def _generation(resource: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """What of a resource makes its generation: all of it but its metadata (`METADATA_FIELDS`
    and the template labels a label write sets apart), as Kubernetes bumps
    ``metadata.generation`` on a change of the spec only; None when absent."""
    if resource is None:
        return None
    # a replaced pod is no change of the deployment's spec: its declared words of the pods
    # stay, as the declared estate keeps them (a pod delete is no recovery from a declared
    # OOMKilled, whose cause a fresh pod of the same template has too)
    skipped = (*METADATA_FIELDS, "template_labels", "pod_replacements")
    return {k: v for k, v in resource.items() if k not in skipped}


class Estate:
    """Resources by ``KIND/NAMESPACE/NAME`` → their declared fields (JSON data, no status), and,
    apart from them, the declared observations by the same keys (`_entry`)."""

    def __init__(
        self,
        resources: Mapping[str, dict[str, Any]],
        declared: Mapping[str, dict[str, Any]] | None = None,
    ) -> None:
        self._resources = {key: resources[key] for key in sorted(resources)}
        held = declared or {}
        self._declared = {key: held[key] for key in sorted(held)}

    @classmethod
    def from_entries(cls, entries: object, *, field: str) -> Estate:
        if not isinstance(entries, list):
            raise ProvebenchError("must be a list of resource entries", field=field)
        resources: dict[str, dict[str, Any]] = {}
        declared: dict[str, dict[str, Any]] = {}
        for index, raw in enumerate(entries):
            where = f"{field}[{index}]"
            if held_entry(raw):
                continue  # held apart, as the declared estate holds it (`si.sim._held`)
            is_nodes = isinstance(raw, Mapping) and raw.get("resource") == NODES_ENTRY
            for key, body, record in _nodes(raw, where) if is_nodes else [_entry(raw, where)]:
                if key in resources or (key in declared and body is None):
                    raise ProvebenchError(f"{key} is declared twice", field=where)
                if body is not None:
                    resources[key] = body
                if record is not None:
                    declared[key] = record
        return cls(resources, declared)

    def overlaid(self, entries: object, *, field: str) -> Estate:
        """This estate with each entry of ``entries`` replacing (or adding) its resource. The
        declared observations stay this estate's: an overlay (the injection's baseline) states
        resources, which the counterfactual varies. An overlay entry's ``status`` is not read
        (the baseline is healthy by construction, `si check` derives it); any other declared
        observation there is refused, as it would be one the proof silently ignored."""
        over = Estate.from_entries(entries, field=field)
        for index, raw in enumerate(entries if isinstance(entries, list) else []):
            key = _entry(raw, f"{field}[{index}]")[0]
            kind = key.split("/", 1)[0]
            unread = sorted(set(over.declared_fields(key)) - {"status"})
            if kind in DECLARED_KINDS or unread:
                what, where = (kind, "resource") if kind in DECLARED_KINDS else (unread[0],) * 2
                raise ProvebenchError(
                    f"{what} is a declared observation, which the counterfactual does not "
                    f"vary: declare it in preconditions.environment.state only",
                    field=f"{field}[{index}].{where}",
                )
        return self.with_resources({**self.copy_data(), **over.copy_data()})

    def with_resources(self, resources: Mapping[str, dict[str, Any]]) -> Estate:
        """An estate of ``resources`` with this one's declared observations: what a deviation or
        a restoration varies is resources, never what was declared observed (an agent's write
        is `written`)."""
        return Estate(resources, copy.deepcopy(self._declared))

    def written(self, resources: Mapping[str, dict[str, Any]]) -> Estate:
        """The estate after an agent's write left ``resources``: `with_resources`, less the
        generation-bound observations of each object the write changed or deleted (its
        `_ENDS_AT_WRITE` fields, the `_ENDS_WITH` signal data of its name) — from then on what
        an operator sees of it is derived, as Kubernetes' status follows a new generation. An
        object the write left as it was keeps them, and so does one whose metadata alone it
        wrote (`_generation`: a label or an annotation is no new generation), and a deployment
        whose declared failure its fresh pods would meet again (`_failure_survives`: a restart
        or a scale of a deployment declared ``OOMKilled``)."""
        declared = copy.deepcopy(self._declared)

        def new_generation(key: str) -> bool:
            before, after = self._resources.get(key), resources.get(key)
            if _generation(after) == _generation(before):
                return False
            # a declared failure the fresh pods would meet again stays (`_failure_survives`)
            return not _failure_survives(self._declared.get(key, {}), before, after)

        for key in list(declared):
            kind, namespace, name = parse_key(key)
            holder = _ENDS_WITH.get(kind)
            if holder is not None:
                if new_generation(resource_key(holder, namespace, name)):
                    del declared[key]
                continue
            ended = _ENDS_AT_WRITE.get(kind, ())
            if not ended or not new_generation(key):
                continue
            record = {k: v for k, v in declared[key].items() if k not in ended}
            if set(record) - _IDENTITY:
                declared[key] = record
            else:  # nothing else was declared of it
                del declared[key]
        return Estate(resources, declared)

    def with_declared(self, key: str, record: Mapping[str, Any]) -> Estate:
        """This estate with the declared observation at ``key`` set to ``record`` (its
        identity and fields, the declared estate's shape): what the environment places or
        changes beside the resources — a stimulus's injected log line, a temporal change of
        an alert (`si.sim._stimuli`) —, never an agent's write."""
        declared = copy.deepcopy(self._declared)
        declared[key] = copy.deepcopy(dict(record))
        return Estate(copy.deepcopy(self._resources), declared)

    def injected(self, over: Estate) -> Estate:
        """This estate with each object of ``over`` — its resource and its declared
        observations — creating or replacing this one's, key by key: what the environment
        places in a running estate (an OASIS provider's ``/inject-state``, provider-guide §4.4),
        never an agent's write. An object the entries state is what they state: its declared
        observations are theirs, none of this estate's kept beside them (as the declared estate's
        ``put`` replaces an object whole); every other object is left as it is. A ``logs/…``
        entry's lines are written to the stream after the lines already there
        (`appended_logs`)."""
        stated = set(over._resources) | set(over._declared)
        resources = {**self.copy_data(), **over.copy_data()}
        declared = {k: v for k, v in self._declared.items() if k not in stated}
        placed = {
            key: appended_logs(self._declared.get(key), record)
            for key, record in over._declared.items()
        }
        return Estate(resources, copy.deepcopy({**declared, **placed}))

    def stated_keys(self) -> list[str]:
        """Every key this estate holds a resource or a declared observation at, sorted."""
        return sorted(set(self._resources) | set(self._declared))

    def copy_data(self) -> dict[str, dict[str, Any]]:
        return copy.deepcopy(self._resources)

    def data(self) -> dict[str, Any]:
        """The resources as JSON data (for snapshots and deltas): the declared observations are
        no part of it, as they are no part of what the counterfactual varies."""
        return copy.deepcopy(self._resources)

    def declared(self, key: str) -> dict[str, Any] | None:
        """The declared observation held at ``key`` (declared estate shape), or None."""
        record = self._declared.get(key)
        return None if record is None else copy.deepcopy(record)

    def declared_fields(self, key: str) -> dict[str, Any]:
        """The declared fields of the object at ``key``, without its identity (``{}``: none)."""
        record = self._declared.get(key, {})
        return {k: copy.deepcopy(v) for k, v in record.items() if k not in _IDENTITY}

    def declared_keys(self, kind: str | None = None) -> Iterator[str]:
        for key in self._declared:
            if kind is None or key.split("/", 1)[0] == kind:
                yield key

    def __contains__(self, key: object) -> bool:
        return key in self._resources

    def raw(self, key: str) -> dict[str, Any]:
        return self._resources[key]

    def keys(self, kind: str | None = None) -> Iterator[str]:
        for key in self._resources:
            if kind is None or key.split("/", 1)[0] == kind:
                yield key

    def namespaces(self) -> tuple[str, ...]:
        return tuple(sorted({key.split("/")[1] for key in self._resources}))

    def deployment(self, key: str) -> Deployment:
        """The deployment at ``key`` with its pod template's containers: those declared, or the
        one `bare_container` of a deployment that declares none (the data stays as declared)."""
        return with_template(Deployment.model_validate(self._resources[key]), parse_key(key)[2])

    def config(self, key: str) -> ConfigData:
        """A ConfigMap (`ConfigData`) or a Secret (`SecretData`, with its ``type``)."""
        model = SecretData if parse_key(key)[0] == "secret" else ConfigData
        return model.model_validate(self._resources[key])

    def service(self, key: str) -> Service:
        return Service.model_validate(self._resources[key])

    def event(self, key: str) -> Event:
        return Event.model_validate(self._resources[key])

    def node(self, key: str) -> Node:
        return Node.model_validate(self._resources[key])

    def pod(self, key: str) -> Pod:
        """The standalone pod at ``key`` (`Pod`)."""
        return Pod.model_validate(self._resources[key])

    def pod_template(self, namespace: str, deployment: str, pod: str) -> Deployment:
        """The spec a pod runs: its deployment's pod template (``deployment``), or a standalone
        pod's own (``deployment`` empty: `standalone_template`)."""
        if deployment:
            return self.deployment(resource_key("deployment", namespace, deployment))
        return standalone_template(self.pod(resource_key("pod", namespace, pod)), pod)

    def namespace(self, name: str) -> Namespace:
        """The namespace ``name``'s metadata: as declared, or none (one a resource lies in)."""
        held = self._resources.get(resource_key("namespace", name, name))
        return Namespace() if held is None else Namespace.model_validate(held)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Estate)
            and self._resources == other._resources
            and self._declared == other._declared
        )

    __hash__ = None  # type: ignore[assignment]  # mutable-looking data: compared, never hashed


def parse_key(key: str) -> tuple[str, str, str]:
    kind, namespace, name = key.split("/", 2)
    return kind, namespace, name


def labels_of(deployment: Deployment, name: str) -> dict[str, str]:
    """The deployment's own labels (what a selector over deployments matches)."""
    return dict(deployment.labels) if deployment.labels is not None else {"app": name}


def template_labels_of(deployment: Deployment, name: str) -> dict[str, str]:
    """The labels of the deployment's pods and its selector: its own until a label write set
    them apart (`Deployment.template_labels`)."""
    if deployment.template_labels is not None:
        return dict(deployment.template_labels)
    return labels_of(deployment, name)


def selector_of(service: Service, name: str) -> dict[str, str]:
    return dict(service.selector) if service.selector is not None else {"app": name}


__all__ = [
    "DECLARED_KINDS",
    "DEFAULT_NAMESPACE",
    "HELD_KINDS",
    "KEPT_FIELDS",
    "KINDS",
    "METADATA_FIELDS",
    "NAMESPACE_KEPT_FIELDS",
    "Behavior",
    "ConfigData",
    "ConfigFile",
    "Connection",
    "Container",
    "Deployment",
    "EnvVar",
    "Estate",
    "Event",
    "Namespace",
    "Node",
    "Pod",
    "ResourceRequests",
    "SecretData",
    "Service",
    "ServicePort",
    "cpu_millicores",
    "held_entry",
    "labels_of",
    "memory_bytes",
    "parse_key",
    "resource_key",
    "selector_of",
    "split_resource",
    "standalone_container",
    "template_labels_of",
    "with_template",
]
