"""What a user hands on — a corpus, a publication bundle — gets the user's umask, and its modes
are given through the descriptors that wrote it, never by path (docs/pilot-lab.md, "Corpus").

Before, the corpus's files and folder were `chmod`ed to 0644/0755 by path after they were
written (whatever the umask: a corpus — its answer key — made under umask 077 was readable by
everyone), and the bundle's copies and folder likewise by path: a name swapped for a link
between the write and the chmod changed the mode of whatever the link led to.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from provebench._errors import ProvebenchError
from provebench.pilot.corpus import _folder, corpus_config, write_corpus
from provebench.pilot.corpus._folder import MANIFEST_FILE
from provebench.pilot.publish import _bundle

SMALL = {"admissible_files": 12, "file_events": 30, "cycles": 4}


@contextlib.contextmanager
def umask(mask: int) -> Iterator[None]:
    old = os.umask(mask)
    try:
        yield
    finally:
        os.umask(old)


def modes(folder: Path) -> dict[str, int]:
    found = {".": stat.S_IMODE(folder.lstat().st_mode)}
    for path in folder.rglob("*"):
        found[path.relative_to(folder).as_posix()] = stat.S_IMODE(path.lstat().st_mode)
    return found


def make(out: Path) -> None:
    write_corpus(corpus_config(seed=1, profile="public", overrides=SMALL), out)


@pytest.mark.parametrize(("mask", "folder", "file"), [(0o077, 0o700, 0o600), (0o022, 0o755, 0o644)])
def test_a_corpus_takes_the_users_umask(tmp_path: Path, mask: int, folder: int, file: int) -> None:
    out = tmp_path / "corpus"
    with umask(mask):
        make(out)
    found = modes(out)
    assert found.pop(".") == folder
    assert found and set(found.values()) == {file}, found


def victim(tmp_path: Path) -> Path:
    """A private folder of the user's with a private file in it, named like a corpus file."""
    folder = tmp_path / "victim"
    folder.mkdir(mode=0o700)
    (folder / MANIFEST_FILE).write_text("{}", encoding="utf-8")
    (folder / MANIFEST_FILE).chmod(0o600)
    (folder / _folder.EVENTS_FILE).write_text("", encoding="utf-8")
    (folder / _folder.EVENTS_FILE).chmod(0o600)
    folder.chmod(0o700)
    return folder


def test_a_corpus_swapped_for_a_link_once_written_leaves_the_victim_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = victim(tmp_path)
    real_write = _folder.write_atomic

    def write_then_swap(path: Path, data: Any, **options: Any) -> str:
        digest = real_write(path, data, **options)
        if Path(path).name == MANIFEST_FILE:  # the last file: a staging folder swapped
            staging = Path(path).parent
            staging.rename(tmp_path / "moved")
            staging.symlink_to(target)
        return digest

    monkeypatch.setattr(_folder, "write_atomic", write_then_swap)
    with umask(0o022), contextlib.suppress(ProvebenchError, OSError):
        make(tmp_path / "corpus")
    assert modes(target) == {".": 0o700, MANIFEST_FILE: 0o600, _folder.EVENTS_FILE: 0o600}


def test_a_file_the_corpus_writes_is_never_written_through_a_link(tmp_path: Path) -> None:
    target = victim(tmp_path)
    link = tmp_path / "events.jsonl"
    link.symlink_to(target / _folder.EVENTS_FILE)
    with pytest.raises(OSError), _folder._LineWriter(link) as emit:
        emit("written through the link")
    assert (target / _folder.EVENTS_FILE).read_text(encoding="utf-8") == ""


def test_a_bundle_copy_swapped_for_a_link_leaves_the_victim_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = victim(tmp_path)
    source = tmp_path / "source"
    source.mkdir()
    (source / "a.txt").write_text("a", encoding="utf-8")
    real_copy = _bundle.copy_once

    def copy_then_swap(origin: Path, destination: Path, **options: Any) -> str:
        digest = real_copy(origin, destination, **options)
        destination.unlink()
        destination.symlink_to(target / MANIFEST_FILE)
        return digest

    monkeypatch.setattr(_bundle, "copy_once", copy_then_swap)
    staged = _bundle._Staged(tmp_path / "staging")
    with umask(0o022), contextlib.suppress(ProvebenchError, OSError):
        staged.copy(source, tmp_path / "staging" / "copied", ["a.txt"])
    assert modes(target)[MANIFEST_FILE] == 0o600


def test_a_bundle_copy_takes_the_users_umask(tmp_path: Path) -> None:
    source = tmp_path / "source"
    source.mkdir()
    (source / "a.txt").write_text("a", encoding="utf-8")
    for mask, mode in ((0o077, 0o600), (0o022, 0o644)):
        staged = _bundle._Staged(tmp_path / f"staging-{mask:o}")
        with umask(mask):
            staged.copy(source, tmp_path / f"staging-{mask:o}", ["a.txt"])
        assert stat.S_IMODE((tmp_path / f"staging-{mask:o}" / "a.txt").stat().st_mode) == mode


def test_the_emulators_private_key_is_never_wider_than_0600(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The service account's key file is owner-only from its creation: it was written at the
    umask's mode and chmodded 0600 by path after its rename, readable by others meanwhile (and
    the chmod followed a link put at its name)."""
    from provebench import _canonical
    from provebench.pilot.emulator._auth import ServiceAccount

    seen: list[int] = []
    real_rename = _canonical._rename

    def rename_seen(temporary: Path, target: Path) -> None:
        seen.append(stat.S_IMODE(temporary.stat().st_mode))
        real_rename(temporary, target)

    monkeypatch.setattr(_canonical, "_rename", rename_seen)
    path = tmp_path / "service_account.json"
    with umask(0o022):
        ServiceAccount("http://127.0.0.1:9/token").write(path)
    assert seen == [0o600]
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


@pytest.fixture(scope="module")
def evaluated_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    from provebench.pilot import run_lab
    from provebench.pilot.evaluate import evaluate_run, write_verdict

    root = tmp_path_factory.mktemp("evaluated")
    corpus = root / "corpus"
    make(corpus)
    run = root / "run"
    run_lab(corpus, "reference", run)
    write_verdict(evaluate_run(run, corpus), run / "verdict.json")
    return run, corpus


def test_a_bundle_takes_the_users_umask(evaluated_run: tuple[Path, Path], tmp_path: Path) -> None:
    run, corpus = evaluated_run
    with umask(0o077):
        _bundle.publish_bundle([run], [corpus], tmp_path / "bundle")
    found = modes(tmp_path / "bundle")
    assert found.pop(".") == 0o700
    assert {mode for name, mode in found.items() if (tmp_path / "bundle" / name).is_file()} == {
        0o600
    }


def test_a_bundle_folder_swapped_for_a_link_leaves_the_victim_as_it_was(
    evaluated_run: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run, corpus = evaluated_run
    target = victim(tmp_path)
    real_write = _bundle._write_bundle

    def write_then_swap(root: Path, *rest: Any) -> Any:
        index = real_write(root, *rest)
        root.rename(tmp_path / "moved")
        root.symlink_to(target)
        return index

    monkeypatch.setattr(_bundle, "_write_bundle", write_then_swap)
    with umask(0o022), contextlib.suppress(ProvebenchError, OSError):
        _bundle.publish_bundle([run], [corpus], tmp_path / "bundle")
    assert modes(target)["."] == 0o700
