"""Red team round 12b, C1 and K1 (docs/pilot-redteam.md): a digest a signature states is the
digest of the bytes the command read and checked, never a second read by path that a file
renamed in since would answer. C1: `pilot compare` named the shadow verdict by hashing its path
again, and a material verdict renamed in after the check was named by a "clear" comparison.
K1: `pilot control` hashed `manifest.json` again by path before signing `control.json`, and a
control corpus of a known seed renamed in was signed as the sealed control. Each swap is made
here at the racer's point, deterministically."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pytest

from provebench._errors import ProvebenchError
from provebench.attest import load_trusted_key
from provebench.pilot._seal import candidate_identity, generate_control, seal_candidate
from provebench.pilot.corpus import _folder
from provebench.pilot.evaluate import _compare
from provebench.pilot.evaluate._core import evaluate_run, write_verdict
from tests.helpers.pilot_evaluation import make_small_corpus, run_agent


def test_c1_compare_names_a_verdict_by_the_bytes_it_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    corpus = make_small_corpus(tmp_path, seed=1)
    run = run_agent(corpus, "noop", tmp_path / "run")
    path = run / "verdict.json"
    write_verdict(evaluate_run(run, corpus), path)
    genuine = hashlib.sha256(path.read_bytes()).hexdigest()
    other = tmp_path / "other.json"
    other.write_bytes(b'{"material": true}\n')
    read = _compare.read_once

    def read_then_swap(target: Path) -> Any:
        held = read(target)
        other.replace(target)  # the racer: right after the checked read
        return held

    monkeypatch.setattr(_compare, "read_once", read_then_swap)
    _, named = _compare._verified(path, load_trusted_key(), "SHADOW_VERDICT")
    assert named == genuine != hashlib.sha256(path.read_bytes()).hexdigest()


def test_k1_the_control_record_names_the_manifest_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    trusted = load_trusted_key()
    seal = tmp_path / "seal"
    seal_candidate(seal, candidate_identity("reference", None), "control")
    known = make_small_corpus(tmp_path, seed=424242)  # a corpus the attacker made beforehand
    write = _folder.write_corpus

    def write_then_swap(config: Any, out: Path, *args: Any, **kwargs: Any) -> Any:
        info = write(config, out, *args, **kwargs)
        (known / "manifest.json").replace(out / "manifest.json")  # before it is hashed
        return info

    monkeypatch.setattr(_folder, "write_corpus", write_then_swap)
    with pytest.raises(ProvebenchError, match="not the one this process wrote") as refused:
        generate_control(seal, tmp_path / "control", trusted)
    assert "manifest.json" in str(refused.value.path)
    assert not (seal / "control.json").exists() and not (seal / "control.dsse.json").exists()
