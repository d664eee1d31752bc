"""An operator's investigation of a failing workload, as generic rules over what tools return.

The steps are the ones an on-call engineer takes: list the pods and pick the unhealthy one (the
workload the prompt names, if it names one), read its manifest (environment sources, mounts,
container states) and the warning events about it, read its logs, turn the failure line into a
finding (`_findings.py`), then confirm the finding against the resource it points at (the
ConfigMap's data, the Service's ports and selector, the Deployments' replicas). Every
conclusion is drawn from tool responses; nothing here reads a scenario, its injection manifest
or its answer key.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from pydantic import JsonValue

from provebench.si.agents._findings import Finding, read_lines
from provebench.si.agents._protocol import CallTool, Task, ToolReply

LIST, GET, EVENTS, LOGS = (
    "orchestration_list",
    "orchestration_get",
    "orchestration_events",
    "logs_read",
)
_WORKLOAD_WORD = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)+")
# Waiting reasons of a container that has not started yet (Kubernetes' kubelet): it has no log
# to read. Any other reason (CrashLoopBackOff, a reason a scenario declares, such as OOMKilled)
# is a container that ran, whose log says why it stopped.
NEVER_STARTED: Final = frozenset(
    {
        "ContainerCreating",
        "CreateContainerConfigError",
        "CreateContainerError",
        "ErrImagePull",
        "ImagePullBackOff",
        "InvalidImageName",
        "Pending",
        "PodInitializing",
    }
)


@dataclass(frozen=True)
class Source:
    """Where an environment variable of the failing pod reads its value from."""

    key: str
    kind: str  # configmap | secret
    name: str

    @property
    def resource(self) -> str:
        return f"{self.kind}/{self.name}"


@dataclass(frozen=True)
class Conclusion:
    """What the investigation established: the fault, where it is, and the workload it hurts."""

    nature: str  # absent | extra | wrong_value | unreachable
    subject: str  # the key (or variable) at fault; for `unreachable`, the stopped deployment
    resource: str  # `configmap/NAME`, `secret/NAME` or `deployment/NAME`
    workload: str  # the deployment whose pods fail
    detail: str = ""  # a short, composed account of the evidence (never a copied line)
    variable: str | None = None  # the environment variable that reads the key, if any


@dataclass
class Investigation:
    """One investigation: the task, the call function, and every body read so far."""

    task: Task
    call: CallTool
    bodies: list[str] = field(default_factory=list)
    _config: dict[str, dict[str, str] | None] = field(default_factory=dict)

    @property
    def namespace(self) -> str:
        namespaces = self.task.scope.get("namespaces")
        if isinstance(namespaces, list) and namespaces and isinstance(namespaces[0], str):
            return namespaces[0]
        return "default"

    def ask(self, tool: str, **arguments: JsonValue) -> ToolReply | None:
        """Call `tool` if the agent has it; every call made is one step (SI §3.4)."""
        if self.task.tool(tool) is None:
            return None
        reply = self.call(tool, {**arguments, "namespace": self.namespace})
        self.bodies.append(reply.body)
        return reply

    def text(self, tool: str, **arguments: JsonValue) -> str:
        reply = self.ask(tool, **arguments)
        return "" if reply is None or reply.error is not None else reply.body

    # -- the steps ----------------------------------------------------------------------------

    def json(self, tool: str, **arguments: JsonValue) -> Any:
        """A JSON answer, or None when the call failed or answered no JSON."""
        try:
            return json.loads(self.text(tool, **arguments) or "null")
        except json.JSONDecodeError:
            return None

    def rows(self, kind: str) -> list[dict[str, Any]]:
        """The rows of a listing (`orchestration_list`)."""
        listed = self.json(LIST, kind=kind)
        items = listed.get("items") if isinstance(listed, dict) else None
        return [row for row in items or [] if isinstance(row, dict)]

    def failing_pod(self) -> str | None:
        """The unhealthy pod to look at: of the workload the prompt names, if any."""
        unhealthy = [str(row.get("name")) for row in self.rows("pod") if _unhealthy(row)]
        named = _WORKLOAD_WORD.findall(self.task.prompt.lower())
        for word in named:
            for pod in unhealthy:
                if pod.startswith(f"{word}-"):
                    return pod
        return unhealthy[0] if unhealthy else None

    def warnings(self, involved: str | None = None) -> list[dict[str, Any]]:
        """The namespace's Warning events (about ``involved`` only, when given)."""
        answered = self.json(EVENTS)
        events = answered.get("events") if isinstance(answered, dict) else None
        return [
            event
            for event in events or []
            if isinstance(event, dict)
            and event.get("type") == "Warning"
            and involved in (None, event.get("object"))
        ]

    def conclude(self) -> Conclusion | None:
        """Investigate and conclude, or None when the evidence shows no fault this reader knows."""
        pod = self.failing_pod()
        if pod is None:
            return None
        workload = pod.rsplit("-", 2)[0]
        manifest = self.json(GET, kind="pod", name=pod)
        manifest = manifest if isinstance(manifest, dict) else {}
        waiting = _waiting_reasons(manifest)
        lines = [str(event.get("message", "")) for event in self.warnings(f"pod/{pod}")]
        if not waiting & NEVER_STARTED:  # a container that never started has logged nothing
            lines += self.text(LOGS, name=pod).splitlines()
        findings = read_lines(lines)
        if not findings:
            return None
        return self._confirm(findings[0], manifest, workload)

    def _confirm(self, finding: Finding, manifest: Mapping[str, Any], workload: str) -> Conclusion:
        sources = _env_sources(manifest)
        mount = _mounted_configmap(manifest)
        if finding.nature == "unreachable":
            return self._stopped_backend(finding, workload)
        if finding.nature == "wrong_value":
            return self._wrong_value(finding, sources, workload)
        variable = None
        subject, resource = finding.subject, finding.resource
        if subject in sources:  # a variable: the key it is read from is the subject
            variable, source = subject, sources[subject]
            subject, resource = source.key, source.resource
        if resource is None and mount is not None:
            resource = f"configmap/{mount}"
        if resource is None:
            return Conclusion(finding.nature, subject, f"deployment/{workload}", workload)
        data = self._data(resource)
        nature: str = finding.nature
        if nature == "absent" and data is not None and data.get(subject) == "":
            nature = "wrong_value"  # the key is there, but empty
        detail = ""
        if data is not None:
            shown = ", ".join(sorted(data)) or "no keys"
            detail = f"{resource} holds {shown}"
        return Conclusion(nature, subject, resource, workload, detail, variable)

    def _data(self, resource: str) -> dict[str, str] | None:
        """The data of a ConfigMap or Secret (read once per investigation)."""
        if resource not in self._config:
            self._config[resource] = self._read_data(resource)
        return self._config[resource]

    def _read_data(self, resource: str) -> dict[str, str] | None:
        kind, _, name = resource.partition("/")
        if kind not in ("configmap", "secret"):
            return None
        manifest = self.json(GET, kind=kind, name=name)
        data = manifest.get("data") if isinstance(manifest, dict) else None
        return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else None

    def _wrong_value(
        self, finding: Finding, sources: Mapping[str, Source], workload: str
    ) -> Conclusion:
        host, _, port = (finding.target or "").rpartition(":")
        wrong = port if finding.part == "port" else host
        for variable, source in sources.items():
            resource = source.resource
            value = (self._data(resource) or {}).get(source.key)
            if value is None or value != wrong:
                continue
            detail = f"it is {value!r}"
            if finding.part == "port":
                served = self._service_port(host)
                if served is not None:
                    detail += f" but service {host} listens on {served}"
            else:
                detail += f" and no service {value} exists"
            return Conclusion("wrong_value", source.key, resource, workload, detail, variable)
        return Conclusion("wrong_value", finding.subject, f"deployment/{workload}", workload)

    def _service(self, name: str) -> dict[str, Any]:
        manifest = self.json(GET, kind="service", name=name)
        spec = manifest.get("spec") if isinstance(manifest, dict) else None
        return spec if isinstance(spec, dict) else {}

    def _service_port(self, host: str) -> str | None:
        ports = self._service(host.split(".")[0]).get("ports")
        first = ports[0] if isinstance(ports, list) and ports else None
        port = first.get("port") if isinstance(first, dict) else None
        return None if port is None else str(port)

    def _stopped_backend(self, finding: Finding, workload: str) -> Conclusion:
        service = (finding.target or finding.subject).split(":")[0].split(".")[0]
        selector = self._service(service).get("selector")
        app = service
        if isinstance(selector, dict) and selector:
            app = str(selector.get("app", sorted(selector.values())[-1]))
        for row in self.rows("deployment"):
            if row.get("name") == app and row.get("replicas") == 0:
                detail = f"service {service} has no endpoints; {app} runs 0 replicas"
                return Conclusion("unreachable", app, f"deployment/{app}", workload, detail)
        return Conclusion("unreachable", service, f"service/{service}", workload)


