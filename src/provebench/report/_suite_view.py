"""What the OASIS suite report shows (docs/si-suite.md): the safety gate first — per category,
and every failure — then the capability roll-up by archetype and category (Reporting §1), and one
row per scenario. Every figure is the summary's own."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from markupsafe import Markup

from provebench.report._reasons import UNSEALED_REASON, number
from provebench.report._svg import Series, bar_chart


def suite_reasons(summary: Mapping[str, Any]) -> list[dict[str, str]]:
    # The fields read here are checked by `detect_kind` (report/_kind.py) before any rendering.
    safety, gate = summary["safety"], summary["safety_gate"]
    counts = safety["counts"]
    text = (
        f"Safety gate {gate}: {counts['passed']} of {counts['applicable']} applicable "
        f"safety scenarios passed"
    )
    failed = [str(f) for f in safety["failures"]]
    provider = [str(f) for f in safety["provider_failures"]]
    if failed:
        text += f"; failed: {', '.join(failed[:8])}" + (" …" if len(failed) > 8 else "")
    if provider:
        text += f"; provider failures (not the agent's): {', '.join(provider[:8])}"
    reasons = [{"text": text + ".", "anchor": "safety"}]
    if summary.get("resumed") is True:
        text = resumed_reason(summary.get("rerun"))
        redrawn = drawn_again(summary)
        if redrawn:
            # every draw is counted (SI red team 31, H3): which scenarios were drawn again
            text += f" Drawn more than once: {', '.join(redrawn[:8])}" + (
                " …" if len(redrawn) > 8 else "."
            )
        reasons.insert(0, {"text": text, "anchor": "safety"})
    elif summary.get("sealed") is not True:
        reasons.insert(0, {"text": UNSEALED_REASON, "anchor": "safety"})
    capability = summary["capability"]
    if gate != "PASS" or capability is None:
        reasons.append(
            {"text": "No capability score: OASIS scores capability only after the gate passes.",
             "anchor": "capability"}
        )  # fmt: skip
    else:
        scored = ", ".join(
            f"{name} {number(float(entry['score']))}"
            for name, entry in capability["domain_categories"].items()
        )
        reasons.append({"text": f"Capability by category: {scored}.", "anchor": "capability"})
    return reasons


def drawn_again(summary: Mapping[str, Any]) -> list[str]:
    """The scenarios a suite's folder drew more than once (`attempts`, docs/si-suite.md)."""
    attempts = summary.get("attempts")
    if not isinstance(attempts, Mapping):
        return []
    return [f"{name} ({count}×)" for name, count in attempts.items() if count != 1]


def resumed_reason(rerun: object) -> str:
    """The first line of a resumed suite's or matrix's report (red team round 13, H2, H3)."""
    count = len(rerun) if isinstance(rerun, list) else 0
    return (
        f"RESUMED: an earlier attempt was found in the folder; {count} ran again in this attempt. "
        "A failed one deleted between attempts is drawn again, so this is not a sealed result."
    )


def suite_charts(summary: Mapping[str, Any]) -> list[Markup]:
    charts = []
    categories = summary["safety"]["categories"]
    if categories:
        counts = [category["counts"] for category in categories.values()]
        charts.append(
            bar_chart(
                "Safety gate by category",
                list(categories),
                [
                    Series("passed", [float(c["passed"]) for c in counts], "good"),
                    Series("failed", [float(c["failed"]) for c in counts], "bad"),
                    Series("provider failure", [float(c["provider_failure"]) for c in counts],
                           "warn"),
                ],
                y_label="scenarios",
            )
        )  # fmt: skip
    capability = summary["capability"]
    domain = {} if capability is None else capability["domain_categories"]
    if domain:
        charts.append(
            bar_chart(
                "Capability roll-up by category (Reporting §1)",
                list(domain),
                [Series("score", [float(entry["score"]) for entry in domain.values()], "good")],
                y_max=1.0,
            )
        )
    return charts


def suite_view(summary: Mapping[str, Any]) -> dict[str, Any]:
    return {"reasons": suite_reasons(summary), "charts": suite_charts(summary)}


__all__ = ["suite_charts", "suite_reasons", "suite_view"]
