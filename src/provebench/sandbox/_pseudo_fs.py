"""Code on a pseudo file system is refused: the kernel writes those files, not the candidate.

A file under `/proc`, `/sys` or `/dev` — or on any mount of a kernel file system (`proc`,
`sysfs`, `devtmpfs`, `cgroup2` …), wherever it is mounted — changes with every read, or
describes the laboratory's own process (`/proc/self/cmdline`, `/proc/self/environ`): there is
no code to identify or seal there, and showing it shows the host's state. Such a code argument
was once refused only by accident (pilot red team round 18: hashing `/proc/PID/attr/current`
failed with EINVAL); it is refused explicitly, in one line, before anything is read — by the
one decision of what is never shown, for a file as for a folder (`_policy.never_shown`).
"""

from __future__ import annotations

import os
from pathlib import Path

from provebench.sandbox._containment import real_path, spelled_inside

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
    return spelled_inside(path, folder)


def _mounted_types() -> dict[int, str]:
    """Each mounted file system's type by device number (`st_dev`), from the kernel's table of
    this process's mounts; empty where there is no such table."""
    try:
        lines = MOUNTINFO.read_text(encoding="utf-8", errors="replace").splitlines()
    except (OSError, ValueError):
        return {}
    types: dict[int, str] = {}
    for line in lines:
        # `ID PARENT MAJOR:MINOR ROOT POINT OPTIONS [OPTIONAL…] - TYPE SOURCE SUPER`
        fields, _, tail = line.partition(" - ")
        parts = fields.split(" ")
        major, _, minor = parts[2].partition(":") if len(parts) > 2 else ("", "", "")
        if tail and major.isdigit() and minor.isdigit():
            types.setdefault(os.makedev(int(major), int(minor)), tail.split(" ")[0])
    return types


def pseudo_devices() -> frozenset[int]:
    """The device numbers of every pseudo file system mounted now (`PSEUDO_TYPES`): what a walk
    of a folder compares each entry's `st_dev` with, one read of the table for the whole walk —
    a `proc` mounted inside a candidate's folder is met there with no `/proc` in its path."""
    return frozenset(device for device, kind in _mounted_types().items() if kind in PSEUDO_TYPES)


def file_system_type(path: Path) -> str | None:
    """The type of the file system `path` lies on, from the kernel's table of this process's
    mounts (matched by device number); None where it cannot be told (no such table, no such
    path)."""
    try:
        device = path.stat().st_dev
    except (OSError, ValueError):
        return None
    return _mounted_types().get(device)


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


__all__ = ["PSEUDO_ROOTS", "PSEUDO_TYPES", "file_system_type", "pseudo_devices",
           "pseudo_file_system"]  # fmt: skip
