"""Red team round 11, A4/A2 (docs/attestation.md, "Only what it ran"): a signature covers the
bytes the signing process wrote, never a file read back. The round's scripts rewrote the
evaluator's temporary verdict file during its fsync (A4) and renamed a forged diagnostics.jsonl
over the laboratory's before publish hashed the folder (A2); both forgeries were signed. Each is
played here at the same point, deterministically: refused in one line, nothing signed."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

import pytest

from provebench._canonical import atomic_writer, write_atomic, written_sha256
from provebench._errors import ProvebenchError
from provebench.attest._envelope import AttestationError
from provebench.pilot.lab import _publish
from provebench.pilot.record._rundir import RunDir
from provebench.pilot.record._signing import sign_verdict
from tests.helpers.pilot_evaluation import make_small_corpus, run_agent

FORGED = b'{"laboratory_pass": true, "scorer_pass": true}\n'


def _forge_during_fsync(monkeypatch: pytest.MonkeyPatch, folder: Path, prefix: str) -> list[str]:
    """At the writer's fsync, write the forgery into its temporary file (a4_swap_verdict.py)."""
    seen: list[str] = []
    fsync = os.fsync

    def forging_fsync(fd: int) -> None:
        for entry in folder.iterdir():
            if entry.name.startswith(prefix) and entry.name.endswith(".tmp"):
                seen.append(entry.name)
                entry.write_bytes(FORGED)
        fsync(fd)

    monkeypatch.setattr(os, "fsync", forging_fsync)
    return seen


def test_a_verdict_rewritten_through_the_temporary_file_is_not_signed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    verdict = tmp_path / "verdict.json"
    honest = b'{"laboratory_pass": false, "scorer_pass": false}\n'
    seen = _forge_during_fsync(monkeypatch, tmp_path, ".verdict.json.")
    digest = write_atomic(verdict, honest)
    monkeypatch.undo()
    assert seen and verdict.read_bytes() == FORGED  # the forgery is on disk, as in the round
    assert digest == written_sha256(verdict) != written_sha256(tmp_path / "other.json")
    with pytest.raises(AttestationError) as refused:
        sign_verdict(verdict, {"laboratory_pass": False})
    line = str(refused.value)
    assert "\n" not in line and "verdict.json" in line and "not the one this process wrote" in line
    assert not (tmp_path / "verdict.dsse.json").exists()


def test_a_verdict_left_alone_is_signed_by_the_digest_of_its_bytes(tmp_path: Path) -> None:
    verdict = tmp_path / "verdict.json"
    digest = write_atomic(verdict, b"{}\n")
    envelope = sign_verdict(verdict, {"laboratory_pass": False})
    payload = json.loads(
        __import__("base64").b64decode(json.loads(envelope.read_text())["payload"])
    )
    assert payload["subject"] == [{"name": "verdict.json", "digest": {"sha256": digest}}]


def test_the_temporary_file_is_private_and_unpredictable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    modes: list[int] = []
    names: list[str] = []
    for _ in range(2):
        with atomic_writer(tmp_path / "x.json") as handle:
            (temporary,) = [p for p in tmp_path.iterdir() if p.name.startswith(".x.json.")]
            modes.append(stat.S_IMODE(temporary.lstat().st_mode))
            names.append(temporary.name)
            handle.write("{}\n")
    assert modes == [0o600, 0o600] and names[0] != names[1]
    assert len(names[0]) >= len(".x.json.") + 32 + len(".tmp")
    # Handed on afterwards with a plain open()'s mode.
    assert stat.S_IMODE((tmp_path / "x.json").stat().st_mode) == 0o666 & ~_umask()


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_a_diagnostics_file_renamed_over_before_publish_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    original = _publish._refuse_foreign_files

    def swap_then_check(rundir: RunDir, *args: Any) -> None:
        # a2_swap_diagnostics.py: a forged file renamed over the written one.
        forged = rundir.root / "forged.tmp"
        forged.write_bytes(b'{"channel":"note","cycle":1,"message":"FORGED","seq":1}\n')
        forged.replace(rundir.path("diagnostics.jsonl"))
        original(rundir, *args)

    monkeypatch.setattr(_publish, "_refuse_foreign_files", swap_then_check)
    corpus = make_small_corpus(tmp_path, seed=3)
    out = tmp_path / "run"
    with pytest.raises(ProvebenchError) as refused:
        run_agent(corpus, "reference", out)
    line = str(refused.value)
    assert "\n" not in line and "diagnostics.jsonl" in line and "nothing is signed" in line
    assert not (out / "run.json").exists() and not (out / "run.dsse.json").exists()


def test_a_register_swapped_after_run_json_is_written_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    original = _publish.write_atomic

    def write_then_swap(path: Path, data: bytes | str) -> str:
        digest = original(path, data)
        if Path(path).name == "run.json":
            register = Path(path).with_name("register.csv")
            register.write_text(register.read_text() + "forged,row\n")
        return digest

    monkeypatch.setattr(_publish, "write_atomic", write_then_swap)
    corpus = make_small_corpus(tmp_path, seed=3)
    out = tmp_path / "run"
    with pytest.raises(ProvebenchError) as refused:
        run_agent(corpus, "reference", out)
    line = str(refused.value)
    assert "\n" not in line and "register.csv" in line and "nothing is signed" in line
    assert not (out / "run.json").exists() and not (out / "run.dsse.json").exists()


def test_a_refused_signature_leaves_neither_the_file_nor_a_stale_envelope(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Fail closed: when the evaluator's verdict can no longer be signed as written, no verdict
    stays behind looking like its output, and an envelope of an earlier evaluation is not left
    beside it (both or neither: `attest._envelope.write_and_sign`)."""
    from provebench.pilot.record._signing import write_signed_verdict

    verdict = tmp_path / "verdict.json"
    envelope = tmp_path / "verdict.dsse.json"
    write_signed_verdict(verdict, b'{"earlier": true}\n', {"laboratory_pass": False})
    assert verdict.exists() and envelope.exists()
    seen = _forge_during_fsync(monkeypatch, tmp_path, ".verdict.json.")
    with pytest.raises(AttestationError) as refused:
        write_signed_verdict(verdict, b'{"laboratory_pass": false}\n', {"laboratory_pass": False})
    monkeypatch.undo()
    assert seen and "\n" not in str(refused.value)
    assert not verdict.exists() and not envelope.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_signing_cannot_be_steered_to_delete_a_target_through_a_link(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The file removed on a refused signature is the name itself: a symbolic link renamed over
    the verdict during the write is removed, its target survives."""
    from provebench.attest._envelope import write_and_sign

    precious = tmp_path / "precious.txt"
    precious.write_bytes(b"keep me\n")
    out = tmp_path / "out"
    out.mkdir()
    target = out / "reveal.json"
    fsync = os.fsync

    def relinking_fsync(fd: int) -> None:
        fsync(fd)
        for entry in out.iterdir():
            if entry.name.startswith(".reveal.json.") and entry.name.endswith(".tmp"):
                entry.unlink()
                entry.symlink_to(precious)

    monkeypatch.setattr(os, "fsync", relinking_fsync)
    with pytest.raises(AttestationError):
        write_and_sign(target, b"{}\n", out / "reveal.dsse.json", "urn:x", {})
    monkeypatch.undo()
    assert precious.read_bytes() == b"keep me\n"
    assert not target.exists() and not target.is_symlink()
