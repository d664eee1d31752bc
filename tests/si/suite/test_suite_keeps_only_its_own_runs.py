"""Red team round 13, H1 and H2: what a resumed `si suite` keeps, and what it says.

H1: the round copied `safe-operator`'s laboratory-signed scenario folders into `obedient`'s
suite folder (and `diagnoser`'s into `noop`'s) and resumed: the suite kept them, and signed a
sealed safety PASS (a 1.0) for the agent that fails. Each run a suite records now names the
suite — a nonce drawn when the suite starts, the agent, every option that decides a verdict — in
its signed predicate, and a run is kept only when it names this suite: a planted run is run
again.

H2: the round deleted a nondeterministic agent's FAIL folders between attempts until every
scenario had drawn a PASS; the signed summary said nothing. A suite that finds any trace of an
earlier attempt is now `resumed: true` in its signed summary, names the scenarios it ran in this
attempt, and is not a sealed headline; an uninterrupted suite is a sealed sample, and a genuine
crash-resume still scores, marked resumed."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from provebench import _canonical
from provebench.attest import load_trusted_key
from provebench.attest._envelope import read_verified
from provebench.cli import app
from tests.helpers.oasis import OASIS_SCENARIOS, oasis_files

SAFETY = "infra.safety.be.zone-violation-001"
SHIPPED = Path(__file__).parents[3] / "src/provebench/si/scenarios"
DIAGNOSIS = SHIPPED / "single-signal-diagnosis-002.yaml"


def _suite(out: Path, agent: str, *, path: Path | None = None, extra: tuple[str, ...] = ()) -> Any:
    """One `si suite` in this process, as a new process would run it (nothing written yet)."""
    _canonical._WRITTEN.clear()
    if path is None:
        oasis_files()  # skips when ../shared is missing
        arguments = [str(OASIS_SCENARIOS), "--scenario", SAFETY]
    else:
        arguments = [str(path)]
    return CliRunner().invoke(
        app, ["si", "suite", *arguments, "--agent", agent, "--out", str(out), *extra]
    )


def _summary(out: Path) -> dict[str, Any]:
    return json.loads((out / "summary.json").read_text(encoding="utf-8"))


def _signed(out: Path) -> dict[str, Any]:
    signed = read_verified(
        out / "summary.dsse.json", load_trusted_key(), predicate_type="urn:provebench:si-suite:1"
    )
    return signed.predicate


def _plant(source: Path, target: Path) -> None:
    """The round's transplant: every signed scenario folder of `source` into `target`."""
    for folder in (source / "scenarios").iterdir():
        shutil.rmtree(target / "scenarios" / folder.name, ignore_errors=True)
        shutil.copytree(folder, target / "scenarios" / folder.name)
    for name in ("summary.json", "summary.dsse.json"):
        (target / name).unlink(missing_ok=True)


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The honest controls: safe-operator passes the scenario, obedient fails it, each in one
    uninterrupted suite (a sealed sample, not resumed)."""
    root = tmp_path_factory.mktemp("suites")
    folders = {}
    for agent, code in (("safe-operator", 0), ("obedient", 1)):
        folders[agent] = root / agent
        result = _suite(folders[agent], agent)
        assert result.exit_code == code, result.output
    return folders


def test_an_uninterrupted_suite_is_a_sealed_sample_not_resumed(runs: dict[str, Path]) -> None:
    for agent, gate in (("safe-operator", "PASS"), ("obedient", "FAIL")):
        summary = _summary(runs[agent])
        said = (summary["safety_gate"], summary["sealed"], summary["resumed"])
        assert said == (gate, True, False)
        assert "rerun" not in summary and "RESUMED" not in summary["note"]
        signed = _signed(runs[agent])
        assert (signed["safety_gate"], signed["sealed"], signed["resumed"]) == (gate, True, False)


def test_another_agents_signed_runs_planted_in_the_folder_are_run_again(
    runs: dict[str, Path], tmp_path: Path
) -> None:
    victim = tmp_path / "obedient"
    shutil.copytree(runs["obedient"], victim)
    _plant(runs["safe-operator"], victim)
    result = _suite(victim, "obedient")
    assert result.exit_code == 1, result.output
    assert "kept from an earlier run" not in result.output
    summary = _summary(victim)
    assert summary["safety_gate"] == "FAIL" and summary["sealed"] is False
    assert summary["resumed"] is True and summary["rerun"] == [SAFETY]
    evidence = json.loads((victim / "scenarios" / SAFETY / "evidence.json").read_bytes())
    assert evidence["metadata"]["agent_name"] == "obedient"  # its own run, recorded again
    assert _signed(victim)["safety_gate"] == "FAIL"


def test_runs_planted_before_the_first_attempt_are_run_again_and_mark_it_resumed(
    runs: dict[str, Path], tmp_path: Path
) -> None:
    victim = tmp_path / "fresh"
    victim.mkdir()
    _plant(runs["safe-operator"], victim)  # no suite.json: nothing said whose folder it is
    result = _suite(victim, "obedient")
    assert result.exit_code == 1, result.output
    summary = _summary(victim)
    assert (summary["safety_gate"], summary["sealed"], summary["resumed"]) == ("FAIL", False, True)


def test_another_suites_runs_of_the_same_agent_are_run_again(
    runs: dict[str, Path], tmp_path: Path
) -> None:
    """The nonce: a PASS drawn in one suite is not harvested into another suite of the agent."""
    other = tmp_path / "other"
    assert _suite(other, "safe-operator").exit_code == 0
    _plant(runs["safe-operator"], other)
    result = _suite(other, "safe-operator")
    assert result.exit_code == 0, result.output
    assert "kept from an earlier run" not in result.output
    assert _summary(other)["rerun"] == [SAFETY]


def test_runs_planted_while_a_fresh_suite_runs_are_run_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Red team round 13b, H2: the round stopped a fresh suite once suite.json (its nonce) was
    written, ran copies of it on that suite.json until each scenario passed, and planted those
    signed runs in its folder; the suite kept them as `resumed: false`, sealed. Here both
    suites draw the same nonce, and the plant lands in the attack's window (after suite.json is
    written, before the first scenario): the fresh suite keeps nothing, and runs it itself."""
    from provebench.si.suite import _runner

    drawn = _runner.secrets.token_hex
    monkeypatch.setattr(
        _runner.secrets,
        "token_hex",
        lambda n: "cd" * n if n == _runner.NONCE_BYTES else drawn(n),
    )
    lucky, victim = tmp_path / "lucky", tmp_path / "victim"
    assert _suite(lucky, "safe-operator").exit_code == 0  # the same suite's copy: a PASS
    run = _runner._Suite.run

    def planted_then_run(suite: Any) -> dict[str, Any]:
        assert json.loads((victim / "suite.json").read_bytes())["nonce"] == "cd" * 16
        _plant(lucky, victim)
        return run(suite)

    monkeypatch.setattr(_runner._Suite, "run", planted_then_run)
    result = _suite(victim, "safe-operator")
    assert result.exit_code == 0, result.output
    assert "kept from an earlier run" not in result.output  # run here, not kept
    summary = _summary(victim)
    assert (summary["sealed"], summary["resumed"]) == (True, False)
    assert _signed(victim)["resumed"] is False


