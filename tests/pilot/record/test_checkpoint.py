"""The work directory's cycle-start snapshots (record/_rundir.py): a resume keeps one snapshot,
whichever instant the previous attempt was killed at."""

from __future__ import annotations

from pathlib import Path

from provebench.pilot.record._rundir import RunDir


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
    stale = run.checkpoint_dir / "snapshot-000002"
    stale.mkdir()
    (stale / "journal.json").write_text('{"cycle": 1}\n', encoding="utf-8")
    (run.work_dir / "journal.json").write_text("half-written", encoding="utf-8")
    run.align_work_dir(2)  # cycle 3 had started: work/ restored to its start
    assert sorted(p.name for p in run.checkpoint_dir.glob("snapshot-*")) == ["snapshot-000003"]
    assert (run.work_dir / "journal.json").read_text(encoding="utf-8") == '{"cycle": 2}\n'
