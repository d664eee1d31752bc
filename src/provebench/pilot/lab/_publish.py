"""The published files of a run, all derived from the ledger alone (pilot §9).

`register.csv` is the confirmed register as the Sheets adapter presents it: every confirmed row,
ordered by the published rule `register-order/1` (`presented_order_key`; a stable sort, so
repeated rows stay in confirmation order), with exactly the columns of the corpus's
`expected_final_rows.csv` (row format `register-row/1`), so the published final-state scorer
judges it as it is. Why sorted: the register is append-only and an importer may not rewrite
confirmed rows (pilot §3), so a global order across cycles can only be kept by the register
itself; the order in which the importer appended its rows stays in the log, where the evaluator
judges it (docs/pilot-evaluator.md, "Order correctness").

`diagnostics.jsonl` is what the importer said; `ledger.jsonl` the log.
`run.json` comes last: a run folder without it is incomplete.
"""

from __future__ import annotations

import csv
import hashlib
import json
import re
import stat
import sys
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from provebench._canonical import (
    atomic_writer,
    canonical_json,
    compact_json,
    still_written,
    write_atomic,
    written_sha256,
)
from provebench._errors import ProvebenchError
from provebench.ledger import Ledger
from provebench.ledger._entry import export_line, hashed_text
from provebench.pilot.lab._errors import TEMPORARY_ERRORS
from provebench.pilot.lab._held_files import (
    read_closed_log,
    read_committed_work,
    still_holds,
    still_listed,
)
from provebench.pilot.record._chain import register_chain
from provebench.pilot.record._rundir import (
    CHECKPOINT_DIR,
    DIAGNOSTICS_FILE,
    EVALUATION_OUTPUTS,
    IDENTITY_FILE,
    LEDGER_EXPORT_FILE,
    LEDGER_FILE,
    REGISTER_FILE,
    RUN_ENVELOPE_FILE,
    RUN_FORMAT,
    RUN_RECORD_FILE,
    WORK_DIR,
    RunDir,
)
from provebench.pilot.record._work_digest import EMPTY_WORK_SHA256, WorkListing
from provebench.pilot.rules._rows import REGISTER_COLUMNS, presented_order_key

API_CALL_KINDS = ("drive.list", "drive.get", "sheets.append", "sheets.read_confirmed")
TEMPORARY_CODES = frozenset(error.code for error in TEMPORARY_ERRORS.values())
_STATUS_INDEX = REGISTER_COLUMNS.index("status")
_SHARED_CELLS = frozenset(
    REGISTER_COLUMNS.index(c) for c in ("direction", "manager_code", "manager_name", "status")
)
_ERROR_KEY = '"error":'


@dataclass(frozen=True)
class PublishedRecord:
    """The run record as this process built and wrote it, with the sha256 of its bytes."""

    record: dict[str, Any]
    sha256: str


