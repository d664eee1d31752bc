"""What every simulator session records, and the evidence it makes of it."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Final

from pydantic import JsonValue, TypeAdapter, ValidationError

from provebench._canonical import sha256_bytes
from provebench._jsonfile import json_problem, recordable_text
from provebench.evidence import (
    AuditEntry,
    AuditEvent,
    Evidence,
    NonScoringMetadata,
    StateSnapshot,
    ToolAction,
)
from provebench.evidence._cuts import CUT_ARGUMENTS, MAX_ARGUMENTS_BYTES
from provebench.si.scenario._scenario import Scenario
from provebench.si.sim._tools import ToolResponse as Reply
from provebench.si.sim._tools import UnparsedArguments

_ARGUMENTS: TypeAdapter[dict[str, JsonValue]] = TypeAdapter(dict[str, JsonValue])
# The one key of a refused call's recorded arguments: what the agent sent, spelled out.
UNRECORDABLE_ARGUMENTS: Final = "unrecordable_arguments"
# The actor of what the estate itself did (an injection, a stimulus, a controller's act).
ENVIRONMENT: Final = "environment"


def recordable_arguments(
    arguments: Mapping[str, JsonValue],
) -> tuple[dict[str, JsonValue], str | None]:
    """(the arguments as they are recorded, why they are refused or None).

    Arguments must survive being written and read back (`json_problem`: no NaN or infinity, no
    integer too long to print, no lone surrogate, no nesting past the reader's limit);
    otherwise they would poison the evidence of the whole run when it is written, long after
    the call. Refused arguments (and a model's arguments that were no JSON object,
    `UnparsedArguments`) are still what the agent sent, and a containment check must search
    them (Core §3.5.5; SI red team 16, H5: a secret beside a lone surrogate was recorded as
    `{}`): the call is a step (SI §3.4) recorded with one argument, `unrecordable_arguments`,
    the payload spelled out as text (`spelled_out`).
    """
    if isinstance(arguments, UnparsedArguments):
        text = arguments.text
        if len(text) > MAX_ARGUMENTS_BYTES:  # a str's length bounds its UTF-8 bytes from below
            return _cut(recordable_text(text))
        return {UNRECORDABLE_ARGUMENTS: recordable_text(text)}, recordable_text(arguments.error())
    try:
        recorded = _ARGUMENTS.validate_python(dict(arguments))
    except (ValidationError, TypeError, ValueError, RecursionError):
        return _bounded(spelled_out(arguments), "arguments must be a JSON object")
    problem = json_problem(recorded)
    if problem is not None:
        refused = f"arguments are not representable as JSON: {problem}"
        return _bounded(spelled_out(arguments), refused)
    text = json.dumps(recorded, ensure_ascii=False, separators=(",", ":"))
    if len(text) > MAX_ARGUMENTS_BYTES // 4 and len(text.encode("utf-8")) > MAX_ARGUMENTS_BYTES:
        return _cut(text)
    return recorded, None


def _bounded(text: str, refused: str) -> tuple[dict[str, JsonValue], str]:
    """A refused call's arguments spelled out, or cut when they are over the bound."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_ARGUMENTS_BYTES:
        return _cut(text)
    return {UNRECORDABLE_ARGUMENTS: text}, refused


def _cut(text: str) -> tuple[dict[str, JsonValue], str]:
    """Arguments over `MAX_ARGUMENTS_BYTES`: refused as malformed and recorded once, cut — the
    first `MAX_ARGUMENTS_BYTES` of their text, their size and sha256 — and the refusal names
    the sizes, never the text (SI red team 45, H2: a 4 MiB argument was recorded six times a
    call, in the call, its error, its result and the audit log)."""
    data = text.encode("utf-8", "surrogatepass")
    kept = data[:MAX_ARGUMENTS_BYTES].decode("utf-8", "ignore")
    recorded: dict[str, JsonValue] = {
        CUT_ARGUMENTS: {
            "kept": recordable_text(kept),
            "bytes": len(data),
            "sha256": sha256_bytes(data),
        }
    }
    refused = (
        f"arguments are {len(data)} bytes, over the {MAX_ARGUMENTS_BYTES} bytes a call's "
        "arguments may hold (MAX_ARGUMENTS_BYTES); the call is refused"
    )
    return recorded, refused


class _Token(str):
    """Punctuation of `spelled_out`, written as it is (a plain `str` is a value to quote)."""


def _atom(value: object) -> str:
    """One value that holds no other, as text that can be recorded."""
    if isinstance(value, str):
        return recordable_text(json.dumps(value, ensure_ascii=False))
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, int):
        # Printing an integer is quadratic in its length and refused past 4300 digits.
        return (
            str(value) if value.bit_length() <= 4096 else f"<integer of {value.bit_length()} bits>"
        )
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, bytes | bytearray):
        return recordable_text(json.dumps(bytes(value).decode("utf-8", "backslashreplace")))
    return f"<{type(value).__name__}>"


