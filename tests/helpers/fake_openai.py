"""A local OpenAI-compatible chat-completions server for the tests: it replays scripted tool
calls, so the built-in model agents run offline, through the official `openai` SDK, against a
real HTTP endpoint.

A script is a function that makes tool calls: `script(call)`, with `call(name, arguments) ->
(text, is_error)`. Each conversation (a request with no tool answer in it yet) starts the script
in a thread; every call it makes becomes the next completion's tool call, and the tool answer
the client sends with its next request is what `call` returns. When the script returns, the
completion is a plain text answer. So a scripted agent — the reference importer, a diagnoser —
plays the model, and what reaches the laboratory is exactly what the SDK client sent.

A `Dialect` makes the server behave as one of the servers people run does (docs/llm-agents.md,
"Servers"): which model names it serves, what it does without `tool_choice`, the finish_reason
of a tool call, the shape of its errors. `max_tokens` is honoured as every server honours it:
a completion longer than the limit (counted as one token per four characters) is cut there,
with finish_reason `length` — a cut tool call has cut-off JSON arguments.

`replies` (raw HTTP answers: status and body bytes) are served first, in order, before the
script: recorded answers of a real server, or broken ones (not JSON, no choices).
"""

from __future__ import annotations

import json
import queue
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any
from urllib.parse import urlsplit

ToolCall = Callable[[str, dict[str, Any]], tuple[str, bool]]
Script = Callable[[ToolCall], str]
"""Makes tool calls through `call`; returns the model's closing text."""

USAGE = {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18}
_DONE = object()
CHARS_PER_TOKEN = 4


@dataclass(frozen=True)
class Dialect:
    """How one OpenAI-compatible server answers (from its documentation and source)."""

    name: str
    # The model names it serves; None: it serves one model under any name.
    models: frozenset[str] | None
    # True: without tool_choice the tools never reach the prompt (llama-cpp-python reads a
    # missing tool_choice as "none"), so the model answers in text.
    needs_tool_choice: bool = False
    tool_call_finish: str = "tool_calls"
    # How an error body looks: "openai" {"error": {"message", ...}}, "vllm" {"object": "error",
    # "message", ...}, "ollama" {"error": {"message", "type": "api_error"}}, "llama.cpp"
    # {"error": {"code", "message", "type"}}.
    error_shape: str = "openai"

    def error(self, status: int, message: str) -> dict[str, Any]:
        if self.error_shape == "vllm":
            return {"object": "error", "message": message, "type": "NotFoundError",
                    "param": None, "code": status}  # fmt: skip
        kind = {"ollama": "api_error", "llama.cpp": "not_found_error"}.get(
            self.error_shape, "invalid_request_error"
        )
        return {"error": {"message": message, "type": kind, "param": None, "code": status}}


@dataclass(frozen=True)
class Reply:
    """One raw HTTP answer of the server."""

    status: int
    body: bytes


@dataclass
class _Conversation:
    outbox: queue.Queue[Any] = field(default_factory=queue.Queue)
    inbox: queue.Queue[str] = field(default_factory=queue.Queue)
    calls: int = 0


