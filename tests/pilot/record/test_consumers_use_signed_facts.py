"""Red team round 11, A4b and A4c on the consumer side (docs/pilot-redteam.md): a verdict file
forged while the evaluator signed it (A4: the signer hashed the file back from disk) carried the
signature of the evaluator's own facts and the forger's words. `pilot compare` compared the
forged words (a fake "shadow" verdict, no material discrepancy) and `pilot reveal` took
`isolation.from_seal` from them (a control not run from the seal, revealed). Each consumer now
parses only the bytes it verified and uses them only when they say what the signature states;
reveal takes from_seal and resumed from the signed predicate. The forgery is made here as A4
left it: the forged file, signed with the predicate of the genuine verdict."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from provebench._canonical import canonical_json, write_atomic
from provebench._errors import ProvebenchError
from provebench.attest import load_trusted_key
from provebench.pilot import run_lab
from provebench.pilot._seal import candidate_identity, generate_control, reveal, seal_candidate
from provebench.pilot.evaluate import evaluate_run, write_verdict
from provebench.pilot.evaluate._compare import _verified
from provebench.pilot.evaluate._core import verdict_facts
from provebench.pilot.evaluate._verdict import Verdict
from provebench.pilot.record import open_seal
from provebench.pilot.record._signing import sign_verdict
from tests.helpers.pilot_evaluation import make_small_corpus, run_agent


def _forge(path: Path, genuine: Verdict, edit: dict[str, object]) -> None:
    """A4's outcome: the file replaced by a forged verdict, signed with the genuine facts. The
    signer now signs only bytes this process wrote (so A4 itself is refused at signing); the
    forged bytes are written through its writer here, to hold the consumers' own check."""
    document = json.loads(path.read_text(encoding="utf-8"))
    for dotted, value in edit.items():
        *parents, leaf = dotted.split(".")
        node = document
        for key in parents:
            node = node[key]
        node[leaf] = value
    write_atomic(path, canonical_json(document))
    sign_verdict(path, verdict_facts(genuine))


def test_a4b_compare_uses_a_verdict_only_when_it_says_what_was_signed(tmp_path: Path) -> None:
    corpus = make_small_corpus(tmp_path, seed=1)
    run = run_agent(corpus, "noop", tmp_path / "run")
    genuine = evaluate_run(run, corpus)
    path = run / "verdict.json"
    write_verdict(genuine, path)
    assert _verified(path, load_trusted_key(), "SHADOW_VERDICT")[0] == genuine
    _forge(path, genuine, {"result_evidence.corpus.profile": "shadow", "laboratory_pass": True})
    with pytest.raises(ProvebenchError, match="is not what its signature states"):
        _verified(path, load_trusted_key(), "SHADOW_VERDICT")


@pytest.mark.slow
def test_a4c_reveal_takes_from_seal_from_the_signed_predicate(tmp_path: Path) -> None:
    trusted = load_trusted_key()
    seal = tmp_path / "seal"
    seal_candidate(seal, candidate_identity("noop", None), "control")
    control = tmp_path / "control"
    generate_control(seal, control, trusted)
    run_lab(control, "noop", tmp_path / "unsealed")  # not run from the seal's copy
    genuine = evaluate_run(tmp_path / "unsealed", control)
    path = tmp_path / "unsealed" / "verdict.json"
    write_verdict(genuine, path)
    commitment = open_seal(seal, trusted).sealed["commitment"]
    _forge(path, genuine, {"result_evidence.isolation.from_seal": commitment})
    with pytest.raises(ProvebenchError, match="did not run from this seal's copy"):
        reveal(seal, path, trusted)
    assert not (seal / "reveal.json").exists()
