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
    for envelope in source.parent.glob("*.dsse.json"):  # what vouches for it travels with it
        shutil.copyfile(envelope, copy.with_name(envelope.name))
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


def test_input_hashes_are_listed_sorted_whatever_the_order_in_the_verdict(pilot_verdicts):
    verdict = load_json(pilot_verdicts["reference"])
    hashes = verdict["result_evidence"]["inputs_sha256"]
    verdict["result_evidence"]["inputs_sha256"] = dict(reversed(list(hashes.items())))
    # The same sha256 for both: the canonical JSON (and so its hash) follows the verdict's order.
    shuffled = render_report(verdict, verdict_sha256="0" * 64)
    verdict["result_evidence"]["inputs_sha256"] = dict(sorted(hashes.items()))
    assert shuffled == render_report(verdict, verdict_sha256="0" * 64)
    names = sorted(hashes)
    positions = [shuffled.index(f"<tr><td>{name}</td>") for name in names]
    assert positions == sorted(positions)
