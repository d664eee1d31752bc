"""`evaluate(scenario, evidence) -> Verdict`: run a Form B decision table (SI §1.2, §5.1).

Rows are tried in order and the first whose predicate holds decides band and score. Predicates
are evaluated lazily (`all` stops at the first false operand, `any` at the first true one, later
rows are never evaluated), and every primitive call actually made is recorded in the verdict with
its evidence. Evaluation is a pure function of the scenario, the evidence and the profile assets.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from pydantic import JsonValue

from provebench._errors import ProvebenchError
from provebench.evidence import Evidence
from provebench.si.primitives._primitives import IMPLEMENTED_PRIMITIVES
from provebench.si.primitives._scope import EvidenceView
from provebench.si.profile_data._predicates import (
    All,
    Any_,
    Call,
    Lit,
    Not,
    Otherwise,
    Predicate,
    Ref,
)
from provebench.si.profile_data._registry import registry
from provebench.si.scenario._binding import BoundFactor, BoundScoring, RoleValue, bind_scoring
from provebench.si.scenario._scenario import Scenario
from provebench.si.scoring._verdict import (
    InputHashes,
    MatchedRow,
    NonScoringMetadata,
    PrimitiveEvaluation,
    ScenarioRef,
    Verdict,
    VerdictVersions,
)

# Profile constants a primitive reads besides its declared parameters (SI §3).
_CONSTANT_PARAMETERS = {"factor_identified": ("window",)}


def render_predicate(predicate: Predicate) -> str:
    """The predicate as one line of text, with role references as written (`$step_budget`)."""
    if isinstance(predicate, Call):
        arguments = ", ".join(f"{name}={_render_arg(arg)}" for name, arg in predicate.args.items())
        return f"{predicate.call}({arguments})"
    if isinstance(predicate, Not):
        return f"not {render_predicate(predicate.operand)}"
    if isinstance(predicate, All | Any_):
        word = "all" if isinstance(predicate, All) else "any"
        return f"{word}({', '.join(render_predicate(o) for o in predicate.operands)})"
    return "otherwise"


def _render_arg(arg: Ref | Lit) -> str:
    if isinstance(arg, Ref):
        return str(arg)
    return json.dumps(arg.value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def _jsonable(value: RoleValue) -> JsonValue:
    if isinstance(value, BoundFactor):
        return {
            "ref": value.ref,
            "deviation_type": value.deviation_type,
            "required_identifiers": list(value.required_identifiers),
        }
    if isinstance(value, tuple):
        return list(value)
    return value


class _Run:
    """One evaluation: the evidence view, the bound scoring and the calls made so far."""

    def __init__(self, bound: BoundScoring, evidence: Evidence) -> None:
        self.bound = bound
        self.view = EvidenceView(evidence)
        self.evaluations: list[PrimitiveEvaluation] = []

    def holds(self, predicate: Predicate, row: int) -> bool:
        if isinstance(predicate, Otherwise):
            return True
        if isinstance(predicate, Not):
            return not self.holds(predicate.operand, row)
        if isinstance(predicate, All):
            return all(self.holds(operand, row) for operand in predicate.operands)
        if isinstance(predicate, Any_):
            return any(self.holds(operand, row) for operand in predicate.operands)
        return self._call(predicate, row)

    def _call(self, call: Call, row: int) -> bool:
        implementation = IMPLEMENTED_PRIMITIVES.get(call.call)
        if implementation is None:
            # SI §2.4: a scenario MUST NOT reference a primitive that is not registered.
            raise ProvebenchError(f"primitive {call.call!r} is not implemented", field="scoring")
        arguments = self.bound.arguments(call)
        missing = [
            name
            for name, spec in registry().primitives[call.call].params.items()
            if spec.required and name not in arguments
        ]
        if missing:
            # A role the table uses but the scenario does not bind: never call with a gap.
            raise ProvebenchError(
                f"row {row}: {call.call} needs {', '.join(missing)}, which the scenario does "
                "not bind",
                field="scoring",
            )
        constants: Mapping[str, Any] = {"window": self.bound.window}
        extra = {name: constants[name] for name in _CONSTANT_PARAMETERS.get(call.call, ())}
        result = implementation(self.view, **arguments, **extra)
        self.evaluations.append(
            PrimitiveEvaluation(
                row=row,
                call=render_predicate(call),
                arguments={name: _jsonable(value) for name, value in arguments.items()},
                result=result,
            )
        )
        return result.value


def evaluate_bound(
    bound: BoundScoring, scenario: Scenario, evidence: Evidence, inputs: InputHashes | None = None
) -> Verdict:
    """Run the bound decision table over the evidence (first match wins)."""
    run = _Run(bound, evidence)
    decided = next((row for row in bound.rows if run.holds(row.when, row.id)), None)
    if decided is None:
        # check_rows guarantees a final `otherwise`; a table that falls through is a bug.
        raise ProvebenchError("no decision-table row matched", field="scoring")
    versions = bound.versions
    metadata = evidence.metadata
    return Verdict(
        band=decided.band,
        score=decided.score,
        scenario=ScenarioRef(id=scenario.id, version=scenario.version, archetype=bound.archetype),
        matched_row=MatchedRow(
            id=decided.id,
            band=decided.band,
            score=decided.score,
            predicate=render_predicate(decided.when),
        ),
        evaluations=run.evaluations,
        non_scoring=NonScoringMetadata(
            tool_invocations=len(evidence.actions),
            steps_to_final_answer=evidence.steps_to_final_answer(),
            duration_ms=metadata.duration_ms,
            tokens=metadata.tokens,
            agent_name=metadata.agent_name,
            agent_version=metadata.agent_version,
            agent_isolation=metadata.agent_isolation,
            model=metadata.model,
        ),
        versions=VerdictVersions(
            profile=versions.profile,
            registry=versions.registry,
            constants=versions.constants,
            template_id=versions.template_id,
            template_version=versions.template_version,
            cooccurrence_window=versions.window,
            synonym_lists=dict(sorted(versions.synonym_lists.items())),
        ),
        inputs=inputs or InputHashes(),
        provider_failure=evidence.provider_failure,
    )


def evaluate(
    scenario: Scenario,
    evidence: Evidence,
    *,
    window: str | None = None,
    inputs: InputHashes | None = None,
) -> Verdict:
    """The verdict of a Form B scenario on one evidence artifact (a pure function).

    `window` selects the co-occurrence window of `factor_identified` (SI §2.2): None is the
    profile default, `same-sentence`; `adjacent-sentence` is the later revision's window.
    """
    return evaluate_bound(bind_scoring(scenario, window=window), scenario, evidence, inputs)


__all__ = ["evaluate", "evaluate_bound", "render_predicate"]
