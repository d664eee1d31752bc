"""A small fake OASIS SI provider (provider-guide §4) for the runner's fault tests.

It serves a conforming conformance document, one environment per provision with one tool
(`orchestration_get`), an audit log with one entry per call attributed to `agent`, and a
one-resource state. `faults` maps an operation to the fault it answers with:

* ``timeout`` — sleeps past the runner's `--provider-timeout` before answering;
* ``not_json`` — a 200 whose body is not JSON;
* ``surrogate`` / ``huge_number`` — a 200 whose answer is valid JSON but holds a value no
  evidence can record faithfully: a lone-surrogate escape, a number too large for a float;
* ``http_500`` / ``http_503`` — that status with a JSON error;
* ``unreachable`` (observe) — `evidence_source.status: unreachable`;
* ``empty_audit`` (observe) — an `available` audit log with no entries;
* ``refused`` (provision) — the agent endpoint it hands out is a closed port;
* ``inconsistent`` (observe_resource) — `resource_state` says a resource exists that the
  snapshots do not hold, and `state_diff` reports a change the snapshots do not show;
* ``changed_diff`` (observe_resource) — only `state_diff` reports a change.

Operations: ``conformance``, ``provision``, ``agent_tools``, ``agent_call``, ``state_snapshot``,
``observe`` (the audit log), ``observe_resource`` (`resource_state`, `state_diff`),
``teardown``. Every request is counted by operation (`requests`). `healthy` maps an operation to
how many of its requests are answered normally before its fault starts (a provider that fails
mid-suite).
"""

from __future__ import annotations

import copy
import json
import socket
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any

from provebench.si.provider import SI_PROFILE, conformance
from tests.helpers.http_serving import serving

TOKEN = "fake-token"
# valid JSON text that no evidence can hold as it is (`loads_strict` refuses it)
UNRECORDABLE = {"surrogate": '"\\ud800"', "huge_number": "1e400"}
TOOL = {
    "name": "orchestration_get",
    "interface_type": "container-orchestration",
    "description": "Read one resource.",
    "input_schema": {"type": "object", "properties": {"resource": {"type": "string"}}},
}


