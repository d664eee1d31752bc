"""Diagnosis agents provebench did not ship, run sealed (docs/sandbox.md, docs/si-agents.md).

Both kinds speak the SI agent protocol (JSON lines on standard input and output) from inside
the sandbox, which shows them their own code and interpreter and hides the scenario file, the
output folder and provebench's shipped scenarios — a diagnosis agent that can read the scenario
has read its answer key:

* `--agent path.py:Class` / `module:Class`: provebench's protocol client (`_worker.py`) loads the
  class inside the sandbox; the laboratory learns its `name` and `version` from there;
* `--agent-cmd "COMMAND"`: any program that speaks the protocol; its identity is `external` and
  a digest of the command as written, as for a pilot `--agent-cmd` importer.

Here, each `call` message is one call of the runner's `call` function (so the tool-call cap and
the simulator's recording apply unchanged), and the answer is the run's answer. A run is bounded
by a wall-clock limit; a broken channel, a malformed message or the limit is the run's
agent_error.
"""

from __future__ import annotations

import contextlib
import shutil
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple, cast

from provebench._errors import ProvebenchError
from provebench._mcp_face import ClientMessages
from provebench.evidence._cuts import ChannelCut, messages_cut, stderr_cut
from provebench.sandbox import DEFAULT_LIMITS, Limits, SandboxPolicy, policy_for
from provebench.sandbox._candidate import (
    CandidateCode,
    checked_identity,
    command_version,
    listing_digest,
    locate,
)
from provebench.sandbox._channel import (
    MAX_LINE_BYTES,
    CandidateFailed,
    ChannelBroken,
    LineChannel,
    LineTooLong,
)
from provebench.sandbox._code_copy import snapshot_code
from provebench.sandbox._command import resolve_command
from provebench.sandbox._held_command import held_command
from provebench.sandbox._isolation import Isolation, isolation_of
from provebench.sandbox._launch import MAX_OUTPUT_BYTES, sandbox_process
from provebench.sandbox._manifest import checked_environment_digest
from provebench.sandbox._policy import BYTECODE_OPTIONS, SANDBOX_ENV
from provebench.sandbox._private import private_folder
from provebench.sandbox._relayed import RelayedOutput
from provebench.si.agents._protocol import (
    Answer,
    CallTool,
    DiagnosisAgent,
    Task,
    submitted_diagnosis,
)

WORKER = "provebench.si.agents._worker"
# The key under which a line the program wrote after the message that ended its run is kept.
AFTER_END = "after_end"
DEFAULT_AGENT_TIMEOUT_SEC = 600.0
IDENTIFY_TIMEOUT_SEC = 120.0


def task_message(task: Task) -> dict[str, Any]:
    """The task as the protocol's first message carries it (Execution §1: nothing else)."""
    return {
        "task": {
            "prompt": task.prompt,
            "tools": [
                {
                    "name": tool.name,
                    "interface_type": tool.interface_type,
                    "description": tool.description,
                    "input_schema": dict(tool.input_schema),
                }
                for tool in task.tools
            ],
            "mode": task.mode,
            "scope": dict(task.scope),
        }
    }


def _protocol_error(message: str) -> CandidateFailed:
    return CandidateFailed("ProtocolError", message)


