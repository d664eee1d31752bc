"""The fresh hidden control is one corpus and one revealed run (pilot §11, §16; attestation.md).

`pilot control` signs the control corpus's manifest sha256 into the seal folder: another corpus
of the sealed seed and profile (other `--zone` values) is not the control, before or after the
reveal, and cannot be revealed. Once revealed, only the revealed run (by its log head) counts on
the control corpus, and a second reveal is refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from provebench._errors import ProvebenchError
from provebench.attest import load_trusted_key
from provebench.pilot import run_lab
from provebench.pilot._seal import (
    candidate_identity,
    generate_control,
    reveal,
    seal_candidate,
    sealed_code,
)
from provebench.pilot.corpus import corpus_config, write_corpus
from provebench.pilot.evaluate import evaluate_run, write_verdict
from provebench.pilot.publish import publish_bundle, verify_bundle
from provebench.pilot.record import open_seal
from provebench.pilot.record._seal import fresh_control_finding
from tests.helpers.pilot_lab import run_cli

# Seconds (two laboratory runs on the control profile, a bundle): in `make test`.
pytestmark = pytest.mark.slow


def _finding(run: Path, corpus: Path, seal: Path) -> tuple[bool | None, str]:
    verdict = evaluate_run(run, corpus, fresh_control=seal)
    write_verdict(verdict, run / "verdict.json")
    [check] = [c for c in verdict.external_checks if c.check == "fresh_hidden_control"]
    return check.outcome, check.basis


def _logged(run: Path) -> dict[str, object]:
    record = json.loads((run / "run.json").read_text(encoding="utf-8"))
    return {"agent": record["agent"], "corpus": record["corpus"], "isolation": record["isolation"]}


def test_another_corpus_of_the_sealed_seed_is_not_the_control_and_a_reveal_is_final(
    tmp_path: Path,
) -> None:
    trusted = load_trusted_key()
    seal = tmp_path / "seal"
    seal_candidate(seal, candidate_identity("reference", None), "control")
    control = tmp_path / "control"
    generate_control(seal, control, trusted)
    opened = open_seal(seal, trusted)
    # The red team's corpus: the sealed seed and profile, other zones (a corpus the candidate may
    # pass where it fails the control).
    easier = tmp_path / "easier"
    zones = ("Europe/Berlin", "Europe/Paris")
    write_corpus(corpus_config(seed=opened.seed, profile="control", zones=zones), easier)
    from_seal = sealed_code(seal, trusted)  # only a run of the seal's copy is the candidate's
    run_lab(easier, "reference", tmp_path / "easy-run", sealed=from_seal)
    outcome, basis = _finding(tmp_path / "easy-run", easier, seal)
    assert outcome is False and "not the sealed control" in basis, basis
    with pytest.raises(ProvebenchError, match="not of the recorded control corpus"):
        reveal(seal, tmp_path / "easy-run" / "verdict.json", trusted)

    run_lab(control, "reference", tmp_path / "control-run", sealed=from_seal)
    outcome, basis = _finding(tmp_path / "control-run", control, seal)
    assert outcome is True and "this run is the sealed fresh control" in basis, basis
    revealed = reveal(seal, tmp_path / "control-run" / "verdict.json", trusted)
    assert revealed["control"]["corpus_manifest_sha256"] == opened.control_manifest
    # A second reveal would replace the revealed verdict: one line, exit 2, nothing re-signed.
    before = (seal / "reveal.dsse.json").read_bytes()
    again = run_cli("pilot", "reveal", str(seal), "--verdict",
                    str(tmp_path / "easy-run" / "verdict.json"))  # fmt: skip
    assert again.returncode == 2
    [line] = again.stderr.splitlines()
    assert "already revealed" in line and (seal / "reveal.dsse.json").read_bytes() == before

    # After the reveal the seed is public: a run on the control corpus that is not the revealed
    # run (another log) is not credited, even passing; the revealed run still is.
    identity = _logged(tmp_path / "control-run")
    head = revealed["control"]["ledger_head_hash"]
    passed, basis = fresh_control_finding(seal, trusted, identity, True, "0" * 64)
    assert not passed and "not the revealed control run" in basis
    assert fresh_control_finding(seal, trusted, identity, True, head)[0]
    # Published together, only the control run is evaluated with the seal, and it verifies.
    bundle = tmp_path / "bundle"
    index = publish_bundle([tmp_path / "control-run", tmp_path / "easy-run"], [control, easier],
                           bundle, seals=[seal])  # fmt: skip
    controls = {run.name: run.fresh_control for run in index.runs}
    assert controls == {"control-run": "seal", "easy-run": None}
    assert (bundle / "seals" / "seal" / "control.dsse.json").is_file()
    verify_bundle(bundle)


def test_a_failed_control_stays_failed_for_a_later_passing_run_on_its_corpus(
    tmp_path: Path,
) -> None:
    """The sealed candidate fails its control and the failure is revealed; a later run on the
    control corpus whose logged identity is the sealed one (the candidate changed in a way its
    identity missed) does not overturn it."""
    trusted = load_trusted_key()
    seal = tmp_path / "seal"
    seal_candidate(seal, candidate_identity("noop", None), "control")
    control = tmp_path / "control"
    generate_control(seal, control, trusted)
    # The sealed candidate run from its folder, not the seal's copy: neither credited nor
    # revealable (what it ran is whatever the folder held while it ran).
    run_lab(control, "noop", tmp_path / "unsealed")
    outcome, basis = _finding(tmp_path / "unsealed", control, seal)
    assert outcome is False and "--from-seal" in basis
    with pytest.raises(ProvebenchError, match="did not run from this seal's copy"):
        reveal(seal, tmp_path / "unsealed" / "verdict.json", trusted)
    run_lab(control, "noop", tmp_path / "failed", sealed=sealed_code(seal, trusted))
    assert _finding(tmp_path / "failed", control, seal)[0] is False
    revealed = reveal(seal, tmp_path / "failed" / "verdict.json", trusted)
    assert revealed["control"]["laboratory_pass"] is False
    # A passing run on the control corpus, presented as the sealed candidate's.
    run_lab(control, "reference", tmp_path / "passing")
    identity = _logged(tmp_path / "passing")
    identity["agent"] = _logged(tmp_path / "failed")["agent"]
    identity["isolation"] = _logged(tmp_path / "failed")["isolation"]
    passed, basis = fresh_control_finding(seal, trusted, identity, True, "f" * 64)
    assert not passed and "not the revealed control run" in basis


def test_a_seal_without_its_control_record_credits_nothing(tmp_path: Path) -> None:
    trusted = load_trusted_key()
    seal = tmp_path / "seal"
    seal_candidate(seal, candidate_identity("reference", None), "control")
    generate_control(seal, tmp_path / "control", trusted)
    identity = _logged_identity_of_control(tmp_path / "control", seal)
    assert fresh_control_finding(seal, trusted, identity, True, None)[0]
    (seal / "control.dsse.json").unlink()
    passed, basis = fresh_control_finding(seal, trusted, identity, True, None)
    assert not passed and "no control corpus" in basis
    with pytest.raises(ProvebenchError, match="no control corpus"):
        reveal(seal, tmp_path / "verdict.json", trusted)


def _logged_identity_of_control(corpus: Path, seal: Path) -> dict[str, object]:
    from provebench.pilot.agents._loader import shipped_code_sha256
    from provebench.pilot.lab._runner import open_corpus

    sealed = open_seal(seal, load_trusted_key()).sealed
    return {
        "agent": {"spec": "reference", "code_sha256": shipped_code_sha256()},
        "corpus": open_corpus(corpus).identity,
        # What a run from the seal records: its commitment, and the environment it ran in.
        "isolation": {
            "from_seal": sealed["commitment"],
            "environment_sha256": sealed["environment_sha256"],
        },
    }


def test_a_control_record_of_another_seal_is_refused(tmp_path: Path) -> None:
    trusted = load_trusted_key()
    first, second = tmp_path / "first", tmp_path / "second"
    for seal in (first, second):
        seal_candidate(seal, candidate_identity("reference", None), "control")
    generate_control(first, tmp_path / "control", trusted)
    for name in ("control.json", "control.dsse.json"):
        (second / name).write_bytes((first / name).read_bytes())
    with pytest.raises(ProvebenchError, match="not the control record of this seal"):
        open_seal(second, trusted)


@pytest.mark.parametrize("spec", ["typing_extensions:TypedDict"])
def test_a_lone_module_in_a_folder_every_sandbox_shows_is_refused_at_seal(
    spec: str, tmp_path: Path
) -> None:
    """Its neighbours in site-packages are importable by the sealed run but not sealed."""
    result = run_cli("pilot", "seal", "--agent", spec, "--out", str(tmp_path / "seal"))
    assert result.returncode == 2
    [line] = result.stderr.splitlines()
    assert "lone file" in line and "seal a package folder" in line
    assert not (tmp_path / "seal").exists()


def test_a_lone_module_or_a_package_of_its_own_folder_is_sealed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    code = tmp_path / "code"
    (code / "mypackage").mkdir(parents=True)
    body = "class Mine:\n    name = 'mine'\n    version = '1'\n"
    (code / "lonemodule.py").write_text(body, encoding="utf-8")
    (code / "mypackage" / "__init__.py").write_text(body, encoding="utf-8")
    monkeypatch.syspath_prepend(str(code))
    for spec in ("lonemodule:Mine", "mypackage:Mine"):
        sealed = seal_candidate(tmp_path / spec.partition(":")[0],
                                candidate_identity(spec, None), "control")  # fmt: skip
        assert sealed["candidate"]["spec"] == spec


def test_a_reveal_that_names_another_corpus_than_the_control_record_is_refused(
    tmp_path: Path,
) -> None:
    """Signed by the laboratory, but not of the recorded control corpus (as a reveal made before
    control records were kept): the seal does not open, so nothing is credited from it."""
    from provebench._canonical import canonical_json
    from provebench.attest._envelope import sign_files

    trusted = load_trusted_key()
    seal = tmp_path / "seal"
    seal_candidate(seal, candidate_identity("reference", None), "control")
    generate_control(seal, tmp_path / "control", trusted)
    opened = open_seal(seal, trusted)
    revealed = {
        "format": opened.sealed["format"],
        "commitment": opened.sealed["commitment"],
        "seed": opened.seed,
        "nonce": opened.nonce,
        "control": {"laboratory_pass": True, "corpus_manifest_sha256": "0" * 64},
    }
    (seal / "reveal.json").write_text(canonical_json(revealed), encoding="utf-8")
    predicate = "urn:provebench:pilot-reveal:1"
    sign_files(seal, ["reveal.json"], seal / "reveal.dsse.json", predicate, revealed)
    with pytest.raises(ProvebenchError, match="not of the recorded control corpus"):
        open_seal(seal, trusted)


def test_a_resumed_control_is_not_revealed_and_credits_no_other_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Red team round 9, A1: a control stopped after a commit and resumed may have re-drawn its
    uncommitted cycle; `pilot reveal` refuses its verdict, so no other run is credited from it.
    And a reveal that does not record its control ran uninterrupted credits no other run."""
    from provebench._canonical import canonical_json, write_atomic
    from provebench.attest._envelope import sign_files
    from provebench.pilot.lab import _runner
    from provebench.pilot.record._seal import REVEAL_ENVELOPE_FILE, REVEAL_FILE, REVEAL_PREDICATE

    trusted = load_trusted_key()
    seal = tmp_path / "seal"
    seal_candidate(seal, candidate_identity("reference", None), "control")
    control = tmp_path / "control"
    generate_control(seal, control, trusted)
    from_seal = sealed_code(seal, trusted)
    original = _runner.run_cycle

    def stopped_at_cycle_3(**arguments: object) -> object:
        if arguments["cycle"] == 3:
            raise KeyboardInterrupt  # stopped after two commits: the folder is kept, to resume
        return original(**arguments)  # type: ignore[arg-type]

    monkeypatch.setattr(_runner, "run_cycle", stopped_at_cycle_3)
    with pytest.raises(KeyboardInterrupt):
        run_lab(control, "reference", tmp_path / "resumed", sealed=from_seal)
    monkeypatch.setattr(_runner, "run_cycle", original)
    run_lab(control, "reference", tmp_path / "resumed", sealed=from_seal)
    record = json.loads((tmp_path / "resumed" / "run.json").read_text(encoding="utf-8"))
    assert record["non_scoring"]["resumed"] is True
    outcome, basis = _finding(tmp_path / "resumed", control, seal)
    assert outcome is False and "was resumed" in basis, basis
    refused = run_cli("pilot", "reveal", str(seal), "--verdict",
                      str(tmp_path / "resumed" / "verdict.json"))  # fmt: skip
    assert refused.returncode == 2
    [line] = refused.stderr.splitlines()
    assert "run again, uninterrupted, from its seal" in line and "non_scoring.resumed" in line
    assert not (seal / REVEAL_FILE).exists() and not (seal / REVEAL_ENVELOPE_FILE).exists()

    # The uninterrupted control is revealed, and credits another run of the candidate...
    run_lab(control, "reference", tmp_path / "whole", sealed=from_seal)
    assert _finding(tmp_path / "whole", control, seal)[0] is True
    revealed = reveal(seal, tmp_path / "whole" / "verdict.json", trusted)
    assert revealed["control"]["resumed"] is False
    elsewhere = _logged(tmp_path / "whole")
    elsewhere["corpus"] = {**elsewhere["corpus"], "manifest_sha256": "e" * 64}  # type: ignore[dict-item]
    assert fresh_control_finding(seal, trusted, elsewhere, True, "0" * 64)[0] is True
    # ...but a reveal that does not record it (signed, as an older version wrote it) does not.
    del revealed["control"]["resumed"]
    write_atomic(seal / REVEAL_FILE, canonical_json(revealed))
    sign_files(seal, [REVEAL_FILE], seal / REVEAL_ENVELOPE_FILE, REVEAL_PREDICATE, revealed)
    passed, basis = fresh_control_finding(seal, trusted, elsewhere, True, "0" * 64)
    assert not passed and "uninterrupted" in basis, basis
