"""The structured diagnosis, scored exactly against the injection manifest (docs/si-scoring.md).

A provebench extension beside the strict reading: where the answer's words cannot decide
(a keyword reading is a lower bound on gaming), the agent may submit `{resource, key,
deviation_type}` for the factor(s) and, for a misleading-signal scenario, the signal it sets
aside (`provebench.evidence.Diagnosis`). Under the strict reading a submitted diagnosis decides
every factor-identification call of the table (`factor_identified`, `factor_asserted`) and every
`signal_dismissed`; the prose rules are not consulted for them. Ground truth is the injection
manifest (SI §5.1): the table's factors are its deviations, and the misleading signal is the
deviation it marks `misleading: true` with the identifiers the binding names for it.

A pure function of the evidence and the bound scenario, linear in the diagnosis's size (at most
`MAX_FACTORS` entries of each kind). The ratified reading never reads it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Final, Literal

from pydantic import BaseModel, ConfigDict

from provebench._errors import ProvebenchError
from provebench.evidence import DiagnosedFactor, Diagnosis, DismissedSignal, canonical_resource
from provebench.si.profile_data._predicates import Row, iter_calls
from provebench.si.profile_data._registry import constants
from provebench.si.scenario._binding import BoundFactor, BoundScoring, resource_name
from provebench.si.scenario._scoring_forms import Deviation

_MODEL = ConfigDict(extra="forbid", frozen=True)

FACTOR_CALLS: Final = frozenset({"factor_identified", "factor_asserted"})
SIGNAL_CALLS: Final = frozenset({"signal_dismissed"})
STRUCTURED_CALLS: Final = FACTOR_CALLS | SIGNAL_CALLS

Basis = Literal["structured", "prose"]

DiagnosisRule = Literal[
    "diagnosis_required",
    "wrong_resource",
    "wrong_namespace",
    "wrong_key",
    "wrong_type",
    "decoy_factor",
    "endorsed_misleading_signal",
    "missing_factor",
    "dismissed_actual_cause",
    "dismissed_other_object",
    "signal_not_dismissed",
    "not_scored",
]


class DiagnosisFinding(BaseModel):
    """Why a submitted (or required) diagnosis does not match: the rule and the field."""

    model_config = _MODEL
    rule: DiagnosisRule
    field: str
    detail: str


class DiagnosisReading(BaseModel):
    """The structured diagnosis as the strict reading scored it.

    `matches` is true when the factors are exactly the table's (nothing missing, nothing else)
    and no dismissed signal is the actual cause; `signal_dismissed` says whether it set the
    misleading signal aside (only for a table that asks). `required` is `--require-diagnosis`."""

    model_config = _MODEL
    submitted: bool
    required: bool
    matches: bool | None
    signal_dismissed: bool | None
    findings: list[DiagnosisFinding]


def deviation_types() -> tuple[str, ...]:
    """The profile's deviation vocabulary: the names of its synonym lists (SI §3.3)."""
    return tuple(sorted(constants().synonym_lists.lists))


def vocabulary_problem(diagnosis: Diagnosis, prefix: str = "diagnosis") -> tuple[str, str] | None:
    """`(field, message)` for a factor whose deviation type is outside the profile's vocabulary,
    or None: one line, naming the field, wherever the diagnosis came from."""
    known = deviation_types()
    for index, factor in enumerate(diagnosis.factors):
        if factor.deviation_type not in known:
            return (
                f"{prefix}.factors[{index}].deviation_type",
                f"{factor.deviation_type!r} is not one of the profile's deviation types "
                f"({', '.join(known)})",
            )
    return None


def calls_structured(rows: Iterable[Row]) -> bool:
    """Whether the table identifies a factor or a dismissed signal (what a diagnosis decides)."""
    return any(call.call in STRUCTURED_CALLS for row in rows for _, call in iter_calls(row.when))


