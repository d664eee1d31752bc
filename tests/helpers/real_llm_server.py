"""A real OpenAI-compatible server for `make test-llm`: llama-cpp-python serving the Gemma 3 270M
GGUF on loopback, and a recording proxy in front of it whose recordings become the replay
fixtures of tests/llm/fixtures (what a real server sends, replayed by the ordinary tests).

`PROVEBENCH_LLM_PYTHON` names the Python that has `llama-cpp-python[server]` and the model
package installed (the Makefile's `.venv-llm`); `PROVEBENCH_LLM_MODEL` the assembled GGUF file.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

from tests.helpers.http_serving import serving

PYTHON_ENV = "PROVEBENCH_LLM_PYTHON"
MODEL_ENV = "PROVEBENCH_LLM_MODEL"
MODEL_NAME = "gemma-3-270m"
STARTUP_SEC = 120.0


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def llama_cpp_server(log: Path, context_tokens: int = 8192) -> Iterator[str]:
    """Start llama-cpp-python's server on loopback; yields its base URL (`…/v1`)."""
    python, model = os.environ[PYTHON_ENV], os.environ[MODEL_ENV]
    port = _free_port()
    command = [
        python, "-m", "llama_cpp.server", "--model", model, "--model_alias", MODEL_NAME,
        # Its tool calling: without it (or without tool_choice) the tools never reach the prompt.
        "--chat_format", "chatml-function-calling",
        "--host", "127.0.0.1", "--port", str(port), "--n_ctx", str(context_tokens),
        "--n_threads", "2",
    ]  # fmt: skip
    with log.open("wb") as output:
        server = subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT)
        try:
            base = f"http://127.0.0.1:{port}/v1"
            _wait_until_up(base, server)
            yield base
        finally:
            server.terminate()
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()


def _wait_until_up(base: str, server: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + STARTUP_SEC
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"the model server exited with {server.returncode}")
        try:
            with urllib.request.urlopen(f"{base}/models", timeout=5) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            time.sleep(0.5)
    raise RuntimeError("the model server did not come up")


@dataclass
class Recording:
    """Every request the proxy passed on, and the server's answer: status and body bytes."""

    exchanges: list[dict[str, Any]] = field(default_factory=list)

    def fixture(self, name: str, **facts: Any) -> dict[str, Any]:
        return {"name": name, "server": "llama-cpp-python", "model": MODEL_NAME, **facts,
                "exchanges": self.exchanges}  # fmt: skip


@contextmanager
def recording_proxy(upstream: str) -> Iterator[tuple[str, Recording]]:
    """A loopback proxy to `upstream` that records each chat completion; yields its base URL."""
    recording = Recording()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length)
            request = urllib.request.Request(
                upstream + self.path.removeprefix("/v1"),
                data=body,
                headers={"Content-Type": "application/json"},
                method="POST",
            )
            try:
                with urllib.request.urlopen(request, timeout=600) as response:
                    status, answer = response.status, response.read()
            except urllib.error.HTTPError as error:
                status, answer = error.code, error.read()
            recording.exchanges.append(
                {"request": json.loads(body), "status": status, "body": answer.decode("utf-8")}
            )
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    with serving(Handler) as (host, port):
        yield f"http://{host}:{port}/v1", recording


__all__ = ["MODEL_ENV", "MODEL_NAME", "PYTHON_ENV", "Recording", "llama_cpp_server",
           "recording_proxy"]  # fmt: skip
