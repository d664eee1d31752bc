"""The reference importer driven through the laboratory's tools, whichever face carries them
(MCP, an OpenAI-compatible model, Inspect): a `CycleContext` stand-in whose facades turn each
method into a tool call, and each tool error back into the laboratory error its text names."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from provebench.pilot import DriveFile
from provebench.pilot.agents import ReferenceImporter
from provebench.pilot.lab import (
    ApiTimeout,
    FileNotFound,
    FilePage,
    InvalidArgument,
    LabError,
    PermissionDenied,
    RateLimited,
    ServerError,
    ServiceUnavailable,
)
from provebench.pilot.lab._runner import SCHEMA

ToolCall = Callable[[str, dict[str, Any]], tuple[str, bool]]
"""`call(name, arguments) -> (text, is_error)`: one tool call through some face."""

_ERRORS: dict[str, type[LabError]] = {
    error.code: error
    for error in (
        RateLimited,
        ServerError,
        ServiceUnavailable,
        ApiTimeout,
        PermissionDenied,
        InvalidArgument,
        FileNotFound,
    )
}
_ERROR_TEXT = re.compile(r"Error: (?P<code>\w+): (?P<message>.*)", re.DOTALL)
_CALL = re.compile(r"\(call (?P<call>\d+)\)$")


def _answer(call: ToolCall, name: str, arguments: dict[str, Any]) -> Any:
    text, is_error = call(name, arguments)
    if not is_error:
        return json.loads(text)
    match = _ERROR_TEXT.fullmatch(text)
    assert match is not None, text
    error = _ERRORS.get(match["code"], LabError)(match["message"])
    number = _CALL.search(match["message"])
    error.call = None if number is None else int(number["call"])
    raise error


class _Drive:
    def __init__(self, call: ToolCall) -> None:
        self.call = call

    def list_files(self, page_size: int = 100, page_token: str | None = None) -> FilePage:
        arguments: dict[str, Any] = {"page_size": page_size}
        if page_token is not None:
            arguments["page_token"] = page_token
        page = _answer(self.call, "list_files", arguments)
        files = tuple(DriveFile.model_validate(f) for f in page["files"])
        return FilePage(files, tuple(f.file_id for f in files), page["next_page_token"])

    def get_file(self, file_id: str) -> DriveFile:
        return DriveFile.model_validate(_answer(self.call, "get_file", {"file_id": file_id}))


class _Sheets:
    def __init__(self, call: ToolCall) -> None:
        self.call = call

    def append_rows(self, rows: Sequence[Mapping[str, str]]) -> int:
        answer = _answer(self.call, "append_rows", {"rows": [dict(row) for row in rows]})
        return int(answer["appended"])

    def set_status(self, file_id: str, status: str) -> None:
        # The §12 probe through the tools: a row that carries the laboratory's status.
        row = dict.fromkeys(SCHEMA.importer_columns, "")
        _answer(self.call, "append_rows", {"rows": [{**row, "file_id": file_id, "status": status}]})


class _Confirmed:
    def __init__(self, call: ToolCall) -> None:
        self.call = call

    def all(self) -> frozenset[str]:
        return frozenset(_answer(self.call, "read_confirmed_ids", {})["confirmed_ids"])

    def contains(self, file_id: str) -> bool:
        return file_id in self.all()


class _Diagnostics:
    def __init__(self, call: ToolCall) -> None:
        self.call = call

    def _send(self, message: dict[str, Any]) -> None:
        _answer(self.call, "report", {"messages": [message]})

    def error(
        self, code: str, detail: str = "", *, call: int | None = None, file_ids: Sequence[str] = ()
    ) -> None:
        message: dict[str, Any] = {"channel": "error", "code": code, "detail": detail}
        if call is not None:
            message["failed_call"] = call
        if file_ids:
            message["file_ids"] = list(file_ids)
        self._send(message)

    def failed_file(self, file_id: str, reason_code: str, detail: str = "") -> None:
        self._send(
            {"channel": "failed_file", "file_id": file_id, "reason_code": reason_code,
             "detail": detail}
        )  # fmt: skip

    def reconciliation(self, **numbers: Any) -> None:
        extra = {
            k: v
            for k, v in numbers.items()
            if k not in ("source", "imported", "failed", "already_known")
        }
        fixed = {k: numbers[k] for k in ("source", "imported", "failed", "already_known")}
        self._send({"channel": "reconciliation", **fixed, "extra": extra})

    def self_check(self, name: str, passed: bool, detail: str = "") -> None:
        self._send({"channel": "self_check", "name": name, "passed": passed, "detail": detail})

    def note(self, message: str) -> None:
        self._send({"channel": "note", "message": message})


class _Clock:
    def __init__(self, call: ToolCall) -> None:
        self.call = call
        self.now_sec = 0.0

    def now(self) -> float:
        return self.now_sec  # as the last wait answered it: no tool reads the clock alone

    def sleep(self, seconds: float) -> None:
        self.now_sec = float(_answer(self.call, "wait", {"seconds": seconds})["now_sec"])


class ToolContext:
    """What `ReferenceImporter.run_cycle` needs, over tool calls."""

    def __init__(self, call: ToolCall, work_dir: Path) -> None:
        info = _answer(call, "cycle_info", {})
        self.time_zone: str = info["time_zone"]
        self.run_version: str = info["run_version"]
        self.work_dir = work_dir
        self.drive = _Drive(call)
        self.sheets = _Sheets(call)
        self.confirmed = _Confirmed(call)
        self.diagnostics = _Diagnostics(call)
        self.clock = _Clock(call)


def import_through_tools(call: ToolCall, work_dir: Path) -> int:
    """Every cycle of a run, the reference importer's way, through `call`; the cycles done."""
    work_dir.mkdir(parents=True, exist_ok=True)
    cycles = 0
    while True:
        ReferenceImporter().run_cycle(ToolContext(call, work_dir))  # type: ignore[arg-type]
        cycles += 1
        text, is_error = call("finish_cycle", {})
        assert not is_error, text
        if text.startswith("The run is complete"):
            return cycles


__all__ = ["ToolCall", "ToolContext", "import_through_tools"]