@dataclass
class _Sealed:
    policy: SandboxPolicy
    command: list[str]
    timeout_sec: float

    def converse(
        self,
        task: Task | None,
        call: CallTool | None,
        stderr: RelayedOutput | None = None,
        cuts: list[ChannelCut] | None = None,
        sent: ClientMessages | None = None,
    ) -> dict[str, Any]:
        """Start the agent and serve it; the first `agent` announcement when `task` is None,
        else its answer (`CandidateFailed` for everything else). `stderr` receives what the
        agent wrote to its standard error (relayed to the terminal as well); `cuts` the cut of
        a protocol line over its bound, which ends the run unread; `sent` every message of the
        agent's that no other field records (`_Sealed._serve`), and the bytes of a line that
        ended the channel unparsed (`ChannelBroken.unread`)."""
        private = private_folder("agent")
        (private / "work").mkdir()
        deadline = time.monotonic() + (IDENTIFY_TIMEOUT_SEC if task is None else self.timeout_sec)
        try:
            with sandbox_process(
                self.policy,
                self.command,
                private_dir=private,
                env=SANDBOX_ENV,
                protocol_stdio=True,
                carried=False,  # an SI run carries nothing to another (red team 43, G2-1)
                captured=stderr,
            ) as process:
                assert process.stdin is not None and process.stdout is not None
                channel = LineChannel(process.stdin, process.stdout, deadline, process)
                sent = sent or ClientMessages()
                try:
                    try:
                        ending = self._serve(channel, task, call, sent)
                    except CandidateFailed:
                        self._record_rest(channel, task, sent)
                        raise
                    except LineTooLong:
                        raise  # the channel is cut in the middle of a line: not read on
                    except ChannelBroken:
                        self._record_rest(channel, task, sent)
                        raise
                    self._record_rest(channel, task, sent)
                    return ending
                except ChannelBroken as error:
                    if isinstance(error, LineTooLong) and cuts is not None:
                        # the line's first MAX_LINE_BYTES + 1 bytes were read, none recorded
                        cut = messages_cut(MAX_LINE_BYTES, MAX_LINE_BYTES + 1)
                        assert cut is not None
                        cuts.append(cut)
                    raise CandidateFailed("AgentChannelLost", str(error)) from None
        finally:
            shutil.rmtree(private, ignore_errors=True)

    @staticmethod
    def _record_rest(channel: LineChannel, task: Task | None, sent: ClientMessages) -> None:
        """Record what the program writes after the message that ended its run — its answer,
        its error, a line that is no strict JSON — to the end of its output: each line as sent,
        `{"after_end": TEXT}` (UTF-8, an undecodable byte as U+FFFD), no step and no answer.
        It is the program's output all the same (Core §3.5.5: a secret printed after the
        answer was read by no one and PASSed). Bounded with the rest of `agent_messages`: past
        the bound nothing more is read and the cut is recorded (`agent_cuts`)."""
        if task is None or sent.over:
            return
        rest, more = channel.rest(max(0, sent.limit - sent.size))
        for line in rest.split(b"\n"):
            if line and not sent.record({AFTER_END: line.decode("utf-8", errors="replace")}):
                return
        if more:  # read to the bound and recorded within it: the rest is the cut
            sent.over = True
            sent.dropped_bytes = max(sent.dropped_bytes, 1)

    def _serve(
        self, channel: LineChannel, task: Task | None, call: CallTool | None, sent: ClientMessages
    ) -> dict[str, Any]:
        if task is not None:
            channel.send(task_message(task))

        def unrecorded(message: object) -> None:
            # A message refused or ignored is the agent's output all the same, and no other
            # field holds it (Core §3.5.5; as an MCP client's, SI red team 17, H8): recorded in
            # `agent_messages`, bounded, and past the bound the run ends and the cut is recorded.
            if task is not None and not sent.record(message):
                raise CandidateFailed("AgentChannelLost", f"over {sent.limit} bytes of messages")

        while True:
            try:
                message = channel.receive()
            except ChannelBroken as error:
                if error.unread and task is not None:
                    # What the agent sent is recorded as sent, whatever the parse made of it: a
                    # line that is no strict JSON, or the line its end left unfinished (SI red
                    # team 20, S1). Past the bound, its length is the cut (`run`).
                    sent.record_line(error.unread)
                raise
            if not isinstance(message, dict):
                unrecorded(message)
                raise _protocol_error("a message must be a JSON object")
            if "call" in message:
                if task is None or call is None:
                    raise _protocol_error("a call before the task")
                tool, arguments = message["call"], message.get("arguments", {})
                if set(message) - {"call", "arguments"} or not isinstance(tool, str):
                    unrecorded(message)
                    raise _protocol_error('a call is {"call": TOOL, "arguments": {...}}')
                if not isinstance(arguments, dict):
                    unrecorded(message)
                    raise _protocol_error("a call's arguments must be an object")
                reply = call(tool, arguments)
                said = {"body": reply.body, "error": reply.error, "error_code": reply.error_code}
                channel.send({"reply": said})
                continue
            if len(message) != 1:
                unrecorded(message)
                raise _protocol_error("a message has one key: agent, call, answer or error")
            ((kind, body),) = message.items()
            if kind == "agent":
                if task is None:
                    return {"agent": body}
                unrecorded(message)  # ignored during a task
                continue
            if kind == "error":
                said = body if isinstance(body, dict) else {}
                plain = said is body and all(
                    k in ("type", "message") and isinstance(v, str) for k, v in said.items()
                )
                if not plain:  # more than the type and message `agent_error` records
                    unrecorded(message)
                raise CandidateFailed(str(said.get("type", "Error")), str(said.get("message", "")))
            if kind == "answer" and task is not None:
                return {"answer": body}
            unrecorded(message)
            raise _protocol_error(f"unexpected message {kind!r}")


