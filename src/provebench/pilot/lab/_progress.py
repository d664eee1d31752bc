"""Progress on stderr, never in the scored output: a rich bar on a terminal, plain lines
otherwise — one per cycle of a laboratory run, one per importer of the red team.

rich is imported only where a bar is drawn: a run whose stderr is no terminal (a log, CI, every
command a test launches) writes plain lines and does not pay the import (about 15 ms of CPU).
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from rich.console import Console


class RichProgress:
    """Cycles done (bar), events applied and errors answered to the importer (counters)."""

    def __init__(self, console: Console) -> None:
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
        )

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
        from rich.console import Console

        return RichProgress(Console(stderr=True))
    return LineProgress(sys.stderr)


class RichRedteamProgress:
    """Importers done (bar; the reference and one per attack) and the last one's verdict."""

    def __init__(self, console: Console) -> None:
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
        )

        self._progress = Progress(
            TextColumn("red team"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TextColumn("{task.fields[said]}", markup=False),  # attack names are data
            console=console,
            transient=False,
        )
        self._task = self._progress.add_task("redteam", total=0, said="")

    def start(self, importers: int) -> None:
        self._progress.update(self._task, total=importers)
        self._progress.start()

    def importer_done(self, said: str) -> None:
        self._progress.update(self._task, advance=1, said=said)

    def finish(self) -> None:
        self._progress.stop()


class LineRedteamProgress:
    """One line per importer done, for logs and CI: `3/31 deleting-an-error: caught`."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self._total = 0
        self._done = 0

    def start(self, importers: int) -> None:
        self._total = importers

    def importer_done(self, said: str) -> None:
        self._done += 1
        self._stream.write(f"{self._done}/{self._total} {said}\n")
        self._stream.flush()

    def finish(self) -> None:
        return None


def redteam_progress_for_stderr() -> RichRedteamProgress | LineRedteamProgress:
    if sys.stderr.isatty():
        from rich.console import Console

        return RichRedteamProgress(Console(stderr=True))
    return LineRedteamProgress(sys.stderr)


__all__ = [
    "LineProgress",
    "LineRedteamProgress",
    "RichProgress",
    "RichRedteamProgress",
    "progress_for_stderr",
    "redteam_progress_for_stderr",
]
