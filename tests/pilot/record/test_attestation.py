"""Signed evidence (docs/attestation.md): a run folder edited after signing fails evaluation, a
verdict is checked without rerunning, and every bad envelope or key is one line, exit 2."""

from __future__ import annotations

import json
import os
import shutil
import stat
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from provebench.attest import KEY_DIR_ENV, key_dir, load_trusted_key
from provebench.attest._keys import PUBLIC_KEY_FILE
from provebench.pilot.evaluate import evaluate_run, exit_code
from tests.helpers.pilot_evaluation import make_small_corpus, rerecord, run_agent
from tests.helpers.pilot_lab import run_cli


@pytest.fixture(scope="module")
def signed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    corpus = make_small_corpus(tmp_path_factory.mktemp("attest"), seed=4)
    return corpus, run_agent(corpus, "reference", corpus.parent / "run")


@pytest.fixture
def copies(signed: tuple[Path, Path], tmp_path: Path) -> tuple[Path, Path]:
    corpus, run = signed
    shutil.copytree(run, tmp_path / "run")
    return corpus, tmp_path / "run"


def codes(run: Path, corpus: Path) -> list[str]:
    return [error.code for error in evaluate_run(run, corpus).configuration_errors]


def test_a_published_run_is_signed_and_verifies(signed: tuple[Path, Path]) -> None:
    corpus, run = signed
    assert exit_code(evaluate_run(run, corpus)) == 0
    result = run_cli("attest", "verify", str(run / "run.dsse.json"))
    assert result.returncode == 0, result.stderr
    assert "urn:provebench:pilot-run:1" in result.stdout and "all match" in result.stdout
    anchored = run_cli("log", "verify", str(run / "ledger.sqlite"), "--envelope",
                       str(run / "run.dsse.json"))  # fmt: skip
    assert anchored.returncode == 0, anchored.stdout + anchored.stderr


def test_a_run_folder_rehashed_after_signing_fails(copies: tuple[Path, Path]) -> None:
    """The whole attack a folder holder can make: a row dropped, run.json re-recorded."""
    corpus, run = copies
    lines = (run / "register.csv").read_text(encoding="utf-8").splitlines(keepends=True)
    (run / "register.csv").write_text("".join(lines[:-1]), encoding="utf-8")
    rerecord(run, "register.csv")
    assert "run_envelope_mismatch" in codes(run, corpus)
    result = run_cli("pilot", "evaluate", str(run), "--corpus", str(corpus))
    assert result.returncode == 2
    [line] = result.stderr.splitlines()
    assert "configuration error" in line
    # The anchor of the log is the signed one, not run.json's.
    forged = run_cli("log", "verify", str(run / "ledger.sqlite"), "--envelope",
                     str(run / "run.dsse.json"), "--expect-length", "1")  # fmt: skip
    assert forged.returncode == 2 and len(forged.stderr.splitlines()) == 1


def test_run_json_changed_anywhere_after_signing_fails(copies: tuple[Path, Path]) -> None:
    """Even where no score reads it (non_scoring): run.json is the signed file, byte for byte."""
    corpus, run = copies
    record = json.loads((run / "run.json").read_text(encoding="utf-8"))
    record["non_scoring"]["wall_time_sec"] = 0.001
    (run / "run.json").write_text(json.dumps(record), encoding="utf-8")
    [error] = evaluate_run(run, corpus).configuration_errors
    assert (error.code, error.field) == ("run_envelope_mismatch", "subject.run.json")


def test_an_unsigned_run_does_not_pass(copies: tuple[Path, Path]) -> None:
    corpus, run = copies
    (run / "run.dsse.json").unlink()
    verdict = evaluate_run(run, corpus)
    assert [e.code for e in verdict.configuration_errors] == ["run_unsigned"]
    assert not verdict.laboratory_pass and verdict.pilot_pass is None


@pytest.mark.parametrize(
    "content",
    [b"", b"{", b"[]", b'{"payload": "x", "payloadType": "y", "signatures": []}', b"\xff" * 9],
)
def test_an_envelope_that_does_not_parse_is_one_error(
    copies: tuple[Path, Path], content: bytes
) -> None:
    corpus, run = copies
    (run / "run.dsse.json").write_bytes(content)
    verdict = evaluate_run(run, corpus)
    [error] = verdict.configuration_errors
    assert error.code == "run_signature" and error.path == "run.dsse.json"
    assert "\n" not in error.message and not verdict.laboratory_pass