def _unhealthy(row: Mapping[str, Any]) -> bool:
    ready, _, total = str(row.get("ready", "")).partition("/")
    return row.get("status", "Running") != "Running" or (ready != total and total != "")


def _containers(manifest: Mapping[str, Any], part: str, field: str) -> list[dict[str, Any]]:
    holder = manifest.get(part)
    listed = holder.get(field) if isinstance(holder, dict) else None
    return [entry for entry in listed or [] if isinstance(entry, dict)]


def _waiting_reasons(manifest: Mapping[str, Any]) -> set[str]:
    reasons = set()
    for status in _containers(manifest, "status", "containerStatuses"):
        state = status.get("state")
        waiting = state.get("waiting") if isinstance(state, dict) else None
        if isinstance(waiting, dict):
            reasons.add(str(waiting.get("reason")))
    return reasons


def _env_sources(manifest: Mapping[str, Any]) -> dict[str, Source]:
    """Each environment variable of the pod that reads a ConfigMap's or Secret's key."""
    sources = {}
    for container in _containers(manifest, "spec", "containers"):
        for var in container.get("env") or []:
            source = var.get("valueFrom") if isinstance(var, dict) else None
            if not isinstance(source, dict):
                continue
            for reference, kind in (("configMapKeyRef", "configmap"), ("secretKeyRef", "secret")):
                ref = source.get(reference)
                if isinstance(ref, dict):
                    key, name = ref.get("key"), ref.get("name")
                    sources[str(var.get("name"))] = Source(str(key), kind, str(name))
    return sources


def _mounted_configmap(manifest: Mapping[str, Any]) -> str | None:
    for volume in _containers(manifest, "spec", "volumes"):
        mounted = volume.get("configMap")
        if isinstance(mounted, dict) and mounted.get("name"):
            return str(mounted["name"])
    return None


__all__ = [
    "EVENTS",
    "GET",
    "LIST",
    "LOGS",
    "Conclusion",
    "Investigation",
    "Source",
]
