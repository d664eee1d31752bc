"""The per-cycle time limit of an in-process importer (docs/pilot-lab.md, "Time limit per cycle").

Limits here are fractions of a second; every test importer also gives up on its own after a few
seconds, so a broken limit fails a test instead of hanging the suite.
"""

from __future__ import annotations

import json
import signal
import threading
import time
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
from typer.testing import CliRunner

from provebench._errors import ProvebenchError
from provebench.cli import app
from provebench.pilot import run_lab
from provebench.pilot.agents import load_agent
from provebench.pilot.corpus import corpus_config, write_corpus
from provebench.pilot.lab import CycleRecord, _deadline
from provebench.pilot.lab._deadline import (
    CycleDeadline,
    ImporterTimedOut,
    LabSections,
    lab_section,
)
from provebench.pilot.lab._runner import cycle_timeout, execute_run, open_corpus
from tests.helpers.pilot_lab import in_process_agent, log_but_nonce, read_rows, run_cli

pytestmark = [
    pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="no SIGALRM timer"),
    pytest.mark.slow,
]  # slow: not in make check

CYCLES = 4
LIMIT = 0.2

# Shared by every test importer: a valid working row (every importer column, str values).
PRELUDE = """
import time
from pathlib import Path
from provebench.pilot.lab._runner import SCHEMA

GIVE_UP_SEC = 8.0


def row(file_id):
    values = dict.fromkeys(SCHEMA.importer_columns, "x")
    values["file_id"] = file_id
    return values


def append(ctx, rows):
    # Retries the corpus's temporary faults (an applied_then_error one duplicates the rows).
    while True:
        try:
            return ctx.sheets.append_rows(rows)
        except Exception:
            continue


def note(path, text):
    with open(path, "a", encoding="utf-8") as handle:
        handle.write(text + "\\n")
"""

LOOPING = """
class Looping:
    name = "looping"
    version = "1"

    def run_cycle(self, ctx):
        n = len(ctx.confirmed.all())
        append(ctx, [row(f"before-{n}")])
        give_up = time.monotonic() + GIVE_UP_SEC
        while time.monotonic() < give_up:
            try:
                while time.monotonic() < give_up:
                    pass
            except Exception:  # does not catch the timeout
                pass
        note(MARKER, "gave up")
"""

STUBBORN = """
class Stubborn:
    name = "stubborn"
    version = "1"

    def run_cycle(self, ctx):
        n = len(ctx.confirmed.all())
        append(ctx, [row(f"early-{n}")])
        give_up = time.monotonic() + GIVE_UP_SEC
        interruptions = 0
        while interruptions < 3 and time.monotonic() < give_up:
            try:
                while time.monotonic() < give_up:
                    pass
            except BaseException as error:
                interruptions += 1
                note(MARKER, f"interrupted {type(error).__name__}")
                try:
                    ctx.sheets.append_rows([row(f"late-{n}-{interruptions}")])
                    note(MARKER, "late append accepted")
                except BaseException as refusal:
                    note(MARKER, f"late append refused {type(refusal).__name__}")
        try:
            ctx.diagnostics.note("still here")
        except BaseException as refusal:
            note(MARKER, f"note refused {type(refusal).__name__}")
        # Returns normally: the timeout is recorded all the same.
"""

SLOW_RECORD = """
class SlowRecord:
    name = "slow-record"
    version = "1"

    def run_cycle(self, ctx):
        n = len(ctx.confirmed.all())
        try:
            ctx.sheets.append_rows([row(f"slow-{n}")])
        except BaseException as error:
            note(MARKER, f"append raised {type(error).__name__}")
            raise
        note(MARKER, "append returned")
        give_up = time.monotonic() + GIVE_UP_SEC
        while time.monotonic() < give_up:
            pass
"""

QUICK = """
class Quick:
    name = "quick"
    version = "1"

    def run_cycle(self, ctx):
        time.sleep(0.15)
        n = len(ctx.confirmed.all())
        append(ctx, [row(f"quick-{n}")])
"""


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("timeout") / "corpus"
    write_corpus(corpus_config(seed=1, profile="public", overrides={"cycles": CYCLES}), target)
    return target


