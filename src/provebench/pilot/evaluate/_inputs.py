"""Reading a run directory and its corpus, and checking that they are intact (pilot §9, §15).

Nothing here trusts what it reads: every file of the run folder must have the sha256 the lab
recorded in `run.json`; the ledger must verify as a hash chain ending at the recorded head and
length, and its JSONL export must be the same chain; the corpus must verify against its manifest
and be the corpus the run was made on. Each failure is a `ConfigurationError` in the verdict
(fail closed). A run folder or `run.json` that cannot be read at all is a `ProvebenchError`.
"""

from __future__ import annotations

import csv
import hashlib
import io
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from provebench._canonical import sha256_file
from provebench._errors import ProvebenchError
from provebench._jsonfile import parse_json_bytes
from provebench._paths import file_kind
from provebench._read_once import read_once
from provebench.ledger import Ledger, LedgerEntry, LedgerProblem, verify_ledger
from provebench.pilot.corpus._folder import MANIFEST_FILE, Corpus, load_corpus
from provebench.pilot.evaluate._identity import identity_differences, logged_identity
from provebench.pilot.evaluate._record import check_run_record
from provebench.pilot.evaluate._verdict import ConfigurationError
from provebench.pilot.record._rundir import (
    CHECKPOINT_DIR,
    EVALUATION_OUTPUTS,
    IDENTITY_FILE,
    LEDGER_EXPORT_FILE,
    LEDGER_FILE,
    REGISTER_FILE,
    RUN_ENVELOPE_FILE,
    RUN_RECORD_FILE,
    WORK_DIR,
)
from provebench.pilot.record._work_digest import work_tree_sha256
from provebench.pilot.rules._rows import REGISTER_COLUMNS

# SQLite keeps these companions next to a WAL database; they are not run files. The evaluator
# reads the log from memory, so SQLite never opens them; a non-empty `-wal` (entries the main
# file does not hold) or one that is not a regular file is refused below, never ignored.
_SQLITE_COMPANIONS = (f"{LEDGER_FILE}-wal", f"{LEDGER_FILE}-shm")
# The run files the evaluator parses besides run.json: each is read once into memory, hashed
# from those bytes, and verified, parsed and scored from those bytes only — no path is opened
# again after the read (red team round 11, A9 and A13; round 12, A1-A4: a file renamed over the
# checked one, or over a private copy of it, between the check and a second read was judged).
HELD_FILES = (LEDGER_FILE, LEDGER_EXPORT_FILE, REGISTER_FILE, IDENTITY_FILE)


@dataclass
class RunInputs:
    """What the evaluator read, and every configuration error found while reading it."""

    run_dir: Path
    errors: list[ConfigurationError] = field(default_factory=list)
    ledger_problems: list[LedgerProblem] = field(default_factory=list)
    run_record: dict[str, Any] | None = None
    corpus: Corpus | None = None
    entries: list[LedgerEntry] | None = None
    register_cells: list[list[str]] | None = None
    inputs_sha256: dict[str, str] = field(default_factory=dict)
    # The run's identity (format, agent, corpus, rule versions) from the log's run_started entry.
    identity: dict[str, Any] | None = None
    # HELD_FILES name -> the bytes read once and hashed (absent: not read; the log's two files
    # are taken out once `_read_ledger` has parsed them).
    held: dict[str, bytes] = field(default_factory=dict)

    def error(self, code: str, message: str, *, path: Path | None = None, field: str = "") -> None:
        where = None if path is None else _relative(path, self.run_dir)
        self.errors.append(
            ConfigurationError(code=code, message=message, path=where, field=field or None)
        )

    @property
    def usable(self) -> bool:
        """Enough was read to compute metrics (they are still not a pass if `errors`)."""
        return (
            self.run_record is not None
            and self.corpus is not None
            and self.entries is not None
            and self.register_cells is not None
        )


def read_run(run_dir: Path, corpus_dir: Path) -> RunInputs:
    """Read and check everything; configuration errors are collected, not raised. Every file
    judged is read once into memory and judged from those bytes (`HELD_FILES`, the corpus)."""
    if not run_dir.is_dir():
        raise ProvebenchError("not a run directory", path=run_dir)
    inputs = RunInputs(run_dir=run_dir)
    record_path = run_dir / RUN_RECORD_FILE
    kind = _entry_kind(record_path)  # by lstat: a FIFO is never opened, a link never followed
    if kind == "missing":
        inputs.error(
            "incomplete_run",
            "run.json is missing: the run did not finish (resume it with provebench pilot run)",
            path=record_path,
        )
    elif kind is not None:
        inputs.error(
            "run_record_invalid", f"run.json is {kind}, not a regular file", path=record_path
        )
    else:
        inputs.run_record = _read_record(inputs, record_path)
        if inputs.run_record is not None:
            _check_run_files(inputs, inputs.run_record)
    _read_corpus(inputs, corpus_dir)
    if inputs.run_record is not None:
        _read_ledger(inputs, inputs.run_record)
        _check_identity(inputs, inputs.run_record)
        _read_register(inputs)
    return inputs


