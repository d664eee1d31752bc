"""What each section of the report shows, taken from the verdict as it is.

Nothing here judges: headline values are the verdict's own fields, never a recomputed pass. The
view only chooses an order, gathers evidence references so they can be read in one table, and
collects every field the templates do not render specially so that it is shown in a generic table
instead of being dropped.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from markupsafe import Markup

from provebench.report._answer import answer_view
from provebench.report._reasons import pilot_reasons, si_reasons
from provebench.report._svg import Series, bar_chart

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
    "self_check_gaps",
    "self_checks",
    "faults",
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


def escrow_charts(escrow: Mapping[str, Any] | None) -> list[Markup]:
    """Escrow across the control sequence (pilot §13): per cycle, clean when its rows were
    confirmed, and still clean at the end (a later defect regrades an earlier cycle)."""
    cycles = (escrow or {}).get("cycles")
    if not isinstance(cycles, list) or not cycles:
        return []
    rows = [c for c in cycles if isinstance(c, Mapping) and "cycle" in c]
    released = (escrow or {}).get("released_total")
    share = f"; released {released:.4g} of 1" if isinstance(released, int | float) else ""
    return [
        bar_chart(
            f"Escrow: cycles judged clean{share}",
            [str(c["cycle"]) for c in rows],
            [
                Series(
                    "clean when confirmed",
                    [float(bool(c.get("clean_when_confirmed"))) for c in rows],
                    "good",
                ),
                Series(
                    "clean at the end", [float(bool(c.get("clean_final"))) for c in rows], "warn"
                ),
            ],
            y_max=1.0,
        )
    ]


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
        "reasons": pilot_reasons(verdict),
        "charts": [*pilot_charts(metrics["per_cycle"]), *escrow_charts(verdict["escrow"])],
    }


def _counts(cycle: Mapping[str, Any], name: str) -> tuple[float, float]:
    metric = cycle["metrics"].get(name)
    if not isinstance(metric, Mapping):
        return 0.0, 0.0
    return float(metric["numerator"]), float(metric["denominator"])


def pilot_charts(per_cycle: Sequence[Mapping[str, Any]]) -> list[Markup]:
    """Per cycle: completeness; duplicated and unexpected ids in the register; faults injected
    and recovered (docs/report.md says what each bar counts)."""
    if not per_cycle:
        return []
    cycles = [str(c["cycle"]) for c in per_cycle]
    completeness = [float(c["metrics"]["completeness"]["value"]) for c in per_cycle
                    if "completeness" in c["metrics"]]  # fmt: skip
    # A cycle with nothing due has a vacuous 1.0: drawn as "nothing due", not as a success.
    nothing_due = [bool(c["metrics"]["completeness"].get("vacuous")) for c in per_cycle
                   if "completeness" in c["metrics"]]  # fmt: skip
    duplicates = [d - n for n, d in (_counts(c, "uniqueness") for c in per_cycle)]
    unexpected = [d - n for n, d in (_counts(c, "precision") for c in per_cycle)]
    faults = [_counts(c, "recovery") for c in per_cycle]
    charts = []
    if len(completeness) == len(cycles):
        charts.append(
            bar_chart(
                "Completeness per cycle (files due, confirmed on time)",
                cycles,
                [Series("completeness", completeness, "good", nothing_due)],
                y_max=1.0,
            )
        )
    charts.append(
        bar_chart(
            "Register defects per cycle",
            cycles,
            [
                Series("duplicated ids", duplicates, "bad"),
                Series("unexpected ids", unexpected, "warn"),
            ],
            y_label="ids",
        )
    )
    charts.append(
        bar_chart(
            "Faults per cycle, and recovered",
            cycles,
            [
                Series("faults injected", [d for _, d in faults], "warn"),
                Series("recovered", [n for n, _ in faults], "good"),
            ],
            y_label="faults",
        )
    )
    return charts


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


def si_view(
    verdict: Mapping[str, Any], evidence: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    evaluations = [
        {
            "evaluation": evaluation,
            "references": evidence_references(evaluation["result"]),
            "rest": leftover(evaluation, ("row", "call", "arguments", "result")),
        }
        for evaluation in verdict["evaluations"]
    ]
    references = [ref for item in evaluations for ref in item["references"]]
    return {
        "evaluations": evaluations,
        "rest": leftover(verdict, SI_SPECIAL_FIELDS),
        "reasons": si_reasons(verdict),
        "answer": None if evidence is None else answer_view(verdict, evidence, references),
    }


__all__ = [
    "PILOT_SPECIAL_FIELDS",
    "SI_SPECIAL_FIELDS",
    "escrow_charts",
    "evidence_references",
    "leftover",
    "pilot_charts",
    "pilot_view",
    "si_view",
]
