"""External importers: a program, run once per cycle in its own process, that speaks the real
Google Drive v3 / Sheets v4 wire format to the laboratory's emulator (pilot §2, §3).

Per cycle the laboratory:

1. copies the importer's work directory (its journal, checkpointed with the cycle like an
   in-process importer's) to a private directory outside the run directory;
2. opens the cycle on the emulator and starts the command there: cwd = that work directory, a
   scrubbed environment holding only the documented variables (endpoints, spreadsheet, sheet
   names, columns, time zone, run version, work directory, diagnostics file, service-account
   file) and PATH, no stdin, its stdout and stderr sent to the lab's stderr;
3. waits for it (killing its whole process group after it exits or times out), closes the cycle,
   reads its diagnostics file into the log, and copies the work directory back.

Each cycle gets a new service-account key, written in that cycle's private directory (removed
with it), and closing the cycle revokes its access tokens: a child that escaped the process group
(double fork + `setsid`) cannot be killed by the lab, but neither its token nor the key it read
lets it act in a later cycle (docs/pilot-emulator.md).

A non-zero exit or a timeout is recorded as the cycle's `agent_error` (the rows it appended are
still confirmed, as for an in-process importer that raises). Nothing the process prints reaches
the log: output may hold temporary paths, and the log must not depend on them.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import ClassVar

from provebench._errors import ProvebenchError
from provebench.pilot._emulator import EmulatedLab, gateway_of, read_diagnostics_file
from provebench.pilot._emulator._lab_run import SERVICE_ACCOUNT_FILE
from provebench.pilot._lab import CycleContext
from provebench.pilot.agents._loader import LoadedAgent

DEFAULT_TIMEOUT_SEC = 600.0
DIAGNOSTICS_FILE = "diagnostics.jsonl"


class ExternalImporterFailed(RuntimeError):
    """The external program exited non-zero or timed out (recorded as `agent_error`)."""


def resolve_command(command: str) -> list[str]:
    """`command` split like a shell would, with the program and any argument that names an
    existing file (relative to the current directory) made absolute — the program runs in its
    work directory. `python`/`python3` as the program mean the interpreter running provebench."""
    try:
        argv = shlex.split(command)
    except ValueError as error:
        raise ProvebenchError(f"cannot parse the command: {error}", field="--agent-cmd") from error
    if not argv:
        raise ProvebenchError("the command is empty", field="--agent-cmd")
    program = argv[0]
    if program in ("python", "python3"):
        resolved = sys.executable
    elif os.sep in program:
        resolved = str(Path(program).resolve())
        # Checked now, as a name on PATH is: otherwise every cycle would end in the same
        # agent_error and the run would "complete" without its importer ever starting.
        if not Path(resolved).is_file():
            raise ProvebenchError("program not found", path=program, field="--agent-cmd")
        if not os.access(resolved, os.X_OK):
            raise ProvebenchError("program is not executable", path=program, field="--agent-cmd")
    else:
        found = shutil.which(program)
        if found is None:
            raise ProvebenchError(f"program not found on PATH: {program}", field="--agent-cmd")
        resolved = found
    arguments = [
        str(Path(arg).resolve()) if not Path(arg).is_absolute() and Path(arg).is_file() else arg
        for arg in argv[1:]
    ]
    return [resolved, *arguments]


def external_agent(
    command: str, lab: EmulatedLab, *, timeout_sec: float = DEFAULT_TIMEOUT_SEC
) -> LoadedAgent:
    """The run's agent for `--agent-cmd COMMAND` (its identity is the command as written)."""
    argv = resolve_command(command)
    version = hashlib.sha256(command.encode("utf-8")).hexdigest()[:16]
    return LoadedAgent(
        spec=f"cmd:{command}",
        name="external",
        version=version,
        factory=lambda: ExternalImporter(lab, argv, timeout_sec),
    )


