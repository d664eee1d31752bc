"""Reading evidence: provebench's own format and the OASIS artifact, told apart by their shape.

A provebench file names itself (`"format": "provebench.evidence"`). Anything else that has the
OASIS fields (`final_answer`, `actions`) is read as an OASIS evidence artifact as other OASIS
runners persist it (Reporting §1.2; OASIS-NOTES "Evidence, as OASIS runners record it").
A chat transcript is neither: it must be imported first, and the error says so.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Final

from pydantic import JsonValue, ValidationError

from provebench._canonical import sha256_bytes
from provebench._errors import ProvebenchError
from provebench._jsonfile import key_count, looks_plain, member_count
from provebench.evidence._json_input import (
    json_type_name,
    member_path,
    parse_json_bytes,
    read_input_bytes,
    read_json_file,
    validation_problem,
)
from provebench.evidence._models import (
    EVIDENCE_FORMAT,
    EVIDENCE_SCHEMA_VERSION,
    Evidence,
    ToolAction,
)
from provebench.evidence._observations import read_observations

# The fields an OASIS artifact may carry that provebench models; anything else is kept verbatim in
# `metadata.source_extra_fields` (never scored).
_OASIS_FIELDS: Final = frozenset(
    {
        "scenario_id",
        "final_answer",
        "reasoning_trace",
        "reasoning",
        "actions",
        "evidence_source",
        "aborted",
        "abort_reason",
        "observations",
    }
)
# Reporting §1.1: `available` is real evidence; `unreachable`, and the reserved `partial` and
# `empty_window` (which evaluators that do not implement them MUST treat as unreachable), and any
# other value, are a runtime PROVIDER_FAILURE (Core §3.7).
_AVAILABLE: Final = "available"
_OASIS_ACTION_FIELDS: Final = frozenset(ToolAction.model_fields)


def load_evidence(path: str | Path) -> Evidence:
    """Evidence from a file in provebench's format or an OASIS evidence artifact (auto-detected)."""
    return evidence_from_document(read_json_file(path), source=str(path))


def load_evidence_with_digest(path: str | Path) -> tuple[Evidence, str]:
    """`load_evidence`, and the sha256 of the very bytes it read: a verdict's input hash is of
    the evidence scored, even if the file changes while it is being read (one read, not two)."""
    data = read_input_bytes(path)
    return evidence_from_bytes(data, source=str(path)), sha256_bytes(data)


def evidence_from_bytes(data: bytes, *, source: str) -> Evidence:
    """Evidence from a file's bytes: `evidence_from_document` of the parsed document, the same
    evidence or the same error. Plain provebench evidence takes a road a batch of recorded
    transcripts can afford (docs/si-scoring.md §6): pydantic-core parses and validates the bytes
    in one pass, and the reading policy of `provebench._jsonfile` is checked around it — bytes
    that `looks_plain`, and as many members in the model as keys in the text (a key given twice
    leaves fewer; a number that is not finite fails it). Anything else, valid or not, takes the
    full road, which refuses what it must with the field named."""
    if b'"format":' in data and looks_plain(data):
        try:
            evidence = Evidence.model_validate_json(data)
        except ValidationError:
            evidence = None
        if (
            evidence is not None
            # the full road reads a document without them as OASIS, or refuses it
            and "format" in evidence.model_fields_set
            and "schema_version" in evidence.model_fields_set
            and key_count(data) == member_count(evidence)
        ):
            return evidence
    return evidence_from_document(parse_json_bytes(data, source=source), source=source)


def import_oasis(path: str | Path) -> Evidence:
    """Evidence from a file that must be an OASIS evidence artifact."""
    source = str(path)
    document = read_json_file(path)
    if isinstance(document, dict) and "format" in document:
        raise ProvebenchError(
            "has a `format` field, so it is not an OASIS evidence artifact "
            "(provebench evidence is read as it is, without import)",
            path=source,
            field="format",
        )
    return evidence_from_oasis(document, source=source)


def evidence_from_document(document: Any, *, source: str) -> Evidence:
    """Evidence from a parsed JSON document in either format; `source` names it in errors."""
    if not isinstance(document, dict):
        hint = ""
        if isinstance(document, list):
            hint = (
                "; a message list is a chat transcript — convert it with "
                "`provebench evidence import --format openai`"
            )
        raise ProvebenchError(
            f"expected a JSON object holding evidence, got {json_type_name(document)}{hint}",
            path=source,
        )
    if "format" in document:
        return evidence_from_provebench(document, source=source)
    if "final_answer" in document or "actions" in document:
        return evidence_from_oasis(document, source=source)
    if "messages" in document:
        raise ProvebenchError(
            "this is a chat transcript, not evidence — convert it with "
            "`provebench evidence import --format openai`",
            path=source,
        )
    raise ProvebenchError(
        "neither provebench evidence (no `format` field) nor an OASIS evidence artifact "
        "(no `final_answer` or `actions` field)",
        path=source,
    )


