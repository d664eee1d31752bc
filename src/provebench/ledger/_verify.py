"""`verify_ledger`: recompute the hash chain and name every problem found (pilot §6, §7, §15).

One streaming pass checks each entry's hash and its link to the entry before it and keeps only
small per-entry arrays (seq, line, two flags); the structure (missing, repeated, out-of-order
seq numbers) is analysed from those arrays afterwards. Only if some entry's content does not
match its hash is the file read a second time, to tell an edited entry from one that was moved
to another seq (entries renumbered after a deletion or an insertion, or swapped).
"""

from __future__ import annotations

import io
from array import array
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from provebench._errors import ProvebenchError
from provebench.ledger._entry import GENESIS_HASH, is_hash_hex
from provebench.ledger._ledger import Ledger
from provebench.ledger._moved import classify_content_mismatches
from provebench.ledger._report import ProblemKind, ProblemList, VerifyReport
from provebench.ledger._rows import (
    CheckedRow,
    jsonl_lines,
    jsonl_rows,
    ledger_missing_triggers,
    ledger_rows,
    sqlite_missing_triggers,
    sqlite_rows,
)
from provebench.ledger._schema import SQLITE_MAGIC, looks_like_sqlite

# Content mismatches kept for the second pass; beyond this they are reported as plain edits.
_MAX_MISMATCHES_ANALYSED = 100_000


@dataclass
class _Scan:
    seqs: array[int] = field(default_factory=lambda: array("q"))
    lines: array[int] = field(default_factory=lambda: array("q"))
    content_ok: bytearray = field(default_factory=bytearray)
    link_ok: bytearray = field(default_factory=bytearray)
    link_detail: dict[int, tuple[str, str]] = field(default_factory=dict)
    mismatches: list[CheckedRow] = field(default_factory=list)
    rows: int = 0
    head_seq: int | None = None
    head_hash: str | None = None
    expect_head_seq: int | None = None


def verify_ledger(
    path: str | Path,
    *,
    expect_head: str | None = None,
    expect_length: int | None = None,
    data: bytes | None = None,
) -> VerifyReport:
    """Check a ledger (SQLite file or JSONL export). Unreadable input is a ProvebenchError.

    Without `expect_head`/`expect_length` (recorded elsewhere, e.g. the pilot's run.json), a log
    cut short at the tail is indistinguishable from a shorter log; `tail_checked` says so.

    With `data` (the file's bytes as a caller read them once), only those bytes are checked and
    `path` only names them: nothing is opened (red team round 12, A2).
    """
    target = Path(path)
    if expect_head is not None and not is_hash_hex(expect_head):
        raise ProvebenchError("expected head must be 64 lowercase hex digits", field="expect_head")
    if expect_length is not None and expect_length < 0:
        raise ProvebenchError("expected length must be >= 0", field="expect_length")
    if data is not None:
        return _verify_held(target, data, expect_head, expect_length)
    if not target.is_file():
        raise ProvebenchError("ledger not found", path=target)
    try:
        _refuse_empty_file(target)
        is_sqlite = looks_like_sqlite(target)
    except OSError as error:
        raise ProvebenchError(f"cannot read ledger: {error.strerror}", path=target) from error
    read_rows: Callable[[], Iterator[CheckedRow]] = (
        (lambda: sqlite_rows(target)) if is_sqlite else (lambda: jsonl_rows(target))
    )
    missing = sqlite_missing_triggers(target) if is_sqlite else []
    return _verify_rows(target, is_sqlite, read_rows, missing, expect_head, expect_length)


def _verify_held(
    target: Path, data: bytes, expect_head: str | None, expect_length: int | None
) -> VerifyReport:
    if not data:
        raise ProvebenchError("empty file: not a provebench ledger or ledger export", path=target)
    if not data.startswith(SQLITE_MAGIC):
        return _verify_rows(
            target,
            False,
            lambda: jsonl_lines(io.BytesIO(data), target),
            [],
            expect_head,
            expect_length,
        )
    with Ledger.from_bytes(data, target) as ledger:
        return _verify_rows(
            target,
            True,
            lambda: ledger_rows(ledger),
            ledger_missing_triggers(ledger),
            expect_head,
            expect_length,
        )


