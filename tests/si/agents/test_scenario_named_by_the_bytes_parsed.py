"""Red team round 12b, S1 and S2 (docs/pilot-redteam.md): `si run` scored the scenario it had
loaded but named, in its verdict and its signature, a read of the file at the end of the run;
a scenario edited to credit the agent's behaviour, swapped for the official file during the
run, was signed under the official file's digest with the edited file's score (and `si suite`
kept it on resume). A scenario now carries the digest of the bytes it was parsed from, and
that is what the verdict, the signature, the suite's manifest and its resume check name."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from provebench.attest import load_trusted_key
from provebench.attest._envelope import read_verified
from provebench.cli import app
from provebench.si.agents import _run
from provebench.si.agents._signing import RUN_ENVELOPE_FILE, SI_RUN_PREDICATE
from tests.helpers.si_lab import write_fixture


def _swap_during_the_run(monkeypatch: pytest.MonkeyPatch, scenario: Path, official: bytes) -> None:
    running = _run.run_agent

    def run_then_swap(*args: Any, **kwargs: Any) -> Any:
        outcome = running(*args, **kwargs)
        staged = scenario.with_name("official.tmp")
        staged.write_bytes(official)
        staged.replace(scenario)  # the racer: after the scenario was loaded and used
        return outcome

    monkeypatch.setattr(_run, "run_agent", run_then_swap)


def test_s1_si_run_names_the_scenario_bytes_it_scored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    scenario = write_fixture(tmp_path)
    official = scenario.read_bytes()
    edited = official + b"\n# edited: the bytes that were scored\n"
    scenario.write_bytes(edited)
    _swap_during_the_run(monkeypatch, scenario, official)
    out = tmp_path / "run"
    result = CliRunner().invoke(
        app, ["si", "run", str(scenario), "--agent", "diagnoser", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert scenario.read_bytes() == official  # the swap happened
    scored = hashlib.sha256(edited).hexdigest()
    verdict = json.loads((out / "verdict.json").read_text(encoding="utf-8"))
    assert verdict["inputs"]["scenario_file_sha256"] == scored
    signed = read_verified(
        out / RUN_ENVELOPE_FILE, load_trusted_key(), predicate_type=SI_RUN_PREDICATE
    )
    assert signed.predicate["scenario"]["file_sha256"] == scored
