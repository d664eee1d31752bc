"""Pilot red team 25, A7c, A7a, A7b, A4: a `--model-cmd` server's folder was shown live, from the
policy alone, and never walked — a bind of the key folder, a hard link to `/etc/hostname`, a
bind of `/etc`, a seal's opening moved into it were all read by the server. Every program the
laboratory starts on the candidate's side now shows its code through one walk and one held
snapshot (`sandbox._held_command.held_command`): the model server, SI's `--agent-cmd` (both
protocols) and pilot's `--agent-cmd`."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from provebench._errors import ProvebenchError
from provebench.sandbox._known_secrets import remember_secret
from provebench.sandbox._model_server import sandboxed_model_server
from provebench.si.agents._sealed import sealed_command
from tests.sandbox.test_secrets_met_in_the_walk import _unshare

pytestmark = pytest.mark.timeout(120)

# A model server that answers every connection with the names in its own folder, as it sees
# them, then closes it (the laboratory's readiness probe closes at once: its pipe breaks).
LISTING_SERVER = """
import json, os, socket, sys
here = os.path.dirname(os.path.abspath(__file__))
with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as server:
    server.bind(os.environ["PROVEBENCH_MODEL_SOCKET"])
    server.listen()
    while True:
        connection, _ = server.accept()
        with connection:
            try:  # the laboratory's readiness probe closes at once
                connection.sendall(json.dumps(sorted(os.listdir(here))).encode())
            except OSError:
                pass
"""


def _server_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "srv"
    folder.mkdir()
    (folder / "server.py").write_text(LISTING_SERVER, encoding="utf-8")
    return folder


def _command(folder: Path) -> str:
    return f"{sys.executable} {folder / 'server.py'}"


def _start_model_server(folder: Path) -> None:
    with sandboxed_model_server(_command(folder), secrets={}, ready_timeout_sec=30):
        pass


def _si_agent_cmd(folder: Path) -> None:
    sealed_command(_command(folder), secrets={})


LAUNCHERS: dict[str, Callable[[Path], None]] = {
    "model-cmd": _start_model_server,
    "si --agent-cmd": _si_agent_cmd,
}


@pytest.mark.parametrize("launcher", sorted(LAUNCHERS))
def test_a_hard_link_of_a_host_file_in_the_folder_is_refused(tmp_path: Path, launcher: str) -> None:
    """A7a, a file of the host played by a folder of this test's (`/etc`, `/var`, a home
    folder: any folder outside the code): refused in one line before anything starts."""
    var = tmp_path / "var"
    var.mkdir()
    (var / "hostname").write_text("the-host\n", encoding="utf-8")
    folder = _server_folder(tmp_path)
    os.link(var / "hostname", folder / "hn")
    with pytest.raises(ProvebenchError, match=f"{folder / 'hn'} .* has 2 names") as caught:
        LAUNCHERS[launcher](folder)
    assert "\n" not in caught.value.one_line()


@pytest.mark.parametrize("launcher", sorted(LAUNCHERS))
def test_a_seals_opening_moved_into_the_folder_is_refused_by_its_bytes(
    tmp_path: Path, launcher: str
) -> None:
    """A4: `mv seal srv/seal` — the opening is no longer at its recorded path; its bytes are
    known."""
    seal = tmp_path / "seal"
    seal.mkdir()
    opening = seal / ".opening.json"
    opening.write_text(json.dumps({"nonce": os.urandom(16).hex(), "seed": 5}), encoding="utf-8")
    remember_secret(opening)
    folder = _server_folder(tmp_path)
    opening.rename(folder / ".opening.json")
    with pytest.raises(ProvebenchError, match=r"\.opening\.json in the candidate's code is a copy"):
        LAUNCHERS[launcher](folder)


MOUNTED_CHILD = """
import sys
from pathlib import Path
from provebench._errors import ProvebenchError
from provebench.sandbox._model_server import sandboxed_model_server
try:
    with sandboxed_model_server(sys.argv[1], secrets={}, ready_timeout_sec=30):
        print("served")
