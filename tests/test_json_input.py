"""Every JSON input is read strictly: deep nesting is one line, never a RecursionError."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from provebench._errors import ProvebenchError
from provebench._jsonfile import MAX_JSON_DEPTH, loads_strict, read_json_file
from provebench.pilot.record import IDENTITY_FILE, RunDir
from provebench.pilot.record._work_digest import EMPTY_WORK_SHA256
from provebench.report import write_report

# Past the interpreter's recursion limit (the parser's own RecursionError), and just past ours.
TOO_DEEP = ["[" * 100_000, "[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1)]


def _deep_file(tmp_path: Path, text: str, name: str = "deep.json") -> Path:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("text", TOO_DEEP, ids=["unclosed-100000", "limit-plus-one"])
def test_the_shared_reader_refuses_deep_json(tmp_path: Path, text: str) -> None:
    with pytest.raises(ProvebenchError, match="nested deeper than 200 levels") as caught:
        read_json_file(_deep_file(tmp_path, text))
    assert caught.value.path == str(tmp_path / "deep.json")
    with pytest.raises(ValueError, match="nested deeper than 200 levels"):
        loads_strict(text)


def test_nesting_at_the_limit_is_read() -> None:
    depth = MAX_JSON_DEPTH
    assert loads_strict("[" * depth + "]" * depth) is not None


@pytest.mark.parametrize("text", TOO_DEEP, ids=["unclosed-100000", "limit-plus-one"])
def test_report_refuses_a_deep_verdict(tmp_path: Path, text: str) -> None:
    with pytest.raises(ProvebenchError, match="nested deeper"):
        write_report(_deep_file(tmp_path, text, "verdict.json"))
    assert not (tmp_path / "report.html").exists()


@pytest.mark.parametrize("text", TOO_DEEP, ids=["unclosed-100000", "limit-plus-one"])
def test_a_run_folder_with_a_deep_identity_or_checkpoint_is_refused(
    tmp_path: Path, text: str
) -> None:
    run = RunDir(tmp_path / "run")
    _deep_file(run.root, text, IDENTITY_FILE)
    with pytest.raises(ProvebenchError, match="nested deeper") as caught:
        run.prepare({"format": "x"})
    assert caught.value.path == str(run.root / IDENTITY_FILE)
    _deep_file(run.checkpoint_dir, text, "snapshot.json")
    with pytest.raises(ProvebenchError, match="nested deeper"):
        run.align_work_dir(0, EMPTY_WORK_SHA256)


def test_a_checkpoint_pointer_must_hold_an_integer(tmp_path: Path) -> None:
    run = RunDir(tmp_path / "run")
    _deep_file(run.checkpoint_dir, json.dumps({"next_cycle": True}), "snapshot.json")
    with pytest.raises(ProvebenchError, match="unreadable checkpoint"):
        run.align_work_dir(0, EMPTY_WORK_SHA256)


@pytest.mark.parametrize(
    "text",
    ['{"a": NaN}', "[Infinity]", "[-Infinity]", "[1e400]", '{"a": 1, "a": 2}', '["\\ud800"]',
     b'["\\xff"]', "[" * 300 + "]" * 300],
)  # fmt: skip
def test_loads_strict_refuses_what_the_file_policy_refuses(text: str | bytes) -> None:
    from provebench._jsonfile import loads_strict

    with pytest.raises(ValueError):
        loads_strict(text)
    assert loads_strict(b'{"a": [1, 2.5, "\\u00e9"]}') == {"a": [1, 2.5, "é"]}