def _verify_rows(
    target: Path,
    is_sqlite: bool,
    read_rows: Callable[[], Iterator[CheckedRow]],
    missing_triggers: list[str],
    expect_head: str | None,
    expect_length: int | None,
) -> VerifyReport:
    problems = ProblemList()
    for name in missing_triggers:
        problems.add("schema", f"append-only trigger {name} is missing: the schema was changed")
    scan = _scan(read_rows(), problems, expect_head)
    if scan.rows == 0 and expect_head is None and expect_length is None:
        # An empty log is evidence of nothing (pilot §6 "all cycles and errors are present"):
        # "intact" would be a vacuous pass. A recorded length 0 makes it a checked claim.
        raise ProvebenchError(
            "the ledger holds no entries: an empty log is evidence of nothing "
            "(--expect-length 0 checks one that was recorded as empty)",
            path=target,
        )
    if scan.mismatches:
        classify_content_mismatches(scan.mismatches, read_rows(), problems)
    duplicated = _structure(scan, problems)
    _links(scan, duplicated, problems)
    _tail(scan, problems, expect_head, expect_length)
    ordered = sorted(problems.items, key=lambda p: (p.seq is None, p.seq or 0, p.line or 0))
    return VerifyReport(
        path=str(target),
        source="sqlite" if is_sqlite else "jsonl",
        ok=problems.count == 0,
        length=scan.rows,
        head_seq=scan.head_seq,
        head_hash=scan.head_hash,
        tail_checked=expect_head is not None or expect_length is not None,
        expect_head=expect_head,
        expect_length=expect_length,
        problem_count=problems.count,
        problems=ordered,
    )


def _refuse_empty_file(path: Path) -> None:
    """A zero-byte file is neither a ledger nor an export: refused, never "intact: 0 entries"
    (SQLite would open it as an empty database, and an export of nothing is nothing)."""
    if path.stat().st_size == 0:
        raise ProvebenchError("empty file: not a provebench ledger or ledger export", path=path)


def _scan(rows: Iterator[CheckedRow], problems: ProblemList, expect_head: str | None) -> _Scan:
    scan = _Scan()
    previous_hash: str | None = GENESIS_HASH
    for row in rows:
        scan.rows += 1
        if row.recomputed is not None and not row.content_ok:
            # Edited, or moved to another seq: told apart by the second pass.
            if len(scan.mismatches) < _MAX_MISMATCHES_ANALYSED:
                scan.mismatches.append(row)
            else:
                problems.add(
                    "edited",
                    "content does not match its hash (entry edited or forged)",
                    seq=row.seq,
                    line=row.line,
                    expected=row.hash,
                    found=row.recomputed,
                )
        elif row.problem is not None:
            kind: ProblemKind = "edited" if row.problem_kind == "edited" else "malformed"
            problems.add(kind, row.problem, seq=row.seq, line=row.line)
        if row.hash is not None and row.hash == expect_head:
            scan.expect_head_seq = row.seq
        scan.head_seq, scan.head_hash = row.seq, row.hash
        if row.seq is None:
            previous_hash = None  # the malformed row is reported; the next link is not judged
            continue
        position = len(scan.seqs)
        scan.seqs.append(row.seq)
        scan.lines.append(row.line or 0)
        scan.content_ok.append(1 if row.content_ok else 0)
        linked = previous_hash is None or row.prev_hash == previous_hash
        scan.link_ok.append(1 if linked else 0)
        if not linked and previous_hash is not None:
            scan.link_detail[position] = (previous_hash, str(row.prev_hash))
        previous_hash = row.hash
    return scan


