"""Pilot red team round 20, H2–H5: secrets met in the candidate's folder by a walk of its code.

H2: a bind mount in the candidate's folder (`shadow` → `/etc/shadow`, `sshbind` → `/etc/ssh`)
was sealed and shown: the walk knew only the identities of the top-level host-state folders.
H4: a seal folder moved, or a control corpus copied, into the candidate's folder: the record of
secrets was by path. H5: another laboratory's private root (made under another `$TMPDIR`) in
the candidate's folder was sealed whole. H3: a hard link of `/etc/shadow` (root only). Each is
refused in one line by the walk every seal, snapshot and identification reads code with
(`_candidate.read_shown`).
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from provebench._canonical import write_atomic
from provebench._errors import ProvebenchError
from provebench.attest import load_trusted_key
from provebench.pilot import _seal
from provebench.pilot.corpus import _folder
from provebench.pilot.corpus._folder import EXPECTED_ROWS_FILE, MANIFEST_FILE, PUBLISHED_FILES
from provebench.sandbox import _candidate, _mounts, _private
from provebench.sandbox._candidate import code_listing
from provebench.sandbox._code_copy import copy_code
from provebench.sandbox._known_secrets import (
    MARKS_FILE,
    known_secret_marks,
    remember_secret,
    remember_secret_marks,
)
from provebench.sandbox._private import ROOT_MARKER, private_root

IMPORTER = "print('importer')\n"


def _candidate_folder(tmp_path: Path, name: str = "cand") -> Path:
    code = tmp_path / name
    code.mkdir()
    (code / "importer.py").write_text(IMPORTER, encoding="utf-8")
    return code


def _refused(code: Path, match: str, tmp_path: Path, secret: str) -> None:
    """Refused in one line by a read of shown code and by a seal's copy, which holds no file
    named `secret` (what it wrote before the refusal its caller removes)."""
    copy = tmp_path / f"copy-{secrets.token_hex(4)}"
    for call in (
        lambda: code_listing([code], field="--agent"),
        lambda: copy_code([code], [], copy, field="--agent"),
    ):
        with pytest.raises(ProvebenchError, match=match) as caught:
            call()
        assert "\n" not in caught.value.one_line()
    assert not any(copy.rglob(secret))


# -- H2: a mount point below a shown path -------------------------------------------------------

CHILD = """
import json, sys
from pathlib import Path
from provebench._canonical import write_atomic
from provebench._errors import ProvebenchError
from provebench.sandbox._candidate import code_listing
out = {}
for given in sys.argv[1:]:
    try:
        code_listing([Path(given)], field="--agent")
        out[given] = "shown"
    except ProvebenchError as error:
        out[given] = error.one_line()
