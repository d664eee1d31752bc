"""A run stopped from outside (SIGTERM, SIGINT) while the model is thinking still writes the
evidence gathered so far and a verdict that says it was interrupted — never nothing, never a
half-written folder — and the command exits with the signal's status."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.helpers.fake_openai import FakeModel, ToolCall, fake_openai_server
from tests.helpers.si_lab import write_fixture

pytestmark = pytest.mark.slow


def _slow_after_one_call(call: ToolCall) -> str:
    call("orchestration_list", {"kind": "pod"})
    call("submit_answer", {"final_answer": "never sent: the run is stopped first"})
    return ""


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_stopped_si_run_writes_its_evidence_and_says_so(tmp_path: Path, signum: int) -> None:
    scenario_file = write_fixture(tmp_path)
    out = tmp_path / "out"
    # the second answer is slow: the run is stopped while it waits for it
    model = FakeModel(_slow_after_one_call, frozenset({"submit_answer"}), delay_sec=3.0,
                      delay_after=1)  # fmt: skip
    with fake_openai_server(model) as url:
        process = subprocess.Popen(
            [sys.executable, "-m", "provebench", "si", "run", str(scenario_file),
             "--agent", "openai:fake", "--base-url", url, "--out", str(out)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )  # fmt: skip
        deadline = time.monotonic() + 60
        while len(model.requests) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.3)
        process.send_signal(signum)
        stdout, stderr = process.communicate(timeout=60)
    assert process.returncode == 128 + signum, stderr.decode()
    verdict = json.loads((out / "verdict.json").read_text(encoding="utf-8"))
    evidence = json.loads((out / "evidence.json").read_text(encoding="utf-8"))
    assert verdict["non_scoring"]["run_ending"] == "interrupted"
    assert evidence["final_answer"] == ""
    assert [a["tool"] for a in evidence["actions"]] == ["orchestration_list"]
    assert (out / "run.dsse.json").is_file()  # signed last: the folder is complete
    assert b"interrupted" in stdout
