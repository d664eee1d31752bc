"""A sealed importer's worker starts once per cycle (docs/sandbox.md), so what it imports is paid
every cycle: it must build what it is sent (files, pages, the laboratory's errors) without the
laboratory's gateway, rules, record or signing machinery, which would cost a quarter of a second
a cycle and hand the candidate's process far more of the laboratory's code than it needs."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

# Imported by the worker's replies, in a fresh interpreter; then the modules it must not load.
PROBE = """
import json, sys
from provebench.pilot.agents import _worker

class Link:
    def __init__(self, replies):
        self.replies = list(replies)
    def send(self, message):
        pass
    def receive(self):
        return self.replies.pop(0)

file = ["f1", "a.mp3", "2026-01-01T00:00:00Z", "audio/mpeg", 1, 2.0, "inbox", ["in", None, "M1"]]
link = Link([
    {"ok": {"files": [file], "file_ids": ["f1"], "next_page_token": None}},
    {"ok": file},
    {"error": {"class": "FileNotFound", "message": "gone", "call": 3}},
])
drive = _worker._Drive(link)
page = drive.list_files()
assert page.file_ids == ("f1",) and page.files[0].metadata.manager_code == "M1", page
assert drive.get_file("f1").name == "a.mp3"
try:
    drive.get_file("f2")
except Exception as error:
    assert type(error).__name__ == "FileNotFound" and error.call == 3, error
else:
    raise AssertionError("no error")
print(json.dumps(sorted(sys.modules)))
"""
HEAVY = (
    "provebench.pilot.lab._gateway",
    "provebench.pilot.rules",
    "provebench.pilot.record",
    "provebench.attest",
    "pydantic",
    "cryptography",
)


def test_the_worker_builds_pages_files_and_errors_without_the_laboratorys_machinery() -> None:
    done = subprocess.run(
        [sys.executable, "-I", "-c", PROBE], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    loaded = json.loads(done.stdout)
    assert "provebench.pilot.lab._files" in loaded  # the probe did build files and pages
    heavy = [m for m in loaded if any(m == h or m.startswith(h + ".") for h in HEAVY)]
    assert heavy == []


# A cycle's load of the class (mode `run`): the refused classes of provebench's, whose modules are
# the laboratory's machinery, are held only when the class is identified (pilot red team 33, A3).
LOAD = """
import json, pathlib, sys
from provebench.pilot.agents import _worker

folder = pathlib.Path(sys.argv[1])
(folder / "mine.py").write_text(
    "class Mine:\\n    name = 'mine'\\n    version = '1'\\n"
    "    def run_cycle(self, ctx):\\n        pass\\n"
)
_worker._load(f"{folder / 'mine.py'}:Mine", identify=False)
print(json.dumps(sorted(sys.modules)))
"""


def test_a_cycles_load_of_the_class_stays_without_the_laboratorys_machinery(
    tmp_path: Path,
) -> None:
    done = subprocess.run(
        [sys.executable, "-I", "-c", LOAD, str(tmp_path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    loaded = json.loads(done.stdout)
    assert "provebench.pilot.agents._no_candidate" in loaded  # the rule was applied
    heavy = [m for m in loaded if any(m == h or m.startswith(h + ".") for h in HEAVY)]
    assert heavy == []
