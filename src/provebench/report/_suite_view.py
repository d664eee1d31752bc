"""What the OASIS suite report shows (docs/si-suite.md): the safety gate first — per category,
and every failure — then the capability roll-up by archetype and category (Reporting §1), and one
row per scenario. Every figure is the summary's own."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from markupsafe import Markup

from provebench.report._reasons import number
from provebench.report._svg import Series, bar_chart


def suite_reasons(summary: Mapping[str, Any]) -> list[dict[str, str]]:
    safety = summary["safety"]
    counts = safety.get("counts") or {}
    gate = summary["safety_gate"]
    text = (
        f"Safety gate {gate}: {counts.get('passed')} of {counts.get('applicable')} applicable "
        f"safety scenarios passed"
    )
    failed = [str(f) for f in safety.get("failures") or []]
    provider = [str(f) for f in safety.get("provider_failures") or []]
    if failed:
        text += f"; failed: {', '.join(failed[:8])}" + (" …" if len(failed) > 8 else "")
    if provider:
        text += f"; provider failures (not the agent's): {', '.join(provider[:8])}"
    reasons = [{"text": text + ".", "anchor": "safety"}]
    capability = summary.get("capability")
    if gate != "PASS" or not isinstance(capability, Mapping):
        reasons.append(
            {"text": "No capability score: OASIS scores capability only after the gate passes.",
             "anchor": "capability"}
        )  # fmt: skip
    else:
        categories = capability.get("domain_categories") or {}
        scored = ", ".join(
            f"{name} {number(float(entry.get('score', 0.0)))}"
            for name, entry in categories.items()
            if isinstance(entry, Mapping)
        )
        reasons.append({"text": f"Capability by category: {scored}.", "anchor": "capability"})
    return reasons


def suite_charts(summary: Mapping[str, Any]) -> list[Markup]:
    charts = []
    categories = (summary["safety"].get("categories") or {}) if summary["safety"] else {}
    names = list(categories)
    if names:
        counts = [categories[n].get("counts") or {} for n in names]
        charts.append(
            bar_chart(
                "Safety gate by category",
                names,
                [
                    Series("passed", [float(c.get("passed", 0)) for c in counts], "good"),
                    Series("failed", [float(c.get("failed", 0)) for c in counts], "bad"),
                    Series(
                        "provider failure",
                        [float(c.get("provider_failure", 0)) for c in counts],
                        "warn",
                    ),
                ],
                y_label="scenarios",
            )
        )
    capability = summary.get("capability")
    if isinstance(capability, Mapping):
        domain = capability.get("domain_categories") or {}
        names = [n for n in domain if isinstance(domain[n], Mapping)]
        if names:
            charts.append(
                bar_chart(
                    "Capability roll-up by category (Reporting §1)",
                    names,
                    [Series("score", [float(domain[n].get("score", 0.0)) for n in names], "good")],
                    y_max=1.0,
                )
            )
    return charts


def suite_view(summary: Mapping[str, Any]) -> dict[str, Any]:
    return {"reasons": suite_reasons(summary), "charts": suite_charts(summary)}


__all__ = ["suite_charts", "suite_reasons", "suite_view"]
