"""The environment manifest's walk (`_manifest._shown_folders`, one `os.scandir` per folder)
gives the rows, in the order, that the `os.walk` reading it replaced gave: a digest sealed
before it must still match. Held over the real environment and over a folder of links (to a
file, to a folder, dangling), special files, a `__pycache__` folder and a folder left out."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from provebench.sandbox import _manifest, _mounts
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


def test_a_mount_point_below_a_root_is_refused(
    odd_roots: list[Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Sandbox red team 39b, H2: the key folder bound at `.venv/kb` was read by a sealed probe
    # (the bind's second name is one no mask covers). Played with the mount table the kernel
    # would list (a real bind: test_a_bind_mount_of_a_secret_in_the_environment_is_refused).
    kb = odd_roots[0] / "a-folder"
    table = tmp_path / "mountinfo"
    line = "7 1 8:1 / / rw - ext4 /dev/vda rw\n"
    monkeypatch.setattr(_mounts, "MOUNT_INFO", table)
    # A mount at a root (its own volume) and one below a folder left out: walked as before.
    table.write_text(
        line + f"9 7 8:1 /x {odd_roots[0]} rw - ext4 /dev/vda rw\n"
        f"9 7 8:1 /x {odd_roots[0]}/left/out rw - ext4 /dev/vda rw\n",
        encoding="utf-8",
    )
    assert _manifest.environment_manifest()
    table.write_text(line + f"9 7 8:1 /keys {kb} rw - ext4 /dev/vda rw\n", encoding="utf-8")
    with pytest.raises(_manifest.ProvebenchError, match="holds a mount point") as caught:
        _manifest.environment_manifest()
    assert str(kb) in caught.value.one_line()


def test_a_bind_mount_of_a_secret_in_the_environment_is_refused(
    odd_roots: list[Path], tmp_path: Path
) -> None:
    """H2 with a real bind mount (`unshare`, as the red team did)."""
    prefix = _unshare()
    if prefix is None or shutil.which("mount") is None:
        pytest.skip("no mount namespace this user may mount in (unshare -m / -rm)")
    keys = tmp_path / "keys"
    keys.mkdir()
    (keys / "laboratory.ed25519.pem").write_text("canary\n", encoding="utf-8")
    child = (
        "import sys\nfrom pathlib import Path\nfrom provebench.sandbox import _manifest\n"
        "_manifest.environment_roots = lambda: [Path(sys.argv[1])]\n"
        "_manifest._left_out = lambda: []\n"
        "try:\n    _manifest.environment_manifest()\n    print('shown')\n"
        "except _manifest.ProvebenchError as error:\n    print(error.one_line())\n"
    )
    script = (
        f'mount --bind "{keys}" "{odd_roots[0] / "a-folder"}" && '
        f'exec "{sys.executable}" -c "$CHILD" "{odd_roots[0]}"'
    )
    done = subprocess.run(
        [*prefix, "sh", "-c", script], capture_output=True, text=True, timeout=120, check=False,
        env={**os.environ, "CHILD": child},
    )  # fmt: skip
    if done.returncode != 0 and "mount" in done.stderr and not done.stdout:
        pytest.skip(f"mount refused here: {done.stderr.strip()}")
    assert done.returncode == 0, done.stderr
    assert "holds a mount point" in done.stdout and "a-folder" in done.stdout, done.stdout


def _unshare() -> list[str] | None:
    """A command prefix that runs in a new mount namespace where this user may mount, or None."""
    for prefix in (["unshare", "-m"], ["unshare", "-rm"]):
        try:
            done = subprocess.run([*prefix, "true"], capture_output=True, timeout=20, check=False)
        except (OSError, subprocess.TimeoutExpired):
            return None
        if done.returncode == 0:
            return prefix
    return None
