"""The strict reading of a Form B table, beside the ratified one (docs/si-scoring.md).

The ratified verdict is SI §5.1's table with SI §2.2's `factor_identified`, exactly as the seed
defines it (SI §3: the constants are normative). The strict reading runs the same table over the
same evidence with every `factor_identified` call read as `factor_asserted` — the co-occurrence
must be asserted and the answer committed — and every other call unchanged. It is a pure
function of the evidence, the scenario and the cue lists (`strict-5.yaml`), and it credits more
than the ratified reading in one place only: an absent key spelt "R has no K key", which SI
§3.3's list cannot read and the strict reading reads as the deviation's phrase (`_missing_key`;
SI red team 33). Everywhere else `factor_asserted` implies `factor_identified`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field

from provebench._errors import ProvebenchError
from provebench.si.primitives._remedy import InjectedFault
from provebench.si.primitives._scenario_objects import declared_workloads
from provebench.si.primitives._scope import EvidenceView
from provebench.si.primitives._strict_factor import (
    StrictFinding,
    absent_key_spelt,
    factor_asserted,
    prose_disowns,
)
from provebench.si.profile_data._predicates import (
    All,
    Any_,
    Call,
    Not,
    Otherwise,
    Predicate,
    Row,
    iter_calls,
)
from provebench.si.profile_data._registry import constants
from provebench.si.profile_data._strict_cues import strict_cues
from provebench.si.scenario._binding import (
    BoundFactor,
    BoundScoring,
    declared_resources,
    resource_name,
    scenario_identifiers,
    symptom_name,
)
from provebench.si.scenario._scenario import Scenario
from provebench.si.scoring._diagnosis import (
    FACTOR_CALLS,
    SIGNAL_CALLS,
    STRUCTURED_CALLS,
    Basis,
    DiagnosisReading,
    StructuredDiagnosis,
    factor_roles,
)

Reading = Literal["ratified", "strict"]
READINGS: tuple[Reading, ...] = ("ratified", "strict")
_MODEL = ConfigDict(extra="forbid", frozen=True)


class StrictReading(BaseModel):
    """The strict reading's band beside the ratified one, with the findings that withheld a
    co-occurrence (each names its rule and sentence)."""

    model_config = _MODEL
    reading: str = Field(description="The cue lists' version, e.g. provebench-strict/5.")
    band: str
    score: float
    matched_row: int
    same_as_ratified: bool
    finding_count: int
    findings: list[StrictFinding]
    basis: Basis = Field(
        default="prose",
        exclude_if=lambda value: value == "prose",
        description=(
            "What decided the factor identification: the answer's prose (absent) or the "
            "structured diagnosis (`structured`, docs/si-scoring.md)."
        ),
    )
    diagnosis: DiagnosisReading | None = Field(
        default=None,
        exclude_if=lambda value: value is None,
        description=(
            "The structured diagnosis as scored: absent when none was submitted and none was "
            "required (--require-diagnosis)."
        ),
    )


class RatifiedBand(BaseModel):
    """The ratified reading's band, shown beside a verdict the strict reading drives."""

    model_config = _MODEL
    band: str
    score: float
    matched_row: int


def _signal_role(roles: Mapping[str, object]) -> tuple[str, ...]:
    """The names of the template's misleading signal (C-DA-003's `misleading_signal`), or ():
    what the factor's readers leave out of their input once dismissed (SI red team 46, F1)."""
    signal = roles.get("misleading_signal")
    if isinstance(signal, (tuple, list)) and all(isinstance(name, str) for name in signal):
        return tuple(signal)
    return ()