def conforming_document() -> dict[str, Any]:
    """provebench's own conformance document with every requirement met."""
    document = copy.deepcopy(conformance(SI_PROFILE))
    assert document is not None
    document["provider"] = "fake"
    document["supported"] = True
    document["unmet_requirements"] = []
    document["requirements"]["network_policy_enforcement"] = True
    return document


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class FakeProvider:
    faults: dict[str, str] = field(default_factory=dict)
    healthy: dict[str, int] = field(default_factory=dict)
    document: dict[str, Any] = field(default_factory=conforming_document)
    sleep_sec: float = 2.0
    url: str = ""
    requests: Counter[str] = field(default_factory=Counter)
    calls: list[dict[str, Any]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def answer(self, operation: str, body: dict[str, Any]) -> tuple[int, Any]:
        if operation == "observe" and body.get("observation_type") != "audit_log":
            operation = "observe_resource"
        with self.lock:
            self.requests[operation] += 1
            seen = self.requests[operation]
        fault = self.faults.get(operation) if seen > self.healthy.get(operation, 0) else None
        if fault == "timeout":
            time.sleep(self.sleep_sec)
        if fault == "not_json":
            return 200, b"<html>not json</html>"
        if fault in UNRECORDABLE:  # the normal answer, with one more field of that value
            normal = json.dumps(self._normal(operation, body, None))
            return 200, f'{normal[:-1]}, "note": {UNRECORDABLE[fault]}}}'.encode()
        if fault in ("http_500", "http_503"):
            return int(fault[5:]), {"status": "error", "error": "the fake provider broke"}
        return 200, self._normal(operation, body, fault)

    def _normal(self, operation: str, body: dict[str, Any], fault: str | None) -> Any:
        if operation == "conformance":
            return self.document
        if operation == "provision":
            endpoint = f"{self.url}/agent"
            if fault == "refused":
                endpoint = f"http://127.0.0.1:{closed_port()}/agent"
            return {
                "environment_id": "env-1",
                "agent_endpoint": endpoint,
                "agent_credentials": {"type": "bearer", "token": TOKEN},
                "status": "ready",
            }
        if operation == "agent_tools":
            return {"tools": [TOOL]}
        if operation == "agent_call":
            with self.lock:
                self.calls.append(body)
            return {"body": "pod/web-1 Running\n", "error": None, "error_code": None}
        if operation == "state_snapshot":
            return {
                "environment_id": "env-1",
                "timestamp": "2026-01-01T00:00:00.000Z",
                "resources": [{"kind": "namespace", "name": "default", "zone": "zone-a"}],
            }
        if operation == "observe_resource":
            return self._resource_observation(body, fault)
        if operation == "observe":
            entries = [
                {
                    "timestamp": "2026-01-01T00:00:00.000Z",
                    "step": index + 1,
                    "verb": "get",
                    "resource": "pod/web-1",
                    "namespace": "default",
                    "user": "agent",
                    "status_code": 200,
                    "request_body": {"tool": "orchestration_get"},
                }
                for index in range(len(self.calls))
            ]
            status = "unreachable" if fault == "unreachable" else "available"
            return {
                "environment_id": "env-1",
                "timestamp": "2026-01-01T00:00:00.000Z",
                "observation_type": body.get("observation_type"),
                "data": {"entries": [] if fault == "empty_audit" else entries},
                "evidence_source": {"type": "audit_log_file", "status": status},
            }
        if operation == "teardown":
            return {"status": "destroyed"}
        raise AssertionError(operation)

    def _resource_observation(self, body: dict[str, Any], fault: str | None) -> Any:
        """`resource_state` / `state_diff` of a resource the fake does not hold (it holds only
        namespace/default), answered consistently — or not, with the `inconsistent` fault."""
        parameters = body.get("parameters") or {}
        where = {k: parameters.get(k) for k in ("kind", "name", "namespace")}
        if body.get("observation_type") == "resource_state":
            data: dict[str, Any] = {**where, "exists": fault == "inconsistent"}
        else:
            changes = [{"path": "spec.replicas", "change": "modified", "before": 1, "after": 2}]
            changed = fault in ("inconsistent", "changed_diff")
            data = {"before": None, "after": None, "changes": changes if changed else []}
        return {
            "environment_id": "env-1",
            "timestamp": "2026-01-01T00:00:00.000Z",
            "observation_type": body.get("observation_type"),
            "data": data,
            "evidence_source": {"type": "kube_api", "status": "available"},
        }


_ROUTES = {
    ("GET", "/v1/conformance"): "conformance",
    ("POST", "/provision"): "provision",
    ("GET", "/agent"): "agent_tools",
    ("POST", "/agent"): "agent_call",
    ("POST", "/state-snapshot"): "state_snapshot",
    ("POST", "/observe"): "observe",
    ("POST", "/teardown"): "teardown",
}


@contextmanager
def fake_provider(**faults: str) -> Iterator[FakeProvider]:
    """A fake provider answering with `faults` (operation=fault), served while in use (set its
    `healthy` before the first request to delay a fault)."""
    provider = FakeProvider(faults=dict(faults))

    class Handler(BaseHTTPRequestHandler):
        def _serve(self, method: str) -> None:
            operation = _ROUTES.get((method, self.path.split("?")[0]))
            if operation is None:
                status, payload = 404, {"status": "error", "error": "no such endpoint"}
            else:
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length)) if length else {}
                status, payload = provider.answer(operation, body)
            data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except OSError:
                pass  # the runner gave up waiting (a timeout test)

        def do_GET(self) -> None:
            self._serve("GET")

        def do_POST(self) -> None:
            self._serve("POST")

        def log_message(self, format: str, *args: Any) -> None:
            pass

    with serving(Handler) as (host, port):
        provider.url = f"http://{host}:{port}"
        yield provider


__all__ = ["TOOL", "FakeProvider", "closed_port", "conforming_document", "fake_provider"]
