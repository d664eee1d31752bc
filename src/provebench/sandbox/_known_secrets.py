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
import hashlib
import os
import re
import stat
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from provebench._errors import ProvebenchError
from provebench._key_location import key_dir

RECORD_FILE = "known-secrets.txt"
# One secret file's mark a line: `SIZE SHA256 PATH` (the path where it was made, for messages).
MARKS_FILE = "known-secret-marks.txt"
_SHA256 = re.compile(r"[0-9a-f]{64}")


def remember_secret(path: Path) -> None:
    """Record `path` (where the kernel finds it) as hidden from every candidate from now on, and
    the bytes of the files it holds now (`remember_secret_marks`)."""
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
    _append(folder / RECORD_FILE, line)
    remember_secret_marks([path])


def remember_secret_marks(paths: Iterable[Path]) -> None:
    """Record the marks of `paths` — the size and sha256 of each file, and of every file a
    folder holds now — so that a walk refuses them moved or copied anywhere (H4). An empty file
    has no bytes to keep and is not recorded."""
    lines: list[str] = []
    for given in paths:
        real = Path(os.path.realpath(given))
        for path in (real, *_files_under(real)):
            try:
                status = path.lstat()
            except OSError:
                continue
            where = os.fsdecode(path)
            if "\n" in where or not stat.S_ISREG(status.st_mode) or not status.st_size:
                continue  # a name no line holds is refused by `remember_secret` for its own paths
            digest = hashlib.sha256(path.read_bytes()).hexdigest()
            lines.append(f"{status.st_size} {digest} {where}\n")
    if lines:
        folder = key_dir()
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        _append(folder / MARKS_FILE, "".join(lines))


def _files_under(folder: Path) -> list[Path]:
    if not folder.is_dir() or folder.is_symlink():
        return []
    return [Path(top, name) for top, _, files in os.walk(folder) for name in files]


def _append(record: Path, text: str) -> None:
    flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_NOFOLLOW | os.O_CLOEXEC
    descriptor = os.open(record, flags, 0o600)
    with os.fdopen(descriptor, "a", encoding="utf-8", errors="surrogateescape") as handle:
        handle.write(text)


@dataclass(frozen=True)
class SecretMarks:
    """What `remember_secret_marks` recorded: each secret file's sha256, by its size (a file of
    a size no secret has is never compared further). By bytes, not by identity: a file of the
    candidate's may be given the inode number of a removed secret, and a moved secret keeps its
    bytes."""

    digests: dict[int, dict[str, Path]]

    def file_with_bytes(self, size: int, sha256: str) -> Path | None:
        """The secret file recorded with these bytes, or None."""
        return self.digests.get(size, {}).get(sha256)


def known_secret_marks() -> SecretMarks:
    """Every mark recorded (`remember_secret_marks`), of secrets gone from their path too: a
    moved one is exactly what they find. Fails closed, as `known_secrets` does: a record that
    cannot be read, or a line that is not a mark, stops the walk in one line."""
    record = key_dir() / MARKS_FILE
    digests: dict[int, dict[str, Path]] = {}
    for number, line in enumerate(_record_lines(record), start=1):
        size, _, rest = line.partition(" ")
        digest, _, where = rest.partition(" ")
        if not (size.isdigit() and _SHA256.fullmatch(digest) and Path(where).is_absolute()):
            raise ProvebenchError(
                "the record of the secrets every sandbox hides is garbled (a line that is not "
                "a mark); restore it from the seals and controls made",
                path=record,
                line=number,
            )
        digests.setdefault(int(size), {}).setdefault(digest, Path(where))
    return SecretMarks(digests)


def _record_lines(record: Path) -> list[str]:
    """A record's lines, split on "\n" alone (see `known_secrets`); none when it is missing."""
    try:
        text = record.read_text(encoding="utf-8", errors="surrogateescape")
    except FileNotFoundError:
        return []
    except OSError as error:
        raise ProvebenchError(
            f"cannot read the record of the secrets every sandbox hides: {error.strerror}",
            path=record,
        ) from None
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def known_secrets() -> list[Path]:
    """Every recorded secret that still exists, in the order recorded, each once.

    Fails closed: a record that cannot be read (but exists) or holds a line that is not an
    absolute path stops the launch in one line — garbled, it would otherwise read as "nothing
    to hide" and unhide every opening and control (pilot red team round 17, A8)."""
    record = key_dir() / RECORD_FILE
    found: list[Path] = []
    # One record a line, split on "\n" alone, as written: `splitlines` also splits on CR, the
    # form feed, U+2028 … which a folder name may hold, and a name cut in two was never hidden
    # (pilot red team round 18, A4: a seal under `vault\u2028/` had its opening read).
    lines = _record_lines(record)
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


__all__ = [
    "MARKS_FILE",
    "RECORD_FILE",
    "SecretMarks",
    "known_secret_marks",
    "known_secrets",
    "remember_secret",
    "remember_secret_marks",
]