def publish_run(
    rundir: RunDir,
    ledger: Ledger,
    *,
    identity: dict[str, Any],
    crash_hook: Callable[[str], None],
    wall_time_sec: float,
    resumed: bool,
    work: WorkListing,
) -> PublishedRecord:
    """Write the run's published files and run.json from the log this process committed.

    The log is read once, in one read transaction, through `Ledger.held_rows`: every entry
    re-hashed and linked, ending exactly at the head this process committed last (or, for a
    resume, verified and then extended) — a log someone else wrote, in place or whole, is
    refused before anything is signed (red team round 10, A1/A7); the export is written in
    the same pass. The files the laboratory signs are checked against what it wrote: its
    identity from memory, work/ and the last snapshot against `work` (the listing it kept in
    memory since the last commit) and the log's last `work_sha256`, no SQLite companion left
    after the log is closed (A4, A8, A9). Each file it signs but did not derive here is read
    once, checked from the bytes read and listed by their digest, and checked again on disk
    just before the signature (red team round 12, A5/A13: `_held_files.py`)."""
    held = ledger.held_head
    if held is None:
        raise ProvebenchError("the laboratory publishes only a log it holds", path=ledger.path)
    counts: Counter[str] = Counter()
    retries = 0
    last_failed: str | None = None
    cycles = 0
    register_rows = 0
    register_sha256 = register_chain("", [])
    work_sha256: object = EMPTY_WORK_SHA256
    with (
        ledger.reading(),
        atomic_writer(rundir.path(REGISTER_FILE)) as register_out,
        atomic_writer(rundir.path(DIAGNOSTICS_FILE)) as diagnostics_out,
        atomic_writer(rundir.path(LEDGER_EXPORT_FILE)) as export_out,
    ):
        writer = csv.writer(register_out, lineterminator="\n")
        writer.writerow(REGISTER_COLUMNS)
        cycle_rows: list[list[str]] = []
        confirmed_rows: list[tuple[str, ...]] = []
        cycle = 0
        for seq, kind, text, prev_hash, entry_hash in ledger.held_rows():
            export_out.write(export_line(entry_hash, hashed_text(seq, kind, text, prev_hash)))
            export_out.write("\n")
            counts[kind] += 1
            if seq == 0:
                _refuse_other_identity(kind, _payload(seq, text, ledger), identity, ledger)
            if kind in API_CALL_KINDS:
                # A retry: the same operation called right after it answered a temporary error.
                retries += kind == last_failed
                # In canonical JSON the bytes `"error":` occur only as an object key, so a
                # payload without them has no error (most listings: not parsed at all).
                failed = _ERROR_KEY in text and (
                    _payload(seq, text, ledger).get("error", {}).get("code") in TEMPORARY_CODES
                )
                last_failed = kind if failed else None
                if kind != "sheets.append":
                    continue
            if kind == "sheets.append":
                payload = _payload(seq, text, ledger)
                if payload.get("applied"):
                    cycle_rows.extend(payload["rows"])
            elif kind == "diagnostics":
                line = {"cycle": cycle, "seq": seq, **_payload(seq, text, ledger)}
                diagnostics_out.write(compact_json(line) + "\n")
            elif kind == "cycle_started":
                cycle = int(_payload(seq, text, ledger)["cycle"])
            elif kind == "cycle_confirmed":
                payload = _payload(seq, text, ledger)
                status = payload["status"]
                full_rows = [
                    [*row[:_STATUS_INDEX], status, *row[_STATUS_INDEX:]] for row in cycle_rows
                ]
                # The register is what the log's appends say; the confirmation's hash must agree.
                register_sha256 = register_chain(register_sha256, full_rows)
                if register_sha256 != payload["register_sha256"]:
                    raise ProvebenchError(
                        f"cycle {payload['cycle']}: confirmed register hash does not match the "
                        "rows appended in the log",
                        path=ledger.path,
                    )
                # Held until the sort: cells from small vocabularies are shared, not copied.
                confirmed_rows.extend(map(_compact_row, full_rows))
                cycle_rows = []
                cycles = int(payload["cycle"])
                register_rows = int(payload["register_rows"])
                work_sha256 = payload.get("work_sha256")
        confirmed_rows.sort(key=presented_order_key)
        _write_rows(register_out, writer, confirmed_rows)
    crash_hook("publish:after_register")
    crash_hook("publish:after_ledger_export")
    length, head_hash = held[0] + 1, held[1]
    ledger.close()  # checkpoints the WAL into ledger.sqlite, so its hash is of the whole log
    # A verdict or report beside an unfinished run describes that state, not this run: removed,
    # so neither is listed here nor left to be mistaken for this run's (docs/pilot-lab.md).
    for name in (*EVALUATION_OUTPUTS, RUN_ENVELOPE_FILE):
        rundir.path(name).unlink(missing_ok=True)
    _refuse_ledger_companions(rundir)
    _refuse_foreign_files(rundir, cycles)
    # Every file signed below is read ONCE, checked from the bytes read, and listed by their
    # digest; none is hashed again by path (red team round 12, A5/A13: a forged log renamed
    # over ledger.sqlite, or a file planted in work/, after the check was signed).
    files = {LEDGER_FILE: _refuse_replaced_ledger(rundir, length, head_hash)}
    identity_bytes = canonical_json(identity).encode("utf-8")
    _refuse_changed_identity(rundir, identity_bytes)
    files.update(_refuse_unrecorded_work(rundir, cycles, work_sha256, work))
    # The identity the laboratory wrote, from memory: not whatever the file holds now (A8).
    files[IDENTITY_FILE] = hashlib.sha256(identity_bytes).hexdigest()
    files[_pointer_name(rundir)] = hashlib.sha256(rundir.pointer_bytes(cycles + 1)).hexdigest()
    # The files it derived from the log, by the digests of the bytes it wrote, never read back
    # (red team round 11, A2: a diagnostics.jsonl renamed over the written one was signed).
    # Checked on disk once, below, just before the signature.
    for name in _DERIVED_FILES:
        files[name] = _written(rundir.path(name))
    record = {
        "format": RUN_FORMAT,
        "complete": True,
        "agent": identity["agent"],
        "isolation": identity["isolation"],
        "rule_versions": identity["rule_versions"],
        "corpus": identity["corpus"],
        "cycles": cycles,
        "register": {"rows": register_rows, "chain_sha256": register_sha256},
        "ledger": {"length": length, "head_hash": None if length == 0 else head_hash},
        "files_sha256": dict(sorted(files.items())),
        "non_scoring": {
            "api_calls": sum(counts[kind] for kind in API_CALL_KINDS),
            "entries_by_kind": dict(sorted(counts.items())),
            "faults_injected": counts["fault_injected"],
            "retries": retries,
            "refused_attempts": counts["refused"],
            "resumed": resumed,
            "wall_time_sec": round(wall_time_sec, 3),
        },
    }
    crash_hook("publish:before_run_json")
    data = canonical_json(record).encode("utf-8")
    write_atomic(rundir.path(RUN_RECORD_FILE), data)
    # Last, before the signature: each file it wrote still holds the bytes it wrote, or nothing
    # is signed (one line naming the file).
    try:
        for name in (*_DERIVED_FILES, RUN_RECORD_FILE):
            still_written(rundir.path(name))
        # And every file it read and checked still holds the bytes whose digest is listed:
        # the log, identity.json, the pointer, work/ and the snapshot, entry for entry (A5/A13).
        for name in (LEDGER_FILE, IDENTITY_FILE, _pointer_name(rundir)):
            still_holds(rundir.path(name), files[name])
        for folder, shown in _work_folders(rundir, cycles):
            still_listed(folder, work, shown=shown, said=f"after cycle {cycles}")
    except ProvebenchError:
        # No run.json without its signature: the folder must not look complete.
        rundir.path(RUN_RECORD_FILE).unlink(missing_ok=True)
        raise
    # The digest of the bytes written, taken here: the signature covers this record as this
    # process built it, never run.json read back from disk (docs/attestation.md).
    return PublishedRecord(record, hashlib.sha256(data).hexdigest())