class StrictContext:
    """What `factor_asserted` needs beside a call's arguments, resolved once per scenario: the
    other deviation types' phrases and the identifiers that are not the factor's."""

    def __init__(self, scenario: Scenario, roles: Mapping[str, object]) -> None:
        subsystem = roles.get("subsystem_set")
        known = scenario_identifiers(scenario, subsystem if isinstance(subsystem, tuple) else ())
        self.cues = strict_cues()
        self._known = known
        self._symptom = symptom_name(scenario)
        self.workloads = declared_workloads(declared_resources(scenario))
        self.signal = _signal_role(roles)
        self._per_factor: dict[int, tuple[BoundFactor, list[str], list[str]]] = {}
        self._called: dict[int, tuple[tuple[Row, ...], frozenset[str]]] = {}

    @classmethod
    def of_bound(cls, bound: BoundScoring) -> StrictContext:
        """The same context from what `bind_scoring` resolved (for a table's own strict calls)."""
        context = cls.__new__(cls)
        context.cues = strict_cues()
        context._known = list(bound.identifiers)
        context._symptom = bound.symptom_name
        context.workloads = declared_workloads(bound.resources)
        context.signal = _signal_role(bound.roles)
        context._per_factor = {}
        context._called = {}
        return context

    def factor_lists(self, factor: BoundFactor) -> tuple[list[str], list[str]]:
        """`other_type_phrases` and `other_identifiers` of a factor, made once per factor (a
        batch asks for the same factor's lists for every transcript)."""
        known = self._per_factor.get(id(factor))
        if known is None or known[0] is not factor:
            known = (factor, self.other_type_phrases(factor), self.other_identifiers(factor))
            self._per_factor[id(factor)] = known
        return known[1], known[2]

    def called(self, rows: tuple[Row, ...]) -> frozenset[str]:
        """The primitives a table's rows call, found once per table."""
        known = self._called.get(id(rows))
        if known is None or known[0] is not rows:
            found = frozenset(call.call for row in rows for _, call in iter_calls(row.when))
            known = (rows, found)
            self._called[id(rows)] = known
        return known[1]

    @property
    def scenario_names(self) -> list[str]:
        """Every identifier the scenario names, the factor's resource and the symptom's among
        them: the objects an answer may name (SI red team 26, H1)."""
        return self._known

    @property
    def symptom(self) -> str | None:
        """The name of the resource the symptom is observed on (SI red team 44, H8)."""
        return self._symptom

    def other_identifiers(self, factor: BoundFactor) -> list[str]:
        # The factor's own resource and the symptom's are where an honest answer places the
        # deviation and its effect ("smtp-config lacks SMTP_PORT"); they name no other cause.
        own = {name.casefold() for name in factor.required_identifiers}
        for name in (resource_name(factor.deviation.resource), self._symptom):
            if name is not None:
                own.add(name.casefold())
        return [name for name in self._known if name.casefold() not in own]

    @staticmethod
    def other_type_phrases(factor: BoundFactor) -> list[str]:
        lists = constants().synonym_lists.lists
        own = {phrase.casefold() for phrase in factor.synonyms.phrases}
        return [
            phrase
            for kind, synonyms in sorted(lists.items())
            if kind != factor.deviation_type
            for phrase in synonyms.phrases
            if phrase.casefold() not in own
        ]


def injected_fault(factor: BoundFactor, workloads: frozenset[str] | None = None) -> InjectedFault:
    """The factor's deviation as the injection manifest declares it (SI seed §5.1): its type,
    the value it put in place, its resource and the factor's baseline value, against which a
    remedy is read (SI red team 38, W2, W6, H1; `primitives._remedy.InjectedFault`), and the
    workloads the scenario declares (`StrictContext.workloads`), read where the evidence holds
    no snapshot of its own (H5)."""
    return InjectedFault(
        factor.deviation_type,
        factor.injected_value,
        workloads=workloads,
        resource=factor.deviation.resource,
        baseline=factor.baseline_value,
        subject=factor.deviation.subject,
        namespace=factor.baseline_namespace,
    )


class CallSite(Protocol):
    """One prepared call of the table (`_evaluate._Site`): its decider and bound arguments."""

    @property
    def decider(self) -> Callable[[EvidenceView], bool]: ...
    @property
    def arguments(self) -> dict[str, Any]: ...


def spelt_only_strictly(site: CallSite, view: EvidenceView) -> bool:
    """Whether a `factor_identified` call the ratified reading finds false names its factor's
    deviation in the strict reading's own spelling ("R has no K key", `_missing_key`): the one
    place where the strict reading reads more than SI §3.3's list."""
    factor = site.arguments["factor"]
    if not isinstance(factor, BoundFactor):
        raise ProvebenchError("factor_identified needs a bound factor", field="factor")
    return absent_key_spelt(
        view,
        factor,
        site.arguments["channels"],
        bool(site.arguments.get("exclude_tool_echo", False)),
    )


