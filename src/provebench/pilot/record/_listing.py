"""How a Drive listing page is written to the log, and how a reader gets its ids back.

Log format `drive.list/2` (run format `provebench.pilot.run/2`, docs/pilot-lab.md "The log"):
a `drive.list` entry's `result` records the page as `count`, `last_id`, `ids_sha256` (sha256 of
the page's ids joined by `\\n`) and `next_page_token`, not as the list of its ids. The ids are
not lost: a listing returns the present files after the token's id in ascending order (event
model `drive-events/2`), and every change to which files are present is itself in the log
(`events_applied`: `added`, `presence`), so a reader replays the present ids from the log alone,
cuts the same page and checks it against the digest. Why: the reference importer lists the whole
Drive at least twice per cycle (pilot §12), so the ids of a run's listings are its cycles times
its files — most of the log, of the hashing and of the export — while the information in them is
the present set at each moment, which the log already holds once.

A page whose ids contain `\\n` (the joined text would not tell them apart) is logged with its
ids as `file_ids`, as is any page a version-1 log holds; `ListingReplay` accepts both.

What the importer was shown can be less than the page served: the HTTP face's `q` filter and
`fields` mask answer with part of it (or no id at all). Such an entry carries `shown_ids`, the
ids the answer held, in page order; without it the answer showed the whole page. The page served
keeps the Drive replay and the pagination exact; `shown_ids` is what a reader credits as shown
(`ListingReplay.shown`; red team 26, H6).
"""

from __future__ import annotations

import hashlib
from bisect import bisect_right, insort
from collections.abc import Sequence
from typing import Any

LISTING_FORMAT = "drive.list/2"


def page_digest(file_ids: Sequence[str]) -> str:
    """sha256 of the ids joined by `\\n` (ids are exact str; see `listing_result`)."""
    return hashlib.sha256("\n".join(file_ids).encode("utf-8", "surrogatepass")).hexdigest()


def listing_result(file_ids: list[str], next_page_token: str | None) -> dict[str, Any]:
    """The `result` of a `drive.list` entry for a page (format `drive.list/2`)."""
    joined = "\n".join(file_ids)
    if file_ids and joined.count("\n") != len(file_ids) - 1:  # an id holds a newline
        return {"file_ids": file_ids, "next_page_token": next_page_token}
    return {
        "count": len(file_ids),
        "last_id": file_ids[-1] if file_ids else None,
        "ids_sha256": hashlib.sha256(joined.encode("utf-8", "surrogatepass")).hexdigest(),
        "next_page_token": next_page_token,
    }


def token_position(page_token: object) -> str | None:
    """The file_id a page token continues after (None: the start, or a token that is not one
    the lab hands out, which a listing would have refused)."""
    if not isinstance(page_token, str) or not page_token.startswith("k"):
        return None
    try:
        return bytes.fromhex(page_token[1:]).decode("utf-8")
    except (ValueError, UnicodeDecodeError):
        return None


class ListingReplay:
    """The Drive's present ids, replayed from a log in order; expands `drive.list` results.

    Feed it every entry of a run's log in seq order (`feed`); for a successful `drive.list` it
    returns the page's ids, taken from the entry itself (`file_ids`) or cut from the replayed
    Drive and checked against `count`, `last_id` and `ids_sha256`. A page that does not match
    is returned as None and named in `mismatches` (seq, reason): the log then does not prove
    what the importer was shown, and a reader must say so rather than guess."""

    __slots__ = ("_known", "_present", "_sorted", "mismatches")

    def __init__(self) -> None:
        self._sorted: list[str] = []  # every id ever added, ascending
        self._known: set[str] = set()
        self._present: set[str] = set()
        self.mismatches: list[tuple[int, str]] = []

    def feed(self, seq: int, kind: str, payload: dict[str, Any]) -> list[str] | None:
        if kind == "events_applied":
            self._apply(payload)
            return None
        if kind != "drive.list":
            return None
        result = payload.get("result")
        if not isinstance(result, dict):
            return None
        explicit = result.get("file_ids")
        if isinstance(explicit, list):
            return [str(file_id) for file_id in explicit]
        page = self._cut(token_position(payload.get("page_token")), result.get("count"))
        if page is None:
            self.mismatches.append((seq, "count is not a page size"))
            return None
        if (page[-1] if page else None) != result.get("last_id") or page_digest(page) != result.get(
            "ids_sha256"
        ):
            self.mismatches.append((seq, "the page does not match the Drive replayed from the log"))
            return None
        return page

    def shown(self, seq: int, payload: dict[str, Any], page: list[str]) -> list[str] | None:
        """The ids the answer to the served `page` showed: its `shown_ids`, else the page. Ids
        that are not the page's in its order are no account of an answer to it: None, and the
        entry is named in `mismatches` (a reader then fails closed)."""
        shown = payload.get("shown_ids")
        if shown is None:
            return page
        if isinstance(shown, list) and all(type(f) is str for f in shown):
            position = {file_id: index for index, file_id in enumerate(page)}
            at = [position.get(file_id, -1) for file_id in shown]
            if -1 not in at and at == sorted(set(at)):
                return list(shown)
        self.mismatches.append((seq, "shown_ids is not a part of the page in its order"))
        return None

    def _apply(self, payload: dict[str, Any]) -> None:
        added = payload.get("added")
        if isinstance(added, list):
            fresh = list(dict.fromkeys(str(f) for f in added if str(f) not in self._known))
            if payload.get("phase") == "before_scan":
                self._sorted.extend(fresh)
                self._sorted.sort()
            else:
                for file_id in fresh:
                    insort(self._sorted, file_id)
            self._known.update(fresh)
            self._present.update(fresh)
        presence = payload.get("presence")
        if isinstance(presence, list):
            for change in presence:
                if isinstance(change, list) and len(change) == 2:
                    what, file_id = change
                    if what == "removed":
                        self._present.discard(str(file_id))
                    elif what == "reappeared":
                        self._present.add(str(file_id))

    def _cut(self, after_id: str | None, count: object) -> list[str] | None:
        if type(count) is not int or count < 0:
            return None
        ids, present = self._sorted, self._present
        index = 0 if after_id is None else bisect_right(ids, after_id)
        page: list[str] = []
        while len(page) < count and index < len(ids):
            window = ids[index : index + count - len(page)]
            index += len(window)
            page.extend(
                window if present.issuperset(window) else [f for f in window if f in present]
            )
        return page


__all__ = ["LISTING_FORMAT", "ListingReplay", "listing_result", "page_digest", "token_position"]
