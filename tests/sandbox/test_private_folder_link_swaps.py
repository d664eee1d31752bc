"""Red team round 14b, B1, B2 and C1 (docs/sandbox.md, "One snapshot per run"): a process of
the laboratory's user swapped one of the laboratory's own folders for a symbolic link while it
was used, and a step that worked on the folder by path followed the link. B1: the code copy's
root was made read-only by path after its last check (a seal made the private key 0555, world
readable). B2: a private folder's removal made every folder of its walk writable by path (a
victim's read-only folders became 0700). C1: a cycle's end emptied the run's `work/` by path (a
victim's files were deleted). Each swap is made here at the instant the attacker acted, through
the step that ran just before, instead of by timing."""

from __future__ import annotations

import contextlib
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from provebench import _read_once
from provebench._errors import ProvebenchError
from provebench._read_once import TreeEntry
from provebench.sandbox import _code_copy, _private
from provebench.sandbox._candidate import code_listing
from provebench.sandbox._code_copy import copy_code, snapshot_code
from provebench.sandbox._limits import Limits
from provebench.sandbox._private import remove_private_folder, sweep_stale_folders
from provebench.sandbox._workdir import cycle_folder, replace_tree


@pytest.fixture(autouse=True)
def _key_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PROVEBENCH_KEY_DIR", str(tmp_path / "keys"))


@pytest.fixture
def code(tmp_path: Path) -> Path:
    folder = tmp_path / "code"
    (folder / "pkg").mkdir(parents=True)
    (folder / "imp.py").write_text("class Imp:\n    pass\n", encoding="utf-8")
    (folder / "pkg" / "util.py").write_text("X = 1\n", encoding="utf-8")
    return folder


def _mode(path: Path) -> int:
    return path.lstat().st_mode & 0o7777


def _swap_for_link(folder: Path, victim: Path) -> Path:
    """What the attacker did: the folder moved aside, a link to the victim at its name."""
    moved = folder.with_name(f"{folder.name}.moved")
    folder.rename(moved)
    folder.symlink_to(victim, target_is_directory=True)
    return moved


# -- B1: the code copy's root -----------------------------------------------------------------


