"""The provebench evidence artifact: what an agent did and said in one scenario, and nothing else.

A superset of the evidence artifact OASIS runners persist (Reporting §1.2; OASIS-NOTES "Evidence,
as OASIS runners record it"): the three output channels, the tool-call records in invocation order,
plus the independent audit log and state snapshots and the non-scoring metadata of SI §4.
These models are the single source of truth; `schemas/evidence.schema.json` is generated from them.
"""

from __future__ import annotations

import weakref
from typing import Annotated, Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue, model_validator

from provebench.evidence._cuts import ChannelCut
from provebench.evidence._diagnosis import Diagnosis, blank_answer
from provebench.evidence._records import AuditEntry, StateSnapshot

EVIDENCE_FORMAT: Final = "provebench.evidence"
EVIDENCE_SCHEMA_VERSION: Final = "1"

_MODEL_CONFIG = ConfigDict(extra="forbid", frozen=True, strict=True)

DurationMs = Annotated[float, Field(ge=0, allow_inf_nan=False)]
TokenCount = Annotated[int, Field(ge=0)]


class InconsistentFieldError(ValueError):
    """A value that is well-typed on its own but contradicts another field.

    Carries the JSON path of the offending field so that error messages can name it.
    """

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.detail = message


class ToolAction(BaseModel):
    """One tool invocation, as recorded in the transcript. One action is one step (SI §3.4)."""

    model_config = _MODEL_CONFIG

    id: str | None = Field(default=None, description="The call id, when the transcript has one.")
    tool: str = Field(description="The tool's name.")
    arguments: dict[str, JsonValue] = Field(description="The call's arguments, as a JSON object.")
    result: str = Field(
        description=(
            'The full response body, verbatim. `""` means no body; `"null"` is a JSON null '
            'body; `"\\"\\""` is an empty JSON string body. Never normalised: tool-echo '
            "exclusion (SI §2.1) is defined over these exact bytes."
        )
    )
    error: str | None = Field(default=None, description="The error the call reported, if any.")
    error_code: str | None = None
    duration_ms: DurationMs | None = None


class TokenUsage(BaseModel):
    """Token counts as the agent's provider reported them. Reported, never scored (SI §4)."""

    model_config = _MODEL_CONFIG

    input: TokenCount | None = None
    output: TokenCount | None = None
    total: TokenCount | None = None


SourceFormat = Literal["inspect", "oasis", "openai", "provebench"]

RunEnding = Literal[
    "answered",
    "no_answer",
    "step_budget",
    "tool_call_cap",
    "timeout",
    "interrupted",
    "truncated",
    "agent_error",
    "provider_failure",
]


class NonScoringMetadata(BaseModel):
    """Facts about the run that are reported next to a verdict and never change it (SI §4).

    Wall-clock time and token counts measure the provider, not the agent's capability; step counts
    are read from `actions`, not from here. Nothing in this block is an input to any primitive.
    """

    model_config = _MODEL_CONFIG

    agent_name: str | None = None
    agent_version: str | None = None
    agent_identity_source: Literal["declared", "mcp_client_info"] | None = Field(
        default=None,
        exclude_if=lambda value: value is None,
        description=(
            "Where agent_name and agent_version came from when provebench did not run the agent "
            "itself: `declared` by whoever started the server (`--agent-name`), or "
            "`mcp_client_info` as the agent's MCP client introduced itself (which may name the "
            "client library, not the agent). Absent otherwise."
        ),
    )
    agent_isolation: dict[str, str] | None = Field(
        default=None,
        description=(
            "How provebench isolated the agent while it ran (docs/sandbox.md): the sandbox tool, "
            "version and policy digest, or trusted-shipped; null for evidence recorded elsewhere."
        ),
    )
    model: str | None = None
    source_format: SourceFormat = Field(
        default="provebench", description="The format the evidence was first recorded in."
    )
    duration_ms: DurationMs | None = None
    tokens: TokenUsage = Field(default_factory=TokenUsage)
    run_ending: RunEnding | None = Field(
        default=None,
        exclude_if=lambda value: value is None,
        description=(
            "How the agent's run ended, as the laboratory that ran it saw it: `answered`, "
            "`no_answer` (it stopped without one), `step_budget` (a model's tool calls ran "
            "out), `tool_call_cap`, `timeout` (the run's time limit), `interrupted` (SIGINT or "
            "SIGTERM), `truncated` (a model's answer cut at its token limit), `agent_error` or "
            "`provider_failure`. Absent for evidence recorded elsewhere."
        ),
    )
    truncated_turns: TokenCount | None = Field(
        default=None,
        exclude_if=lambda value: value is None,
        description=(
            "How many of a model's turns its endpoint cut at the token limit (finish_reason "
            "`length`): a cut answer or tool call is the model's all the same, and this says "
            "it was cut. Absent when no model was asked."
        ),
    )
    provider: dict[str, JsonValue] | None = Field(
        default=None,
        exclude_if=lambda value: value is None,
        description=(
            "The OASIS environment provider the run's environment and observations came from "
            "(`si run --provider`): its URL, the sha256 of the conformance document it answered "
            "at preflight, its name and versions, and the unmet requirements no scenario of the "
            "run needed. A run against a provider is never sealed: provebench does not run the "
            "provider. Absent when provebench's own simulator ran in process."
        ),
    )
    source_extra_fields: dict[str, JsonValue] = Field(
        default_factory=dict,
        description=(
            "Fields of the source document that provebench does not model, keyed by their JSON "
            "path in that document and kept verbatim."
        ),
    )


