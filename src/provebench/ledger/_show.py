"""Rows for `provebench log show`, from the SQLite file or a JSONL export, as display text."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from provebench._errors import ProvebenchError
from provebench.ledger._rows import jsonl_rows, sqlite_rows
from provebench.ledger._schema import looks_like_sqlite


def shown_rows(path: Path, kind: str | None) -> Iterator[tuple[str, str, str, str]]:
    """(seq, kind, payload, hash) as printable text; malformed rows are shown, marked."""
    if not path.is_file():
        raise ProvebenchError("ledger not found", path=path)
    rows = sqlite_rows(path) if looks_like_sqlite(path) else jsonl_rows(path)
    for row in rows:
        if kind is not None and row.kind != kind:
            continue
        seq = "?" if row.seq is None else str(row.seq)
        if row.payload_text is None:
            yield seq, _printable(row.kind or "?"), f"<malformed: {row.problem}>", "?"
            continue
        yield seq, _printable(row.kind or "?"), _printable(row.payload_text), row.hash or "?"


def _printable(text: str) -> str:
    """Escape what a terminal would act on (control, bidi and other non-printing characters)."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else f"\\u{ord(c):04x}" for c in text)


__all__ = ["shown_rows"]