print(json.dumps(out))
"""


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


def test_a_bind_mount_in_the_candidate_folder_is_refused_file_and_folder(tmp_path: Path) -> None:
    """H2 played with real mounts (`unshare`, as the red team did): a file bound over
    `cand_file/shadow` and a folder over `cand_folder/ssh bind` (a space: mountinfo's escapes).
    The sources stand in for /etc/shadow and /etc/ssh: a mount point is refused whatever its
    source. The same folders without the mounts are shown."""
    prefix = _unshare()
    if prefix is None or shutil.which("mount") is None:
        pytest.skip("no mount namespace this user may mount in (unshare -m / -rm)")
    source_file = tmp_path / "host_shadow"
    source_file.write_text("root:$6$canary:20000:0:99999:7:::\n", encoding="utf-8")
    source_folder = tmp_path / "host_ssh"
    source_folder.mkdir()
    (source_folder / "ssh_host_ed25519_key").write_text("canary key\n", encoding="utf-8")
    file_case = _candidate_folder(tmp_path, "cand_file")
    folder_case = _candidate_folder(tmp_path, "cand_folder")
    (file_case / "shadow").write_text("", encoding="utf-8")
    (folder_case / "ssh bind").mkdir()
    script = (
        f'mount --bind "{source_file}" "{file_case / "shadow"}" && '
        f'mount --bind "{source_folder}" "{folder_case / "ssh bind"}" && '
        f'exec "{sys.executable}" -c "$CHILD" "{file_case}" "{folder_case}" '
        f'"{file_case / "shadow"}"'
    )
    env = {**os.environ, "CHILD": CHILD}
    done = subprocess.run(
        [*prefix, "sh", "-c", script], capture_output=True, text=True, env=env, timeout=120,
        check=False,
    )  # fmt: skip
    if done.returncode != 0 and "mount" in done.stderr and not done.stdout:
        pytest.skip(f"mount refused here: {done.stderr.strip()}")
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout)
    assert (
        f"{file_case / 'shadow'} in the candidate's code is a mount point" in seen[str(file_case)]
    )
    assert (
        f"{folder_case / 'ssh bind'} in the candidate's code is a mount point"
        in seen[str(folder_case)]
    )
    # the bound file named as the code itself
    assert "is a mount point" in seen[str(file_case / "shadow")]
    # no mount outside that namespace: the same folders are shown
    assert code_listing([file_case], field="--agent")
    assert code_listing([folder_case], field="--agent")


def _mounted_at(point: Path) -> tuple[_mounts.Mount, ...]:
    """A mount table holding one mount, of a device no other mount shows, at `point`."""
    return (_mounts.Mount("0:250", Path("/"), point, "ext4", ("rw",)),)


def test_a_mount_point_is_refused_as_it_is_met_and_a_mounted_code_folder_is_walked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """H2 everywhere, mounts told to the walk: an entry below a shown folder and a shown file
    are refused; a shown folder that is itself a mount point (a container's volume) is walked."""
    code = _candidate_folder(tmp_path)
    (code / "shadow").write_text("root:x\n", encoding="utf-8")
    (code / "sshbind").mkdir()
    for mounted in (code / "shadow", code / "sshbind"):
        monkeypatch.setattr(_candidate, "mounts", lambda m=mounted: _mounted_at(m))
        message = f"{mounted} in the candidate's code is a mount point"
        _refused(code, message, tmp_path, mounted.name)
    monkeypatch.setattr(_candidate, "mounts", lambda: _mounted_at(code / "shadow"))
    with pytest.raises(ProvebenchError, match="is a mount point"):
        code_listing([code / "shadow"], field="--agent")
    monkeypatch.setattr(_candidate, "mounts", lambda: _mounted_at(code))
    assert [name for name, _ in code_listing([code], field="--agent")] == [
        "0/importer.py",
        "0/shadow",
        "0/sshbind",
    ]


def test_mount_points_are_read_with_their_escapes_and_fail_closed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    info = tmp_path / "mountinfo"
    info.write_bytes(
        b"22 27 0:21 / /proc rw - proc proc rw\n"
        b"68 47 254:0 /etc/ssh /work/c/ssh\\040bind\\134x rw - ext4 /dev/vda rw\n"
    )
    monkeypatch.setattr(_mounts, "MOUNT_INFO", info)
    assert _mounts.mount_points() == {Path("/proc"), Path("/work/c/ssh bind\\x")}
    monkeypatch.setattr(_mounts, "MOUNT_INFO", tmp_path / "missing")
    with pytest.raises(ProvebenchError, match="cannot list the mounts"):
        _mounts.mount_points()
    # this process's own list holds its root
    monkeypatch.undo()
    assert Path("/") in _mounts.mount_points()


# -- H4: a seal's opening or a control's file, moved or copied -----------------------------------


def test_a_moved_opening_and_a_copied_control_file_are_refused_by_their_bytes(
    tmp_path: Path,
) -> None:
    """H4: `mv seals/s1 cand/vault/` and `cp -a ctl cand/vault/…`: neither is at the path
    recorded any more; both bear the bytes recorded when they were made."""
    code = _candidate_folder(tmp_path)
    seal = tmp_path / "seals" / "s1"
    seal.mkdir(parents=True)
    opening = seal / ".opening.json"
    opening.write_text(json.dumps({"nonce": secrets.token_hex(32), "seed": 1}), encoding="utf-8")
    remember_secret(opening)
    control = tmp_path / "ctl"
    control.mkdir()
    answers = control / EXPECTED_ROWS_FILE
    answers.write_text(f"row,{secrets.token_hex(16)}\n", encoding="utf-8")
    remember_secret_marks([control])
    assert code_listing([code], field="--agent")  # nothing of them in the code yet
    (code / "vault").mkdir()
    shutil.move(seal, code / "vault" / "s1")
    _refused(code, r"s1/\.opening\.json in the candidate's code is a copy of", tmp_path, ".open*")
    shutil.rmtree(code / "vault" / "s1")
    shutil.copytree(control, code / "vault" / "ctl_backup")
    message = f"ctl_backup/{EXPECTED_ROWS_FILE} in the candidate's code is a copy of"
    _refused(code, message, tmp_path, EXPECTED_ROWS_FILE)
    # one byte changed is another file: compared by size first, then by sha256 (a limit, docs)
    (code / "vault" / "ctl_backup" / EXPECTED_ROWS_FILE).write_text("row,x\n", encoding="utf-8")
    assert code_listing([code], field="--agent")


def test_a_control_records_the_bytes_of_its_seeded_files_not_the_published_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`pilot control` records each file that holds the seed's data; the files every corpus of
    the build publishes alike (contract, mapping, templates) a candidate may keep a copy of.
    The corpus writer is replaced by one writing a file of each kind (the real one is seconds)."""
    seal = tmp_path / "seal"
    _seal.seal_candidate(seal, _seal.candidate_identity("reference", None), "control")
    published = sorted(PUBLISHED_FILES)[0]

    def write(_config: object, out: Path, *, private: bool = False) -> object:
        out.mkdir()
        (out / EXPECTED_ROWS_FILE).write_text(f"answer {secrets.token_hex(8)}\n", "utf-8")
        (out / published).write_text(f"public {secrets.token_hex(8)}\n", "utf-8")
        write_atomic(out / MANIFEST_FILE, f"manifest {secrets.token_hex(8)}\n")  # as the writer
        return None

    monkeypatch.setattr(_folder, "write_corpus", write)
    corpus = tmp_path / "control"
    _seal.generate_control(seal, corpus, load_trusted_key())
    marks = known_secret_marks()
    for name, recorded in ((EXPECTED_ROWS_FILE, True), (MANIFEST_FILE, True), (published, False)):
        data = (corpus / name).read_bytes()
        found = marks.file_with_bytes(len(data), _sha256(data))
        assert (found == corpus / name) if recorded else found is None, name


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def test_a_garbled_record_of_marks_stops_the_walk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PROVEBENCH_KEY_DIR", str(tmp_path / "keys"))
    secret = tmp_path / "opening.json"
    secret.write_text("{}", encoding="utf-8")
    remember_secret(secret)
    (tmp_path / "keys" / MARKS_FILE).write_text('{"verdict": "pass"}\n', encoding="utf-8")
    code = _candidate_folder(tmp_path)
    with pytest.raises(ProvebenchError, match="garbled"):
        code_listing([code], field="--agent")


# -- H5: a laboratory's private root -------------------------------------------------------------


def test_the_private_root_does_not_follow_tmpdir_and_is_marked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """H5 at depth: a laboratory run with another `$TMPDIR` keeps its private folders in the
    same per-user root, which holds its marker."""
    before = private_root()
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    assert private_root() == before == _private.ROOT_PARENT / f"provebench-private-{os.getuid()}"
    assert (before / ROOT_MARKER).is_file() and not (before / ROOT_MARKER).is_symlink()


def test_a_laboratorys_private_root_in_the_candidate_folder_is_refused(tmp_path: Path) -> None:
    """H5: a root of an earlier build (made unmarked in another `$TMPDIR`, by its name) and a
    root of this build renamed (by its marker), each with a cycle's service-account key."""
    code = _candidate_folder(tmp_path)
    earlier = code / "t" / f"provebench-private-{os.getuid()}"
    cycle = earlier / "provebench-cycle-14742-8c7ns11f"
    cycle.mkdir(parents=True)
    (cycle / "service-account.json").write_text('{"private_key": "canary"}', encoding="utf-8")
    message = "in the candidate's code is a laboratory's private folder"
    _refused(code, f"{earlier} {message}", tmp_path, "service-account.json")
    renamed = code / "t" / "vault"
    earlier.rename(renamed)
    assert code_listing([code], field="--agent")  # a folder like another, unmarked
    (renamed / ROOT_MARKER).write_text("", encoding="utf-8")
    _refused(code, f"{renamed} {message}", tmp_path, "service-account.json")


# -- H3: a hard link of a file of the host's configuration ---------------------------------------


def test_a_hard_link_of_a_host_configuration_file_is_refused(tmp_path: Path) -> None:
    """H3, the host's configuration played by a folder of this test's (linking /etc/shadow needs
    root): the file has a name the walk of the code does not find (`_other_names`)."""
    etc = tmp_path / "etc"
    etc.mkdir()
    (etc / "shadow").write_text("root:$6$canary\n", encoding="utf-8")
    code = _candidate_folder(tmp_path)
    os.link(etc / "shadow", code / "x")
    message = f"{code / 'x'} in the candidate's code has 2 names and 1 of them in the code shown"
    _refused(code, message, tmp_path, "x")
    with pytest.raises(ProvebenchError, match="has 2 names"):  # named as the code itself
        code_listing([code / "x"], field="--agent")


def test_a_hard_link_of_a_real_etc_file_is_refused(tmp_path: Path) -> None:
    """H3 as the red team played it, where this user may link a file of /etc (root, the same
    file system): the link is removed at once."""
    code = _candidate_folder(tmp_path)
    try:
        os.link("/etc/hostname", code / "x")
    except OSError as error:
        pytest.skip(f"cannot link a file of /etc here: {error.strerror}")
    try:
        with pytest.raises(ProvebenchError, match=r"cand/x in the candidate's code has 2 names"):
            code_listing([code], field="--agent")
    finally:
        (code / "x").unlink()
