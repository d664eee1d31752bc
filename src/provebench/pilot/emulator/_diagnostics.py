"""The diagnostics channel of an external importer (pilot §3 "a separate channel").

An importer sends JSON objects, one per message, either as lines of the file named by
`PROVEBENCH_DIAGNOSTICS_FILE` (read by the lab after the importer exits) or as the body of
`POST /provebench/v1/diagnostics` (one object or a list). Each object has a `channel` and the
fields of the in-process `Diagnostics` methods:

    {"channel": "error", "code": "...", "detail": "...", "failed_call": 17, "file_ids": ["..."]}
    {"channel": "failed_file", "file_id": "...", "reason_code": "...", "detail": "..."}
    {"channel": "reconciliation", "source": 9, "imported": 7, "failed": 1, "already_known": 1,
     "extra": {"in_doubt": 0}}
    {"channel": "self_check", "name": "...", "passed": true, "detail": "..."}
    {"channel": "note", "message": "..."}

What is said is recorded, never scored as fact (pilot §9). A message that does not fit is
recorded as `invalid` with its position and why, never dropped silently; one whose text holds a
control character other than tab and newline, or a bidi control, is refused by the gateway as an
operation the contract does not grant (`lab/_report_text.py`), and the attempt counts.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from provebench._errors import ProvebenchError
from provebench._jsonfile import loads_strict
from provebench._read_once import read_in_folder
from provebench.pilot.lab import CycleContext, Gateway
from provebench.pilot.lab._errors import PermissionDenied
from provebench.sandbox._policy import MAX_DIAGNOSTICS_BYTES

# Each message becomes a ledger entry: one 2 MB request of `[0,0,...]` made a million. A request
# holding more is refused whole (400), as a bad call.
MAX_MESSAGES_PER_REQUEST = 1000
# The same for the file an --agent-cmd importer writes in a cycle: 16 MiB of `0` lines would be
# eight million entries. The cap is far above what an honest importer says in a cycle (a line
# per refused file, a few more); what lies beyond it is not read, and that is recorded.
MAX_MESSAGES_PER_FILE = 100_000
_TEXT_FIELDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    # channel: (required text fields, optional text fields)
    "error": (("code",), ("detail",)),
    "failed_file": (("file_id", "reason_code"), ("detail",)),
    "note": (("message",), ()),
}
_COUNTS = ("source", "imported", "failed", "already_known")


def _is_count(value: object) -> bool:
    return type(value) is int


class TooManyMessages(ValueError):
    """One request held more than MAX_MESSAGES_PER_REQUEST messages: refused whole."""


def apply_messages(ctx: CycleContext, gateway: Gateway, items: list[object]) -> int:
    """One request's messages, each passed on or recorded as `invalid`; a request holding more
    than MAX_MESSAGES_PER_REQUEST is refused whole (`TooManyMessages`), nothing recorded of it
    here. Every face that takes diagnostics in requests (HTTP, the model tools) goes through it."""
    if len(items) > MAX_MESSAGES_PER_REQUEST:
        raise TooManyMessages(
            f"{len(items)} diagnostics messages in one request; at most "
            f"{MAX_MESSAGES_PER_REQUEST} (send the rest in further requests)"
        )
    for index, item in enumerate(items):
        apply_message(ctx, gateway, item, f"message {index + 1}")
    return len(items)


def apply_message(ctx: CycleContext, gateway: Gateway, item: object, where: str) -> None:
    """Pass one message to the cycle's diagnostics, or record why it does not fit."""
    try:
        problem = _deliver(ctx, item)
    except PermissionDenied:
        # Refused by the gateway (text no reader can read as stored, `lab/_report_text.py`):
        # the attempt is already in the log as a refused operation, which counts against the
        # importer; recording it again as `invalid` would add nothing.
        return
    if problem is not None:
        gateway.diagnose("invalid", {"where": where, "problem": problem})


