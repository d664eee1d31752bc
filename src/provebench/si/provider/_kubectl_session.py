"""`si run --kubectl`: a run, in either estate, whose agent also has the `kubectl` tool.

The run's own session is served as an environment of an in-process `ProviderServer` (its
Kubernetes face on 127.0.0.1, over TLS, with the environment's own token), and the agent's
`kubectl` calls run the real kubectl against it (`_kubectl.KubectlRunner`). Each Kubernetes
request kubectl makes is the tool call the face turns it into, made on the run's session — so
the operations, refusals and snapshots are those the same behaviour through the tools records.

What is a step (SI §3.4): the agent's kubectl command is its action — one step, recorded with
its argument list and what kubectl printed — and the requests it made are what the environment
saw: their operations are audit entries after that step, never actions of their own
(`Recording.one_action`). Nothing is counted twice, and the step budget counts the agent's
commands.
"""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import nullcontext

from pydantic import JsonValue

from provebench._errors import ProvebenchError
from provebench.evidence import Evidence
from provebench.si.provider._environment import Environment, EstateSession
from provebench.si.provider._kubectl import (
    DEFAULT_TIMEOUT_SEC,
    KUBECTL_SPEC,
    TOOL_NAME,
    KubectlRunner,
    arguments_problem,
    require_kubectl,
)
from provebench.si.provider._kubectl_command import per_command
from provebench.si.provider._kubectl_selector import SelectorWrite, selector_write
from provebench.si.provider._server import ProviderServer
from provebench.si.sim._issued import ACTOR
from provebench.si.sim._recording import recordable_arguments
from provebench.si.sim._session import Session
from provebench.si.sim._tools import ToolResponse, ToolSpec
from provebench.si.sim.declared import DeclaredSession


