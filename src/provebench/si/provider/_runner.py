"""`si run --provider` and `si suite --provider`: one scenario's run against an OASIS provider.

Preflight first (`_preflight.preflight`, once per command), then per scenario: provision, the
agent's run with its calls routed to the environment's agent endpoint, the observations, and
the teardown — always, whether the agent answered, failed, was stopped or the provider broke.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from provebench.si.agents._protocol import Answer, CallTool, DiagnosisAgent, Task
from provebench.si.agents._run import RunOutcome, run_agent
from provebench.si.provider._client import ProviderClient
from provebench.si.provider._preflight import AcceptedProvider
from provebench.si.provider._session import ProviderSession
from provebench.si.scenario._scenario import Scenario


@dataclass(frozen=True)
class ProviderRun:
    """The provider a command runs against, accepted at preflight."""

    client: ProviderClient
    accepted: AcceptedProvider


@dataclass(frozen=True)
class ProviderOutcome:
    """A run's outcome, and why its teardown failed (reported; the evidence was complete)."""

    outcome: RunOutcome
    teardown_problem: str | None


def _not_run(agent: DiagnosisAgent) -> DiagnosisAgent:
    """The agent's stand-in when its environment could not be provisioned: the agent is not
    started (a model would be asked for nothing), and the run records its name."""

    class NotRun:
        name: ClassVar[str] = agent.name
        version: ClassVar[str] = agent.version

        def run(self, task: Task, call: CallTool) -> Answer:
            return Answer(final_answer="")

    return NotRun()


def run_on_provider(
    provider: ProviderRun,
    scenario: Scenario,
    tier: int,
    factory: Callable[[], DiagnosisAgent],
    *,
    max_tool_calls: int,
    isolation: dict[str, str] | None,
    kubectl: bool = False,
) -> ProviderOutcome:
    """Run one agent on one scenario in an environment of `provider`; tear it down always.
    With `kubectl`, the agent also has the kubectl tool against the environment's Kubernetes
    endpoint, with the credentials the provider handed over (`ProviderSession`)."""
    session = ProviderSession(provider.client, provider.accepted, scenario, tier, kubectl=kubectl)
    try:
        agent = factory()
        if session.provider_fault is not None:
            agent = _not_run(agent)
        outcome = run_agent(session, agent, max_tool_calls=max_tool_calls, isolation=isolation)
    finally:
        problem = session.close()
    return ProviderOutcome(outcome=outcome, teardown_problem=problem)


__all__ = ["ProviderOutcome", "ProviderRun", "run_on_provider"]
