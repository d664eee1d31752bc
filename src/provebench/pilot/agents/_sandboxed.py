"""In-process importers that provebench did not ship, run sealed (docs/sandbox.md).

`--agent path.py:Class` and `--agent module:Class` keep the documented interface
(docs/pilot-lab.md), but the class is loaded and run in a worker process inside the sandbox
(`_worker.py`), once per cycle, like an external importer. Its `ctx` there is a thin client;
here, each message is one call on the cycle's real `CycleContext`, answered as the gateway
answered it. The class's `name` and `version` are read in the sandbox too, when the run starts:
the laboratory never imports the candidate's module.

The cycle's time limit is the laboratory's (`_lab._deadline`): it interrupts the wait for the
worker's next message, and leaving the sandbox ends the worker and everything it started.
"""

from __future__ import annotations

import contextlib
import shutil
import socket
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, ClassVar

from provebench._errors import ProvebenchError
from provebench.pilot.agents._loaded import LoadedAgent
from provebench.pilot.agents._no_candidate import HoldsNoCandidate
from provebench.pilot.lab import CycleContext, FilePage, LabError
from provebench.pilot.lab._work_guard import work_guard_of
from provebench.pilot.record._seal import FROM_SEAL_KEY
from provebench.sandbox import DEFAULT_LIMITS, Limits, SandboxPolicy, policy_for
from provebench.sandbox._candidate import CandidateCode, checked_identity, listing_digest, locate
from provebench.sandbox._channel import CandidateFailed, Channel, ChannelBroken
from provebench.sandbox._code_copy import SealedCode, snapshot_code
from provebench.sandbox._isolation import isolation_of
from provebench.sandbox._launch import sandbox_process
from provebench.sandbox._manifest import checked_environment_digest
from provebench.sandbox._policy import (
    BYTECODE_OPTIONS,
    SANDBOX_ENV,
    SANDBOX_WORK,
    SEAL_OPENING_ROLE,
)
from provebench.sandbox._private import private_folder
from provebench.sandbox._workdir import cycle_folder

WORKER = "provebench.pilot.agents._worker"
IDENTIFY_TIMEOUT_SEC = 120.0


def _page(page: FilePage) -> dict[str, Any]:
    return {
        "files": [_file(f) for f in page.files],
        "file_ids": list(page.file_ids),
        "next_page_token": page.next_page_token,
    }


def _file(file: Any) -> list[Any]:
    return [*file[:7], None if file.metadata is None else list(file.metadata)]


# Every call a worker may make: `FACADE.METHOD` of `CycleContext`, nothing else (an allow-list:
# a name from the worker never reaches `getattr` unless it is here). Anything else is answered
# as a TypeError, as a missing method would be in-process.
_CALLS = frozenset(
    {
        "drive.list_files",
        "drive.get_file",
        "drive.delete_file",
        "drive.rename_file",
        "drive.move_file",
        "drive.upload",
        "sheets.append_rows",
        "sheets.delete_row",
        "sheets.update_row",
        "sheets.set_status",
        "confirmed.contains",
        "confirmed.all",
        "confirmed.remove",
        "diagnostics.error",
        "diagnostics.failed_file",
        "diagnostics.reconciliation",
        "diagnostics.self_check",
        "diagnostics.note",
        "clock.now",
        "clock.sleep",
    }
)
# How an answer that is not JSON as it is travels (every other answer is).
_ENCODE: dict[str, Callable[[Any], Any]] = {
    "drive.list_files": _page,
    "drive.get_file": _file,
    "confirmed.all": sorted,
}


def _answer(ctx: CycleContext, message: dict[str, Any]) -> dict[str, Any]:
    name, args, kwargs = message.get("call"), message.get("args"), message.get("kwargs")
    # `isinstance` first: a name that is a list is no name, and cannot even be looked up.
    known = isinstance(name, str) and name in _CALLS
    if not known or not isinstance(args, list) or not isinstance(kwargs, dict):
        return {"error": {"class": "TypeError", "message": f"no such call: {name!r}"}}
    assert isinstance(name, str)
    facade, method = name.split(".")
    try:
        answer = getattr(getattr(ctx, facade), method)(*args, **kwargs)
        return {"ok": _ENCODE[name](answer) if name in _ENCODE else answer}
    except LabError as error:
        said: dict[str, Any] = {"class": type(error).__name__, "message": error.message}
        if error.call is not None:
            said["call"] = error.call
        return {"error": said}
    except (TypeError, ValueError) as error:  # arguments that do not fit: the caller's error
        return {"error": {"class": type(error).__name__, "message": str(error)}}


class NotLoaded(ProvebenchError):
    """The candidate's class did not load in the sandbox, or its loader refused it: the
    candidate's failure, told apart from the laboratory's (no sandbox, an environment refused)."""


class SandboxedImporter:
    """One cycle of a candidate importer class, in its sandboxed worker."""

    name: ClassVar[str] = "sandboxed"
    version: ClassVar[str] = "1"

    def __init__(self, code: CandidateCode, policy: SandboxPolicy) -> None:
        self.code = code
        self.policy = policy

    def run_cycle(self, ctx: CycleContext) -> None:
        settings = {"time_zone": ctx.time_zone, "run_version": ctx.run_version}
        with cycle_folder(ctx.work_dir, self.policy.limits, guard=work_guard_of(ctx)) as folder:
            ending = _converse(
                self.policy, self.code, "run", folder, ctx, {**settings, "work_dir": SANDBOX_WORK}
            )
        if "failed" in ending:  # the worker's word: any shape, shown as text
            failed = ending["failed"] if isinstance(ending["failed"], dict) else {}
            raise CandidateFailed(
                str(failed.get("type", "ImporterFailed")), str(failed.get("message", ""))
            )


