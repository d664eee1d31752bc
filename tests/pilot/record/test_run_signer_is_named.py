"""Red team round 12b, F1 (docs/pilot-redteam.md): `pilot evaluate --trust-key OTHER.pub` signs
the verdict with this laboratory's key, and neither the verdict nor its signature named the key
that vouched for the run: `pilot reveal` (and `--fresh-control` after it) took a control this
laboratory never ran. The verdict's signed facts now name the run's signer (`run_signer`), and
reveal and compare require it to be their own trusted key; a verdict signed without the field
is refused."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from provebench._errors import ProvebenchError
from provebench.attest import KEY_DIR_ENV, load_trusted_key
from provebench.attest._keys import PUBLIC_KEY_FILE, laboratory_signer
from provebench.pilot._seal import candidate_identity, generate_control, reveal, seal_candidate
from provebench.pilot.evaluate import evaluate_run, write_verdict
from provebench.pilot.evaluate._compare import _verified
from provebench.pilot.evaluate._core import verdict_facts
from provebench.pilot.record._signing import sign_verdict
from tests.helpers.pilot_evaluation import make_small_corpus, run_agent


def _foreign_verdict(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A run signed by another laboratory's key, evaluated here with `--trust-key OTHER` and
    signed with this laboratory's key (as `pilot evaluate` does)."""
    corpus = make_small_corpus(tmp_path, seed=1)
    own = Path(os.environ[KEY_DIR_ENV])
    other = tmp_path / "other-keys"
    laboratory_signer(other)
    monkeypatch.setenv(KEY_DIR_ENV, str(other))
    run = run_agent(corpus, "noop", tmp_path / "run")
    monkeypatch.setenv(KEY_DIR_ENV, str(own))
    verdict = evaluate_run(run, corpus, trusted_key=load_trusted_key(other / PUBLIC_KEY_FILE))
    assert verdict.status == "evaluated"  # the other key vouched for it
    assert verdict.run_signer != load_trusted_key().keyid
    write_verdict(verdict, run / "verdict.json")  # signed with this laboratory's key
    return run / "verdict.json"


def test_compare_refuses_a_verdict_of_a_run_another_key_signed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _foreign_verdict(tmp_path, monkeypatch)
    with pytest.raises(ProvebenchError, match="not this laboratory's") as refused:
        _verified(path, load_trusted_key(), "SHADOW_VERDICT")
    assert "\n" not in str(refused.value)


def test_a_verdict_signed_without_its_run_signer_is_refused(tmp_path: Path) -> None:
    corpus = make_small_corpus(tmp_path, seed=1)
    run = run_agent(corpus, "noop", tmp_path / "run")
    verdict = evaluate_run(run, corpus)
    path = run / "verdict.json"
    write_verdict(verdict, path)
    assert _verified(path, load_trusted_key(), "SHADOW_VERDICT")[0] == verdict
    older = {k: v for k, v in verdict_facts(verdict).items() if k != "run_signer"}
    sign_verdict(path, older)  # as a build before round 12b signed it
    with pytest.raises(ProvebenchError, match="does not name the key that verified its run"):
        _verified(path, load_trusted_key(), "SHADOW_VERDICT")


def test_reveal_refuses_a_control_this_laboratory_never_ran(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    trusted = load_trusted_key()
    seal = tmp_path / "seal"
    seal_candidate(seal, candidate_identity("noop", None), "control")
    generate_control(seal, tmp_path / "control", trusted)
    path = _foreign_verdict(tmp_path, monkeypatch)
    with pytest.raises(ProvebenchError, match="not this laboratory's") as refused:
        reveal(seal, path, trusted)
    assert "\n" not in str(refused.value)
    assert not (seal / "reveal.json").exists()