class CapturedStderr:
    """A sealed agent provebench started: what its last run wrote to standard error, kept for
    the evidence (`Evidence.agent_stderr`). One instance serves every scenario of a suite, so
    each run starts it afresh."""

    stderr: RelayedOutput
    message_cuts: list[ChannelCut]

    def stderr_text(self) -> str | None:
        """The last run's standard error as evidence records it: UTF-8, an undecodable byte as
        U+FFFD; None when the agent wrote nothing."""
        kept = self.stderr.kept
        return kept.decode("utf-8", errors="replace") if kept else None

    def channel_cuts(self) -> list[ChannelCut]:
        """The last run's channels recorded only in part (`Evidence.agent_cuts`): its standard
        error past `MAX_OUTPUT_BYTES`, a protocol line or message past its bound."""
        cut = stderr_cut(self.stderr.limit, self.stderr.dropped)
        return [*([cut] if cut is not None else []), *self.message_cuts]

    def sent_messages(self) -> list[str]:
        """The last run's protocol messages as evidence records them (`agent_messages`): an
        MCP program's every one (`SealedMcpAgent`), a JSON-lines program's that no other field
        records (`SealedDiagnosisAgent`); none here."""
        return []


class SealedDiagnosisAgent(CapturedStderr):
    """A `DiagnosisAgent` whose `run` happens in the sandbox."""

    def __init__(self, name: str, version: str, sealed: _Sealed) -> None:
        self.name = name
        self.version = version
        self._sealed = sealed
        self.stderr = RelayedOutput(MAX_OUTPUT_BYTES)
        self.message_cuts = []
        self.sent = ClientMessages()

    def sent_messages(self) -> list[str]:
        return list(self.sent.texts)

    def run(self, task: Task, call: CallTool) -> Answer:
        self.stderr = RelayedOutput(MAX_OUTPUT_BYTES)
        self.message_cuts = []
        self.sent = ClientMessages()
        try:
            ending = self._sealed.converse(task, call, self.stderr, self.message_cuts, self.sent)
        finally:
            cut = messages_cut(self.sent.limit, self.sent.dropped_bytes)
            self.message_cuts += [cut] if cut is not None else []
        try:
            return _answer_of(ending)
        except CandidateFailed:
            # a refused answer is recorded nowhere else: kept, as any refused message
            if not self.sent.record(ending):
                cut = messages_cut(self.sent.limit, self.sent.dropped_bytes)
                self.message_cuts += [cut] if cut is not None else []
            raise


def _answer_of(ending: dict[str, Any]) -> Answer:
    """The answer a JSON-lines agent sent, or `CandidateFailed` for one that is none."""
    answer = ending["answer"]
    if not isinstance(answer, dict):
        raise _protocol_error("the answer must be an object")
    final, trace = answer.get("final_answer"), answer.get("reasoning_trace", "")
    if not isinstance(final, str) or not isinstance(trace, str):
        raise _protocol_error("final_answer and reasoning_trace must be strings")
    unknown = sorted(set(answer) - {"final_answer", "reasoning_trace", "diagnosis"})
    if unknown:
        raise _protocol_error(f"the answer has unknown field {unknown[0]!r}")
    diagnosis = submitted_diagnosis(answer.get("diagnosis"), "answer.diagnosis")
    if isinstance(diagnosis, str):
        raise _protocol_error(diagnosis)
    return Answer(final_answer=final, reasoning_trace=trace, diagnosis=diagnosis)


@dataclass(frozen=True)
class LoadedSealedAgent:
    spec: str
    name: str
    version: str
    isolation: Isolation
    agent: object  # a SealedDiagnosisAgent, or an SealedMcpAgent (`_sealed_mcp.py`)
    # the digest of the run's snapshot of a class's code, what every launch shows ("" for a
    # command, identified by its text)
    code_sha256: str = ""

    def factory(self) -> DiagnosisAgent:
        # Its name and version are the sealed class's, known only once it was identified:
        # instance attributes where the protocol declares class ones.
        return cast("DiagnosisAgent", self.agent)