def _deliver(ctx: CycleContext, item: object) -> str | None:
    if not isinstance(item, dict):
        return "a message must be a JSON object"
    channel = item.get("channel")
    diagnostics = ctx.diagnostics
    if channel == "error" and ("failed_call" in item or "file_ids" in item):
        # The link from a failure report to the failed call (agent contract, rule 8).
        call, file_ids = item.get("failed_call"), item.get("file_ids", [])
        rest = {k: v for k, v in item.items() if k not in ("failed_call", "file_ids")}
        if (call is not None and type(call) is not int) or not (
            isinstance(file_ids, list) and all(isinstance(f, str) for f in file_ids)
        ):
            return "error takes an integer failed_call and a list of text file_ids"
        problem = _text_fields_problem("error", rest)
        if problem is not None:
            return problem
        diagnostics.error(rest["code"], rest.get("detail", ""), call=call, file_ids=file_ids)
        return None
    if channel in _TEXT_FIELDS:
        problem = _text_fields_problem(channel, item)
        if problem is not None:
            return problem
        required, optional = _TEXT_FIELDS[channel]
        values: list[Any] = [item[k] for k in required] + [item.get(k, "") for k in optional]
        if channel == "error":
            diagnostics.error(*values)
        elif channel == "failed_file":
            diagnostics.failed_file(*values)
        else:
            diagnostics.note(*values)
        return None
    if channel == "reconciliation":
        extra = item.get("extra", {})
        if (
            set(item) - {"channel", "extra", *_COUNTS}
            or not all(_is_count(item.get(k)) for k in _COUNTS)
            or not isinstance(extra, dict)
            or not all(isinstance(k, str) and _is_count(v) for k, v in extra.items())
            or set(extra) & {*_COUNTS}
        ):
            return "reconciliation takes integer source, imported, failed, already_known, extra"
        counts = {k: item[k] for k in _COUNTS}
        diagnostics.reconciliation(**counts, **extra)
        return None
    if channel == "self_check":
        if (
            set(item) - {"channel", "name", "passed", "detail"}
            or not isinstance(item.get("name"), str)
            or not isinstance(item.get("passed"), bool)
            or not isinstance(item.get("detail", ""), str)
        ):
            return "self_check takes text name, boolean passed, text detail"
        diagnostics.self_check(item["name"], item["passed"], item.get("detail", ""))
        return None
    return "unknown channel (error, failed_file, reconciliation, self_check, note)"


def _text_fields_problem(channel: str, item: dict[str, Any]) -> str | None:
    required, optional = _TEXT_FIELDS[channel]
    allowed = {"channel", *required, *optional}
    if (
        set(item) - allowed
        or any(not isinstance(item.get(k), str) for k in required)
        or any(not isinstance(item.get(k, ""), str) for k in optional)
    ):
        return f"{channel} takes text fields {', '.join(required + optional)}"
    return None


def read_diagnostics_file(ctx: CycleContext, gateway: Gateway, path: Path) -> None:
    """Deliver the messages an importer wrote to its diagnostics file, in order. The file is
    the candidate's to make: it is read from its cycle folder's descriptor with no link
    followed, a regular file of at most MAX_DIAGNOSTICS_BYTES (`read_in_folder`); anything
    else is recorded as `invalid`, never opened (pilot red team 27, A4: a link to a hidden
    corpus file put its line count into the signed log, a link to `/proc/self/mem` opened the
    laboratory's own memory)."""
    try:
        held = read_in_folder(path.parent, path.name, max_bytes=MAX_DIAGNOSTICS_BYTES)
    except ProvebenchError as error:
        # The message names the file by its name alone: the same bytes in every cycle folder.
        gateway.diagnose("invalid", {"where": "file", "problem": error.message})
        return
    if held is None:
        return
    data = held.data
    read = 0
    for number, raw in enumerate(data.split(b"\n"), start=1):
        if not raw.strip():
            continue
        where = f"line {number}"
        if read == MAX_MESSAGES_PER_FILE:
            problem = f"more than {MAX_MESSAGES_PER_FILE} messages: the rest is not read"
            gateway.diagnose("invalid", {"where": where, "problem": problem})
            return
        read += 1
        try:
            item = loads_strict(raw.decode("utf-8"))  # refused by the JSON policy: a ValueError too
        except (UnicodeDecodeError, ValueError):
            gateway.diagnose("invalid", {"where": where, "problem": "not a JSON line"})
            continue
        apply_message(ctx, gateway, item, where)


__all__ = [
    "MAX_DIAGNOSTICS_BYTES",
    "MAX_MESSAGES_PER_FILE",
    "MAX_MESSAGES_PER_REQUEST",
    "TooManyMessages",
    "apply_message",
    "apply_messages",
    "read_diagnostics_file",
]
