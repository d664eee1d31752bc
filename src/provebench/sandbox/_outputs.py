"""A provebench output, told by its bytes: what a run, a matrix or a seal wrote, which names
a scenario's or a corpus's answer, and which a candidate's code folder never holds.

An output folder is hidden from its own run only (`_policy.policy_for`, role `output-folder`):
an `si run --out ag/prev` made from inside the agent's folder (a development run) was shown to
every later run and sealed matrix trial, and its `verdict.json` named the answer key — the
factor's deviation type and required identifiers (SI seed §5.1) — to an agent that scored 1.0
with no tool call (sandbox red team 39b, H1). A pilot run folder left in an importer's folder
showed its `register.csv`, the corpus's expected rows byte for byte (A03 r1).

So the walk of a candidate's code (`_candidate.read_shown`) reads every file for the markers each
writer puts in its own output, whatever the file is named, **anywhere in its bytes and without
parsing it**: a provebench file names its format (`"format": "provebench.…"`: evidence, a pilot
run record, a verdict, a summary, a seal, and every report printed for machines — sandbox red
team 41, SB7); an SI verdict holds `scenario_file_sha256` (`si.scoring._verdict.Verdict`, which
has no format field); an OASIS evidence artifact holds a scenario id, a final answer and a list
of actions (Reporting §1.2); a run's signed record is a DSSE envelope whose payload is an in-toto
statement of provebench's predicate (`attest._envelope`); a human-readable output that shows an
answer begins with a fixed line (`provebench._output_mark`). Before, a file had to be one JSON
object with the markers at its top, and a verdict in a list, JSON Lines, a verdict nested in a
summary, an uncompressed tar of an `--out` folder and `si stress`/`si check` text were each
shown, and a sealed agent answered from each with no tool call (sandbox red team 42, G1-9 …
G1-14). The keys are matched quoted with `"` or `'` and any backslashes before a quote (JSON, a
Python literal, a JSON string holding JSON), or as a YAML key. A file compressed, base64'd or
re-keyed by its owner is no longer one of them: the limit docs/sandbox.md states."""

from __future__ import annotations

import base64
import binascii
import re

from provebench._output_mark import OUTPUT_MARK

# `attest._envelope.PAYLOAD_TYPE` (a test holds the two equal: the sandbox imports no area).
PAYLOAD_TYPE = "application/vnd.in-toto+json"
_PROVEBENCH_FORMAT_PREFIX = "provebench."
_PROVEBENCH_PREDICATE_PREFIX = b"urn:provebench:"
# Bytes one of the outputs holds, looked for (`in`, fast) before any pattern: a code folder's
# files are all read once for its digest, and most hold none of these.
_MARKERS = (
    b"provebench.",
    b"scenario_file_sha256",
    b"final_answer",
    b"payloadType",
    OUTPUT_MARK.encode("ascii"),
)
# A quote as JSON, a Python literal or a JSON string holding JSON writes it.
_Q = rb"""\\*["']"""
_FORMAT = re.compile(
    _Q + rb"format" + _Q + rb"\s*:\s*" + _Q + rb"(provebench\.[\w./-]*)"
    + rb"|(?m:^[ \t-]*format:[ \t]*[\"']?(provebench\.[\w./-]*))"
)  # fmt: skip
# The key and, a few bytes on, its digest: JSON, a Python literal and a pickle (which stores the
# key bare) all hold both; code that reads a verdict (`inputs["scenario_file_sha256"]`) does not.
_VERDICT = re.compile(rb"scenario_file_sha256.{0,12}?[0-9a-f]{64}", re.S)
_SCENARIO_ID = re.compile(_Q + rb"scenario_id" + _Q + rb"\s*:\s*" + _Q)
_FINAL_ANSWER = re.compile(_Q + rb"final_answer" + _Q + rb"\s*:")
_ACTIONS = re.compile(_Q + rb"actions" + _Q + rb"\s*:\s*\[")
_PAYLOAD = re.compile(_Q + rb"payload" + _Q + rb"\s*:\s*" + _Q + rb"([A-Za-z0-9+/=]{16,})")


def output_kind(data: bytes) -> str | None:
    """What provebench output `data` is or holds, in words ("an SI verdict"), or None. Text in
    UTF-16 or UTF-32 — which `json.loads` reads from bytes as it reads UTF-8 — is read with its
    NUL bytes left out, which leaves the ASCII of every marker, the report mark included: a
    verdict re-encoded as UTF-16 was shown, and a sealed agent answered from it with no tool
    call (sandbox red team 43, G1-2). Wherever the wide text begins (a BOM or none, inside a tar)
    and whatever the byte order."""
    found = _kind(data)
    if found is None and b"\x00" in data:
        found = _kind(data.replace(b"\x00", b""))
    return found


def _kind(data: bytes) -> str | None:
    if not any(marker in data for marker in _MARKERS):
        return None
    if OUTPUT_MARK.encode("ascii") in data:
        return "a provebench report printed for people, which shows a scenario's answer"
    found = _FORMAT.search(data)
    if found is not None:
        name = (found.group(1) or found.group(2)).decode("ascii")
        return f"a provebench file of format {name}"
    if _VERDICT.search(data):
        return "an SI verdict"
    if _SCENARIO_ID.search(data) and _FINAL_ANSWER.search(data) and _ACTIONS.search(data):
        return "an OASIS evidence artifact"
    if b"payloadType" in data and PAYLOAD_TYPE.encode("ascii") in data:
        for payload in _PAYLOAD.finditer(data):
            if _provebench_statement(payload.group(1)):
                return "a signed provebench record"
    return None


def _provebench_statement(payload: bytes) -> bool:
    """Whether the base64 `payload` decodes to a statement of provebench's predicate: its bytes
    name it (`"predicateType": "urn:provebench:…"`), looked for without parsing."""
    try:
        statement = base64.b64decode(payload, validate=True)
    except (ValueError, binascii.Error):
        return False
    return _PROVEBENCH_PREDICATE_PREFIX in statement


__all__ = ["PAYLOAD_TYPE", "output_kind"]
