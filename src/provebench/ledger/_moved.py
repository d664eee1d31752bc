"""Tell an edited entry from a moved one (the second verification pass; pilot §7, §14).

An entry whose content does not hash to its stored hash was either edited, or left intact but
placed at another seq (seq is part of the hash): renumbered after a deletion or an insertion,
or swapped with another entry. For each such entry we look for the seq it was recorded at:
the seq after its chain predecessor (the entry whose hash is its prev_hash), the seq before its
chain successor, or a small shift. A candidate counts only if the entry's hash recomputed at
that seq equals its stored hash, so a "moved" verdict is proven, never guessed.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from provebench.ledger._entry import GENESIS_HASH, hash_text, hashed_text
from provebench.ledger._report import ProblemKind, ProblemList
from provebench.ledger._rows import CheckedRow

# Shifts tried when the chain neighbours do not give the original seq (renumbering by a few).
_SMALL_SHIFTS = (1, -1, 2, -2, 3, -3, 4, -4)


@dataclass(frozen=True, slots=True)
class _Moved:
    row: CheckedRow
    seq: int
    recorded_seq: int

    @property
    def shift(self) -> int:
        return self.seq - self.recorded_seq


def classify_content_mismatches(
    mismatches: list[CheckedRow], rows: Iterator[CheckedRow], problems: ProblemList
) -> None:
    """Report each mismatching entry as moved (with its recorded seq) or as edited."""
    own_hashes = {row.hash for row in mismatches}
    wanted_predecessors = {row.prev_hash for row in mismatches}
    predecessor: dict[str, CheckedRow] = {}
    successor: dict[str, CheckedRow] = {}
    for row in rows:
        if row.hash is None or row.prev_hash is None:
            continue
        if row.hash in wanted_predecessors and row.hash not in predecessor:
            predecessor[row.hash] = row
        if row.prev_hash in own_hashes and row.prev_hash not in successor:
            successor[row.prev_hash] = row

    recorded_at: dict[str, int] = {}
    moved: list[_Moved] = []
    for row in mismatches:
        assert row.hash is not None and row.prev_hash is not None and row.seq is not None
        found = _recorded_seq(row, predecessor, successor, recorded_at)
        if found is None:
            problems.add(
                "edited",
                "content does not match its hash (entry edited or forged)",
                seq=row.seq,
                line=row.line,
                expected=row.hash,
                found=row.recomputed,
            )
            continue
        recorded_at[row.hash] = found
        moved.append(_Moved(row, row.seq, found))
    _report_moves(moved, problems)


def _recorded_seq(
    row: CheckedRow,
    predecessor: dict[str, CheckedRow],
    successor: dict[str, CheckedRow],
    recorded_at: dict[str, int],
) -> int | None:
    assert row.seq is not None and row.prev_hash is not None
    candidates: list[int] = []
    if row.prev_hash == GENESIS_HASH:
        candidates.append(0)
    before = predecessor.get(row.prev_hash)
    if before is not None and before.seq is not None and before.hash is not None:
        before_seq = before.seq if before.content_ok else recorded_at.get(before.hash)
        if before_seq is not None:
            candidates.append(before_seq + 1)
    after = successor.get(str(row.hash))
    if after is not None and after.seq is not None and after.content_ok:
        candidates.append(after.seq - 1)
    candidates.extend(row.seq + shift for shift in _SMALL_SHIFTS)
    for candidate in dict.fromkeys(candidates):
        if candidate < 0 or candidate == row.seq:
            continue
        assert row.kind is not None and row.payload_text is not None
        if hash_text(hashed_text(candidate, row.kind, row.payload_text, row.prev_hash)) == row.hash:
            return candidate
    return None


def _report_moves(moved: list[_Moved], problems: ProblemList) -> None:
    """Group runs of entries moved by the same shift; name the run by what explains it."""
    if not moved:
        return
    signs = {m.shift > 0 for m in moved}
    groups: list[list[_Moved]] = []
    for item in moved:
        previous = groups[-1][-1] if groups else None
        if previous is not None and previous.shift == item.shift and previous.seq + 1 == item.seq:
            groups[-1].append(item)
        else:
            groups.append([item])
    for group in groups:
        first, last = group[0], group[-1]
        shift = first.shift
        span = f"seq {first.seq}" if len(group) == 1 else f"seq {first.seq}..{last.seq}"
        recorded = (
            f"seq {first.recorded_seq}"
            if len(group) == 1
            else f"seq {first.recorded_seq}..{last.recorded_seq}"
        )
        kind: ProblemKind
        if len(signs) > 1:
            kind, why = "reordered", "entries were moved or swapped"
        elif shift > 0:
            kind, why = "inserted", f"renumbered up by {shift}: entries were inserted before them"
        else:
            kind, why = "deleted", f"renumbered down by {-shift}: entries before them were deleted"
        problems.add(
            kind,
            f"{span} hold the entries recorded at {recorded} ({why})",
            seq=first.seq,
            line=first.row.line,
            expected=str(first.recorded_seq),
            found=str(first.seq),
        )


__all__ = ["classify_content_mismatches"]
