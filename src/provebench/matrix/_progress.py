"""A matrix's progress on stderr: a bar that streams each job as it completes (rich), or one line
per job where stderr is not a terminal (a CI log keeps every result, not a redrawn bar)."""

from __future__ import annotations

import sys
from typing import Any

from provebench.matrix._jobs import JobResult


class StderrProgress:
    def __init__(self) -> None:
        self._bar: Any = None
        self._task: Any = None
        self._line = not sys.stderr.isatty()
        self._done = 0
        self._total = 0

    def start(self, total: int, reused: int) -> None:
        self._total, self._done = total, reused
        if reused:
            print(f"matrix: {reused} of {total} job(s) already done and verified", file=sys.stderr)
        if self._line:
            return
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

        self._bar = Progress(
            "[progress.description]{task.description}",
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=Console(stderr=True),
        )
        self._bar.start()
        self._task = self._bar.add_task("jobs", total=total, completed=reused)

    def job_done(self, result: JobResult) -> None:
        self._done += 1
        said = (
            "harness fault: " + result.reason
            if result.status != "done"
            else ("pass" if result.outcome.get("success") else "fail")
        )
        if self._bar is not None:
            self._bar.update(self._task, advance=1, description=f"{result.key}: {said}"[:60])
        else:
            print(f"[{self._done}/{self._total}] {result.key}: {said}", file=sys.stderr)

    def finish(self) -> None:
        if self._bar is not None:
            self._bar.stop()


class QuietProgress:
    def start(self, total: int, reused: int) -> None:
        pass

    def job_done(self, result: JobResult) -> None:
        pass

    def finish(self) -> None:
        pass


__all__ = ["QuietProgress", "StderrProgress"]