@pytest.fixture
def fast_repeat(monkeypatch: pytest.MonkeyPatch) -> None:
    """The alarm repeats every 50 ms after the limit (1 s in a real run)."""
    monkeypatch.setattr(_deadline, "REPEAT_SEC", 0.05)


def importer(tmp_path: Path, source: str, class_name: str) -> tuple[str, Path]:
    marker = tmp_path / "marker.txt"
    agent = tmp_path / f"{class_name.lower()}.py"
    agent.write_text(f"{PRELUDE}\nMARKER = {str(marker)!r}\n{source}", encoding="utf-8")
    return f"{agent}:{class_name}", marker


def entries(run_dir: Path) -> list[dict[str, Any]]:
    lines = (run_dir / "ledger.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


def run_in_process(corpus: Path, spec: str, out: Path, limit: float) -> Any:
    """The run of a test importer on the laboratory's own thread: these tests are of the time
    limit's signal handling there (tests/sandbox covers a sealed importer's limit)."""
    return execute_run(open_corpus(corpus), in_process_agent(spec), out, cycle_timeout_sec=limit)


def payloads(run_dir: Path, kind: str) -> list[dict[str, Any]]:
    return [entry["payload"] for entry in entries(run_dir) if entry["kind"] == kind]


def register_ids(run_dir: Path) -> set[str]:
    """The confirmed file_ids (a set: a temporary fault may have duplicated an append)."""
    return {row[0] for row in read_rows(run_dir / "register.csv")[1:]}


def applied_ids(run_dir: Path) -> set[str]:
    appends = payloads(run_dir, "sheets.append")
    return {row[0] for p in appends if p["applied"] for row in p["rows"]}


def timeout_error(limit: float) -> dict[str, str]:
    return {
        "type": "ImporterTimedOut",
        "message": f"the importer did not finish its cycle within {limit:g} s",
    }


def marker_lines(marker: Path) -> list[str]:
    return marker.read_text(encoding="utf-8").splitlines() if marker.exists() else []


def test_a_looping_importer_times_out_and_its_earlier_rows_are_confirmed(
    corpus: Path, tmp_path: Path
) -> None:
    spec, marker = importer(tmp_path, LOOPING, "Looping")
    out = tmp_path / "run"
    run_in_process(corpus, spec, out, LIMIT)
    assert payloads(out, "agent_error") == [timeout_error(LIMIT)] * CYCLES
    assert marker_lines(marker) == []  # interrupted every cycle, never gave up on its own
    assert register_ids(out) == applied_ids(out) == {f"before-{n}" for n in range(CYCLES)}
    assert all(p["rows_confirmed"] >= 1 for p in payloads(out, "cycle_confirmed"))
    # The agent_error comes after the importer's last call, before the cycle's confirmation.
    kinds = [entry["kind"] for entry in entries(out)]
    confirmed_at = [i for i, kind in enumerate(kinds) if kind == "cycle_confirmed"]
    assert all(kinds[i - 1] in ("agent_error", "events_applied") for i in confirmed_at)


def test_an_importer_that_catches_the_timeout_gets_no_late_rows_in(
    corpus: Path, tmp_path: Path, fast_repeat: None
) -> None:
    spec, marker = importer(tmp_path, STUBBORN, "Stubborn")
    out = tmp_path / "run"
    run_in_process(corpus, spec, out, LIMIT)
    # Interrupted again after catching the exception (the alarm repeats), and every call after
    # the limit is refused before it is performed: no late row, no late log entry.
    per_cycle = [
        "interrupted ImporterTimedOut",
        "late append refused ImporterTimedOut",
    ] * 3 + ["note refused ImporterTimedOut"]
    assert marker_lines(marker) == per_cycle * CYCLES
    assert register_ids(out) == {f"early-{n}" for n in range(CYCLES)}
    appended = {row[0] for p in payloads(out, "sheets.append") for row in p["rows"]}
    assert appended == {f"early-{n}" for n in range(CYCLES)}
    assert payloads(out, "diagnostics") == []
    # It returned normally, yet the timeout is the cycle's agent_error.
    assert payloads(out, "agent_error") == [timeout_error(LIMIT)] * CYCLES


def test_an_alarm_inside_a_lab_call_waits_until_the_call_is_recorded(
    corpus: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    add = CycleRecord.add
    record_started: list[str] = []

    def slow_add(self: CycleRecord, kind: str, payload: dict[str, Any]) -> None:
        if kind == "sheets.append":
            # The limit passes here, while the lab records the call, after the row was taken.
            record_started.append(kind)
            until = time.monotonic() + 2 * LIMIT
            while time.monotonic() < until:
                pass
        add(self, kind, payload)

    monkeypatch.setattr(CycleRecord, "add", slow_add)
    spec, marker = importer(tmp_path, SLOW_RECORD, "SlowRecord")
    out = tmp_path / "run"
    run_in_process(corpus, spec, out, LIMIT)
    assert record_started == ["sheets.append"] * CYCLES
    # The exception reached the importer from the call itself, once the call was complete.
    assert marker_lines(marker) == ["append raised ImporterTimedOut"] * CYCLES
    # One append per cycle, each recorded whole: answered, or failed by a scheduled fault (the
    # importer then saw the timeout, not the fault: it was raised as the call ended).
    appends = payloads(out, "sheets.append")
    assert [len(p["rows"]) for p in appends] == [1] * CYCLES
    for p in appends:
        assert ("result" in p) != ("error" in p)
        assert "result" not in p or (p["applied"], p["result"]) == (True, {"appended": 1})
    # What the register holds is exactly what the log says was applied.
    assert register_ids(out) == applied_ids(out)
    assert len(read_rows(out / "register.csv")) - 1 == sum(
        p["rows_confirmed"] for p in payloads(out, "cycle_confirmed")
    )
    assert payloads(out, "agent_error") == [timeout_error(LIMIT)] * CYCLES


def test_the_guard_defers_an_alarm_to_the_end_of_a_lab_section() -> None:
    class Lab:
        def __init__(self) -> None:
            self._sections = LabSections()
            self.steps: list[str] = []

        @lab_section
        def call(self) -> str:
            self.steps.append("started")
            until = time.monotonic() + 0.3
            while time.monotonic() < until:
                pass
            self.steps.append("recorded")
            return "answer"

    lab = Lab()
    deadline = CycleDeadline(0.05, lab._sections)
    answers: list[str] = []
    with pytest.raises(ImporterTimedOut), deadline:
        answers.append(lab.call())
    assert lab.steps == ["started", "recorded"]
    assert answers == []  # raised as the call ended, before the answer reached the caller
    assert deadline.passed
    with pytest.raises(ImporterTimedOut):
        lab.call()  # refused at entry once the limit has passed
    assert lab.steps == ["started", "recorded"]


def test_the_previous_alarm_handler_and_timer_are_restored(corpus: Path, tmp_path: Path) -> None:
    fired: list[int] = []

    def previous(signum: int, frame: FrameType | None) -> None:
        fired.append(signum)

    spec, _ = importer(tmp_path, LOOPING, "Looping")
    old_handler = signal.signal(signal.SIGALRM, previous)
    old_timer = signal.setitimer(signal.ITIMER_REAL, 120.0)
    try:
        run_in_process(corpus, spec, tmp_path / "run", LIMIT)
        assert signal.getsignal(signal.SIGALRM) is previous
        remaining, _ = signal.getitimer(signal.ITIMER_REAL)
        assert 100.0 < remaining <= 120.0
        assert fired == []
    finally:
        signal.setitimer(signal.ITIMER_REAL, *old_timer)
        signal.signal(signal.SIGALRM, old_handler)


def test_a_previous_timer_that_came_due_during_a_cycle_fires_afterwards() -> None:
    fired: list[int] = []
    old_handler = signal.signal(signal.SIGALRM, lambda signum, frame: fired.append(signum))
    old_timer = signal.setitimer(signal.ITIMER_REAL, 0.05)
    try:
        with CycleDeadline(5.0, LabSections()):
            time.sleep(0.2)
            during = list(fired)
        assert during == []  # suspended while the cycle ran
        time.sleep(0.05)
        assert fired == [signal.SIGALRM]
    finally:
        signal.setitimer(signal.ITIMER_REAL, *old_timer)
        signal.signal(signal.SIGALRM, old_handler)


def test_a_late_alarm_after_the_cycle_is_ignored() -> None:
    sections = LabSections()
    deadline = CycleDeadline(5.0, sections)
    with deadline:
        handler = signal.getsignal(signal.SIGALRM)
    assert callable(handler)
    handler(signal.SIGALRM, None)  # delivered after "not running" was set: no exception
    assert not deadline.passed


def test_off_the_main_thread_there_is_no_limit_and_no_error(corpus: Path, tmp_path: Path) -> None:
    spec, _ = importer(tmp_path, QUICK, "Quick")
    out = tmp_path / "run"
    errors: list[BaseException] = []

    def work() -> None:
        try:
            run_in_process(corpus, spec, out, 0.05)
        except BaseException as error:  # reported below
            errors.append(error)

    thread = threading.Thread(target=work)
    thread.start()
    thread.join(60)
    assert errors == []
    assert payloads(out, "agent_error") == []
    assert register_ids(out) == {f"quick-{n}" for n in range(CYCLES)}


def test_a_normal_run_is_unaffected(corpus: Path, tmp_path: Path) -> None:
    reference_runs = tmp_path
    unlimited = reference_runs / "unlimited"
    execute_run(open_corpus(corpus), load_agent("reference"), unlimited)  # no limit at all
    logs = {"unlimited": log_but_nonce(unlimited / "ledger.jsonl")}
    for name, limit in (("default", None), ("generous", 30.0)):
        out = reference_runs / name
        if limit is None:
            run_lab(corpus, "reference", out)
        else:
            run_lab(corpus, "reference", out, cycle_timeout_sec=limit)
        logs[name] = log_but_nonce(out / "ledger.jsonl")
        assert (out / "register.csv").read_bytes() == (unlimited / "register.csv").read_bytes()
    assert logs["default"] == logs["unlimited"] == logs["generous"]
    assert b"agent_error" not in (unlimited / "ledger.jsonl").read_bytes()


def test_a_run_resumes_under_another_limit(corpus: Path, tmp_path: Path) -> None:
    spec, _ = importer(tmp_path, QUICK, "Quick")
    out = tmp_path / "run"
    run_in_process(corpus, spec, out, 0.1)  # every cycle times out
    assert payloads(out, "agent_error") == [timeout_error(0.1)] * CYCLES
    again = run_in_process(corpus, spec, out, 5.0)
    assert again.already_complete


@pytest.mark.parametrize("value", ["0", "-1", "abc", "nan", "inf", "", "1e12"])
def test_bad_limits_are_refused(value: str) -> None:
    with pytest.raises(ProvebenchError, match="--cycle-timeout"):
        cycle_timeout(value)


def test_good_limits_parse() -> None:
    assert cycle_timeout("0.2") == 0.2
    assert cycle_timeout(" 600 ") == 600.0
    assert cycle_timeout(1) == 1.0


def test_the_cli_refuses_a_bad_limit_in_one_line(corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = run_cli(
        "pilot", "run", "--corpus", str(corpus), "--agent", "noop", "--out", str(out),
        "--cycle-timeout", "zero",
    )  # fmt: skip
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1
    assert "--cycle-timeout" in result.stderr
    assert not out.exists()


def test_the_cli_limit_reaches_in_process_and_external_importers(
    corpus: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec, _ = importer(tmp_path, LOOPING, "Looping")
    out = tmp_path / "run"
    args = ["pilot", "run", "--corpus", str(corpus), "--out", str(out), "--quiet"]
    result = CliRunner().invoke(app, [*args, "--agent", spec, "--cycle-timeout", "0.25"])
    assert result.exit_code == 0, result.output
    assert payloads(out, "agent_error") == [timeout_error(0.25)] * CYCLES

    from provebench.pilot.emulator import _commands

    seen: list[Any] = []

    def fake_run_with_command(*a: Any, **kw: Any) -> Any:
        seen.append(kw["timeout_sec"])
        raise ProvebenchError("stop here")

    monkeypatch.setattr(_commands, "run_with_command", fake_run_with_command)
    command = ["--agent-cmd", "python importer.py"]
    CliRunner().invoke(app, [*args, *command, "--cycle-timeout", "42"])
    CliRunner().invoke(app, [*args, *command])
    assert seen == [42.0, 600.0]
