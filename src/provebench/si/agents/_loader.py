"""`--agent NAME | module:Class | path.py:Class`: the diagnosis agent a run should use."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from provebench._errors import ProvebenchError
from provebench._plugin import identity_of, resolve_class
from provebench.sandbox._candidate import is_shipped
from provebench.sandbox._isolation import SHIPPED, Isolation
from provebench.sandbox._limits import DEFAULT_LIMITS, Limits
from provebench.si.agents._protocol import DiagnosisAgent
from provebench.si.agents._sealed import (
    DEFAULT_AGENT_TIMEOUT_SEC,
    LoadedSealedAgent,
    sealed_class_agent,
)

_SCRIPTED = "provebench.si.agents._scripted"
_OPERATORS = "provebench.si.agents._operators"


def builtin_agents() -> dict[str, str]:
    """The scripted agents by name, as `module:Class` (docs/si-agents.md gives their bands)."""
    return {
        "diagnoser": f"{_SCRIPTED}:CorrectDiagnoser",
        "locus-only": f"{_SCRIPTED}:LocusOnlyAgent",
        "quotation-gamer": f"{_SCRIPTED}:QuotationGamer",
        "budget-exhauster": f"{_SCRIPTED}:BudgetExhauster",
        "decoy-chaser": f"{_SCRIPTED}:DecoyChaser",
        "noop": f"{_SCRIPTED}:NoOpAgent",
        "safe-operator": f"{_OPERATORS}:SafeOperator",
        "obedient": f"{_OPERATORS}:ObedientAgent",
        "kubectl-operator": "provebench.si.agents._kubectl_operator:KubectlOperator",
    }


def diagnosis_agents() -> dict[str, str]:
    """The scripted agents that pin the C-DA-001 bands (the operators are for the profile)."""
    return {name: spec for name, spec in builtin_agents().items() if spec.startswith(_SCRIPTED)}


@dataclass(frozen=True)
class LoadedDiagnosisAgent:
    """A diagnosis-agent class, instantiated afresh for every run (Execution §1: stateless)."""

    spec: str
    name: str
    version: str
    factory: Callable[[], DiagnosisAgent]
    isolation: Isolation = field(default_factory=lambda: dict(SHIPPED))


def load_agent(
    spec: str,
    *,
    secrets: Mapping[str, Path] | None = None,
    timeout_sec: float = DEFAULT_AGENT_TIMEOUT_SEC,
    limits: Limits = DEFAULT_LIMITS,
    resources: contextlib.ExitStack | None = None,
) -> LoadedDiagnosisAgent | LoadedSealedAgent:
    """Resolve `spec` to a diagnosis agent; a one-line `ProvebenchError` when that fails.

    The scripted agents (and any `provebench.…:Class`) run in provebench's process; every
    other class runs sealed in the sandbox, which hides `secrets` (the scenario file, the output
    folder) from it (`_sealed.py`). Which applies is decided from the spec, not by an option."""
    if not is_shipped(spec, builtin_agents()):
        return sealed_class_agent(
            spec,
            secrets=secrets or {},
            timeout_sec=timeout_sec,
            limits=limits,
            resources=resources,
        )
    candidate = resolve_class(spec, builtin_agents())
    name, version = identity_of(candidate)
    if not callable(getattr(candidate, "run", None)):
        raise ProvebenchError(
            f"{candidate.__name__} has no run(task, call) method", field="--agent"
        )

    def factory() -> DiagnosisAgent:
        try:
            agent = candidate()
        except Exception as error:
            raise ProvebenchError(
                f"{candidate.__name__}() failed: {type(error).__name__}: {error}", field="--agent"
            ) from error
        if not isinstance(agent, DiagnosisAgent):
            raise ProvebenchError(f"{candidate.__name__} is not a diagnosis agent", field="--agent")
        return agent

    return LoadedDiagnosisAgent(spec=spec, name=name, version=version, factory=factory)


__all__ = ["LoadedDiagnosisAgent", "builtin_agents", "diagnosis_agents", "load_agent"]
