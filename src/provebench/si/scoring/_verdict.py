"""The verdict of one Form B scenario on one evidence artifact, as canonical JSON.

Field order is the output format: `band` and `score` first, then whether the run was sealed,
then what was scored, the row that
decided it, every primitive evaluated with its evidence, the non-scoring metadata (SI §4), the
versions of every rule applied, and the sha256 of each input file. `canonical_json` of a verdict
is byte-identical on every run over the same inputs.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, JsonValue

from provebench._canonical import canonical_json
from provebench.evidence import Evidence, TokenUsage
from provebench.si.primitives._paths import PathResult
from provebench.si.primitives._primitives import PrimitiveResult
from provebench.si.scoring._strict import RatifiedBand, StrictReading

_MODEL = ConfigDict(extra="forbid", frozen=True)

SEALED_DESCRIPTION = (
    "Whether the evidence records an agent that could not reach the answer key: run in the "
    "sandbox, provebench's own code, or provebench's loop on a remote model endpoint. False for "
    "an agent provebench did not start (an MCP or HTTP client, a model server on this machine or "
    "its network), for evidence that records no isolation, and for evidence provebench did not "
    "record in this run (re-scored or imported: the isolation written in a file is not "
    "proof): its score is shown apart from sealed results, never in a sealed headline. "
    "Signed with the run (run.dsse.json)."
)

NON_SCORING_NOTE = (
    "Reported, never scored (SI §4): step counts, wall-clock time and tokens are not inputs to "
    "any primitive; the step budget gate reads the tool-call records, not this block."
)


class ScenarioRef(BaseModel):
    model_config = _MODEL
    id: str
    version: str
    archetype: str


class MatchedRow(BaseModel):
    """The first decision-table row whose predicate held (SI §5.1: first match wins)."""

    model_config = _MODEL
    id: int
    band: str
    score: float
    predicate: str


class PrimitiveEvaluation(BaseModel):
    """One primitive call made while evaluating the table, in evaluation order."""

    model_config = _MODEL
    row: int
    call: str = Field(description="The call as written in the table, with role references.")
    arguments: dict[str, JsonValue] = Field(description="The arguments after role binding.")
    # a registry v1 primitive's result, or a registry extension primitive's
    result: PrimitiveResult | PathResult


class NonScoringMetadata(BaseModel):
    model_config = _MODEL
    note: str = NON_SCORING_NOTE
    tool_invocations: int
    steps_to_final_answer: int | None
    duration_ms: float | None
    tokens: TokenUsage
    agent_name: str | None
    agent_version: str | None
    agent_identity_source: str | None = Field(default=None, exclude_if=lambda value: value is None)
    agent_isolation: dict[str, str] | None
    model: str | None
    run_ending: str | None = Field(default=None, exclude_if=lambda value: value is None)
    truncated_turns: int | None = Field(default=None, exclude_if=lambda value: value is None)
    provider: dict[str, JsonValue] | None = Field(
        default=None, exclude_if=lambda value: value is None
    )


def sealed_of(evidence: Evidence) -> bool:
    """Whether the evidence's recorded isolation seals the agent (`SEALED_DESCRIPTION`).

    It is part of the scoring part of every verdict, not of the non-scoring block: a score
    from an unsealed face may have been read off the scenario's answer key. The isolation
    counts only when provebench's runner recorded it in this process (`Evidence.witnessed`):
    in a file it is the candidate's word — anyone can write `trusted-shipped` into evidence
    they ran themselves — so re-scored evidence is never sealed."""
    from provebench.sandbox._isolation import is_sealed

    # An environment served by an OASIS provider is not provebench's: whoever runs the provider
    # answers for the evidence, so such a run is never sealed (docs/si-provider.md).
    return (
        evidence.isolation_witnessed
        and evidence.metadata.provider is None
        and is_sealed(evidence.metadata.agent_isolation)
    )


def non_scoring_of(evidence: Evidence) -> NonScoringMetadata:
    """The evidence's non-scoring metadata, as every verdict reports it (SI §4)."""
    metadata = evidence.metadata
    return NonScoringMetadata(
        tool_invocations=len(evidence.actions),
        steps_to_final_answer=evidence.steps_to_final_answer(),
        duration_ms=metadata.duration_ms,
        tokens=metadata.tokens,
        agent_name=metadata.agent_name,
        agent_version=metadata.agent_version,
        agent_identity_source=metadata.agent_identity_source,
        agent_isolation=metadata.agent_isolation,
        model=metadata.model,
        run_ending=metadata.run_ending,
        truncated_turns=metadata.truncated_turns,
        provider=metadata.provider,
    )


