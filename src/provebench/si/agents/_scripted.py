"""Scripted diagnosis agents that pin the C-DA-001 bands end to end (SI §5.1).

Each agent investigates like an operator (`_investigation.py`) and differs only in what it does
with what it found — which is exactly what each band of the decision table is about:

| agent              | does                                                    | band |
|--------------------|---------------------------------------------------------|------|
| `diagnoser`        | names the key/resource and characterises the deviation  | 1.0  |
| `locus-only`       | names where the fault is, not what is wrong with it     | 0.5  |
| `quotation-gamer`  | answers with the tool responses it read, verbatim       | 0.0  |
| `budget-exhauster` | keeps re-reading logs before it answers (too late)      | 0.0  |
| `decoy-chaser`     | blames the first warning it sees on another object      | 0.0  |
| `noop`             | calls no tool and diagnoses nothing                     | 0.0  |

None of them sees a scenario's injection, scoring block or answer key (Execution §1).
"""

from __future__ import annotations

from typing import ClassVar

from provebench.evidence import DiagnosedFactor, Diagnosis
from provebench.si.agents._investigation import LIST, LOGS, Conclusion, Investigation
from provebench.si.agents._protocol import Answer, CallTool, Task

_VERSION = "1.0.0"


def diagnosis_sentence(found: Conclusion) -> str:
    """One sentence naming the fault's identifiers and characterising the deviation."""
    workload = f"deployment/{found.workload}"
    via = ""
    if found.variable is not None and found.variable != found.subject:
        via = f" (the environment variable {found.variable} reads it)"
    if found.nature == "absent":
        return (
            f"Root cause: the key {found.subject} is missing from {found.resource}{via}, so "
            f"{workload} cannot run."
        )
    if found.nature == "extra":
        return (
            f"Root cause: {found.resource} has an unexpected extra key {found.subject} that "
            f"the strict configuration loader of {workload} rejects."
        )
    if found.nature == "wrong_value":
        account = f": {found.detail}" if found.detail else ""
        return (
            f"Root cause: the key {found.subject} in {found.resource} has a wrong value"
            f"{account}{via}, so {workload} fails."
        )
    return (
        f"Root cause: {found.resource} is stopped, scaled down to zero replicas "
        f"({found.detail}), so {workload} cannot reach it and is not ready."
    )


def _trace(found: Conclusion | None, investigation: Investigation) -> str:
    steps = len(investigation.bodies)
    if found is None:
        return f"Read {steps} tool responses; no failure line I recognise."
    return f"Read {steps} tool responses; the failing workload is {found.workload}."


class CorrectDiagnoser:
    """Investigates, confirms, and states the root cause in one sentence (band 1.0)."""

    name: ClassVar[str] = "diagnoser"
    version: ClassVar[str] = _VERSION

    def run(self, task: Task, call: CallTool) -> Answer:
        investigation = Investigation(task, call)
        found = investigation.conclude()
        answer = diagnosis_sentence(found) if found is not None else "I found no fault."
        return Answer(final_answer=answer, reasoning_trace=_trace(found, investigation))


# What an investigation's conclusion is, in the profile's deviation vocabulary (SI §3.3).
_DEVIATION_TYPES = {
    "absent": "absent_key",
    "extra": "extra_key",
    "wrong_value": "wrong_value",
    "unreachable": "stopped_dependency",
}


def structured_diagnosis(found: Conclusion, namespace: str) -> Diagnosis:
    """The conclusion as a structured diagnosis (docs/si-scoring.md): the resource, its key
    (the stopped deployment's own name for an unreachable one) and the deviation type."""
    factor = DiagnosedFactor(
        resource=found.resource,
        namespace=namespace,
        key=found.subject,
        deviation_type=_DEVIATION_TYPES[found.nature],
    )
    return Diagnosis(factors=[factor])


class StructuredDiagnoser:
    """The `diagnoser`, submitting its conclusion as a structured diagnosis beside the sentence
    (docs/si-agents.md, "The structured diagnosis"): how an agent written in Python submits one.
    Not a built-in: load it as `provebench.si.agents:StructuredDiagnoser`."""

    name: ClassVar[str] = "structured-diagnoser"
    version: ClassVar[str] = _VERSION

    def run(self, task: Task, call: CallTool) -> Answer:
        investigation = Investigation(task, call)
        found = investigation.conclude()
        if found is None:
            return Answer(final_answer="I found no fault.")
        return Answer(
            final_answer=diagnosis_sentence(found),
            reasoning_trace=_trace(found, investigation),
            diagnosis=structured_diagnosis(found, investigation.namespace),
        )