def _read_record(inputs: RunInputs, path: Path) -> dict[str, Any] | None:
    """The parsed run.json, or None (and a configuration error) when it is not a complete run
    record of the known format (`_record.py`): nothing in it is then used."""
    # Read once: the digest checked against the signed run is of the very bytes parsed here
    # (red team round 11, A19: a run.json parsed from one file and hashed from another).
    held = read_once(path)
    inputs.inputs_sha256[f"run/{RUN_RECORD_FILE}"] = held.sha256
    # The shared strict reader: bad JSON is one line naming it.
    record = parse_json_bytes(held.data, source=str(path))
    problem = check_run_record(record)
    if problem is not None:
        code, where, message = problem
        inputs.error(code, message, path=path, field=where)
        return None
    assert isinstance(record, dict)
    return record


def _check_run_files(inputs: RunInputs, record: dict[str, Any]) -> None:
    """Pilot §15: any file whose bytes differ from what the lab recorded is a discrepancy."""
    root = inputs.run_dir
    recorded: dict[str, Any] = record["files_sha256"]
    for name in sorted(recorded):
        _check_recorded_file(inputs, root / name, name, recorded[name])
    for path in sorted(root.rglob("*")):
        name = path.relative_to(root).as_posix()
        if name in recorded:
            continue  # checked above, whatever it is now
        kind = _entry_kind(path)
        if kind == "folder":
            continue  # rglob lists what is in it
        if kind is not None:
            # Never opened: reading a FIFO blocks, a device or a link reads what the lab did
            # not write. The runner publishes regular files only, so none of these is its own.
            inputs.error("file_unrecorded", f"{kind} in the run folder", path=path)
        elif not _excepted(name, path):
            inputs.error(
                "file_unrecorded", "a file the lab did not record is in the run", path=path
            )


def _check_recorded_file(inputs: RunInputs, path: Path, name: str, expected: str) -> None:
    kind = _entry_kind(path)
    if kind == "missing":
        inputs.error("file_missing", "recorded in run.json but missing", path=path)
        return
    if kind is not None:  # the lab recorded a regular file's bytes; never open this one
        inputs.error("file_altered", f"{kind}, not the regular file run.json records", path=path)
        return
    if name in HELD_FILES:
        try:
            held = read_once(path)
        except ProvebenchError as error:
            inputs.error("file_altered", error.message, path=path)
            return
        actual = held.sha256
        inputs.held[name] = held.data
    else:
        actual = sha256_file(path)
    inputs.inputs_sha256[f"run/{name}"] = actual
    if actual != expected:
        inputs.error(
            "file_altered",
            f"sha256 {actual} differs from run.json ({expected})",
            path=path,
            field="sha256",
        )


def _entry_kind(path: Path) -> str | None:
    """None for a regular file; else what the entry is, from `lstat` (which opens nothing and
    does not follow a symbolic link)."""
    try:
        mode = path.lstat().st_mode
    except (FileNotFoundError, NotADirectoryError):
        return "missing"
    except OSError as error:
        return f"unreadable ({error.strerror})"
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "folder"
    return file_kind(mode)


def _excepted(name: str, path: Path) -> bool:
    """The regular files beside a run that the lab does not record (docs/pilot-evaluator.md,
    `file_unrecorded`): hidden ones (the runner records none), run.json itself, the verdict and
    its report, and SQLite's empty companions."""
    if path.name.startswith(".") or name in (
        RUN_RECORD_FILE,
        RUN_ENVELOPE_FILE,
        *EVALUATION_OUTPUTS,
    ):
        return True
    return name in _SQLITE_COMPANIONS and (name.endswith("-shm") or path.stat().st_size == 0)


