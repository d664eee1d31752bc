"""The secrets this laboratory made that no run names: every seal's opening and every control
corpus, recorded in the laboratory's key folder when they are made and hidden from every
sandbox, not only from the runs of the seal they belong to.

A candidate's development run names its own corpus, never another seal's; yet a seal's opening
(the control's seed) or a control's answer key kept in a folder that run shows — beside the
candidate's code, inside the folder its interpreter lives in — was readable there (pilot red
team round 16, A3). The record lives in the key folder, which every sandbox hides, one real
path a line. A path recorded that is gone is skipped; a line that is not an absolute path is
ignored, since nothing but this module writes the file.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from provebench._key_location import key_dir

RECORD_FILE = "known-secrets.txt"


def remember_secret(path: Path) -> None:
    """Record `path` (where the kernel finds it) as hidden from every candidate from now on."""
    folder = key_dir()
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    line = os.path.realpath(path) + "\n"
    if "\n" in line[:-1]:
        return  # a name no line can hold; never one provebench makes
    flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_NOFOLLOW | os.O_CLOEXEC
    descriptor = os.open(folder / RECORD_FILE, flags, 0o600)
    with os.fdopen(descriptor, "a", encoding="utf-8", errors="surrogateescape") as handle:
        handle.write(line)


def known_secrets() -> list[Path]:
    """Every recorded secret that still exists, in the order recorded, each once."""
    record = key_dir() / RECORD_FILE
    try:
        text = record.read_text(encoding="utf-8", errors="surrogateescape")
    except OSError:
        return []
    found: list[Path] = []
    for line in dict.fromkeys(text.splitlines()):
        path = Path(line)
        if not path.is_absolute():
            continue
        with contextlib.suppress(OSError):
            path.lstat()
            found.append(path)
    return found


__all__ = ["RECORD_FILE", "known_secrets", "remember_secret"]
