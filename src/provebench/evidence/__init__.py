"""provebench.evidence: the evidence artifact, its readers and its importers.

Names are imported on first use (PEP 562), so that `provebench` starts fast and a
command loads only the modules it needs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from provebench._lazy import lazy_exports

if TYPE_CHECKING:
    from provebench.evidence._channels import (
        CHANNELS,
        Channel,
        channel_text,
        tool_response_bodies,
    )
    from provebench.evidence._diagnosis import (
        DiagnosedFactor,
        Diagnosis,
        DismissedSignal,
        blank_answer,
        canonical_resource,
        diagnosis_problem,
    )
    from provebench.evidence._models import (
        EVIDENCE_FORMAT,
        EVIDENCE_SCHEMA_VERSION,
        Evidence,
        NonScoringMetadata,
        RunEnding,
        SourceFormat,
        TokenUsage,
        ToolAction,
    )
    from provebench.evidence._oasis_export import (
        oasis_artifact,
        oasis_artifact_json,
    )
    from provebench.evidence._observations import (
        AUDIT_LOG_READ,
        PROVIDER_ACTOR,
        PROVIDER_EVENTS_READ,
        UNATTRIBUTED_ACTOR,
    )
    from provebench.evidence._openai import (
        NO_RESPONSE_ERROR,
        evidence_from_openai,
        import_openai,
    )
    from provebench.evidence._readers import (
        evidence_from_document,
        evidence_from_oasis,
        import_oasis,
        load_evidence,
        load_evidence_with_digest,
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
    from provebench.evidence._schema import (
        evidence_json_schema,
        evidence_schema_text,
    )
    from provebench.evidence._stamp import (
        with_run_facts,
    )

_EXPORTS: dict[str, str] = {
    "CHANNELS": "provebench.evidence._channels",
    "Channel": "provebench.evidence._channels",
    "channel_text": "provebench.evidence._channels",
    "tool_response_bodies": "provebench.evidence._channels",
    "DiagnosedFactor": "provebench.evidence._diagnosis",
    "Diagnosis": "provebench.evidence._diagnosis",
    "DismissedSignal": "provebench.evidence._diagnosis",
    "blank_answer": "provebench.evidence._diagnosis",
    "canonical_resource": "provebench.evidence._diagnosis",
    "diagnosis_problem": "provebench.evidence._diagnosis",
    "EVIDENCE_FORMAT": "provebench.evidence._models",
    "EVIDENCE_SCHEMA_VERSION": "provebench.evidence._models",
    "Evidence": "provebench.evidence._models",
    "NonScoringMetadata": "provebench.evidence._models",
    "RunEnding": "provebench.evidence._models",
    "SourceFormat": "provebench.evidence._models",
    "TokenUsage": "provebench.evidence._models",
    "ToolAction": "provebench.evidence._models",
    "AUDIT_LOG_READ": "provebench.evidence._observations",
    "PROVIDER_ACTOR": "provebench.evidence._observations",
    "PROVIDER_EVENTS_READ": "provebench.evidence._observations",
    "UNATTRIBUTED_ACTOR": "provebench.evidence._observations",
    "oasis_artifact": "provebench.evidence._oasis_export",
    "oasis_artifact_json": "provebench.evidence._oasis_export",
    "NO_RESPONSE_ERROR": "provebench.evidence._openai",
    "evidence_from_openai": "provebench.evidence._openai",
    "import_openai": "provebench.evidence._openai",
    "evidence_from_document": "provebench.evidence._readers",
    "evidence_from_oasis": "provebench.evidence._readers",
    "import_oasis": "provebench.evidence._readers",
    "load_evidence": "provebench.evidence._readers",
    "load_evidence_with_digest": "provebench.evidence._readers",
    "ApiCallEntry": "provebench.evidence._records",
    "AuditEntry": "provebench.evidence._records",
    "AuditEvent": "provebench.evidence._records",
    "FullStateSnapshot": "provebench.evidence._records",
    "StateChange": "provebench.evidence._records",
    "StateDiffSnapshot": "provebench.evidence._records",
    "StateSnapshot": "provebench.evidence._records",
    "evidence_json_schema": "provebench.evidence._schema",
    "evidence_schema_text": "provebench.evidence._schema",
    "with_run_facts": "provebench.evidence._stamp",
}


__all__ = [
    "AUDIT_LOG_READ",
    "CHANNELS",
    "EVIDENCE_FORMAT",
    "EVIDENCE_SCHEMA_VERSION",
    "NO_RESPONSE_ERROR",
    "PROVIDER_ACTOR",
    "PROVIDER_EVENTS_READ",
    "UNATTRIBUTED_ACTOR",
    "ApiCallEntry",
    "AuditEntry",
    "AuditEvent",
    "Channel",
    "DiagnosedFactor",
    "Diagnosis",
    "DismissedSignal",
    "Evidence",
    "FullStateSnapshot",
    "NonScoringMetadata",
    "RunEnding",
    "SourceFormat",
    "StateChange",
    "StateDiffSnapshot",
    "StateSnapshot",
    "TokenUsage",
    "ToolAction",
    "blank_answer",
    "canonical_resource",
    "channel_text",
    "diagnosis_problem",
    "evidence_from_document",
    "evidence_from_oasis",
    "evidence_from_openai",
    "evidence_json_schema",
    "evidence_schema_text",
    "import_oasis",
    "import_openai",
    "load_evidence",
    "load_evidence_with_digest",
    "oasis_artifact",
    "oasis_artifact_json",
    "tool_response_bodies",
    "with_run_facts",
]

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, __all__)
