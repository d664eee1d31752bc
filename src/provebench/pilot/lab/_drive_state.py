"""The laboratory's Drive: the present files and the order in which a listing returns them.

Event model `drive-events/2` (see `provebench.pilot.corpus._model`): a listing covers every folder
and returns present files in ascending `file_id` order (code-point order), a page at a time. A page
token names the last `file_id` served, so it stays valid whatever is added or removed meanwhile
(pilot §5 "addition of a file during scanning"): a file added below the cursor is not seen by
the ongoing traversal, one added above it is. An importer that lists once per cycle may miss a
file until the next cycle; one that re-lists until a full pass sees nothing new does not.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable
from typing import Any, Protocol

# The compiled merge (_listorder.c); None where the install had no C compiler, and for the tests
# of the Python road.
_merge_tail: Callable[[list[str], list[Any], int], bool] | None
try:
    from provebench.pilot.lab._listorder import merge_tail as _merge_tail
except ImportError:  # pragma: no cover - an install without a C compiler
    _merge_tail = None


class ListedFile(Protocol):
    """What the Drive needs to know about a file: its immutable id."""

    @property
    def file_id(self) -> str: ...


class DriveState:
    """Files currently in the Drive; mutated only by the laboratory, never by an importer."""

    __slots__ = (
        "_absent",
        "_absent_sorted",
        "_known",
        "_pending",
        "_present",
        "_sorted_files",
        "_sorted_ids",
    )

    def __init__(self) -> None:
        self._known: dict[str, ListedFile] = {}  # every file ever added, by id, latest metadata
        self._present: set[str] = set()
        self._sorted_ids: list[str] = []  # every known id, ascending; absent ones are skipped
        # The files of `_sorted_ids`, index for index: a page is two slices, not a dict lookup
        # per id (the reference lists every file at least twice a cycle, pilot §12).
        self._sorted_files: list[ListedFile] = []
        self._pending: list[str] = []  # added since the last `settle`, not yet in _sorted_ids
        # The known ids that are not present, and the same ascending (None: to be sorted again),
        # so that whether a page's stretch of ids holds one is a bisection, not a look-up of
        # each of its ids in `_present`. Sorted when a page is asked for, not at each change:
        # removals come between listings, however many there are.
        self._absent: set[str] = set()
        self._absent_sorted: list[str] | None = []

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
            self._known[file_id] = file  # not in the listing order until `settle`
        else:
            self._set_file(file)
        self._make_present(file_id)

    def add_now(self, file: ListedFile) -> None:
        """A new file that must be visible at once, in the middle of a traversal."""
        file_id = file.file_id
        if file_id not in self._known:
            index = bisect_right(self._sorted_ids, file_id)
            self._sorted_ids.insert(index, file_id)
            self._sorted_files.insert(index, file)
        self._set_file(file)
        self._make_present(file_id)

    def replace(self, file: ListedFile) -> None:
        """New metadata for a known file (rename, move); its place in the order is its id."""
        self._set_file(file)

    def remove(self, file_id: str) -> None:
        if file_id in self._present:
            self._present.discard(file_id)
            self._absent.add(file_id)
            self._absent_sorted = None

    def reappear(self, file_id: str) -> None:
        if file_id in self._known:
            self._make_present(file_id)

    def _make_present(self, file_id: str) -> None:
        if file_id not in self._present:
            self._present.add(file_id)
            if file_id in self._absent:
                self._absent.discard(file_id)
                self._absent_sorted = None

    def settle(self) -> None:
        """Merge the batched additions into the listing order, both lists in place: the runner's
        collector froze them at the end of the last cycle; new ones would be young, and looked
        through whole at the end of this one."""
        pending = self._pending
        if not pending:
            return
        pending.sort()
        ids, files = self._sorted_ids, self._sorted_files
        start = len(ids)
        ids.extend(pending)
        files.extend(map(self._known.__getitem__, pending))
        pending.clear()
        # Compiled: each new id placed among its neighbours and the stretches between moved as
        # blocks, touching no other file. Python: Timsort merges the two ascending runs, then
        # every file is looked up again — a few cache misses per file of the Drive, every cycle.
        if _merge_tail is None or not _merge_tail(ids, files, start):
            ids.sort()
            files[:] = map(self._known.__getitem__, ids)

    def _set_file(self, file: ListedFile) -> None:
        """Record `file` as the latest metadata of its id, in the listing order too."""
        file_id = file.file_id
        self._known[file_id] = file
        ids = self._sorted_ids
        index = bisect_left(ids, file_id)
        if index < len(ids) and ids[index] == file_id:
            self._sorted_files[index] = file

    def page(
        self, after_id: str | None, page_size: int
    ) -> tuple[list[str], list[ListedFile], str | None]:
        """Up to `page_size` present files with id > `after_id` (their ids and the files), and
        the id to continue after (None when no present file follows)."""
        ids, files = self._sorted_ids, self._sorted_files
        present, absent = self._present, self._absent_sorted
        if absent is None:
            absent = self._absent_sorted = sorted(self._absent)
        index = 0 if after_id is None else bisect_right(ids, after_id)
        end = len(ids)
        page_ids: list[str] = []
        page_files: list[ListedFile] = []
        while index < end and len(page_ids) < page_size:
            stop = index + page_size - len(page_ids)
            window = ids[index:stop]
            first_absent = bisect_left(absent, window[0])
            if first_absent == len(absent) or absent[first_absent] > window[-1]:
                page_ids.extend(window)  # no absent id in the window's stretch
                page_files.extend(files[index:stop])
            else:  # some known files are absent: skip them
                for offset, file_id in enumerate(window, start=index):
                    if file_id in present:
                        page_ids.append(file_id)
                        page_files.append(files[offset])
            index += len(window)
        if absent:
            while index < end and ids[index] not in present:
                index += 1
        return page_ids, page_files, (page_ids[-1] if index < end and page_ids else None)


__all__ = ["DriveState", "ListedFile"]
