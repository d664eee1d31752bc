"""Why a verdict came out as it did, in a few sentences under the banner, in the order the
evaluator decides (docs/pilot-evaluator.md): a configuration error, then critical violations,
stopping conditions, the laboratory gate (the published scorer, the §12 probe and self-checks),
metric shortfalls, and the escrow. Each sentence links to the section that proves it.

Nothing is judged here: every sentence restates fields of the verdict, so a reader who follows
the link finds the same facts in full.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, Final

_MAX_NAMED: Final = 8


def _listed(items: Sequence[object], limit: int = _MAX_NAMED) -> str:
    shown = ", ".join(str(item) for item in items[:limit])
    return shown if len(items) <= limit else f"{shown} and {len(items) - limit} more"


def number(value: object) -> str:
    """A figure as a reader wants it: at most four significant digits."""
    if isinstance(value, float) and not value.is_integer():
        return f"{value:.4g}"
    return str(value)


def _reason(text: str, anchor: str) -> dict[str, str]:
    return {"text": text, "anchor": anchor}


def pilot_reasons(verdict: Mapping[str, Any]) -> list[dict[str, str]]:
    """The decisive causes of a pilot verdict, or what a passing one verified and still lacks."""
    if verdict["status"] != "evaluated":
        errors = verdict["configuration_errors"]
        first = errors[0] if errors else {}
        said = first.get("message", "") if isinstance(first, Mapping) else ""
        return [
            _reason(
                f"The evaluation stopped at its inputs: {len(errors)} configuration error(s)"
                + (f", first: {said}" if said else "")
                + ".",
                "config",
            )
        ]
    reasons: list[dict[str, str]] = []
    violations = verdict["critical_violations"]
    if violations:
        kinds = Counter(v["kind"] for v in violations)
        named = _listed([f"{kind} ×{count}" for kind, count in kinds.most_common()])
        reasons.append(_reason(f"{len(violations)} critical violation(s): {named}.", "violations"))
    triggered = [s for s in verdict["stopping_conditions"] if s.get("status") == "triggered"]
    for stop in triggered:
        reasons.append(
            _reason(f"Stopping condition {stop.get('name')}: {stop.get('reason', '')}", "stops")
        )
    if not verdict["scorer_pass"]:
        reasons.append(_reason("The final register fails the published scorer.", "final-state"))
    missing = verdict.get("self_check_missing_cycles") or []
    if missing:
        reasons.append(
            _reason(f"No §12 final-status probe in cycle(s) {_listed(missing)}.", "probes")
        )
    gaps = verdict.get("self_check_gaps") or []
    if gaps:
        checks = sorted({str(g.get("check")) for g in gaps if isinstance(g, Mapping)})
        reasons.append(
            _reason(
                f"{len(gaps)} required §12 self-check(s) not performed by what the log shows, "
                f"or not reported ({_listed(checks)}).",
                "probes",
            )
        )
    faults = verdict.get("faults")
    faults = faults if isinstance(faults, Mapping) else {}
    unexercised = faults.get("unexercised")
    if isinstance(unexercised, int) and unexercised:
        reasons.append(
            _reason(
                f"{unexercised} of the corpus's {faults.get('scheduled')} scheduled fault(s) "
                "never met the work they are bound to.",
                "probes",
            )
        )
    metrics = verdict["metrics"] or {"overall": {}}
    short = [
        f"{name} {number(m['value'])} ({m['numerator']}/{m['denominator']})"
        for name, m in metrics["overall"].items()
        if m["value"] < 1
    ]
    if short:
        reasons.append(_reason(f"Metrics below 1: {_listed(short, 8)}.", "metrics"))
    if verdict["laboratory_pass"]:
        reasons.append(
            _reason(
                "Verified from the log and the corpus: all eight metrics 1.0, no critical "
                "violation, no stopping condition, the §12 probe and self-checks in every cycle.",
                "metrics",
            )
        )
        pending = [
            str(c.get("check"))
            for c in verdict.get("external_checks") or []
            if isinstance(c, Mapping) and c.get("outcome") is None
        ]
        if verdict["pilot_pass"] is None:
            reasons.append(
                _reason(
                    "pilot_pass is pending: "
                    + (f"external checks without an outcome: {_listed(pending)}." if pending
                       else "its external evidence is not attached."),
                    "external",
                )
            )  # fmt: skip
    escrow = verdict["escrow"]
    if isinstance(escrow, Mapping) and "released_total" in escrow:
        tranches = escrow.get("tranches")
        held = [
            t
            for t in (tranches if isinstance(tranches, list) else [])
            if isinstance(t, Mapping) and not t.get("released")
        ]
        why = f" ({held[0].get('name')}: {held[0].get('reason')})" if held else ""
        reasons.append(
            _reason(f"Escrow released {number(escrow['released_total'])} of 1{why}.", "escrow")
        )
    return reasons


def si_reasons(verdict: Mapping[str, Any]) -> list[dict[str, str]]:
    """The decisive row of an SI decision table: the first whose predicate held (SI §5)."""
    row = verdict["matched_row"]
    return [
        _reason(
            f"Row {row['id']} of the decision table matched first: {row['predicate']} "
            f"→ {row['band']} ({number(row['score'])}).",
            "decision",
        )
    ]


__all__ = ["number", "pilot_reasons", "si_reasons"]