def _read_corpus(inputs: RunInputs, corpus_dir: Path) -> None:
    # The corpus is read once, file by file, into memory and only those bytes are verified
    # against its manifest and parsed: the events, expected rows and manifest the evaluator
    # judges by are the bytes it hashed (red team round 11, A15: drive_events.jsonl swapped in
    # after the check and read again by path; round 12, A6: expected_final_rows.csv renamed
    # over the evaluator's private copy of it and re-read by path, unhashed).
    try:
        corpus = load_corpus(corpus_dir, in_memory=True)
    except ProvebenchError as error:
        # Not a file of the run folder: no path; the loader's one line names the corpus file,
        # line and field, as the user gave the corpus (`ConfigurationError.located`).
        inputs.errors.append(
            ConfigurationError(
                code="corpus_invalid", message=error.one_line(), path=None, field=error.field
            )
        )
        return
    assert corpus.held is not None  # in_memory
    manifest_sha256 = hashlib.sha256(corpus.held[MANIFEST_FILE]).hexdigest()
    inputs.inputs_sha256[f"corpus/{MANIFEST_FILE}"] = manifest_sha256
    for name, digest in sorted(corpus.manifest.sha256.items()):
        inputs.inputs_sha256[f"corpus/{name}"] = digest
    if inputs.run_record is not None:
        recorded = inputs.run_record["corpus"].get("manifest_sha256")
        if recorded != manifest_sha256:
            inputs.error(
                "corpus_mismatch",
                f"the run was made on corpus manifest {recorded}, this corpus is {manifest_sha256}",
                path=inputs.run_dir / RUN_RECORD_FILE,
                field="corpus.manifest_sha256",
            )
    inputs.corpus = corpus


def _read_ledger(inputs: RunInputs, record: dict[str, Any]) -> None:
    root = inputs.run_dir
    # Taken out of `held`: once parsed (or refused) the log's bytes are not needed again, and
    # on a large run they are the largest thing held.
    ledger_bytes = inputs.held.pop(LEDGER_FILE, None)
    export_bytes = inputs.held.pop(LEDGER_EXPORT_FILE, None)
    if ledger_bytes is None:
        return  # not read: reported as file_missing or file_altered
    if any(_entry_kind(root / name) not in (None, "missing") for name in _SQLITE_COMPANIONS):
        # A `-wal` or `-shm` that is not a regular file beside the log: it is not judged at
        # all (reported as file_unrecorded; fail closed).
        return
    head, length = record["ledger"]["head_hash"], record["ledger"]["length"]  # checked types
    # Only the bytes read once are verified and parsed: those whose sha256 run.json lists (red
    # team round 11, A13: the log verified on one open and parsed on another; round 12, A2: the
    # same through a private copy renamed over between verify and parse).
    for name, data in ((LEDGER_FILE, ledger_bytes), (LEDGER_EXPORT_FILE, export_bytes)):
        if data is None:
            continue
        try:
            report = verify_ledger(root / name, expect_head=head, expect_length=length, data=data)
        except ProvebenchError as error:  # not a ledger at all (e.g. emptied): fail closed
            inputs.error("ledger_unreadable", error.message, path=root / name)
            return
        if not report.ok:
            inputs.ledger_problems.extend(report.problems)
            first = report.problems[0].one_line() if report.problems else report.summary()
            inputs.error(
                "ledger_chain",
                f"the hash chain does not verify against run.json: {first}",
                path=root / name,
            )
    try:
        ledger = Ledger.from_bytes(ledger_bytes, root / LEDGER_FILE)
    except ProvebenchError as error:
        inputs.error("ledger_unreadable", error.message, path=root / LEDGER_FILE)
        return
    # Parsed in the pass that re-hashes and links each row (`chained_entries`): an entry whose
    # payload was edited in place, its hash columns kept, is parsed as what it is, a row that
    # does not hash, and the log is refused (red team round 12, A2/A4); the entries are kept to
    # report on it (`verify_ledger` above has named what is wrong).
    broken: list[int] = []
    with ledger:
        try:
            entries = list(ledger.chained_entries(broken))
        except ProvebenchError as error:
            inputs.error("ledger_unreadable", error.message, path=root / LEDGER_FILE)
            return
    if broken and not any(error.code == "ledger_chain" for error in inputs.errors):
        inputs.error(
            "ledger_chain",
            f"seq {broken[0]}: the entry does not hash to its stored hash or does not link to "
            "the entry before it",
            path=root / LEDGER_FILE,
        )
    if len(entries) != length or (entries[-1].hash if entries else None) != head:
        # The entries parsed are the log run.json names, whatever the verifier saw.
        inputs.error(
            "ledger_chain",
            f"the log read ends at entry {len(entries)}, not at run.json's head and length "
            f"({length})",
            path=root / LEDGER_FILE,
            field="ledger.head_hash",
        )
    if export_bytes is not None and not _export_matches(export_bytes, entries):
        inputs.error(
            "ledger_export_mismatch",
            "ledger.jsonl is not the same chain as ledger.sqlite",
            path=root / LEDGER_EXPORT_FILE,
        )
    inputs.entries = entries


