"""A corpus directory: writing it whole or not at all, and loading it only when intact (pilot §10).

Layout (`call-import-corpus/1`):

| file | content |
|---|---|
| `drive_events.jsonl` | the drive event stream, one canonical JSON object per line (`_model.py`) |
| `expected_final_rows.csv` | the confirmed register a correct importer ends with (`_rows.py`) |
| `candidate_final_rows_template.csv` | the register header only |
| `external_checks_template.json` | the external checks, each with an empty evidence slot |
| `agent_contract.md` | what the agent receives, may not do, and every rule it applies (§3–§12) |
| `manager_mapping.csv` | the mapping table `manager-mapping/1`, as the contract shows it |
| `corpus.json` | `CorpusInfo`: config, run versions, rule versions, counts |
| `manifest.json` | sha256 of every other file; written last |

Writing: everything goes into a temporary sibling directory, `manifest.json` last, and the
directory is renamed into place — a crash leaves no directory under the target name, and a
directory without `manifest.json` is refused as incomplete. Expected rows are sorted externally
(sorted chunks merged with `heapq.merge`), so memory stays bounded for huge corpora.

Loading (`load_corpus`) verifies the manifest (no missing, extra or altered file), that the corpus
was made under the rule versions of this build (a different tzdata or grammar would make the
expected rows wrong), and — streaming, line by line — every event (its schema, and that the stream
could have happened: `_stream_check.py`) and every expected row. Any problem is one
`ProvebenchError` naming the file, line and field.
"""

from __future__ import annotations

import csv
import hashlib
import heapq
import io
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator, Mapping
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from provebench._canonical import (
    canonical_json,
    record_written,
    sha256_file,
    still_written,
    write_atomic,
    written_sha256,
)
from provebench._errors import ProvebenchError, validation_failure
from provebench._paths import check_output_dir
from provebench._read_once import handed_on, open_folder, read_once
from provebench.pilot.corpus._generate import EventSink, RowSink, generate_events
from provebench.pilot.corpus._generate_plan import run_versions_for
from provebench.pilot.corpus._model import (
    DRIVE_EVENT_ADAPTER,
    CorpusConfig,
    CorpusCounts,
    CorpusInfo,
    DriveEvent,
    RunVersion,
)
from provebench.pilot.corpus._origin import SHADOW_ORIGIN_FILE, SHADOW_ORIGIN_FORMAT, ShadowOrigin
from provebench.pilot.corpus._stream_check import StreamChecker
from provebench.pilot.rules._contract import agent_contract_markdown, external_checks_template
from provebench.pilot.rules._mapping import mapping_table_bytes, mapping_table_sha256
from provebench.pilot.rules._rows import (
    REGISTER_COLUMNS,
    RegisterRow,
    register_csv_text,
    register_row_of,
)
from provebench.pilot.rules._timerule import load_zone
from provebench.pilot.rules._versions import CORPUS_FORMAT_VERSION, rule_versions

EVENTS_FILE = "drive_events.jsonl"
EXPECTED_ROWS_FILE = "expected_final_rows.csv"
CANDIDATE_TEMPLATE_FILE = "candidate_final_rows_template.csv"
EXTERNAL_CHECKS_FILE = "external_checks_template.json"
AGENT_CONTRACT_FILE = "agent_contract.md"
MAPPING_FILE = "manager_mapping.csv"  # the mapping table the contract names, as published
CORPUS_INFO_FILE = "corpus.json"
MANIFEST_FILE = "manifest.json"
# The files whose bytes are the same in every corpus this build writes, whatever its seed: the
# published contract, mapping and templates. No secret of a control corpus (`pilot._seal`).
PUBLISHED_FILES = frozenset(
    {CANDIDATE_TEMPLATE_FILE, EXTERNAL_CHECKS_FILE, AGENT_CONTRACT_FILE, MAPPING_FILE}
)
CORPUS_FILES: tuple[str, ...] = (
    EVENTS_FILE,
    EXPECTED_ROWS_FILE,
    CANDIDATE_TEMPLATE_FILE,
    EXTERNAL_CHECKS_FILE,
    AGENT_CONTRACT_FILE,
    MAPPING_FILE,
    CORPUS_INFO_FILE,
)
_SORT_CHUNK_ROWS = 200_000
ModelT = TypeVar("ModelT", bound=BaseModel)
_WRITE_BATCH = 8192


