"""Issue 40 (pilot red team 25, round 2): a hard link in the candidate's folder was refused only
when its other name was in `/etc`; one of a file under `/var`, a home folder or another
laboratory's files was shown and sealed. A file whose names are more than the walk finds in the
code has a name elsewhere and is refused in one line naming it (`sandbox._other_names`),
whatever folder that name is in; names all inside the code, an honest git checkout and a venv
made by `python -m venv` are shown."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from provebench._errors import ProvebenchError
from provebench.sandbox._candidate import code_listing
from provebench.sandbox._code_copy import copy_code


def _code(tmp_path: Path) -> Path:
    code = tmp_path / "cand"
    code.mkdir()
    (code / "importer.py").write_text("print('importer')\n", encoding="utf-8")
    return code


def _elsewhere(tmp_path: Path, folder: str, name: str = "state") -> Path:
    """A file of another folder of the host (`/var/lib/x`, a home folder), played here."""
    place = tmp_path / folder
    place.mkdir(parents=True)
    (place / name).write_text(f"{folder} secret\n", encoding="utf-8")
    return place / name


@pytest.mark.parametrize("folder", ["var/lib/x", "home/op", "other-lab/run-1"])
def test_a_hard_link_of_a_file_named_elsewhere_is_refused_and_never_copied(
    tmp_path: Path, folder: str
) -> None:
    code = _code(tmp_path)
    os.link(_elsewhere(tmp_path, folder), code / "s.txt")
    copy = tmp_path / "copy"
    for call in (
        lambda: code_listing([code], field="--agent"),
        lambda: copy_code([code], [], copy, field="--agent"),
    ):
        with pytest.raises(ProvebenchError) as caught:
            call()
        line = caught.value.one_line()
        assert "\n" not in line
        assert f"{code / 's.txt'} in the candidate's code has 2 names and 1 of them" in line
    # The copy is written only after the whole walk: nothing of the code is in it.
    assert not [path for path in copy.rglob("*") if path.is_file()]


def test_a_file_shown_alone_with_a_name_elsewhere_is_refused(tmp_path: Path) -> None:
    code = _code(tmp_path)
    os.link(_elsewhere(tmp_path, "var"), code / "s.txt")
    with pytest.raises(ProvebenchError, match=r"s\.txt in the candidate's code has 2 names"):
        code_listing([code / "s.txt"], field="--agent")


def test_names_all_inside_the_code_are_shown(tmp_path: Path) -> None:
    """Two names in one folder, in two folders of the code, and in two shown paths: every name
    is found, nothing is refused."""
    code = _code(tmp_path)
    (code / "sub").mkdir()
    os.link(code / "importer.py", code / "same.py")
    os.link(code / "importer.py", code / "sub" / "again.py")
    data = tmp_path / "data"
    data.mkdir()
    os.link(code / "importer.py", data / "third.py")
    assert code_listing([code, data], field="--agent")
    with pytest.raises(ProvebenchError, match="has 4 names and 3 of them"):
        code_listing([code], field="--agent")  # the fourth name is not shown


def test_the_first_file_in_path_order_is_named(tmp_path: Path) -> None:
    code = _code(tmp_path)
    os.link(_elsewhere(tmp_path, "var", "b"), code / "b.txt")
    os.link(_elsewhere(tmp_path, "home", "a"), code / "z.txt")
    for _ in range(2):
        with pytest.raises(ProvebenchError, match=r"cand/b\.txt in the candidate's code"):
            code_listing([code], field="--agent")


def test_an_honest_git_checkout_and_venv_are_shown(tmp_path: Path) -> None:
    """What an honest candidate's folder holds: a git repository with a commit, and a venv made
    by `python -m venv` (no pip here: the check is of what the venv module writes; pip copies
    what it installs). A local `git clone` links its objects: refused, `--no-hardlinks` not."""
    git = shutil.which("git")
    if git is None:
        pytest.skip("no git here")
    code = _code(tmp_path)
    env = {**os.environ, "GIT_AUTHOR_NAME": "a", "GIT_AUTHOR_EMAIL": "a@b",
           "GIT_COMMITTER_NAME": "a", "GIT_COMMITTER_EMAIL": "a@b"}  # fmt: skip
    for argv in (["init", "-q"], ["add", "importer.py"], ["commit", "-qm", "first"]):
        subprocess.run([git, *argv], cwd=code, env=env, check=True)
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(code / "venv")], check=True)
    assert code_listing([code], field="--agent")
    subprocess.run([git, "clone", "-q", str(code), str(tmp_path / "linked")], check=True)
    with pytest.raises(ProvebenchError, match=r"linked/\.git/objects/.* has 2 names"):
        code_listing([tmp_path / "linked"], field="--agent")
    plain = tmp_path / "plain"
    subprocess.run([git, "clone", "-q", "--no-hardlinks", str(code), str(plain)], check=True)
    assert code_listing([plain], field="--agent")