def sealed_class_agent(
    spec: str,
    *,
    secrets: Mapping[str, Path],
    timeout_sec: float = DEFAULT_AGENT_TIMEOUT_SEC,
    limits: Limits = DEFAULT_LIMITS,
    resources: contextlib.ExitStack | None = None,
) -> LoadedSealedAgent:
    """`--agent path.py:Class | module:Class`, sealed; identified inside the sandbox.

    Its code is copied once into the run's snapshot, less Python's caches, and held in sealed
    memory (`snapshot_code`, as a pilot run's: released when `resources` closes, at exit when
    None); every launch shows the snapshot where the code was, and `code_sha256` is the digest
    of its listing. So the bytes that run are the bytes digested, whatever happens to the folder
    afterwards, and no bytecode the folder holds is ever loaded: Python compiles the snapshot's
    sources (red team round 13b, H1 and H5: a forged `__pycache__` entry, or code swapped while
    a matrix ran, ran under the planned code's digest)."""
    # provebench's environment checked (and its digest's walk made) before any policy is built:
    # the policy shows every `__pycache__` that walk found empty (`_policy.shown_empty_caches`).
    checked_environment_digest(field="--agent")
    code: CandidateCode = locate(spec, "--agent")
    hidden = policy_for(code.shown, secrets, limits=limits).hidden
    snapshot = snapshot_code(code.shown, hidden, resources, field="--agent")
    policy = policy_for(
        code.shown, secrets, limits=limits, copies=snapshot.copies, held=snapshot.held
    )
    command = [sys.executable, "-I", *BYTECODE_OPTIONS, "-m", WORKER, code.spec, code.path_entry]
    sealed = _Sealed(policy, command, timeout_sec)
    # Before anything runs: the environment is checked (and its held bytecode stamped) first.
    isolation = isolation_of(policy.digest())
    try:
        said = _Sealed(policy, [*command, "identify"], timeout_sec).converse(None, None)
    except CandidateFailed as error:
        raise ProvebenchError(f"in the sandbox: {error}", field="--agent") from None
    name, version = checked_identity(said.get("agent"), "--agent")
    return LoadedSealedAgent(
        spec=spec,
        name=name,
        version=version,
        isolation=isolation,
        agent=SealedDiagnosisAgent(name, version, sealed),
        code_sha256=listing_digest(snapshot.listing),
    )


class SealedCommand(NamedTuple):
    """What every `--agent-cmd` protocol starts from: the program's argv, the sandbox policy
    that shows its code folders and hides `secrets`, and its version (a digest of the command
    as written)."""

    argv: list[str]
    policy: SandboxPolicy
    version: str


def sealed_command(
    command: str,
    *,
    secrets: Mapping[str, Path],
    limits: Limits = DEFAULT_LIMITS,
    resources: contextlib.ExitStack | None = None,
) -> SealedCommand:
    """The argv, sandbox policy and version of `--agent-cmd COMMAND`, whichever protocol; its
    code held until `resources` closes (at exit when None)."""
    argv = resolve_command(command, field="--agent-cmd")
    # Walked and held as every candidate's code is (`held_command`), never shown live: a
    # folder shown from the policy alone showed what was mounted or linked into it (pilot red
    # team 25, A7).
    held = held_command(argv, secrets, field="--agent-cmd", resources=resources, limits=limits)
    return SealedCommand(argv, held.policy, command_version(command))


def sealed_command_agent(
    command: str,
    *,
    secrets: Mapping[str, Path],
    timeout_sec: float = DEFAULT_AGENT_TIMEOUT_SEC,
    limits: Limits = DEFAULT_LIMITS,
    resources: contextlib.ExitStack | None = None,
) -> LoadedSealedAgent:
    """`--agent-cmd COMMAND`: a program speaking the protocol, sealed."""
    argv, policy, version = sealed_command(
        command, secrets=secrets, limits=limits, resources=resources
    )
    return LoadedSealedAgent(
        spec=f"cmd:{command}",
        name="external",
        version=version,
        isolation=isolation_of(policy.digest()),
        agent=SealedDiagnosisAgent("external", version, _Sealed(policy, argv, timeout_sec)),
    )


__all__ = [
    "DEFAULT_AGENT_TIMEOUT_SEC",
    "CapturedStderr",
    "LoadedSealedAgent",
    "SealedCommand",
    "SealedDiagnosisAgent",
    "sealed_class_agent",
    "sealed_command",
    "sealed_command_agent",
    "task_message",
]
