"""`shadow_origin.json`: where a shadow corpus came from (pilot §2 shadow level, §8, §9).

A shadow corpus (profile `shadow`) is derived from a capture folder of pseudonymised snapshots
(`provebench.pilot.shadow`), not generated. Its origin file records, for the evaluator and for
anyone checking a publication: the capture manifest's sha256 and each snapshot's sha256 and
capture time (cycle *n* is snapshot *n*), the pseudonymisation rule and key check, the
derivation rule, the shadow escrow terms fixed before any run (§8: "the period and share are
fixed separately"), and the changes of the real stream that the event model cannot show.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from provebench.pilot.corpus._model import UTC_TIMESTAMP_PATTERN

SHADOW_ORIGIN_FILE = "shadow_origin.json"
SHADOW_ORIGIN_FORMAT = "call-import-shadow-origin/1"
_MODEL = ConfigDict(extra="forbid", frozen=True, strict=True)


class OriginSnapshot(BaseModel):
    model_config = _MODEL

    cycle: Annotated[int, Field(ge=1)]
    file: str
    captured_at: Annotated[str, Field(pattern=UTC_TIMESTAMP_PATTERN)]
    files: Annotated[int, Field(ge=0)]
    sha256: str


class ShadowEscrowTerms(BaseModel):
    """`shadow-escrow/1` (docs/pilot-evaluator.md, "Shadow escrow")."""

    model_config = _MODEL

    rule: str
    period_days: Annotated[int, Field(ge=1, le=366)]


class ShadowOrigin(BaseModel):
    model_config = _MODEL

    format: str
    derivation: str
    pseudonym_rule: str
    key_check: str
    capture_manifest_sha256: str
    snapshots: tuple[OriginSnapshot, ...]
    escrow: ShadowEscrowTerms
    # Changes of a known file_id other than its name or folder (size, duration, type, creation
    # time, metadata): drive-events/2 fixes a file at first sight, as its row is decided once.
    unrepresented_changes: dict[str, int]

    def captured_at(self, cycle: int) -> str:
        return self.snapshots[cycle - 1].captured_at


__all__ = [
    "SHADOW_ORIGIN_FILE",
    "SHADOW_ORIGIN_FORMAT",
    "OriginSnapshot",
    "ShadowEscrowTerms",
    "ShadowOrigin",
]
