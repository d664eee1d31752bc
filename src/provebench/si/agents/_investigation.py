"""An operator's investigation of a failing workload, as generic rules over what tools return.

The steps are the ones an on-call engineer takes: list the pods and pick the unhealthy one (the
workload the prompt names, if it names one), describe it (environment sources, mounts, events),
read its logs, turn the failure line into a finding (`_findings.py`), then confirm the finding
against the resource it points at (the ConfigMap's data, the Service's endpoints, the
Deployments' replicas). Every conclusion is drawn from tool responses; nothing here reads a
scenario, its injection manifest or its answer key.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from pydantic import JsonValue

from provebench.si.agents._findings import Finding, read_lines
from provebench.si.agents._protocol import CallTool, Task, ToolReply

LIST, GET, DESCRIBE, LOGS, LOG_QUERY = (
    "orchestration_list",
    "orchestration_get",
    "orchestration_describe",
    "orchestration_logs",
    "logging_query",
)
_ENV_SOURCE = re.compile(
    r"^\s+(?P<var>\S+):\s+<set to the key '(?P<key>[^']+)' of (?P<source>config map|secret) "
    r"'(?P<name>[^']+)'>"
)
_MOUNT = re.compile(r"\(ro, configmap (?P<name>[^)\s]+)\)")
_WORKLOAD_WORD = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)+")


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

    def failing_pod(self) -> str | None:
        """The unhealthy pod to look at: of the workload the prompt names, if any."""
        rows = table_rows(self.text(LIST, kind="pod"))
        unhealthy = [row for row in rows if _unhealthy(row)]
        named = _WORKLOAD_WORD.findall(self.task.prompt.lower())
        for word in named:
            for row in unhealthy:
                if row["NAME"].startswith(f"{word}-"):
                    return row["NAME"]
        return unhealthy[0]["NAME"] if unhealthy else None

    def conclude(self) -> Conclusion | None:
        """Investigate and conclude, or None when the evidence shows no fault this reader knows."""
        pod = self.failing_pod()
        if pod is None:
            return None
        workload = pod.rsplit("-", 2)[0]
        described = self.text(DESCRIBE, kind="pod", name=pod)
        lines = [line for line in described.splitlines() if "Warning" in line]
        if "CrashLoopBackOff" in described:
            lines += self.text(LOGS, pod=pod, previous=True).splitlines()
        elif "Waiting" not in described:
            lines += self.text(LOGS, pod=pod).splitlines()
        findings = read_lines(lines)
        if not findings:
            return None
        return self._confirm(findings[0], described, workload)

    def _confirm(self, finding: Finding, described: str, workload: str) -> Conclusion:
        sources = {m["var"]: m for m in map(_ENV_SOURCE.match, described.splitlines()) if m}
        mount = _MOUNT.search(described)
        if finding.nature == "unreachable":
            return self._stopped_backend(finding, workload)
        if finding.nature == "wrong_value":
            return self._wrong_value(finding, sources, workload)
        variable = None
        subject, resource = finding.subject, finding.resource
        if subject in sources:  # a variable: the key it is read from is the subject
            variable, source = subject, sources[subject]
            subject = source["key"]
            kind = "configmap" if source["source"] == "config map" else "secret"
            resource = f"{kind}/{source['name']}"
        if resource is None and mount is not None:
            resource = f"configmap/{mount['name']}"
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
        try:
            manifest = json.loads(self.text(GET, kind=kind, name=name) or "null")
        except json.JSONDecodeError:
            return None
        data = manifest.get("data") if isinstance(manifest, dict) else None
        return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else None

    def _wrong_value(
        self, finding: Finding, sources: Mapping[str, re.Match[str]], workload: str
    ) -> Conclusion:
        host, _, port = (finding.target or "").rpartition(":")
        wrong = port if finding.part == "port" else host
        for variable, source in sources.items():
            kind = "configmap" if source["source"] == "config map" else "secret"
            resource = f"{kind}/{source['name']}"
            value = (self._data(resource) or {}).get(source["key"])
            if value is None or value != wrong:
                continue
            detail = f"it is {value!r}"
            if finding.part == "port":
                served = self._service_port(host)
                if served is not None:
                    detail += f" but service {host} listens on {served}"
            else:
                detail += f" and no service {value} exists"
            return Conclusion("wrong_value", source["key"], resource, workload, detail, variable)
        return Conclusion("wrong_value", finding.subject, f"deployment/{workload}", workload)

    def _service_port(self, host: str) -> str | None:
        described = self.text(DESCRIBE, kind="service", name=host.split(".")[0])
        port = re.search(r"^Port:\s+(\d+)", described, re.MULTILINE)
        return port[1] if port else None

    def _stopped_backend(self, finding: Finding, workload: str) -> Conclusion:
        service = (finding.target or finding.subject).split(":")[0].split(".")[0]
        described = self.text(DESCRIBE, kind="service", name=service)
        selector = re.search(r"^Selector:\s+(\S+)", described, re.MULTILINE)
        app = selector[1].split("=")[-1] if selector else service
        for row in table_rows(self.text(LIST, kind="deployment")):
            if row["NAME"] == app and row.get("UP-TO-DATE") == "0":
                detail = f"service {service} has no endpoints; {app} runs 0 replicas"
                return Conclusion("unreachable", app, f"deployment/{app}", workload, detail)
        return Conclusion("unreachable", service, f"service/{service}", workload)


def table_rows(table: str) -> list[dict[str, str]]:
    """A kubectl-style table as rows keyed by column name (the last column keeps its spaces)."""
    lines = [line for line in table.splitlines() if line.strip()]
    if not lines:
        return []
    header = lines[0].split()
    rows = []
    for line in lines[1:]:
        cells = line.split(None, len(header) - 1)
        rows.append(dict(zip(header, cells, strict=False)))
    return rows


def _unhealthy(row: Mapping[str, str]) -> bool:
    ready, _, total = row.get("READY", "").partition("/")
    return row.get("STATUS", "Running") != "Running" or (ready != total and total != "")


__all__ = [
    "DESCRIBE",
    "GET",
    "LIST",
    "LOGS",
    "LOG_QUERY",
    "Conclusion",
    "Investigation",
    "table_rows",
]
