"""The permission gateway: the only path from an importer to the laboratory (pilot §3).

Every call is counted, validated, checked against the fault schedule by the work it carries
(`_faults.py`), performed and recorded in the cycle's write-ahead record before its answer (or
error) is returned. Operations the contract withholds exist only to be refused: the attempt is
recorded as `refused` and answered with `PermissionDenied`. The gateway holds no handle to the
ledger, the corpus or the expected rows: what it records reaches the ledger only through the
runner, after the importer has returned.

Every public method is a lab section (`_deadline.lab_section`): the cycle's time limit never
interrupts the gateway half-way through recording a call, and once the limit has passed every
further call is refused before it is performed or recorded.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import chain
from operator import itemgetter
from typing import Any, NoReturn

from provebench.pilot.lab._deadline import LabSections, lab_section
from provebench.pilot.lab._drive_state import DriveState, ListedFile
from provebench.pilot.lab._errors import (
    FileNotFound,
    InvalidArgument,
    LabError,
    PermissionDenied,
)
from provebench.pilot.lab._faults import Fault, FaultPlan
from provebench.pilot.lab._files import FilePage
from provebench.pilot.lab._record import CycleRecord, error_payload, plain
from provebench.pilot.lab._report_text import (
    id_field_problem,
    quotations_escaped,
    report_problem,
    unreadable_character,
)
from provebench.pilot.record._listing import listing_result
from provebench.pilot.record._transcript import MODEL_TRANSCRIPT_KIND, TRANSCRIPT_FORMAT
from provebench.pilot.rules._rows import REGISTER_COLUMNS

MAX_PAGE_SIZE = 1000
# The channel of the laboratory's own record of a diagnostics message that did not fit
# (`emulator/_diagnostics.py`), and the operation a report the importer may not make is
# refused as (`_report_text.py`).
LAB_INVALID_CHANNEL = "invalid"
UNREADABLE_REPORT_OPERATION = "diagnostics.unreadable_report"
MAX_SLEEP_SEC = 3600.0
_TOKEN = re.compile(r"k(?:[0-9a-f]{2}){1,512}")
_BAD_TOKEN = object()
_EXACT_STR = {str}
_EXACT_DICT = {dict}


def _about_every_file(file_id: str) -> bool:
    """A read of all confirmed ids answers about every file."""
    return True


def _about_no_file(file_id: str) -> bool:
    """A read about a value that is no file id carries no file's work."""
    return False


@dataclass(frozen=True, slots=True)
class SheetSchema:
    """The working sheet's columns: what an importer writes, and the status the lab assigns."""

    register_columns: tuple[str, ...]
    status_column: str

    @property
    def importer_columns(self) -> tuple[str, ...]:
        return tuple(c for c in self.register_columns if c != self.status_column)


# The call register's working sheet: the register's columns, the status the lab assigns. Here,
# beside its type, so that everything that names the columns (the runner, the tools a model
# gets) reads one definition without importing the runner.
CALL_REGISTER = SheetSchema(register_columns=REGISTER_COLUMNS, status_column="status")


def _decode_token(token: object) -> object:
    """The file_id a page token continues after, or `_BAD_TOKEN`. Any well-formed token is a
    valid position: a forged one only lists what a real one would (the Drive is read-only)."""
    if not isinstance(token, str):
        return _BAD_TOKEN
    token = str.__str__(token)  # an exact str: no importer method runs
    if not _TOKEN.fullmatch(token):
        return _BAD_TOKEN
    try:
        return bytes.fromhex(token[1:]).decode("utf-8")
    except UnicodeDecodeError:
        return _BAD_TOKEN


def _sleep_duration(seconds: object) -> float | None:
    if isinstance(seconds, bool) or not isinstance(seconds, int | float):
        return None
    duration = float(seconds)
    return duration if math.isfinite(duration) and 0 <= duration <= MAX_SLEEP_SEC else None


