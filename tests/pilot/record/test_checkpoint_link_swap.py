"""Red team round 14b, C2 (docs/pilot-redteam.md): the run's `checkpoint/` swapped for a link
mid-run. `snapshot_work` made the snapshot and wrote the pointer by path, with no link followed
only at the last component, so every later snapshot and pointer was written where the link led,
outside the run folder. The swap is made here at the instant the snapshot starts copying, instead
of by timing: the run folder and `checkpoint/` are held by descriptor, and what the snapshot
writes lands in the folder it held."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from provebench._errors import ProvebenchError
from provebench.pilot.record import _rundir
from provebench.pilot.record._rundir import RunDir
from provebench.pilot.record._work_digest import work_tree_sha256


@pytest.fixture(autouse=True)
def _key_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PROVEBENCH_KEY_DIR", str(tmp_path / "keys"))


def _run(tmp_path: Path) -> RunDir:
    run = RunDir(tmp_path / "run")
    (run.work_dir / "sub").mkdir(parents=True)
    (run.work_dir / "sub" / "journal.json").write_text('{"cycle": 1}\n', encoding="utf-8")
    run.snapshot_work(1)
    return run


def test_c2_checkpoint_swapped_for_a_link_receives_nothing_where_it_leads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = _run(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    held = tmp_path / "run" / "checkpoint.held"
    real_copy = _rundir.copy_tree_once

    def swap_then_copy(*args: Any, **kwargs: Any) -> None:
        run.checkpoint_dir.rename(held)
        run.checkpoint_dir.symlink_to(elsewhere, target_is_directory=True)
        real_copy(*args, **kwargs)

    monkeypatch.setattr(_rundir, "copy_tree_once", swap_then_copy)
    run.snapshot_work(2)
    assert list(elsewhere.iterdir()) == []  # no snapshot, no pointer outside the run folder
    assert sorted(p.name for p in held.iterdir()) == ["snapshot-000002", "snapshot.json"]
    assert json.loads((held / "snapshot.json").read_text(encoding="utf-8")) == {"next_cycle": 2}
    assert work_tree_sha256(held / "snapshot-000002") == work_tree_sha256(run.work_dir)


def test_c2_a_link_in_checkpoints_place_before_a_snapshot_is_refused(tmp_path: Path) -> None:
    run = _run(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    run.checkpoint_dir.rename(tmp_path / "run" / "checkpoint.moved")
    run.checkpoint_dir.symlink_to(elsewhere, target_is_directory=True)
    with pytest.raises(ProvebenchError, match="symbolic link is not followed"):
        run.snapshot_work(2)
    assert list(elsewhere.iterdir()) == []


def test_c2_control_snapshots_and_pointer_as_before(tmp_path: Path) -> None:
    run = _run(tmp_path)
    (run.work_dir / "sub" / "journal.json").write_text('{"cycle": 2}\n', encoding="utf-8")
    (run.work_dir / "link").symlink_to("sub/journal.json")
    run.snapshot_work(2)
    assert sorted(p.name for p in run.checkpoint_dir.iterdir()) == [
        "snapshot-000002",
        "snapshot.json",
    ]
    assert run.snapshot_pointer.read_bytes() == RunDir.pointer_bytes(2)
    assert work_tree_sha256(run.snapshot_dir(2)) == work_tree_sha256(run.work_dir)
    run.snapshot_work(2)  # again (a resume that snapshots the same cycle): replaced, not added
    assert work_tree_sha256(run.snapshot_dir(2)) == work_tree_sha256(run.work_dir)
