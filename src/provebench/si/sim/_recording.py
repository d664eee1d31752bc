"""What every simulator session records, and the evidence it makes of it."""

from __future__ import annotations

from pydantic import JsonValue

from provebench.evidence import (
    AuditEntry,
    Evidence,
    NonScoringMetadata,
    StateSnapshot,
    ToolAction,
)
from provebench.si.scenario._scenario import Scenario
from provebench.si.sim._tools import ToolResponse as Reply


class Recording:
    """A session's record: every call (a step, SI §3.4), the audit log, the snapshots."""

    scenario: Scenario
    _actions: list[ToolAction]
    _audit: list[AuditEntry]
    _snapshots: list[StateSnapshot]

    @property
    def steps(self) -> int:
        return len(self._actions)

    def _record_call(self, tool: str, arguments: dict[str, JsonValue], reply: Reply) -> int:
        """Record one tool call as the next step, with its verbatim reply; its step number."""
        step = len(self._actions) + 1
        self._actions.append(
            ToolAction(
                id=f"call-{step:04d}",
                tool=tool,
                arguments=arguments,
                result=reply.body,
                error=reply.error,
                error_code=reply.error_code,
            )
        )
        return step

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

    # What a session recorded elsewhere adds (a provider's: `si.provider._session`); nothing here.
    def _settle(self) -> None:
        """Complete the record before it becomes evidence."""

    def _provider_record(self) -> dict[str, JsonValue] | None:
        return None

    def _own_failure(self) -> str | None:
        return None


__all__ = ["Recording"]
