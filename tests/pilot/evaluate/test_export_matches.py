"""The evaluator's check that `ledger.jsonl` is the same chain as `ledger.sqlite`, line by line:
every entry's export line in order, nothing missing, nothing after."""

from __future__ import annotations

from pathlib import Path

import pytest

from provebench.ledger import Ledger, LedgerEntry
from provebench.pilot.evaluate._inputs import _export_matches


@pytest.fixture
def entries(tmp_path: Path) -> list[LedgerEntry]:
    with Ledger.open(tmp_path / "ledger.sqlite") as ledger:
        return [ledger.append("event", {"i": i, "name": f"file_{i}.mp3"}) for i in range(5)]


def _export(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "ledger.jsonl"
    path.write_text("".join(lines), encoding="utf-8")
    return path


def test_the_export_of_the_entries_matches(tmp_path: Path, entries: list[LedgerEntry]) -> None:
    lines = [entry.export_line() + "\n" for entry in entries]
    assert _export_matches(_export(tmp_path, lines), entries)
    lines[-1] = lines[-1].rstrip("\n")  # no newline after the last line: the same lines
    assert _export_matches(_export(tmp_path, lines), entries)


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
    assert not _export_matches(_export(tmp_path, lines), entries)


def test_an_export_that_is_not_utf8_or_not_there_does_not(
    tmp_path: Path, entries: list[LedgerEntry]
) -> None:
    path = tmp_path / "ledger.jsonl"
    path.write_bytes(b"\xff\xfe\n")
    assert not _export_matches(path, entries)
    assert not _export_matches(tmp_path / "absent.jsonl", entries)
