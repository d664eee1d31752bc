"""`--agent-url URL`: an agent served over the OASIS HTTP agent contract (Execution §1).

The contract, as the reference OASIS runner speaks it:

- ``GET URL/identity-and-configuration`` once per evaluation: ``{"identity": {"name",
  "version", "description"?}, "configuration": {...}}``; the configuration decides which
  scenarios apply (Scenarios §1.9);
- ``POST URL/`` once per scenario with ``{"prompt", "tools", "mode", "scope"}``, answered by
  ``{"actions", "reasoning", "final_answer"}``.

In an OASIS provider the agent runs its tools against the provider's environment. Here the
simulator is the environment, so provebench adds to the request ``tool_endpoint`` — a URL on
this machine, served for the scenario's duration — and ``tool_specs`` (each tool's input
schema). The agent calls ``POST tool_endpoint`` with ``{"tool", "arguments"}`` and gets
``{"body", "error", "error_code"}``: each call is a step, executed and recorded by the
simulator like any other agent's. The ``actions`` the agent reports are its own account and are
never evidence of what was done (Core §3.4); they are its output all the same, recorded as sent
in ``agent_messages`` where every containment check searches them (`reported_actions`).

A URL that does not answer, answers garbage or times out is a provider failure of that
scenario (`TransportFault`), never the agent's result; the suite goes on.
"""

from __future__ import annotations

import json
import secrets
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any, ClassVar, Final, cast

from pydantic import JsonValue

from provebench._errors import ProvebenchError
from provebench._jsonfile import loads_keeping_surrogates
from provebench._local_http import LocalHTTPServer
from provebench._mcp_face import ClientMessages
from provebench.evidence._cuts import ChannelCut, messages_cut
from provebench.si.agents._protocol import Answer, CallTool, DiagnosisAgent, Task, TransportFault

IDENTITY_PATH: Final = "/identity-and-configuration"
MAX_BODY: Final = 16 * 1024 * 1024
_ANSWER_KEYS: Final = ("actions", "reasoning", "final_answer")
HTTP_ISOLATION: Final = {
    "kind": "remote",
    "note": "served over HTTP by its operator; provebench does not isolate it",
}


class _ToolEndpointServer(LocalHTTPServer):
    server_label = "provebench si tool endpoint"


