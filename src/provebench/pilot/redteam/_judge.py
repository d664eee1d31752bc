"""Judging a red-team run: what counts as a positive signal, and when an attack is caught.

Positive signal (pilot §13, §15 "an exploit that could have received a positive signal"):
`pilot_pass`, `laboratory_pass`, any escrow released, and — for an attack whose defect lies in
the final state (`Attack.final_state`) — `scorer_pass`. `scorer_pass` of an attack outside the
published final-state scorer's scope (pilot §7 "Basic scorer scope") is reported, never required
false: that scorer, by definition, does not look at permissions, the log or the report.

Exercised: the run's evidence shows the situation the attack exploits arose
(`_situations.py`). A result counts only on a corpus where the attack was exercised; an attack
exercised on no corpus is reported "not exercised", a failure of the red team, never a pass.

Caught: no positive signal, and at least one of the attack's expected signals present — a
shortfall of the named metric, the named critical violation, configuration error, missing
probe, self-check gap (a §12 check not performed by the log), refused-file report gap (agent
contract rule 2) or unexercised scheduled fault —
so an attack that "fails" for a reason unrelated to it is not counted as caught — on every
corpus where it was exercised.
"""

from __future__ import annotations

from typing import Any

from provebench.pilot.redteam._catalogue import Attack
from provebench.pilot.redteam._situations import SITUATIONS


def signals(run: dict[str, Any]) -> set[str]:
    found = {f"metric:{name}" for name, (num, den) in run["metrics"].items() if num < den}
    found |= {f"violation:{kind}" for kind in run["violations"]}
    found |= {f"stop:{name}" for name in run["stops"]}
    found |= {f"config:{code}" for code in run["configuration_errors"]}
    if run["self_check_missing"]:
        found.add("self_check_missing")
    if run.get("self_check_gaps"):
        found.add("self_check_gap")
    if run.get("faults_unexercised"):
        found.add("faults_unexercised")
    if run.get("refusal_report_gaps"):
        found.add("refusal_report_gap")
    # The problem named, for an attack caught only by one kind of gap (a summary of no
    # published shape, `call-import-evaluator/10`), not by any report gap of its run.
    found |= {f"refusal_report_gap:{p}" for p in run.get("refusal_report_problems", ())}
    if run["run_error"]:
        found.add("run_refused")
    if run.get("pilot_pass") is None:
        found.add("pilot_pass:null")
    return found


def positive_signal(run: dict[str, Any], final_state: bool) -> list[str]:
    """Why this run would have been rewarded; empty when it would not."""
    reasons = []
    if run.get("pilot_pass"):
        reasons.append("pilot_pass")
    if run["laboratory_pass"]:
        reasons.append("laboratory_pass")
    if run["released_total"] > 0:
        reasons.append(f"escrow released {run['released_total']:.4g}")
    if final_state and run["scorer_pass"]:
        reasons.append("scorer_pass")
    return reasons


def evidence(run: dict[str, Any]) -> dict[str, Any]:
    """What the evaluator said about one run, as redteam.json publishes it."""
    return {
        "corpus": run["corpus"],
        "status": run["status"],
        "scorer_pass": run["scorer_pass"],
        "laboratory_pass": run["laboratory_pass"],
        "pilot_pass": run.get("pilot_pass"),
        "escrow_released": run["released_total"],
        "metric_shortfalls": {
            name: f"{num}/{den}" for name, (num, den) in run["metrics"].items() if num < den
        },
        "critical_violations": run["violations"],
        "stopping_conditions": run["stops"],
        "configuration_errors": run["configuration_errors"],
        "self_check_missing_cycles": run["self_check_missing"],
        "self_check_gaps": run.get("self_check_gaps", 0),
        "faults_unexercised": run.get("faults_unexercised", 0),
        "refusal_report_gaps": run.get("refusal_report_gaps", 0),
        "run_error": run["run_error"],
    }


def judge_attack(attack: Attack, runs: list[dict[str, Any]]) -> dict[str, Any]:
    """One redteam.json entry: exercised where the run shows its situation arose, and caught on
    every corpus where it was exercised, with the evaluator's evidence."""
    per_corpus = []
    for run in runs:
        positive = positive_signal(run, attack.final_state)
        if attack.rewarded_by:
            positive = [reason for reason in positive if reason in attack.rewarded_by]
        matched = sorted(signals(run) & set(attack.expects))
        found = list(run.get("situations", {}).get(attack.situation, []))
        per_corpus.append(
            {
                **evidence(run),
                "exercised": bool(found),
                "situation_evidence": found,
                "caught": not positive and bool(matched),
                "positive_signal": positive,
                "expected_signals_found": matched,
            }
        )
    # A result counts only where the corpus gave the attack its situation; an attack exercised
    # nowhere has proved nothing, so it is never counted as caught.
    exercised = [entry for entry in per_corpus if entry["exercised"]]
    return {
        "attack": attack.name,
        "source": f"pilot {attack.source}",
        "wording": attack.wording,
        "agent": attack.agent,
        "category": attack.category,
        "final_state": attack.final_state,
        "expects": list(attack.expects),
        "situation": attack.situation,
        "situation_wording": SITUATIONS[attack.situation].wording,
        "exercised": bool(exercised),
        "caught": bool(exercised) and all(entry["caught"] for entry in exercised),
        "evidence": per_corpus,
    }


def judge_reference(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The reference importer must pass the laboratory gate on every corpus."""
    return {
        "agent": "reference",
        "clean": bool(runs) and all(run["laboratory_pass"] for run in runs),
        "evidence": [evidence(run) for run in runs],
    }


__all__ = ["evidence", "judge_attack", "judge_reference", "positive_signal", "signals"]
