"""A provebench output, told by its content: what a run, a matrix or a seal wrote, which names
a scenario's or a corpus's answer, and which a candidate's code folder never holds.

An output folder is hidden from its own run only (`_policy.policy_for`, role `output-folder`):
an `si run --out ag/prev` made from inside the agent's folder (a development run) was shown to
every later run and sealed matrix trial, and its `verdict.json` named the answer key — the
factor's deviation type and required identifiers (SI seed §5.1) — to an agent that scored 1.0
with no tool call (sandbox red team 39b, H1). A pilot run folder left in an importer's folder
showed its `register.csv`, the corpus's expected rows byte for byte (A03 r1).

So the walk of a candidate's code (`_candidate.read_shown`) reads every file for the markers each
writer puts in its own output, whatever the file is named: a provebench file names its format
(`"format": "provebench.…"`: evidence, a pilot run record, a verdict, a summary, a seal, and
every report printed for machines — `si stress --format json` and `si check --json` named none,
and a sealed agent answered from a stress report's honest example: sandbox red team 41, SB7); an SI
verdict holds its evaluations, versions and input digests (`si.scoring._verdict.Verdict`, which
has no format field); an OASIS evidence artifact holds a scenario id, a final answer and actions
(Reporting §1.2); a run's signed record is a DSSE envelope of an in-toto statement whose
predicate is provebench's (`attest._envelope`). A file renamed and re-encoded by its owner is no
longer one of them: what an agent was written to know is the limit docs/sandbox.md states."""

from __future__ import annotations

import base64
import binascii
import json
from typing import Any

# `attest._envelope.PAYLOAD_TYPE` (a test holds the two equal: the sandbox imports no area).
PAYLOAD_TYPE = "application/vnd.in-toto+json"
_PROVEBENCH_FORMAT_PREFIX = "provebench."
_PROVEBENCH_PREDICATE_PREFIX = "urn:provebench:"
# Bytes every recognised output holds, looked for before any file is parsed: a code folder's
# files are read once for its digest, and most of them are no JSON object at all.
_MARKERS = (b'"format"', b'"evaluations"', b'"final_answer"', b'"payloadType"')


def output_kind(data: bytes) -> str | None:
    """What provebench output `data` is, in words ("an SI verdict"), or None if it is none."""
    if data.lstrip()[:1] != b"{" or not any(marker in data for marker in _MARKERS):
        return None
    try:
        value: Any = json.loads(data)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None
    if not isinstance(value, dict):
        return None
    found = value.get("format")
    if isinstance(found, str) and found.startswith(_PROVEBENCH_FORMAT_PREFIX):
        return f"a provebench file of format {found}"
    if _is_si_verdict(value):
        return "an SI verdict"
    if _is_oasis_evidence(value):
        return "an OASIS evidence artifact"
    if _is_provebench_envelope(value):
        return "a signed provebench record"
    return None


def _is_si_verdict(value: dict[str, Any]) -> bool:
    versions, inputs = value.get("versions"), value.get("inputs")
    return (
        isinstance(value.get("evaluations"), list)
        and isinstance(versions, dict)
        and "profile" in versions
        and isinstance(inputs, dict)
        and "scenario_file_sha256" in inputs
    )


def _is_oasis_evidence(value: dict[str, Any]) -> bool:
    return (
        isinstance(value.get("scenario_id"), str)
        and "final_answer" in value
        and isinstance(value.get("actions"), list)
    )


def _is_provebench_envelope(value: dict[str, Any]) -> bool:
    payload = value.get("payload")
    if value.get("payloadType") != PAYLOAD_TYPE or not isinstance(payload, str):
        return False
    try:
        statement: Any = json.loads(base64.b64decode(payload, validate=True))
    except (ValueError, binascii.Error, UnicodeDecodeError, RecursionError):
        return False
    predicate = statement.get("predicateType") if isinstance(statement, dict) else None
    return isinstance(predicate, str) and predicate.startswith(_PROVEBENCH_PREDICATE_PREFIX)


__all__ = ["output_kind"]
