"""The secrets this laboratory made that no run names: every seal's opening and every control
corpus, recorded in the laboratory's key folder when they are made and hidden from every
sandbox, not only from the runs of the seal they belong to.

A candidate's development run names its own corpus, never another seal's; yet a seal's opening
(the control's seed) or a control's answer key kept in a folder that run shows — beside the
candidate's code, inside the folder its interpreter lives in — was readable there (pilot red
team round 16, A3). The record lives in the key folder, which every sandbox hides, one real
path a line. A path recorded that is gone is skipped; a record that is not one (a line that is
not an absolute path: an output written over it) stops every launch until it is restored.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from provebench._errors import ProvebenchError
from provebench._key_location import key_dir

RECORD_FILE = "known-secrets.txt"


def remember_secret(path: Path) -> None:
    """Record `path` (where the kernel finds it) as hidden from every candidate from now on."""
    folder = key_dir()
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    line = os.path.realpath(path) + "\n"
    if "\n" in line[:-1]:
        # a name no line of the record can hold: refused, never made unhidden
        raise ProvebenchError(
            "a seal's or a control's folder name may not hold a line break: it could not be "
            "recorded as hidden from every candidate; choose another name",
            path=path,
        )
    flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_NOFOLLOW | os.O_CLOEXEC
    descriptor = os.open(folder / RECORD_FILE, flags, 0o600)
    with os.fdopen(descriptor, "a", encoding="utf-8", errors="surrogateescape") as handle:
        handle.write(line)


def known_secrets() -> list[Path]:
    """Every recorded secret that still exists, in the order recorded, each once.

    Fails closed: a record that cannot be read (but exists) or holds a line that is not an
    absolute path stops the launch in one line — garbled, it would otherwise read as "nothing
    to hide" and unhide every opening and control (pilot red team round 17, A8)."""
    record = key_dir() / RECORD_FILE
    try:
        text = record.read_text(encoding="utf-8", errors="surrogateescape")
    except FileNotFoundError:
        return []
    except OSError as error:
        raise ProvebenchError(
            f"cannot read the record of the secrets every sandbox hides: {error.strerror}",
            path=record,
        ) from None
    found: list[Path] = []
    # One record a line, split on "\n" alone, as written: `splitlines` also splits on CR, the
    # form feed, U+2028 … which a folder name may hold, and a name cut in two was never hidden
    # (pilot red team round 18, A4: a seal under `vault\u2028/` had its opening read).
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    for number, line in enumerate(lines, start=1):
        path = Path(line)
        if not path.is_absolute() or "\x00" in line:
            raise ProvebenchError(
                "the record of the secrets every sandbox hides is garbled (a line that is "
                "not an absolute path); restore it from the seals and controls made",
                path=record,
                line=number,
            )
        with contextlib.suppress(OSError):
            path.lstat()
            if path not in found:
                found.append(path)
    return found


__all__ = ["RECORD_FILE", "known_secrets", "remember_secret"]