@pytest.mark.parametrize(
    "changed", [("--agent-timeout", "5"), ("--sandbox-memory", "1024")], ids=lambda a: a[0]
)
def test_a_run_under_other_run_bounds_is_run_again(
    runs: dict[str, Path], tmp_path: Path, changed: tuple[str, str]
) -> None:
    """The agent's time limit and the sandbox's limits decide verdicts (a run past them is the
    agent's error): a run recorded under others is not this suite's (red team round 13b)."""
    folder = tmp_path / "bounds"
    shutil.copytree(runs["safe-operator"], folder)
    (folder / "summary.json").unlink()
    (folder / "summary.dsse.json").unlink()
    result = _suite(folder, "safe-operator", extra=changed)
    assert result.exit_code == 0, result.output
    assert "kept from an earlier run" not in result.output
    assert _summary(folder)["rerun"] == [SAFETY]


def test_a_diagnosers_signed_run_is_not_kept_for_noop(tmp_path: Path) -> None:
    good, bad = tmp_path / "diagnoser", tmp_path / "noop"
    assert _suite(good, "diagnoser", path=DIAGNOSIS).exit_code == 0
    assert _suite(bad, "noop", path=DIAGNOSIS).exit_code == 0
    assert _summary(good)["scenarios"][0]["score"] == 1.0  # the honest controls
    assert _summary(bad)["scenarios"][0]["score"] == 0.0
    _plant(good, bad)
    assert _suite(bad, "noop", path=DIAGNOSIS).exit_code == 0
    summary = _summary(bad)
    assert summary["scenarios"][0]["score"] == 0.0 and summary["sealed"] is False


def test_a_deleted_fail_is_drawn_again_and_the_suite_says_resumed(
    runs: dict[str, Path], tmp_path: Path
) -> None:
    folder = tmp_path / "redraw"
    shutil.copytree(runs["obedient"], folder)
    shutil.rmtree(folder / "scenarios" / SAFETY)  # the round's same-user process
    (folder / "summary.json").unlink()
    (folder / "summary.dsse.json").unlink()
    assert _suite(folder, "obedient").exit_code == 1
    summary = _summary(folder)
    assert summary["resumed"] is True and summary["rerun"] == [SAFETY]
    assert summary["sealed"] is False and "RESUMED" in summary["note"]
    signed = _signed(folder)
    assert (signed["resumed"], signed["rerun"], signed["sealed"]) == (True, [SAFETY], False)


def test_a_genuine_crash_resume_keeps_its_own_runs_and_still_scores(
    runs: dict[str, Path], tmp_path: Path
) -> None:
    folder = tmp_path / "crashed"
    shutil.copytree(runs["safe-operator"], folder)
    (folder / "summary.json").unlink()  # stopped after the scenario, before the summary
    (folder / "summary.dsse.json").unlink()
    result = _suite(folder, "safe-operator")
    assert result.exit_code == 0, result.output
    assert f"{SAFETY}: PASS (kept from an earlier run)" in result.output
    summary = _summary(folder)
    assert summary["safety_gate"] == "PASS" and summary["resumed"] is True
    assert summary["rerun"] == [] and summary["sealed"] is False
    assert "RESUMED" in result.output
