"""The mount points of this process's mount namespace, as the kernel lists them.

A walk of a candidate's code follows no link, so what it meets lies under the folder walked —
except what a mount puts there: `mount --bind /etc/shadow code/shadow` (a file) or `/etc/ssh`
at `code/sshbind` (a folder) shows the host's state with no link and no `/etc` in the path, and
nothing below the host's top-level folders is known by identity (pilot red team round 20, H2:
the seal copied `/etc/shadow` and a run showed it). Candidate code has no reason to hold a
mount point, so one met in the walk is refused whatever its source (`_candidate.read_shown`).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from provebench._errors import ProvebenchError

MOUNT_INFO = Path("/proc/self/mountinfo")
# mountinfo writes a space, a tab, a line break and a backslash in a path as `\ooo` (octal).
_ESCAPE = re.compile(rb"\\([0-7]{3})")


def mount_points() -> frozenset[Path]:
    """Every mount point of this mount namespace (field 5 of `/proc/self/mountinfo`). Fails
    closed: a namespace whose mounts cannot be listed is refused in one line, never read as
    one without mounts."""
    return frozenset(mount.point for mount in mounts())


@dataclass(frozen=True)
class Mount:
    """One line of `/proc/self/mountinfo`: its device, the folder of that device's file system
    it shows (`root`), where (`point`), its type and its super options."""

    device: str
    root: Path
    point: Path
    fs_type: str
    options: tuple[str, ...]


def _decoded(raw: bytes) -> str:
    return os.fsdecode(_ESCAPE.sub(lambda m: bytes([int(m.group(1), 8)]), raw))


def mounts() -> tuple[Mount, ...]:
    """Every mount of this mount namespace, in the kernel's order (a later one at the same point
    is on top). Fails closed as `mount_points` does."""
    try:
        text = MOUNT_INFO.read_bytes()
    except OSError as error:
        raise ProvebenchError(
            f"cannot list the mounts a candidate's code may hold: {error.strerror}",
            path=MOUNT_INFO,
        ) from None
    found: list[Mount] = []
    for line in text.split(b"\n"):
        fields = line.split(b" ")
        if b"-" not in fields or len(fields) < 5:
            continue
        tail = fields[fields.index(b"-") + 1 :]
        options = tuple(_decoded(tail[2]).split(",")) if len(tail) > 2 else ()
        found.append(
            Mount(
                device=fields[2].decode("ascii", "replace"),
                root=Path(_decoded(fields[3])),
                point=Path(_decoded(fields[4])),
                fs_type=_decoded(tail[0]) if tail else "",
                options=options,
            )
        )
    return tuple(found)


# File systems whose content is whatever their layers or their daemon say, with a device of
# their own: what they show cannot be proven by device and root from the mount table (an
# overlay's `lowerdir` is the text given at mount time, stale once that folder is unmounted,
# covered or renamed — pilot red team 24, A2).
_UNPROVABLE: Final = ("overlay", "aufs", "unionfs", "fuse")


def mount_of(path: Path, table: tuple[Mount, ...]) -> Mount | None:
    """The mount `path` (a real path) lies on: the deepest mount point at or above it, the
    last mounted there (the one on top); None where the table holds none."""
    on = [m for m in table if path == m.point or m.point in path.parents]
    if not on:
        return None
    deepest = max(len(m.point.parts) for m in on)
    return [m for m in on if len(m.point.parts) == deepest][-1]


def unprovable_mount(path: Path, table: tuple[Mount, ...]) -> Mount | None:
    """The mount `path` lies on when it is a layered or user-space file system other than the
    root file system (a container's root overlay is the machine the laboratory runs on), else
    None."""
    mount = mount_of(path, table)
    if mount is None or mount.point == Path("/"):
        return None
    kind = mount.fs_type.split(".", 1)[0]
    return mount if kind in _UNPROVABLE else None


def host_paths(path: Path, table: tuple[Mount, ...]) -> list[Path]:
    """The other names under which the host shows what `path` (a real path) shows through the
    mount it lies on: a bind mount of a folder of a device another mount shows (`mount --bind
    /etc/dpkg code`: the device's `/etc/dpkg` is `/etc/dpkg` through the root mount), and an
    overlay's lower and upper folders (pilot red team round 22, A14: the candidate's folder was
    itself a mount of `/etc/dpkg`, and the walk, which refuses mounts only below a shown path,
    showed and sealed it). Empty where `path` lies on a mount no other shows (a volume)."""
    mount = mount_of(path, table)
    if mount is None:
        return []
    rest = path.relative_to(mount.point)
    found: list[Path] = []
    for other in table:
        if other is mount or other.device != mount.device:
            continue
        if mount.root == other.root or other.root in mount.root.parents:
            found.append(other.point / mount.root.relative_to(other.root) / rest)
    if mount.fs_type == "overlay":
        for option in mount.options:
            key, _, value = option.partition("=")
            if key in ("lowerdir", "upperdir") and value:
                found += [Path(folder) / rest for folder in value.split(":") if folder]
    return found


__all__ = [
    "MOUNT_INFO",
    "Mount",
    "host_paths",
    "mount_of",
    "mount_points",
    "mounts",
    "unprovable_mount",
]
