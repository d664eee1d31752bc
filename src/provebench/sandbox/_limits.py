"""Resource limits of a sandboxed candidate, applied to every process it starts.

Two mechanisms, both inherited by every child:

* `setrlimit` on the sandbox's first process: CPU seconds, address space, the size of one file,
  open files, and the number of processes (`RLIMIT_NPROC`). The kernel does not apply
  `RLIMIT_NPROC` to processes that map to the host's root, which is what a sandbox started by
  root runs as, so for root the process count comes from:
* a cgroup per launch, where the machine lets provebench make one in cgroup v1's `pids` (and
  `memory`) hierarchy: `pids.max` and the memory limit. cgroup v2 is not used. Where there is
  none the policy records it (`processes_enforced_by: "rlimit"`), and the wall-clock deadline
  and the PID namespace (which ends every process of the cycle with it) are the bound.

The wall-clock deadline per cycle is the caller's (`run_sandboxed(timeout=...)`).
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import os
import resource
import signal
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

MIB = 1024 * 1024


def process_gone(pid: int) -> bool:
    """Whether no process `pid` runs (one of another user's still counts as running)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:
        return False
    return False


@dataclass(frozen=True)
class Limits:
    """What one sandboxed cycle may use (docs/sandbox.md, 'Limits')."""

    cpu_sec: int = 600
    memory_mib: int = 4096
    file_size_mib: int = 256
    processes: int = 256
    open_files: int = 1024
    tmp_mib: int = 256
    # `/dev/shm` (POSIX shared memory, a semaphore's file): a tmpfs of its own, bounded, since
    # the rest of `/dev` and the root are read-only (sandbox red team 41, SB10).
    shm_mib: int = 64
    work_dir_mib: int = 1024
    # Files, folders and links in `/sandbox` (the work directory and the cycle's other files),
    # measured before anything is carried back to the host: the tmpfs bounds bytes, not names,
    # and 200 000 empty files a cycle counted almost nothing and were copied to the host's disk
    # (sandbox red team 44, G1-1). Far above an importer's needs (a profile has at most a few
    # hundred files).
    work_dir_entries: int = 50_000

    def describe(self) -> dict[str, int]:
        return asdict(self)


DEFAULT_LIMITS = Limits()


def _set_rlimits(limits: Limits) -> None:
    pairs = (
        (resource.RLIMIT_CPU, limits.cpu_sec),
        (resource.RLIMIT_AS, limits.memory_mib * MIB),
        (resource.RLIMIT_FSIZE, limits.file_size_mib * MIB),
        (resource.RLIMIT_NOFILE, limits.open_files),
        (resource.RLIMIT_NPROC, limits.processes),
        (resource.RLIMIT_CORE, 0),
    )
    for which, value in pairs:
        resource.setrlimit(which, (value, value))


_counter = itertools.count()
_V1_ROOT = Path("/sys/fs/cgroup")


def _own_v1_path(controller: str) -> Path | None:
    """This process's cgroup in the v1 hierarchy of `controller`, if mounted and writable."""
    base = _V1_ROOT / controller
    if not (base / "cgroup.procs").is_file():
        return None
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        _, controllers, path = line.split(":", 2)
        if controller in controllers.split(","):
            own = base / path.lstrip("/")
            return own if os.access(own, os.W_OK) else None
    return None


class Cgroup:
    """A cgroup made for one sandbox launch: its processes are counted and capped together."""

    def __init__(self, directories: list[Path], mechanism: str) -> None:
        self.directories = directories
        self.mechanism = mechanism

    def join_paths(self) -> list[bytes]:
        return [str(d / "cgroup.procs").encode() for d in self.directories]

    def kill_all(self) -> None:
        """SIGKILL every process still in the cgroup (by host pid), until it is empty."""
        for _ in range(200):
            pids = self._pids()
            if not pids:
                return
            for pid in pids:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
            time.sleep(0.005)

    def _pids(self) -> list[int]:
        found: set[int] = set()
        for directory in self.directories:
            with contextlib.suppress(OSError, ValueError):
                found.update(int(p) for p in (directory / "cgroup.procs").read_text().split())
        return sorted(found)

    def remove(self) -> None:
        self.kill_all()
        for directory in self.directories:
            for _ in range(100):
                try:
                    directory.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(0.005)


def _sweep_stale(base: Path) -> None:
    """Remove the empty launch cgroups of provebench processes that died without removing them
    (killed with SIGKILL): named `provebench-PID-N`, PID no longer running. Once per process."""
    for entry in base.glob("provebench-*-*"):
        pid = entry.name.split("-")[1]
        if pid.isdigit() and process_gone(int(pid)):
            with contextlib.suppress(OSError):
                entry.rmdir()  # refused while it still holds a process


_swept: set[Path] = set()


def _new_cgroup(base: Path, name: str, made: list[Path], limit_file: str, value: int) -> None:
    """Make `base/name` with its one limit (after a first sweep of `base`), noted in `made`."""
    if base not in _swept:
        _swept.add(base)
        _sweep_stale(base)
    directory = base / name
    directory.mkdir()
    made.append(directory)
    (directory / limit_file).write_text(str(value))


def make_cgroup(limits: Limits) -> Cgroup | None:
    """A v1 pids (and memory) cgroup for one launch, or None where the machine has none that
    provebench may write (see the module docstring)."""
    name = f"provebench-{os.getpid()}-{next(_counter)}"
    made: list[Path] = []
    try:
        pids = _own_v1_path("pids")
        if pids is None:
            return None
        _new_cgroup(pids, name, made, "pids.max", limits.processes)
        memory = _own_v1_path("memory")
        if memory is not None:
            _new_cgroup(memory, name, made, "memory.limit_in_bytes", limits.memory_mib * MIB)
    except OSError:
        Cgroup(made, "").remove()
        return None
    return Cgroup(made, "cgroup-v1")


@functools.cache
def process_limit_mechanism() -> str:
    """How the process count is enforced here: `cgroup-v1` or `rlimit` (recorded)."""
    probe = make_cgroup(DEFAULT_LIMITS)
    if probe is None:
        return "rlimit"
    probe.remove()
    return probe.mechanism


def preexec_for(limits: Limits, cgroup: Cgroup | None) -> Callable[[], None]:
    """The function the sandbox's first process runs before it executes bwrap: it joins the
    launch's cgroup (by writing "0", itself) and sets the limits. Everything it needs is
    prepared here, so the child only makes system calls."""
    join = cgroup.join_paths() if cgroup is not None else []

    def preexec() -> None:
        for path in join:
            fd = os.open(path, os.O_WRONLY)
            try:
                os.write(fd, b"0")
            finally:
                os.close(fd)
        _set_rlimits(limits)

    return preexec


@contextlib.contextmanager
def launch_cgroup(limits: Limits) -> Iterator[Cgroup | None]:
    cgroup = make_cgroup(limits)
    try:
        yield cgroup
    finally:
        if cgroup is not None:
            cgroup.remove()


__all__ = [
    "DEFAULT_LIMITS",
    "MIB",
    "Cgroup",
    "Limits",
    "launch_cgroup",
    "make_cgroup",
    "preexec_for",
    "process_gone",
    "process_limit_mechanism",
]
