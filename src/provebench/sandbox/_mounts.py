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
from pathlib import Path

from provebench._errors import ProvebenchError

MOUNT_INFO = Path("/proc/self/mountinfo")
# mountinfo writes a space, a tab, a line break and a backslash in a path as `\ooo` (octal).
_ESCAPE = re.compile(rb"\\([0-7]{3})")


def mount_points() -> frozenset[Path]:
    """Every mount point of this mount namespace (field 5 of `/proc/self/mountinfo`). Fails
    closed: a namespace whose mounts cannot be listed is refused in one line, never read as
    one without mounts."""
    try:
        text = MOUNT_INFO.read_bytes()
    except OSError as error:
        raise ProvebenchError(
            f"cannot list the mounts a candidate's code may hold: {error.strerror}",
            path=MOUNT_INFO,
        ) from None
    found: set[Path] = set()
    for line in text.split(b"\n"):
        fields = line.split(b" ")
        if len(fields) < 5:
            continue
        raw = _ESCAPE.sub(lambda m: bytes([int(m.group(1), 8)]), fields[4])
        found.add(Path(os.fsdecode(raw)))
    return frozenset(found)


__all__ = ["MOUNT_INFO", "mount_points"]