class CorpusManifest(BaseModel):
    """`manifest.json`: the sha256 of every corpus file."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    corpus_format: str
    sha256: dict[str, str]


class _ExternalSorter:
    """Collects `key\\tline` records and yields the lines in key order, spilling sorted chunks."""

    def __init__(self, work_dir: Path) -> None:
        self.work_dir = work_dir
        self.buffer: list[str] = []
        self.chunks: list[Path] = []

    def add(self, key: str, line: str) -> None:
        self.buffer.append(f"{key}\t{line}")
        if len(self.buffer) >= _SORT_CHUNK_ROWS:
            self._spill()

    def _spill(self) -> None:
        self.buffer.sort()
        chunk = self.work_dir / f"rows-{len(self.chunks)}.txt"
        with chunk.open("w", encoding="utf-8", newline="\n") as handle:
            handle.writelines(f"{record}\n" for record in self.buffer)
        self.chunks.append(chunk)
        self.buffer = []

    def sorted_lines(self) -> Iterator[str]:
        self.buffer.sort()
        with ExitStack() as stack:
            streams: list[Iterator[str]] = [
                (r.rstrip("\n") for r in stack.enter_context(c.open(encoding="utf-8")))
                for c in self.chunks
            ]
            for record in heapq.merge(*streams, iter(self.buffer)):
                yield record.split("\t", 2)[2]


def write_corpus(config: CorpusConfig, out_dir: Path, *, private: bool = False) -> CorpusInfo:
    """Generate the corpus of `config` into `out_dir` (absent or empty), all or nothing;
    `private`, for the laboratory's own eyes only (`write_corpus_from`)."""

    def generated(emit: EventSink, emit_row: RowSink) -> StreamResult:
        return StreamResult(config, generate_events(config, emit, emit_row))

    return write_corpus_from(generated, out_dir, private=private)


@dataclass(frozen=True)
class StreamResult:
    """What an event source reports once it has streamed its events and expected rows: the
    config the corpus records, the counts, and the shadow origin of a derived corpus."""

    config: CorpusConfig
    counts: CorpusCounts
    origin: ShadowOrigin | None = None


EventSource = Callable[[EventSink, RowSink], StreamResult]


def write_corpus_from(source: EventSource, out_dir: Path, *, private: bool = False) -> CorpusInfo:
    """Write the corpus `source` streams (the seeded generator, or a shadow derivation) into
    `out_dir` (absent or empty), all or nothing. A corpus is handed on with the umask's modes;
    a `private` one — a fresh control, a matrix's corpora: the laboratory's answer key before
    any reveal, never a file handed on — stays 0700 with its files 0600, whatever the umask
    (pilot red team 27, A11: another local user read a control's answers before the reveal)."""
    out_dir = Path(out_dir)
    check_output_dir(out_dir)  # a file in the way, or a folder that cannot be made
    if out_dir.exists() and any(out_dir.iterdir()):
        raise ProvebenchError("output exists and is not an empty directory", path=out_dir)
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.", dir=out_dir.parent))
    held = -1
    try:
        # Held from its creation: its mode is given through this descriptor (`handed_on`).
        held = open_folder(staging)
        info = _write_into(source, staging)
        if out_dir.exists():
            out_dir.rmdir()
        if private:
            _keep_private(held)
        else:
            handed_on(held)  # mkdtemp's folder is private; a corpus is handed on
        staging.replace(out_dir)
        # What was written under the staging name is what now stands under the corpus's.
        for entry in out_dir.iterdir():
            digest = written_sha256(staging / entry.name)
            if digest is not None:
                record_written(entry, digest)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    finally:
        if held >= 0:
            os.close(held)
    return info


def _keep_private(folder_fd: int) -> None:
    """Every file of the held folder `folder_fd` (mkdtemp's, 0700) made 0600 through its own
    descriptor, opened with no link followed: never a chmod by path."""
    for name in os.listdir(folder_fd):
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK,
                     dir_fd=folder_fd)  # fmt: skip
        try:
            os.fchmod(fd, 0o600)
        finally:
            os.close(fd)