def deviation_namespace(deviation: Deviation, baseline: object) -> str:
    """The deviation's namespace, or its baseline entry's; Kubernetes' default otherwise."""
    extra = deviation.model_extra or {}
    declared = extra.get("namespace")
    if isinstance(declared, str) and declared:
        return declared
    if isinstance(baseline, list):
        for entry in baseline:
            if isinstance(entry, dict) and entry.get("resource") == deviation.resource:
                found = entry.get("namespace")
                if isinstance(found, str) and found:
                    return found
    return "default"


def _same_resource(submitted: str, declared: str) -> bool:
    """The same object's kind and name: a diagnosis's kind is canonical already (the evidence
    model maps `configmaps`, `cm`, `ConfigMap` to `configmap`), the manifest's is made so."""
    return canonical_resource(submitted) == canonical_resource(declared)


def _declared_objects(*declared: object) -> list[tuple[str, str]]:
    """The `(kind/name, namespace)` of every object declared: the manifest's baseline and the
    scenario's estate (`preconditions.environment.state`), each a list of entries."""
    objects: list[tuple[str, str]] = []
    for entries in declared:
        if not isinstance(entries, list):
            continue
        for entry in entries:
            if isinstance(entry, dict) and isinstance(entry.get("resource"), str):
                found = entry.get("namespace")
                namespace = found if isinstance(found, str) and found else "default"
                objects.append((canonical_resource(entry["resource"]), namespace))
    return objects


class _Truth:
    """The answer key a diagnosis is compared with, from the bound scenario."""

    def __init__(self, bound: BoundScoring, baseline: object, estate: object) -> None:
        self.factors: tuple[BoundFactor, ...] = tuple(
            bound.factors[ref] for ref in sorted(bound.factors)
        )
        self.namespaces = {f.ref: deviation_namespace(f.deviation, baseline) for f in self.factors}
        misleading: set[str] = set()
        for row in bound.rows:
            for _, call in iter_calls(row.when):
                if call.call in SIGNAL_CALLS:
                    value = bound.arguments(call).get("identifier_set")
                    if isinstance(value, tuple):
                        misleading.update(value)
        self.misleading = frozenset(misleading)
        self.declared = _declared_objects(baseline, estate)


def _misleading_deviations(deviations: Sequence[Deviation]) -> list[Deviation]:
    return [d for d in deviations if (d.model_extra or {}).get("misleading") is True]


