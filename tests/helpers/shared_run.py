"""Work that several test modules read, done once per test run rather than once per module.

`make test` runs the suite in one process per core (pytest-xdist). A module-scoped fixture runs
once in every process that reaches it, so two modules reading the same minute-long red-team
report would pay for it twice. `made_once` makes a folder in the temporary root every worker of
one run shares, under a file lock: the first worker to ask makes it, the others wait and read it.
A folder is complete only once its marker is written, so a maker that failed leaves nothing a
later worker could take for a result: that worker makes it again, and fails the same way.

What is shared is read only; a test that changes it works on a copy.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from filelock import FileLock

_COMPLETE = ".complete"


def shared_root(factory: pytest.TempPathFactory) -> Path:
    """This run's own temporary root, the same for every worker of the run.

    Under xdist each worker's base folder sits in the run's base folder; without it the base
    folder is the process's own (its parent holds earlier runs, which must never be read).
    """
    base = factory.getbasetemp()
    return base.parent if "PYTEST_XDIST_WORKER" in os.environ else base


def made_once(factory: pytest.TempPathFactory, name: str, make: Callable[[Path], None]) -> Path:
    """The folder `name`, made by `make(folder)` once in this test run, whichever worker asks."""
    root = shared_root(factory)
    folder = root / name
    with FileLock(str(root / f"{name}.lock")):
        if not (folder / _COMPLETE).is_file():
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir()
            make(folder)
            (folder / _COMPLETE).write_text("made\n", encoding="ascii")
    return folder


@dataclass(frozen=True)
class Completed:
    """A `provebench` command this test run ran once: its output folder and what it said."""

    out: Path
    exit_code: int
    stdout: str
    stderr: str
    # The files (relative, sorted) that `before` had put in the output folder before the command
    # ran: empty when it ran into no folder.
    out_before: tuple[str, ...] = ()

    @property
    def output(self) -> str:
        return self.stdout + self.stderr


def provebench_once(
    factory: pytest.TempPathFactory,
    name: str,
    *arguments: str,
    before: Callable[[Path], None] | None = None,
) -> Completed:
    """`provebench ARGUMENTS --out FOLDER`, run once per test run (tests/helpers/shared_run.py).

    `before(FOLDER)`, if given, fills the output folder before the command runs (what an earlier
    run left there); the files it put there are recorded in `Completed.out_before`."""

    def make(folder: Path) -> None:
        out = folder / "out"
        found: list[str] = []
        if before is not None:
            before(out)
            found = sorted(path.relative_to(out).as_posix() for path in out.rglob("*"))
        (folder / "out-before.json").write_text(json.dumps(found), encoding="utf-8")
        command = [sys.executable, "-m", "provebench", *arguments, "--out", str(out)]
        completed = subprocess.run(command, capture_output=True, text=True, check=False)
        (folder / "stdout.txt").write_text(completed.stdout, encoding="utf-8")
        (folder / "stderr.txt").write_text(completed.stderr, encoding="utf-8")
        (folder / "exit-code.txt").write_text(f"{completed.returncode}\n", encoding="ascii")

    folder = made_once(factory, name, make)
    return Completed(
        out=folder / "out",
        exit_code=int((folder / "exit-code.txt").read_text(encoding="ascii")),
        stdout=(folder / "stdout.txt").read_text(encoding="utf-8"),
        stderr=(folder / "stderr.txt").read_text(encoding="utf-8"),
        out_before=tuple(json.loads((folder / "out-before.json").read_text(encoding="utf-8"))),
    )
