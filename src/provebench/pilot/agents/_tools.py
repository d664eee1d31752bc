"""The laboratory's capabilities as tools for a language model (pilot §3): names, JSON input
schemas, and one function that answers a call against a cycle.

Every face that lets a model import — the MCP server (`pilot serve --mcp`), the built-in
OpenAI-compatible importer, the Inspect AI task — offers exactly these tools and answers them
here, so the same calls make the same log and the same verdict whichever face carried them. A
tool answers with JSON text; a laboratory error is a tool error whose text names the error's
kind and the number of the failed call, which a failure report must name (agent contract, rule 8).
Nothing here decides: each call goes to the cycle's facades, which log it before answering.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from pydantic import JsonValue

from provebench.pilot.emulator import TooManyMessages, apply_messages, gateway_of
from provebench.pilot.lab import CycleContext, LabError
from provebench.pilot.lab._gateway import CALL_REGISTER as SCHEMA
from provebench.pilot.lab._gateway import MAX_SLEEP_SEC

FINISH_CYCLE: Final = "finish_cycle"
MAX_PAGE_SIZE: Final = 1000


@dataclass(frozen=True)
class PilotTool:
    name: str
    description: str
    input_schema: dict[str, JsonValue]


def _object(properties: dict[str, JsonValue], required: tuple[str, ...] = ()) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": properties,
        "required": list(required),
        "additionalProperties": False,
    }


# Every importer column, as text. Not `required`/`additionalProperties: false`: a row that breaks
# the contract must reach the gateway, which refuses and logs it (a row carrying the laboratory's
# `status` is how the §12 final-status probe is made), instead of being stopped by a client-side
# schema check that leaves no trace.
_ROW: Final[dict[str, JsonValue]] = {
    "type": "object",
    "description": "One row: " + ", ".join(SCHEMA.importer_columns) + " (text). No status.",
    "properties": {
        column: {"type": "string", "description": f"The {column} column."}
        for column in SCHEMA.importer_columns
    },
}

TOOLS: Final[tuple[PilotTool, ...]] = (
    PilotTool(
        "cycle_info",
        "This cycle's run version and the configured time zone of that version (pilot §5).",
        _object({}),
    ),
    PilotTool(
        "list_files",
        "One page of the Drive's present files, in ascending file_id order (read-only). Pass "
        "next_page_token back as page_token for the next page; the last page has none.",
        _object(
            {
                "page_size": {
                    "type": "integer",
                    "minimum": 1,
                    "maximum": MAX_PAGE_SIZE,
                    "description": "Files per page (the server may serve fewer); default 100.",
                },
                "page_token": {
                    "type": "string",
                    "description": "The next_page_token of the previous page.",
                },
            }
        ),
    ),
    PilotTool(
        "get_file",
        "The current metadata of one file.",
        _object({"file_id": {"type": "string", "description": "The file's id."}}, ("file_id",)),
    ),
    PilotTool(
        "read_confirmed_ids",
        "The file_ids the laboratory has already confirmed in the register (read-only).",
        _object({}),
    ),
    PilotTool(
        "append_rows",
        "Append rows to the working sheet (every importer column, as text; no status: the "
        "laboratory confirms rows at the end of the cycle). An append answered with a server "
        "error or a timeout may have been applied: never append those rows again blindly.",
        _object(
            {"rows": {"type": "array", "items": _ROW, "description": "The rows to append."}},
            ("rows",),
        ),
    ),
    PilotTool(
        "report",
        "Report on the diagnostics channel: one message or several, each an object with a "
        "`channel` — error (code, detail, failed_call, file_ids), failed_file (file_id, "
        "reason_code, detail), reconciliation (source, imported, failed, already_known, extra), "
        "self_check (name, passed, detail) or note (message). Recorded, never taken as fact. "
        "Text that names no file keeps the published shapes of the contract's rule 2 (a note: "
        "numbers and its listed words only; a self_check detail: one of its sentences or empty): "
        "one in other words, in a cycle that showed a refused file, fails the run "
        "(summary_of_no_published_shape).",
        _object(
            {
                "messages": {
                    "type": "array",
                    "items": {"type": "object"},
                    "description": "The messages, each with its channel.",
                }
            },
            ("messages",),
        ),
    ),
    PilotTool(
        "wait",
        "Wait before the next call, on the laboratory's clock (which advances at once): the "
        "backoff the contract asks for before retrying a call refused as rate limited (429) or "
        "unavailable (503). Answers the clock's time since the cycle started.",
        _object(
            {
                "seconds": {
                    "type": "number",
                    "minimum": 0,
                    "maximum": MAX_SLEEP_SEC,
                    "description": "How long to wait, in seconds.",
                }
            },
            ("seconds",),
        ),
    ),
    PilotTool(
        FINISH_CYCLE,
        "End this cycle: the laboratory confirms the rows appended in it.",
        _object({}),
    ),
)
TOOL_NAMES: Final = frozenset(tool.name for tool in TOOLS)


@dataclass(frozen=True)
class ToolAnswer:
    text: str
    is_error: bool = False


def call_tool(ctx: CycleContext, name: str, arguments: Mapping[str, Any]) -> ToolAnswer:
    """Answer one tool call (not `finish_cycle`, which is the face's) against `ctx`."""
    try:
        return ToolAnswer(_json(_dispatch(ctx, name, arguments)))
    except LabError as error:
        return ToolAnswer(error_text(error), is_error=True)
    except _BadCall as error:
        return ToolAnswer(f"Error: invalid_argument: {error}", is_error=True)


def error_text(error: LabError) -> str:
    """A laboratory error as the model reads it: its kind and its message, which carries the
    number of the failed call."""
    return f"Error: {error.code}: {error.message}"


class _BadCall(Exception):
    pass


def _dispatch(ctx: CycleContext, name: str, arguments: Mapping[str, Any]) -> Any:
    if name == "cycle_info":
        _only(arguments)
        return {"run_version": ctx.run_version, "time_zone": ctx.time_zone}
    if name == "list_files":
        _only(arguments, "page_size", "page_token")
        size = arguments.get("page_size", 100)
        token = arguments.get("page_token")
        if type(size) is not int or not (token is None or isinstance(token, str)):
            raise _BadCall("page_size is an integer, page_token a string")
        page = ctx.drive.list_files(size, token)
        return {
            "files": [_file(f) for f in page.files],
            "next_page_token": page.next_page_token,
        }
    if name == "get_file":
        _only(arguments, "file_id")
        file_id = arguments.get("file_id")
        if not isinstance(file_id, str):
            raise _BadCall("file_id is a string")
        return _file(ctx.drive.get_file(file_id))
    if name == "read_confirmed_ids":
        _only(arguments)
        return {"confirmed_ids": sorted(ctx.confirmed.all())}
    if name == "append_rows":
        _only(arguments, "rows")
        rows = arguments.get("rows")
        if not isinstance(rows, list) or not all(isinstance(row, dict) for row in rows):
            raise _BadCall("rows is a list of objects")
        return {"appended": ctx.sheets.append_rows(rows)}
    if name == "wait":
        _only(arguments, "seconds")
        # As given: a duration that is not one is the gateway's to refuse, and to log.
        ctx.clock.sleep(arguments.get("seconds"))  # type: ignore[arg-type]
        return {"now_sec": ctx.clock.now()}
    if name == "report":
        _only(arguments, "messages")
        messages = arguments.get("messages")
        items = messages if isinstance(messages, list) else [messages]
        try:
            return {"recorded": apply_messages(ctx, gateway_of(ctx), items)}
        except TooManyMessages as error:
            raise _BadCall(str(error)) from None
    # Not a laboratory call (nothing reached the gateway, so nothing is logged): the model is
    # told which tools there are.
    raise _BadCall(f"unknown tool {name!r}; the tools are {', '.join(sorted(TOOL_NAMES))}")


def _only(arguments: Mapping[str, Any], *allowed: str) -> None:
    unknown = sorted(set(arguments) - set(allowed))
    if unknown:
        raise _BadCall(f"unknown argument(s) {', '.join(unknown)}")


def _file(file: Any) -> dict[str, Any]:
    data: dict[str, Any] = file.model_dump(mode="json")
    return data


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def cycle_prompt(ctx: CycleContext) -> str:
    """What the model is told at the start of a cycle (the contract is the system text)."""
    return (
        f"A new cycle is open. Run version {ctx.run_version}; configured time zone "
        f"{ctx.time_zone}. Import every new call recording into the working sheet exactly once, "
        f"following the agent contract; report on the diagnostics channel; then call "
        f"{FINISH_CYCLE}."
    )


__all__ = [
    "FINISH_CYCLE",
    "TOOLS",
    "TOOL_NAMES",
    "PilotTool",
    "ToolAnswer",
    "call_tool",
    "cycle_prompt",
    "error_text",
]
