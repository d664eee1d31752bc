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
from provebench.evidence._openai import NO_RESPONSE_ERROR, evidence_from_openai, import_openai
from provebench.evidence._readers import (
    evidence_from_document,
    evidence_from_oasis,
    import_oasis,
    load_evidence,
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
from provebench.evidence._schema import evidence_json_schema, evidence_schema_text
from provebench.evidence._stamp import with_run_facts

__all__ = [
    "CHANNELS",
    "EVIDENCE_FORMAT",
    "EVIDENCE_SCHEMA_VERSION",
    "NO_RESPONSE_ERROR",
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
    "evidence_from_document",
    "evidence_from_oasis",
    "evidence_from_openai",
    "evidence_json_schema",
    "evidence_schema_text",
    "import_oasis",
    "import_openai",
    "load_evidence",
    "tool_response_bodies",
    "with_run_facts",
]
