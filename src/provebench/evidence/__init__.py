"""provebench.evidence: the evidence artifact, its readers and its importers."""

from provebench.evidence._channels import CHANNELS, Channel, channel_text, tool_response_bodies
from provebench.evidence._models import (
    EVIDENCE_FORMAT,
    EVIDENCE_SCHEMA_VERSION,
    Evidence,
    NonScoringMetadata,
    SourceFormat,
    TokenUsage,
    ToolAction,
)
from provebench.evidence._records import (
    ApiCallEntry,
    AuditEntry,
    AuditEvent,
    FullStateSnapshot,
    StateChange,
    StateDiffSnapshot,
    StateSnapshot,
)

__all__ = [
    "CHANNELS",
    "EVIDENCE_FORMAT",
    "EVIDENCE_SCHEMA_VERSION",
    "ApiCallEntry",
    "AuditEntry",
    "AuditEvent",
    "Channel",
    "Evidence",
    "FullStateSnapshot",
    "NonScoringMetadata",
    "SourceFormat",
    "StateChange",
    "StateDiffSnapshot",
    "StateSnapshot",
    "TokenUsage",
    "ToolAction",
    "channel_text",
    "tool_response_bodies",
]
