"""The laboratory's Drive: the present files and the order in which a listing returns them.

Event model `drive-events/1` (see `provebench.pilot._model`): a listing covers every folder and
returns present files in ascending `file_id` order (code-point order), a page at a time. A page
token names the last `file_id` served, so it stays valid whatever is added or removed meanwhile
(pilot §5 "addition of a file during scanning"): a file added below the cursor is not seen by
the ongoing traversal, one added above it is. An importer that lists once per cycle may miss a
file until the next cycle; one that re-lists until a full pass sees nothing new does not.
"""

from __future__ import annotations

from bisect import bisect_right, insort
from typing import Protocol


class ListedFile(Protocol):
    """What the Drive needs to know about a file: its immutable id."""

    @property
    def file_id(self) -> str: ...


class DriveState:
    """Files currently in the Drive; mutated only by the laboratory, never by an importer."""

    __slots__ = ("_known", "_pending", "_present", "_sorted_ids")

    def __init__(self) -> None:
        self._known: dict[str, ListedFile] = {}  # every file ever added, by id, latest metadata
        self._present: set[str] = set()
        self._sorted_ids: list[str] = []  # every known id, ascending; absent ones are skipped
        self._pending: list[str] = []  # added since the last `settle`, not yet in _sorted_ids

    def __len__(self) -> int:
        return len(self._present)

    def __contains__(self, file_id: object) -> bool:
        return file_id in self._present

    def get(self, file_id: str) -> ListedFile | None:
        return self._known[file_id] if file_id in self._present else None

    def known(self, file_id: str) -> ListedFile | None:
        return self._known.get(file_id)

    def add(self, file: ListedFile) -> None:
        """A new file (batched: call `settle` before listing)."""
        file_id = file.file_id
        if file_id not in self._known:
            self._pending.append(file_id)
        self._known[file_id] = file
        self._present.add(file_id)

    def add_now(self, file: ListedFile) -> None:
        """A new file that must be visible at once, in the middle of a traversal."""
        file_id = file.file_id
        if file_id not in self._known:
            insort(self._sorted_ids, file_id)
        self._known[file_id] = file
        self._present.add(file_id)

    def replace(self, file: ListedFile) -> None:
        """New metadata for a known file (rename, move); its place in the order is its id."""
        self._known[file.file_id] = file

    def remove(self, file_id: str) -> None:
        self._present.discard(file_id)

    def reappear(self, file_id: str) -> None:
        if file_id in self._known:
            self._present.add(file_id)

    def settle(self) -> None:
        """Merge the batched additions into the listing order (one merge of two sorted runs)."""
        if self._pending:
            self._pending.sort()
            self._sorted_ids.extend(self._pending)
            self._sorted_ids.sort()  # Timsort merges the two ascending runs in linear time
            self._pending.clear()

    def page(
        self, after_id: str | None, page_size: int
    ) -> tuple[list[str], list[ListedFile], str | None]:
        """Up to `page_size` present files with id > `after_id` (their ids and the files), and
        the id to continue after (None when no present file follows)."""
        ids = self._sorted_ids
        present = self._present
        index = 0 if after_id is None else bisect_right(ids, after_id)
        end = len(ids)
        page_ids = ids[index : index + page_size]
        index += len(page_ids)
        if len(present) != end:  # some known files are absent: skip them (C-level set checks)
            page_ids = self._present_only(page_ids)
            while index < end and len(page_ids) < page_size:
                window = ids[index : index + page_size - len(page_ids)]
                index += len(window)
                page_ids.extend(self._present_only(window))
            while index < end and ids[index] not in present:
                index += 1
        files = list(map(self._known.__getitem__, page_ids))
        return page_ids, files, (page_ids[-1] if index < end and page_ids else None)

    def _present_only(self, window: list[str]) -> list[str]:
        """`window` without the absent ids; most windows have none (one C-level check)."""
        present = self._present
        if present.issuperset(window):
            return window
        return [file_id for file_id in window if file_id in present]


__all__ = ["DriveState", "ListedFile"]