def _check_identity(inputs: RunInputs, record: dict[str, Any]) -> None:
    """Pilot §9: the result evidence names the importer and corpus the log says were run;
    run.json, which is not chained, must say the same (`_identity.py`)."""
    if inputs.entries is None:
        return  # the log is unreadable, reported as such
    identity = logged_identity(inputs.entries)
    if identity is None:
        inputs.error(
            "run_identity_mismatch",
            "the log has no run_started entry at seq 0: the run's identity is not in the log",
            path=inputs.run_dir / LEDGER_FILE,
            field="run_started",
        )
        return
    inputs.identity = identity
    for where, message in identity_differences(record, identity):
        inputs.error(
            "run_identity_mismatch", message, path=inputs.run_dir / RUN_RECORD_FILE, field=where
        )
    _check_identity_file(inputs, identity)
    _check_work(inputs, inputs.entries)


def _check_identity_file(inputs: RunInputs, identity: dict[str, Any]) -> None:
    """identity.json is the laboratory's copy of the log's identity: one naming another
    candidate is refused even when run.json lists its digest (red team round 10, A8: a
    rewritten identity.json was signed and published)."""
    path = inputs.run_dir / IDENTITY_FILE
    data = inputs.held.get(IDENTITY_FILE)
    if data is None:
        return  # not read: file_missing / file_altered
    try:
        held = parse_json_bytes(data, source=str(path))
    except ProvebenchError as error:
        held = error.message
    if held != identity:
        inputs.error(
            "run_identity_mismatch",
            "identity.json does not hold the identity of the log's run_started entry (seq 0)",
            path=path,
        )


def _check_work(inputs: RunInputs, entries: list[LedgerEntry]) -> None:
    """work/ and the last checkpoint snapshot are what the log's last commit recorded
    (`work_sha256` of the last `cycle_confirmed`): a file planted after it is no file of the
    run, whatever run.json lists (red team round 10, A4)."""
    confirmed = [entry for entry in entries if entry.kind == "cycle_confirmed"]
    if not confirmed:
        return  # no cycle committed: incomplete_run and the register checks say so
    cycle, recorded = confirmed[-1].payload.get("cycle"), confirmed[-1].payload.get("work_sha256")
    if type(cycle) is not int:
        return  # a malformed confirmation: the register checks report it
    for name in (WORK_DIR, f"{CHECKPOINT_DIR}/snapshot-{cycle + 1:06d}"):
        folder = inputs.run_dir / name
        kind = _entry_kind(folder)
        if kind != "folder" or work_tree_sha256(folder) != recorded:
            inputs.error(
                "work_mismatch",
                f"{name}/ is not the work folder the log's last commit (cycle {cycle}) recorded "
                f"(work_sha256 {str(recorded)[:12]}…)",
                path=folder,
            )


def _export_matches(data: bytes, entries: list[LedgerEntry]) -> bool:
    """Whether the export's bytes hold exactly the entries' lines, in order. Line by line:
    holding both sides as lists made two transient copies of the whole log."""
    try:
        with io.TextIOWrapper(io.BytesIO(data), encoding="utf-8") as handle:
            for entry in entries:
                line = handle.readline()
                if not line or line.rstrip("\n") != entry.export_line():
                    return False
            return handle.readline() == ""
    except UnicodeDecodeError:
        return False


def _read_register(inputs: RunInputs) -> None:
    path = inputs.run_dir / REGISTER_FILE
    data = inputs.held.get(REGISTER_FILE)
    if data is None:
        return  # not read: reported as file_missing or file_altered
    try:
        with io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", newline="") as handle:
            records = list(csv.reader(handle))
    except (UnicodeDecodeError, csv.Error) as error:
        inputs.error("register_unreadable", str(error), path=path)
        return
    if not records or tuple(records[0]) != REGISTER_COLUMNS:
        inputs.error("register_header", "header must be " + ",".join(REGISTER_COLUMNS), path=path)
        return
    inputs.register_cells = records[1:]


def _relative(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return path.name


__all__ = ["RunInputs", "read_run"]