def test_a_run_signed_by_another_key_does_not_pass(
    copies: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    corpus, run = copies
    monkeypatch.setenv(KEY_DIR_ENV, str(tmp_path / "another-lab"))
    from tests.helpers.pilot_evaluation import resign

    resign(run)
    monkeypatch.undo()
    [error] = evaluate_run(run, corpus).configuration_errors
    assert error.code == "run_signature" and "not signed by the trusted key" in error.message
    # With that laboratory's public key as the trusted one, the signature checks, but the log's
    # keyed anchors are still this laboratory's: re-signing a run does not make its log theirs.
    theirs = load_trusted_key(tmp_path / "another-lab" / PUBLIC_KEY_FILE)
    [error] = evaluate_run(run, corpus, trusted_key=theirs).configuration_errors
    assert error.code == "log_anchor" and "not a signature by the trusted key" in error.message


def test_a_run_made_under_another_key_is_accepted_with_that_key(
    signed: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    corpus, _ = signed
    monkeypatch.setenv(KEY_DIR_ENV, str(tmp_path / "another-lab"))
    run = run_agent(corpus, "reference", tmp_path / "run")
    theirs = load_trusted_key(tmp_path / "another-lab" / PUBLIC_KEY_FILE)
    monkeypatch.undo()
    assert exit_code(evaluate_run(run, corpus, trusted_key=theirs)) == 0
    codes = [error.code for error in evaluate_run(run, corpus).configuration_errors]
    assert codes == ["run_signature", "log_anchor"]


def _rsa_public_key(path: Path) -> Path:
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    path.write_bytes(
        key.public_key().public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
        )
    )
    return path


@pytest.mark.parametrize("kind", ["missing", "not-pem", "rsa"])
def test_a_bad_trusted_key_is_one_line_and_no_verdict(
    signed: tuple[Path, Path], tmp_path: Path, kind: str
) -> None:
    corpus, run = signed
    key = tmp_path / "key.pem"
    if kind == "not-pem":
        key.write_text("not a key")
    elif kind == "rsa":
        _rsa_public_key(key)
    out = tmp_path / "verdict.json"
    result = run_cli("pilot", "evaluate", str(run), "--corpus", str(corpus), "--trust-key",
                     str(key), "--out", str(out))  # fmt: skip
    assert result.returncode == 2
    [line] = result.stderr.splitlines()
    assert "--trust-key" in line and str(key) in line
    assert not out.exists()


def test_a_verdict_is_signed_and_checked_without_rerunning(
    copies: tuple[Path, Path], tmp_path: Path
) -> None:
    corpus, run = copies
    result = run_cli("pilot", "evaluate", str(run), "--corpus", str(corpus))
    assert result.returncode == 0, result.stderr
    checked = run_cli("attest", "verify", str(run / "verdict.dsse.json"))
    assert checked.returncode == 0, checked.stderr
    facts = json.loads(checked.stdout.splitlines()[-1])
    assert facts["laboratory_pass"] is True and facts["pilot_pass"] is None
    verdict = json.loads((run / "verdict.json").read_text(encoding="utf-8"))
    verdict["pilot_pass"] = True  # bought after the fact
    (run / "verdict.json").write_text(json.dumps(verdict), encoding="utf-8")
    bought = run_cli("attest", "verify", str(run / "verdict.dsse.json"))
    assert bought.returncode == 1 and "verdict.json: sha256" in bought.stdout


def test_verdicts_and_evidence_are_written_with_the_users_umask(copies: tuple[Path, Path]) -> None:
    corpus, run = copies
    previous = os.umask(0o027)
    try:
        result = run_cli("pilot", "evaluate", str(run), "--corpus", str(corpus))
    finally:
        os.umask(previous)
    assert result.returncode == 0, result.stderr
    for name in ("verdict.json", "verdict.dsse.json"):
        assert stat.S_IMODE((run / name).stat().st_mode) == 0o640, name
    assert stat.S_IMODE((run / "run.dsse.json").stat().st_mode) & 0o044  # readable by others
    private = key_dir() / "laboratory.ed25519.pem"
    assert stat.S_IMODE(private.stat().st_mode) == 0o600  # the one secret stays owner-only


def test_a_rotated_key_still_verifies_what_it_signed(
    signed: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    corpus, run = signed
    keys = tmp_path / "keys"
    shutil.copytree(key_dir(), keys)
    monkeypatch.setenv(KEY_DIR_ENV, str(keys))
    before = load_trusted_key().keyid
    rotated = run_cli("attest", "rotate-key", env={KEY_DIR_ENV: str(keys)})
    assert rotated.returncode == 0, rotated.stderr
    assert before in rotated.stdout and load_trusted_key().keyid != before
    # The new key signed nothing here: neither the run nor its log's anchors.
    errors = evaluate_run(run, corpus).configuration_errors
    assert [(e.code, e.path) for e in errors] == [
        ("run_signature", "run.dsse.json"),
        ("log_anchor", "ledger.sqlite"),
    ]
    retired = load_trusted_key(keys / "retired" / f"{before}.ed25519.pub.pem")
    assert exit_code(evaluate_run(run, corpus, trusted_key=retired)) == 0