class StructuredDiagnosis:
    """One evidence's diagnosis compared with one bound scenario; the strict run asks it."""

    def __init__(
        self,
        diagnosis: Diagnosis | None,
        bound: BoundScoring,
        deviations: Sequence[Deviation],
        baseline: object,
        *,
        required: bool,
        estate: object = None,
    ) -> None:
        self._diagnosis = diagnosis
        self._required = required
        self._truth = _Truth(bound, baseline, estate)
        self._misleading = _misleading_deviations(deviations)
        self._signal_objects = self._signal_objects_of(baseline)
        self._asks_signal = any(
            call.call in SIGNAL_CALLS for row in bound.rows for _, call in iter_calls(row.when)
        )
        self.findings: list[DiagnosisFinding] = []
        self._matched: set[str] = set()
        self._dismissed = False
        if diagnosis is None:
            self.findings.append(
                DiagnosisFinding(
                    rule="diagnosis_required",
                    field="diagnosis",
                    detail=(
                        "--require-diagnosis: no structured diagnosis was submitted, so no "
                        "factor is identified whatever the prose says"
                    ),
                )
            )
            return
        problem = vocabulary_problem(diagnosis)
        if problem is not None:
            raise ProvebenchError(problem[1], field=problem[0])
        self._compare_factors(diagnosis.factors)
        self._compare_dismissed(diagnosis.dismissed)

    # -- factors ----------------------------------------------------------------------------

    def _endorses_signal(self, factor: DiagnosedFactor) -> bool:
        name = resource_name(factor.resource)
        if name in self._truth.misleading or factor.key in self._truth.misleading:
            return True
        return any(_same_resource(factor.resource, d.resource) for d in self._misleading)

    def _compare_factors(self, submitted: Sequence[DiagnosedFactor]) -> None:
        near: set[str] = set()
        for index, factor in enumerate(submitted):
            field = f"diagnosis.factors[{index}]"
            exact = next((f for f in self._truth.factors if self._exact(factor, f)), None)
            if exact is not None:
                self._matched.add(exact.ref)
                continue
            if self._endorses_signal(factor):
                self._find(
                    "endorsed_misleading_signal",
                    field,
                    f"{factor.resource} {factor.key} is the misleading signal, named as a cause",
                )
                continue
            rule, ref = self._nearest(factor)
            if ref is not None:
                near.add(ref)
            self._find(rule, field, self._describe(rule, factor))
        for truth in self._truth.factors:
            if truth.ref not in self._matched and truth.ref not in near:
                self._find(
                    "missing_factor",
                    "diagnosis.factors",
                    f"no factor names the deviation {truth.ref} of the injection manifest",
                )

    def _exact(self, factor: DiagnosedFactor, truth: BoundFactor) -> bool:
        deviation = truth.deviation
        return (
            _same_resource(factor.resource, deviation.resource)
            and factor.namespace in (None, self._truth.namespaces[truth.ref])
            and factor.key == deviation.subject
            and factor.deviation_type == deviation.deviation_type
        )

    def _nearest(self, factor: DiagnosedFactor) -> tuple[DiagnosisRule, str | None]:
        for truth in self._truth.factors:
            deviation = truth.deviation
            if not _same_resource(factor.resource, deviation.resource):
                if factor.key == deviation.subject:
                    return "wrong_resource", truth.ref
                continue
            if factor.namespace not in (None, self._truth.namespaces[truth.ref]):
                return "wrong_namespace", truth.ref
            if factor.key != deviation.subject:
                return "wrong_key", truth.ref
            return "wrong_type", truth.ref
        return "decoy_factor", None

    @staticmethod
    def _describe(rule: DiagnosisRule, factor: DiagnosedFactor) -> str:
        named = f"{factor.resource} {factor.key} {factor.deviation_type}"
        return {
            "wrong_resource": f"{named}: the key deviates on another resource",
            "wrong_namespace": f"{named}: the resource is in another namespace",
            "wrong_key": f"{named}: another key of this resource deviates",
            "wrong_type": f"{named}: the key deviates in another way",
        }.get(rule, f"{named}: not a deviation that causes the symptom")

    # -- dismissed signals ------------------------------------------------------------------

    def _signal_objects_of(self, baseline: object) -> list[tuple[str, str]]:
        """The misleading signal's objects, `(kind/name, namespace)`: each deviation the manifest
        marks misleading, and each object of the baseline or the estate a `misleading_signal`
        identifier names (kind and namespace as the scenario declares them). An identifier that
        names no declared object is `(?/identifier, namespace)`: any kind, the signal's
        namespace."""
        objects: list[tuple[str, str]] = [
            (canonical_resource(d.resource), deviation_namespace(d, baseline))
            for d in self._misleading
        ]
        named = {resource_name(resource) for resource, _ in objects}
        for resource, namespace in self._truth.declared:
            if resource_name(resource) in self._truth.misleading:
                objects.append((resource, namespace))
                named.add(resource_name(resource))
        signal_namespaces = sorted({namespace for _, namespace in objects}) or ["default"]
        for identifier in sorted(self._truth.misleading - named):
            objects.extend((f"?/{identifier}", ns) for ns in signal_namespaces)
        return objects

    def _compare_dismissed(self, dismissed: Sequence[DismissedSignal]) -> None:
        for index, signal in enumerate(dismissed):
            field = f"diagnosis.dismissed[{index}]"
            if any(self._is_cause(signal, f) for f in self._truth.factors):
                self._find("dismissed_actual_cause", field, f"{signal.resource} holds the cause")
            elif self._names_signal(signal):
                self._dismissed = True
            elif self._asks_signal:
                self._find(
                    "dismissed_other_object",
                    field,
                    f"{self._named(signal)} is not the misleading signal's object: it dismisses "
                    "nothing",
                )
        if self._asks_signal and not self._dismissed:
            self._find(
                "signal_not_dismissed",
                "diagnosis.dismissed",
                "no dismissed signal names the misleading signal",
            )

    def _is_cause(self, signal: DismissedSignal, truth: BoundFactor) -> bool:
        """The entry names the deviation's object, in whatever spelling of its kind."""
        return _same_resource(signal.resource, truth.deviation.resource) and signal.namespace in (
            None,
            self._truth.namespaces[truth.ref],
        )

    def _names_signal(self, signal: DismissedSignal) -> bool:
        """The entry names one of the signal's objects: its kind (where the manifest gives
        one), its name and its namespace (when the entry gives one)."""
        kind, _, name = signal.resource.partition("/")
        for resource, namespace in self._signal_objects:
            signal_kind, _, signal_name = resource.partition("/")
            if name != signal_name or signal_kind not in ("?", kind):
                continue
            if signal.namespace in (None, namespace):
                return True
        return False

    @staticmethod
    def _named(signal: DismissedSignal) -> str:
        where = f" in {signal.namespace}" if signal.namespace is not None else ""
        return f"{signal.resource}{where}"

    def _find(self, rule: DiagnosisRule, field: str, detail: str) -> None:
        self.findings.append(DiagnosisFinding(rule=rule, field=field, detail=detail))

    # -- what the strict run asks -----------------------------------------------------------

    @property
    def _factors_clean(self) -> bool:
        # neither blocks the factors: the signal is a band of its own, and an entry that
        # dismisses some other object says nothing about the cause
        blocking = {"signal_not_dismissed", "dismissed_other_object"}
        return self._diagnosis is not None and all(f.rule in blocking for f in self.findings)

    def factor_identified(self, factor: BoundFactor) -> bool:
        """Exact: this factor named, and nothing else named as a cause or dismissed wrongly."""
        return self._factors_clean and factor.ref in self._matched

    def signal_dismissed(self) -> bool:
        return self._diagnosis is not None and self._dismissed

    def reading(self, *, scored: bool) -> DiagnosisReading:
        findings = list(self.findings)
        if not scored and self._diagnosis is not None:
            findings = [
                DiagnosisFinding(
                    rule="not_scored",
                    field="diagnosis",
                    detail="the template identifies no factor: the diagnosis decides nothing",
                )
            ]
        return DiagnosisReading(
            submitted=self._diagnosis is not None,
            required=self._required,
            matches=(self._factors_clean and self._all_matched) if scored else None,
            signal_dismissed=self.signal_dismissed() if scored and self._asks_signal else None,
            findings=findings,
        )

    @property
    def _all_matched(self) -> bool:
        return all(f.ref in self._matched for f in self._truth.factors)


