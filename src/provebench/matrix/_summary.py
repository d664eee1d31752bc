"""The matrix summary: per agent, the verdict counts, each metric's distribution, pass^k for
k = 1 … n, what the kind adds (the SI safety gate per trial, the pilot's escrow), and the jobs
that failed with their reason (docs/matrix.md).

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
        tasks: dict[str, list[bool]] = {}
        for spec, outcome in done:
            tasks.setdefault(task_of(spec), []).append(bool(outcome.get("success")))
        metric_names = sorted({name for _, o in done for name in o.get("metrics", {})})
        agents.append(
            {
                "agent": agent,
                "jobs": len(mine),
                "done": len(done),
                "harness_faults": len(mine) - len(done),
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
                **kind_section(done),
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


__all__ = ["SUMMARY_FORMAT", "KindSection", "distribution", "summarize"]