except ProvebenchError as error:
    print(error.one_line())
"""


def test_a_bind_of_the_key_folder_into_the_servers_folder_is_refused(tmp_path: Path) -> None:
    """A7c as the red team played it: the laboratory's key folder bound into the server's own
    folder put the private key into the run's diagnostics. Now a mount point, refused."""
    prefix = _unshare()
    if prefix is None:
        pytest.skip("no mount namespace this user may mount in (unshare -m / -rm)")
    from provebench.attest._keys import key_dir

    folder = _server_folder(tmp_path)
    (folder / "kbind").mkdir()
    script = (
        f'mount --bind "{key_dir()}" "{folder / "kbind"}" && '
        f'exec "{sys.executable}" -c "$CHILD" "{_command(folder)}"'
    )
    done = subprocess.run(
        [*prefix, "sh", "-c", script], capture_output=True, text=True,
        env={**os.environ, "CHILD": MOUNTED_CHILD}, timeout=90, check=False,
    )  # fmt: skip
    if done.returncode != 0 and "mount" in done.stderr and not done.stdout:
        pytest.skip(f"mount refused here: {done.stderr.strip()}")
    assert done.returncode == 0, done.stderr
    # Refused as a mount point, or — where another test of the session left a second name of a
    # key file, which makes the key's names looked for before the walk — as a key file by
    # another name: either way in one line, before the server starts.
    mount_point = f"--model-cmd: {folder / 'kbind'} in the candidate's code is a mount point"
    key_by_another_name = f"--model-cmd: {folder / 'kbind'}/laboratory.ed25519"
    assert "served" not in done.stdout, done.stdout
    assert mount_point in done.stdout or (
        key_by_another_name in done.stdout and "by another name (a hard link)" in done.stdout
    ), done.stdout


def _listing(socket_path: str) -> list[str]:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as client:
        client.settimeout(20)
        client.connect(socket_path)
        said = b""
        while chunk := client.recv(65536):
            said += chunk
    names = json.loads(said)
    assert isinstance(names, list)
    return [str(name) for name in names]


def test_a_model_server_runs_the_code_that_was_walked_not_its_folder_as_it_is_now(
    tmp_path: Path,
) -> None:
    """What runs is what was checked: a file put in the server's folder once it runs (a link, a
    mount, a moved seal — anything the walk would have refused) is not there for the server.
    The honest control: the server's own files are."""
    folder = _server_folder(tmp_path)
    (folder / "weights.txt").write_text("w\n", encoding="utf-8")
    with sandboxed_model_server(_command(folder), secrets={}, ready_timeout_sec=60) as server:
        (folder / "late.txt").write_text("put there after the walk\n", encoding="utf-8")
        seen = _listing(server.socket_path)
        assert server.isolation["mode"] == "sandbox"
        assert len(server.isolation["model_server_code_sha256"]) == 64
    assert "server.py" in seen and "weights.txt" in seen
    assert "late.txt" not in seen
    with contextlib.suppress(FileNotFoundError):
        (folder / "late.txt").unlink()


def test_no_launch_policy_in_the_package_is_made_without_the_held_snapshot() -> None:
    """Every policy the package makes with `policy_for` either names `held=` (the code shown from
    the walked snapshot; None only for provebench's own code) or is read for what it hides only:
    a second, weaker path that shows a folder live is what A7 found. A new caller that does
    neither fails here."""
    import ast

    import provebench

    package = Path(provebench.__file__).parent
    bypasses = []
    for source in sorted(package.rglob("*.py")):
        if source.name == "_policy.py" and source.parent.name == "sandbox":
            continue  # where it is defined
        tree = ast.parse(source.read_text(encoding="utf-8"))
        hidden_only = {
            id(node.value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and node.attr == "hidden"
        }
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", "") == "policy_for"):
                continue
            if id(node) in hidden_only or any(k.arg == "held" for k in node.keywords):
                continue
            bypasses.append(f"{source.relative_to(package)}:{node.lineno}")
    assert bypasses == []
