"""The cycle's write-ahead record: every call, answer, refusal and fault, in call order.

The adapters append `(kind, payload)` here before they answer the importer (pilot §6 "all cycles
and errors are present in the external immutable log"). The runner commits the whole record to
the ledger in one transaction that ends with `cycle_confirmed`; a cycle that never commits leaves
no trace in the ledger, the register or the importer's work directory, and is run again from its
start (docs/pilot-lab.md, "Crash safety").
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

# How deep a value an importer passes is copied into the log before it is summarised by type.
_MAX_DEPTH = 6
_INT_LIMIT = 2**63

Entry = tuple[str, dict[str, Any]]

# What the record keeps of the requests an importer sends in one cycle, everything a request puts
# in the ledger counted together: its target (path, so its path parameters, and query string) and
# its body as sent, and `REQUEST_ENTRY_BYTES` an entry. Charged before the request's entry (and
# anything its dispatch records) is added; a request past it is answered 429 unserved and only
# counted, and the cycle ends in an `agent_error` naming this limit. Pilot red team 45, H1: a
# flood of 24 MiB bodies wrote 3.6 GB of ledger; sandbox red team 46, P1: the query strings of
# unrouted requests, recorded whole and charged nothing, wrote 1.1 GB in 20 s. The reference
# importer sends a few kB a cycle (docs/pilot-lab.md, "Limits"): the bound is far above it, and
# above the diagnostics an importer may send in a cycle (16 MiB) with its appends.
MAX_RECORDED_REQUEST_BYTES = 64 * 1024 * 1024
# What one request's entry costs besides its target and body: an empty request's entry is about
# 300 bytes in each of the ledger's two stores (P1: without it the entries of empty requests
# grew the ledger with time alone).
REQUEST_ENTRY_BYTES = 1024


class CycleRecord:
    """An ordered buffer of ledger entries plus the cycle's call counter."""

    __slots__ = (
        "_on_call",
        "calls",
        "entries",
        "errors",
        "request_bytes",
        "requests_past_budget",
    )

    def __init__(self, on_call: Callable[[int], None] | None = None) -> None:
        self.entries: list[Entry] = []
        self.calls = 0
        self.errors = 0
        # Bytes the cycle's requests were charged (`take_request`), and how many came past the
        # budget (each counted, none recorded).
        self.request_bytes = 0
        self.requests_past_budget = 0
        # Test hook of the crash-safety tests: called with each call number (docs/pilot-lab.md).
        self._on_call = on_call

    def next_call(self) -> int:
        self.calls += 1
        if self._on_call is not None:
            self._on_call(self.calls)
        return self.calls

    def add(self, kind: str, payload: dict[str, Any]) -> None:
        self.entries.append((kind, payload))

    @property
    def request_budget_passed(self) -> bool:
        return self.requests_past_budget > 0

    def take_request(self, size: int) -> bool:
        """Whether a request that puts `size` bytes of its own (target and body) in the record
        may be recorded: charged, with `REQUEST_ENTRY_BYTES`, against
        `MAX_RECORDED_REQUEST_BYTES` when it fits; once one does not, none after it is, each
        only counted (the record depends on the requests' order and sizes only)."""
        cost = size + REQUEST_ENTRY_BYTES
        fits = self.request_bytes + cost <= MAX_RECORDED_REQUEST_BYTES
        if not self.requests_past_budget and fits:
            self.request_bytes += cost
            return True
        self.requests_past_budget += 1
        return False


def plain(value: object, depth: int = 0) -> Any:
    """A JSON-safe copy of what an importer passed, for the log. Data stays data: nothing here
    is interpreted or executed (subclasses are read through the base type, so no importer method
    runs), and anything that is not plain JSON is recorded by its type name."""
    if value is None or isinstance(value, bool):
        return None if value is None else bool.__bool__(value)
    if isinstance(value, int):
        number = int.__int__(value)
        # Bounded so that every logged number is plain JSON any reader can hold.
        return number if -_INT_LIMIT < number < _INT_LIMIT else {"type": "int", "large": True}
    if isinstance(value, str):
        return safe_text(str.__str__(value))
    if isinstance(value, float):
        real = float.__float__(value)
        return real if math.isfinite(real) else {"type": "float", "repr": float.__repr__(real)}
    if depth >= _MAX_DEPTH:
        return {"type": type(value).__name__, "truncated": True}
    if type(value) in (list, tuple):
        return [plain(item, depth + 1) for item in value]  # type: ignore[attr-defined]
    if type(value) is dict:
        return {
            (safe_text(str.__str__(key)) if isinstance(key, str) else f"<{type(key).__name__}>"): (
                plain(item, depth + 1)
            )
            for key, item in dict.items(value)
        }
    return {"type": type(value).__name__}


def safe_text(text: str) -> str:
    """The text itself, or with lone surrogates escaped so the log stays valid UTF-8."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text


def error_payload(error: BaseException) -> dict[str, str]:
    code = getattr(error, "code", type(error).__name__)
    return {"code": safe_text(str(code)), "message": safe_text(str(error))}


__all__ = [
    "MAX_RECORDED_REQUEST_BYTES",
    "REQUEST_ENTRY_BYTES",
    "CycleRecord",
    "Entry",
    "error_payload",
    "plain",
    "safe_text",
]
