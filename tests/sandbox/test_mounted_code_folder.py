"""A shown folder that is itself a mount shows what its source shows: the candidate's folder
bound from `/etc/dpkg`, or an overlay over it, was walked, shown and sealed (pilot red team
round 22, A14: the walk refused mounts only *below* a shown path). The mount's other names on
the host are read from `/proc/self/mountinfo` (`_mounts.host_paths`) and each is held to
`never_shown`; a volume no other mount shows is walked as before."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from provebench.sandbox._mounts import Mount, host_paths
from tests.sandbox.test_secrets_met_in_the_walk import CHILD, _unshare

ROOT = Mount("254:0", Path("/"), Path("/"), "ext4", ("rw",))


def test_a_bind_of_a_host_folder_is_that_folder_by_its_other_name() -> None:
    bound = Mount("254:0", Path("/etc/dpkg"), Path("/work/cand"), "ext4", ("rw",))
    assert host_paths(Path("/work/cand"), (ROOT, bound)) == [Path("/etc/dpkg")]
    assert host_paths(Path("/work/cand/sub"), (ROOT, bound)) == [Path("/etc/dpkg/sub")]


def test_an_overlay_is_its_lower_and_upper_folders() -> None:
    overlay = Mount(
        "0:99",
        Path("/"),
        Path("/work/cand"),
        "overlay",
        ("rw", "lowerdir=/etc/dpkg:/srv/x", "upperdir=/tmp/u", "workdir=/tmp/w"),
    )
    found = host_paths(Path("/work/cand"), (ROOT, overlay))
    assert found == [Path("/etc/dpkg"), Path("/srv/x"), Path("/tmp/u")]


def test_a_volume_no_other_mount_shows_has_no_other_name() -> None:
    volume = Mount("8:16", Path("/"), Path("/work"), "ext4", ("rw",))
    assert host_paths(Path("/work/cand"), (ROOT, volume)) == []
    # nor has a folder of the root file system shown by no other mount
    assert host_paths(Path("/home/u/cand"), (ROOT, volume)) == []


def test_the_candidates_folder_bound_from_a_host_state_folder_is_refused(tmp_path: Path) -> None:
    """A14 played with a real mount, as the red team did: `/etc/dpkg` (any folder of `/etc`
    there is) bound over the candidate's folder is refused, where the plain folder is shown."""
    prefix = _unshare()
    source = next((p for p in (Path("/etc/dpkg"), Path("/etc/ssl")) if p.is_dir()), None)
    if prefix is None or source is None:
        pytest.skip("no mount namespace this user may mount in, or no /etc folder to bind")
    cand = tmp_path / "cand"
    cand.mkdir()
    (cand / "importer.py").write_text("print('ok')\n", encoding="utf-8")
    script = f'mount --bind "{source}" "{cand}" && exec "{sys.executable}" -c "$CHILD" "{cand}"'
    done = subprocess.run(
        [*prefix, "sh", "-c", script], capture_output=True, text=True,
        env={**os.environ, "CHILD": CHILD}, timeout=120, check=False,
    )  # fmt: skip
    if done.returncode != 0 and "mount" in done.stderr and not done.stdout:
        pytest.skip(f"mount refused here: {done.stderr.strip()}")
    assert done.returncode == 0, done.stderr
    assert f"is {source} by a mount" in done.stdout, done.stdout


def test_a_layered_or_user_space_mount_other_than_the_root_is_unprovable() -> None:
    # pilot red team 24, A2: an overlay's lowerdir is the text given at mount time; a bind of
    # /etc/dpkg as its lower layer, unmounted after, left a name that led nowhere bad.
    from provebench.sandbox._mounts import unprovable_mount

    overlay = Mount("0:99", Path("/"), Path("/work/cand"), "overlay", ("lowerdir=/x/mid",))
    fuse = Mount("0:98", Path("/"), Path("/work/fs"), "fuse.sshfs", ("rw",))
    root_overlay = Mount("0:97", Path("/"), Path("/"), "overlay", ("lowerdir=/l",))
    volume = Mount("8:16", Path("/"), Path("/work/vol"), "ext4", ("rw",))
    assert unprovable_mount(Path("/work/cand/sub"), (ROOT, overlay)) == overlay
    assert unprovable_mount(Path("/work/fs"), (ROOT, fuse)) == fuse
    assert unprovable_mount(Path("/work/cand"), (root_overlay,)) is None  # a container's root
    assert unprovable_mount(Path("/work/vol/cand"), (ROOT, volume)) is None