def _written(path: Path) -> str:
    digest = written_sha256(path)
    if digest is None:  # every derived file is written above, in this process
        raise ProvebenchError("the laboratory did not write this file in this run", path=path)
    return digest


def _refuse_other_identity(
    kind: str, payload: dict[str, Any], identity: dict[str, Any], ledger: Ledger
) -> None:
    """The record names the run this process ran; its log must begin with that run (red team
    round 10, A3: a log of another candidate was published under this run's identity, and
    signed, before the evaluator caught it)."""
    if kind != "run_started" or payload.get("identity") != identity:
        raise ProvebenchError(
            "the log's first entry is not this run's run_started (another run's identity); "
            "the laboratory signs nothing for it",
            path=ledger.path,
        )


def _refuse_ledger_companions(rundir: RunDir) -> None:
    """Closing the log checkpoints its WAL and removes `-wal` and `-shm`; a WAL log never has a
    `-journal`. One left now was not left by this process's log (red team round 10, A9: bytes
    planted as `ledger.sqlite-journal` were signed) — or another process holds the log open:
    either way it is refused, never signed, never removed (it may be evidence)."""
    for suffix in _LEDGER_COMPANIONS:
        companion = rundir.path(f"{LEDGER_FILE}{suffix}")
        if companion.exists() or companion.is_symlink():
            raise ProvebenchError(
                f"{companion.name} is in the run folder after the laboratory closed its log "
                "(a file it did not leave there, or another process holds the log open); the "
                "laboratory signs only its own files; use a new directory",
                path=companion,
            )


def _refuse_replaced_ledger(rundir: RunDir, length: int, head_hash: str) -> str:
    """The file signed as ledger.sqlite must still be the log this process closed, read once:
    every entry re-hashed from the bytes read and linked to the head it committed last (a file
    renamed over it after the close, or entries edited in place with their stored hashes kept,
    is refused: red team round 12, A5). Returns the digest of the bytes read and checked."""
    return read_closed_log(rundir.ledger_path, length, head_hash)


