"""The capture folder `call-import-capture/1`: timestamped, pseudonymised snapshots of real Drive
metadata (pilot §2 shadow level, §9 "an immutable snapshot of events from the Drive adapter").

```
SNAPSHOTS/
├── capture.json            the manifest: format, pseudonym rule and key check, one entry per
│                           snapshot (file, capture time, folders, file count, sha256)
├── snapshot-00001.jsonl    one pseudonymised file per line (`DriveFile`), ascending file_id
└── snapshot-00002.jsonl    …
```

Appending: the snapshot is written under a temporary name, renamed into place, and only then is
`capture.json` replaced (atomically) by one that lists it. A crash leaves the folder as it was
before the capture (at most a snapshot file no manifest lists, which the next capture replaces
and every reader refuses to count). Capture times must increase; a capture made with another
pseudonymisation key is refused, because its pseudonyms would not match the earlier ones.

Reading (`read_capture`) verifies the manifest (format, order of times, no missing, altered or
unlisted snapshot) and yields each snapshot's files streaming, each line checked against the
`DriveFile` schema, strictly increasing file ids.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from provebench._canonical import canonical_json, compact_json, sha256_file, write_atomic
from provebench._errors import ProvebenchError, validation_failure
from provebench._paths import check_output_dir
from provebench.pilot.corpus import UTC_TIMESTAMP_PATTERN, DriveFile
from provebench.pilot.shadow._pseudonym import PSEUDONYM_VERSION

CAPTURE_FORMAT = "call-import-capture/1"
CAPTURE_MANIFEST = "capture.json"
_SNAPSHOT_NAME = re.compile(r"snapshot-([0-9]{5})\.jsonl")
MAX_SNAPSHOTS = 99_999
_STRICT = ConfigDict(extra="forbid", frozen=True, strict=True)


class SnapshotEntry(BaseModel):
    model_config = _STRICT

    file: str
    captured_at: str = Field(pattern=UTC_TIMESTAMP_PATTERN)
    folders: list[str]  # pseudonymised; empty: every folder the account sees
    files: int = Field(ge=0)
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")


class PseudonymRecord(BaseModel):
    model_config = _STRICT

    rule: str
    key_check: str


class CaptureManifest(BaseModel):
    model_config = _STRICT

    format: str
    pseudonym: PseudonymRecord
    snapshots: list[SnapshotEntry]


def snapshot_name(index: int) -> str:
    return f"snapshot-{index:05d}.jsonl"


def check_appendable(folder: Path, *, key_check: str, captured_at: str) -> CaptureManifest:
    """The manifest a new snapshot would extend (an empty one for a new folder), or the one-line
    reason it cannot: checked before the Drive is read, and again when writing."""
    check_output_dir(folder)
    manifest_path = folder / CAPTURE_MANIFEST
    if manifest_path.exists():
        manifest = load_manifest(folder)
    else:
        present = folder.iterdir() if folder.is_dir() else iter(())
        unexpected = sorted(p.name for p in present if not p.name.startswith("."))
        if any(not _SNAPSHOT_NAME.fullmatch(name) for name in unexpected):
            raise ProvebenchError(
                "not a capture folder (files but no capture.json)", path=folder, field="--out"
            )
        manifest = CaptureManifest(
            format=CAPTURE_FORMAT,
            pseudonym=PseudonymRecord(rule=PSEUDONYM_VERSION, key_check=key_check),
            snapshots=[],
        )
    if manifest.pseudonym.key_check != key_check:
        raise ProvebenchError(
            "this key is not the one the earlier snapshots were pseudonymised with",
            path=manifest_path,
            field="pseudonym.key_check",
        )
    if manifest.snapshots and captured_at <= manifest.snapshots[-1].captured_at:
        raise ProvebenchError(
            f"capture time {captured_at} is not after the last snapshot's "
            f"{manifest.snapshots[-1].captured_at}",
            path=manifest_path,
            field=f"snapshots[{len(manifest.snapshots) - 1}].captured_at",
        )
    return manifest


def append_snapshot(
    folder: Path,
    files: list[DriveFile],
    *,
    captured_at: str,
    folders: list[str],
    key_check: str,
) -> SnapshotEntry:
    """Add one snapshot (already pseudonymised) to the capture folder, all or nothing."""
    manifest = check_appendable(folder, key_check=key_check, captured_at=captured_at)
    folder.mkdir(parents=True, exist_ok=True)
    manifest_path = folder / CAPTURE_MANIFEST
    index = len(manifest.snapshots) + 1
    if index > MAX_SNAPSHOTS:
        raise ProvebenchError(f"at most {MAX_SNAPSHOTS} snapshots", path=manifest_path)
    ordered = sorted(files, key=lambda f: f.file_id)
    for before, after in itertools.pairwise(ordered):
        if before.file_id == after.file_id:
            raise ProvebenchError(
                "the Drive listed one file twice", field=f"file_id {after.file_id}"
            )
    name = snapshot_name(index)
    text = "".join(compact_json(f) + "\n" for f in ordered)
    write_atomic(folder / name, text)
    entry = SnapshotEntry(
        file=name,
        captured_at=captured_at,
        folders=sorted(folders),
        files=len(ordered),
        sha256=sha256_file(folder / name),
    )
    updated = manifest.model_copy(update={"snapshots": [*manifest.snapshots, entry]})
    write_atomic(manifest_path, canonical_json(updated))  # last: the snapshot now counts
    return entry


def load_manifest(folder: Path) -> CaptureManifest:
    path = folder / CAPTURE_MANIFEST
    if not path.is_file():
        raise ProvebenchError("not a capture folder: capture.json is missing", path=folder)
    try:
        manifest = CaptureManifest.model_validate_json(path.read_bytes())
    except ValidationError as error:
        raise validation_failure(error, path=path) from None
    if manifest.format != CAPTURE_FORMAT:
        raise ProvebenchError(
            f"format {manifest.format}, this build reads {CAPTURE_FORMAT}",
            path=path,
            field="format",
        )
    if manifest.pseudonym.rule != PSEUDONYM_VERSION:
        raise ProvebenchError(
            f"pseudonymised under {manifest.pseudonym.rule}, this build applies "
            f"{PSEUDONYM_VERSION}",
            path=path,
            field="pseudonym.rule",
        )
    for index, entry in enumerate(manifest.snapshots):
        if entry.file != snapshot_name(index + 1):
            raise ProvebenchError(
                f"expected {snapshot_name(index + 1)}", path=path, field=f"snapshots[{index}].file"
            )
        if index and entry.captured_at <= manifest.snapshots[index - 1].captured_at:
            raise ProvebenchError(
                "snapshots out of time order: not after the snapshot before",
                path=path,
                field=f"snapshots[{index}].captured_at",
            )
    return manifest


def read_capture(folder: Path) -> CaptureManifest:
    """The verified manifest of a capture folder: every snapshot present, unaltered, listed."""
    manifest = load_manifest(folder)
    listed = {entry.file for entry in manifest.snapshots}
    for path in sorted(folder.iterdir()):
        if path.name == CAPTURE_MANIFEST or path.name.startswith("."):
            continue
        if path.name not in listed:
            raise ProvebenchError(
                "a file the manifest does not list (an interrupted capture or an addition)",
                path=path,
            )
    for index, entry in enumerate(manifest.snapshots):
        path = folder / entry.file
        if not path.is_file() or path.is_symlink():
            raise ProvebenchError(
                "a listed snapshot is missing", path=path, field=f"snapshots[{index}].file"
            )
        if sha256_file(path) != entry.sha256:
            raise ProvebenchError(
                "sha256 differs from capture.json (the snapshot was altered)",
                path=path,
                field="sha256",
            )
    return manifest


def snapshot_files(folder: Path, entry: SnapshotEntry) -> Iterator[DriveFile]:
    """The files of one snapshot, each line checked, in strictly increasing file_id order."""
    path = folder / entry.file
    validate = DriveFile.model_validate_json
    previous: str | None = None
    count = 0
    with path.open("rb") as handle:
        for line_number, raw in enumerate(handle, start=1):
            try:
                file = validate(raw, strict=True)
            except ValidationError as error:
                raise validation_failure(error, path=path, line=line_number) from None
            if previous is not None and file.file_id <= previous:
                raise ProvebenchError(
                    "file ids must increase (one line per file, sorted)",
                    path=path,
                    line=line_number,
                    field="file_id",
                )
            previous = file.file_id
            count += 1
            yield file
    if count != entry.files:
        raise ProvebenchError(
            f"{count} files, capture.json says {entry.files}", path=path, field="files"
        )


__all__ = [
    "CAPTURE_FORMAT",
    "CAPTURE_MANIFEST",
    "CaptureManifest",
    "SnapshotEntry",
    "append_snapshot",
    "check_appendable",
    "load_manifest",
    "read_capture",
    "snapshot_files",
    "snapshot_name",
]