def _request(url: str, payload: Mapping[str, Any] | None, timeout: float) -> Any:
    data = None if payload is None else json.dumps(payload).encode()
    request = urllib.request.Request(
        url,
        data=data,
        method="GET" if payload is None else "POST",
        headers={"Content-Type": "application/json", "Accept": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            body = response.read(MAX_BODY + 1)
    except urllib.error.HTTPError as error:
        raise TransportFault(f"{url} answered HTTP {error.code}") from None
    except (urllib.error.URLError, TimeoutError, OSError) as error:
        reason = getattr(error, "reason", error)
        raise TransportFault(f"{url} did not answer: {reason}") from None
    if len(body) > MAX_BODY:
        raise TransportFault(f"{url} answered more than {MAX_BODY} bytes")
    try:
        # strict: a key given twice would be read as its last value, and what the agent sent
        # as the first never recorded (SI red team 20: the bytes sent, not a parse of them)
        return loads_keeping_surrogates(body)
    except ValueError:
        raise TransportFault(f"{url} answered something that is not strict JSON") from None


def _text(value: Any, name: str) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise TransportFault(f"the agent's `{name}` is not a string")
    return value


def reported_actions(actions: Any, served: Sequence[Mapping[str, Any]]) -> Iterator[dict[str, Any]]:
    """The `actions` an answer reported, as `agent_messages` records them: one message an
    action (`{"reported_action": ACTION}`), or the value whole where it is no list.

    They are bytes the agent sent, so a value written there is its output: a secret in them is
    a disclosure (Core §3.5.5), searched by every containment check, never evidence of what was
    done (Core §3.4: the steps record the calls made). Execution §1 has an agent report each
    call "with arguments and results": an action's value that is verbatim a reply the tool
    endpoint served this agent — its body or error, or the whole reply — is the environment's
    text, no disclosure (SI §2.1, as `actions[].result`), and is recorded as which reply it was,
    `{"reply_of_call": N}` (the endpoint's N-th answered call), so an honest account of a read
    that showed a secret neither fails a check nor repeats every reply into the record."""
    if actions is None or actions == []:
        return
    if not isinstance(actions, list):
        yield {"reported_actions": actions}
        return
    texts: dict[str, int] = {}  # each body or error served, by the first call that served it
    replies: dict[tuple[Any, ...], int] = {}  # each whole reply, likewise
    for n, reply in enumerate(served, 1):
        for text in (reply["body"], reply["error"]):
            if isinstance(text, str):
                texts.setdefault(text, n)
        replies.setdefault(tuple(sorted(reply.items())), n)

    def call_of(value: Any) -> int | None:
        if isinstance(value, str):
            return texts.get(value)
        if isinstance(value, dict) and all(isinstance(v, str | None) for v in value.values()):
            return replies.get(tuple(sorted(value.items())))
        return None

    for action in actions:
        if isinstance(action, dict):
            named = {}
            for key, value in action.items():
                call = call_of(value)
                named[key] = value if call is None else {"reply_of_call": call}
            action = named
        yield {"reported_action": action}


def _tool_call(body: bytes) -> tuple[str, dict[str, JsonValue]] | None:
    """The tool and arguments of a request that is exactly `{"tool": NAME, "arguments": {…}}`
    (`arguments` optional) in strict JSON (no key twice, no NaN, bounded depth); else None."""
    try:
        request = loads_keeping_surrogates(body)
    except ValueError:
        return None
    if not isinstance(request, dict) or set(request) - {"tool", "arguments"}:
        return None  # a key the call does not carry would be recorded nowhere
    tool, arguments = request.get("tool"), request.get("arguments", {})
    if not isinstance(tool, str) or not isinstance(arguments, dict):
        return None
    return tool, arguments


class _ToolServer:
    """The simulator's tools on 127.0.0.1 for one scenario; calls run on the runner's `call`."""

    def __init__(self, call: CallTool, sent: ClientMessages) -> None:
        self._call = call
        self.stopped: BaseException | None = None  # the runner's stop (the tool-call cap)
        self._lock = threading.Lock()
        self.sent = sent  # every request refused, as sent (`refused`)
        self.served: list[dict[str, Any]] = []  # each call's reply, in the order answered
        # The endpoint's path is a secret handed to the agent alone: another process on this
        # machine cannot make calls that would be recorded as the agent's.
        self._path = f"/call/{secrets.token_urlsafe(24)}"
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                if self.path != owner._path:
                    self._reply(404, {"error": "not found"})
                    return
                given = self.headers.get("Content-Length") or "0"
                if not given.isascii() or not given.isdigit():
                    # the agent's text, recorded as sent, never parsed into an error message
                    # that reaches the operator (SI red team 23, H4: the password as a
                    # Content-Length was printed on the operator's terminal by the int() error)
                    owner.refused(f"Content-Length: {given}".encode("utf-8", "replace"), 0)
                    self._reply(400, {"error": "Content-Length must be a whole number"})
                    return
                length = int(given)
                body = self.rfile.read(min(length, MAX_BODY))
                call = _tool_call(body) if length <= MAX_BODY else None
                if call is None:
                    # A refused request is the agent's output all the same, and no action
                    # records it: kept as sent (SI red team 20; a body over MAX_BODY, read to
                    # MAX_BODY, passes the record's bound and is recorded as its cut).
                    owner.refused(body, length)
                    self._reply(400, {"error": 'a tool call is {"tool": NAME, "arguments": {}}'})
                    return
                self._reply(*owner.forward(*call))

            def _reply(self, status: int, payload: Mapping[str, Any]) -> None:
                body = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: Any) -> None:
                pass  # the evidence is the record, not the server's log

        self._server = _ToolEndpointServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}{self._path}"

    def refused(self, body: bytes, length: int) -> None:
        with self._lock:
            if not self.sent.record_line(body) and length > len(body):
                self.sent.dropped_bytes = max(self.sent.dropped_bytes, length)

    def forward(self, tool: str, arguments: dict[str, JsonValue]) -> tuple[int, dict[str, Any]]:
        # One call at a time, in arrival order: the simulator's steps are a sequence.
        with self._lock:
            if self.stopped is not None:
                return 429, {"error": "the run is over (tool-call cap reached)"}
            try:
                reply = self._call(tool, arguments)
            except ValueError as error:  # a tool name that cannot be recorded
                return 400, {"error": str(error)}
            except BaseException as stop:  # the runner's stop: handed to the runner's thread
                self.stopped = stop
                return 429, {"error": "the run is over (tool-call cap reached)"}
            said = {"body": reply.body, "error": reply.error, "error_code": reply.error_code}
            self.served.append(said)
            return 200, said

    def __enter__(self) -> _ToolServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()


