"""`--agent NAME | module:Class | path.py:Class`: the diagnosis agent a run should use."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from provebench._errors import ProvebenchError
from provebench._plugin import identity_of, resolve_class
from provebench.si.agents._protocol import DiagnosisAgent

_SCRIPTED = "provebench.si.agents._scripted"


def builtin_agents() -> dict[str, str]:
    """The scripted agents by name, as `module:Class` (docs/si-agents.md gives their bands)."""
    return {
        "diagnoser": f"{_SCRIPTED}:CorrectDiagnoser",
        "locus-only": f"{_SCRIPTED}:LocusOnlyAgent",
        "quotation-gamer": f"{_SCRIPTED}:QuotationGamer",
        "budget-exhauster": f"{_SCRIPTED}:BudgetExhauster",
        "decoy-chaser": f"{_SCRIPTED}:DecoyChaser",
        "noop": f"{_SCRIPTED}:NoOpAgent",
    }


@dataclass(frozen=True)
class LoadedDiagnosisAgent:
    """A diagnosis-agent class, instantiated afresh for every run (Execution §1: stateless)."""

    spec: str
    name: str
    version: str
    factory: Callable[[], DiagnosisAgent]


def load_agent(spec: str) -> LoadedDiagnosisAgent:
    """Resolve `spec` to a diagnosis-agent class; a one-line `ProvebenchError` when that fails."""
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


__all__ = ["LoadedDiagnosisAgent", "builtin_agents", "load_agent"]
