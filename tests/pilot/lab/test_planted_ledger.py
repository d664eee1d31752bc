"""Red team round 9, A2/A3 (docs/attestation.md, "Only what it ran"): whether a run is a resume
is a fact of its log, not of its folder. A log put into a new run's folder after the folder was
checked — a resumed run's genuine anchored log, or a forged re-chained one — is never taken for a
fresh run: the new run creates its log exclusively and refuses one that holds entries it did not
write.

The race the red team won with an inotify watcher is played here deterministically: the plant
happens inside `RunDir.prepare`, at the moment the watcher aimed for."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from provebench._errors import ProvebenchError
from provebench.ledger import Ledger
from provebench.pilot.lab._runner import CRASH_ENV
from provebench.pilot.record import _rundir
from provebench.pilot.record._rundir import LEDGER_FILE, RunDir
from tests.helpers.pilot_evaluation import make_small_corpus, run_agent
from tests.helpers.pilot_lab import run_cli


@pytest.fixture(scope="module")
def crashed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A corpus and a run of it stopped after cycle 2: a genuine, anchored, unfinished log."""
    base = tmp_path_factory.mktemp("planted")
    corpus = make_small_corpus(base, seed=11)
    out = base / "stopped"
    result = run_cli(
        "pilot", "run", "--corpus", str(corpus), "--agent", "noop", "--out", str(out), "--quiet",
        env={CRASH_ENV: "after_snapshot@2"},
    )  # fmt: skip
    assert result.returncode != 0 and not (out / "run.json").exists()
    with Ledger.open_readonly(out / LEDGER_FILE) as ledger:
        assert len(ledger) > 0
    return corpus, out


def _plant(source: Path, target: Path) -> None:
    """The red team's plant: the stopped run's log, checkpoint and work folder."""
    for name in (LEDGER_FILE, f"{LEDGER_FILE}-wal"):  # a stopped run's commits may be in its WAL
        (target / name).unlink(missing_ok=True)
        if (source / name).exists():
            shutil.copy2(source / name, target / name)
    for name in ("checkpoint", "work"):
        shutil.rmtree(target / name, ignore_errors=True)
        shutil.copytree(source / name, target / name, symlinks=True)


def _planting_after_prepare(monkeypatch: pytest.MonkeyPatch, plant: Callable[[Path], None]) -> None:
    original = RunDir.prepare

    def prepare(self: RunDir, identity: dict[str, object]) -> bool:
        held = original(self, identity)
        plant(self.root)  # after identity.json is written, before the log is opened
        return held

    monkeypatch.setattr(RunDir, "prepare", prepare)


def test_a_genuine_log_planted_after_prepare_is_refused_not_a_fresh_run(
    crashed: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    corpus, stopped = crashed
    _planting_after_prepare(monkeypatch, lambda root: _plant(stopped, root))
    out = tmp_path / "fresh"
    with pytest.raises(ProvebenchError) as refused:
        run_agent(corpus, "noop", out)
    line = str(refused.value)
    assert "\n" not in line and "did not write" in line and str(out / LEDGER_FILE) in line
    assert not (out / "run.json").exists() and not (out / "run.dsse.json").exists()


def test_a_forged_log_planted_after_prepare_is_refused_not_signed(
    crashed: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A3: the same moment, a log rewritten and re-chained without the key."""
    corpus, stopped = crashed
    forged = tmp_path / "forged"
    shutil.copytree(stopped, forged)
    with Ledger.open_readonly(stopped / LEDGER_FILE) as ledger:
        entries = [(e.kind, {k: v for k, v in e.payload.items() if k != "anchor"})
                   for e in ledger.entries()]  # fmt: skip
    for name in (LEDGER_FILE, f"{LEDGER_FILE}-wal", f"{LEDGER_FILE}-shm"):
        (forged / name).unlink(missing_ok=True)
    with Ledger.open(forged / LEDGER_FILE) as ledger:  # re-chained, with no key
        ledger.append_batch(entries)
    _planting_after_prepare(monkeypatch, lambda root: _plant(forged, root))
    out = tmp_path / "fresh"
    with pytest.raises(ProvebenchError, match="did not write"):
        run_agent(corpus, "noop", out)
    assert not (out / "run.json").exists() and not (out / "run.dsse.json").exists()


def test_a_log_planted_before_the_run_creates_its_own_is_refused(
    crashed: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The earlier moment: between the folder's emptiness check and the log's creation."""
    corpus, stopped = crashed
    original = RunDir._create_ledger

    def create(self: RunDir) -> None:
        _plant(stopped, self.root)
        original(self)

    monkeypatch.setattr(RunDir, "_create_ledger", create)
    out = tmp_path / "fresh"
    with pytest.raises(ProvebenchError) as refused:
        run_agent(corpus, "noop", out)
    assert "never opens a log it did not create" in str(refused.value)
    assert not (out / "identity.json").exists() and not (out / "run.json").exists()


def test_a_folder_whose_log_holds_no_entry_is_still_a_resume(
    crashed: tuple[Path, Path], tmp_path: Path
) -> None:
    """identity.json and an empty log (a run stopped before its first commit) carry no entry
    over, but the stopped attempt ran part of cycle 1, which runs again: the run is a resume
    (red team round 12, A7: it was signed `resumed: false`, and a control credited)."""
    corpus, _ = crashed
    out = tmp_path / "run"
    result = run_cli(
        "pilot", "run", "--corpus", str(corpus), "--agent", "noop", "--out", str(out), "--quiet",
        env={CRASH_ENV: "before_commit@1"},
    )  # fmt: skip
    assert result.returncode != 0 and (out / "identity.json").is_file()
    with Ledger.open_readonly(out / LEDGER_FILE) as ledger:
        assert len(ledger) == 0
    run_agent(corpus, "noop", out)
    assert json.loads((out / "run.json").read_text())["non_scoring"]["resumed"] is True


def test_an_empty_ledger_left_before_identity_is_a_folder_started_again(tmp_path: Path) -> None:
    """A run killed between creating its empty log and writing identity.json."""
    root = tmp_path / "run"
    root.mkdir()
    (root / LEDGER_FILE).touch()
    rundir = RunDir(root)
    try:
        assert rundir.prepare({"format": _rundir.RUN_FORMAT}) is False
        assert rundir.earlier_attempt  # a trace of an earlier attempt: a resume (A7)
    finally:
        rundir.release()
    assert (root / LEDGER_FILE).stat().st_size == 0 and (root / "identity.json").is_file()
