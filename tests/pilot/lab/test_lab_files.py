"""`LabFile`, the Drive's compact form of a `DriveFile`, reads and dumps the same."""

from __future__ import annotations

import pytest

from provebench.pilot.corpus import CallMetadata, DriveFile
from provebench.pilot.lab import LabFile, lab_file


def _files() -> list[DriveFile]:
    base = {
        "file_id": "f1",
        "name": "in_4930123456_20261025T023000+0200_M007.mp3",
        "created_at_utc": "2026-10-25T00:30:00Z",
        "mime_type": "audio/mpeg",
        "size_bytes": 12,
        "duration_sec": 61.5,
        "folder_id": "fld-1",
    }
    return [
        DriveFile(**base),  # type: ignore[arg-type]
        DriveFile(**{**base, "duration_sec": None}),  # type: ignore[arg-type]
        DriveFile(
            **base,  # type: ignore[arg-type]
            metadata=CallMetadata(direction="out", phone=None, manager_code="M001"),
        ),
    ]


@pytest.mark.parametrize("file", _files())
def test_lab_file_has_the_model_fields_and_dump(file: DriveFile) -> None:
    compact = lab_file(file)
    assert compact.model_dump(mode="json") == file.model_dump(mode="json")
    assert list(compact.model_dump()) == list(file.model_dump())
    for name in DriveFile.model_fields:
        if name != "metadata":
            assert getattr(compact, name) == getattr(file, name)
    if file.metadata is not None:
        assert compact.metadata is not None
        assert compact.metadata.model_dump() == file.metadata.model_dump()
    assert lab_file(compact) is compact


def test_lab_file_is_immutable_and_copies_with_an_update() -> None:
    compact = lab_file(_files()[0])
    with pytest.raises(AttributeError):
        compact.name = "other"  # type: ignore[misc]
    renamed = compact.model_copy(update={"name": "x.mp3"})
    assert isinstance(renamed, LabFile)
    assert (renamed.name, compact.name) == ("x.mp3", _files()[0].name)
