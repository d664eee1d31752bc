"""Pilot red team 27, A4: the laboratory read a candidate's diagnostics file by path, following a
link the importer made (`diagnostics.jsonl` → a hidden corpus file, `/proc/self/mem`): the
file's line count went into the signed log, and the laboratory opened its own memory. Now the
file is opened in its cycle folder with no link followed, a regular file only, bounded."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, cast

import pytest

from provebench.pilot.emulator import read_diagnostics_file
from provebench.pilot.emulator._diagnostics import MAX_DIAGNOSTICS_BYTES
from provebench.pilot.lab import CycleContext, Gateway


class _Recorder:
    def __init__(self) -> None:
        self.said: list[tuple[str, dict[str, Any]]] = []

    def diagnose(self, channel: str, fields: dict[str, Any]) -> None:
        self.said.append((channel, fields))


def _read(path: Path) -> list[tuple[str, dict[str, Any]]]:
    recorder = _Recorder()
    # Nothing is delivered to the cycle for a file refused whole: no context is needed.
    read_diagnostics_file(cast(CycleContext, None), cast(Gateway, recorder), path)
    return recorder.said


def _secret(tmp_path: Path) -> Path:
    secret = tmp_path / "hidden" / "expected_final_rows.csv"
    secret.parent.mkdir()
    secret.write_text("file_id\na\nb\nc\n", encoding="utf-8")
    return secret


def test_a_link_to_a_host_file_is_refused_not_read(tmp_path: Path) -> None:
    cycle = tmp_path / "cycle"
    cycle.mkdir()
    (cycle / "diagnostics.jsonl").symlink_to(_secret(tmp_path))
    said = _read(cycle / "diagnostics.jsonl")
    assert len(said) == 1  # one refusal, not one entry per line of the linked file
    assert said[0][0] == "invalid" and "symbolic link" in said[0][1]["problem"]
    assert str(tmp_path) not in str(said)


def test_a_hard_link_to_a_host_file_is_refused_not_read(tmp_path: Path) -> None:
    cycle = tmp_path / "cycle"
    cycle.mkdir()
    os.link(_secret(tmp_path), cycle / "diagnostics.jsonl")
    said = _read(cycle / "diagnostics.jsonl")
    assert len(said) == 1 and "hard link" in said[0][1]["problem"]


def test_a_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    """A pseudo file or FIFO that blocks a reader (`/proc/kmsg`) never holds the laboratory."""
    cycle = tmp_path / "cycle"
    cycle.mkdir()
    os.mkfifo(cycle / "diagnostics.jsonl")
    said = _read(cycle / "diagnostics.jsonl")
    assert len(said) == 1 and "not a regular file" in said[0][1]["problem"]


def test_a_file_over_the_bound_is_refused_whole(tmp_path: Path) -> None:
    cycle = tmp_path / "cycle"
    cycle.mkdir()
    with (cycle / "diagnostics.jsonl").open("wb") as file:
        file.truncate(MAX_DIAGNOSTICS_BYTES + 1)
    said = _read(cycle / "diagnostics.jsonl")
    assert len(said) == 1 and "larger than" in said[0][1]["problem"]


@pytest.mark.parametrize("text", ["[1]\n", "not json\n"])
def test_the_candidates_own_file_is_still_read(tmp_path: Path, text: str) -> None:
    cycle = tmp_path / "cycle"
    cycle.mkdir()
    (cycle / "diagnostics.jsonl").write_text(text, encoding="utf-8")
    said = _read(cycle / "diagnostics.jsonl")
    assert [where["where"] for _, where in said] == ["line 1"]


def test_no_file_is_nothing_said(tmp_path: Path) -> None:
    assert _read(tmp_path / "diagnostics.jsonl") == []
