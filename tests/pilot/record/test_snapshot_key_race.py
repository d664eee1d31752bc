"""Red team round 13b, H4 (docs/pilot-redteam.md): the laboratory's private key copied into a
run folder's checkpoint. `snapshot_work` copied work/ with copytree, which re-opened each listed
file by path: a file swapped for a link to the key after the listing put the key's bytes in
`checkpoint/snapshot-N/`. Every copier of a candidate-reachable tree (the snapshot, the restore,
the sandbox's cycle copies) now reads through the one opener from held folder descriptors: the
swap is refused, the partial copy removed, and no file anywhere holds the key's bytes."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from provebench._errors import ProvebenchError
from provebench.attest import KEY_DIR_ENV
from provebench.attest._keys import PRIVATE_KEY_FILE
from provebench.pilot.record._rundir import RunDir
from provebench.pilot.record._work_digest import work_tree_sha256
from provebench.sandbox._workdir import copy_tree, replace_tree
from tests.helpers.listing_race import files_holding, swap_for_link_after_listing


def _key() -> Path:
    return Path(os.environ[KEY_DIR_ENV]) / PRIVATE_KEY_FILE


def _work(run: RunDir) -> None:
    """An importer's work/: a few files, one in a subfolder."""
    (run.work_dir / "sub").mkdir(parents=True)
    for name in ("a.txt", "b.txt", "sub/c.txt"):
        (run.work_dir / name).write_text(f"{name}\n", encoding="utf-8")


def test_control_a_snapshot_copies_work_as_it_is(tmp_path: Path) -> None:
    run = RunDir(tmp_path / "run")
    _work(run)
    (run.work_dir / "link").symlink_to("a.txt")
    (run.work_dir / "b.txt").chmod(0o640)
    run.snapshot_work(2)
    snapshot = run.snapshot_dir(2)
    assert work_tree_sha256(snapshot) == work_tree_sha256(run.work_dir)
    assert (snapshot / "link").is_symlink() and (snapshot / "link").readlink() == Path("a.txt")
    assert (snapshot / "b.txt").stat().st_mode & 0o777 == 0o640
    assert files_holding(tmp_path, _key().read_bytes()) == []


@pytest.mark.parametrize("swapped", [("", "b.txt"), ("", "sub"), ("sub", "c.txt")])
def test_a_file_swapped_for_a_link_to_the_key_after_the_listing_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, swapped: tuple[str, str]
) -> None:
    run = RunDir(tmp_path / "run")
    _work(run)
    folder, name = swapped
    link_to = _key() if name != "sub" else _key().parent
    done = swap_for_link_after_listing(monkeypatch, run.work_dir / folder, name, link_to)
    with pytest.raises(ProvebenchError):
        run.snapshot_work(2)
    assert done, "the race was not reproduced"
    assert not run.snapshot_dir(2).exists()  # no partial snapshot left behind
    assert files_holding(tmp_path, _key().read_bytes()) == []


def test_a_restore_refuses_a_snapshot_file_swapped_for_a_link_to_the_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = RunDir(tmp_path / "run")
    _work(run)
    run.snapshot_work(2)
    committed = work_tree_sha256(run.work_dir)
    (run.work_dir / "a.txt").write_text("half-written", encoding="utf-8")
    # The first listing is the check against the log's digest, the second the restore's copy.
    done = swap_for_link_after_listing(monkeypatch, run.snapshot_dir(2), "b.txt", _key(), listing=2)
    with pytest.raises(ProvebenchError):
        run.align_work_dir(1, committed)
    assert done, "the race was not reproduced"
    assert files_holding(tmp_path, _key().read_bytes()) == []


def _copy(source: Path, target: Path) -> None:
    copy_tree(source, target)


def _replace(source: Path, target: Path) -> None:
    target.mkdir()
    (target / "old.txt").write_text("old\n", encoding="utf-8")
    replace_tree(target, source)


@pytest.mark.parametrize("copier", [_copy, _replace])
def test_the_sandbox_cycle_copies_refuse_a_swap_to_the_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, copier: Callable[[Path, Path], None]
) -> None:
    run = RunDir(tmp_path / "run")
    _work(run)
    copier(run.work_dir, tmp_path / "control")  # the honest copy: the same tree
    assert work_tree_sha256(tmp_path / "control") == work_tree_sha256(run.work_dir)
    done = swap_for_link_after_listing(monkeypatch, run.work_dir, "b.txt", _key())
    with pytest.raises(ProvebenchError):
        copier(run.work_dir, tmp_path / "copy")
    assert done, "the race was not reproduced"
    assert files_holding(tmp_path, _key().read_bytes()) == []