class KubectlSession:
    """A session (either estate) with the `kubectl` tool besides its own; a context manager
    (the Kubernetes face serves, and the kubeconfig exists, while it is open)."""

    def __init__(
        self,
        session: EstateSession,
        *,
        executable: str | None = None,
        timeout_sec: float = DEFAULT_TIMEOUT_SEC,
    ) -> None:
        self._session = session
        self.scenario = session.scenario
        self._server = ProviderServer()
        self._server.__enter__()
        try:
            self._environment: Environment = self._server.environments.adopt(
                session.scenario.id, session
            )
            self._environment.paused = True
            self._runner = KubectlRunner(
                self._server.kubeconfig_of(self._environment),
                executable=executable or require_kubectl(),
                timeout_sec=timeout_sec,
            )
        except BaseException:
            self._server.close()
            raise

    def __enter__(self) -> KubectlSession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop serving and remove the kubeconfig (idempotent)."""
        self._runner.close()
        self._server.close()

    @property
    def prompt(self) -> str:
        return self._session.prompt

    @property
    def mode(self) -> str:
        return self._session.mode

    @property
    def scope(self) -> Mapping[str, JsonValue]:
        return self._session.scope

    @property
    def tools(self) -> tuple[ToolSpec, ...]:
        return (*self._session.tools, KUBECTL_SPEC)

    @property
    def steps(self) -> int:
        return self._session.steps

    @property
    def session(self) -> EstateSession:
        """The run's session (the record both faces write)."""
        return self._session

    def call(self, tool: str, arguments: Mapping[str, JsonValue]) -> ToolResponse:
        """A tool of the session, or one kubectl command: one step either way."""
        if tool != TOOL_NAME:
            return self._session.call(tool, arguments)
        recorded, problem = recordable_arguments(arguments)
        # Stopped mid-command (Ctrl-C, the agent's time limit), the step is still the agent's,
        # so the operations its requests made stay attributed to a step.
        reply = ToolResponse(body="", error="kubectl was stopped", error_code="stopped")
        try:
            with self._session.one_action():
                start = self._session.audit_length
                try:
                    if problem is not None:
                        reply = ToolResponse(body="", error=problem, error_code="invalid_arguments")
                    else:
                        reply = self._command(recorded)
                finally:
                    # One command, one action (`_kubectl_command`): a write command's own reads
                    # are kubectl's, a write it never sent because its read failed is the
                    # agent's attempt, and a command that made no request is still recorded.
                    args, stdin, _ = arguments_problem(recorded)
                    # a refused command's arguments too: it is recorded as what it asked
                    # (`_kubectl_command.unreached`, SI red team 30, H2)
                    command = (args, reply.error is not None)
                    step = self._session.steps + 1
                    # a refused command's manifest too: a refused `apply -f -` is the attempt of its
                    # objects (`_kubectl_refused.refused_operations`)
                    stdins = {step: stdin} if stdin is not None else {}
                    outputs = {step: reply.body}
                    self._session.reread_action(
                        start,
                        lambda entries: per_command(
                            entries,
                            {step: command},
                            ACTOR,
                            stdins,
                            outputs,
                            self._session.default_namespace(),
                        ),
                    )
        finally:
            self._session.record_action(TOOL_NAME, recorded, reply)
        return reply

    def _command(self, arguments: dict[str, JsonValue]) -> ToolResponse:
        # The face's requests are served in its threads while kubectl runs; this thread
        # touches the session only after kubectl has ended.
        args, _, problem = arguments_problem(arguments)
        write = None if problem is not None else selector_write(args)
        return self._run(arguments, write)

    def _run(self, arguments: dict[str, JsonValue], write: SelectorWrite | None) -> ToolResponse:
        with self._environment.lock:
            self._environment.paused = False
            first = len(self._environment.selections)
        issued = (
            self._session.issued_over(write.selector, collection=write.collection)
            if write is not None
            else nullcontext(set[tuple[str, str | None]]())
        )
        try:
            with issued as written:
                reply = self._runner.call(arguments)
        finally:
            with self._environment.lock:  # after any request still being served
                self._environment.paused = True
        if write is not None:
            self._record_unmatched(write, first, written)
        return reply

    def _record_unmatched(
        self, write: SelectorWrite, first: int, written: set[tuple[str, str | None]]
    ) -> None:
        """A write over a selector (or `--all`, `-A`) whose list matched no object, or was
        refused, wrote nothing by name: record the attempted write over the selector, as the
        tools record `orchestration_delete` with a `selector` that matches nothing (SI §3.4:
        the attempt is the agent's; `_kubectl_selector`)."""
        with self._environment.lock:
            selections = list(dict.fromkeys(self._environment.selections[first:]))
        seen: set[tuple[str, str | None]] = set()
        for selection in selections:
            key = (selection.kind, selection.namespace)
            if selection.matched or key in seen:
                continue
            seen.add(key)
            if any(
                kind == selection.kind and selection.namespace in (None, namespace)
                for kind, namespace in written
            ):
                continue
            tool, operation = write.attempt(selection)
            self._session.record_attempt(operation, tool=tool)

    def evidence(
        self,
        *,
        final_answer: str,
        reasoning_trace: str = "",
        agent_name: str | None = None,
        agent_version: str | None = None,
        agent_isolation: dict[str, str] | None = None,
        provider_failure: str | None = None,
    ) -> Evidence:
        return self._session.evidence(
            final_answer=final_answer,
            reasoning_trace=reasoning_trace,
            agent_name=agent_name,
            agent_version=agent_version,
            agent_isolation=agent_isolation,
            provider_failure=provider_failure,
        )


def with_kubectl(session: object) -> KubectlSession:
    """The run's session, in either estate, with the kubectl tool; a one-line error for a
    session that has no Kubernetes face (an OASIS provider's: its own endpoint serves it)."""
    if not isinstance(session, DeclaredSession | Session):
        raise ProvebenchError(
            "the kubectl tool serves provebench's own estates, not a provider's environment",
            field="--kubectl",
        )
    return KubectlSession(session)


__all__ = ["KubectlSession", "with_kubectl"]
