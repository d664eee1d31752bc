"""Which verdict a document is, and whether it has the fields the report reads.

The pilot verdict names itself (`format: provebench.pilot.verdict/2`, docs/pilot-evaluator.md).
The SI verdict (docs/si-scoring.md) carries no format marker, so it is recognised by the fields
that define it: `band`, `score`, `scenario`, `matched_row`, `evaluations`, `versions`. Anything
else — or a known kind with a field of the wrong shape — is a `ProvebenchError` naming the file and
the field: a report is never rendered from a document it cannot read in full.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, JsonValue, ValidationError

from provebench._errors import ProvebenchError

VerdictKind = Literal["pilot", "si", "redteam", "suite", "matrix"]

PILOT_FORMAT = "provebench.pilot.verdict/2"
REDTEAM_FORMAT = "provebench.pilot.redteam/1"
SUITE_FORMAT = "provebench.si.suite-summary/1"
MATRIX_FORMAT = "provebench.matrix-summary/1"
_PILOT_FORMAT_FAMILY = "provebench.pilot.verdict/"
_SI_SHAPE = ("band", "score", "scenario", "matched_row", "evaluations", "versions")
# A verdict under a provider failure is not scored: no band, score or matched row (Core §3.6-3.7)
_SI_SCORED_ONLY = ("band", "score", "matched_row")
_SI_UNSCORED_SHAPE = ("provider_failure", "scenario", "evaluations", "versions")

# Extra fields are allowed (the report shows them in a generic table); the fields the report
# renders specially must have exactly these types — no coercion of "1" into 1.
_OPEN = ConfigDict(extra="allow", frozen=True, strict=True)


class _Metric(BaseModel):
    model_config = _OPEN
    numerator: int
    denominator: int
    value: float
    vacuous: bool


class _CycleMetrics(BaseModel):
    model_config = _OPEN
    cycle: int
    metrics: dict[str, _Metric]


class _Metrics(BaseModel):
    model_config = _OPEN
    overall: dict[str, _Metric]
    per_cycle: list[_CycleMetrics]
    shortfalls: dict[str, list[JsonValue]]


class _LogEntryRef(BaseModel):
    model_config = _OPEN
    seq: int
    hash: str
    kind: str


class _Violation(BaseModel):
    model_config = _OPEN
    kind: str
    cycle: int | None
    file_id: str | None
    message: str
    evidence: list[_LogEntryRef]


class _ResultEvidence(BaseModel):
    model_config = _OPEN
    inputs_sha256: dict[str, str]


class _PilotVerdict(BaseModel):
    model_config = _OPEN
    format: str
    status: str
    scorer_pass: bool
    laboratory_pass: bool
    pilot_pass: bool | None
    critical_violation_count: int
    configuration_errors: list[dict[str, JsonValue]]
    # Null in a configuration_error verdict whose inputs could not be read far enough to compute
    # them (an incomplete run, an unreadable log): the report says "not computed".
    metrics: _Metrics | None
    critical_violations: list[_Violation]
    stopping_conditions: list[dict[str, JsonValue]]
    escrow: dict[str, JsonValue] | None
    result_evidence: _ResultEvidence | None


class _ScenarioRef(BaseModel):
    model_config = _OPEN
    id: str
    version: str
    archetype: str


class _MatchedRow(BaseModel):
    model_config = _OPEN
    id: int
    band: str
    score: float
    predicate: str


class _PrimitiveResult(BaseModel):
    model_config = _OPEN
    primitive: str
    value: bool


class _Evaluation(BaseModel):
    model_config = _OPEN
    row: int
    call: str
    arguments: dict[str, JsonValue]
    result: _PrimitiveResult


class _SiVerdict(BaseModel):
    model_config = _OPEN
    band: str
    score: float
    scenario: _ScenarioRef
    matched_row: _MatchedRow
    evaluations: list[_Evaluation]
    versions: dict[str, JsonValue]
    inputs: dict[str, str | None]


class _SiUnscoredVerdict(BaseModel):
    model_config = _OPEN
    provider_failure: str
    scenario: _ScenarioRef
    evaluations: list[_Evaluation]
    versions: dict[str, JsonValue]
    inputs: dict[str, str | None]


class _RedteamSummary(BaseModel):
    model_config = _OPEN
    format: str
    budget_level: str
    budget: dict[str, dict[str, int]]
    attacks: int
    exercised: int
    caught: int
    not_exercised: list[JsonValue]
    uncaught: list[JsonValue]
    passed: bool


class _SuiteScenario(BaseModel):
    model_config = _OPEN
    id: str
    classification: str
    category: str
    status: str
    score: float | None


class _SuiteCounts(BaseModel):
    model_config = _OPEN
    applicable: int
    passed: int
    failed: int
    provider_failure: int


class _SuiteSafetyCategory(BaseModel):
    model_config = _OPEN
    counts: _SuiteCounts


class _SuiteSafety(BaseModel):
    model_config = _OPEN
    counts: _SuiteCounts
    failures: list[JsonValue]
    provider_failures: list[JsonValue]
    categories: dict[str, _SuiteSafetyCategory]


class _SuiteDomain(BaseModel):
    model_config = _OPEN
    score: float


class _SuiteCapability(BaseModel):
    model_config = _OPEN
    domain_categories: dict[str, _SuiteDomain]


class _SuiteSummary(BaseModel):
    model_config = _OPEN
    format: str
    safety_gate: str
    agent: dict[str, JsonValue]
    scenarios: list[_SuiteScenario]
    safety: _SuiteSafety
    capability: _SuiteCapability | None


class _MatrixAgent(BaseModel):
    model_config = _OPEN
    agent: str
    jobs: int
    done: int
    harness_faults: int
    # absent in a summary of an earlier release (judged then by its harness faults)
    complete: bool | None = None
    successes: int
    failures: int
    pass_hat_k: dict[str, float]


class _MatrixFault(BaseModel):
    model_config = _OPEN
    key: str
    reason: str


class _MatrixSummary(BaseModel):
    model_config = _OPEN
    format: str
    kind: str
    jobs: int
    agents: list[_MatrixAgent]
    harness_faults: list[_MatrixFault]


_BY_FORMAT: dict[str, tuple[VerdictKind, type[BaseModel]]] = {
    PILOT_FORMAT: ("pilot", _PilotVerdict),
    REDTEAM_FORMAT: ("redteam", _RedteamSummary),
    SUITE_FORMAT: ("suite", _SuiteSummary),
    MATRIX_FORMAT: ("matrix", _MatrixSummary),
}


def _dotted(location: tuple[int | str, ...]) -> str:
    text = ""
    for part in location:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "$"


def _validate(
    model: type[BaseModel], verdict: Mapping[str, Any], source: str | Path | None
) -> None:
    try:
        model.model_validate(dict(verdict))
    except ValidationError as error:
        first = error.errors()[0]
        raise ProvebenchError(
            f"not a readable verdict: {first['msg']}",
            path=source,
            field=_dotted(tuple(first["loc"])),
        ) from None


def detect_kind(verdict: object, *, source: str | Path | None = None) -> VerdictKind:
    """`pilot` or `si` from the document's own fields, after checking every field the report reads.

    `source` only names the file in the error.
    """
    if not isinstance(verdict, Mapping):
        raise ProvebenchError("a verdict is a JSON object", path=source, field="$")
    if "format" in verdict:
        marker = verdict["format"]
        if isinstance(marker, str) and marker in _BY_FORMAT:
            kind, model = _BY_FORMAT[marker]
            _validate(model, verdict, source)
            return kind
        if isinstance(marker, str) and marker.startswith(_PILOT_FORMAT_FAMILY):
            message = (
                f"unsupported pilot verdict format {marker!r}; this report reads {PILOT_FORMAT}"
            )
        else:
            message = f"unknown verdict format {marker!r}"
        raise ProvebenchError(message, path=source, field="format")
    if all(name in verdict for name in _SI_SHAPE):
        _validate(_SiVerdict, verdict, source)
        return "si"
    if all(name in verdict for name in _SI_UNSCORED_SHAPE) and not any(
        name in verdict for name in _SI_SCORED_ONLY
    ):
        _validate(_SiUnscoredVerdict, verdict, source)
        return "si"
    missing = next(name for name in _SI_SHAPE if name not in verdict)
    # A document with some of the SI fields is an SI verdict with one missing; name that one.
    partly_si = any(name in verdict for name in _SI_SHAPE)
    raise ProvebenchError(
        f"an SI verdict needs `{missing}`"
        if partly_si
        else "not a provebench verdict: no `format` marker and not the SI verdict shape",
        path=source,
        field=missing if partly_si else "format",
    )


__all__ = [
    "MATRIX_FORMAT",
    "PILOT_FORMAT",
    "REDTEAM_FORMAT",
    "SUITE_FORMAT",
    "VerdictKind",
    "detect_kind",
]
