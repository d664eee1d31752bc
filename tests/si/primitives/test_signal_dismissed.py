"""`signal_dismissed` (provebench's C-DA-003): a misleading signal counts as identified only in
a sentence that asserts its dismissal, and never where the answer names it as the cause."""

from __future__ import annotations

import pytest

from provebench.evidence import Evidence, ToolAction
from provebench.si.primitives._scope import EvidenceView
from provebench.si.primitives._signal import signal_dismissed
from provebench.si.profile_data._strict_cues import strict_cues

SIGNAL = ["batch-processor", "QUEUE_HOST"]


def _dismissed(answer: str, tool_body: str = "ok") -> bool:
    evidence = Evidence(
        final_answer=answer,
        reasoning_trace="",
        actions=[ToolAction(tool="orchestration_get", arguments={}, result=tool_body)],
    )
    result = signal_dismissed(
        EvidenceView(evidence), SIGNAL, ["agent_response"], strict_cues().compiled
    )
    return result.value


@pytest.mark.parametrize(
    "answer",
    [
        "batch-processor is a red herring.",
        "batch-processor is not the cause: its CPU spike is unrelated.",
        "The errors of batch-processor are unrelated to the restarts.",
        "batch-processor's wrong QUEUE_HOST does not explain the crash loop.",
        "batch-processor is not the root cause.",
        "batch-processor is noisy, but it is a distraction.",
    ],
)
def test_an_asserted_dismissal_identifies_the_signal(answer: str) -> None:
    assert _dismissed(answer)


@pytest.mark.parametrize(
    "answer",
    [
        "Is batch-processor a red herring?",
        "batch-processor is not a red herring.",
        "batch-processor might be unrelated.",
        "If batch-processor is unrelated, look elsewhere.",
        "batch-processor pegs the CPU.",
        # a cause phrase that is not negated dismisses nothing, in another clause too
        "The root cause is SESSION_STORE_PORT; batch-processor pegs the CPU.",
        # dismissed once, endorsed elsewhere: not identified
        "batch-processor is a red herring. The root cause is batch-processor.",
        "The root cause is QUEUE_HOST. batch-processor is unrelated.",
        "batch-processor is the problem, not a red herring.",
        # a dismissal that names no identifier of the signal
        "The CPU spike is a red herring.",
    ],
)
def test_no_dismissal_or_an_endorsement_does_not(answer: str) -> None:
    assert not _dismissed(answer)


def test_a_dismissal_copied_from_a_tool_body_is_not_the_agents() -> None:
    line = "batch-processor is a red herring."
    assert not _dismissed(line, tool_body=f"note: {line}\n")
