"""What the matrix report shows (docs/matrix.md): per agent, how often it passed and how reliably
— pass^k as a curve over k — then the harness faults, each its agent's failure in pass^k and
its agent INCOMPLETE. Every figure is the summary's own."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from markupsafe import Markup

from provebench.matrix._summary import incomplete_mark
from provebench.report._reasons import number
from provebench.report._svg import Series, bar_chart, line_chart


def matrix_reasons(summary: Mapping[str, Any]) -> list[dict[str, str]]:
    # The fields read here are checked by `detect_kind` (report/_kind.py) before any rendering.
    reasons = []
    if summary.get("resumed") is True:
        from provebench.report._suite_view import resumed_reason

        reasons.append({"text": resumed_reason(summary.get("rerun")), "anchor": "agents"})
    for agent in summary["agents"]:
        curve = agent["pass_hat_k"]
        if curve:
            last = max(curve, key=int)
            said = f"pass^1 {number(curve['1'])}, pass^{last} {number(curve[last])}"
        else:
            said = "no completed job, no pass^k"
        # An agent with a harness fault is INCOMPLETE, its figures a lower bound (red team
        # round 14, H4); an SI agent's section says whether every job was sealed.
        mark = incomplete_mark(agent)
        if mark:
            # Of every job: a job that showed no pass is not a pass. A summary of an earlier
            # release computed pass^k over its completed jobs only, and says no `complete`.
            counted = f"{agent['successes']} of {agent['jobs']} job(s) passed"
            if "complete" not in agent:
                said += " (pass^k of the completed jobs only: an earlier summary format)"
        else:
            mark = " UNSEALED (not a sealed result):" if agent.get("sealed") is False else ""
            counted = f"{agent['successes']} of {agent['done']} completed job(s) passed"
        reasons.append({"text": f"{agent['agent']}:{mark} {counted}; {said}.", "anchor": "agents"})
    faults = summary["harness_faults"]
    if faults:
        reasons.append(
            {
                "text": f"{len(faults)} harness fault(s): each counts as its agent's failure "
                "(OASIS PROVIDER_FAILURE: it showed no pass), so its agent is INCOMPLETE and "
                "its pass^k a lower bound; rerun the command to redo them.",
                "anchor": "faults",
            }
        )
    return reasons


def matrix_charts(summary: Mapping[str, Any]) -> list[Markup]:
    agents = summary["agents"]
    charts: list[Markup] = []
    longest = max((len(a["pass_hat_k"]) for a in agents), default=0)
    if longest:
        labels = [str(k) for k in range(1, longest + 1)]
        charts.append(
            line_chart(
                "pass^k: the chance that k trials in a row all pass",
                labels,
                [
                    Series(str(a["agent"]), [float(a["pass_hat_k"][k]) for k in labels
                                             if k in a["pass_hat_k"]], "line")
                    for a in agents
                ],
                x_label="k",
            )
        )  # fmt: skip
    if agents:
        charts.append(
            bar_chart(
                "Jobs by outcome",
                [str(a["agent"]) for a in agents],
                [
                    Series("pass", [float(a["successes"]) for a in agents], "good"),
                    Series("fail", [float(a["failures"]) for a in agents], "bad"),
                    Series("harness fault", [float(a["harness_faults"]) for a in agents], "warn"),
                ],
                y_label="jobs",
            )
        )
    return charts


def matrix_view(summary: Mapping[str, Any]) -> dict[str, Any]:
    return {"reasons": matrix_reasons(summary), "charts": matrix_charts(summary)}
