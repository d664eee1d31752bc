"""pilot_pass from verified evidence only (docs/attestation.md): the sealed fresh control (pilot
§11) as a commit–reveal round trip, and the signed red-team report.

The red team runs at the full pilot §14 budget (once per test run, tests/pilot/conftest.py):
`pilot_pass` accepts nothing less, and a test that passed on a smaller report would prove a rule
the product does not have."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from provebench._canonical import canonical_json
from provebench.attest import load_trusted_key
from provebench.pilot import run_lab
from provebench.pilot._seal import (
    candidate_identity,
    generate_control,
    reveal,
    seal_candidate,
    sealed_code,
)
from provebench.pilot.evaluate import Verdict, evaluate_run, write_verdict
from provebench.pilot.record import OPENING_FILE, commitment
from provebench.pilot.redteam import RedteamReport
from tests.helpers.pilot_lab import run_cli
from tests.helpers.shared_run import made_once

# Seconds, not milliseconds: in `make test`, not in `make check`.
pytestmark = pytest.mark.slow

# A sealed run: its seal folder, the seal's record and the verdict of the run it sealed.
SealedRun = tuple[Path, dict[str, Any], Any]


@pytest.fixture(scope="module")
def red_team(full_red_team: tuple[Path, RedteamReport]) -> Path:
    out, report = full_red_team
    assert report.passed, report.summary()
    return out


def seal_run_evaluate(tmp: Path, agent: str, red_team: Path) -> SealedRun:
    """seal → control corpus → run → evaluate with the seal and the red-team report."""
    trusted = load_trusted_key()
    seal = tmp / "seal"
    sealed = seal_candidate(seal, candidate_identity(agent, None), "control")
    corpus = tmp / "control"
    generate_control(seal, corpus, trusted)
    run = tmp / "run"
    run_lab(corpus, agent, run, sealed=sealed_code(seal, trusted))  # the seal's copy
    verdict = evaluate_run(run, corpus, red_team=red_team, fresh_control=seal)
    write_verdict(verdict, run / "verdict.json")
    return seal, sealed, verdict


@pytest.fixture(scope="module")
def sealed_reference(tmp_path_factory: pytest.TempPathFactory, red_team: Path) -> SealedRun:
    """ONE sealed run of the reference over its fresh control, evaluated, for the test run
    (made once and shared by the xdist workers, tests/helpers/shared_run.py): read only, so the
    tests that change a file of it work on a copy (`copied`). The verdict is read back from the
    verdict.json the run wrote, the seal's record from its JSON."""

    def make(folder: Path) -> None:
        _, sealed, _ = seal_run_evaluate(folder, "reference", red_team)
        (folder / "sealed.json").write_text(json.dumps(sealed), encoding="utf-8")

    folder = made_once(tmp_path_factory, "sealed-reference", make)
    verdict = Verdict.model_validate_json((folder / "run" / "verdict.json").read_bytes())
    sealed = json.loads((folder / "sealed.json").read_text(encoding="utf-8"))
    return folder / "seal", sealed, verdict


def copied(sealed_reference: SealedRun, tmp_path: Path) -> Path:
    """A copy of the shared sealed run's folder (seal/, control/, run/) for a test to change."""
    folder = tmp_path / "sealed-reference"
    shutil.copytree(sealed_reference[0].parent, folder, symlinks=True)
    return folder


def test_the_reference_passes_its_sealed_fresh_control(
    tmp_path: Path, sealed_reference: SealedRun
) -> None:
    _, sealed, verdict = sealed_reference
    folder = copied(sealed_reference, tmp_path)  # the reveal writes into the seal folder
    seal = folder / "seal"
    outcomes = {check.check: check for check in verdict.external_checks}
    assert all(check.outcome is True for check in outcomes.values()), outcomes
    assert "sealed fresh control" in outcomes["fresh_hidden_control"].basis
    assert verdict.pilot_pass is True
    # The seed is drawn after the candidate is fixed and committed to; nothing reveals it yet.
    opening = json.loads((seal / OPENING_FILE).read_text(encoding="ascii"))
    assert commitment(opening["seed"], opening["nonce"]) == sealed["commitment"]
    assert str(opening["seed"]) not in (seal / "seal.json").read_text(encoding="utf-8")
    # Reveal: the seed and the control's result, signed, for publication (pilot §16).
    revealed = reveal(seal, folder / "run" / "verdict.json", load_trusted_key())
    assert revealed["seed"] == opening["seed"] and revealed["control"]["laboratory_pass"]
    checked = run_cli("attest", "verify", str(seal / "reveal.dsse.json"))
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_the_noop_importer_does_not_pass_its_fresh_control(tmp_path: Path, red_team: Path) -> None:
    _, _, verdict = seal_run_evaluate(tmp_path, "noop", red_team)
    outcomes = {check.check: check for check in verdict.external_checks}
    assert outcomes["fresh_hidden_control"].outcome is False
    assert verdict.pilot_pass is False


