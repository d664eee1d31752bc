"""Same verdict bytes, same report bytes: no clock, no random ids, no path in the page."""

from __future__ import annotations

import shutil

from provebench.report import render_report, write_report
from tests.helpers.report_html import load_json


def test_render_twice_gives_identical_text(pilot_verdicts, si_verdicts):
    for path in [*pilot_verdicts.values(), *si_verdicts.values()]:
        verdict = load_json(path)
        assert render_report(verdict) == render_report(load_json(path))


def test_written_reports_are_byte_identical_wherever_the_verdict_lies(pilot_verdicts, tmp_path):
    source = pilot_verdicts["deletes_an_error"]
    copy = tmp_path / "elsewhere" / "verdict.json"
    copy.parent.mkdir()
    shutil.copyfile(source, copy)
    first = write_report(source, tmp_path / "a.html").read_bytes()
    second = write_report(copy).read_bytes()
    assert first == second
    assert str(tmp_path) not in first.decode("utf-8")


def test_different_verdict_bytes_give_a_different_sha256_in_the_report(si_verdicts, tmp_path):
    source = si_verdicts["noop"]
    reformatted = tmp_path / "verdict.json"
    reformatted.write_text(source.read_text(encoding="utf-8").replace("\n", "\r\n"))
    original = write_report(source, tmp_path / "a.html").read_text(encoding="utf-8")
    changed = write_report(reformatted, tmp_path / "b.html").read_text(encoding="utf-8")
    assert original != changed  # the same data, but other bytes: the sha256 differs
    assert original.replace("\n", "") != changed.replace("\n", "")
