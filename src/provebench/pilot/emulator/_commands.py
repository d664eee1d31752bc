"""`provebench pilot run --agent-cmd` and `provebench pilot serve`: the runner with the emulator.

Both run the ordinary crash-safe runner (`execute_run`) with an importer whose cycles are served
over HTTP. `--agent-cmd` runs a program per cycle (`agents._external`); `serve` keeps each cycle
open until a client posts `/provebench/v1/cycle:finish`, so an importer can be driven by hand or
by a test harness. SIGINT/SIGTERM stop `serve` cleanly: the open cycle is not committed (exactly
as after a crash) and the same command resumes the run.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path
from types import FrameType
from typing import ClassVar

from provebench._signals import stopped_by_signals
from provebench.pilot.agents._loader import LoadedAgent
from provebench.pilot.emulator._lab_run import EmulatedLab
from provebench.pilot.emulator._page_tokens import run_key
from provebench.pilot.lab import CycleContext
from provebench.pilot.lab._runner import (
    RunOutcome,
    RunProgress,
    execute_run,
    lab_secrets,
    open_corpus,
)
from provebench.pilot.record._rundir import RunDir
from provebench.pilot.record._seal import not_the_sealed_candidate
from provebench.sandbox import DEFAULT_LIMITS, UNSANDBOXED_SERVED, Limits
from provebench.sandbox._code_copy import SealedCode

SERVE_AGENT_SPEC = "serve"


class ServeStopped(KeyboardInterrupt):
    """Raised out of an open cycle when `serve` is told to stop: not an importer error, so the
    runner does not commit the cycle (a KeyboardInterrupt is not caught as agent_error)."""


def run_with_command(
    corpus_dir: str | Path,
    agent_cmd: str,
    run_dir: str | Path,
    *,
    progress: RunProgress | None = None,
    timeout_sec: float | None = None,
    limits: Limits = DEFAULT_LIMITS,
    sealed: SealedCode | None = None,
) -> RunOutcome:
    """`provebench pilot run --agent-cmd COMMAND`: the emulator lives for the whole run; from a
    seal (`sealed`), the sealed command, its code shown from the seal's copy."""
    from provebench.pilot.emulator._external import DEFAULT_TIMEOUT_SEC, external_agent
    from provebench.sandbox._command import resolve_command

    if sealed is not None and sealed.spec != f"cmd:{agent_cmd}":
        raise not_the_sealed_candidate(sealed.opening, sealed.spec, f"cmd:{agent_cmd}")
    if sealed is None:  # a bad command fails before anything starts
        resolve_command(agent_cmd, field="--agent-cmd")
    corpus = open_corpus(Path(corpus_dir))
    key = run_key(corpus.identity["manifest_sha256"])  # opaque page tokens (red team 28, F1)
    with EmulatedLab(page_token_key=key) as lab, contextlib.ExitStack() as resources:
        lab.ledger_path = RunDir(Path(run_dir)).ledger_path
        agent = external_agent(
            agent_cmd,
            lab,
            secrets=lab_secrets(corpus_dir, run_dir),
            timeout_sec=timeout_sec if timeout_sec else DEFAULT_TIMEOUT_SEC,
            limits=limits,
            sealed=sealed,
            resources=resources,  # the code's snapshot: for the whole run
        )
        return execute_run(corpus, agent, Path(run_dir), progress=progress)


class _ServedImporter:
    name: ClassVar[str] = "served"
    version: ClassVar[str] = "1"

    def __init__(self, lab: EmulatedLab, stop: threading.Event) -> None:
        self.lab = lab
        self.stop = stop

    def run_cycle(self, ctx: CycleContext) -> None:
        self.lab.open_cycle(ctx)
        try:
            while not self.lab.session.finished.wait(0.1):
                if self.stop.is_set():
                    raise ServeStopped
        finally:
            self.lab.close_cycle(ctx)


def stop_on_signals(stop: threading.Event) -> AbstractContextManager[None]:
    """SIGINT and SIGTERM set `stop` (restored afterwards), even where SIGINT was inherited
    ignored (`provebench._signals`)."""

    def handler(signum: int, frame: FrameType | None) -> None:
        stop.set()

    return stopped_by_signals(handler)


def serve_lab(
    corpus_dir: str | Path,
    run_dir: str | Path,
    *,
    port: int = 0,
    host: str = "127.0.0.1",
    on_ready: Callable[[EmulatedLab], None] | None = None,
    progress: RunProgress | None = None,
) -> RunOutcome | None:
    """`provebench pilot serve`: None when stopped by a signal before the run completed."""
    corpus = open_corpus(Path(corpus_dir))
    stop = threading.Event()
    key = run_key(corpus.identity["manifest_sha256"])  # opaque page tokens (red team 28, F1)
    with (
        EmulatedLab(serve_mode=True, port=port, host=host, page_token_key=key) as lab,
        stop_on_signals(stop),
    ):
        lab.ledger_path = RunDir(Path(run_dir)).ledger_path
        agent = LoadedAgent(
            spec=SERVE_AGENT_SPEC,
            name="served",
            version="1",
            factory=lambda: _ServedImporter(lab, stop),
            isolation=dict(UNSANDBOXED_SERVED),
            code_sha256="",  # a client of `pilot serve`: provebench never sees its code
        )
        if on_ready is not None:
            on_ready(lab)
        try:
            return execute_run(corpus, agent, Path(run_dir), progress=progress)
        except ServeStopped:
            return None


__all__ = ["SERVE_AGENT_SPEC", "ServeStopped", "run_with_command", "serve_lab"]