class Gateway:
    """Mediates one cycle. Created by the runner per cycle; importers see only its facades."""

    def __init__(
        self,
        *,
        drive: DriveState,
        record: CycleRecord,
        faults: FaultPlan,
        schema: SheetSchema,
        confirmed_ids: frozenset[str],
        describe_file: Callable[[ListedFile], dict[str, Any]],
        server_page_size: int = MAX_PAGE_SIZE,
        mid_scan: Sequence[tuple[int, ListedFile]] = (),
        sections: LabSections | None = None,
    ) -> None:
        # The cycle's time limit reads and writes this (None: no limit, an inert instance).
        self._sections = sections if sections is not None else LabSections()
        self._drive = drive
        self._record = record
        self._faults = faults
        self._describe = describe_file
        self._server_page_size = server_page_size
        self._columns = schema.importer_columns
        self._column_set = frozenset(self._columns)
        self._cells_of = itemgetter(*self._columns)
        self._file_id_at = self._columns.index("file_id")
        self._status_column = schema.status_column
        self._confirmed = confirmed_ids
        # Files the schedule adds after the importer has fetched page k (pilot §5), in firing
        # order; whatever has not fired when the importer returns is added at cycle end.
        self._mid_scan = sorted(mid_scan, key=lambda item: item[0])
        self._pages_served = 0
        # The texts with controls of the files served in this cycle: a report may quote them
        # (`_report_text.quotations_escaped`; pilot red team 33, A8).
        self._served_controls: set[str] = set()
        self._clock_sec = 0.0
        self.working_rows: list[tuple[str, ...]] = []

    # -- Drive (read-only) -------------------------------------------------------------------
    @lab_section
    def list_files(self, page_size: object, page_token: object) -> FilePage:
        return self._list_files(page_size, page_token, None)

    @lab_section
    def list_files_answered(
        self, request: tuple[object, object], answer_ids: Callable[[FilePage], Sequence[str]]
    ) -> FilePage:
        """`list_files(*request)` for a face that answers with less than the page (the HTTP
        face's `q` filter and `fields` mask): `answer_ids` builds its answer and names the ids
        it carries; when they differ from the page's, the entry records them as `shown_ids`
        (drive.list/2), since the evaluator credits what the importer was shown, not what the
        Drive served (red team 26, H6). Lab code only: no importer facade calls it."""
        return self._list_files(request[0], request[1], answer_ids)

    def _list_files(
        self,
        page_size: object,
        page_token: object,
        answer_ids: Callable[[FilePage], Sequence[str]] | None,
    ) -> FilePage:
        call = self._record.next_call()
        arguments = {"page_size": plain(page_size), "page_token": plain(page_token)}
        if type(page_size) is not int or not 1 <= page_size <= MAX_PAGE_SIZE:
            self._invalid(call, "drive.list", arguments, f"page_size must be 1..{MAX_PAGE_SIZE}")
        after_id = None if page_token is None else _decode_token(page_token)
        if after_id is _BAD_TOKEN:
            self._invalid(call, "drive.list", arguments, "unknown page_token")
        size = min(page_size, self._server_page_size)
        file_ids, files, last_id = self._drive.page(after_id, size)  # type: ignore[arg-type]
        next_token = None if last_id is None else "k" + last_id.encode("utf-8").hex()
        result = listing_result(file_ids, next_token)  # drive.list/2: the page by digest
        page = FilePage(tuple(files), tuple(file_ids), next_token)
        # What the answer carries after the face's `q` and `fields` (red team 26, H6), known
        # before the schedule is met: a listing fault is bound to the page that *shows* its file,
        # so an idle listing whose answer shows no file (`fields=nextPageToken`, a `q` matching
        # nothing) cannot absorb it (red team 28, H2; pilot §11 "temporary failures").
        shown = (
            file_ids
            if answer_ids is None
            else [str.__str__(file_id) for file_id in answer_ids(page)]
        )
        partial = {"shown_ids": shown} if shown != file_ids else {}
        if self._faults.pending("list_page"):
            # The log keeps the page it withheld (and what its answer would have shown), so the
            # evaluator can check that it showed the file (drive-events/2).
            fault = self._faults.meet("list_page", frozenset(shown).__contains__)
            if fault is not None:
                self._raise_fault(call, "drive.list", arguments, fault, withheld=result, **partial)
        entry = {"call": call, **arguments, "result": result, **partial}
        self._record.add("drive.list", entry)
        self._note_served(files)
        self._pages_served += 1
        if self._mid_scan and self._mid_scan[0][0] <= self._pages_served:
            self._fire_mid_scan(self._pages_served, "during_scan")
        return page

    @lab_section
    def get_file(self, file_id: object) -> Any:
        call = self._record.next_call()
        arguments = {"file_id": plain(file_id)}
        found = self._drive.get(str.__str__(file_id)) if isinstance(file_id, str) else None
        if found is None:
            raise self._answered(
                call, "drive.get", arguments, FileNotFound(f"no file with id {file_id!r}")
            )
        self._record.add("drive.get", {"call": call, **arguments, "result": self._describe(found)})
        self._note_served([found])
        return found

    def _note_served(self, files: Sequence[Any]) -> None:
        for file in files:
            metadata = file.metadata
            values: tuple[object, ...] = (file.file_id, file.name, file.mime_type, file.folder_id)
            if metadata is not None:
                values += (metadata.direction, metadata.phone, metadata.manager_code)
            texts = [value for value in values if type(value) is str]
            # One search of the file's texts together; each alone only when it finds a control.
            if unreadable_character(" ".join(texts)) is not None:
                self._served_controls.update(
                    text for text in texts if unreadable_character(text) is not None
                )

    # -- Sheets (write-only working rows) ------------------------------------------------------
    @lab_section
    def append_rows(self, rows: object) -> int:
        call = self._record.next_call()
        try:
            values = self._validated_rows(call, rows)
        except LabError:
            raise
        except Exception:  # an importer's own Mapping that fails when read: its call, its error
            self._invalid(call, "sheets.append", {"rows": plain(rows)}, "rows could not be read")
        logged_rows = list(map(list, values))
        fault = (
            self._faults.meet("append_rows", {row[self._file_id_at] for row in values}.__contains__)
            if values and self._faults.pending("append_rows")
            else None
        )
        if fault is not None:
            if fault.applied:  # the rows land, then the answer fails or never comes
                self.working_rows.extend(values)
            self._raise_fault(call, "sheets.append", {"rows": logged_rows}, fault)
        self.working_rows.extend(values)
        payload = {"call": call, "rows": logged_rows, "applied": True}
        self._record.add("sheets.append", {**payload, "result": {"appended": len(values)}})
        return len(values)

    def _validated_rows(self, call: int, rows: object) -> list[tuple[str, ...]]:
        fast = self._plain_rows(rows)
        if fast is not None:
            return fast
        if not isinstance(rows, list | tuple):
            self._invalid(call, "sheets.append", {"rows": plain(rows)}, "rows must be a list")
        columns, column_set, status = self._columns, self._column_set, self._status_column
        values: list[tuple[str, ...]] = []
        for row in rows:
            if not isinstance(row, Mapping):
                self._invalid(
                    call, "sheets.append", {"rows": plain(rows)}, "a row is not a mapping"
                )
            keys = row.keys()
            if keys != column_set:
                if status in keys and row[status] not in ("", None):
                    # Pilot §3: the final status is the laboratory's to assign at confirmation.
                    self._refuse(call, "sheets.append.status", {"rows": plain(rows)})
                if {k for k in keys if k != status} != column_set:
                    expected = ", ".join(columns)
                    self._invalid(
                        call,
                        "sheets.append",
                        {"rows": plain(rows)},
                        f"row columns must be {expected}",
                    )
            row_values = tuple([row[c] for c in columns])
            try:
                # TypeError unless every value is a str; UnicodeEncodeError for a lone
                # surrogate, which the log could not hold (both at C speed).
                "".join(row_values).encode("utf-8")
            except (TypeError, UnicodeEncodeError):
                self._invalid(
                    call, "sheets.append", {"rows": plain(rows)}, "values must be UTF-8 text (str)"
                )
            if set(map(type, row_values)) != _EXACT_STR:
                row_values = tuple(map(str.__str__, row_values))  # exact str, no subclass
            values.append(row_values)
        return values

    def _plain_rows(self, rows: object) -> list[tuple[str, ...]] | None:
        """The common case checked in bulk: a list of exact dicts with exactly the importer
        columns and exact-str values that UTF-8 can hold. None sends the call through the
        row-by-row checks, which name the first problem exactly as before."""
        if type(rows) not in (list, tuple) or len(self._columns) < 2:
            return None
        batch: list[Any] | tuple[Any, ...] = rows  # type: ignore[assignment]
        if batch and set(map(type, batch)) != _EXACT_DICT:
            return None
        column_set = self._column_set
        if not all(row.keys() == column_set for row in batch):
            return None
        values: list[tuple[str, ...]] = list(map(self._cells_of, batch))
        cells = list(chain.from_iterable(values))
        if cells and set(map(type, cells)) != _EXACT_STR:
            return None
        try:
            "".join(cells).encode("utf-8")
        except UnicodeEncodeError:
            return None
        return values

    # -- Confirmed register (read-only ids) ---------------------------------------------------
    @lab_section
    def is_confirmed(self, file_id: object) -> bool:
        call = self._record.next_call()
        asked = str.__str__(file_id) if isinstance(file_id, str) else None
        self._maybe_fault(
            call,
            "read_confirmed_ids",
            "sheets.read_confirmed",
            {"operation": "contains", "file_id": plain(file_id)},
            asked.__eq__ if asked is not None else _about_no_file,
        )
        answer = isinstance(file_id, str) and str.__str__(file_id) in self._confirmed
        self._record.add(
            "sheets.read_confirmed",
            {"call": call, "operation": "contains", "file_id": plain(file_id), "result": answer},
        )
        return answer

    @lab_section
    def confirmed_ids(self) -> frozenset[str]:
        call = self._record.next_call()
        self._maybe_fault(
            call,
            "read_confirmed_ids",
            "sheets.read_confirmed",
            {"operation": "all"},
            _about_every_file,
        )
        result = {"count": len(self._confirmed)}
        self._record.add(
            "sheets.read_confirmed", {"call": call, "operation": "all", "result": result}
        )
        return self._confirmed

    @lab_section
    def confirmed_range(self, served_range: str, shows_ids: bool) -> frozenset[str]:
        """A read of the Confirmed sheet over the HTTP face (`pilot/emulator/_sheets.py`),
        logged with the range actually served. Only a range that can show confirmed ids (the
        file_id column and the data rows) is a read of them (`all`); one that cannot (the header
        row alone, another column) is logged as `range` and carries no file's work, so it counts
        as no read of the confirmed ids (no self-check, no reconciliation after an in-doubt
        append) and a fault on it is about no file."""
        call = self._record.next_call()
        operation = "all" if shows_ids else "range"
        self._maybe_fault(
            call,
            "read_confirmed_ids",
            "sheets.read_confirmed",
            {"operation": operation, "range": served_range},
            _about_every_file if shows_ids else _about_no_file,
        )
        result = {"count": len(self._confirmed)} if shows_ids else {"count": 0}
        self._record.add(
            "sheets.read_confirmed",
            {"call": call, "operation": operation, "range": served_range, "result": result},
        )
        return self._confirmed

    # -- Diagnostics and the lab clock ---------------------------------------------------------
    @lab_section
    def diagnose(self, channel: str, fields: Mapping[str, object]) -> None:
        call = self._record.next_call()
        problem = None
        # The laboratory's own `invalid` entries are its text; every other is the importer's.
        if channel != LAB_INVALID_CHANNEL:
            # An id field holds one id as the laboratory holds it, judged before any escaping
            # (`_report_text.id_field_problem`; pilot red team 36, A3).
            problem = id_field_problem(fields, self._is_file_id)
            if problem is None and self._served_controls:
                # Served data quoted in a report is the data's own: recorded escaped, not refused.
                fields = quotations_escaped(fields, self._served_controls)
            problem = problem or report_problem(fields)
        if problem is not None:
            # Refused, never recorded as a report: its text is not what a reader would see
            # (`_report_text.py`; pilot red team 32, A1, A2, A4, A6). The attempt is logged and
            # counts against the importer as every refused operation does.
            arguments = {"channel": channel, **fields, "problem": problem}
            self._refuse(call, UNREADABLE_REPORT_OPERATION, arguments)
        payload = {"call": call, "channel": channel}
        payload.update({key: plain(value) for key, value in fields.items()})
        self._record.add("diagnostics", payload)

    def _is_file_id(self, text: str) -> bool:
        """Whether the Drive holds, or held, a file whose id is exactly `text`."""
        return self._drive.known(text) is not None

    @lab_section
    def record_model_transcript(self, transcript: str) -> None:
        """The laboratory's own record of its `openai:` loop's turns in this cycle
        (`agents._openai.transcript_note`): a ledger entry of its own kind, beside the cycle's
        other records and signed with them, written by provebench's loop in the laboratory's
        process and never through a facade, so no importer can write one. It was a `note` on
        the diagnostics channel, exempted from the claims reading by its format tag, which any
        importer could write (issue 40); the diagnostics channel is now the importer's alone,
        every entry of it read alike (docs/pilot-evaluator.md)."""
        self._record.add(
            MODEL_TRANSCRIPT_KIND, {"format": TRANSCRIPT_FORMAT, "transcript": plain(transcript)}
        )

    @lab_section
    def sleep(self, seconds: object) -> None:
        call = self._record.next_call()
        duration = _sleep_duration(seconds)
        if duration is None:
            self._invalid(call, "clock.sleep", {"seconds": plain(seconds)}, "bad sleep duration")
        self._clock_sec += duration
        self._record.add(
            "clock.sleep", {"call": call, "seconds": duration, "now_sec": self._clock_sec}
        )

    @property
    @lab_section
    def clock_sec(self) -> float:
        return self._clock_sec

    # -- Refusals ------------------------------------------------------------------------------
    @lab_section
    def refuse(self, operation: str, arguments: Mapping[str, object]) -> NoReturn:
        self._refuse(self._record.next_call(), operation, arguments)

    def _refuse(self, call: int, operation: str, arguments: Mapping[str, object]) -> NoReturn:
        logged = {key: plain(value) for key, value in arguments.items()}
        self._record.add("refused", {"call": call, "operation": operation, "arguments": logged})
        self._record.errors += 1
        raise PermissionDenied(f"{operation} is not permitted to an importer (pilot §3)")

    # -- Cycle end -------------------------------------------------------------------------------
    def finish(self) -> None:
        """Add the scheduled files the importer's traversal did not trigger (pilot §5)."""
        if self._mid_scan:
            self._fire_mid_scan(None, "cycle_end")

    def _fire_mid_scan(self, pages_served: int | None, phase: str) -> None:
        fired: list[str] = []
        while self._mid_scan and (pages_served is None or self._mid_scan[0][0] <= pages_served):
            _, file = self._mid_scan.pop(0)
            self._drive.add_now(file)
            fired.append(file.file_id)
        self._record.add(
            "events_applied", {"phase": phase, "after_page": pages_served, "added": fired}
        )

    def _maybe_fault(
        self,
        call: int,
        fault_operation: str,
        operation: str,
        arguments: dict[str, Any],
        carries: Callable[[str], bool],
    ) -> None:
        fault = self._faults.meet(fault_operation, carries)
        if fault is not None:
            self._raise_fault(call, operation, arguments, fault)

    def _raise_fault(
        self,
        call: int,
        operation: str,
        arguments: dict[str, Any],
        fault: Fault,
        withheld: dict[str, Any] | None = None,
        shown_ids: list[str] | None = None,
    ) -> NoReturn:
        applied = fault.applied
        payload = {
            "call": call,
            "operation": operation,
            "fault": fault.kind,
            "file_id": fault.file_id,
            "applied": applied,
        }
        if withheld is not None:
            payload["page_token"] = arguments.get("page_token")
            payload["withheld"] = withheld
            if shown_ids is not None:
                payload["shown_ids"] = shown_ids
        self._record.add("fault_injected", payload)
        extra = {"applied": applied} if operation == "sheets.append" else {}
        raise self._answered(call, operation, arguments, fault.exception(), **extra)

    def _invalid(
        self, call: int, operation: str, arguments: dict[str, Any], reason: str
    ) -> NoReturn:
        raise self._answered(call, operation, arguments, InvalidArgument(reason))

    def _answered(
        self,
        call: int,
        operation: str,
        arguments: Mapping[str, object],
        error: LabError,
        **extra: object,
    ) -> LabError:
        """Log `error` as the answer to the call, and count it; the caller raises it.

        Raised as this returns it, never from a name: an error held by a name of the frame it is
        raised from is a reference cycle (error, traceback, frame), which would keep the
        importer's whole stack (a cycle's listing of every file, say) alive until the next
        collection."""
        error.answering(call)
        self._record.add(
            operation, {"call": call, **arguments, "error": error_payload(error), **extra}
        )
        self._record.errors += 1
        return error


__all__ = [
    "CALL_REGISTER",
    "LAB_INVALID_CHANNEL",
    "MAX_PAGE_SIZE",
    "UNREADABLE_REPORT_OPERATION",
    "FilePage",
    "Gateway",
    "SheetSchema",
]
