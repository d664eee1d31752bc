"""Code on a pseudo file system is refused: the kernel writes those files, not the candidate.

A file under `/proc`, `/sys` or `/dev` — or on any mount of a kernel file system (`proc`,
`sysfs`, `devtmpfs`, `cgroup2` …), wherever it is mounted — changes with every read, or
describes the laboratory's own process (`/proc/self/cmdline`, `/proc/self/environ`): there is
no code to identify or seal there, and showing it shows the host's state. Such a code argument
was once refused only by accident (pilot red team round 18: hashing `/proc/PID/attr/current`
failed with EINVAL); it is refused here, explicitly, in one line, before anything is read.
"""

from __future__ import annotations

import os
from pathlib import Path

from provebench._errors import ProvebenchError
from provebench.sandbox._containment import real_path

# Where the kernel's own file systems are mounted on every Linux host, by path: the spelling
# (`/proc/self/fd/3` resolves to the file it names) and the real path are both checked.
PSEUDO_ROOTS = (Path("/proc"), Path("/sys"), Path("/dev"))
# File systems the kernel writes (mountinfo's type field), wherever they are mounted.
PSEUDO_TYPES = frozenset({
    "autofs", "binfmt_misc", "bpf", "cgroup", "cgroup2", "configfs", "debugfs", "devpts",
    "devtmpfs", "efivarfs", "fusectl", "hugetlbfs", "mqueue", "nsfs", "proc", "pstore",
    "securityfs", "selinuxfs", "sysfs", "tracefs",
})  # fmt: skip
MOUNTINFO = Path("/proc/self/mountinfo")


def _under(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def file_system_type(path: Path) -> str | None:
    """The type of the file system `path` lies on, from the kernel's table of this process's
    mounts (matched by device number); None where it cannot be told (no such table, no such
    path)."""
    try:
        device = path.stat().st_dev
        lines = MOUNTINFO.read_text(encoding="utf-8", errors="replace").splitlines()
    except (OSError, ValueError):
        return None
    wanted = f"{os.major(device)}:{os.minor(device)}"
    for line in lines:
        # `ID PARENT MAJOR:MINOR ROOT POINT OPTIONS [OPTIONAL…] - TYPE SOURCE SUPER`
        fields, _, tail = line.partition(" - ")
        parts = fields.split(" ")
        if len(parts) > 2 and parts[2] == wanted and tail:
            return tail.split(" ")[0]
    return None


def pseudo_file_system(path: Path) -> str | None:
    """What makes `path` a pseudo file system's file (a root or a type), or None."""
    spelled = Path(os.path.abspath(path))  # noqa: PTH100 - the spelling, no link followed
    real = real_path(path)
    for root in PSEUDO_ROOTS:
        if _under(spelled, root) or _under(real, root):
            return f"lies under {root}"
    kind = file_system_type(real)
    if kind in PSEUDO_TYPES:
        return f"lies on a {kind} file system"
    return None


def refuse_pseudo_file(path: Path, *, field: str) -> None:
    """Refuse, in one line, code that lies on a pseudo file system (`pseudo_file_system`)."""
    reason = pseudo_file_system(path)
    if reason is not None:
        raise ProvebenchError(
            f"the candidate's code {path} {reason}, a file system the kernel writes: "
            "there is no code there to show or seal; name the candidate's own files",
            field=field,
        )


__all__ = ["PSEUDO_ROOTS", "PSEUDO_TYPES", "file_system_type", "pseudo_file_system",
           "refuse_pseudo_file"]  # fmt: skip
