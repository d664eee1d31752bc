"""The evaluator's check that `ledger.jsonl` is the same chain as `ledger.sqlite`, line by line:
every entry's export line in order, nothing missing, nothing after — on the export's bytes as
the evaluator read them once (no path is opened)."""

from __future__ import annotations

from pathlib import Path

import pytest

from provebench.ledger import Ledger, LedgerEntry
from provebench.pilot.evaluate._inputs import _export_matches


@pytest.fixture
def entries(tmp_path: Path) -> list[LedgerEntry]:
    with Ledger.open(tmp_path / "ledger.sqlite") as ledger:
        return [ledger.append("event", {"i": i, "name": f"file_{i}.mp3"}) for i in range(5)]


def _export(lines: list[str]) -> bytes:
    return "".join(lines).encode("utf-8")


def test_the_export_of_the_entries_matches(tmp_path: Path, entries: list[LedgerEntry]) -> None:
    lines = [entry.export_line() + "\n" for entry in entries]
    assert _export_matches(_export(lines), entries)
    lines[-1] = lines[-1].rstrip("\n")  # no newline after the last line: the same lines
    assert _export_matches(_export(lines), entries)


@pytest.mark.parametrize(
    "edit",
    ["last line missing", "a line more", "an empty line after", "a line changed", "two swapped"],
)
def test_any_other_export_does_not(tmp_path: Path, entries: list[LedgerEntry], edit: str) -> None:
    lines = [entry.export_line() + "\n" for entry in entries]
    if edit == "last line missing":
        del lines[-1]
    elif edit == "a line more":
        lines.append(lines[0])
    elif edit == "an empty line after":
        lines.append("\n")
    elif edit == "a line changed":
        lines[2] = lines[2].replace("file_2", "file_9")
    else:
        lines[1], lines[2] = lines[2], lines[1]
    assert not _export_matches(_export(lines), entries)


def test_an_export_that_is_not_utf8_or_empty_does_not(entries: list[LedgerEntry]) -> None:
    assert not _export_matches(b"\xff\xfe\n", entries)
    assert not _export_matches(b"", entries)