def _converse(
    policy: SandboxPolicy,
    code: CandidateCode,
    mode: str,
    private_dir: Path,
    ctx: CycleContext | None,
    settings: dict[str, str] | None,
) -> dict[str, Any]:
    """Start the worker in `mode` and serve it until it reports how it ended."""
    (private_dir / "work").mkdir(exist_ok=True)
    ours, theirs = socket.socketpair()
    command = [
        sys.executable, "-I", *BYTECODE_OPTIONS, "-m", WORKER,
        str(theirs.fileno()), mode, code.spec, code.path_entry,
    ]  # fmt: skip
    channel = Channel(ours)
    try:
        with sandbox_process(
            policy, command, private_dir=private_dir, env=SANDBOX_ENV, pass_fds=[theirs.fileno()]
        ) as process:
            theirs.close()
            channel.sandbox = process
            try:
                if mode == "identify":
                    ours.settimeout(IDENTIFY_TIMEOUT_SEC)
                    return _ending(channel.receive())
                assert ctx is not None
                first = channel.receive()
                if not isinstance(first, dict) or "ready" not in first:
                    said = first.get("refused", "") if isinstance(first, dict) else ""
                    return {"failed": {"type": "ImporterNotLoaded", "message": str(said)}}
                channel.send(settings)
                while True:
                    message = channel.receive()
                    if not isinstance(message, dict) or "call" not in message:
                        return _ending(message)
                    channel.send(_answer(ctx, message))
            except ChannelBroken as error:
                return {"failed": {"type": "SandboxedWorkerLost", "message": str(error)}}
    finally:
        theirs.close()
        channel.close()


def _ending(message: object) -> dict[str, Any]:
    if isinstance(message, dict) and (
        "done" in message or "failed" in message or "identity" in message or "refused" in message
    ):
        return message
    return {"failed": {"type": "SandboxedWorkerLost", "message": "an unknown message"}}


def sandboxed_agent(
    spec: str,
    *,
    secrets: Mapping[str, Path],
    limits: Limits = DEFAULT_LIMITS,
    sealed: SealedCode | None = None,
    shipped_sha256: str | None = None,
    resources: contextlib.ExitStack | None = None,
) -> LoadedAgent:
    """The run's agent for a candidate class: located, snapshotted, identified in the sandbox,
    run there. Its code — its folder, or a seal's copy (`sealed`) — is copied once into the
    run's snapshot, held in sealed memory (`snapshot_code`, released when `resources` closes), its
    identity is the snapshot's digest, and every cycle's sandbox shows the snapshot where the
    code was: what was identified is what runs, for the whole run (docs/attestation.md).
    provebench's own importers run sealed (the red team's) run from provebench's package,
    identified as provebench's code (`shipped_sha256`); nothing of theirs is snapshotted."""
    # provebench's environment checked before the candidate's first launch (the identify probe
    # below), not only once it is recorded (`isolation_of`; pilot red team 30, A12).
    checked_environment_digest(field="--agent")
    if sealed is None:
        code = locate(spec, "--agent")
        sources: dict[Path, Path] = {}
    else:
        code = CandidateCode(sealed.spec, sealed.shown, sealed.path_entry)
        sources = dict(sealed.copies)
        secrets = {**secrets, SEAL_OPENING_ROLE: sealed.opening}
    copies = sources
    listing = None
    held = None  # provebench's own code runs from its package, as it is
    if shipped_sha256 is None:
        hidden = policy_for(code.shown, secrets, limits=limits, copies=sources).hidden
        snapshot = snapshot_code(
            code.shown, hidden, resources, field="--agent", sources=sources,
            sealed=None if sealed is None else sealed.listing,
        )  # fmt: skip
        copies, listing, held = snapshot.copies, snapshot.listing, snapshot.held
    policy = policy_for(code.shown, secrets, limits=limits, copies=copies, held=held)
    probe_dir = private_folder("identify")
    try:
        ending = _converse(policy, code, "identify", probe_dir, None, None)
    finally:
        shutil.rmtree(probe_dir, ignore_errors=True)
    if "refused" in ending:
        # The loader's word on a class of provebench's that holds no candidate, told apart so
        # that `pilot seal` refuses it as this run does (`pilot._seal`).
        refusal = HoldsNoCandidate if ending.get("no_candidate") is True else NotLoaded
        raise refusal(f"in the sandbox: {ending['refused']}")
    if "identity" not in ending:
        failed = ending["failed"] if isinstance(ending.get("failed"), dict) else {}
        raise NotLoaded(
            f"the importer could not be loaded in the sandbox: {failed.get('message', '')}",
            field="--agent",
        )
    name, version = checked_identity(ending["identity"], "--agent")
    isolation = isolation_of(policy.digest())
    if sealed is not None:  # the run ran the seal's copy: the fresh control's condition
        isolation[FROM_SEAL_KEY] = sealed.commitment
    return LoadedAgent(
        spec=spec,
        name=name,
        version=version,
        factory=lambda: SandboxedImporter(code, policy),
        isolation=isolation,
        code_sha256=shipped_sha256 or listing_digest(listing or []),
    )


__all__ = ["NotLoaded", "SandboxedImporter", "sandboxed_agent"]
