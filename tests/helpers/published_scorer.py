"""The published `score_final_state.py`, taken from the pilot 03 seed at test time.

The seed (`../shared/seeds/004_cf4f2527a8ac1b38.txt`, next to the repository) prints the script
verbatim at its end. It is extracted from there into a temporary directory for every test session
and never copied into the repository. Tests run it two ways:

* `run_published_script` — a real subprocess of this venv's Python, for exit codes and stderr;
* `PublishedScorerWorker` — one long-lived subprocess that executes the very same compiled script
  once per request (fresh globals, `sys.argv` set, stdout captured), so that hundreds of
  generated cases cost milliseconds each rather than an interpreter start each.

When the seed is not there, `published_script_or_skip` skips the test and says why.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[2]
SEED_PATH = REPO_ROOT.parent / "shared" / "seeds" / "004_cf4f2527a8ac1b38.txt"
_FIRST_LINE = "#!/usr/bin/env python3"
_LAST_LINE_PREFIX = "print(json.dumps("


def published_source(seed_path: Path = SEED_PATH) -> str | None:
    """The script's text as printed in the seed, or None when the seed is not available."""
    if not seed_path.is_file():
        return None
    lines = seed_path.read_text(encoding="utf-8").splitlines()
    start = lines.index(_FIRST_LINE)
    end = next(i for i in range(start, len(lines)) if lines[i].startswith(_LAST_LINE_PREFIX))
    return "\n".join(lines[start : end + 1]) + "\n"


def write_published_script(directory: Path, seed_path: Path = SEED_PATH) -> Path | None:
    source = published_source(seed_path)
    if source is None:
        return None
    script = directory / "score_final_state.py"
    script.write_text(source, encoding="utf-8")
    return script


def published_script_or_skip(directory: Path) -> Path:
    import pytest

    script = write_published_script(directory)
    if script is None:
        pytest.skip(f"the pilot 03 seed with the published scorer is not at {SEED_PATH}")
    return script


@dataclass(frozen=True)
class Outcome:
    """What a run printed and how it ended."""

    exit_code: int
    stdout: bytes
    stderr: str


def run_published_script(script: Path, *args: str | Path) -> Outcome:
    completed = subprocess.run(
        [sys.executable, str(script), *map(str, args)],
        capture_output=True,
        check=False,
        timeout=120,
    )
    return Outcome(
        completed.returncode, completed.stdout, completed.stderr.decode("utf-8", "replace")
    )


class PublishedScorerWorker:
    """A subprocess that runs the published script's code on request (see module docstring)."""

    def __init__(self, script: Path) -> None:
        self._process = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--worker", str(script)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
        )

    def run(self, expected: Path, candidate: Path) -> Outcome:
        assert self._process.stdin is not None and self._process.stdout is not None
        self._process.stdin.write(json.dumps([str(expected), str(candidate)]) + "\n")
        self._process.stdin.flush()
        reply: dict[str, Any] = json.loads(self._process.stdout.readline())
        return Outcome(reply["exit_code"], reply["stdout"].encode("utf-8"), reply["stderr"])

    def close(self) -> None:
        if self._process.stdin is not None:
            self._process.stdin.close()
        self._process.wait(timeout=30)


def _worker_main(script_path: str) -> int:
    """Serve requests: one JSON `[expected, candidate]` per stdin line, one JSON reply per line."""
    import builtins
    import contextlib
    import io
    import traceback

    code = compile(Path(script_path).read_text(encoding="utf-8"), script_path, "exec")
    for request in sys.stdin:
        expected, candidate = json.loads(request)
        captured = io.StringIO()
        exit_code, stderr = 0, ""
        sys.argv = [script_path, expected, candidate]
        try:
            with contextlib.redirect_stdout(captured):
                exec(code, {"__name__": "__main__", "__builtins__": builtins})
        except SystemExit as stop:
            if isinstance(stop.code, str):
                exit_code, stderr = 1, stop.code
            else:
                exit_code = int(stop.code or 0)
        except Exception:
            exit_code, stderr = 1, traceback.format_exc(limit=0)
        reply = {"exit_code": exit_code, "stdout": captured.getvalue(), "stderr": stderr}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--worker":
        sys.exit(_worker_main(sys.argv[2]))
    sys.exit("usage: published_scorer.py --worker SCRIPT")