@dataclass
class FakeModel:
    """The scripted model behind the server, and what it saw."""

    script: Script
    end_tools: frozenset[str] = frozenset()
    fail_first_with: int | None = None  # an HTTP status for the first request (429: retried)
    always_fail_with: int | None = None
    dialect: Dialect | None = None
    replies: list[Reply] = field(default_factory=list)
    delay_sec: float = 0.0  # before each answer: a slow server
    delay_after: int = 0  # … after this many requests answered at once
    requests: list[dict[str, Any]] = field(default_factory=list)
    conversations: int = 0
    _current: _Conversation | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def complete(self, request: dict[str, Any]) -> tuple[int, dict[str, Any] | bytes]:
        with self._lock:
            self.requests.append(request)
            if self.delay_sec and len(self.requests) > self.delay_after:
                time.sleep(self.delay_sec)
            if self.replies:
                reply = self.replies.pop(0)
                return reply.status, reply.body
            dialect = self.dialect
            served = None if dialect is None else dialect.models
            if served is not None and request.get("model") not in served:
                assert dialect is not None
                message = f"The model `{request.get('model')}` does not exist."
                return 404, dialect.error(404, message)
            if dialect is not None and dialect.needs_tool_choice and not request.get("tool_choice"):
                return 200, self._plain(request, "I have no tools.", "stop")
            if self.always_fail_with is not None:
                return self.always_fail_with, {"error": {"message": "scripted failure"}}
            if self.fail_first_with is not None and len(self.requests) == 1:
                return self.fail_first_with, {"error": {"message": "slow down"}}
            messages = request["messages"]
            if messages[-1]["role"] != "tool" or self._current is None:
                self._start()
            elif messages[-1]["role"] == "tool":
                assert self._current is not None
                self._current.inbox.put(messages[-1]["content"])
            assert self._current is not None
            step = self._current.outbox.get(timeout=60)
            return 200, self._completion(request, step)

    def _start(self) -> None:
        conversation = _Conversation()
        self._current = conversation
        self.conversations += 1

        def call(name: str, arguments: dict[str, Any]) -> tuple[str, bool]:
            conversation.outbox.put((name, arguments))
            if name in self.end_tools:
                return "", False  # the client ends its loop here: no answer comes back
            text = conversation.inbox.get(timeout=60)
            return text, text.startswith("Error: ")

        def run() -> None:
            try:
                closing = self.script(call)
            except BaseException as error:  # the test sees it as the model's text
                closing = f"script failed: {type(error).__name__}: {error}"
            conversation.outbox.put((_DONE, closing))

        threading.Thread(target=run, daemon=True).start()

    def _completion(self, request: dict[str, Any], step: Any) -> dict[str, Any]:
        assert self._current is not None
        name, payload = step
        limit = request.get("max_tokens")
        room = None if not isinstance(limit, int) else limit * CHARS_PER_TOKEN
        if name is _DONE:
            text = payload if room is None else payload[:room]
            return self._plain(request, text, "length" if text != payload else "stop")
        self._current.calls += 1
        arguments = payload if isinstance(payload, str) else json.dumps(payload)
        finish = "tool_calls" if self.dialect is None else self.dialect.tool_call_finish
        if room is not None and len(arguments) > room:
            arguments, finish = arguments[:room], "length"
        message = {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": f"call_{self.conversations}_{self._current.calls}",
                    "type": "function",
                    "function": {"name": name, "arguments": arguments},
                }
            ],
        }
        return self._response(request, message, finish)

    def _plain(self, request: dict[str, Any], text: str, finish: str) -> dict[str, Any]:
        return self._response(request, {"role": "assistant", "content": text}, finish)

    def _response(
        self, request: dict[str, Any], message: dict[str, Any], finish: str
    ) -> dict[str, Any]:
        return {
            "id": f"chatcmpl-{len(self.requests)}",
            "object": "chat.completion",
            "created": 0,
            "model": request.get("model", ""),
            "choices": [{"index": 0, "message": message, "finish_reason": finish}],
            "usage": USAGE,
        }


@contextmanager
def fake_openai_server(model: FakeModel) -> Iterator[str]:
    """Serve `model` on 127.0.0.1; yields the base URL (`http://127.0.0.1:PORT/v1`)."""
    # Imported here: a sealed model server program imports `FakeModel` as a sibling module,
    # where the `tests` package is not there (tests/helpers/pilot_model_server_program.py).
    from tests.helpers.http_serving import serving

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            request = json.loads(self.rfile.read(length))
            # A request sent through this server as a plain HTTP proxy names the whole URL.
            if urlsplit(self.path).path != "/v1/chat/completions":
                status, body = 404, {"error": {"message": "not found"}}
            else:
                status, body = model.complete(request)
            data = body if isinstance(body, bytes) else json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            if status == 429:
                self.send_header("retry-after-ms", "1")
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    with serving(Handler) as (host, port):
        yield f"http://{host}:{port}/v1"


__all__ = ["CHARS_PER_TOKEN", "USAGE", "Dialect", "FakeModel", "Reply", "fake_openai_server"]
