"""A corpus folder, told by its content: it holds a corpus manifest (pilot §11; the pilot's
`corpus._folder.MANIFEST_FILE` and `CorpusManifest`, a test holds the two equal). Such a folder
holds an answer key (`expected_final_rows.csv`) and a fault schedule, and is never shown to a
candidate, whoever's corpus it is and wherever it lies (`_policy.never_shown`, and the walk of a
candidate's code, `_candidate.read_shown`).

Before, a sandbox hid a corpus by its place only — the run's own corpus, the laboratory's
recorded secrets — so an older matrix's output left inside a candidate's code folder
(`mc/corpora/control-5/…`) was shown to the next matrix's sandbox, its answer key and the other
jobs' registers read (pilot red team 28, A6). The manifest is what every corpus writer makes
last (`write_corpus`: it marks the corpus complete), so a folder holding one is a corpus."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

CORPUS_MANIFEST_FILE = "manifest.json"
# The fields every corpus manifest holds (`CorpusManifest`): its format and each file's sha256.
CORPUS_MANIFEST_FIELDS = ("corpus_format", "sha256")
# Far above any corpus manifest (a few files' digests); a larger file is not one.
_MAX_MANIFEST_BYTES = 1 << 20


def is_corpus_manifest(data: bytes) -> bool:
    """Whether `data` is a corpus manifest: a JSON object with a format and a digest table."""
    try:
        value = json.loads(data)
    except (ValueError, UnicodeDecodeError):
        return False
    format_field, digests_field = CORPUS_MANIFEST_FIELDS
    return (
        isinstance(value, dict)
        and isinstance(value.get(format_field), str)
        and isinstance(value.get(digests_field), dict)
    )


def holds_corpus_manifest(folder: Path | None, dir_fd: int | None = None) -> bool:
    """Whether the folder (`folder`, or the one open as `dir_fd`) holds a corpus manifest: a
    regular file by that name (no link followed) whose bytes are one."""
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
    where: str | Path = CORPUS_MANIFEST_FILE if folder is None else folder / CORPUS_MANIFEST_FILE
    try:
        fd = os.open(where, flags, dir_fd=dir_fd)
    except OSError:
        return False
    try:
        status = os.fstat(fd)
        if not stat.S_ISREG(status.st_mode) or status.st_size > _MAX_MANIFEST_BYTES:
            return False
        with os.fdopen(os.dup(fd), "rb") as handle:
            return is_corpus_manifest(handle.read(_MAX_MANIFEST_BYTES + 1))
    except OSError:
        return False
    finally:
        os.close(fd)


def corpus_folder_holding(real: Path) -> Path | None:
    """The corpus folder that is `real` (a real path) or holds it, nearest first; None if none."""
    for folder in (real, *real.parents):
        if holds_corpus_manifest(folder):
            return folder
    return None


__all__ = [
    "CORPUS_MANIFEST_FIELDS",
    "CORPUS_MANIFEST_FILE",
    "corpus_folder_holding",
    "holds_corpus_manifest",
    "is_corpus_manifest",
]
