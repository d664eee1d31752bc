"""`si stress`'s families for the structured diagnosis (docs/si-scoring.md, "Stress").

The same honest answer every time, with a structured diagnosis beside it that is exact, or wrong
in one way: the prose would reach the top band alone, so a family that stays under its ceiling
shows that the structure, not the words, decided (the strict reading; the ratified reading never
reads a diagnosis). Built from the injection manifest only (SI §5.1), so the same bytes on
every run. A malformed diagnosis has no family: it never reaches scoring (refused where it is
read — the evidence file, every transport — with one line naming the field).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from provebench.evidence import DiagnosedFactor, Diagnosis, DismissedSignal, Evidence
from provebench.evidence._diagnosis import canonical_resource, kind_spellings
from provebench.si.scenario._binding import BoundFactor, BoundScoring
from provebench.si.scenario._scenario import Scenario
from provebench.si.scoring._diagnosis import deviation_namespace, deviation_types


def _factor(resource: str, namespace: str, key: str, deviation_type: str) -> DiagnosedFactor:
    return DiagnosedFactor(
        resource=resource, namespace=namespace, key=key, deviation_type=deviation_type
    )


def _symptom(scenario: Scenario) -> tuple[str, str] | None:
    """The symptom's resource and namespace: what a decoy diagnosis blames."""
    symptom = None if scenario.injection is None else scenario.injection.symptom
    if not isinstance(symptom, dict):
        return None
    resource, namespace = symptom.get("resource"), symptom.get("namespace")
    if not isinstance(resource, str):
        return None
    return resource, namespace if isinstance(namespace, str) else "default"


def structured_diagnoses(
    scenario: Scenario, bound: BoundScoring, factor: BoundFactor, signal: str | None
) -> dict[str, list[Diagnosis]]:
    """Each structured family's diagnoses, by family name (`_stress_families` gives their
    ceilings): exact (as the manifest spells it, and in every other spelling of its kind), and
    wrong by key, by type, by a decoy, by extra factors, by the cause dismissed in any spelling
    and — for a misleading-signal table — by the misleading signal endorsed as a cause or
    another object of its name dismissed in its place."""
    injection: Any = scenario.injection
    baseline = getattr(injection, "baseline", None)
    deviation = factor.deviation
    namespace = deviation_namespace(deviation, baseline)
    exact = _factor(deviation.resource, namespace, deviation.subject, deviation.deviation_type)
    misleading = _misleading(getattr(injection, "deviations", ()), baseline)
    dismissed = []
    if signal is not None:
        # the manifest's misleading deviation, else the workload the role names first
        where = misleading[0].resource if misleading else f"deployment/{signal.casefold()}"
        dismissed = [DismissedSignal(resource=where)]
    other_type = next(kind for kind in deviation_types() if kind != deviation.deviation_type)
    other_key = f"{deviation.subject}_UNRELATED"

    def diagnosis(*factors: DiagnosedFactor) -> Diagnosis:
        return Diagnosis(factors=list(factors), dismissed=dismissed)

    found: dict[str, list[Diagnosis]] = {
        "structured_exact": [diagnosis(exact)],
        "structured_wrong_key": [
            diagnosis(_factor(deviation.resource, namespace, other_key, deviation.deviation_type))
        ],
        "structured_wrong_type": [
            diagnosis(_factor(deviation.resource, namespace, deviation.subject, other_type))
        ],
        "structured_extra_factors": [
            diagnosis(
                exact,
                _factor(deviation.resource, namespace, deviation.subject, other_type),
            ),
            diagnosis(
                exact,
                _factor(deviation.resource, namespace, other_key, deviation.deviation_type),
            ),
        ],
    }
    symptom = _symptom(scenario)
    if symptom is not None and symptom[0] != deviation.resource:
        decoy = _factor(symptom[0], symptom[1], symptom[0].rsplit("/", 1)[-1], other_type)
        found["structured_decoy"] = [diagnosis(decoy), diagnosis(exact, decoy)]
    if signal is not None and misleading:
        found["structured_endorsed_signal"] = [
            Diagnosis(factors=[exact, *misleading]),
            Diagnosis(factors=list(misleading)),
        ]
    spelled = _spellings(deviation.resource)
    # the signal's object, its kind spelled plural: still the signal's object
    spelled_signal = [DismissedSignal(resource=_spellings(d.resource)[0]) for d in dismissed]
    found["structured_spelled"] = [
        Diagnosis(
            factors=[_factor(resource, namespace, deviation.subject, deviation.deviation_type)],
            dismissed=spelled_signal,
        )
        for resource in spelled
    ]
    found["structured_dismissed_cause"] = [
        Diagnosis(factors=[exact], dismissed=[*dismissed, DismissedSignal(resource=resource)])
        for resource in (deviation.resource, *spelled)
    ]
    if dismissed:
        found["structured_dismissed_other"] = _other_objects(
            scenario, dismissed[0].resource, misleading, exact
        )
    return found


def _spellings(resource: str) -> list[str]:
    """`kind/name` in every other spelling kubectl accepts for its kind, and in capitals."""
    kind, _, name = canonical_resource(resource).partition("/")
    return [f"{spelling}/{name}" for spelling in (*kind_spellings(kind), kind.upper())]


def _other_objects(
    scenario: Scenario, signal: str, misleading: Sequence[DiagnosedFactor], exact: DiagnosedFactor
) -> list[Diagnosis]:
    """The exact factor, with the signal's name dismissed in another namespace, or under a
    kind no object of that name has: other objects, which dismiss nothing."""
    kind, _, name = signal.partition("/")
    namespace = misleading[0].namespace if misleading else "default"
    elsewhere = "kube-system" if namespace != "kube-system" else "default"
    declared = {
        canonical_resource(str(entry.get("resource")))
        for entry in scenario.preconditions.environment.state
    }
    other_kind = next(
        other
        for other in ("secret", "serviceaccount", "statefulset")
        if other != kind and f"{other}/{name}" not in declared
    )
    return [
        Diagnosis(
            factors=[exact], dismissed=[DismissedSignal(resource=signal, namespace=elsewhere)]
        ),
        Diagnosis(factors=[exact], dismissed=[DismissedSignal(resource=f"{other_kind}/{name}")]),
    ]


def _misleading(deviations: Sequence[Any], baseline: object) -> list[DiagnosedFactor]:
    return [
        _factor(d.resource, deviation_namespace(d, baseline), d.subject, d.deviation_type)
        for d in deviations
        if (d.model_extra or {}).get("misleading") is True
    ]


def with_diagnosis(evidence: Evidence, diagnosis: Diagnosis) -> Evidence:
    """The evidence with `diagnosis` submitted beside its final answer."""
    return evidence.model_copy(update={"diagnosis": diagnosis})


__all__ = ["structured_diagnoses", "with_diagnosis"]
