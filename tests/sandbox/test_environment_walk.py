"""The environment manifest's walk (`_manifest._shown_folders`, one `os.scandir` per folder)
gives the rows, in the order, that the `os.walk` reading it replaced gave: a digest sealed
before it must still match. Held over the real environment and over a folder of links (to a
file, to a folder, dangling), special files, a `__pycache__` folder and a folder left out."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

from provebench.sandbox import _manifest
from tests.sandbox.environment_helpers import fresh_digest  # noqa: F401 (a fixture)

pytestmark = pytest.mark.usefixtures("fresh_digest")


def _os_walk_reading() -> tuple[list[_manifest.Row], list[str]]:
    """The manifest's rows and the `__pycache__` folders it left out, read as the walk read
    them before `os.scandir`: `os.walk`, a `relpath`/`normpath` per folder, `islink` for the
    links among its folders."""
    left_out = _manifest._left_out()
    roots = list(map(str, _manifest.environment_roots()))
    cache = _manifest._load_cache(roots)
    rows: list[_manifest.Row] = []
    real_roots = [os.path.realpath(root) for root in roots]
    caches: list[str] = []
    for root in roots:
        real_root = os.path.realpath(root)
        for parent, folders, files in os.walk(root):
            below = os.path.relpath(parent, root)
            real = os.path.normpath(os.path.join(real_root, below))  # noqa: PTH118
            if any(real == out or real.startswith(out + os.sep) for out in left_out):
                folders[:] = []
                continue
            if os.path.basename(parent) == "__pycache__":  # noqa: PTH119
                caches.append(parent)
                folders[:] = []
                continue
            folders.sort()
            links = [n for n in folders if os.path.islink(f"{parent}/{n}")]  # noqa: PTH114
            for name in sorted([*files, *links]):
                shown = os.path.normpath(f"{below}/{name}")
                rows.append(_manifest._row(root, shown, f"{parent}/{name}", cache, {}, real_roots))
    return rows, caches


def _walked() -> tuple[list[_manifest.Row], list[str]]:
    rows = _manifest.environment_manifest()
    return rows, list(_manifest._walked_caches)


def test_the_walk_reads_the_real_environment_as_os_walk_did() -> None:
    rows, caches = _walked()
    assert len(rows) > 1000  # the interpreters and the package, not an empty reading
    assert (rows, caches) == _os_walk_reading()


@pytest.fixture
def odd_roots(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Two roots (one given through a link) holding what a listing's types must tell apart."""
    root, other = tmp_path / "root", tmp_path / "other"
    for folder in [
        root / "b" / "deep" / "deeper",
        root / "a-folder",
        root / "a" / "__pycache__" / "inner",
        root / "left" / "out",
        root / "Z",
        other / "lib",
    ]:
        folder.mkdir(parents=True)
    for path in [
        root / "top.py",
        root / "b" / "x.py",
        root / "b" / "deep" / "deeper" / "y.py",
        root / "a" / "__pycache__" / "m.cpython-311.pyc",
        root / "left" / "out" / "hidden.py",
        root / "a-file",
        root / "a.py",
        other / "lib" / "z.py",
    ]:
        path.write_text(path.name, encoding="utf-8")
    (root / "link-to-folder").symlink_to("b")
    (root / "b" / "link-to-file").symlink_to("../top.py")
    (root / "b" / "dangling").symlink_to("nothing-here")
    (root / "empty").mkdir()
    os.mkfifo(root / "b" / "fifo")
    monkeypatch.chdir(root)  # a socket's path is short: bound by its name in its folder
    with socket.socket(socket.AF_UNIX) as listening:
        listening.bind("sock")
    linked = tmp_path / "linked-root"
    linked.symlink_to(other)
    monkeypatch.setattr(_manifest, "environment_roots", lambda: [root, linked])
    monkeypatch.setattr(_manifest, "_left_out", lambda: [str(root / "left")])
    return [root, linked]


def test_links_special_files_caches_and_left_out_folders_read_as_os_walk_read_them(
    odd_roots: list[Path],
) -> None:
    rows, caches = _walked()
    assert (rows, caches) == _os_walk_reading()
    # what the comparison holds, spelled out: parents' files before their subfolders', each
    # folder by name; links and special files are rows, never walked into
    root, linked = map(str, odd_roots)
    assert [(row[1], row[2]) for row in rows] == [
        ("a-file", "file"),
        ("a.py", "file"),
        ("link-to-folder", "link"),
        ("sock", "special"),
        ("top.py", "file"),
        ("b/dangling", "link"),
        ("b/fifo", "special"),
        ("b/link-to-file", "link"),
        ("b/x.py", "file"),
        ("b/deep/deeper/y.py", "file"),
        ("lib/z.py", "file"),
    ]
    assert [row[0] for row in rows] == [root] * 10 + [linked]
    assert caches == [f"{root}/a/__pycache__"]


def test_a_folder_link_out_of_the_roots_is_still_refused(odd_roots: list[Path]) -> None:
    (odd_roots[0] / "b" / "deep" / "out").symlink_to(odd_roots[0].parent)
    with pytest.raises(_manifest.ProvebenchError, match="a link that leads out of it"):
        _walked()


@pytest.mark.parametrize("made", ["folder", "link"])
def test_a_name_that_is_not_utf8_is_refused_in_one_line(odd_roots: list[Path], made: str) -> None:
    # Sandbox red team 39b, A07 v1b: a folder named `k\xffcorp` in the venv made every launch an
    # internal error (UnicodeEncodeError), exit 3.
    if made == "folder":
        folder = odd_roots[0] / os.fsdecode(b"k\xffcorp")
        folder.mkdir()
        (folder / "key.pem").write_bytes(b"x")
    else:
        (odd_roots[0] / "b" / "odd").symlink_to(os.fsdecode(b"t\xffarget"))
    with pytest.raises(_manifest.ProvebenchError, match="a name that is not UTF-8") as caught:
        _manifest.environment_digest()
    line = caught.value.one_line()
    assert "\n" not in line
    line.encode("utf-8")  # printable: the name's bytes escaped
    assert ("k\\xffcorp" if made == "folder" else "b/odd") in line, line