def _refuse_changed_identity(rundir: RunDir, identity_bytes: bytes) -> None:
    """identity.json must still hold the bytes the laboratory wrote (red team round 10, A8: a
    rewritten identity naming another candidate was signed and published)."""
    path = rundir.path(IDENTITY_FILE)
    try:
        held = path.read_bytes() if stat.S_ISREG(path.lstat().st_mode) else None
    except OSError:
        held = None
    if held != identity_bytes:
        raise ProvebenchError(
            "identity.json is not what the laboratory wrote for this run (changed or replaced "
            "while it ran); the laboratory signs only its own files; use a new directory",
            path=path,
        )


def _refuse_unrecorded_work(
    rundir: RunDir, cycles: int, work_sha256: object, work: WorkListing
) -> dict[str, str]:
    """work/ and the last checkpoint snapshot (the start of the cycle after the last) must be
    what the log's last commit recorded (`work_sha256`) and, entry for entry, the listing the
    laboratory kept in memory since that commit; the pointer what the laboratory wrote: a file
    planted in either after the last commit would otherwise be signed as the run's (red team
    round 10, A4). Each folder is read once; the digests returned — by path from the run
    folder — are those of that read (red team round 12, A13: a file planted after the check and
    before a second listing was signed)."""
    if not isinstance(work_sha256, str):
        raise ProvebenchError(
            f"the log records no work-directory digest for cycle {cycles}; the laboratory "
            "cannot check work/ and signs nothing",
            path=rundir.ledger_path,
        )
    files: dict[str, str] = {}
    for folder, shown in _work_folders(rundir, cycles):
        read = read_committed_work(
            folder, work, work_sha256, shown=shown, said=f"after cycle {cycles}"
        )
        files.update((f"{shown}/{relative}", digest) for relative, digest in read.items())
    pointer = rundir.snapshot_pointer
    try:
        held = pointer.read_bytes() if stat.S_ISREG(pointer.lstat().st_mode) else None
    except OSError:
        held = None
    if held != rundir.pointer_bytes(cycles + 1):
        raise ProvebenchError(
            "the checkpoint pointer is not what the laboratory wrote after the last cycle",
            path=pointer,
        )
    return files


def _work_folders(rundir: RunDir, cycles: int) -> list[tuple[Path, str]]:
    """work/ and the last snapshot, each with its path from the run folder."""
    folders = (rundir.work_dir, rundir.snapshot_dir(cycles + 1))
    return [(folder, folder.relative_to(rundir.root).as_posix()) for folder in folders]


def _pointer_name(rundir: RunDir) -> str:
    return rundir.snapshot_pointer.relative_to(rundir.root).as_posix()


# What the laboratory writes at the top of a run folder (docs/pilot-lab.md, "The run directory"):
# the rest of it is work/ (the importer's files, bound by the log's work digests) and
# checkpoint/ (its snapshots and their pointer). SQLite's companions of the log are gone once the
# laboratory has closed it (`_refuse_ledger_companions`).
_LEDGER_COMPANIONS = ("-wal", "-shm", "-journal")
_LAB_FILES = frozenset(
    {
        IDENTITY_FILE,
        LEDGER_FILE,
        LEDGER_EXPORT_FILE,
        REGISTER_FILE,
        DIAGNOSTICS_FILE,
    }
)
_LAB_FOLDERS = frozenset({WORK_DIR, CHECKPOINT_DIR})
# What `publish_run` writes from the log, signed by the digests of the bytes it wrote.
_DERIVED_FILES = (REGISTER_FILE, DIAGNOSTICS_FILE, LEDGER_EXPORT_FILE)


def _remove_writer_leftovers(folder: Path, names: Iterable[str]) -> None:
    """Remove the atomic writer's temporary files of `names` in `folder` (regular files only,
    never through a link) that an attempt killed mid-write left behind."""
    if not folder.is_dir() or folder.is_symlink():
        return
    alternatives = "|".join(re.escape(name) for name in sorted(names))
    pattern = re.compile(rf"^\.({alternatives})\.[0-9a-f]{{32}}\.tmp$")
    for entry in folder.iterdir():
        if pattern.match(entry.name) and stat.S_ISREG(entry.lstat().st_mode):
            entry.unlink()


