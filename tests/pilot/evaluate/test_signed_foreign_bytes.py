"""Red team round 10, A4/A8 at the evaluator (docs/pilot-evaluator.md, `work_mismatch`,
`run_identity_mismatch`): a run folder whose signed record lists bytes nobody in the run wrote —
a file planted in work/ after the last commit, an identity.json naming another candidate — is a
configuration error with a one-line reason, even though every digest matches run.json and the
signature verifies. The folder is made as the laboratory of that round published it: the plant
listed in run.json and the record signed with the laboratory key."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from provebench._canonical import canonical_json, sha256_file
from provebench.pilot.evaluate import evaluate_run
from provebench.pilot.record._signing import sign_run
from tests.helpers.pilot_evaluation import make_small_corpus, run_agent


def _plant_work(run: Path) -> str:
    (run / "work" / "CERTIFIED.json").write_text('{"laboratory_pass": true}\n')
    return "work/CERTIFIED.json"


def _plant_snapshot(run: Path) -> str:
    snapshot = sorted((run / "checkpoint").glob("snapshot-*"))[-1]
    (snapshot / "CERTIFIED.json").write_text('{"planted": true}\n')
    return f"checkpoint/{snapshot.name}/CERTIFIED.json"


def _swap_identity(run: Path) -> str:
    identity = json.loads((run / "identity.json").read_text())
    identity["agent"]["name"] = "reference-importer-certified"
    (run / "identity.json").write_text(json.dumps(identity, sort_keys=True, indent=2))
    return "identity.json"


PLANTS: dict[str, tuple[Callable[[Path], str], str, str]] = {
    "a4-work": (_plant_work, "work_mismatch", "work"),
    "a4-snapshot": (_plant_snapshot, "work_mismatch", "checkpoint/snapshot-"),
    "a8-identity": (_swap_identity, "run_identity_mismatch", "identity.json"),
}


@pytest.mark.parametrize("plant", sorted(PLANTS))
def test_signed_bytes_the_run_did_not_write_are_a_configuration_error(
    plant: str, tmp_path: Path
) -> None:
    put, code, where = PLANTS[plant]
    corpus = make_small_corpus(tmp_path, seed=2)
    run = run_agent(corpus, "reference", tmp_path / "run")
    clean = evaluate_run(run, corpus)
    assert clean.configuration_errors == [] and clean.laboratory_pass is True
    name = put(run)
    record = json.loads((run / "run.json").read_text())
    record["files_sha256"][name] = sha256_file(run / name)
    record["files_sha256"] = dict(sorted(record["files_sha256"].items()))
    data = canonical_json(record).encode("utf-8")
    (run / "run.json").write_bytes(data)
    sign_run(run, record, hashlib.sha256(data).hexdigest())
    verdict = evaluate_run(run, corpus)
    found = [(e.code, e.path or "", e.message) for e in verdict.configuration_errors]
    assert [c for c, _, _ in found] == [code], found
    [(_, path, message)] = found
    assert path.startswith(where) and "\n" not in message
    assert verdict.laboratory_pass is False and verdict.status != "pass"