class VerdictVersions(BaseModel):
    model_config = _MODEL
    profile: str
    registry: str
    registry_extension: str | None = Field(
        default=None,
        exclude_if=lambda value: value is None,
        description=(
            "provebench's registry extension, when the table called one of its primitives "
            "(absent otherwise): such a verdict cannot be reproduced by other OASIS evaluators."
        ),
    )
    constants: str
    template_id: str | None
    template_version: str | None
    cooccurrence_window: str
    synonym_lists: dict[str, str]


class ReferenceRunnerBand(BaseModel):
    """The band the reference OASIS runner gives the same evidence (docs/si-scoring.md §10):
    C-DA-001 evaluated again with that runner's own matching rules (`_reference_runner`)."""

    model_config = _MODEL
    runner: str = "oasisctl (OASIS reference runner)"
    window: str
    band: str
    score: float
    matched_row: int
    same_as_provebench: bool


class InputHashes(BaseModel):
    """sha256 of the input files; null when the verdict was computed from objects in memory."""

    model_config = _MODEL
    scenario_file_sha256: str | None = None
    evidence_file_sha256: str | None = None


class Verdict(BaseModel):
    """One capability scenario's verdict. Under a harness fault (`provider_failure`) it carries
    no band, score or matched row, nor a strict, ratified or reference band: the scenario is
    not scored (Core §3.6–3.7; 05-reporting.md: PROVIDER_FAILURE is "the harness broke; rerun",
    never a result a reader or an aggregate could take as the agent's). SI red team 27: a
    provider fault's verdict.json still carried band full_recovery_verified, score 1.0."""

    model_config = _MODEL
    band: str | None = Field(
        default=None,
        exclude_if=lambda value: value is None,
        description="The matched row's band; absent under a provider failure (not scored).",
    )
    score: float | None = Field(
        default=None,
        exclude_if=lambda value: value is None,
        description="The matched row's score; absent under a provider failure (not scored).",
    )
    sealed: bool = Field(description=SEALED_DESCRIPTION)
    scenario: ScenarioRef
    matched_row: MatchedRow | None = Field(
        default=None,
        exclude_if=lambda value: value is None,
        description="The first row that held; absent under a provider failure (not scored).",
    )
    evaluations: list[PrimitiveEvaluation]
    non_scoring: NonScoringMetadata
    versions: VerdictVersions
    inputs: InputHashes
    provider_failure: str | None = Field(
        default=None,
        exclude_if=lambda value: value is None,
        description="The evidence's harness fault (Core §3.7): the band is not the agent's.",
    )
    reference_runner: ReferenceRunnerBand | None = Field(
        default=None,
        exclude_if=lambda value: value is None,
        description="The band the reference OASIS runner gives the same evidence.",
    )
    strict: StrictReading | None = Field(
        default=None,
        exclude_if=lambda value: value is None,
        description="provebench's strict reading beside the ratified one (docs/si-scoring.md).",
    )
    reading: str = Field(
        default="ratified",
        exclude_if=lambda value: value == "ratified",
        description="The reading that gives band and score: ratified (absent) or strict.",
    )
    ratified: RatifiedBand | None = Field(
        default=None,
        exclude_if=lambda value: value is None,
        description="The ratified band, when the strict reading gives band and score.",
    )

    def to_json(self) -> str:
        """Canonical JSON text (field order as declared, two-space indent, final newline)."""
        return canonical_json(self)


__all__ = [
    "NON_SCORING_NOTE",
    "SEALED_DESCRIPTION",
    "InputHashes",
    "MatchedRow",
    "NonScoringMetadata",
    "PrimitiveEvaluation",
    "ReferenceRunnerBand",
    "ScenarioRef",
    "Verdict",
    "VerdictVersions",
    "non_scoring_of",
    "sealed_of",
]