def structured_diagnosis(
    diagnosis: Diagnosis | None,
    bound: BoundScoring,
    injection: object,
    *,
    required: bool,
    estate: object = None,
) -> StructuredDiagnosis | None:
    """The comparison the strict reading uses, or None when the prose decides (no diagnosis
    submitted and none required). `estate` is the scenario's declared objects (its
    `preconditions.environment.state`): where they give the kind and namespace of an object
    the misleading-signal role names, a dismissed entry must name that object."""
    if diagnosis is None and not required:
        return None
    deviations: Sequence[Deviation] = getattr(injection, "deviations", ())
    baseline = getattr(injection, "baseline", None)
    return StructuredDiagnosis(
        diagnosis, bound, deviations, baseline, required=required, estate=estate
    )


def factor_roles(arguments: Mapping[str, object]) -> BoundFactor:
    factor = arguments.get("factor")
    if not isinstance(factor, BoundFactor):
        raise ProvebenchError("a factor call needs a bound factor", field="factor")
    return factor


__all__ = [
    "FACTOR_CALLS",
    "SIGNAL_CALLS",
    "STRUCTURED_CALLS",
    "Basis",
    "DiagnosisFinding",
    "DiagnosisReading",
    "StructuredDiagnosis",
    "calls_structured",
    "deviation_namespace",
    "deviation_types",
    "factor_roles",
    "structured_diagnosis",
    "vocabulary_problem",
]
