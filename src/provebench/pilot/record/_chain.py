"""The register chain: one hash that stands for the whole confirmed register after each cycle.

The laboratory writes it into each `cycle_confirmed` entry of the log; the evaluator recomputes it
from the rows the log confirms (pilot §9: the confirmed final state of the Sheets adapter is
evidence, so the log must pin it cycle by cycle).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence

_json_string = json.encoder.encode_basestring


def register_chain(previous_sha256: str, rows: Sequence[Sequence[str]]) -> str:
    """The register hash after a cycle: sha256 of the previous hash, then one compact JSON list
    per confirmed row, each on its own line (so equal hashes mean equal registers, in order)."""
    digest = hashlib.sha256(previous_sha256.encode("ascii"))
    if rows:
        lines = ["[" + ",".join(map(_json_string, row)) + "]" for row in rows]
        digest.update(("\n" + "\n".join(lines)).encode("utf-8"))
    return digest.hexdigest()


__all__ = ["register_chain"]
