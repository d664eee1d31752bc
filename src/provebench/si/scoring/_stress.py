"""`si stress`: score every answer family with the scenario's own table, under both readings,
and check each family against the band it deserves (`_stress_families`).

A family fails when one of its answers scores above its ceiling or, for the honest phrasings,
below the top band — under the reading checked (strict by default: under the ratified reading
C-DA-001 lets negations, questions and shotguns through, which is the finding SI §2.2 asks the
stress to establish; docs/si-scoring.md publishes that table as measured).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from provebench._output_mark import output_mark_line
from provebench.evidence import Evidence
from provebench.si.scenario._binding import bind_scoring
from provebench.si.scenario._scenario import Scenario
from provebench.si.scoring._evaluate import Prepared, evaluate_bound
from provebench.si.scoring._stress_families import Family, families
from provebench.si.scoring._strict import Reading

# The format of `si stress --format json` (docs/si-scoring.md).
STRESS_FORMAT = "provebench.si.stress/1"


@dataclass(frozen=True)
class FamilyOutcome:
    """A family's extreme answer under each reading (the highest for an adversarial family, the
    lowest for the honest one) against what it deserves."""

    scenario_id: str
    family: str
    honest: bool
    bound_score: float
    bound_band: str
    why: str
    example: dict[Reading, str]
    score: dict[Reading, float]
    band: dict[Reading, str]
    findings: tuple[str, ...]

    def holds(self, reading: Reading) -> bool:
        if self.honest:
            return self.score[reading] >= self.bound_score
        return self.score[reading] <= self.bound_score


def _answer(evidence: Evidence) -> str:
    said = evidence.final_answer or f"(reasoning trace) {evidence.reasoning_trace}"
    if evidence.diagnosis is None:
        return said
    # a structured family: the diagnosis decides, so it is what the example shows first
    factors = ", ".join(
        f"{f.resource} {f.key} {f.deviation_type}" for f in evidence.diagnosis.factors
    )
    return f"[diagnosis: {factors}] {said}"


def family_outcome(
    scenario: Scenario,
    prepared: Prepared,
    family: Family,
    shown: Callable[[Evidence], str] | None = None,
) -> FamilyOutcome:
    """A family's extreme answers under both readings, against its bound; `shown` says what an
    example is (the answer by default; the path of calls for an operation table)."""
    describe = shown or _answer
    example: dict[Reading, str] = {}
    score: dict[Reading, float] = {}
    band: dict[Reading, str] = {}
    findings: list[str] = []
    for evidence in family.answers:
        verdict = evaluate_bound(prepared, scenario, evidence)
        strict = verdict.strict
        assert strict is not None  # evaluate_bound computes it by default
        findings.extend(f"{finding.rule}: {finding.detail}" for finding in strict.findings)
        if strict.diagnosis is not None:
            findings.extend(f"{item.rule}: {item.detail}" for item in strict.diagnosis.findings)
        # a family's answers are evidence made in memory, with no harness to fail: scored
        assert verdict.band is not None and verdict.score is not None
        readings: tuple[tuple[Reading, str, float], ...] = (
            ("ratified", verdict.band, verdict.score),
            ("strict", strict.band, strict.score),
        )
        for reading, this_band, this_score in readings:
            known = score.get(reading)
            worse = known is None or (this_score < known if family.honest else this_score > known)
            if worse:
                score[reading], band[reading] = this_score, this_band
                example[reading] = describe(evidence)
    return FamilyOutcome(
        scenario_id=scenario.id,
        family=family.name,
        honest=family.honest,
        bound_score=family.bound_score,
        bound_band=family.bound_band,
        why=family.why,
        example=example,
        score=score,
        band=band,
        findings=tuple(dict.fromkeys(findings)),
    )


def stress_scenario(
    scenario: Scenario, *, window: str | None = None, structured: bool = True
) -> list[FamilyOutcome]:
    """Every family's outcome for one Form B scenario whose table identifies a factor;
    `structured`: with the structured diagnosis's families, which only the strict reading
    reads (the ratified reading never reads a diagnosis, so they are left out of its check)."""
    bound = bind_scoring(scenario, window=window)
    prepared = Prepared(bound)
    chosen = families(scenario, bound, structured=structured)
    return [family_outcome(scenario, prepared, family) for family in chosen]


def _cell(outcome: FamilyOutcome, reading: Reading, checked: Reading) -> str:
    mark = ""
    if reading == checked and not outcome.holds(reading):
        mark = " BELOW" if outcome.honest else " ABOVE"
    return f"{outcome.score[reading]:.1f}{mark}"


def _shown(text: str, width: int = 70) -> str:
    one_line = " / ".join(part.strip() for part in text.splitlines() if part.strip())
    return one_line if len(one_line) <= width else one_line[: width - 1] + "…"


def render_table(outcomes: list[FamilyOutcome], checked: Reading) -> str:
    """The stress table as plain text, the same bytes on every run: one line per family with
    its extreme example (under the reading checked), both readings' scores and what it
    deserves; a score past the bound is marked ABOVE (or BELOW for honest phrasings). Its first
    line is provebench's output mark: the honest family's example is a top-band answer, and the
    sandbox refuses a candidate folder holding the table (sandbox red team 42, G1-13)."""
    lines: list[str] = [output_mark_line("si stress")]
    header = f"{'family':28} {'ratified':>10} {'strict':>10}  {'deserves':10}  example ({checked})"
    for scenario_id in dict.fromkeys(outcome.scenario_id for outcome in outcomes):
        lines += [scenario_id, header]
        for outcome in (o for o in outcomes if o.scenario_id == scenario_id):
            bound = ("≥ " if outcome.honest else "≤ ") + f"{outcome.bound_score:.1f}"
            lines.append(
                f"{outcome.family:28} {_cell(outcome, 'ratified', checked):>10} "
                f"{_cell(outcome, 'strict', checked):>10}  {bound:10}  "
                f"{_shown(outcome.example[checked])}"
            )
        lines.append("")
    return "\n".join(lines)


def outcomes_json(outcomes: list[FamilyOutcome], checked: Reading) -> dict[str, object]:
    """The report `--format json` prints: its format, the reading checked and the outcomes, each
    with whether it holds when checked. The format names it as provebench's output: its honest
    family's example is a top-band answer, and the sandbox refuses a candidate folder holding
    one (`sandbox._outputs`; sandbox red team 41, SB7: a bare list was not told)."""
    return {"format": STRESS_FORMAT, "checked": checked, "outcomes": _outcomes(outcomes, checked)}


def _outcomes(outcomes: list[FamilyOutcome], checked: Reading) -> list[dict[str, object]]:
    return [
        {
            "scenario": outcome.scenario_id,
            "family": outcome.family,
            "honest": outcome.honest,
            "deserves": {"score": outcome.bound_score, "band": outcome.bound_band},
            "why": outcome.why,
            "ratified": {
                "score": outcome.score["ratified"],
                "band": outcome.band["ratified"],
                "example": outcome.example["ratified"],
            },
            "strict": {
                "score": outcome.score["strict"],
                "band": outcome.band["strict"],
                "example": outcome.example["strict"],
                "findings": list(outcome.findings),
            },
            "checked": checked,
            "holds": outcome.holds(checked),
        }
        for outcome in outcomes
    ]


__all__ = ["STRESS_FORMAT", "FamilyOutcome", "outcomes_json", "render_table", "stress_scenario"]