class ExternalImporter:
    """One cycle of an external importer behind the emulator."""

    name: ClassVar[str] = "external"
    version: ClassVar[str] = "1"

    def __init__(self, lab: EmulatedLab, argv: list[str], timeout_sec: float) -> None:
        self.lab = lab
        self.argv = argv
        self.timeout_sec = timeout_sec

    def run_cycle(self, ctx: CycleContext) -> None:
        cycle_dir = Path(tempfile.mkdtemp(prefix="cycle-", dir=self.lab.private_dir))
        try:
            work = cycle_dir / "work"
            shutil.copytree(ctx.work_dir, work, symlinks=True)
            scratch = cycle_dir / "tmp"
            scratch.mkdir()
            diagnostics = cycle_dir / DIAGNOSTICS_FILE
            env = self.environment(ctx, work, scratch, diagnostics)
            env["GOOGLE_APPLICATION_CREDENTIALS"] = str(self._cycle_key(cycle_dir))
            self.lab.open_cycle(ctx)
            try:
                returncode = _run_group(self.argv, work, env, self.timeout_sec)
            finally:
                self.lab.close_cycle(ctx)
            read_diagnostics_file(ctx, gateway_of(ctx), diagnostics)
            _replace_tree(ctx.work_dir, work)
        finally:
            shutil.rmtree(cycle_dir, ignore_errors=True)
        if returncode is None:
            raise ExternalImporterFailed(f"the importer did not exit within {self.timeout_sec}s")
        if returncode != 0:
            raise ExternalImporterFailed(f"the importer exited with status {returncode}")

    def _cycle_key(self, cycle_dir: Path) -> Path:
        """This cycle's own key file: the previous cycle's key no longer signs a valid grant."""
        self.lab.account.rotate_key()
        path = cycle_dir / SERVICE_ACCOUNT_FILE
        self.lab.account.write(path)
        return path

    def environment(
        self, ctx: CycleContext, work: Path, scratch: Path, diagnostics: Path
    ) -> dict[str, str]:
        return {
            "PATH": os.environ.get("PATH", os.defpath),
            "HOME": str(work),
            "TMPDIR": str(scratch),
            "LANG": "C.UTF-8",
            "LC_ALL": "C.UTF-8",
            "TZ": "UTC",
            "PYTHONHASHSEED": "0",
            "PYTHONUNBUFFERED": "1",
            "PYTHONDONTWRITEBYTECODE": "1",
            "PYTHONNOUSERSITE": "1",
            **self.lab.client_environment(),
            "PROVEBENCH_TIME_ZONE": ctx.time_zone,
            "PROVEBENCH_RUN_VERSION": ctx.run_version,
            "PROVEBENCH_WORK_DIR": str(work),
            "PROVEBENCH_DIAGNOSTICS_FILE": str(diagnostics),
        }


def _run_group(argv: list[str], cwd: Path, env: dict[str, str], timeout: float) -> int | None:
    """Run in a new session; kill the whole group afterwards (no helper outlives its cycle)."""
    try:
        process = subprocess.Popen(
            argv,
            cwd=cwd,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=sys.stderr.fileno() if _has_fileno() else subprocess.DEVNULL,
            start_new_session=True,
        )
    except OSError as error:
        raise ExternalImporterFailed(f"cannot start the importer: {error.strerror}") from error
    try:
        returncode: int | None = process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        returncode = None
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    return returncode


def _has_fileno() -> bool:
    try:
        sys.stderr.fileno()
    except (AttributeError, OSError, ValueError):
        return False
    return True


def _replace_tree(target: Path, source: Path) -> None:
    """Make `target` hold exactly what `source` holds."""
    for child in target.iterdir():
        if child.is_dir() and not child.is_symlink():
            shutil.rmtree(child)
        else:
            child.unlink()
    for child in source.iterdir():
        destination = target / child.name
        if child.is_dir() and not child.is_symlink():
            shutil.copytree(child, destination, symlinks=True)
        else:
            shutil.copy2(child, destination, follow_symlinks=False)


__all__ = [
    "DEFAULT_TIMEOUT_SEC",
    "ExternalImporter",
    "ExternalImporterFailed",
    "external_agent",
    "resolve_command",
]
