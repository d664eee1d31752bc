"""The matrix summary: per agent, the verdict counts, each metric's distribution, pass^k for
k = 1 … n, what the kind adds (the SI safety gate per trial, the pilot's escrow), and the jobs
that failed with their reason (docs/matrix.md).

A harness fault is never left out of an agent's figures (red team round 14, H4): a worker that
reported each failing job as a fault, or a process that made each failing job's rename fail,
had pass^k computed over the passes alone. A job that did not show a pass is not a pass: an
agent with any harness fault is `complete: false`, its pass^k counts each fault as a failure —
a lower bound, which turning failures into faults can never raise — and it is not a sealed
result (`sealed: false` where the kind says sealed).

Built from the results sorted by job key, with exact or order-free arithmetic (`math.fsum`,
sorted medians, `Fraction` pass^k), and nothing about where or when jobs ran: the same matrix
gives the same bytes whatever the backend, the worker count and the completion order.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from provebench.matrix._jobs import JobResult, JobSpec
from provebench.matrix._passk import pass_hat_curve

SUMMARY_FORMAT = "provebench.matrix-summary/1"
# (the agent's done results, their specs) → the kind's own section of an agent's summary
KindSection = Callable[[list[tuple[JobSpec, dict[str, Any]]]], dict[str, Any]]


def distribution(values: Sequence[float]) -> dict[str, float | int]:
    """count, min, mean, median, max of `values` (order-free)."""
    ordered = sorted(values)
    count = len(ordered)
    if not count:
        return {"count": 0}
    middle = count // 2
    median = ordered[middle] if count % 2 else (ordered[middle - 1] + ordered[middle]) / 2
    return {
        "count": count,
        "min": ordered[0],
        "mean": math.fsum(ordered) / count,
        "median": median,
        "max": ordered[-1],
    }


def summarize(
    kind: str,
    request: Mapping[str, Any],
    specs: Sequence[JobSpec],
    results: Mapping[str, JobResult],
    task_of: Callable[[JobSpec], str],
    kind_section: KindSection,
) -> dict[str, Any]:
    agents: list[dict[str, Any]] = []
    faults: list[dict[str, str]] = []
    for agent in dict.fromkeys(spec.agent for spec in specs):
        mine = sorted((s for s in specs if s.agent == agent), key=lambda s: s.key)
        done: list[tuple[JobSpec, dict[str, Any]]] = []
        for spec in mine:
            result = results[spec.key]
            if result.status == "done":
                done.append((spec, result.outcome))
            else:
                faults.append({"key": spec.key, "agent": agent, "reason": result.reason})
        # Every job of the agent is a trial of its task; only a verified pass is a success.
        passed = {spec.key: bool(outcome.get("success")) for spec, outcome in done}
        tasks: dict[str, list[bool]] = {}
        for spec in mine:
            tasks.setdefault(task_of(spec), []).append(passed.get(spec.key, False))
        complete = len(done) == len(mine)
        section = kind_section(done)
        if not complete and "sealed" in section:
            section = {**section, "sealed": False}
        metric_names = sorted({name for _, o in done for name in o.get("metrics", {})})
        agents.append(
            {
                "agent": agent,
                "jobs": len(mine),
                "done": len(done),
                "harness_faults": len(mine) - len(done),
                "complete": complete,
                "successes": sum(bool(o.get("success")) for _, o in done),
                "failures": sum(not o.get("success") for _, o in done),
                "tasks": len(tasks),
                "pass_hat_k": pass_hat_curve(
                    [(sum(flags), len(flags)) for _, flags in sorted(tasks.items())]
                ),
                "metrics": {
                    name: distribution(
                        [o["metrics"][name] for _, o in done if name in o.get("metrics", {})]
                    )
                    for name in metric_names
                },
                **section,
            }
        )
    return {
        "format": SUMMARY_FORMAT,
        "kind": kind,
        "request": dict(request),
        "jobs": len(specs),
        "agents": agents,
        "harness_faults": sorted(faults, key=lambda f: f["key"]),
    }


def incomplete_mark(agent: Mapping[str, Any]) -> str:
    """What a command or report leads an agent's line with when a job of it has no verdict
    (red team round 14, H4): its figures are then a lower bound. A summary that does not say
    `complete` (an earlier release's) is judged by its harness faults."""
    faults = agent.get("harness_faults")
    if agent.get("complete") is False or (isinstance(faults, int) and faults > 0):
        return (
            f" INCOMPLETE ({faults} harness fault(s), each counted a failure: a lower bound, "
            "not a sealed result):"
        )
    return ""


__all__ = ["SUMMARY_FORMAT", "KindSection", "distribution", "incomplete_mark", "summarize"]
