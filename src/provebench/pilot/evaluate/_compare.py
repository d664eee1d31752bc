"""`provebench pilot compare`: the laboratory verdict against the shadow verdict (pilot §2 "a
positive laboratory result does not replace the operational check", §15 "a material discrepancy
between the laboratory and shadow operational result" stops the pilot).

Rule `lab-shadow-material/1` (docs/pilot-evaluator.md, "Laboratory versus shadow"). The
discrepancy is *material*, and the §15 condition triggered, when any of these holds:

1. a metric of pilot §7 is lower in the shadow verdict than in the laboratory verdict by more
   than `TOLERANCE` (0.01, one percentage point): the laboratory overstated how the candidate
   operates. A shadow metric *higher* than the laboratory's is reported, never material: the
   laboratory injects faults and adversarial input the real stream may not hold.
2. a kind of critical violation appears in the shadow verdict and not in the laboratory's.
3. the laboratory gate passed and the shadow run does not pass it.

Both verdicts must carry the laboratory's signature (`--trust-key`), be evaluated (not a
configuration error), be about the same candidate (agent name, version and code sha256), and be
one laboratory verdict and one shadow verdict (the corpus profile each records). Anything else
is bad input, not a comparison.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from provebench._canonical import canonical_json
from provebench._errors import ProvebenchError, validation_failure
from provebench._read_once import read_once
from provebench.attest import TrustedKey, envelope_path_for
from provebench.attest._envelope import AttestationError, write_and_sign
from provebench.pilot.evaluate._core import facts_mismatch
from provebench.pilot.evaluate._verdict import MetricSet, Verdict
from provebench.pilot.record._signing import foreign_run_problem, signed_verdict

COMPARISON_FORMAT = "call-import-comparison/1"
MATERIAL_RULE = "lab-shadow-material/1"
TOLERANCE = 0.01
COMPARISON_PREDICATE = "urn:provebench:pilot-comparison:1"
_MODEL = ConfigDict(extra="forbid", frozen=True)


class MetricDifference(BaseModel):
    model_config = _MODEL

    metric: str
    laboratory: float
    shadow: float
    difference: float  # shadow − laboratory
    material: bool


class ViolationDifference(BaseModel):
    model_config = _MODEL

    kind: str
    laboratory: int
    shadow: int
    material: bool


class Comparison(BaseModel):
    model_config = _MODEL

    format: str
    rule: str
    tolerance: float
    laboratory_verdict_sha256: str
    shadow_verdict_sha256: str
    agent: dict[str, str]
    laboratory_corpus: dict[str, Any]
    shadow_corpus: dict[str, Any]
    laboratory_pass: bool
    shadow_laboratory_pass: bool
    metrics: list[MetricDifference]
    critical_violations: list[ViolationDifference]
    material: bool
    reasons: list[str]
    stopping_condition: Literal["triggered", "clear"]


def _verified(path: Path, trusted: TrustedKey, role: str) -> tuple[Verdict, str]:
    """The signed verdict at `path`, parsed from one read, and the sha256 of the bytes parsed:
    what the comparison names (red team round 12b, C1: the digest was a second read by path,
    and a material shadow verdict renamed in after the check was named by a "clear" one)."""
    try:
        signed = signed_verdict(envelope_path_for(path), trusted)
    except AttestationError as error:
        raise ProvebenchError(error.message, path=error.path or path, field=role) from None
    # Parse only the bytes whose digest the signature names, read once, and use the verdict
    # only if it says what the evaluator signed (red team round 11, A4b: the file was verified,
    # then read again, and a forged verdict's own words were compared).
    held = read_once(path)
    if held.sha256 != signed.subjects.get(path.name):
        raise ProvebenchError("the verdict is not the signed one", path=path, field=role)
    try:
        verdict = Verdict.model_validate_json(held.data)
    except ValidationError as error:
        raise validation_failure(error, path=path, field=role) from None
    foreign = foreign_run_problem(signed.predicate, trusted)  # red team round 12b, F1
    if foreign is not None:
        raise ProvebenchError(foreign, path=path, field=role)
    verdict.signed_by_run_key(trusted.keyid)
    differs = facts_mismatch(verdict, signed.predicate)
    if differs is not None:
        raise ProvebenchError(
            f"the verdict's {differs} is not what its signature states", path=path, field=role
        )
    if verdict.status != "evaluated" or verdict.metrics is None:
        raise ProvebenchError(
            "not an evaluated verdict (a configuration error compares nothing)",
            path=path,
            field="status",
        )
    return verdict, held.sha256


def _profile(verdict: Verdict) -> str:
    evidence = verdict.result_evidence
    return str((evidence.corpus if evidence is not None else {}).get("profile"))


def compare_verdicts(laboratory: Path, shadow: Path, trusted: TrustedKey) -> Comparison:
    lab, lab_sha256 = _verified(laboratory, trusted, "LAB_VERDICT")
    shadowed, shadow_sha256 = _verified(shadow, trusted, "SHADOW_VERDICT")
    if _profile(lab) == "shadow":
        raise ProvebenchError(
            "this is a shadow verdict; give the laboratory verdict first",
            path=laboratory,
            field="result_evidence.corpus.profile",
        )
    if _profile(shadowed) != "shadow":
        raise ProvebenchError(
            "not a shadow verdict (its corpus is not a shadow corpus)",
            path=shadow,
            field="result_evidence.corpus.profile",
        )
    assert lab.result_evidence is not None and shadowed.result_evidence is not None
    lab_agent, shadow_agent = lab.result_evidence.agent, shadowed.result_evidence.agent
    for key in ("spec", "name", "version", "code_sha256"):
        if lab_agent.get(key) != shadow_agent.get(key):
            raise ProvebenchError(
                "the verdicts are about different candidates", path=shadow,
                field=f"result_evidence.agent.{key}",
            )  # fmt: skip
    assert lab.metrics is not None and shadowed.metrics is not None
    metrics: list[MetricDifference] = []
    reasons: list[str] = []
    for name in MetricSet.model_fields:
        before = getattr(lab.metrics.overall, name).value
        after = getattr(shadowed.metrics.overall, name).value
        material = before - after > TOLERANCE
        metrics.append(
            MetricDifference(
                metric=name,
                laboratory=before,
                shadow=after,
                difference=after - before,
                material=material,
            )
        )
        if material:
            reasons.append(
                f"{name} is {after:.4f} in the shadow run, {before:.4f} in the laboratory "
                f"(lower by more than {TOLERANCE})"
            )
    lab_kinds = _kinds(lab)
    shadow_kinds = _kinds(shadowed)
    violations = [
        ViolationDifference(
            kind=kind,
            laboratory=lab_kinds.get(kind, 0),
            shadow=shadow_kinds.get(kind, 0),
            material=kind not in lab_kinds,
        )
        for kind in sorted(set(lab_kinds) | set(shadow_kinds))
    ]
    reasons += [
        f"critical violation {v.kind} in the shadow run ({v.shadow}), none in the laboratory"
        for v in violations
        if v.material
    ]
    if lab.laboratory_pass and not shadowed.laboratory_pass:
        reasons.append("the laboratory gate passed; the shadow run does not pass it")
    return Comparison(
        format=COMPARISON_FORMAT,
        rule=MATERIAL_RULE,
        tolerance=TOLERANCE,
        laboratory_verdict_sha256=lab_sha256,
        shadow_verdict_sha256=shadow_sha256,
        agent=dict(lab_agent),
        laboratory_corpus=dict(lab.result_evidence.corpus),
        shadow_corpus=dict(shadowed.result_evidence.corpus),
        laboratory_pass=lab.laboratory_pass,
        shadow_laboratory_pass=shadowed.laboratory_pass,
        metrics=metrics,
        critical_violations=violations,
        material=bool(reasons),
        reasons=reasons,
        stopping_condition="triggered" if reasons else "clear",
    )


def _kinds(verdict: Verdict) -> dict[str, int]:
    counts: dict[str, int] = {}
    for violation in verdict.critical_violations:
        counts[violation.kind] = counts.get(violation.kind, 0) + 1
    return counts


def write_comparison(comparison: Comparison, path: Path) -> None:
    """The comparison and its signed envelope beside it (`comparison.dsse.json`)."""
    facts = {
        "format": comparison.format,
        "rule": comparison.rule,
        "material": comparison.material,
        "stopping_condition": comparison.stopping_condition,
        "agent": comparison.agent,
        "laboratory_verdict_sha256": comparison.laboratory_verdict_sha256,
        "shadow_verdict_sha256": comparison.shadow_verdict_sha256,
    }
    write_and_sign(
        path, canonical_json(comparison), envelope_path_for(path), COMPARISON_PREDICATE, facts
    )


__all__ = [
    "COMPARISON_FORMAT",
    "COMPARISON_PREDICATE",
    "MATERIAL_RULE",
    "TOLERANCE",
    "Comparison",
    "compare_verdicts",
    "write_comparison",
]
