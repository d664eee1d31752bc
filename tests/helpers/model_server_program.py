"""A tiny OpenAI-compatible model server, as a candidate would ship one, for `--model-cmd`
(docs/llm-agents.md): standard library only, listening on the Unix socket that
`PROVEBENCH_MODEL_SOCKET` names.

Its "model" tries to read the file named on its command line (the scenario, in the attack),
then lists the pods and submits an answer saying what it read. Run sealed, it cannot read the
scenario; run as the operator on a loopback port, it could.

Usage: python3 model_server_program.py FILE_TO_READ
"""

from __future__ import annotations

import json
import os
import socketserver
import sys
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any


def _read_it() -> str:
    try:
        return "read it: " + Path(sys.argv[1]).read_text(encoding="utf-8")[:200]
    except OSError as error:
        return f"could not read it: {type(error).__name__}"


def _step(messages: list[dict[str, Any]]) -> tuple[str, dict[str, Any]]:
    """The next tool call: list the pods, then submit what was read and the listing."""
    replies = [m for m in messages if m.get("role") == "tool"]
    if not replies:
        return "orchestration_list", {"kind": "pod"}
    return "submit_answer", {"final_answer": f"{_read_it()}\nPods:\n{replies[-1]['content']}"}


class Handler(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        request = json.loads(self.rfile.read(length))
        name, arguments = _step(request["messages"])
        call = {"id": "call_1", "type": "function",
                "function": {"name": name, "arguments": json.dumps(arguments)}}  # fmt: skip
        body = {
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "created": 0,
            "model": request.get("model", ""),
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": None, "tool_calls": [call]},
                    "finish_reason": "tool_calls",
                }
            ],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
        }
        data = json.dumps(body).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        pass  # a Unix socket's peer has no address to log


def main() -> None:
    with socketserver.UnixStreamServer(os.environ["PROVEBENCH_MODEL_SOCKET"], Handler) as server:
        server.serve_forever()


if __name__ == "__main__":
    main()