@dataclass
class HttpDiagnosisAgent:
    """One scenario's run of the remote agent (a fresh instance per scenario)."""

    url: str
    timeout_sec: float
    identity_fault: str | None = None
    name: str = "http-agent"
    version: str = "0.0.0"
    version_note: ClassVar[str] = "as the agent reports it"
    sent: ClientMessages = field(default_factory=ClientMessages)

    def sent_messages(self) -> list[str]:
        """The run's refused tool requests, as sent, its answer's reported actions and its keys
        the contract does not name (`agent_messages`)."""
        return list(self.sent.texts)

    def channel_cuts(self) -> list[ChannelCut]:
        """The cut of those past their bound (`agent_cuts`), if any."""
        cut = messages_cut(self.sent.limit, self.sent.dropped_bytes)
        return [cut] if cut is not None else []

    def run(self, task: Task, call: CallTool) -> Answer:
        if self.identity_fault is not None:
            raise TransportFault(self.identity_fault)
        with _ToolServer(call, self.sent) as tools:
            request = {
                "prompt": task.prompt,
                "tools": [tool.name for tool in task.tools],
                "mode": task.mode,
                "scope": dict(task.scope),
                "tool_endpoint": tools.url,
                "tool_specs": [
                    {
                        "name": tool.name,
                        "interface_type": tool.interface_type,
                        "description": tool.description,
                        "input_schema": dict(tool.input_schema),
                    }
                    for tool in task.tools
                ],
            }
            try:
                response = _request(self.url.rstrip("/") + "/", request, self.timeout_sec)
            finally:
                stopped = tools.stopped
                served = list(tools.served)
            if stopped is not None:
                raise stopped
        if not isinstance(response, dict):
            raise TransportFault("the agent's answer is not a JSON object")
        # the actions it reports, and keys the contract does not name, are the agent's output
        # that no field holds: kept as sent, bounded (past the bound the cut is recorded and
        # every containment check fails on it), never read as what was done (Core §3.4)
        for action in reported_actions(response.get("actions"), served):
            if not self.sent.record(action):
                break  # the bound is passed: the cut is recorded, the rest is not read
        unknown = {k: v for k, v in response.items() if k not in _ANSWER_KEYS}
        if unknown:
            self.sent.record({"answer": unknown})
        return Answer(
            final_answer=_text(response.get("final_answer"), "final_answer"),
            reasoning_trace=_text(response.get("reasoning"), "reasoning"),
        )


@dataclass(frozen=True)
class LoadedHttpAgent:
    """The remote agent as the suite and `si run` see it."""

    spec: str
    name: str
    version: str
    configuration: Mapping[str, Any]
    timeout_sec: float
    identity_fault: str | None = None
    isolation: Mapping[str, str] = field(default_factory=lambda: dict(HTTP_ISOLATION))

    def factory(self) -> DiagnosisAgent:
        # Its name and version are the agent's report: instance attributes where the protocol
        # declares class ones, as for a sealed agent.
        return cast(
            "DiagnosisAgent",
            HttpDiagnosisAgent(
                self.spec, self.timeout_sec, self.identity_fault, self.name, self.version
            ),
        )


def http_agent(url: str, *, timeout_sec: float) -> LoadedHttpAgent:
    """Ask the agent for its identity and configuration (once per evaluation).

    A URL that is not http(s) is bad input (exit 2). An agent that does not answer here is
    still run — each scenario is then a provider failure — so that the summary records it."""
    if not url.startswith(("http://", "https://")):
        raise ProvebenchError(f"{url!r} is not an http(s) URL", field="--agent-url")
    try:
        reply = _request(url.rstrip("/") + IDENTITY_PATH, None, timeout_sec)
        identity = reply.get("identity") if isinstance(reply, dict) else None
        configuration = reply.get("configuration", {}) if isinstance(reply, dict) else None
        if not isinstance(identity, dict) or not isinstance(configuration, dict):
            raise TransportFault(
                "the identity-and-configuration answer lacks identity or configuration"
            )
        name, version = identity.get("name"), identity.get("version")
        if not isinstance(name, str) or not name or not isinstance(version, str) or not version:
            raise TransportFault("the agent's identity needs a name and a version")
    except TransportFault as fault:
        return LoadedHttpAgent(url, "unreachable", "0.0.0", {}, timeout_sec, str(fault))
    return LoadedHttpAgent(url, name, version, configuration, timeout_sec)


__all__ = [
    "HTTP_ISOLATION",
    "HttpDiagnosisAgent",
    "LoadedHttpAgent",
    "http_agent",
    "reported_actions",
]
