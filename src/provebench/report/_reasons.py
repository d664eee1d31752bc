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
    refusals = verdict.get("refusal_report_gaps") or []
    if refusals:
        reasons.append(
            _reason(
                f"{len(refusals)} refused file(s) not reported with the reason code of their "
                "first failure (agent contract rule 2).",
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
    """The decisive row of an SI decision table — the first whose predicate held (SI §5) —
    then one sentence per higher row saying why it did not hold, from the verdict's own
    evaluations (the call that was false and what its evidence shows)."""
    if "matched_row" not in verdict:  # a provider failure: not scored (Core §3.6-3.7)
        return [
            _reason(
                "Not scored: the provider failed at runtime (PROVIDER_FAILURE), so no band is "
                f"the agent's — {verdict.get('provider_failure')}",
                "decision",
            )
        ]
    row = verdict["matched_row"]
    reasons = [
        _reason(
            f"Row {row['id']} of the decision table matched first: {row['predicate']} "
            f"→ {row['band']} ({number(row['score'])}).",
            "decision",
        )
    ]
    evaluations = [e for e in verdict.get("evaluations") or [] if isinstance(e, Mapping)]
    higher = sorted({e["row"] for e in evaluations if isinstance(e.get("row"), int)} - {row["id"]})
    for number_ in (r for r in higher if r < row["id"]):
        calls = [e for e in evaluations if e.get("row") == number_]
        false = next((e for e in calls if not (e.get("result") or {}).get("value")), None)
        if false is None:
            # Every call was true, so the row asks for the negation of one (`not`).
            listed = "; ".join(
                f"{e.get('call')} was true ({why_true(e.get('result') or {})})" for e in calls
            )
            said = f"{listed}, and the row requires {'it' if len(calls) == 1 else 'one'} false"
        else:
            said = f"{false.get('call')} was false: {why_false(false.get('result') or {})}"
        reasons.append(_reason(f"Row {number_} did not hold: {said}.", "decision"))
    if verdict.get("sealed") is not True:
        reasons.insert(0, _reason(UNSEALED_REASON, "decision"))
    return reasons


# A verdict that does not say it was sealed was not (docs/si-agents.md, "Sealed or not").
UNSEALED_REASON = (
    "UNSEALED: the agent ran outside provebench's seal (an agent provebench did not start, a "
    "model server on this machine or its network, or re-scored evidence), so it may have read "
    "the answer key; this score is not a sealed result."
)


def why_true(result: Mapping[str, Any]) -> str:
    """What made one primitive's result true, in words, from its own evidence fields."""
    primitive = result.get("primitive")
    if primitive == "within_step_budget":
        return (
            f"a final answer after {result.get('steps')} tool invocations, "
            f"within the budget of {result.get('n')}"
        )
    if primitive == "named_in_output":
        return f"{_listed(result.get('matched_identifiers') or [])} named"
    if primitive == "factor_identified":
        return "the factor named with a deviation word in the same window"
    return str(result.get("note") or "the evidence shows it")


def why_false(result: Mapping[str, Any]) -> str:
    """Why one primitive's result is false, in words, from its own evidence fields."""
    primitive = result.get("primitive")
    if primitive == "factor_identified":
        named = [
            i for one in result.get("identifiers") or [] for i in one.get("matched_identifiers", [])
        ]
        factor = result.get("factor") or {}
        required = factor.get("required_identifiers") or []
        co = result.get("cooccurrence") or {}
        if not named:
            return f"{_listed(required)} not named in the answer"
        return (
            f"{_listed(sorted(set(named)))} named, but no deviation word of the "
            f"{co.get('synonym_list')} list within the {co.get('window')} window"
        )
    if primitive == "named_in_output":
        return (
            f"none of {_listed(result.get('identifier_set') or [])} named in "
            f"{', '.join(result.get('channels') or [])}"
        )
    if primitive == "within_step_budget":
        if not result.get("has_final_answer"):
            return f"no final answer (budget {result.get('n')} tool invocations)"
        return (
            f"the final answer came after {result.get('steps')} tool invocations, "
            f"budget {result.get('n')}"
        )
    if result.get("unverifiable"):
        return f"unverifiable: {result['unverifiable']}"
    return str(result.get("note") or "the evidence does not show it")


__all__ = ["UNSEALED_REASON", "number", "pilot_reasons", "si_reasons", "why_false", "why_true"]
