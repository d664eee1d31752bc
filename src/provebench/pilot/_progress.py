"""Progress of a laboratory run: a rich bar on a terminal, one plain line per cycle otherwise."""

from __future__ import annotations

import sys
from typing import TextIO

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn


class RichProgress:
    """Cycles done (bar), events applied and errors answered to the importer (counters)."""

    def __init__(self, console: Console) -> None:
        self._progress = Progress(
            TextColumn("cycles"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("events {task.fields[events]}  errors {task.fields[errors]}"),
            TimeElapsedColumn(),
            console=console,
            transient=False,
        )
        self._task = self._progress.add_task("run", total=0, events=0, errors=0)
        self._events = 0
        self._errors = 0

    def start(self, total_cycles: int, done_cycles: int) -> None:
        self._progress.update(self._task, total=total_cycles, completed=done_cycles)
        self._progress.start()

    def cycle_done(self, cycle: int, events: int, errors: int) -> None:
        self._events += events
        self._errors += errors
        self._progress.update(self._task, completed=cycle, events=self._events, errors=self._errors)

    def finish(self) -> None:
        self._progress.stop()


class LineProgress:
    """One line per cycle, for logs and CI."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self._total = 0

    def start(self, total_cycles: int, done_cycles: int) -> None:
        self._total = total_cycles
        if done_cycles:
            self._write(f"resuming after cycle {done_cycles}/{total_cycles}")

    def cycle_done(self, cycle: int, events: int, errors: int) -> None:
        self._write(f"cycle {cycle}/{self._total}: {events} events, {errors} errors")

    def finish(self) -> None:
        return None

    def _write(self, text: str) -> None:
        self._stream.write(text + "\n")
        self._stream.flush()


def progress_for_stderr() -> RichProgress | LineProgress:
    if sys.stderr.isatty():
        return RichProgress(Console(stderr=True))
    return LineProgress(sys.stderr)


__all__ = ["LineProgress", "RichProgress", "progress_for_stderr"]
