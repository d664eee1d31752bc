"""What each section of the report shows, taken from the verdict as it is.

Nothing here judges: headline values are the verdict's own fields, never a recomputed pass. The
view only chooses an order, gathers evidence references so they can be read in one table, and
collects every field the templates do not render specially so that it is shown in a generic table
instead of being dropped.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

PILOT_SPECIAL_FIELDS: Final = (
    "format",
    "evaluator_version",
    "status",
    "scorer_pass",
    "laboratory_pass",
    "pilot_pass",
    "critical_violation_count",
    "perf_shadow",
    "perf_shadow_final_state",
    "configuration_errors",
    "metrics",
    "critical_violations",
    "stopping_conditions",
    "self_check_probes",
    "self_check_missing_cycles",
    "reconciliation",
    "escrow",
    "external_checks",
    "final_state",
    "result_evidence",
    "non_scoring",
)
_PILOT_HEADLINE_FIELDS: Final = PILOT_SPECIAL_FIELDS[:9]
_PILOT_METRICS_FIELDS: Final = ("overall", "per_cycle", "shortfalls")

SI_SPECIAL_FIELDS: Final = (
    "band",
    "score",
    "scenario",
    "matched_row",
    "evaluations",
    "non_scoring",
    "versions",
    "inputs",
)


def leftover(mapping: Mapping[str, Any], shown: Sequence[str]) -> dict[str, Any]:
    """The fields of `mapping` not in `shown`, in the verdict's order."""
    return {key: value for key, value in mapping.items() if key not in shown}


def _metric_columns(
    per_cycle: Sequence[Mapping[str, Any]], overall: Mapping[str, Any]
) -> list[str]:
    columns = list(overall)
    for cycle in per_cycle:
        columns.extend(name for name in cycle["metrics"] if name not in columns)
    return columns


def pilot_view(verdict: Mapping[str, Any]) -> dict[str, Any]:
    # Both are null in a configuration_error verdict that got no further than its inputs.
    metrics = verdict["metrics"] or {"overall": {}, "per_cycle": [], "shortfalls": {}}
    result_evidence = verdict["result_evidence"] or {"inputs_sha256": {}}
    return {
        "headline": {name: verdict[name] for name in _PILOT_HEADLINE_FIELDS if name in verdict},
        "metric_columns": _metric_columns(metrics["per_cycle"], metrics["overall"]),
        "metrics_rest": leftover(metrics, _PILOT_METRICS_FIELDS),
        # The evaluator writes them sorted; sorting again keeps the report stable for any producer.
        "inputs_sha256": sorted(result_evidence["inputs_sha256"].items()),
        "result_evidence_rest": leftover(result_evidence, ("inputs_sha256",)),
        "rest": leftover(verdict, PILOT_SPECIAL_FIELDS),
    }


def evidence_references(value: Any, path: str = "result") -> list[dict[str, Any]]:
    """Every text location a primitive result cites (a match or an excluded echo line).

    Locations are the objects with `channel` and `line` (SI §3.1 match locations, SI §2.1 excluded
    lines), listed in the order the result gives them, each with where it sits in the result.
    """
    found: list[dict[str, Any]] = []
    if isinstance(value, Mapping):
        if "channel" in value and "line" in value and not isinstance(value["channel"], list):
            found.append({"at": path, **value})
            return found
        for key, item in value.items():
            found.extend(evidence_references(item, f"{path}.{key}"))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found.extend(evidence_references(item, f"{path}[{index}]"))
    return found


def si_view(verdict: Mapping[str, Any]) -> dict[str, Any]:
    evaluations = [
        {
            "evaluation": evaluation,
            "references": evidence_references(evaluation["result"]),
            "rest": leftover(evaluation, ("row", "call", "arguments", "result")),
        }
        for evaluation in verdict["evaluations"]
    ]
    return {
        "evaluations": evaluations,
        "rest": leftover(verdict, SI_SPECIAL_FIELDS),
    }


__all__ = [
    "PILOT_SPECIAL_FIELDS",
    "SI_SPECIAL_FIELDS",
    "evidence_references",
    "leftover",
    "pilot_view",
    "si_view",
]
