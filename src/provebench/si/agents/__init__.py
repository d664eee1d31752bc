"""Diagnosis agents for the SI laboratory: the protocol, the loader, the scripted agents.

    class MyAgent:
        name = "my-agent"
        version = "1.0.0"

        def run(self, task: Task, call: CallTool) -> Answer:
            pods = call("orchestration_list", {"kind": "pod"})
            return Answer(final_answer="...")

Run one with `provebench si run SCENARIO --agent path/to/file.py:MyAgent --out DIR`.
See docs/si-agents.md.
"""

from provebench.si.agents._loader import LoadedDiagnosisAgent, builtin_agents, load_agent
from provebench.si.agents._protocol import (
    Answer,
    CallTool,
    DiagnosisAgent,
    Task,
    ToolInfo,
    ToolReply,
)
from provebench.si.agents._scripted import (
    BudgetExhauster,
    CorrectDiagnoser,
    DecoyChaser,
    LocusOnlyAgent,
    NoOpAgent,
    QuotationGamer,
    diagnosis_sentence,
)

__all__ = [
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
    "Task",
    "ToolInfo",
    "ToolReply",
    "builtin_agents",
    "diagnosis_sentence",
    "load_agent",
]
