"""One job of a matrix: what it is (`JobSpec`), what it returns (`JobResult`), and the wrapper
every backend runs it through (`execute_job`).

A job is a plain, picklable description — the job function's dotted name and its parameters —
so every backend ships the same bytes to a worker and the worker imports the function itself.
A job writes its evidence under its own folder and returns only its outcome, the verdict's path
and sha256: large evidence never travels through the scheduler.

The job's folder is written as `FOLDER.partial-ATTEMPT` (each submission draws its own attempt)
and renamed to `FOLDER` as the job's last step, never over an existing folder: a folder without
the suffix is a finished job's, a driver killed mid-job leaves only `.partial-…` folders, which
the next run removes and redoes, and a worker that outlives its driver cannot write into the
folder a later attempt is making.

A job that raises, or whose worker cannot start the sandbox, is a **harness fault** (OASIS
PROVIDER_FAILURE): recorded with its reason, never counted as the agent's pass or fail.
"""

from __future__ import annotations

import functools
import importlib
import shutil
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from provebench.matrix._store import PARTIAL_SUFFIX, is_remote, publish
from provebench.sandbox._private import private_folder


@dataclass(frozen=True)
class JobSpec:
    """One (agent, case, trial) of a matrix."""

    key: str  # agent-slug/case/trial-NN: the job's folder under OUT/jobs, and its sort key
    agent: str
    case: str  # a corpus seed (pilot) or a scenario id (SI)
    trial: int
    function: str  # "module:function", called as function(spec, folder) -> dict
    params: dict[str, Any] = field(default_factory=dict)
    folder: str = ""  # the job's folder: an absolute path, or an fsspec URL (`_store.py`)
    attempt: str = ""  # this submission's own suffix for the job's partial folder
    # The candidate as this job runs it (its code's digest, and every option that decides the
    # verdict): signed in the job's record, and a record is kept only for the same identity
    # (red team round 13, H8).
    identity: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class JobResult:
    key: str
    # "done": the job ran and its outcome is the agent's; "harness_fault": it did not run to a
    # verdict for a reason that is not the agent's.
    status: str
    outcome: dict[str, Any] = field(default_factory=dict)
    reason: str = ""


@functools.cache
def _sandbox_problem() -> str | None:
    """Why this worker cannot start the sandbox (None: it can), checked once per process."""
    try:
        from provebench.sandbox._tool import bwrap_tool

        bwrap_tool()  # a trial sandbox with every policy's namespaces
    except Exception as error:  # the reason is the harness's, reported as a fault
        return f"the worker cannot start the sandbox: {error}"
    return None


def die_with_parent() -> None:
    """A pool worker's initializer: the kernel kills the worker when the driver dies
    (PR_SET_PDEATHSIG), so a killed driver leaves no job running behind it."""
    import ctypes
    import signal

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # not Linux: the attempt suffix still keeps folders apart
        pass


def execute_job(spec: JobSpec) -> JobResult:
    """Run one job on this worker; never raises (a failure is a harness fault with its reason)."""
    problem = _sandbox_problem()
    if problem is not None:
        return JobResult(spec.key, "harness_fault", reason=problem)
    remote = is_remote(spec.folder)
    # In the laboratory's private root, hidden from every candidate (a job's runs and corpora),
    # never loose in $TMPDIR where a candidate shown that folder would read them.
    temporary = private_folder("job") if remote else None
    folder = Path(spec.folder) if temporary is None else temporary / "job"
    partial = folder.with_name(f"{folder.name}{PARTIAL_SUFFIX}-{spec.attempt}")
    try:
        shutil.rmtree(partial, ignore_errors=True)
        partial.mkdir(parents=True)
        module_name, _, function_name = spec.function.partition(":")
        function = getattr(importlib.import_module(module_name), function_name)
        outcome = function(spec, partial)
        if temporary is not None:  # a URL store: uploaded from here, never via the scheduler
            publish(partial, spec.folder, spec.attempt)
        elif folder.exists():  # another attempt finished it: this one must not replace it
            raise FileExistsError("another attempt of this job finished first")
        else:
            partial.rename(folder)
    except BaseException as error:  # the job's failure is its result, recorded, not raised
        if isinstance(error, KeyboardInterrupt):
            raise
        shutil.rmtree(partial, ignore_errors=True)
        if temporary is not None:
            shutil.rmtree(temporary, ignore_errors=True)
        last = traceback.extract_tb(error.__traceback__)[-1:] if error.__traceback__ else []
        where = f" ({last[0].filename.rsplit('/', 1)[-1]}:{last[0].lineno})" if last else ""
        return JobResult(
            spec.key, "harness_fault", reason=f"{type(error).__name__}: {error}{where}"[:500]
        )
    if temporary is not None:
        shutil.rmtree(temporary, ignore_errors=True)
    return JobResult(spec.key, "done", outcome=dict(outcome))


__all__ = ["PARTIAL_SUFFIX", "JobResult", "JobSpec", "die_with_parent", "execute_job"]
