"""The folder an earlier `provebench demo` left, for the run of the demo the suite shares
(tests/conftest.py, `demo_run`): the demo's marker, a file the demo does not write, and a
reference verdict that says the opposite of what the demo finds. A demo that replaced its folder
whole leaves none of them (tests/test_demo.py)."""

from __future__ import annotations

from pathlib import Path

from provebench import _demo as demo_module

LEFTOVER = "run-reference/left-from-before.txt"
STALE_VERDICT = "run-reference/verdict.json"


def make_earlier_demo(out: Path) -> None:
    (out / "run-reference").mkdir(parents=True)
    (out / demo_module._MARKER).write_text(
        "made by `provebench demo`; replaced on the next demo\n", encoding="utf-8"
    )
    (out / LEFTOVER).write_text("an earlier demo's file\n", encoding="utf-8")
    (out / STALE_VERDICT).write_text('{"scorer_pass": false}\n', encoding="utf-8")