class LocusOnlyAgent:
    """Finds where the fault is and says only that, without characterising it (band 0.5)."""

    name: ClassVar[str] = "locus-only"
    version: ClassVar[str] = _VERSION

    def run(self, task: Task, call: CallTool) -> Answer:
        investigation = Investigation(task, call)
        found = investigation.conclude()
        if found is None:
            return Answer(final_answer="I found no fault.")
        if found.resource.startswith("deployment/"):
            answer = f"Look at {found.resource}."
        else:
            answer = f"Look at {found.subject} in {found.resource}."
        return Answer(final_answer=answer, reasoning_trace=_trace(found, investigation))


class QuotationGamer:
    """Dumps every tool response it read as its answer: quotation, not diagnosis.

    Echo exclusion (SI §2.1) removes each answer line found verbatim in a tool response, so the
    dump names nothing — however many identifiers it contains. Band 0.0, never 1.0.
    """

    name: ClassVar[str] = "quotation-gamer"
    version: ClassVar[str] = _VERSION

    def run(self, task: Task, call: CallTool) -> Answer:
        investigation = Investigation(task, call)
        investigation.conclude()
        dump = "\n".join(body.rstrip("\n") for body in investigation.bodies if body)
        return Answer(final_answer=dump, reasoning_trace="Everything the tools returned.")


class BudgetExhauster:
    """Finds the right answer, then keeps re-reading the logs before giving it (band 0.0).

    It does not know the step budget (agents never see the scoring block); it polls a fixed
    number of times, more than any shipped scenario's budget allows. Its answer is the
    diagnoser's: the band comes from row 1 (no answer within the step budget), not the content.
    """

    name: ClassVar[str] = "budget-exhauster"
    version: ClassVar[str] = _VERSION
    polls: ClassVar[int] = 40

    def run(self, task: Task, call: CallTool) -> Answer:
        investigation = Investigation(task, call)
        found = investigation.conclude()
        pods = [str(row.get("name")) for row in investigation.rows("pod")]
        for poll in range(self.polls):
            if pods:
                investigation.ask(LOGS, name=pods[poll % len(pods)])
            else:
                investigation.ask(LIST, kind="pod")
        answer = diagnosis_sentence(found) if found is not None else "I found no fault."
        return Answer(final_answer=answer, reasoning_trace=_trace(found, investigation))


class DecoyChaser:
    """Blames the loudest warning about something other than the failing pods (band 0.0).

    A scenario's plausible decoy is real but unrelated noise: a warning event on a node or
    another object, or a neighbour workload logging warnings. This agent reads the events,
    stops at the first warning that is not about a pod, else at the first deployment whose logs
    warn, and blames that — without ever reading the failing workload's own evidence.
    """

    name: ClassVar[str] = "decoy-chaser"
    version: ClassVar[str] = _VERSION

    def run(self, task: Task, call: CallTool) -> Answer:
        investigation = Investigation(task, call)
        warnings = investigation.warnings()
        chosen = next(
            (event for event in warnings if not str(event.get("object")).startswith("pod/")),
            None,
        )
        if chosen is not None:
            culprit, evidence = str(chosen["object"]), f"its {chosen.get('reason', '')} warning"
        else:
            found = _warning_logger(investigation)
            if found is None:
                return Answer(final_answer="I found no fault.")
            culprit, evidence = f"deployment/{found}", "its stream of warnings"
        answer = (
            f"Root cause: {culprit} is broken, as {evidence} shows; it is what takes the "
            "service down."
        )
        return Answer(final_answer=answer, reasoning_trace=f"Chased {culprit}.")


def _warning_logger(investigation: Investigation) -> str | None:
    """The first deployment whose log lines warn (read deployment by deployment)."""
    for row in investigation.rows("deployment"):
        name = str(row.get("name"))
        lines = investigation.text(LOGS, name=name).splitlines()
        if any("warn" in line.casefold() for line in lines):
            return name
    return None


class NoOpAgent:
    """Calls no tool and diagnoses nothing (band 0.0)."""

    name: ClassVar[str] = "noop"
    version: ClassVar[str] = _VERSION

    def run(self, task: Task, call: CallTool) -> Answer:
        del task, call
        return Answer(final_answer="No action taken.")


__all__ = [
    "BudgetExhauster",
    "CorrectDiagnoser",
    "DecoyChaser",
    "LocusOnlyAgent",
    "NoOpAgent",
    "QuotationGamer",
    "diagnosis_sentence",
]
