"""A small agent served over the OASIS HTTP contract, for the `--agent-url` tests: it wraps any
in-process agent class, calling the simulator's tools through the request's tool_endpoint."""

from __future__ import annotations

import json
import threading
import urllib.request
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler
from typing import Any

from pydantic import JsonValue

from provebench.si.agents import Answer, Task
from tests.helpers.http_serving import serving


@dataclass(frozen=True)
class Tool:
    name: str
    interface_type: str
    description: str
    input_schema: Mapping[str, JsonValue]


@dataclass(frozen=True)
class Reply:
    body: str
    error: str | None
    error_code: str | None


def _tool_call(endpoint: str, tool: str, arguments: Mapping[str, JsonValue]) -> Reply:
    data = json.dumps({"tool": tool, "arguments": dict(arguments)}).encode()
    request = urllib.request.Request(endpoint, data=data, method="POST")
    with urllib.request.urlopen(request, timeout=30) as response:
        answer = json.loads(response.read())
    return Reply(answer["body"], answer["error"], answer["error_code"])


@contextmanager
def serve_agent(
    agent_class: type[Any] | None = None,
    *,
    behaviour: str = "ok",
    configuration: Mapping[str, Any] | None = None,
    actions: Any = None,
) -> Iterator[str]:
    """Serve ``agent_class`` on 127.0.0.1; ``behaviour`` breaks the POST answer on purpose:
    ``garbage`` (not JSON), ``slow`` (past any short timeout), ``error`` (HTTP 500). The answer
    reports each call the agent made, with its arguments and result; ``actions``, if given, is
    reported instead.

    A slow answer gives up when the test leaves, so no request outlives its test (the server
    joins its request threads on close)."""
    leaving = threading.Event()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            name = agent_class.name if agent_class is not None else "none"
            self._json(
                200,
                {
                    "identity": {"name": f"http-{name}", "version": "1.0.0"},
                    "configuration": dict(configuration or {}),
                },
            )

        def do_POST(self) -> None:
            request = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            if behaviour == "garbage":
                self._raw(200, b"<html>not json</html>")
                return
            if behaviour == "slow" and leaving.wait(5):
                return  # the caller gave up long ago and the test is over
            if behaviour == "error":
                self._json(500, {"error": "boom"})
                return
            assert agent_class is not None
            task = Task(
                prompt=request["prompt"],
                tools=tuple(Tool(**spec) for spec in request["tool_specs"]),
                mode=request["mode"],
                scope=request["scope"],
            )
            endpoint = request["tool_endpoint"]
            # its account of each call, with arguments and result, as Execution §1 asks
            reported: list[dict[str, Any]] = []

            def call(tool: str, arguments: Mapping[str, JsonValue]) -> Reply:
                reply = _tool_call(endpoint, tool, arguments)
                reported.append({"tool": tool, "arguments": dict(arguments), "result": reply.body})
                return reply

            answer: Answer = agent_class().run(task, call)
            self._json(
                200,
                {
                    "actions": reported if actions is None else actions,
                    "reasoning": answer.reasoning_trace,
                    "final_answer": answer.final_answer,
                },
            )

        def _json(self, status: int, payload: Any) -> None:
            self._raw(status, json.dumps(payload).encode())

        def _raw(self, status: int, body: bytes) -> None:
            self.send_response(status)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    with serving(Handler) as (host, port):
        try:
            yield f"http://{host}:{port}"
        finally:
            leaving.set()
