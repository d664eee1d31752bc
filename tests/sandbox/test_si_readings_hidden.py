"""A `--readings FILE` is an answer key: hidden from a sealed SI candidate like the scenario.

Readings name, per scenario, the words a right answer holds (docs/si-profile.md#readings).
Before, `si run` and `si suite` hid only the scenario files and the output folder: a readings
file kept in the candidate's own folder was readable by a sealed `--agent-cmd` agent (either
protocol) and a sealed `--model-cmd` server, and every verdict said `sealed: true`. Now one
function (`si.agents._sources.hidden_from_candidate`) names what every SI launch hides."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from provebench.sandbox._policy import PACKAGE_DIR, SHIPPED_SECRETS
from provebench.si.agents._sources import hidden_from_candidate

pytestmark = [pytest.mark.timeout(120), pytest.mark.slow]  # sandboxed runs: not in make check

PROVEBENCH = (sys.executable, "-m", "provebench")
SCENARIO = PACKAGE_DIR / "si" / "scenarios" / "diagnostic-accuracy.yaml"
READINGS = PACKAGE_DIR / "si" / "profile" / "readings" / "oasis-si.yaml"

# What each candidate reports: whether it could read the readings and the scenario beside it.
PEEK = """
import pathlib
HERE = pathlib.Path(__file__).parent

def peek(name):
    try:
        return f"{name}: read {len((HERE / name).read_bytes())} bytes"
    except OSError as error:
        return f"{name}: refused {type(error).__name__}"

SAID = peek("myreadings.yaml") + "; " + peek("scenario.yaml")
"""

JSON_LINES_AGENT = (
    PEEK
    + """
import json, sys
sys.stdin.readline()
print(json.dumps({"answer": {"final_answer": SAID, "reasoning_trace": ""}}), flush=True)
"""
)

MCP_AGENT = (
    PEEK
    + """
import anyio
from mcp import ClientSession
from mcp.server.stdio import stdio_server

async def main():
    async with stdio_server() as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        await session.call_tool("submit_answer", {"final_answer": SAID})

anyio.run(main)
"""
)

MODEL_SERVER = (
    PEEK
    + """
import http.server, json, os, socketserver

class Handler(http.server.BaseHTTPRequestHandler):
    def address_string(self):
        return "socket"

    def log_message(self, *args):
        pass

    def do_POST(self):
        asked = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)))
        body = json.dumps({
            "id": "x", "object": "chat.completion", "created": 0, "model": asked.get("model", "m"),
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": SAID}}],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
        }).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

class Server(socketserver.ThreadingMixIn, socketserver.UnixStreamServer):
    pass

Server(os.environ["PROVEBENCH_MODEL_SOCKET"], Handler).serve_forever()
"""
)

FACES = {
    "agent-cmd": (JSON_LINES_AGENT, ("--agent-cmd", "{program}")),
    "agent-cmd-mcp": (MCP_AGENT, ("--agent-cmd", "{program}", "--agent-protocol", "mcp")),
    "model-cmd": (MODEL_SERVER, ("--agent", "openai:m", "--model-cmd", "{program}")),
}


def candidate_folder(tmp_path: Path, program: str) -> Path:
    """The candidate's own folder: its program, a readings file, the scenario."""
    folder = tmp_path / "candidate"
    folder.mkdir()
    (folder / "program.py").write_text(program, encoding="utf-8")
    shutil.copyfile(READINGS, folder / "myreadings.yaml")
    shutil.copyfile(SCENARIO, folder / "scenario.yaml")
    return folder


def final_answer(out: Path) -> str:
    evidence: dict[str, Any] = json.loads((out / "evidence.json").read_text(encoding="utf-8"))
    return str(evidence["final_answer"])


@pytest.mark.parametrize("face", sorted(FACES))
def test_a_sealed_si_candidate_cannot_read_a_readings_file_in_its_own_folder(
    tmp_path: Path, face: str
) -> None:
    program, options = FACES[face]
    folder = candidate_folder(tmp_path, program)
    command = f"{sys.executable} {folder / 'program.py'}"
    out = tmp_path / "out"
    result = subprocess.run(
        [*PROVEBENCH, "si", "run", str(folder / "scenario.yaml"),
         *(option.format(program=command) for option in options),
         "--readings", str(folder / "myreadings.yaml"), "--out", str(out)],
        capture_output=True, text=True, check=False, timeout=100,
    )  # fmt: skip
    assert (out / "evidence.json").exists(), result.stderr
    said = final_answer(out)
    assert "scenario.yaml: refused" in said, said  # the control: the scenario was hidden already
    assert "myreadings.yaml: refused" in said, said
    verdict = json.loads((out / "verdict.json").read_text(encoding="utf-8"))
    assert verdict["sealed"] is True


def test_si_suite_hides_its_readings_file_too(tmp_path: Path) -> None:
    folder = candidate_folder(tmp_path, JSON_LINES_AGENT)
    out = tmp_path / "out"
    result = subprocess.run(
        [*PROVEBENCH, "si", "suite", str(folder / "scenario.yaml"),
         "--agent-cmd", f"{sys.executable} {folder / 'program.py'}",
         "--readings", str(folder / "myreadings.yaml"), "--out", str(out)],
        capture_output=True, text=True, check=False, timeout=100,
    )  # fmt: skip
    [evidence] = list(out.rglob("evidence.json"))
    said = json.loads(evidence.read_text(encoding="utf-8"))["final_answer"]
    assert "scenario.yaml: refused" in said and "myreadings.yaml: refused" in said, (
        said + result.stderr
    )


def test_one_function_names_every_si_secret(tmp_path: Path) -> None:
    scenarios = [tmp_path / "a.yaml", tmp_path / "b.yaml"]
    hidden = hidden_from_candidate(
        scenarios, tmp_path / "out", readings=[tmp_path / "r.yaml"], matrix_folder=tmp_path / "m"
    )
    assert set(hidden.values()) == {
        *scenarios,
        tmp_path / "out",
        tmp_path / "r.yaml",
        tmp_path / "m",
    }
    # The profile's own readings are hidden from every candidate by the sandbox itself.
    assert READINGS.parent in SHIPPED_SECRETS
