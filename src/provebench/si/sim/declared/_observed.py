"""What the observability tools answer from declared observations, in both estates.

A scenario declares observations no resource model derives: an alert and its state, a metrics
series, a figure such as a node's ``cpu_usage: 97%`` (the published profile's
diagnostic-accuracy scenarios). The declared estate holds them as its resources' fields; the
physical estate holds them beside its resources, apart from what its counterfactual varies
(`si.sim._estate.Estate`, docs/si-lab.md "Declared observations"). Both answer them through
these builders, so `alerts_list` and `metrics_query` have one shape whichever estate a
scenario runs in (docs/si-agents.md, "The tools").
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from typing import Any

from provebench.si.sim.declared._estate import shown


def is_metric_figure(field: str) -> bool:
    """Whether a declared field is a figure `metrics_query` answers (``cpu_usage``,
    ``memory_usage``, ``memory_pressure`` …): a usage, memory or CPU figure."""
    return "usage" in field or "memory" in field or "cpu" in field


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


__all__ = ["alerts_answer", "is_metric_figure", "metric_figures", "metrics_answer", "series_answer"]
