"""Red team round 13, H7 (docs/pilot-redteam.md): the verdict named the fresh control's seal by
a second read of `seal.json`, after `open_seal` had checked another (A04: swapped by a racing
process, the signed verdict credited one seal and named another). `open_seal` returns the sha256
of the seal, control and reveal files its verified signatures bind, and the verdict names
exactly those."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pytest

from provebench.attest import TrustedKey, load_trusted_key
from provebench.pilot._seal import candidate_identity, seal_candidate
from provebench.pilot.evaluate import _core, evaluate_run
from provebench.pilot.record import _seal as record_seal
from provebench.pilot.record._seal import SEAL_FILE, OpenedSeal
from tests.helpers.pilot_evaluation import make_small_corpus, run_agent


def test_the_verdict_names_the_seal_it_verified_not_a_later_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    corpus = make_small_corpus(tmp_path)
    run = run_agent(corpus, "noop", tmp_path / "run")
    seal, other = tmp_path / "seal", tmp_path / "other-seal"
    seal_candidate(seal, candidate_identity("noop", None), "control")
    seal_candidate(other, candidate_identity("reference", None), "control")
    verified = hashlib.sha256((seal / SEAL_FILE).read_bytes()).hexdigest()
    real_open = record_seal.open_seal

    def swapped_after_the_check(folder: Path, trusted: TrustedKey) -> OpenedSeal:
        opened = real_open(folder, trusted)
        # The race of A04, made certain: another seal's seal.json replaces the one checked.
        (folder / SEAL_FILE).write_bytes((other / SEAL_FILE).read_bytes())
        return opened

    monkeypatch.setattr(record_seal, "open_seal", swapped_after_the_check)
    monkeypatch.setattr(_core, "open_seal", swapped_after_the_check, raising=False)
    verdict = evaluate_run(run, corpus, fresh_control=seal)
    assert verdict.result_evidence is not None
    named: dict[str, Any] = verdict.result_evidence.inputs_sha256
    assert named["fresh_control"] == verified
    assert named["fresh_control"] != hashlib.sha256((seal / SEAL_FILE).read_bytes()).hexdigest()


def test_open_seal_returns_the_digests_its_signatures_bind(tmp_path: Path) -> None:
    """The honest control: an untouched seal is named by its own seal.json's digest."""
    seal = tmp_path / "seal"
    seal_candidate(seal, candidate_identity("noop", None), "control")
    opened = record_seal.open_seal(seal, load_trusted_key())
    digest = hashlib.sha256((seal / SEAL_FILE).read_bytes()).hexdigest()
    assert opened.verified_sha256 == {SEAL_FILE: digest}