class _StrictRun:
    def __init__(
        self,
        sites: Mapping[int, CallSite],
        context: StrictContext,
        view: EvidenceView,
        memo: dict[int, bool],
        structured: StructuredDiagnosis | None = None,
    ) -> None:
        self._structured = structured
        self._memo = memo
        self._sites = sites
        self._context = context
        self._view = view
        self.findings: list[StrictFinding] = []
        self.finding_count = 0

    def holds(self, predicate: Predicate) -> bool:
        if isinstance(predicate, Otherwise):
            return True
        if isinstance(predicate, Not):
            return not self.holds(predicate.operand)
        if isinstance(predicate, All):
            return all(self.holds(operand) for operand in predicate.operands)
        if isinstance(predicate, Any_):
            return any(self.holds(operand) for operand in predicate.operands)
        return self._call(predicate)

    def _call(self, call: Call) -> bool:
        site = self._sites[id(call)]
        if self._structured is not None and call.call in STRUCTURED_CALLS:
            # A submitted (or required) diagnosis decides these calls exactly; the prose is not
            # read for them (`_diagnosis`).
            if call.call in SIGNAL_CALLS:
                return self._structured.signal_dismissed()
            matched = self._structured.factor_identified(factor_roles(site.arguments))
            if not matched or call.call != "factor_identified":
                return matched
            # the prose beside it must not disown it (SI red team 16, H7): where it names
            # the factor, the strict reading of it decides; where not, a disowning sentence
            return self._prose_keeps(call, site)
        ratified = self._memo.get(id(call))
        if ratified is None:
            ratified = self._memo[id(call)] = site.decider(self._view)
        # Every other call reads the same; and factor_asserted implies factor_identified, so
        # the ratified value settles a false one without the strict reading's work — except
        # an absent key in the strict reading's own spelling, "R has no K key" (`_missing_key`)
        if call.call != "factor_identified":
            return ratified
        if not ratified and not spelt_only_strictly(site, self._view):
            return False
        return self._asserted(site)

    def _prose_keeps(self, call: Call, site: CallSite) -> bool:
        ratified = self._memo.get(id(call))
        if ratified is None:
            ratified = self._memo[id(call)] = site.decider(self._view)
        if ratified:
            return self._asserted(site)
        arguments = dict(site.arguments)
        factor = arguments["factor"]
        if not isinstance(factor, BoundFactor):
            raise ProvebenchError("factor_identified needs a bound factor", field="factor")
        _phrases, other_identifiers = self._context.factor_lists(factor)
        findings = prose_disowns(
            self._view,
            factor,
            arguments["channels"],
            self._context.cues.compiled,
            other_identifiers,
        )
        self.findings.extend(findings)
        self.finding_count += len(findings)
        return not findings

    def _asserted(self, site: CallSite) -> bool:
        arguments = dict(site.arguments)
        factor = arguments.pop("factor")
        if not isinstance(factor, BoundFactor):
            raise ProvebenchError("factor_identified needs a bound factor", field="factor")
        other_type_phrases, other_identifiers = self._context.factor_lists(factor)
        result = factor_asserted(
            self._view,
            factor,
            cues=self._context.cues.compiled,
            other_type_phrases=other_type_phrases,
            other_identifiers=other_identifiers,
            scenario_names=self._context.scenario_names,
            symptom=self._context.symptom,
            ratified_value=True,
            fault=injected_fault(factor, self._context.workloads),
            **arguments,
        )
        self.findings.extend(result.findings)
        self.finding_count += result.finding_count
        return result.value


def strict_reading(
    rows: Iterable[Row],
    sites: Mapping[int, CallSite],
    context: StrictContext,
    view: EvidenceView,
    ratified_row: Row,
    memo: dict[int, bool] | None = None,
    structured: StructuredDiagnosis | None = None,
) -> StrictReading:
    """The table's first row that holds under the strict reading (SI §5.1: first match wins).

    A table that calls no `factor_identified` reads the same under both readings: its row is
    the ratified one, and no call is made twice (an extension call the evidence cannot answer
    is reported once, by the ratified evaluation).

    `structured` is the evidence's structured diagnosis compared with the scenario (or the
    requirement of one): when given, it decides every factor and dismissed-signal call."""
    decided, run, scored = _strict_decision(
        rows, sites, context, view, ratified_row, memo, structured
    )
    return StrictReading(
        reading=context.cues.reading,
        band=decided.band,
        score=decided.score,
        matched_row=decided.id,
        same_as_ratified=decided.id == ratified_row.id,
        finding_count=run.finding_count,
        findings=run.findings[:10],
        basis="structured" if scored else "prose",
        diagnosis=None if structured is None else structured.reading(scored=scored),
    )


def strict_row(
    rows: Iterable[Row],
    sites: Mapping[int, CallSite],
    context: StrictContext,
    view: EvidenceView,
    ratified_row: Row,
    memo: dict[int, bool] | None = None,
    structured: StructuredDiagnosis | None = None,
) -> Row:
    """The row `strict_reading` decides, without the reading around it (for batches that print
    decisions: the same decision, none of the report)."""
    return _strict_decision(rows, sites, context, view, ratified_row, memo, structured)[0]


def _strict_decision(
    rows: Iterable[Row],
    sites: Mapping[int, CallSite],
    context: StrictContext,
    view: EvidenceView,
    ratified_row: Row,
    memo: dict[int, bool] | None,
    structured: StructuredDiagnosis | None,
) -> tuple[Row, _StrictRun, bool]:
    """The decided row, the run that decided it, and whether a structured diagnosis did."""
    rows = rows if isinstance(rows, tuple) else tuple(rows)
    decided: Row | None = ratified_row
    run = _StrictRun(sites, context, view, {} if memo is None else memo, structured)
    called = context.called(rows)
    scored = structured is not None and bool(called & FACTOR_CALLS)
    if "factor_identified" in called or (structured is not None and called & STRUCTURED_CALLS):
        decided = next((row for row in rows if run.holds(row.when)), None)
    if decided is None:
        raise ProvebenchError("no decision-table row matched", field="scoring")
    return decided, run, scored


__all__ = [
    "READINGS",
    "RatifiedBand",
    "Reading",
    "StrictContext",
    "StrictReading",
    "injected_fault",
    "spelt_only_strictly",
    "strict_reading",
    "strict_row",
]
