"""The work directory's cycle-start snapshots (record/_rundir.py): a resume keeps one snapshot,
whichever instant the previous attempt was killed at."""

from __future__ import annotations

from pathlib import Path

import pytest

from provebench._errors import ProvebenchError
from provebench.pilot.record._rundir import RunDir
from provebench.pilot.record._work_digest import EMPTY_WORK_SHA256, work_tree_sha256


def test_a_restore_drops_the_snapshot_an_attempt_killed_mid_switch_left_behind(
    tmp_path: Path,
) -> None:
    run = RunDir(tmp_path / "run")
    run.work_dir.mkdir(parents=True)
    (run.work_dir / "journal.json").write_text('{"cycle": 1}\n', encoding="utf-8")
    run.snapshot_work(2)
    # Killed after the pointer switched to cycle 3 and before the old snapshot was removed.
    (run.work_dir / "journal.json").write_text('{"cycle": 2}\n', encoding="utf-8")
    run.snapshot_work(3)
    committed_work = work_tree_sha256(run.work_dir)
    stale = run.checkpoint_dir / "snapshot-000002"
    stale.mkdir()
    (stale / "journal.json").write_text('{"cycle": 1}\n', encoding="utf-8")
    (run.work_dir / "journal.json").write_text("half-written", encoding="utf-8")
    run.align_work_dir(2, committed_work)  # cycle 3 had started: work/ restored to its start
    assert sorted(p.name for p in run.checkpoint_dir.glob("snapshot-*")) == ["snapshot-000003"]
    assert (run.work_dir / "journal.json").read_text(encoding="utf-8") == '{"cycle": 2}\n'


def _journal_run(tmp_path: Path) -> tuple[RunDir, str]:
    """A run whose cycle 1 committed with work/ holding a journal (its digest in the log)."""
    run = RunDir(tmp_path / "run")
    run.work_dir.mkdir(parents=True)
    run.snapshot_work(1)
    (run.work_dir / "journal.json").write_text('{"cycle": 1}\n', encoding="utf-8")
    return run, work_tree_sha256(run.work_dir)


def test_a_resume_refuses_a_snapshot_changed_while_the_run_was_stopped(tmp_path: Path) -> None:
    run, committed_work = _journal_run(tmp_path)
    run.snapshot_work(2)
    (run.work_dir / "journal.json").write_text("half-written", encoding="utf-8")
    (run.checkpoint_dir / "snapshot-000002" / "mode").write_text("honest\n", encoding="utf-8")
    with pytest.raises(ProvebenchError, match="does not match the work-directory digest") as caught:
        run.align_work_dir(1, committed_work)
    assert caught.value.path == str(run.checkpoint_dir / "snapshot-000002")
    assert (run.work_dir / "journal.json").read_text(encoding="utf-8") == "half-written"


def test_a_resume_refuses_a_changed_first_snapshot(tmp_path: Path) -> None:
    """Killed inside cycle 1: nothing committed, so the snapshot must be an empty folder."""
    run = RunDir(tmp_path / "run")
    run.work_dir.mkdir(parents=True)
    run.snapshot_work(1)
    (run.checkpoint_dir / "snapshot-000001" / "mode").write_text("honest\n", encoding="utf-8")
    with pytest.raises(ProvebenchError, match="does not match the work-directory digest"):
        run.align_work_dir(0, EMPTY_WORK_SHA256)


def test_a_resume_refuses_work_changed_between_commit_and_snapshot(tmp_path: Path) -> None:
    """Killed after the commit and before the snapshot: work/ itself is checked."""
    run, committed_work = _journal_run(tmp_path)
    (run.work_dir / "journal.json").chmod(0o600)
    with pytest.raises(ProvebenchError, match="does not match") as caught:
        run.align_work_dir(1, committed_work)
    assert caught.value.path == str(run.work_dir)
    assert not (run.checkpoint_dir / "snapshot-000002").exists()


def test_a_log_without_a_work_digest_cannot_be_resumed(tmp_path: Path) -> None:
    run, _ = _journal_run(tmp_path)
    with pytest.raises(ProvebenchError, match="records no work-directory digest"):
        run.align_work_dir(1, None)


def test_an_honest_resume_at_either_crash_point_is_accepted(tmp_path: Path) -> None:
    run, committed_work = _journal_run(tmp_path)
    (run.work_dir / "link").symlink_to("journal.json")
    committed_work = work_tree_sha256(run.work_dir)
    run.align_work_dir(1, committed_work)  # between commit and snapshot: snapshotted now
    (run.work_dir / "journal.json").write_text("half-written", encoding="utf-8")
    run.align_work_dir(1, committed_work)  # inside cycle 2: restored from the snapshot
    assert work_tree_sha256(run.work_dir) == committed_work
