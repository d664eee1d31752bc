"""A pilot matrix driver killed while it generated a seed's corpus left its private fresh folder
(`OUT/corpora/.PROFILE-SEED.fresh-…`, a whole corpus with its answer key) for good. The next
driver now removes those whose process no longer runs — only its own names, only folders of
this user, with no link followed — and keeps everything else (docs/matrix.md, "Corpora")."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from provebench.pilot.matrix._plan import CORPORA_DIR, corpus_for

SMALL = {"cycles": 4, "file_events": 30, "admissible_files": 12}


def dead_pid() -> int:
    """The id of a process that ran and is gone."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def killed_drivers_folder(corpora: Path, pid: int, name: str) -> Path:
    """A fresh folder as a driver killed mid-generation leaves it: a partial corpus, with a
    read-only folder in it (which `rmtree` by path could not empty)."""
    scratch = corpora / f".public-1.fresh-{pid}-{name}"
    (scratch / "corpus" / "inner").mkdir(parents=True)
    (scratch / "corpus" / "expected_final_rows.csv").write_text("answer key\n", encoding="utf-8")
    (scratch / "corpus" / "inner" / "x").write_text("x", encoding="utf-8")
    (scratch / "corpus" / "inner").chmod(0o500)
    return scratch


@pytest.mark.slow
def test_the_next_driver_removes_a_killed_drivers_fresh_folder_and_nothing_else(
    tmp_path: Path,
) -> None:
    out = tmp_path / "matrix"
    corpora = out / CORPORA_DIR
    corpora.mkdir(parents=True)
    gone = dead_pid()
    stale = killed_drivers_folder(corpora, gone, "abcd1234")
    # A driver that still runs (this process) keeps its folder.
    running = killed_drivers_folder(corpora, os.getpid(), "efgh5678")
    # A link and a file at such a name are not a driver's folder: left as they are, and
    # nothing where the link leads is touched.
    victim = tmp_path / "victim"
    (victim / "inner").mkdir(parents=True)
    (victim / "inner" / "keep").write_text("keep", encoding="utf-8")
    (victim / "inner").chmod(0o500)
    link = corpora / f".public-1.fresh-{gone}-link0000"
    link.symlink_to(victim)
    file = corpora / f".public-1.fresh-{gone}-file0000"
    file.write_text("a file", encoding="utf-8")
    # Another name is not this module's.
    other = corpora / f".public-1.freshly-{gone}-x"
    other.mkdir()

    folder, _ = corpus_for(out, "public", 1, SMALL)

    assert not os.path.lexists(stale)
    assert running.is_dir() and (running / "corpus" / "inner" / "x").is_file()
    assert link.is_symlink() and (victim / "inner" / "keep").read_text(encoding="utf-8") == "keep"
    assert (victim / "inner").stat().st_mode & 0o777 == 0o500
    assert file.is_file() and other.is_dir()
    # The driver's own fresh folder is gone once the corpus is in place.
    left = sorted(p.name for p in corpora.iterdir())
    assert left == sorted([folder.name, running.name, link.name, file.name, other.name])
    (running / "corpus" / "inner").chmod(0o700)
