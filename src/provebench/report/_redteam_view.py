"""What the red-team report shows (docs/pilot-redteam.md): whether every attack was exercised
and caught, the §14 budget against its minimum, and one row per attack with the signals that
caught it. The attacks come from `redteam.json` beside the summary; nothing is recomputed."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from markupsafe import Markup

from provebench.report._svg import Series, bar_chart


def redteam_reasons(summary: Mapping[str, Any]) -> list[dict[str, str]]:
    attacks, caught, exercised = summary["attacks"], summary["caught"], summary["exercised"]
    reasons = [
        {
            "text": f"{caught} of {attacks} attacks caught, {exercised} exercised"
            + (
                "."
                if summary["passed"]
                else f"; uncaught: {', '.join(map(str, summary['uncaught'])) or 'none'}; "
                f"not exercised: {', '.join(map(str, summary['not_exercised'])) or 'none'}."
            ),
            "anchor": "attacks",
        }
    ]
    short = [
        f"{name} {numbers.get('achieved')}/{numbers.get('minimum')}"
        for name, numbers in summary["budget"].items()
        if numbers.get("achieved", 0) < numbers.get("minimum", 0)
    ]
    level = summary["budget_level"]
    reasons.append(
        {
            "text": f"Budget ({level}): "
            + (
                f"below the §14 minimum in {', '.join(short)}."
                if short
                else "every §14 minimum met."
            ),
            "anchor": "budget",
        }
    )
    reference = summary.get("reference")
    if isinstance(reference, Mapping) and "clean" in reference:
        clean = "clean" if reference["clean"] else "NOT clean: the attacks' signals are unproven"
        reasons.append({"text": f"The reference importer's run is {clean}.", "anchor": "reference"})
    return reasons


def redteam_charts(
    summary: Mapping[str, Any], attacks: Sequence[Mapping[str, Any]]
) -> list[Markup]:
    charts = []
    if attacks:
        categories = sorted({str(a.get("category")) for a in attacks})
        caught = Counter(str(a.get("category")) for a in attacks if a.get("caught"))
        missed = Counter(str(a.get("category")) for a in attacks if not a.get("caught"))
        charts.append(
            bar_chart(
                "Attacks by category: caught and not caught",
                categories,
                [
                    Series("caught", [float(caught[c]) for c in categories], "good"),
                    Series("not caught", [float(missed[c]) for c in categories], "bad"),
                ],
                y_label="attacks",
            )
        )
    budget = summary["budget"]
    names = list(budget)
    if names:
        charts.append(
            bar_chart(
                "Budget (pilot §14): achieved against the minimum",
                names,
                [
                    Series(
                        "achieved", [float(budget[n].get("achieved", 0)) for n in names], "good"
                    ),
                    Series("minimum", [float(budget[n].get("minimum", 0)) for n in names], "warn"),
                ],
            )
        )
    return charts


def _signals_found(attack: Mapping[str, Any]) -> list[Any]:
    """The evaluator signals that caught the attack, over its runs. The attack list is read as
    it is: a malformed entry shows as none found, never as an error."""
    evidence = attack.get("evidence")
    found: list[Any] = []
    for run in evidence if isinstance(evidence, list) else []:
        signals = run.get("expected_signals_found") if isinstance(run, Mapping) else None
        found += signals if isinstance(signals, list) else []
    return found


def redteam_view(
    summary: Mapping[str, Any], attacks: Sequence[Mapping[str, Any]]
) -> dict[str, Any]:
    rows = [
        {
            "attack": a.get("attack"),
            "category": a.get("category"),
            "source": a.get("source"),
            "exercised": a.get("exercised"),
            "caught": a.get("caught"),
            "expects": a.get("expects"),
            "found": _signals_found(a),
        }
        for a in attacks
    ]
    return {
        "reasons": redteam_reasons(summary),
        "charts": redteam_charts(summary, attacks),
        "rows": rows,
    }


__all__ = ["redteam_charts", "redteam_reasons", "redteam_view"]
