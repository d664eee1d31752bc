"""Pilot red team round 19: a file the sandbox never shows, named as a code argument.

A file argument whose folder was refused (`/etc`, `/proc/self`) was shown alone, and sealed,
with no check of the file itself. A2: `python3 leak.py /etc/shadow` showed and sealed the host's
shadow file. A3: a link `data/p -> /proc/self` outside the code folder and the argument
`data/p/environ` showed the laboratory's own environment (its API keys) and the seal copied it.
A4: the same link inside the candidate's folder. Now one decision (`never_shown`) refuses a
file as it refuses a folder, by real path and identity, wherever a path is shown, sealed or
snapshotted, and a walk refuses what a mount brings into the candidate's folder.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from provebench._errors import ProvebenchError
from provebench.attest import key_dir
from provebench.pilot._seal import candidate_identity, seal_candidate
from provebench.sandbox import _candidate, _policy
from provebench.sandbox._candidate import code_listing
from provebench.sandbox._code_copy import copy_code
from provebench.sandbox._policy import (
    NeverShownBelow,
    code_folder,
    command_code_paths,
    never_shown,
    policy_for,
)
from provebench.sandbox._private import private_root

# A file of the host's configuration every Linux machine has.
HOST_FILE = Path("/etc/passwd")
LEAK = "import sys\nprint(open(sys.argv[1]).read())\n"


def _leak(tmp_path: Path) -> Path:
    code = tmp_path / "code"
    code.mkdir()
    (code / "leak.py").write_text(LEAK, encoding="utf-8")
    return code / "leak.py"


def _refused(call: object, match: str) -> None:
    assert callable(call)
    with pytest.raises(ProvebenchError, match=match) as caught:
        call()
    assert "\n" not in caught.value.one_line()


def test_a_host_state_file_argument_is_refused_not_shown_alone(tmp_path: Path) -> None:
    """A2: the folder `/etc` was refused, so `/etc/shadow` was shown alone and sealed."""
    leak = _leak(tmp_path)
    (tmp_path / "e").symlink_to("/etc")
    for spelled in (HOST_FILE, tmp_path / "e" / HOST_FILE.name):
        _refused(lambda spelled=spelled: code_folder(spelled), "configuration or state")
        argv = ["/usr/bin/python3", str(leak), str(spelled)]
        _refused(lambda argv=argv: command_code_paths(argv), "configuration or state")
        _refused(lambda spelled=spelled: policy_for([spelled], {}), "configuration or state")


def test_the_laboratory_environment_through_a_link_to_proc_self_is_never_sealed(
    tmp_path: Path,
) -> None:
    """A3 (the link beside the code) and A4 (inside it): `p/environ`, `p -> /proc/self`."""
    leak = _leak(tmp_path)
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "p").symlink_to("/proc/self")
    (leak.parent / "p").symlink_to("/proc/self")
    for environ in (tmp_path / "data" / "p" / "environ", leak.parent / "p" / "environ"):
        command = f"/usr/bin/python3 {leak} {environ}"
        _refused(lambda command=command: candidate_identity(None, command), "kernel writes")
        _refused(
            lambda environ=environ: copy_code([environ], [], tmp_path / "seal", field="--agent"),
            "kernel writes",
        )
    assert not (tmp_path / "seal").exists()
    # The link itself, in a folder that is shown, is shown as a link: nothing is read through it.
    sealed = tmp_path / "sealed"
    seal_candidate(sealed, candidate_identity(None, f"/usr/bin/python3 {leak}"), "control")
    copied = sealed / "code" / "0" / "p"
    assert copied.is_symlink()
    assert str(copied.readlink()) == "/proc/self"


def test_a_file_inside_a_laboratory_secret_is_refused_before_any_seal(tmp_path: Path) -> None:
    """The key folder and the private root: a file argument there had its folder shown, which
    the seal then copied as nothing (a seal no run could start); now one line at once."""
    leak = _leak(tmp_path)
    secret_file = private_root() / "probe.txt"
    secret_file.write_text("x", encoding="utf-8")
    for inside in (key_dir() / "laboratory.ed25519.pub.pem", secret_file):
        assert inside.is_file()
        _refused(lambda inside=inside: code_folder(inside), "which a candidate may not see")
        command = f"/usr/bin/python3 {leak} {inside}"
        _refused(lambda command=command: candidate_identity(None, command), "may not see")
    secret_file.unlink()


def test_a_copy_refuses_a_never_shown_path_given_directly(tmp_path: Path) -> None:
    """What a seal or snapshot copies passes the decision itself, whoever chose the paths."""
    _refused(lambda: copy_code([HOST_FILE], [], tmp_path / "c1", field="--agent"), "state")
    _refused(
        lambda: copy_code([Path("/proc/self")], [], tmp_path / "c2", field="--agent"), "kernel"
    )
    assert not (tmp_path / "c1").exists()
    assert not (tmp_path / "c2").exists()


def test_a_file_and_its_folder_get_one_decision(tmp_path: Path) -> None:
    """No second list: what refuses a folder refuses a file in it, and the other way."""
    leak = _leak(tmp_path)
    assert never_shown(leak) is None
    assert never_shown(leak.parent) is None
    for folder in _policy.HOST_STATE_DIRS:
        if Path(folder).is_dir():
            assert never_shown(Path(folder)) is not None
            assert never_shown(Path(folder) / "any") is not None
    assert code_folder(leak) == leak.parent


def test_code_on_a_mounted_pseudo_file_system_is_refused_as_it_is_met(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A4 by a mount: `proc` mounted in the candidate's folder shows the laboratory's own
    environment with no link and no `/proc` in the path. Played by telling the walk that the
    code's device is a pseudo file system's (a test cannot mount one)."""
    leak = _leak(tmp_path)
    (leak.parent / "environ").write_text("OPENAI_API_KEY=canary\n", encoding="utf-8")
    device = leak.stat().st_dev
    monkeypatch.setattr(
        _candidate, "never_shown_below", lambda: NeverShownBelow(frozenset({device}), {})
    )
    _refused(
        lambda: copy_code([leak.parent], [], tmp_path / "seal", field="--agent"),
        "pseudo file system mounted there",
    )
    assert not any((tmp_path / "seal").rglob("environ"))
    # A shown file too, by any reader of shown code (a candidate's identity is read so).
    _refused(lambda: code_listing([leak], field="--agent"), "pseudo file system mounted there")


def test_a_host_state_folder_bound_into_the_code_folder_is_refused_as_it_is_met(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`mount --bind /etc code/etcb`: the same folder by identity, met in the walk."""
    leak = _leak(tmp_path)
    bound = leak.parent / "etcb"
    bound.mkdir()
    (bound / "shadow").write_text("root:x\n", encoding="utf-8")
    status = bound.stat()
    monkeypatch.setattr(
        _candidate,
        "never_shown_below",
        lambda: NeverShownBelow(frozenset(), {(status.st_dev, status.st_ino): "/etc"}),
    )
    _refused(
        lambda: copy_code([leak.parent], [], tmp_path / "seal", field="--agent"),
        f"{bound} in the candidate's code is /etc, a folder of the host's configuration",
    )
    assert not any((tmp_path / "seal").rglob("shadow"))
