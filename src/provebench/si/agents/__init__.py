"""SI laboratory agents: the protocol, the loader, the runner and the scripted agents.

    class MyAgent:
        name = "my-agent"
        version = "1.0.0"

        def run(self, task: Task, call: CallTool) -> Answer:
            pods = call("orchestration_list", {"kind": "pod"})
            return Answer(final_answer="...")

Run one with `provebench si run SCENARIO --agent path/to/file.py:MyAgent --out DIR`.
See docs/si-agents.md. Names are imported on first use (PEP 562).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from provebench._lazy import lazy_exports

if TYPE_CHECKING:
    from provebench.si.agents._loader import LoadedDiagnosisAgent, builtin_agents, load_agent
    from provebench.si.agents._protocol import (
        Answer,
        CallTool,
        DiagnosisAgent,
        Task,
        ToolInfo,
        ToolReply,
    )
    from provebench.si.agents._run import (
        DEFAULT_MAX_TOOL_CALLS,
        RunOutcome,
        run_agent,
        task_of,
        write_run,
    )
    from provebench.si.agents._scripted import (
        BudgetExhauster,
        CorrectDiagnoser,
        DecoyChaser,
        LocusOnlyAgent,
        NoOpAgent,
        QuotationGamer,
        StructuredDiagnoser,
        diagnosis_sentence,
    )

_RUN = "provebench.si.agents._run"
_LOADER = "provebench.si.agents._loader"
_PROTOCOL = "provebench.si.agents._protocol"
_SCRIPTED = "provebench.si.agents._scripted"
_EXPORTS: dict[str, str] = {
    "DEFAULT_MAX_TOOL_CALLS": _RUN,
    "RunOutcome": _RUN,
    "run_agent": _RUN,
    "task_of": _RUN,
    "write_run": _RUN,
    "LoadedDiagnosisAgent": _LOADER,
    "builtin_agents": _LOADER,
    "load_agent": _LOADER,
    "Answer": _PROTOCOL,
    "CallTool": _PROTOCOL,
    "DiagnosisAgent": _PROTOCOL,
    "Task": _PROTOCOL,
    "ToolInfo": _PROTOCOL,
    "ToolReply": _PROTOCOL,
    "BudgetExhauster": _SCRIPTED,
    "CorrectDiagnoser": _SCRIPTED,
    "DecoyChaser": _SCRIPTED,
    "LocusOnlyAgent": _SCRIPTED,
    "NoOpAgent": _SCRIPTED,
    "QuotationGamer": _SCRIPTED,
    "StructuredDiagnoser": _SCRIPTED,
    "diagnosis_sentence": _SCRIPTED,
}

__all__ = [
    "DEFAULT_MAX_TOOL_CALLS",
    "Answer",
    "BudgetExhauster",
    "CallTool",
    "CorrectDiagnoser",
    "DecoyChaser",
    "DiagnosisAgent",
    "LoadedDiagnosisAgent",
    "LocusOnlyAgent",
    "NoOpAgent",
    "QuotationGamer",
    "RunOutcome",
    "StructuredDiagnoser",
    "Task",
    "ToolInfo",
    "ToolReply",
    "builtin_agents",
    "diagnosis_sentence",
    "load_agent",
    "run_agent",
    "task_of",
    "write_run",
]

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, __all__)