def _write_into(source: EventSource, directory: Path) -> CorpusInfo:
    sort_dir = directory / ".sort"
    sort_dir.mkdir()
    sorter = _ExternalSorter(sort_dir)
    with _LineWriter(directory / EVENTS_FILE) as emit:
        result = source(emit, sorter.add)
    config, counts = result.config, result.counts
    with _LineWriter(directory / EXPECTED_ROWS_FILE) as emit:
        emit(",".join(REGISTER_COLUMNS))
        for line in sorter.sorted_lines():
            emit(line)
    shutil.rmtree(sort_dir)
    run_versions = run_versions_for(config)
    versions = rule_versions()
    write_atomic(directory / CANDIDATE_TEMPLATE_FILE, register_csv_text([]))
    write_atomic(directory / EXTERNAL_CHECKS_FILE, canonical_json(external_checks_template()))
    write_atomic(directory / AGENT_CONTRACT_FILE, agent_contract_markdown(versions, run_versions))
    write_atomic(directory / MAPPING_FILE, mapping_table_bytes())
    info = CorpusInfo(
        corpus_format=CORPUS_FORMAT_VERSION,
        config=config,
        run_versions=run_versions,
        versions=versions,
        mapping_table_sha256=mapping_table_sha256(),
        counts=counts,
    )
    write_atomic(directory / CORPUS_INFO_FILE, canonical_json(info))
    names = CORPUS_FILES
    if result.origin is not None:
        write_atomic(directory / SHADOW_ORIGIN_FILE, canonical_json(result.origin))
        names = (*CORPUS_FILES, SHADOW_ORIGIN_FILE)
    manifest = CorpusManifest(
        corpus_format=CORPUS_FORMAT_VERSION,
        # the bytes this process wrote, checked still in place — never a re-read that another
        # file renamed in since would answer (red team round 12b, K1)
        sha256={name: still_written(directory / name) for name in names},
    )
    # Every file has the user's umask's mode already (`write_atomic`, `_LineWriter`): a corpus is
    # handed on as a plain copy would be, and nothing is chmodded by path here.
    write_atomic(directory / MANIFEST_FILE, canonical_json(manifest))  # last: marks completeness
    return info


