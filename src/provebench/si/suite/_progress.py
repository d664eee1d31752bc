"""Suite progress on stderr, never in the summary: a rich bar on a terminal, plain lines
otherwise (one per scenario)."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, TextIO

from provebench._errors import shown

if TYPE_CHECKING:
    from rich.console import Console


class RichSuiteProgress:
    def __init__(self, console: Console) -> None:
        # rich is imported only for a terminal: a piped or scripted suite prints plain lines.
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
        )

        self._progress = Progress(
            TextColumn("scenarios"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[last]}"),
            TimeElapsedColumn(),
            console=console,
        )
        self._task = self._progress.add_task("suite", total=0, last="")
        self._done = 0

    def start(self, total: int) -> None:
        self._progress.update(self._task, total=total)
        self._progress.start()

    def scenario_done(self, scenario_id: str, outcome: str, reused: bool) -> None:
        self._done += 1
        note = " (kept)" if reused else ""
        self._progress.update(
            self._task, completed=self._done, last=shown(f"{scenario_id}: {outcome}{note}")
        )

    def finish(self) -> None:
        self._progress.stop()


class LineSuiteProgress:
    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self._total = 0
        self._done = 0

    def start(self, total: int) -> None:
        self._total = total

    def scenario_done(self, scenario_id: str, outcome: str, reused: bool) -> None:
        self._done += 1
        note = " (kept from an earlier run)" if reused else ""
        print(
            shown(f"[{self._done}/{self._total}] {scenario_id}: {outcome}{note}"),
            file=self._stream,
            flush=True,
        )

    def finish(self) -> None:
        pass


class QuietSuiteProgress:
    def start(self, total: int) -> None:
        pass

    def scenario_done(self, scenario_id: str, outcome: str, reused: bool) -> None:
        pass

    def finish(self) -> None:
        pass


def progress_for_stderr() -> RichSuiteProgress | LineSuiteProgress:
    if sys.stderr.isatty():
        from rich.console import Console

        return RichSuiteProgress(Console(stderr=True))
    return LineSuiteProgress(sys.stderr)


__all__ = ["LineSuiteProgress", "QuietSuiteProgress", "RichSuiteProgress", "progress_for_stderr"]
