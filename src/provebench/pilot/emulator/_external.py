"""External importers: a program, run once per cycle in its own process, that speaks the real
Google Drive v3 / Sheets v4 wire format to the laboratory's emulator (pilot §2, §3).

Per cycle the laboratory:

1. copies the importer's work directory (its journal, checkpointed with the cycle like an
   in-process importer's) to a private folder outside the run directory;
2. opens the cycle on the emulator and starts the command in the sandbox (docs/sandbox.md): that
   private folder is `/sandbox` inside (work directory `/sandbox/work`), the environment holds
   only the documented variables (endpoints, spreadsheet, sheet names, columns, time zone, run
   version, work directory, diagnostics file, service-account file) and PATH, no stdin, its
   output relayed to the lab's stderr (bounded). The endpoints' address, 127.0.0.1:PORT, is the
   sandbox's own loopback, where the forwarder relays to the emulator's Unix socket: the only
   address the importer can reach;
3. waits for it (then ends the sandbox, and with it every process the importer started), closes
   the cycle, reads its diagnostics file into the log, and copies the work directory back
   unless it grew over the limit.

Each cycle gets a new service-account key, written in that cycle's private folder (removed with
it), and closing the cycle revokes its access tokens, so nothing read in one cycle acts in the
next.

A non-zero exit or a timeout is recorded as the cycle's `agent_error` (the rows it appended are
still confirmed, as for an in-process importer that raises). Nothing the process prints reaches
the log: output may hold temporary paths, and the log must not depend on them.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import ClassVar

from provebench._errors import ProvebenchError
from provebench.pilot.agents._loaded import LoadedAgent
from provebench.pilot.emulator import EmulatedLab, gateway_of, read_diagnostics_file
from provebench.pilot.emulator._lab_run import SERVICE_ACCOUNT_FILE
from provebench.pilot.lab import CycleContext
from provebench.pilot.lab._work_guard import work_guard_of
from provebench.pilot.record._seal import FROM_SEAL_KEY
from provebench.sandbox import DEFAULT_LIMITS, Limits, SandboxPolicy
from provebench.sandbox._candidate import command_version, listing_digest
from provebench.sandbox._channel import CandidateFailed
from provebench.sandbox._code_copy import SealedCode
from provebench.sandbox._command import resolve_command
from provebench.sandbox._forwarder import __file__ as _forwarder_file
from provebench.sandbox._held_command import held_command
from provebench.sandbox._isolation import isolation_of
from provebench.sandbox._launch import run_sandboxed
from provebench.sandbox._manifest import checked_environment_digest
from provebench.sandbox._policy import (
    BYTECODE_OPTIONS,
    DIAGNOSTICS_FILE,
    FORWARDER,
    NETWORK_LAB_ONLY,
    SANDBOX_DIR,
    SANDBOX_ENV,
    SANDBOX_WORK,
    SEAL_OPENING_ROLE,
    candidate_interpreter_code,
    command_code_paths,
    outside_held_code,
    program_outside,
)
from provebench.sandbox._workdir import cycle_folder

DEFAULT_TIMEOUT_SEC = 600.0
FORWARDER_SOURCE = Path(_forwarder_file)


class ExternalImporterFailed(RuntimeError):
    """The external program exited non-zero or timed out (recorded as `agent_error`)."""


def external_agent(
    command: str,
    lab: EmulatedLab,
    *,
    secrets: Mapping[str, Path],
    timeout_sec: float = DEFAULT_TIMEOUT_SEC,
    limits: Limits = DEFAULT_LIMITS,
    sealed: SealedCode | None = None,
    resources: contextlib.ExitStack | None = None,
) -> LoadedAgent:
    """The run's agent for `--agent-cmd COMMAND` (its identity is the command as written), run
    in the sandbox, which hides `secrets` (the corpus, the run folder) from it. From a seal
    (`sealed`), the command is the sealed one and its code is the seal's copy. Either way the
    code is copied once into the run's snapshot, held in sealed memory (`snapshot_code`, released
    when `resources` closes), identified by it, and every cycle is shown the snapshot."""
    # provebench's environment checked before any launch (pilot red team 30, A12).
    checked_environment_digest(field="--agent-cmd")
    if sealed is None:
        argv = resolve_command(command, field="--agent-cmd")
        shown, sources = command_code_paths(argv), {}
    else:
        argv = list(sealed.argv)
        shown, sources = list(sealed.shown), dict(sealed.copies)
        secrets = {**secrets, SEAL_OPENING_ROLE: sealed.opening}
        _refuse_unsealed_interpreter(argv, shown)
    held = held_command(
        argv, secrets, field="--agent-cmd", resources=resources, limits=limits,
        network=NETWORK_LAB_ONLY, shown=shown, sources=sources,
        sealed=None if sealed is None else sealed.listing,
    )  # fmt: skip
    shown_policy = held.policy
    isolation = isolation_of(shown_policy.digest())
    if sealed is not None:  # the run ran the seal's copy: the fresh control's condition
        isolation[FROM_SEAL_KEY] = sealed.commitment
    return LoadedAgent(
        spec=f"cmd:{command}",
        name="external",
        version=command_version(command),
        factory=lambda: ExternalImporter(lab, argv, timeout_sec, shown_policy),
        isolation=isolation,
        code_sha256=command_digest(command, listing_digest(held.listing)),
    )


def _refuse_unsealed_interpreter(argv: list[str], sealed: list[Path]) -> None:
    """A run from a seal shows no code of the candidate's that the seal does not hold: its own
    interpreter (a venv), as the sandbox would show it now, must lie inside the sealed code. A
    seal of an earlier build (which held only the command's files) or a venv repointed since
    sealing (another `pyvenv.cfg`) is refused in one line, before anything runs (red team
    round 16, A2); so is a program whose link chain leads outside the seal (pilot red team 27,
    A2). This check only refuses: what the run shows is the seal's held copy alone
    (`held_command`), whatever is found here."""
    for path in outside_held_code(candidate_interpreter_code(argv), sealed):
        raise ProvebenchError(
            f"the candidate's interpreter {path} is not in the seal: its code would run "
            "unsealed; seal the candidate again",
            field="--from-seal",
        )
    outside = program_outside(argv, sealed)
    if outside is not None:
        raise ProvebenchError(
            f"the sealed program leads to {outside}, which is not in the seal: what runs there "
            "was never sealed; seal the candidate again",
            field="--from-seal",
        )


def command_digest(command: str, files_sha256: str) -> str:
    """An `--agent-cmd` candidate's code identity: the command as written, and the digest of
    every byte the sandbox shows of the folders of the files it names and of its own interpreter
    (`command_code_paths`: a venv's site-packages runs as the candidate's code; the system's and
    provebench's interpreter are not the candidate's)."""
    return hashlib.sha256(f"{command}\n{files_sha256}".encode("utf-8", "surrogatepass")).hexdigest()


class ExternalImporter:
    """One cycle of an external importer behind the emulator, in the sandbox."""

    name: ClassVar[str] = "external"
    version: ClassVar[str] = "1"

    def __init__(
        self, lab: EmulatedLab, argv: list[str], timeout_sec: float, policy: SandboxPolicy
    ) -> None:
        self.lab = lab
        self.argv = argv
        self.timeout_sec = timeout_sec
        self.policy = policy

    def run_cycle(self, ctx: CycleContext) -> None:
        with cycle_folder(
            ctx.work_dir, self.policy.limits, self.lab.private_dir, work_guard_of(ctx)
        ) as folder:
            self._cycle_key(folder)
            # The emulator is reached through a channel handed to this sandbox's forwarder by
            # descriptor, never by a path another sandbox could be shown (red team 16, A6).
            channel = self.lab.server.open_channel()
            command = [
                sys.executable, "-I", "-S", *BYTECODE_OPTIONS, FORWARDER,
                str(self.lab.server.port), str(channel.fileno()), "--", *self.argv,
            ]  # fmt: skip
            binds = [(str(FORWARDER_SOURCE), FORWARDER)]
            self.lab.open_cycle(ctx)
            refused: CandidateFailed | None = None
            try:
                with channel:
                    outcome = run_sandboxed(
                        self.policy,
                        command,
                        private_dir=folder,
                        env=self.environment(ctx),
                        timeout=self.timeout_sec,
                        extra_binds=binds,
                        pass_fds=(channel.fileno(),),
                    )
            except CandidateFailed as error:
                # `/sandbox` was refused (over a limit): its diagnostics file alone was carried
                # back, and what the importer said is read before the refusal ends the cycle
                # (sandbox red team 45, F1: it was dropped, and the failure read as concealed).
                refused = error
            finally:
                self.lab.close_cycle(ctx)
            read_diagnostics_file(ctx, gateway_of(ctx), folder / DIAGNOSTICS_FILE)
            if refused is not None:
                raise refused
        if outcome.returncode is None:
            raise ExternalImporterFailed(f"the importer did not exit within {self.timeout_sec}s")
        if outcome.returncode != 0:
            raise ExternalImporterFailed(f"the importer exited with status {outcome.returncode}")

    def _cycle_key(self, cycle_dir: Path) -> Path:
        """This cycle's own key file: the previous cycle's key no longer signs a valid grant."""
        self.lab.account.rotate_key()
        path = cycle_dir / SERVICE_ACCOUNT_FILE
        self.lab.account.write(path)
        return path

    def environment(self, ctx: CycleContext) -> dict[str, str]:
        """The documented variables, with the sandbox's paths (docs/pilot-emulator.md)."""
        return {
            **SANDBOX_ENV,
            # The operator's PATH: a program named without a path resolves as it did outside
            # (folders the sandbox does not show are simply empty there).
            "PATH": os.environ.get("PATH", os.defpath),
            **self.lab.client_environment(),
            "GOOGLE_APPLICATION_CREDENTIALS": f"{SANDBOX_DIR}/{SERVICE_ACCOUNT_FILE}",
            "PROVEBENCH_TIME_ZONE": ctx.time_zone,
            "PROVEBENCH_RUN_VERSION": ctx.run_version,
            "PROVEBENCH_WORK_DIR": SANDBOX_WORK,
            "PROVEBENCH_DIAGNOSTICS_FILE": f"{SANDBOX_DIR}/{DIAGNOSTICS_FILE}",
        }


__all__ = [
    "DEFAULT_TIMEOUT_SEC",
    "ExternalImporter",
    "ExternalImporterFailed",
    "external_agent",
]
