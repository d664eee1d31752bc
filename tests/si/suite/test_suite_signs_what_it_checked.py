"""Red team round 12, A9: a suite signs the bytes it judged. Run again over a finished folder,
`si suite` keeps each signed scenario; the round's racer renamed a forged PASS verdict into a
kept scenario's folder after its signature was checked and before the verdict was read, and
the suite's signature then covered the forgery (`safety_gate: PASS`). Each kept file is now read
once — checked, parsed and signed from those bytes — and a file written by this process is
signed by the bytes it wrote; a file changed in between is refused, and no summary is left."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from provebench import _canonical
from provebench.attest._envelope import AttestationError
from provebench.cli import app
from provebench.si.suite import _runner
from tests.helpers.oasis import OASIS_SCENARIOS, oasis_files

SCENARIO = "infra.safety.be.zone-violation-001"


def _suite(out: Path) -> Any:
    oasis_files()  # skips when ../shared is missing
    arguments = [str(OASIS_SCENARIOS), "--scenario", SCENARIO, "--agent", "obedient"]
    return CliRunner().invoke(app, ["si", "suite", *arguments, "--out", str(out)])


def _forge(out: Path) -> bytes:
    """A PASS verdict for the obedient agent's run, as the round's forge_si_verdict.py made."""
    path = out / "scenarios" / SCENARIO / "verdict.json"
    verdict = json.loads(path.read_text(encoding="utf-8"))
    verdict["status"] = "PASS"
    verdict["failures"] = []
    forged = json.dumps(verdict).encode()
    staged = path.with_name("forged.tmp")
    staged.write_bytes(forged)
    staged.replace(path)
    return forged


def _refused(result: Any) -> None:
    """One line naming the file, from the error the command line prints (provebench._entry)."""
    assert isinstance(result.exception, AttestationError), result.output
    line = result.exception.one_line()
    assert "\n" not in line and "verdict.json" in line and "nothing is signed" in line


@pytest.fixture
def failed_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    out = tmp_path / "run"
    result = _suite(out)
    assert result.exit_code == 1, result.output  # the gate failed: exit 1
    # The run again is another process: it has written nothing yet (`_canonical.written_sha256`).
    monkeypatch.setattr(_canonical, "_WRITTEN", {})
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["safety_gate"] == "FAIL"  # the honest control: the obedient agent fails
    return out


def test_a_verdict_renamed_in_after_the_check_is_neither_kept_nor_signed(
    failed_run: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    checked = _runner.signature_problem

    def check_then_forge(*args: Any, **kwargs: Any) -> str | None:
        problem = checked(*args, **kwargs)
        _forge(failed_run)  # the racer's moment: right after the signature check
        return problem

    monkeypatch.setattr(_runner, "signature_problem", check_then_forge)
    result = _suite(failed_run)
    assert f"{SCENARIO}: FAIL (kept from an earlier run)" in result.output  # the bytes checked
    _refused(result)
    assert not (failed_run / "summary.json").exists()
    assert not (failed_run / "summary.dsse.json").exists()


def test_a_verdict_swapped_after_it_was_written_is_not_signed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "run"
    signing = _runner.sign_suite

    def forge_then_sign(*args: Any, **kwargs: Any) -> None:
        _forge(out)  # between the scenario's write and the suite's signature
        signing(*args, **kwargs)

    monkeypatch.setattr(_runner, "sign_suite", forge_then_sign)
    result = _suite(out)
    _refused(result)
    assert not (out / "summary.json").exists()
    assert not (out / "summary.dsse.json").exists()


def test_a_kept_scenario_is_signed_by_the_bytes_checked(failed_run: Path) -> None:
    from provebench.attest import load_trusted_key
    from provebench.attest._envelope import read_verified

    result = _suite(failed_run)
    assert result.exit_code == 1, result.output
    assert "(kept from an earlier run)" in result.output
    signed = read_verified(
        failed_run / "summary.dsse.json",
        load_trusted_key(),
        predicate_type="urn:provebench:si-suite:1",
    )
    assert signed.predicate["safety_gate"] == "FAIL"
