"""A candidate's own model server, sealed: `--model-cmd CMD` (docs/llm-agents.md, "Who runs the
model").

A model endpoint provebench did not start is whatever process serves it: on this machine it may
be candidate code, running as the operator, that reads the scenario file. `--model-cmd` starts
the candidate's OpenAI-compatible server in the sandbox instead (docs/sandbox.md): its own code
and interpreter, walked and held as an importer's (`_held_command`: what runs is what was
checked), read-only, no network, the laboratory's secrets hidden. It listens on the Unix
socket that `PROVEBENCH_MODEL_SOCKET` names, in the launch's private folder (mode 0700), so
nothing but this laboratory reaches it; provebench's own tool-calling loop talks to it there.

The socket is opened without following links and checked to be a socket, and every connection
goes to that very inode (`/proc/self/fd/N`): a candidate that replaces it with a link to another
socket of the operator's does not redirect the laboratory.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import stat
import time
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from provebench._errors import ProvebenchError
from provebench.sandbox._candidate import command_version, listing_digest
from provebench.sandbox._command import resolve_command
from provebench.sandbox._held_command import HeldCommand, held_command
from provebench.sandbox._isolation import Isolation, isolation_of
from provebench.sandbox._launch import SandboxProcess, sandbox_process
from provebench.sandbox._limits import DEFAULT_LIMITS, Limits
from provebench.sandbox._policy import SANDBOX_DIR, SANDBOX_ENV
from provebench.sandbox._private import private_folder

MODEL_SOCKET_ENV: Final = "PROVEBENCH_MODEL_SOCKET"
SOCKET_NAME: Final = "model.sock"
DEFAULT_READY_TIMEOUT_SEC: Final = 120.0
_POLL_SEC: Final = 0.05


@dataclass(frozen=True)
class ModelServer:
    """A listening sealed model server: where to connect, and how it was isolated."""

    socket_path: str  # /proc/self/fd/N: the checked socket inode, never a path it can swap
    isolation: Isolation


@contextlib.contextmanager
def sandboxed_model_server(
    command: str,
    *,
    secrets: Mapping[str, Path],
    limits: Limits = DEFAULT_LIMITS,
    ready_timeout_sec: float = DEFAULT_READY_TIMEOUT_SEC,
) -> Iterator[ModelServer]:
    """Start `command` in the sandbox and yield once it listens on its socket; leaving the block
    ends it and everything it started. A server that exits, or does not listen within
    `ready_timeout_sec`, is one line naming `--model-cmd` (nothing is run)."""
    argv = resolve_command(command, field="--model-cmd")
    with _made_to_be_covered(secrets.values()), contextlib.ExitStack() as resources:
        # The server's code goes through the walk and the snapshot every importer's goes
        # through, and is shown from the held bytes: a folder shown live and unwalked showed a
        # bind of the key folder, a hard link to /etc/hostname, a seal's opening moved into it
        # (pilot red team 25, A7c, A7a, A4).
        held = held_command(argv, secrets, field="--model-cmd", resources=resources, limits=limits)
        with _listening(command, argv, held, ready_timeout_sec) as server:
            yield server


@contextlib.contextmanager
def _listening(
    command: str, argv: list[str], held: HeldCommand, ready_timeout_sec: float
) -> Iterator[ModelServer]:
    policy = held.policy
    private = private_folder("model")
    (private / "work").mkdir()
    env = {**SANDBOX_ENV, MODEL_SOCKET_ENV: f"{SANDBOX_DIR}/{SOCKET_NAME}"}
    checked = isolation_of(policy.digest())  # the environment, checked before the server runs
    try:
        with sandbox_process(policy, argv, private_dir=private, env=env, carried=False) as process:
            # The socket is made in the sandbox's own `/sandbox` (a tmpfs, sandbox red team 43,
            # G2-1), reached through the launch's descriptor of it.
            fd = _wait_listening(process.inside / SOCKET_NAME, process, ready_timeout_sec)
            try:
                isolation = {
                    **checked,
                    "model_server": f"external {command_version(command)}",
                    "model_server_code_sha256": listing_digest(held.listing),
                }
                yield ModelServer(socket_path=f"/proc/self/fd/{fd}", isolation=isolation)
            finally:
                os.close(fd)
    finally:
        shutil.rmtree(private, ignore_errors=True)


@contextlib.contextmanager
def _made_to_be_covered(secrets: Iterable[Path]) -> Iterator[None]:
    """Every secret exists while the server runs, so that the sandbox can cover it.

    A launch covers a secret that lies inside a shown folder where it is when the launch starts;
    one that does not exist yet cannot be covered. A server lives through the whole run, while
    the laboratory makes the run folder (pilot) or the output folder (SI), perhaps inside a
    folder the server is shown. Its own code is shown from the held snapshot, which holds nothing
    made later; what else it is shown live (provebench's own interpreter and package) would show
    the folder as it is made. So a secret missing now is made, an empty folder
    (with its missing parents), before the launch; what is still empty afterwards is removed,
    so that a server that could not start leaves nothing behind. The laboratory's key folder,
    which every launch hides, too (made private, as the key's own code makes it)."""
    from provebench.attest._keys import key_dir

    keys = key_dir()
    made: list[Path] = []
    try:
        for secret in (*secrets, keys):
            missing = [p for p in (secret, *secret.parents) if not os.path.lexists(p)]
            for folder in reversed(missing):
                folder.mkdir(mode=0o700 if folder == keys else 0o777)
                made.append(folder)
        yield
    finally:
        for folder in reversed(made):
            with contextlib.suppress(OSError):  # not empty: the laboratory wrote in it
                folder.rmdir()


def _wait_listening(path: Path, process: SandboxProcess, timeout_sec: float) -> int:
    """An O_PATH descriptor of the server's socket once a connection to it succeeds."""
    deadline = time.monotonic() + timeout_sec
    while time.monotonic() < deadline:
        if process.popen.poll() is not None:
            raise ProvebenchError(
                f"the model server exited (status {process.popen.returncode}) before it "
                f"listened on ${MODEL_SOCKET_ENV}",
                field="--model-cmd",
            )
        fd = _socket_fd(path)
        if fd is not None:
            if _accepts(f"/proc/self/fd/{fd}"):
                return fd
            os.close(fd)
        time.sleep(_POLL_SEC)
    raise ProvebenchError(
        f"the model server did not listen on ${MODEL_SOCKET_ENV} within {timeout_sec:g} s",
        field="--model-cmd",
    )


def _socket_fd(path: Path) -> int | None:
    try:
        fd = os.open(path, os.O_PATH | os.O_NOFOLLOW)
    except OSError:
        return None  # not there yet, or a link: never followed
    if not stat.S_ISSOCK(os.fstat(fd).st_mode):
        os.close(fd)
        return None
    return fd


def _accepts(address: str) -> bool:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        try:
            probe.connect(address)
        except OSError:
            return False
    return True


__all__ = [
    "DEFAULT_READY_TIMEOUT_SEC",
    "MODEL_SOCKET_ENV",
    "ModelServer",
    "sandboxed_model_server",
]
