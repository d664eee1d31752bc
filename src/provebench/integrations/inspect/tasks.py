"""provebench's laboratories as Inspect AI tasks, its deterministic verdicts as Inspect scorers
(docs/inspect.md). This module is Inspect's `inspect_ai` entry point, so that

    inspect eval provebench/si_suite --model openai/gpt-4o-mini
    inspect eval provebench/call_import -T corpus=CORPUS --model ollama/llama3.1

run them. Needs the `inspect` extra: `pip install 'provebench[inspect]'`.
"""

from provebench.integrations.inspect._pilot import call_import, call_import_agent
from provebench.integrations.inspect._si import (
    provebench_si_agent,
    provebench_verdict,
    si_suite,
)

__all__ = [
    "call_import",
    "call_import_agent",
    "provebench_si_agent",
    "provebench_verdict",
    "si_suite",
]
