"""The laboratory's in-memory form of a Drive file: compact and immutable.

The corpus loader validates every event into pydantic models (`DriveFile`, `CallMetadata`) —
that is the edge where input is checked. The Drive, which holds every file of a run at once,
keeps each one as a `LabFile` instead: a named tuple (no per-instance dict or fields set, about
a fifth of the model's memory) with the same attribute names, immutable like the frozen model,
and `model_dump`/`model_copy` for the readers that use those. Repeated short texts (mime type,
folder, metadata codes) are shared, not copied per file.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:  # types only: a sandboxed worker builds LabFiles without pydantic's models
    from provebench.pilot.corpus._model import CallMetadata, DriveFile


class LabMetadata(NamedTuple):
    """`CallMetadata`, as the Drive holds it."""

    direction: str | None
    phone: str | None
    manager_code: str | None

    def model_dump(self, *, mode: str = "python") -> dict[str, Any]:
        """The fields as `CallMetadata.model_dump` gives them (all JSON types already)."""
        return {"direction": self.direction, "phone": self.phone, "manager_code": self.manager_code}


class LabFile(NamedTuple):
    """`DriveFile`, as the Drive holds it (same fields, same order)."""

    file_id: str
    name: str
    created_at_utc: str
    mime_type: str
    size_bytes: int
    duration_sec: float | None
    folder_id: str
    metadata: LabMetadata | None

    def model_dump(self, *, mode: str = "python") -> dict[str, Any]:
        """The fields as `DriveFile.model_dump` gives them (all JSON types already)."""
        dumped: dict[str, Any] = dict(zip(self._fields, self, strict=True))
        dumped["metadata"] = None if self.metadata is None else self.metadata.model_dump()
        return dumped

    def model_copy(self, *, update: dict[str, Any] | None = None) -> LabFile:
        """A copy with `update` applied (a rename or move); the lab passes checked values."""
        return self._replace(**update) if update else self


def _shared(text: str | None) -> str | None:
    return None if text is None else sys.intern(text)


_new_tuple = tuple.__new__


def lab_file(file: DriveFile | LabFile) -> LabFile:
    """The Drive's form of a validated corpus file (a `LabFile` is returned as it is)."""
    if type(file) is LabFile:
        return file
    metadata: CallMetadata | None = file.metadata  # type: ignore[assignment]
    held_metadata = (
        None
        if metadata is None
        else _new_tuple(
            LabMetadata,
            (_shared(metadata.direction), metadata.phone, _shared(metadata.manager_code)),
        )
    )
    # tuple.__new__ directly: the named tuple's generated __new__ is a Python-level call.
    return _new_tuple(
        LabFile,
        (
            file.file_id,
            file.name,
            file.created_at_utc,
            sys.intern(file.mime_type),
            file.size_bytes,
            file.duration_sec,
            sys.intern(file.folder_id),
            held_metadata,
        ),
    )


# Here, not beside the gateway that serves it: a sandboxed worker builds the pages it is sent, and
# importing the gateway would import the rules, the record and the signing machinery into every
# sealed cycle (0.26 s of each one).
@dataclass(frozen=True, slots=True)
class FilePage:
    """One page of a Drive listing; `next_page_token` is None on the last page.

    `file_ids[i]` is `files[i].file_id`, handed out as well so that a traversal can track ids
    without touching every file object."""

    files: tuple[Any, ...]
    file_ids: tuple[str, ...]
    next_page_token: str | None


__all__ = ["FilePage", "LabFile", "LabMetadata", "lab_file"]