def _refuse_foreign_files(rundir: RunDir, cycles: int) -> None:
    """The laboratory signs only files it wrote (red team round 9, A4): a file someone put in
    the run folder — `CERTIFIED.json`, `extra/x.txt` — would otherwise be listed in run.json's
    `files_sha256`, signed, and copied into a published bundle. Refused in one line naming it,
    before run.json is written. Its own set is exact (red team round 11, A1/A1b): at the top its
    files and work/ and checkpoint/; in checkpoint/ the pointer and the one snapshot the pointer
    names (every other was dropped when the pointer moved); a hidden name is refused like any
    other — the laboratory's writers leave none behind, and a file inside a hidden folder would
    otherwise be listed and signed. work/ and the snapshot are the importer's, bound entry by
    entry to the log's `work_sha256` (`_refuse_unrecorded_work`).

    One exception: the temporary file of a write of one of its own files that a killed attempt
    left (`.NAME.<32 hex>.tmp`, the atomic writer's name) is removed, not refused: the write it
    belonged to is redone by this attempt and nothing in it is ever signed. run.json's own is
    one of them: a kill while run.json is written leaves no run.json, so the run resumes here."""
    _remove_writer_leftovers(rundir.root, _LAB_FILES | {RUN_RECORD_FILE})
    _remove_writer_leftovers(rundir.checkpoint_dir, {rundir.snapshot_pointer.name})
    foreign = [
        entry
        for entry in sorted(rundir.root.iterdir())
        if not (entry.name in _LAB_FILES and stat.S_ISREG(entry.lstat().st_mode))
        and not (entry.name in _LAB_FOLDERS and stat.S_ISDIR(entry.lstat().st_mode))
    ]
    checkpoint = rundir.checkpoint_dir
    if checkpoint.is_dir() and not checkpoint.is_symlink():
        snapshot = rundir.snapshot_dir(cycles + 1).name
        foreign += [
            entry
            for entry in sorted(checkpoint.iterdir())
            if not (
                entry.name == rundir.snapshot_pointer.name and stat.S_ISREG(entry.lstat().st_mode)
            )
            and not (entry.name == snapshot and stat.S_ISDIR(entry.lstat().st_mode))
        ]
    if foreign:
        raise ProvebenchError(
            f"{len(foreign)} file(s) in the run folder the laboratory did not write, the first: "
            f"{foreign[0].relative_to(rundir.root).as_posix()!r}; the laboratory signs only its "
            "own files: remove it and run the same command again (the run resumes and publishes)",
            path=rundir.root,
        )


def _payload(seq: int, text: str, ledger: Ledger) -> dict[str, Any]:
    payload = json.loads(text)
    if type(payload) is not dict:
        raise ProvebenchError(
            f"seq {seq}: stored payload is not a JSON object (run `provebench log verify`)",
            path=ledger.path,
        )
    return payload


def _compact_row(row: list[str]) -> tuple[str, ...]:
    if len(row) == _WIDTH:
        intern = sys.intern  # the shared columns, unrolled: a register row is 9 cells
        return (row[0], row[1], intern(row[2]), intern(row[3]), intern(row[4]), *row[5:8],
                intern(row[8]))  # fmt: skip
    return tuple([sys.intern(cell) if i in _SHARED_CELLS else cell for i, cell in enumerate(row)])


_WIDTH = len(REGISTER_COLUMNS)
# Besides the delimiter (counted), what makes csv's QUOTE_MINIMAL quote a cell.
_QUOTE_TRIGGERS = ('"', "\n", "\r")
_LINES_PER_WRITE = 8192
assert sorted(_SHARED_CELLS) == [2, 3, 4, 8] and _WIDTH == 9  # `_compact_row`'s unrolled form


def _write_rows(handle: IO[str], writer: Any, rows: list[tuple[str, ...]]) -> None:
    """`writer.writerows(rows)`, byte for byte (QUOTE_MINIMAL, `\n` line ends): a row none of
    whose cells holds a comma, a quote, CR or LF is written by csv as its cells joined by commas,
    so it is joined here; any other row goes through `writer` itself (a test holds the two
    together on hostile cells)."""
    lines: list[str] = []
    for row in rows:
        try:
            line = ",".join(row)
        except TypeError:
            line = ""
        if (
            len(row) == _WIDTH
            and line.count(",") == _WIDTH - 1
            and not any(trigger in line for trigger in _QUOTE_TRIGGERS)
        ):
            lines.append(line)
            if len(lines) >= _LINES_PER_WRITE:
                handle.write("\n".join(lines) + "\n")
                lines.clear()
            continue
        if lines:
            handle.write("\n".join(lines) + "\n")
            lines.clear()
        writer.writerow(row)
    if lines:
        handle.write("\n".join(lines) + "\n")


__all__ = ["API_CALL_KINDS", "PublishedRecord", "publish_run"]
