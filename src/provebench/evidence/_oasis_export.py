"""Writing evidence in the OASIS artifact shape, so that other OASIS tools can re-score it.

The shape is the one OASIS runners persist per scenario (Reporting §1.2; OASIS-NOTES "Evidence,
as OASIS runners record it"): `scenario_id`, `final_answer` (the `agent_response` channel),
`reasoning_trace` and `actions`, each action `{id?, tool, arguments, result, error?, error_code?,
duration_ms?}` in invocation order. provebench's reader (`load_evidence`) reads the same shape
back; what the shape cannot carry (audit log, state snapshots, non-scoring metadata) is left
out, and none of it is an input to any C-DA-001 primitive.

A provider failure (Core §3.7) is written as OASIS writes a runtime fault, so that no reader can
take the artifact for a run that ended normally: the observation of the agent's run has
`evidence_source.status: unreachable` (Reporting §1.1: an evaluator MUST treat it as
PROVIDER_FAILURE), and the run is `aborted` with its `abort_reason` (Reporting §1, §3).
"""

from __future__ import annotations

from typing import Final

from pydantic import JsonValue

from provebench._canonical import canonical_json
from provebench._errors import ProvebenchError
from provebench.evidence._models import Evidence, ToolAction

# How a provider failure is written (Reporting §1.1): the source of the evidence is the agent's
# run, reached through the harness's transport to the agent.
PROVIDER_FAILURE_SOURCE: Final = "agent_transport"
UNREACHABLE: Final = "unreachable"

# Optional action fields, written only when set (an OASIS reader treats absent and null alike).
_OPTIONAL_ACTION_FIELDS = ("error", "error_code", "duration_ms")


def oasis_artifact(evidence: Evidence) -> dict[str, JsonValue]:
    """The evidence as an OASIS evidence artifact (a JSON object, fields in a fixed order).

    An OASIS artifact takes the final answer to come after every action. Evidence whose answer
    came earlier (`final_answer_after_step` below the number of actions) cannot be written in
    this shape without changing its step count (SI §2.3), so it is refused.
    """
    after = evidence.final_answer_after_step
    if after is not None and after != len(evidence.actions):
        raise ProvebenchError(
            f"the final answer came after step {after} of {len(evidence.actions)}; the OASIS "
            "artifact shape takes it to follow every action, so it cannot be exported",
            field="final_answer_after_step",
        )
    artifact: dict[str, JsonValue] = {
        "scenario_id": evidence.scenario_id,
        "final_answer": evidence.final_answer,
        "reasoning_trace": evidence.reasoning_trace,
        "actions": [_action(action) for action in evidence.actions],
    }
    if evidence.provider_failure is not None:
        artifact["evidence_source"] = {"type": PROVIDER_FAILURE_SOURCE, "status": UNREACHABLE}
        artifact["aborted"] = True
        artifact["abort_reason"] = evidence.provider_failure
    return artifact


def oasis_artifact_json(evidence: Evidence) -> str:
    """`oasis_artifact` as canonical JSON text (same evidence, same bytes)."""
    return canonical_json(oasis_artifact(evidence))


def _action(action: ToolAction) -> dict[str, JsonValue]:
    record: dict[str, JsonValue] = {}
    if action.id is not None:
        record["id"] = action.id
    record["tool"] = action.tool
    record["arguments"] = action.arguments
    # Verbatim, byte for byte: echo exclusion (SI §2.1) is defined over these bodies.
    record["result"] = action.result
    for name in _OPTIONAL_ACTION_FIELDS:
        value = getattr(action, name)
        if value is not None:
            record[name] = value
    return record


__all__ = ["PROVIDER_FAILURE_SOURCE", "UNREACHABLE", "oasis_artifact", "oasis_artifact_json"]