def test_another_candidates_run_is_not_the_sealed_control(
    tmp_path: Path, red_team: Path, sealed_reference: SealedRun
) -> None:
    # The reference's seal and its control corpus, made once for the test run: another
    # candidate's run over them is what is judged, not a seal of its own (`seal_candidate` and
    # `generate_control` are what `sealed_reference` ran, as this test would).
    folder = copied(sealed_reference, tmp_path)
    seal, corpus = folder / "seal", folder / "control"
    importer = tmp_path / "code" / "mine.py"
    importer.parent.mkdir()
    importer.write_text(
        "from provebench.pilot.agents._reference import ReferenceImporter\n"
        "class Mine(ReferenceImporter):\n    name = 'mine'\n",
        encoding="utf-8",
    )
    run_lab(corpus, f"{importer}:Mine", tmp_path / "run")
    verdict = evaluate_run(tmp_path / "run", corpus, red_team=red_team, fresh_control=seal)
    control = next(c for c in verdict.external_checks if c.check == "fresh_hidden_control")
    assert control.outcome is False and "not the sealed candidate" in control.basis
    assert verdict.pilot_pass is False


def test_a_commitment_that_does_not_open_is_one_line_and_no_verdict(
    tmp_path: Path, sealed_reference: SealedRun
) -> None:
    folder = copied(sealed_reference, tmp_path)  # the opening is changed below
    seal = folder / "seal"
    opening = json.loads((seal / OPENING_FILE).read_text(encoding="ascii"))
    (seal / OPENING_FILE).write_text(canonical_json({**opening, "seed": opening["seed"] ^ 1}))
    out = folder / "again.json"
    control = str(folder / "control")
    result = run_cli("pilot", "evaluate", str(folder / "run"), "--corpus", control,
                     "--fresh-control", str(seal), "--out", str(out))  # fmt: skip
    assert result.returncode == 2
    [line] = result.stderr.splitlines()
    assert "the commitment does not open" in line and not out.exists()


def test_a_red_team_report_changed_after_signing_is_refused(
    tmp_path: Path, red_team: Path, signed_reference: tuple[Path, Path]
) -> None:
    copy = tmp_path / "report"
    shutil.copytree(red_team, copy)
    summary = json.loads((copy / "redteam-summary.json").read_text(encoding="utf-8"))
    summary["uncaught"] = []  # edited after signing, even to say the same thing
    summary["seed"] = 99
    (copy / "redteam-summary.json").write_text(canonical_json(summary), encoding="utf-8")
    corpus, run = signed_reference
    result = run_cli("pilot", "evaluate", str(run), "--corpus", str(corpus), "--red-team",
                     str(copy), "--out", str(tmp_path / "v.json"))  # fmt: skip
    assert result.returncode == 2
    [line] = result.stderr.splitlines()
    assert "redteam-summary.json" in line


@pytest.fixture
def signed_reference(tmp_path: Path) -> tuple[Path, Path]:
    from tests.helpers.pilot_evaluation import make_small_corpus, run_agent

    corpus = make_small_corpus(tmp_path, seed=3)
    return corpus, run_agent(corpus, "reference", tmp_path / "ref")


@pytest.mark.parametrize("where", ["/usr/share/provebench-seal", "provebench-package"])
def test_the_seal_is_refused_where_any_sandbox_can_read(where: str) -> None:
    """The opening is in the seal folder, and no run can name that folder to its sandbox: so it
    may not lie in the system folders or provebench's package, which every sandbox shows."""
    from provebench.sandbox._policy import PACKAGE_DIR

    out = PACKAGE_DIR / "seal-here" if where == "provebench-package" else Path(where)
    result = run_cli("pilot", "seal", "--agent", "reference", "--out", str(out))
    assert result.returncode == 2
    [line] = result.stderr.splitlines()
    assert "which the candidate's sandbox shows" in line and not out.exists()


def test_the_seal_is_refused_inside_the_candidates_code_folder(tmp_path: Path) -> None:
    tmp_path.chmod(0o755)  # shown whole: not a folder its owner keeps to itself
    importer = tmp_path / "mine.py"
    importer.write_text("class Mine:\n    name = 'mine'\n    version = '1'\n", encoding="utf-8")
    result = run_cli("pilot", "seal", "--agent", f"{importer}:Mine", "--out", str(tmp_path / "s"))
    assert result.returncode == 2
    [line] = result.stderr.splitlines()
    assert "inside" in line and not (tmp_path / "s").exists()


def test_the_red_team_envelope_named_is_the_envelope_verified(
    tmp_path: Path, red_team: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Red team round 12: `inputs_sha256` names the bytes judged. The red-team envelope is
    read once, verified from those bytes and hashed from them: another file renamed over it
    right after the read changes neither the findings nor the digest the verdict names."""
    import hashlib
    import shutil

    from provebench.pilot.evaluate import _core
    from tests.helpers.pilot_evaluation import make_small_corpus, run_agent

    corpus = make_small_corpus(tmp_path, seed=1)
    run = run_agent(corpus, "reference", tmp_path / "run")
    report = tmp_path / "red-team"
    shutil.copytree(red_team, report)
    envelope = report / "redteam.dsse.json"
    genuine = envelope.read_bytes()
    honest = evaluate_run(run, corpus, red_team=report)
    original = _core._read_envelope

    def read_then_swap(path: Path) -> bytes:
        data = original(path)
        envelope.write_bytes(b'{"payloadType": "something else"}')
        return data

    monkeypatch.setattr(_core, "_read_envelope", read_then_swap)
    raced = evaluate_run(run, corpus, red_team=report)
    assert envelope.read_bytes() != genuine  # the swap did happen
    digest = hashlib.sha256(genuine).hexdigest()
    assert raced.result_evidence.inputs_sha256["red_team"] == digest
    assert raced.model_dump() == honest.model_dump()