def test_b1_the_copy_root_swapped_after_its_check_leaves_the_victim_as_it_was(
    code: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    victim = tmp_path / "victim"
    victim.mkdir(mode=0o700)
    copy = tmp_path / "seal" / "code"
    real_listing = _code_copy.code_listing
    moved: list[Path] = []

    def listing_then_swap(roots: Any, *args: Any, **kwargs: Any) -> list[tuple[str, str]]:
        listed = real_listing(roots, *args, **kwargs)  # the copy has checked itself
        moved.append(_swap_for_link(copy / "0", victim))
        return listed

    monkeypatch.setattr(_code_copy, "code_listing", listing_then_swap)
    copy_code([code], [], copy, field="--agent")
    assert _mode(victim) == 0o700  # was made 0555 through the link
    assert _mode(moved[0]) == 0o555 and _mode(moved[0] / "pkg") == 0o555  # the copy's own


def test_b1_control_a_copy_is_read_only_and_lists_as_its_original(
    code: Path, tmp_path: Path
) -> None:
    copy = tmp_path / "seal" / "code"
    listing = copy_code([code, code / "imp.py"], [], copy, field="--agent")
    assert _mode(copy / "0") == 0o555 and _mode(copy / "1") == 0o555
    assert _mode(copy / "0" / "pkg") == 0o555 and _mode(copy / "1" / "imp.py") == 0o444
    assert listing == code_listing([copy / "0", copy / "1" / "imp.py"], field="--agent")
    original = code_listing([code, code / "imp.py"], field="--agent", skip_caches=True)
    assert listing == original


# -- B2: removing a private folder --------------------------------------------------------------


@pytest.fixture
def read_only_victim(tmp_path: Path) -> Iterator[Path]:
    victim = tmp_path / "victim"
    (victim / "sub").mkdir(parents=True)
    (victim / "sub" / "keep.txt").write_text("keep\n", encoding="utf-8")
    (victim / "sub").chmod(0o500)
    victim.chmod(0o555)
    yield victim
    victim.chmod(0o700)
    (victim / "sub").chmod(0o700)


def test_b2_the_snapshot_swapped_after_it_was_held_leaves_the_victim_as_it_was(
    code: Path, read_only_victim: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_private, "_swept", True)  # this test's folders only
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    monkeypatch.setattr(_private, "ROOT_PARENT", tmp_path)
    real_hold = _code_copy.hold_code
    moved: list[Path] = []

    def hold_then_swap(shown: Any, roots: list[Path], *args: Any, **kwargs: Any) -> Any:
        held = real_hold(shown, roots, *args, **kwargs)  # the snapshot's last read
        moved.append(_swap_for_link(roots[0].parent, read_only_victim))
        return held

    monkeypatch.setattr(_code_copy, "hold_code", hold_then_swap)
    with contextlib.ExitStack() as resources:
        snapshot = snapshot_code([code], [], resources, field="--agent")
        assert snapshot.held is not None
    assert _mode(read_only_victim) == 0o555 and _mode(read_only_victim / "sub") == 0o500
    assert (read_only_victim / "sub" / "keep.txt").read_text(encoding="utf-8") == "keep\n"
    # What the attacker moved aside is no longer at the laboratory's name: left where it is.
    assert (moved[0] / "0" / "imp.py").is_file()


def test_b2_a_stale_folder_swapped_after_the_sweeps_check_is_not_followed(
    read_only_victim: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    dead = subprocess.Popen(["true"])
    dead.wait()
    stale = tmp_path / f"provebench-code-{dead.pid}-abcd1234"
    (stale / "0").mkdir(parents=True)
    (stale / "0").chmod(0o555)

    def gone_after_a_swap(pid: int) -> bool:  # the sweep has checked: a folder, not a link
        _swap_for_link(stale, read_only_victim)
        return True

    monkeypatch.setattr(_private, "process_gone", gone_after_a_swap)
    sweep_stale_folders(tmp_path)
    assert _mode(read_only_victim) == 0o555 and _mode(read_only_victim / "sub") == 0o500
    assert stale.is_symlink()  # a link is not the laboratory's folder: left, never followed


def test_b2_control_a_private_folder_with_read_only_folders_is_removed(tmp_path: Path) -> None:
    folder = _private.private_folder("code", tmp_path)
    (folder / "0" / "pkg").mkdir(parents=True)
    (folder / "0" / "pkg" / "x.py").write_text("x\n", encoding="utf-8")
    (folder / "0" / "link").symlink_to("pkg")
    for read_only in (folder / "0" / "pkg", folder / "0", folder):
        read_only.chmod(0o555)
    remove_private_folder(folder)
    assert not folder.exists()


# -- C1: the run's work/ at a cycle's end ---------------------------------------------------


@pytest.fixture
def victim_files(tmp_path: Path) -> Path:
    victim = tmp_path / "victim"
    (victim / "sub").mkdir(parents=True)
    (victim / "a.txt").write_text("keep\n", encoding="utf-8")
    (victim / "sub" / "b.txt").write_text("keep\n", encoding="utf-8")
    return victim


def _files(folder: Path) -> list[str]:
    return sorted(path.relative_to(folder).as_posix() for path in folder.rglob("*"))


def test_c1_work_swapped_mid_cycle_is_refused_and_the_victim_keeps_its_files(
    victim_files: Path, tmp_path: Path
) -> None:
    work = tmp_path / "run" / "work"
    work.mkdir(parents=True)
    (work / "journal").write_text("1\n", encoding="utf-8")
    with (
        pytest.raises(ProvebenchError, match="symbolic link is not followed"),
        cycle_folder(work, Limits(), parent=tmp_path) as folder,
    ):
        (folder / "work" / "journal").write_text("2\n", encoding="utf-8")
        _swap_for_link(work, victim_files)  # mid-cycle, by the operator's other process
    assert _files(victim_files) == ["a.txt", "sub", "sub/b.txt"]


def test_c1_a_refused_copy_empties_the_folder_it_held_not_a_link_in_its_place(
    victim_files: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source, target = tmp_path / "source", tmp_path / "target"
    source.mkdir()
    (source / "x.txt").write_text("x\n", encoding="utf-8")
    target.mkdir()
    (target / "old.txt").write_text("old\n", encoding="utf-8")
    real_tree = _read_once.read_tree_once
    moved: list[Path] = []

    def swap_then_refuse(folder: Path) -> Iterator[TreeEntry]:
        yield from real_tree(folder)
        moved.append(_swap_for_link(target, victim_files))
        raise ProvebenchError("changed while it was copied", path=folder)

    monkeypatch.setattr(_read_once, "read_tree_once", swap_then_refuse)
    with pytest.raises(ProvebenchError, match="changed while it was copied"):
        replace_tree(target, source)
    assert _files(victim_files) == ["a.txt", "sub", "sub/b.txt"]
    assert list(moved[0].iterdir()) == []  # the partial copy removed from the folder held


def test_c1_control_replace_tree_makes_work_what_the_cycle_left(tmp_path: Path) -> None:
    source, target = tmp_path / "source", tmp_path / "target"
    (source / "sub").mkdir(parents=True)
    (source / "sub" / "x.txt").write_text("x\n", encoding="utf-8")
    (source / "link").symlink_to("sub/x.txt")
    (target / "old" / "deep").mkdir(parents=True)
    (target / "old" / "deep" / "y.txt").write_text("y\n", encoding="utf-8")
    (target / "old" / "deep").chmod(0o555)  # a folder the candidate left read-only
    (target / "gone").symlink_to(source, target_is_directory=True)
    replace_tree(target, source)
    assert _files(target) == ["link", "sub", "sub/x.txt"]
    assert (target / "link").readlink() == Path("sub/x.txt")
    assert _files(source) == ["link", "sub", "sub/x.txt"]  # the old link was not followed