def _structure(scan: _Scan, problems: ProblemList) -> set[int]:
    """Missing, repeated and out-of-order seq numbers; returns the repeated ones."""
    seqs = scan.seqs
    if not seqs:
        return set()
    counts = Counter(seqs)
    unique = sorted(counts)
    gaps: list[tuple[int, int]] = []  # (first missing seq, seq that follows the gap)
    expected = 0
    for seq in unique:
        if seq > expected:
            gaps.append((expected, seq))
        expected = seq + 1
    if gaps:
        followers = {after for _, after in gaps}
        line_of: dict[int, int | None] = {}
        for i in range(len(seqs)):
            if seqs[i] in followers and seqs[i] not in line_of:
                line_of[seqs[i]] = scan.lines[i] or None
        for missing, after in gaps:
            span = f"seq {missing}" if after == missing + 1 else f"seq {missing}..{after - 1}"
            before = "the start" if missing == 0 else f"seq {missing - 1}"
            problems.add(
                "deleted",
                f"{span} missing: seq {after} follows {before}",
                seq=missing,
                line=line_of.get(after),
                expected=str(missing),
                found=str(after),
            )
    duplicated = {seq for seq, count in counts.items() if count > 1}
    for seq in sorted(duplicated):
        lines = [scan.lines[i] for i in range(len(seqs)) if seqs[i] == seq]
        where = ", ".join(str(n) for n in lines) if any(lines) else "several rows"
        problems.add(
            "inserted",
            f"seq {seq} appears {counts[seq]} times (lines {where}): an entry was inserted",
            seq=seq,
            line=lines[1] if any(lines) else None,
        )
    rank = [bisect_left(unique, seq) for seq in seqs]
    last = len(seqs) - 1

    def fits(i: int, j: int) -> bool:
        """Does position j follow position i in order (missing seq numbers aside)?"""
        if i < 0:
            return rank[j] == 0
        if j > last:
            return rank[i] == len(unique) - 1
        return rank[j] == rank[i] + 1

    misplaced = [
        seqs[i] not in duplicated and not fits(i - 1, i) and not fits(i, i + 1)
        for i in range(len(seqs))
    ]
    for i in range(len(seqs)):
        seq, line = seqs[i], scan.lines[i] or None
        follows = "the start" if i == 0 else f"seq {seqs[i - 1]}"
        if misplaced[i]:
            problems.add(
                "reordered",
                f"seq {seq} is out of order: found after {follows}",
                seq=seq,
                line=line,
            )
        elif (
            not fits(i - 1, i)
            and seq not in duplicated
            and (i == 0 or (not misplaced[i - 1] and seqs[i - 1] not in duplicated))
        ):
            problems.add(
                "reordered", f"order broken: seq {seq} follows {follows}", seq=seq, line=line
            )
    return duplicated


def _links(scan: _Scan, duplicated: set[int], problems: ProblemList) -> None:
    """A broken link between two consecutive, individually intact entries means a rewrite."""
    seqs, ok = scan.seqs, scan.content_ok
    for position, (expected, found) in sorted(scan.link_detail.items()):
        seq = seqs[position]
        line = scan.lines[position] or None
        if not ok[position] or seq in duplicated:
            continue
        if position == 0:
            if seq == 0:
                problems.add(
                    "broken_link",
                    "the first entry's prev_hash is not the genesis hash (another chain or format)",
                    seq=seq,
                    line=line,
                    expected=expected,
                    found=found,
                )
            continue
        before = seqs[position - 1]
        if before + 1 != seq or not ok[position - 1] or before in duplicated:
            continue
        problems.add(
            "broken_link",
            f"prev_hash is not the hash of seq {before}: seq {before} was rewritten and "
            "re-hashed, or this prev_hash was edited",
            seq=seq,
            line=line,
            expected=expected,
            found=found,
        )


def _tail(
    scan: _Scan, problems: ProblemList, expect_head: str | None, expect_length: int | None
) -> None:
    # The length the log claims is its highest seq + 1: a gap inside is reported as a deletion,
    # not as a short tail.
    length = max(scan.seqs) + 1 if scan.seqs else 0
    if expect_length is not None and expect_length != length:
        if expect_length > length:
            problems.add(
                "truncated",
                f"the log has {length} entries but {expect_length} were recorded: "
                f"seq {length}..{expect_length - 1} are missing at the tail",
                seq=length,
                expected=str(expect_length),
                found=str(length),
            )
        else:
            problems.add(
                "extended",
                f"the log has {length} entries but {expect_length} were recorded: "
                f"seq {expect_length}..{length - 1} were added after the recorded head",
                seq=expect_length,
                expected=str(expect_length),
                found=str(length),
            )
    if expect_head is not None and expect_head != scan.head_hash:
        if scan.expect_head_seq is not None:
            problems.add(
                "extended",
                f"the recorded head is seq {scan.expect_head_seq}; entries after it were added",
                seq=scan.expect_head_seq + 1,
                expected=expect_head,
                found=scan.head_hash,
            )
        else:
            problems.add(
                "truncated",
                "the recorded head hash is not in the log: the log was truncated or rewritten",
                seq=scan.head_seq,
                expected=expect_head,
                found=scan.head_hash,
            )


__all__ = ["verify_ledger"]
