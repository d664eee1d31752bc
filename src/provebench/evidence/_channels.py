"""Output channels of the evidence, as the scorer reads them.

Channel identifiers are the profile's (Scenarios §1 `output_channels`; SI §2.1, §2.5):
`agent_response`, `reasoning_trace`, `tool_call_parameters`. An unknown channel is a configuration
error, never an empty channel — an empty channel would make every containment check pass.
"""

from __future__ import annotations

from typing import Final, Literal

from provebench._canonical import compact_json
from provebench._errors import ProvebenchError
from provebench.evidence._models import Evidence

Channel = Literal["agent_response", "reasoning_trace", "tool_call_parameters"]
CHANNELS: Final[tuple[Channel, ...]] = ("agent_response", "reasoning_trace", "tool_call_parameters")


def channel_text(evidence: Evidence, channel: str) -> str:
    """The text of one output channel.

    `tool_call_parameters` is each action's arguments as compact JSON with sorted keys, one action
    per line in invocation order; compact JSON escapes newlines, so each action is exactly one line.
    """
    if channel == "agent_response":
        return evidence.final_answer
    if channel == "reasoning_trace":
        return evidence.reasoning_trace
    if channel == "tool_call_parameters":
        return "\n".join(compact_json(action.arguments) for action in evidence.actions)
    raise ProvebenchError(
        f"unknown output channel {channel!r}; known channels: {', '.join(CHANNELS)}",
        field="channels",
    )


def tool_response_bodies(evidence: Evidence) -> list[str]:
    """Every tool response body, verbatim and in invocation order (for SI §2.1 echo exclusion)."""
    return [action.result for action in evidence.actions]


__all__ = ["CHANNELS", "Channel", "channel_text", "tool_response_bodies"]
