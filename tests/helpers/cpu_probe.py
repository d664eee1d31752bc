"""What each test costs in CPU, on a machine whose wall clock says little (shared cores): opt in
with `PROVEBENCH_TEST_CPU=FOLDER` (tests/conftest.py). Every worker appends one JSON line per
phase (setup, call, teardown) of each test to FOLDER/WORKER-PID.jsonl: the user+system seconds
of the worker itself and of the processes it waited for (a subprocess, a pool, `provebench`
started as a command) over that phase, and the phase's wall seconds. A shared work made once
per run is counted in the setup of the test that made it.

The processes of a sandbox are not all counted: bubblewrap's PID namespace ends with its init,
whose own children the kernel reaps without adding their time to anyone's.

`python -m tests.helpers.cpu_probe FOLDER [N]` ranks the N costliest tests, files and folders."""

from __future__ import annotations

import json
import os
import resource
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Generator
from pathlib import Path
from typing import IO

import pytest

FOLDER_ENV = "PROVEBENCH_TEST_CPU"


def _cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    waited = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + waited.ru_utime + waited.ru_stime


class CpuProbe:
    """The pytest plugin: one line per phase of each test."""

    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        self._log: IO[str] = (folder / f"{worker}-{os.getpid()}.jsonl").open("a", encoding="utf-8")

    def _measure(self, item: pytest.Item, phase: str) -> Generator[None, None, None]:
        cpu, wall = _cpu_seconds(), time.monotonic()
        yield
        line = {
            "test": item.nodeid,
            "phase": phase,
            "cpu": round(_cpu_seconds() - cpu, 4),
            "wall": round(time.monotonic() - wall, 4),
        }
        self._log.write(json.dumps(line) + "\n")
        self._log.flush()

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_setup(self, item: pytest.Item) -> Generator[None, None, None]:
        yield from self._measure(item, "setup")

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_call(self, item: pytest.Item) -> Generator[None, None, None]:
        yield from self._measure(item, "call")

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_teardown(self, item: pytest.Item) -> Generator[None, None, None]:
        yield from self._measure(item, "teardown")


def rank(folder: Path, count: int) -> str:
    """The costliest tests (with their phases), files and folders of a probed run."""
    phases: dict[str, Counter[str]] = defaultdict(Counter)
    for log in sorted(folder.glob("*.jsonl")):
        for line in log.read_text(encoding="utf-8").splitlines():
            entry = json.loads(line)
            phases[entry["test"]][entry["phase"]] += entry["cpu"]
    totals = {test: sum(spent.values()) for test, spent in phases.items()}
    lines = [f"{len(totals)} tests, {sum(totals.values()):.1f} s of CPU"]
    for test in sorted(totals, key=totals.__getitem__, reverse=True)[:count]:
        spent = phases[test]
        lines.append(
            f"{totals[test]:7.1f}  setup {spent['setup']:6.1f}  call {spent['call']:6.1f}"
            f"  teardown {spent['teardown']:5.1f}  {test}"
        )
    for depth, title in ((None, "files"), (3, "folders")):
        grouped: Counter[str] = Counter()
        for test, total in totals.items():
            file = test.split("::")[0]
            grouped[file if depth is None else "/".join(file.split("/")[:depth])] += total
        lines.append(f"-- {title}")
        lines += [f"{total:7.1f}  {name}" for name, total in grouped.most_common(count)]
    return "\n".join(lines)


if __name__ == "__main__":
    print(rank(Path(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 20))
