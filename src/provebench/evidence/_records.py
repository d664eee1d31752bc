"""Audit-log entries and state snapshots: the independent evidence next to the agent's own output.

Both are discriminated unions on `kind` (one record type per kind), so a reader never has to guess
what a record is, and new kinds can be added without changing the old ones. Core §3.5 makes the
audit log and state snapshots — not the agent's claims — the evidence for action verdicts; SI §2.4
names the path and state primitives (`ops_against`, `ops_precede`, `state_delta_matches`) that will
read them.

`after_step` / `taken_after_step` tie a record to the agent's tool-call record: the number of
actions (`Evidence.actions`) that had been recorded when the record was observed. `None` means the
observer did not say.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue

_RECORD_CONFIG = ConfigDict(extra="forbid", frozen=True, strict=True)

StepCount = Annotated[int, Field(ge=0)]


class ApiCallEntry(BaseModel):
    """One API-level operation observed by the environment (not reported by the agent)."""

    model_config = _RECORD_CONFIG

    kind: Literal["api_call"] = "api_call"
    actor: str = Field(description="Who issued the call, as the environment identifies it.")
    verb: str = Field(description="The operation, e.g. `get`, `patch`, `delete`.")
    resource: str = Field(description="What it was issued against, e.g. `configmap/smtp-config`.")
    namespace: str | None = None
    status_code: int | None = Field(
        default=None, description="The response status the environment returned, if any."
    )
    after_step: StepCount | None = Field(
        default=None, description="How many agent actions had been recorded when this was seen."
    )
    detail: dict[str, JsonValue] = Field(
        default_factory=dict, description="Anything else the observer recorded, verbatim."
    )


class AuditEvent(BaseModel):
    """Any other observed event (a restart, an alert, a denial), named by the observer."""

    model_config = _RECORD_CONFIG

    kind: Literal["event"] = "event"
    name: str
    actor: str | None = None
    after_step: StepCount | None = None
    detail: dict[str, JsonValue] = Field(default_factory=dict)


AuditEntry = Annotated[ApiCallEntry | AuditEvent, Field(discriminator="kind")]
"""One audit-log record: `api_call` or `event`."""


class FullStateSnapshot(BaseModel):
    """The whole observed state of the environment (or of the part the label names)."""

    model_config = _RECORD_CONFIG

    kind: Literal["state_snapshot"] = "state_snapshot"
    label: str = Field(description="What this snapshot is, e.g. `baseline`, `final`.")
    taken_after_step: StepCount | None = None
    source: str | None = Field(
        default=None, description="Where the state was read from, e.g. `kube_api`."
    )
    state: dict[str, JsonValue]
    observed_resources: list[str] | None = Field(
        default=None,
        exclude_if=lambda value: value is None,
        description=(
            "The resources (`kind/namespace/name`) this snapshot observed, present in `state` or "
            "observed absent; a resource not listed was not observed at all. Absent (null): the "
            "snapshot is the whole state. Set for state read from a provider's observations, "
            "which answer for the resources asked about, not for the whole environment."
        ),
    )


class StateChange(BaseModel):
    """One changed value inside a state, addressed by a path the observer chose."""

    model_config = _RECORD_CONFIG

    path: str
    op: Literal["add", "remove", "replace"]
    before: JsonValue = None
    after: JsonValue = None


class StateDiffSnapshot(BaseModel):
    """The observed difference between two states, as a list of changes."""

    model_config = _RECORD_CONFIG

    kind: Literal["state_diff"] = "state_diff"
    label: str
    taken_after_step: StepCount | None = None
    source: str | None = None
    changes: list[StateChange]


StateSnapshot = Annotated[FullStateSnapshot | StateDiffSnapshot, Field(discriminator="kind")]
"""One state record: a full `state_snapshot` or a `state_diff`."""

RECORD_KINDS: frozenset[str] = frozenset({"api_call", "event", "state_snapshot", "state_diff"})
"""Every `kind` tag; used to keep tags out of the field paths in error messages."""

__all__ = [
    "RECORD_KINDS",
    "ApiCallEntry",
    "AuditEntry",
    "AuditEvent",
    "FullStateSnapshot",
    "StateChange",
    "StateDiffSnapshot",
    "StateSnapshot",
]