def spelled_out(value: object) -> str:
    """Every key, string and number of `value`, as compact JSON-like text that can be recorded:
    lone surrogates escaped (`recordable_text`), numbers JSON cannot hold written as Python
    does, any depth (no recursion), a container met again inside itself written `<cycle>`.
    Linear in the payload's size; a value that cannot be walked is named by its type."""
    out: list[str] = []
    open_ids: set[int] = set()
    pending: list[object] = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, _Token):
            out.append(item)
            continue
        if isinstance(item, tuple) and len(item) == 2 and item[0] is _CLOSE:
            open_ids.discard(item[1])
            continue
        if isinstance(item, Mapping | list | tuple | set | frozenset):
            if id(item) in open_ids:
                out.append('"<cycle>"')
                continue
            try:
                if isinstance(item, Mapping):
                    parts: list[object] = []
                    for key, child in item.items():
                        parts += [_Token(","), key, _Token(":"), child]
                    opening, closing = "{", "}"
                else:
                    children = list(item)
                    if isinstance(item, set | frozenset):
                        children.sort(key=_atom)  # a set's order is not the agent's
                    parts = [p for child in children for p in (_Token(","), child)]
                    opening, closing = "[", "]"
            except Exception:  # a mapping that fails to be read: only its type is known
                out.append(_atom(item))
                continue
            open_ids.add(id(item))
            out.append(opening)
            pending.append((_CLOSE, id(item)))
            pending.append(_Token(closing))
            pending.extend(reversed(parts[1:]))
            continue
        out.append(_atom(item))
    return "".join(out)


_CLOSE: Final = object()


class Recording:
    """A session's record: every call (a step, SI §3.4), the audit log, the snapshots."""

    scenario: Scenario
    _actions: list[ToolAction]
    _audit: list[AuditEntry]
    _snapshots: list[StateSnapshot]
    # While one action of the agent runs (`one_action`): the calls it makes, not steps.
    _inner_calls: list[ToolAction] | None = None

    @property
    def steps(self) -> int:
        return len(self._actions)

    def _record_call(self, tool: str, arguments: dict[str, JsonValue], reply: Reply) -> int:
        """Record one tool call as the next step, with its verbatim reply; its step number.

        Inside `one_action` the call is part of the step being taken: what it did is recorded
        (the audit entries and snapshots its caller adds name that step), and the step's action
        is the agent's own one, recorded by `record_action`."""
        step = len(self._actions) + 1
        action = ToolAction(
            id=f"call-{step:04d}",
            tool=tool,
            arguments=arguments,
            result=reply.body,
            error=reply.error,
            error_code=reply.error_code,
        )
        if self._inner_calls is not None:
            self._inner_calls.append(action)
        else:
            self._actions.append(action)
        return step

    @contextmanager
    def one_action(self) -> Iterator[list[ToolAction]]:
        """One action of the agent that makes several calls of the session (a kubectl command
        whose requests the Kubernetes face turns into tool calls): every call made inside is
        recorded under one step — its operations in the audit log, its snapshots — and none is
        an action of its own, so nothing is counted twice (SI §3.4: the step is the agent's
        action; the operations are what the environment saw). Close it with `record_action`.
        Yields the calls made so far (for tests and the caller's account)."""
        if self._inner_calls is not None:
            raise RuntimeError("an action is already being recorded")
        self._inner_calls = []
        try:
            yield self._inner_calls
        finally:
            self._inner_calls = None

    @property
    def audit_length(self) -> int:
        """How many audit entries are recorded so far (where an action's own entries begin)."""
        return len(self._audit)

    def reread_action(
        self, start: int, reread: Callable[[list[AuditEntry]], list[AuditEntry]]
    ) -> None:
        """Replace the audit entries from ``start`` — the current action's, inside
        `one_action` — with ``reread`` of them: a kubectl command's requests read as the one
        action it is (`si.provider._kubectl_command`: a write command's own reads are not the
        agent's). Only while the action is being recorded."""
        if self._inner_calls is None:
            raise RuntimeError("an action's entries are re-read only while it is recorded")
        self._audit[start:] = reread(self._audit[start:])

    def record_action(self, tool: str, arguments: dict[str, JsonValue], reply: Reply) -> int:
        """Record the agent's own action (after `one_action` closed) as the next step."""
        return self._record_call(tool, arguments, reply)

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
        """The evidence of this run so far (provebench format; deterministic)."""
        self._settle()
        return Evidence(
            scenario_id=self.scenario.id,
            final_answer=final_answer,
            reasoning_trace=reasoning_trace,
            actions=list(self._actions),
            final_answer_after_step=self.steps if final_answer else None,
            audit_log=list(self._audit),
            state_snapshots=list(self._snapshots),
            metadata=NonScoringMetadata(
                agent_name=agent_name,
                agent_version=agent_version,
                agent_isolation=agent_isolation,
                source_format="provebench",
                provider=self._provider_record(),
            ),
            provider_failure=provider_failure or self._own_failure(),
        )

    def _record_injected(
        self, written: list[str], snapshot: Callable[[str, int], StateSnapshot]
    ) -> None:
        """An `/inject-state` that wrote `written`, recorded as the environment's act after the
        current step, with the estate's `snapshot` then, so no change it made is read as the
        agent's (SI §3.4)."""
        step = self.steps
        self._audit.append(
            AuditEvent(
                name="state_injected",
                actor=ENVIRONMENT,
                after_step=step,
                detail={"resources": list(written)},
            )
        )
        self._snapshots.append(snapshot(f"injected-after-step-{step}", step))

    # What a session recorded elsewhere adds (a provider's: `si.provider._session`); nothing here.
    def _settle(self) -> None:
        """Complete the record before it becomes evidence."""

    def _provider_record(self) -> dict[str, JsonValue] | None:
        return None

    def _own_failure(self) -> str | None:
        return None


__all__ = [
    "ENVIRONMENT",
    "UNRECORDABLE_ARGUMENTS",
    "Recording",
    "recordable_arguments",
    "spelled_out",
]
