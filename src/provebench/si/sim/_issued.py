"""Writes one action of the agent issues over a label selector or a whole collection (a kubectl
command such as ``delete pods -l app=api``), recorded as the tools record the same write: the
same for both estates, so a behaviour scores the same through kubectl as through the tools.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace

from pydantic import JsonValue

from provebench.evidence import ApiCallEntry
from provebench.si.primitives._operations import WRITE_VERBS, Operation
from provebench.si.sim._recording import Recording

ACTOR = "agent"


class SelectorWrites(Recording):
    """The record of writes issued over a selector; a session supplies `_refusal`."""

    # While one action of the agent writes over a label selector or a whole collection
    # (`issued_over`): (selector, collection) that its write operations are recorded with.
    _issued: tuple[str | None, bool] | None = None
    _issued_writes: set[tuple[str, str | None]]

    def _refusal(self, operation: Operation) -> str | None:
        raise NotImplementedError

    @contextmanager
    def issued_over(
        self, selector: str | None, *, collection: bool = False
    ) -> Iterator[set[tuple[str, str | None]]]:
        """While one action of the agent chooses the objects it writes by a label selector
        (``selector``, the vocabulary's ``k:v`` spelling) or takes the whole collection: every
        write operation recorded meanwhile is recorded as issued over it, as the tools record a
        write with ``selector`` or ``all`` (kubectl's ``delete pods -l app=api`` lists, then
        deletes each match by name: each delete is one over ``labels=app:api``). Only the
        record changes; what is performed is the named call. Yields the (kind, namespace) of
        every write so recorded."""
        if self._issued is not None:
            raise RuntimeError("writes are already being recorded as issued over a selector")
        self._issued = (selector, collection)
        self._issued_writes = set()
        try:
            yield self._issued_writes
        finally:
            self._issued = None

    def _as_issued(
        self, operation: Operation, targets: tuple[str, ...]
    ) -> tuple[Operation, tuple[str, ...]]:
        if self._issued is None or operation.verb not in WRITE_VERBS:
            return operation, targets
        if operation.selector is not None or operation.collection:
            return operation, targets
        selector, collection = self._issued
        self._issued_writes.add((operation.kind, operation.namespace))
        named = (f"{operation.kind}/{operation.name}",) if operation.name is not None else ()
        if collection:
            issued = replace(operation, name=None, collection=True, selector=selector)
        else:
            issued = replace(operation, selector=selector)
        return issued, targets or named

    def record_attempt(self, operation: Operation, *, tool: str) -> None:
        """Record a write the agent's current action attempted over a selector or a whole
        collection that reached no object, so no call of its own (kubectl's ``delete pods -l
        app=api`` when nothing matches, or when the list was refused): the operation the
        tools record for the same write (``orchestration_delete`` with ``selector``: 200 and
        nothing acted on), or the environment's refusal of it (403). Changes nothing. Only
        inside `one_action`: the attempt belongs to the step being taken."""
        if self._inner_calls is None:
            raise RuntimeError("an attempt is recorded only while an action is being recorded")
        refusal = self._refusal(operation)
        detail: dict[str, JsonValue] = {**operation.detail(), "tool": tool}
        if refusal is not None:
            detail["refused"] = refusal
        self._audit_operation(
            operation, 403 if refusal is not None else 200, len(self._actions) + 1, detail
        )

    def _audit_answered(
        self,
        tool: str,
        operation: Operation,
        answer: tuple[int, str | None],
        targets: tuple[str, ...],
        step: int,
    ) -> None:
        """The audit entry of one operation of the agent's call at ``step``, answered
        ``answer`` (status code, error), as both estates record it: a write that chose its
        objects (by a selector, over a collection) with each object it acted on in
        ``targets`` — one rule, so a restart over ``app=api`` that restarts three deployments
        names the three in either estate (docs/si-profile.md, "Do the two estates agree?")."""
        status_code, error = answer
        detail: dict[str, JsonValue] = {**operation.detail(), "tool": tool}
        if targets:
            detail["targets"] = list(targets)
        if status_code == 403 and error:
            detail["refused"] = error
        if status_code == 422 and error:
            detail["unsupported"] = error
        self._audit_operation(operation, status_code, step, detail)

    def _audit_operation(
        self, operation: Operation, status_code: int, step: int, detail: dict[str, JsonValue]
    ) -> None:
        """The audit entry of one operation the agent attempted, as both estates record it."""
        self._audit.append(
            ApiCallEntry(
                actor=ACTOR,
                verb=operation.verb,
                resource=operation.resource,
                namespace=operation.namespace,
                status_code=status_code,
                after_step=step,
                detail=detail,
            )
        )


__all__ = ["SelectorWrites"]