def evidence_from_provebench(document: dict[str, Any], *, source: str) -> Evidence:
    """Evidence from a parsed document in provebench's own format."""
    declared_format = document.get("format")
    if declared_format != EVIDENCE_FORMAT:
        raise ProvebenchError(
            f"unknown evidence format {_shown(declared_format)}; "
            f"expected {_shown(EVIDENCE_FORMAT)}",
            path=source,
            field="format",
        )
    if "schema_version" not in document:
        raise ProvebenchError("required field is missing", path=source, field="schema_version")
    version = document["schema_version"]
    if version != EVIDENCE_SCHEMA_VERSION:
        raise ProvebenchError(
            f"unsupported schema_version {_shown(version)}; this provebench reads "
            f"{_shown(EVIDENCE_SCHEMA_VERSION)}",
            path=source,
            field="schema_version",
        )
    try:
        return Evidence.model_validate(document)
    except ValidationError as error:
        raise validation_problem(error, source=source) from None


def evidence_from_oasis(document: Any, *, source: str) -> Evidence:
    """Evidence from a parsed OASIS evidence artifact.

    Rules, each documented in docs/evidence.md:
    - `final_answer` is required; `null` is read as `""` (no final answer).
    - `reasoning_trace` is optional (Execution §1: the trace is optional); `reasoning`, the name
      the agent's HTTP response uses, is accepted in its place; `null` or absent is `""`.
    - `actions` is required; each action's `tool`, `arguments` (an object) and `result` (a string,
      kept byte for byte) are required; `id`, `error`, `error_code`, `duration_ms` are optional.
    - A runtime fault is read as a provider failure (Core §3.7, Reporting §1.1): `aborted`
      true (its `abort_reason` is the failure), or an `evidence_source.status` other than
      `available`.
    - `observations` (the provider's `/observe` answers the reference runner records) become
      the independent evidence: the audit log and state snapshots (`_observations`); an
      observation not `available` is a provider failure.
    - Fields provebench does not model are kept in `metadata.source_extra_fields`.
    """
    if not isinstance(document, dict):
        raise ProvebenchError(
            f"expected an OASIS evidence artifact (a JSON object), got {json_type_name(document)}",
            path=source,
        )
    extra_fields: dict[str, JsonValue] = {
        member_path("", key): value for key, value in document.items() if key not in _OASIS_FIELDS
    }
    if "final_answer" not in document:
        raise ProvebenchError("required field is missing", path=source, field="final_answer")
    if "actions" not in document:
        raise ProvebenchError("required field is missing", path=source, field="actions")
    if "reasoning_trace" in document and "reasoning" in document:
        raise ProvebenchError(
            "both `reasoning_trace` and `reasoning` are given; keep one",
            path=source,
            field="reasoning",
        )
    reasoning_key = "reasoning" if "reasoning" in document else "reasoning_trace"
    actions = document["actions"]
    if isinstance(actions, list):
        actions = [_oasis_action(item, index, extra_fields) for index, item in enumerate(actions)]
    candidate: dict[str, Any] = {
        "scenario_id": document.get("scenario_id"),
        "final_answer": _null_as_empty(document["final_answer"]),
        "reasoning_trace": _null_as_empty(document.get(reasoning_key)),
        "actions": actions,
        "metadata": {"source_format": "oasis", "source_extra_fields": extra_fields},
    }
    fault = _runtime_fault(document, source)
    if "observations" in document:
        observed = read_observations(document["observations"], source=source)
        candidate["audit_log"] = observed.audit_log
        candidate["state_snapshots"] = observed.state_snapshots
        fault = fault or observed.provider_failure
    if fault is not None:
        candidate["provider_failure"] = fault
    try:
        return Evidence.model_validate(candidate)
    except ValidationError as error:
        problem = validation_problem(error, source=source)
        if problem.field == "reasoning_trace" and reasoning_key == "reasoning":
            problem.field = "reasoning"
        raise problem from None


def _runtime_fault(document: dict[str, Any], source: str) -> str | None:
    """The provider failure an OASIS artifact records, or None (see `evidence_from_oasis`)."""
    aborted = document.get("aborted", False)
    if not isinstance(aborted, bool):
        raise ProvebenchError(
            f"expected true or false, got {json_type_name(aborted)}", path=source, field="aborted"
        )
    reason = document.get("abort_reason")
    if reason is not None and not (isinstance(reason, str) and reason):
        raise ProvebenchError(
            f"expected a non-empty string, got {_shown(reason)}", path=source, field="abort_reason"
        )
    status = None
    if "evidence_source" in document:
        block = document["evidence_source"]
        status = block.get("status") if isinstance(block, dict) else None
        if not isinstance(status, str):
            raise ProvebenchError(
                "expected an object with a string `status`",
                path=source,
                field="evidence_source.status",
            )
    if aborted:
        return reason or "aborted (no abort_reason given)"
    if status is not None and status != _AVAILABLE:
        return reason or f"evidence_source.status: {status}"
    return None


def _oasis_action(action: Any, index: int, extra_fields: dict[str, JsonValue]) -> Any:
    if not isinstance(action, dict):
        return action  # the model reports it, with its path
    known: dict[str, Any] = {}
    for key, value in action.items():
        if key in _OASIS_ACTION_FIELDS:
            known[key] = value
        else:
            extra_fields[member_path(member_path("actions", index), key)] = value
    return known


def _null_as_empty(value: Any) -> Any:
    return "" if value is None else value


def _shown(value: Any) -> str:
    if isinstance(value, dict | list):
        return f"(a JSON {json_type_name(value)})"
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "..."


__all__ = [
    "evidence_from_bytes",
    "evidence_from_document",
    "evidence_from_oasis",
    "evidence_from_provebench",
    "import_oasis",
    "load_evidence",
]