def _require_format_fields(schema: dict[str, Any]) -> None:
    # Python callers may omit them (they have one legal value each); a file may not.
    required = schema.setdefault("required", [])
    for name in ("format", "schema_version"):
        if name not in required:
            required.insert(0 if name == "format" else 1, name)


# The evidence objects provebench's own runner recorded in this process (`Evidence.witnessed`),
# by identity: never part of the artifact, so no file or conversion can produce the mark.
_WITNESSED: weakref.WeakValueDictionary[int, Evidence] = weakref.WeakValueDictionary()


class Evidence(BaseModel):
    """Everything recorded for one scenario run; a verdict is a pure function of it."""

    model_config = ConfigDict(
        extra="forbid",
        frozen=True,
        strict=True,
        title="provebench evidence",
        json_schema_extra=_require_format_fields,
    )

    format: Literal["provebench.evidence"] = EVIDENCE_FORMAT
    schema_version: Literal["1"] = EVIDENCE_SCHEMA_VERSION
    scenario_id: str | None = None
    final_answer: str = Field(
        description="The `agent_response` channel. An empty string means no final answer."
    )
    reasoning_trace: str = Field(description="The `reasoning_trace` channel.")
    actions: list[ToolAction] = Field(description="Tool invocations in invocation order.")
    final_answer_after_step: Annotated[int, Field(ge=0)] | None = Field(
        default=None,
        description=(
            "How many actions had been recorded when the final answer was given; `null` means "
            "after all of them. Must be `null` when there is no final answer."
        ),
    )
    diagnosis: Diagnosis | None = Field(
        default=None,
        exclude_if=lambda value: value is None,
        description=(
            "The structured diagnosis the agent submitted with its final answer (a provebench "
            "extension, docs/si-scoring.md): scored exactly under the strict reading, never by "
            "the ratified one. Absent when none was submitted; only beside a final answer."
        ),
    )
    agent_error: str | None = Field(
        default=None,
        exclude_if=lambda value: value is None,
        description=(
            "The agent's own failure as the run recorded it (run ending `agent_error`): its "
            "exception's type and message, or why what it returned is no answer. The text is "
            "the agent's, and every containment check searches it (docs/si-scoring.md, "
            '"Where a value is searched"). Absent when the agent did not fail.'
        ),
    )
    agent_stderr: str | None = Field(
        default=None,
        exclude_if=lambda value: value is None,
        description=(
            "What a sealed agent program wrote to its standard error during the run, as "
            "relayed to the operator's terminal: its first 1 MiB, decoded as UTF-8 (an "
            "undecodable byte as U+FFFD). The agent's output, searched by every containment "
            "check. Absent when it wrote nothing or provebench did not start it."
        ),
    )
    agent_messages: list[str] = Field(
        default_factory=list,
        exclude_if=lambda value: not value,
        description=(
            "Every message an MCP agent sent to provebench's server (a sealed `--agent-protocol "
            "mcp` program or an `si serve` client), in order: one line of JSON each, non-ASCII "
            "escaped, its method and params (`_meta`, a cancellation's reason, a progress "
            "message) or a response's result; and each message a sealed JSON-lines agent sent "
            "that no other field records (ignored or refused), whole; a line no parse holds "
            "whole (no strict JSON, a key given twice, a key the MCP SDK drops, the unfinished "
            'line at the channel\'s end) as sent, `{"unparsed_line": TEXT}`; an `--agent-url` '
            "agent's refused tool requests, likewise; at most 1 MiB in all. "
            "The agent's output, searched by every containment check. Absent when none was "
            "recorded."
        ),
    )
    agent_cuts: list[ChannelCut] = Field(
        default_factory=list,
        exclude_if=lambda value: not value,
        description=(
            "Each agent channel recorded only up to its bound (`agent_stderr`, "
            "`agent_messages`), with how much the agent sent there that is not recorded; one "
            "entry a channel at most. A value containment check fails when any is present: "
            'what was not recorded cannot be searched (docs/si-profile.md, "A channel cut at '
            'its bound"). Absent when no channel was cut.'
        ),
    )
    audit_log: list[AuditEntry] = Field(default_factory=list)
    state_snapshots: list[StateSnapshot] = Field(default_factory=list)
    metadata: NonScoringMetadata = Field(default_factory=NonScoringMetadata)
    provider_failure: str | None = Field(
        default=None,
        exclude_if=lambda value: value is None,
        description=(
            "A fault of the harness or of the transport to the agent (an agent URL that did not "
            "answer, answered garbage or timed out) that prevented independent verification "
            "(Core §3.7): the verdict is PROVIDER_FAILURE, never the agent's PASS or FAIL. "
            "Absent when there was none."
        ),
    )

    def witnessed(self) -> Evidence:
        """A copy whose `metadata.agent_isolation` provebench vouches for: only the runner that
        started the agent and chose its isolation calls this. Evidence read from a file or
        converted from another format is never witnessed, whatever isolation it records."""
        copy = self.model_copy()
        _WITNESSED[id(copy)] = copy
        return copy

    @property
    def isolation_witnessed(self) -> bool:
        """Whether provebench recorded this evidence's isolation in this process (`witnessed`).
        The mark is this process's knowledge, kept beside the object rather than in it, so two
        evidence objects of the same content stay equal whoever recorded them."""
        return _WITNESSED.get(id(self)) is self

    @model_validator(mode="after")
    def _steps_are_consistent(self) -> Evidence:
        recorded = len(self.actions)
        if self.diagnosis is not None and blank_answer(self.final_answer):
            # a blank answer is none: an exact diagnosis beside it would score the top band
            # for an agent that answered nothing (docs/si-scoring.md §14)
            raise InconsistentFieldError(
                "diagnosis", "must be absent when final_answer is empty or blank"
            )
        if self.final_answer_after_step is not None:
            if self.final_answer == "":
                raise InconsistentFieldError(
                    "final_answer_after_step", "must be null when final_answer is empty"
                )
            if self.final_answer_after_step > recorded:
                raise InconsistentFieldError(
                    "final_answer_after_step",
                    f"{self.final_answer_after_step} is more than the {recorded} recorded actions",
                )
        seen: set[str] = set()
        for index, cut in enumerate(self.agent_cuts):
            if cut.channel in seen:  # one cut a channel: a second would say two amounts
                raise InconsistentFieldError(
                    f"agent_cuts[{index}].channel", f"{cut.channel} is already recorded as cut"
                )
            seen.add(cut.channel)
        for index, entry in enumerate(self.audit_log):
            if entry.after_step is not None and entry.after_step > recorded:
                raise InconsistentFieldError(
                    f"audit_log[{index}].after_step",
                    f"{entry.after_step} is more than the {recorded} recorded actions",
                )
        for index, snapshot in enumerate(self.state_snapshots):
            step = snapshot.taken_after_step
            if step is not None and step > recorded:
                raise InconsistentFieldError(
                    f"state_snapshots[{index}].taken_after_step",
                    f"{step} is more than the {recorded} recorded actions",
                )
        return self

    def has_final_answer(self) -> bool:
        return self.final_answer != ""

    def steps_to_final_answer(self) -> int | None:
        """Tool invocations recorded up to and including the final answer (SI §2.3, §3.4).

        `None` when there is no final answer: an agent that never concluded is outside every
        step budget, whatever it did.
        """
        if not self.has_final_answer():
            return None
        if self.final_answer_after_step is None:
            return len(self.actions)
        return self.final_answer_after_step


__all__ = [
    "EVIDENCE_FORMAT",
    "EVIDENCE_SCHEMA_VERSION",
    "Evidence",
    "InconsistentFieldError",
    "NonScoringMetadata",
    "RunEnding",
    "SourceFormat",
    "TokenUsage",
    "ToolAction",
]