class _LineWriter:
    """A buffered UTF-8 `\\n` line writer, flushed and fsynced on close; it hashes the bytes it
    writes and records them for `written_sha256`, so the manifest names what was written, never
    a re-read (red team round 12b, K1)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        # Created new, with no link followed, at the umask's mode (0666 less the umask).
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
        self.handle: IO[bytes] = os.fdopen(os.open(path, flags, 0o666), "wb")
        self.batch: list[str] = []
        self.digest = hashlib.sha256()

    def __enter__(self) -> Callable[[str], None]:
        return self.emit

    def emit(self, line: str) -> None:
        self.batch.append(line)
        if len(self.batch) >= _WRITE_BATCH:
            self._write()

    def _write(self) -> None:
        data = ("\n".join(self.batch) + "\n").encode("utf-8")
        self.digest.update(data)
        self.handle.write(data)
        self.batch = []

    def __exit__(self, *exc: object) -> None:
        if self.batch:
            self._write()
        self.handle.flush()
        os.fsync(self.handle.fileno())
        self.handle.close()
        record_written(self.path, self.digest.hexdigest())


@dataclass(frozen=True)
class Corpus:
    """A verified corpus directory."""

    directory: Path
    info: CorpusInfo
    manifest: CorpusManifest
    shadow: ShadowOrigin | None = None  # a shadow corpus's origin (profile `shadow`)
    # `load_corpus(..., in_memory=True)`: every file's bytes as read once and checked against
    # the manifest; everything this corpus yields is parsed from them, nothing is opened again.
    held: Mapping[str, bytes] | None = field(default=None, compare=False, repr=False)

    @property
    def events_path(self) -> Path:
        return self.directory / EVENTS_FILE

    @property
    def expected_rows_path(self) -> Path:
        return self.directory / EXPECTED_ROWS_FILE

    def events(self) -> Iterator[DriveEvent]:
        """The drive events in order, validated line by line; the bytes streamed are hashed and
        must be the ones the manifest names, or the stream ends in an error (below)."""
        return iter_events(
            self.events_path,
            run_versions=self.info.run_versions,
            sha256=self.manifest.sha256[EVENTS_FILE],
            data=None if self.held is None else self.held[EVENTS_FILE],
        )

    def expected_rows(self) -> list[RegisterRow]:
        """The expected rows, parsed from the bytes `expected_rows_bytes` checked."""
        return read_register_csv(self.expected_rows_path, data=self.expected_rows_bytes())

    def expected_rows_bytes(self) -> bytes:
        """`expected_final_rows.csv` as read once (or held), checked against the manifest's
        sha256 from these very bytes: a reader given them parses or scores what the manifest
        names, never a file renamed over it after a check (red team round 12, A6)."""
        path = self.expected_rows_path
        data = read_once(path).data if self.held is None else self.held[EXPECTED_ROWS_FILE]
        if hashlib.sha256(data).hexdigest() != self.manifest.sha256[EXPECTED_ROWS_FILE]:
            raise ProvebenchError(
                "sha256 differs from manifest.json (the file was altered)",
                path=path,
                field="sha256",
            )
        return data


def load_corpus(
    directory: str | Path, *, check_lines: bool = True, in_memory: bool = False
) -> Corpus:
    """Load and verify a corpus directory; one `ProvebenchError` on any problem.

    `in_memory` (the evaluator): every file of the folder is read once (`read_once`: a link,
    FIFO or folder is refused), and everything is verified and parsed from those bytes only;
    the corpus keeps them (`Corpus.held`), so no file is opened again (red team round 12, A6)."""
    directory = Path(directory)
    if not directory.is_dir():
        raise ProvebenchError("not a corpus directory", path=directory)
    held = _read_folder(directory) if in_memory else None
    manifest_path = directory / MANIFEST_FILE
    if not (manifest_path.is_file() if held is None else MANIFEST_FILE in held):
        raise ProvebenchError("incomplete corpus: manifest.json is missing", path=directory)

    def read(name: str) -> bytes:
        return (directory / name).read_bytes() if held is None else held[name]

    manifest = _load_json_model(manifest_path, CorpusManifest, read(MANIFEST_FILE))
    _check_format(manifest.corpus_format, manifest_path)
    found = [p.name for p in directory.iterdir()] if held is None else list(held)
    present = sorted(name for name in found if name != MANIFEST_FILE)
    # A shadow corpus has one file more, its origin; only the manifest can say it belongs.
    names = CORPUS_FILES + ((SHADOW_ORIGIN_FILE,) if SHADOW_ORIGIN_FILE in manifest.sha256 else ())
    if sorted(manifest.sha256) != sorted(names) or present != sorted(names):
        listed, expected = set(manifest.sha256), set(names)
        unexpected = sorted((set(present) ^ expected) | (listed ^ expected))
        raise ProvebenchError(
            "corpus files do not match the manifest: " + ", ".join(unexpected),
            path=manifest_path,
            field="sha256",
        )
    for name in names:
        digest = (
            sha256_file(directory / name)
            if held is None
            else hashlib.sha256(held[name]).hexdigest()
        )
        if digest != manifest.sha256[name]:
            raise ProvebenchError(
                "sha256 differs from manifest.json (the file was altered)",
                path=directory / name,
                field="sha256",
            )
    info = _load_json_model(directory / CORPUS_INFO_FILE, CorpusInfo, read(CORPUS_INFO_FILE))
    _check_format(info.corpus_format, directory / CORPUS_INFO_FILE)
    _check_versions(info, directory / CORPUS_INFO_FILE)
    shadow = (
        _load_origin(directory, info, read(SHADOW_ORIGIN_FILE))
        if SHADOW_ORIGIN_FILE in names
        else None
    )
    if shadow is None and info.config.profile == "shadow":
        raise ProvebenchError(
            "a shadow corpus without shadow_origin.json", path=directory / CORPUS_INFO_FILE,
            field="config.profile",
        )  # fmt: skip
    corpus = Corpus(directory=directory, info=info, manifest=manifest, shadow=shadow, held=held)
    if check_lines:
        events = sum(1 for _ in corpus.events())
        if events != info.counts.events:
            raise ProvebenchError(
                f"{events} events, corpus.json says {info.counts.events}", path=corpus.events_path
            )
        rows = sum(
            1
            for _ in iter_register_csv(
                corpus.expected_rows_path,
                data=None if held is None else held[EXPECTED_ROWS_FILE],
            )
        )
        if rows != info.counts.expected_rows:
            raise ProvebenchError(
                f"{rows} rows, corpus.json says {info.counts.expected_rows}",
                path=corpus.expected_rows_path,
            )
    return corpus


def _read_folder(directory: Path) -> dict[str, bytes]:
    """Every entry of a corpus folder read once, by name (`read_once` refuses what is not a
    regular file, in one line naming it)."""
    return {entry.name: read_once(entry).data for entry in sorted(directory.iterdir())}


def _load_origin(directory: Path, info: CorpusInfo, data: bytes) -> ShadowOrigin:
    path = directory / SHADOW_ORIGIN_FILE
    origin = _load_json_model(path, ShadowOrigin, data)
    if origin.format != SHADOW_ORIGIN_FORMAT:
        raise ProvebenchError(
            f"format {origin.format}, this build reads {SHADOW_ORIGIN_FORMAT}",
            path=path,
            field="format",
        )
    if info.config.profile != "shadow":
        raise ProvebenchError(
            "an origin file in a corpus that is not a shadow corpus", path=path, field="format"
        )
    if len(origin.snapshots) != info.config.sizes.cycles:
        raise ProvebenchError(
            f"{len(origin.snapshots)} snapshots for {info.config.sizes.cycles} cycles",
            path=path,
            field="snapshots",
        )
    for index, snapshot in enumerate(origin.snapshots):
        if snapshot.cycle != index + 1 or (
            index and snapshot.captured_at <= origin.snapshots[index - 1].captured_at
        ):
            raise ProvebenchError(
                "snapshots must be cycles 1, 2, … in increasing capture time",
                path=path,
                field=f"snapshots[{index}]",
            )
    return origin


# Why an older format cannot be read as the current one, named in its refusal.
_FORMAT_CHANGES = {
    "call-import-corpus/1": (
        " (its faults are bound to call numbers, which idle calls can absorb; since"
        " call-import-corpus/2 each fault is bound to the file whose work it interrupts)"
    ),
}


def _check_format(corpus_format: str, path: Path) -> None:
    """Both manifest.json and corpus.json name the corpus format, and every reader of a corpus
    goes through `load_corpus`: a format this build does not know is refused in either file
    (pilot §4 "fixed in the pilot version"), never read as if it were the known one."""
    if corpus_format != CORPUS_FORMAT_VERSION:
        raise ProvebenchError(
            f"corpus format {corpus_format}, this build reads {CORPUS_FORMAT_VERSION}"
            f"{_FORMAT_CHANGES.get(corpus_format, '')}; generate the corpus again",
            path=path,
            field="corpus_format",
        )


def _check_versions(info: CorpusInfo, path: Path) -> None:
    current = rule_versions().model_dump()
    for name, value in info.versions.model_dump().items():
        if name != "generator" and value != current[name]:
            raise ProvebenchError(
                f"corpus made under {value}, this build applies {current[name]}",
                path=path,
                field=f"versions.{name}",
            )
    for index, zone in enumerate(info.config.zones):
        _check_zone(zone, path, f"config.zones[{index}]")
    cycle = 0
    for index, version in enumerate(info.run_versions):
        # Checked before anything runs: an unknown zone would otherwise stop the run at the
        # first event of its version, after earlier cycles were committed.
        _check_zone(version.zone, path, f"run_versions[{index}].zone")
        if version.first_cycle != cycle + 1 or version.last_cycle < version.first_cycle:
            raise ProvebenchError(
                "run versions must cover the cycles in order", path=path, field="run_versions"
            )
        cycle = version.last_cycle
    if cycle != info.config.sizes.cycles:
        raise ProvebenchError(
            "run versions must cover every cycle", path=path, field="run_versions"
        )
    if info.mapping_table_sha256 != mapping_table_sha256():
        raise ProvebenchError(
            "corpus made with another mapping table", path=path, field="mapping_table_sha256"
        )


def _check_zone(zone: str, path: Path, field: str) -> None:
    try:
        load_zone(zone)
    except ProvebenchError as error:
        raise ProvebenchError(error.message, path=path, field=field) from None


def _load_json_model(path: Path, model: type[ModelT], data: bytes) -> ModelT:
    # Strict, as the event lines are: the generator writes numbers as numbers, so a `"3"` where
    # a count or a seed belongs is an edited file, refused rather than coerced.
    try:
        return model.model_validate_json(data, strict=True)
    except ValidationError as error:
        raise _validation_error(error, path, None) from error


def _validation_error(error: ValidationError, path: Path, line: int | None) -> ProvebenchError:
    return validation_failure(error, path=path, line=line)


def iter_events(
    path: Path,
    *,
    run_versions: tuple[RunVersion, ...],
    sha256: str | None = None,
    data: bytes | None = None,
) -> Iterator[DriveEvent]:
    """Validate and yield each event of a `drive_events.jsonl`, checking the stream as a whole
    (`_stream_check.py`) against the corpus's run versions.

    With `sha256` (the manifest's), the bytes streamed are hashed as they are read and the
    stream ends in one error when they are not those bytes: the file is opened again by path
    after `load_corpus` checked it, and a file swapped in between would otherwise be run, and
    signed, under the checked corpus's name (red team round 11, A3). Every consumer reads the
    whole stream before it signs or judges anything (the laboratory publishes after the last
    cycle)."""
    checker = StreamChecker(path, run_versions)
    digest = hashlib.sha256()
    # The adapter's core validator itself: the same schema and errors, without the adapter's
    # per-call wrapper (a third of the cost of a line at a million lines).
    validate_json = DRIVE_EVENT_ADAPTER.validator.validate_json
    with path.open("rb") if data is None else io.BytesIO(data) as handle:
        for line_number, raw in enumerate(handle, start=1):
            digest.update(raw)
            try:
                event = validate_json(raw)
            except ValidationError as error:
                raise _validation_error(error, path, line_number) from error
            checker.check(event, line_number)
            yield event
    if sha256 is not None and digest.hexdigest() != sha256:
        raise ProvebenchError(
            "the events read differ from the ones manifest.json names (the file was changed "
            "while it was read); nothing read from it is signed or judged",
            path=path,
            field="sha256",
        )
    checker.finish()


def read_register_csv(path: Path, *, data: bytes | None = None) -> list[RegisterRow]:
    """A register CSV in row format v1 (header exactly `REGISTER_COLUMNS`), checked; with
    `data`, those bytes are parsed and `path` only names them."""
    return list(iter_register_csv(path, data=data))


def iter_register_csv(path: Path, *, data: bytes | None = None) -> Iterator[RegisterRow]:
    """`read_register_csv`, one row at a time (memory: the set of file_ids seen). Bytes that
    are not UTF-8 or not CSV are one `ProvebenchError` naming the file and the line."""
    try:
        yield from _register_rows(path, data)
    except UnicodeDecodeError as error:
        line, column = _first_undecodable(path, data)
        raise ProvebenchError(
            f"not valid UTF-8: byte 0x{error.object[error.start]:02x} at column {column}",
            path=path,
            line=line,
        ) from None
    except csv.Error as error:
        raise ProvebenchError(f"not valid CSV: {error}", path=path) from None


def _first_undecodable(path: Path, data: bytes | None) -> tuple[int | None, int | None]:
    """Line and column (1-based) of the first byte that is not UTF-8: the decoder reports an
    offset in its buffer, not in the file, so the file is read again line by line."""
    with path.open("rb") if data is None else io.BytesIO(data) as handle:
        for number, raw in enumerate(handle, start=1):
            try:
                raw.decode("utf-8")
            except UnicodeDecodeError as error:
                return number, error.start + 1
    return None, None


def _register_rows(path: Path, data: bytes | None) -> Iterator[RegisterRow]:
    text = (
        path.open(encoding="utf-8", newline="")
        if data is None
        else io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", newline="")
    )
    with text as handle:
        reader = csv.reader(handle)
        header = next(reader, None)
        if header is None or tuple(header) != REGISTER_COLUMNS:
            raise ProvebenchError(
                "header must be " + ",".join(REGISTER_COLUMNS), path=path, line=1, field="header"
            )
        seen: set[str] = set()
        for record in reader:
            line = reader.line_num
            if len(record) != len(REGISTER_COLUMNS):
                raise ProvebenchError(
                    f"{len(record)} cells, expected {len(REGISTER_COLUMNS)}", path=path, line=line
                )
            row = register_row_of(record)  # nine strings: the csv module gives nothing else
            if not row.file_id or row.file_id in seen:
                raise ProvebenchError(
                    "empty or repeated file_id", path=path, line=line, field="file_id"
                )
            seen.add(row.file_id)
            yield row


def read_agent_contract(directory: Path) -> str:
    """The corpus's `agent_contract.md`: what a model importer is told (pilot §3)."""
    return (directory / AGENT_CONTRACT_FILE).read_text(encoding="utf-8")


__all__ = [
    "AGENT_CONTRACT_FILE",
    "CANDIDATE_TEMPLATE_FILE",
    "CORPUS_FILES",
    "CORPUS_INFO_FILE",
    "EVENTS_FILE",
    "EXPECTED_ROWS_FILE",
    "EXTERNAL_CHECKS_FILE",
    "MANIFEST_FILE",
    "PUBLISHED_FILES",
    "Corpus",
    "CorpusManifest",
    "EventSource",
    "StreamResult",
    "iter_events",
    "iter_register_csv",
    "load_corpus",
    "read_agent_contract",
    "read_register_csv",
    "write_corpus",
    "write_corpus_from",
]
