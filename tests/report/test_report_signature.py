"""The report says what vouches for the bytes it shows (docs/report.md, "Signature"): a verdict
is plain JSON, so a `sealed: true` or a band is the file's own word until a signature beside it
verifies and lists those very bytes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from provebench.report import write_report
from provebench.report._signature import check_signature
from tests.helpers.pilot_lab import run_cli
from tests.helpers.report_html import parse_report

NOT_VOUCHED = "NOT VOUCHED FOR: the verdict says it is a sealed result"


def _copy_run(source: Path, to: Path) -> Path:
    shutil.copytree(source.parent, to)
    return to / source.name


def _text(path: Path) -> str:
    return parse_report(path.read_text(encoding="utf-8"))[1]


def test_a_signed_sealed_run_reads_verified(si_verdicts: dict[str, Path], tmp_path: Path) -> None:
    verdict = _copy_run(si_verdicts["diagnoser"], tmp_path / "run")
    assert json.loads(verdict.read_text())["sealed"] is True
    text = _text(write_report(verdict, tmp_path / "r.html"))
    assert "signature: verified — run.dsse.json verifies with key" in text
    assert NOT_VOUCHED not in text


def test_an_edited_verdict_beside_its_signature_is_not_verified(
    si_verdicts: dict[str, Path], tmp_path: Path
) -> None:
    verdict = _copy_run(si_verdicts["noop"], tmp_path / "run")
    edited = json.loads(verdict.read_text())
    edited["band"], edited["score"] = "correct_root_cause", 1.0  # a bought headline
    verdict.write_text(json.dumps(edited))
    text = _text(write_report(verdict, tmp_path / "r.html"))
    assert "signature: not verified — run.dsse.json signed another verdict.json" in text
    # The sealed flag it still carries is not shown as a sealed result: that reason comes first.
    why = text[text.index("Why") :]
    assert why[len("Why") :].lstrip().startswith(NOT_VOUCHED), why[:300]


def test_a_verdict_alone_is_unsigned_and_its_sealed_flag_unvouched(
    si_verdicts: dict[str, Path], tmp_path: Path
) -> None:
    alone = tmp_path / "verdict.json"
    shutil.copyfile(si_verdicts["diagnoser"], alone)
    text = _text(write_report(alone, tmp_path / "r.html"))
    assert "signature: unsigned — no signed envelope beside it" in text and NOT_VOUCHED in text


def test_another_key_or_no_key_is_said(
    si_verdicts: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    verdict = _copy_run(si_verdicts["diagnoser"], tmp_path / "run")
    other = tmp_path / "other.pub.pem"
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    other.write_bytes(
        Ed25519PrivateKey.generate()
        .public_key()
        .public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    )
    check = check_signature(verdict, verdict.read_bytes(), other)
    assert check.status == "not verified" and "not signed by the trusted key" in check.detail
    monkeypatch.setenv("PROVEBENCH_KEY_DIR", str(tmp_path / "no-keys-here"))
    check = check_signature(verdict, verdict.read_bytes(), None)
    assert check.status == "not checked" and "--trust-key" in check.detail


def test_report_trust_key_option_fails_closed(si_verdicts: dict[str, Path], tmp_path: Path) -> None:
    verdict = _copy_run(si_verdicts["diagnoser"], tmp_path / "run")
    done = run_cli("report", str(verdict), "--trust-key", str(tmp_path / "missing.pem"))
    assert done.returncode == 2 and "missing.pem" in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
