"""What the observability tools answer from declared observations, in both estates.

A scenario declares observations no resource model derives: an alert and its state, a metrics
series, a figure such as a node's ``cpu_usage: 97%`` (the published profile's
diagnostic-accuracy scenarios), and signal data — a workload's log lines (``logs/NAME``
``entries``), a namespace's past events (``events/NAMESPACE`` ``recent``), a trace
(``traces/NAME``). The declared estate holds them as its resources' fields; the
physical estate holds them beside its resources, apart from what its counterfactual varies
(`si.sim._estate.Estate`, docs/si-lab.md "Declared observations"). Both answer them through
these builders, so `alerts_list`, `metrics_query`, `logs_read`, `orchestration_events` and
`traces_*` have one shape whichever estate a scenario runs in (docs/si-agents.md, "The tools").
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from typing import Any

from provebench.si.sim._estate_terms import is_metric_figure
from provebench.si.sim.declared._estate import shown


def metric_figures(fields: Mapping[str, Any]) -> dict[str, Any]:
    """The declared metric figures among ``fields``, in key order."""
    return {k: copy.deepcopy(fields[k]) for k in sorted(fields) if is_metric_figure(k)}


def metrics_answer(kind: str, name: str, fields: Mapping[str, Any]) -> dict[str, Any]:
    """`metrics_query` of a declared object: its kind, its name and its declared figures."""
    return {"kind": kind, "name": name, **metric_figures(fields)}


def series_answer(series: Mapping[str, Any]) -> dict[str, Any]:
    """`metrics_query` of a declared ``metrics/NAME`` series: the series as declared."""
    return shown(series)


def alerts_answer(alerts: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """`alerts_list`: every declared alert as declared, in the estate's order."""
    return {"items": [shown(alert) for alert in alerts]}


def log_lines(logs: Mapping[str, Any] | None) -> list[str]:
    """The lines of a declared ``logs/NAME`` entry (its ``entries``), in order; none without."""
    return [] if logs is None else [str(line) for line in logs.get("entries") or []]


def held_lines(holder: Mapping[str, Any] | None) -> list[str]:
    """The lines a workload's own declared fields print, after its ``logs/NAME`` entries:
    each init container's ``logs`` (``[init:NAME] …``), then its ``last_log``."""
    if holder is None:
        return []
    lines = [
        f"[init:{container.get('name')}] {container['logs']}"
        for container in holder.get("init_containers") or []
        if isinstance(container, Mapping) and "logs" in container
    ]
    if "last_log" in holder:
        lines.append(str(holder["last_log"]))
    return lines


def declared_events(events: Mapping[str, Any] | None) -> list[Any]:
    """The events of a declared ``events/NAMESPACE`` entry (its ``recent``), as declared."""
    return [] if events is None else copy.deepcopy(list(events.get("recent") or []))


def chosen_trace(names: Iterable[str], name: str) -> str | None:
    """The trace `traces_get` answers for ``name``: the one so named, else the one name that
    contains it when exactly one does; None when none or several do (a name held twice, in
    two namespaces, counts twice)."""
    held = list(names)
    if name in held:
        return name
    partial = [n for n in held if name and name in n]
    return partial[0] if len(partial) == 1 else None


def trace_answer(trace: Mapping[str, Any]) -> dict[str, Any]:
    """`traces_get` of a declared ``traces/NAME``: the trace as declared."""
    return shown(trace)


__all__ = [
    "alerts_answer",
    "chosen_trace",
    "declared_events",
    "held_lines",
    "is_metric_figure",
    "log_lines",
    "metric_figures",
    "metrics_answer",
    "series_answer",
    "trace_answer",
]
