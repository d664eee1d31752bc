"""Build small evidence artifacts for SI scoring tests."""

from __future__ import annotations

from provebench.evidence import Evidence, ToolAction


def make_evidence(
    final_answer: str,
    bodies: list[str] | tuple[str, ...] = (),
    *,
    reasoning_trace: str = "",
    final_answer_after_step: int | None = None,
) -> Evidence:
    actions = [
        ToolAction(id=f"call-{index}", tool="kubectl", arguments={"n": index}, result=body)
        for index, body in enumerate(bodies)
    ]
    return Evidence(
        final_answer=final_answer,
        reasoning_trace=reasoning_trace,
        actions=actions,
        final_answer_after_step=final_answer_after_step,
    )
