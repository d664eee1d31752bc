"""A model server for `pilot run --model-cmd` (docs/llm-agents.md), as a candidate would ship
one: an OpenAI-compatible chat-completions route on the Unix socket that
`PROVEBENCH_MODEL_SOCKET` names, whose "model" is the reference importer — each of its calls
through the laboratory's tools (`pilot_tools.ToolContext`) is the next completion's tool call
(`fake_openai.FakeModel`), one conversation per cycle.

Given `read=PATH` arguments, the model first tries to read each path (the corpus's answer key,
in the attack) and reports what it got on the diagnostics channel, as one note in the contract's
published shape (rule 2: numbers and its listed words): `note C1 C2 …`, a code per path in the
order given (`TRIED_CODES`: 0 read, 1 no such file, 2 refused, 3 any other error).

Usage: PYTHON pilot_model_server_program.py [read=PATH …]
(PYTHON: an interpreter that imports provebench; the folder of this file is the server's own
code, its sibling modules imported from there.)
"""

from __future__ import annotations

import json
import os
import socketserver
import sys
import tempfile
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the server's own modules

from fake_openai import FakeModel, ToolCall
from pilot_tools import ToolContext

from provebench.pilot.agents import ReferenceImporter

READ_PREFIX = "read="


TRIED_CODES = {"FileNotFoundError": 1, "PermissionError": 2}
OTHER_ERROR = 3


def _tried(paths: list[str]) -> list[int]:
    said = []
    for path in paths:
        try:
            target = Path(path)
            if target.is_dir():
                sorted(target.iterdir())
            else:
                target.read_bytes()
        except OSError as error:
            said.append(TRIED_CODES.get(type(error).__name__, OTHER_ERROR))
        else:
            said.append(0)
    return said


def main() -> None:
    paths = [a.removeprefix(READ_PREFIX) for a in sys.argv[1:] if a.startswith(READ_PREFIX)]
    work = Path(tempfile.mkdtemp(prefix="model-memory-"))  # the importer's journal

    def cycle(call: ToolCall) -> str:
        if paths:
            note = " ".join(["note", *map(str, _tried(paths))])
            call("report", {"messages": [{"channel": "note", "message": note}]})
        ReferenceImporter().run_cycle(ToolContext(call, work))  # type: ignore[arg-type]
        call("finish_cycle", {})
        return ""

    model = FakeModel(cycle, frozenset({"finish_cycle"}))

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            status, body = model.complete(json.loads(self.rfile.read(length)))
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:
            pass  # a Unix socket's peer has no address to log

    with socketserver.UnixStreamServer(os.environ["PROVEBENCH_MODEL_SOCKET"], Handler) as server:
        server.serve_forever()


if __name__ == "__main__":
    main()
