"""`evaluate(scenario, evidence) -> Verdict`: run a Form B decision table (SI §1.2, §5.1).

Rows are tried in order and the first whose predicate holds decides band and score. Predicates
are evaluated lazily (`all` stops at the first false operand, `any` at the first true one, later
rows are never evaluated), and every primitive call actually made is recorded in the verdict with
its evidence. Evaluation is a pure function of the scenario, the evidence and the profile assets.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import JsonValue

from provebench._errors import ProvebenchError
from provebench.evidence import Evidence
from provebench.si.primitives._paths import PathResult
from provebench.si.primitives._primitives import (
    IMPLEMENTED_PRIMITIVES,
    Decider,
    PrimitiveResult,
    prepare_decider,
)
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
    Row,
    iter_calls,
)
from provebench.si.profile_data._registry import scoring_registry
from provebench.si.scenario._binding import BoundFactor, BoundScoring, RoleValue, bind_scoring
from provebench.si.scenario._scenario import Scenario
from provebench.si.scoring._diagnosis import StructuredDiagnosis, structured_diagnosis
from provebench.si.scoring._extension_calls import EXTENSION_PRIMITIVES, call_extension
from provebench.si.scoring._reference_runner import reference_band
from provebench.si.scoring._strict import (
    RatifiedBand,
    Reading,
    StrictContext,
    StrictReading,
    spelt_only_strictly,
    strict_reading,
    strict_row,
)
from provebench.si.scoring._strict_calls import STRICT_TABLE_CALLS, strict_call, strict_value
from provebench.si.scoring._verdict import (
    InputHashes,
    MatchedRow,
    PrimitiveEvaluation,
    ReferenceRunnerBand,
    ScenarioRef,
    Verdict,
    VerdictVersions,
    non_scoring_of,
    sealed_of,
)

# Profile constants a primitive reads besides its declared parameters (SI §3).
_CONSTANT_PARAMETERS = {"factor_identified": ("window",), "factor_asserted": ("window",)}


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


@dataclass(frozen=True)
class _Site:
    """One call of the table, resolved once: what it runs, with what, and how it is shown."""

    implementation: Callable[..., PrimitiveResult | PathResult]
    decider: Decider
    arguments: dict[str, Any]
    shown: str
    shown_arguments: dict[str, JsonValue]


class Prepared:
    """A bound table with every call resolved once (arguments bound and typed, rendering done),
    so that scoring many transcripts against one scenario repeats none of that work."""

    def __init__(self, bound: BoundScoring) -> None:
        self.bound = bound  # holds the calls whose ids key `sites` alive
        self.sites: dict[int, _Site] = {}
        self._strict_contexts: dict[int, tuple[Scenario, StrictContext]] = {}
        constants: Mapping[str, Any] = {"window": bound.window}
        for row in bound.rows:
            for _, call in iter_calls(row.when):
                self.sites[id(call)] = self._site(call, row.id, constants)
        # the calls the strict reading reads as `factor_asserted` (`_strict`), by id
        self.factor_identified_calls = frozenset(
            id(call)
            for row in bound.rows
            for _, call in iter_calls(row.when)
            if call.call == "factor_identified"
        )

    def strict_context(self, scenario: Scenario) -> StrictContext:
        """The strict reading's context for this scenario, made once."""
        known = self._strict_contexts.get(id(scenario))
        if known is None or known[0] is not scenario:
            known = (scenario, StrictContext(scenario, self.bound.roles))
            self._strict_contexts[id(scenario)] = known
        return known[1]

    def strict(
        self,
        scenario: Scenario,
        view: EvidenceView,
        ratified_row: Row,
        memo: dict[int, bool] | None = None,
        *,
        require_diagnosis: bool = False,
    ) -> StrictReading:
        """The strict reading of the table over this evidence (`_strict`); `memo` holds the
        values of calls already decided on this evidence, by call id. The evidence's structured
        diagnosis, when it has one (or `require_diagnosis`), decides the factor calls."""
        context = self.strict_context(scenario)
        structured = self._structured(scenario, view, require_diagnosis)
        return strict_reading(
            self.bound.rows, self.sites, context, view, ratified_row, memo, structured
        )

    def strict_row(
        self,
        scenario: Scenario,
        view: EvidenceView,
        ratified_row: Row,
        memo: dict[int, bool] | None = None,
        *,
        require_diagnosis: bool = False,
    ) -> Row:
        """The row `strict` decides, without the reading's report (`decide_both`)."""
        context = self.strict_context(scenario)
        structured = self._structured(scenario, view, require_diagnosis)
        return strict_row(
            self.bound.rows, self.sites, context, view, ratified_row, memo, structured
        )

    def _structured(
        self, scenario: Scenario, view: EvidenceView, require_diagnosis: bool
    ) -> StructuredDiagnosis | None:
        """The structured diagnosis both `strict` and `strict_row` read: one call, so the row a
        batch prints is the row the full reading decides (the estate names the kinds a dismissed
        entry is compared with)."""
        return structured_diagnosis(
            view.evidence.diagnosis,
            self.bound,
            scenario.injection,
            required=require_diagnosis,
            estate=scenario.preconditions.environment.state,
        )

    def _site(self, call: Call, row: int, constants: Mapping[str, Any]) -> _Site:
        implementation: Callable[..., PrimitiveResult | PathResult] | None
        implementation = IMPLEMENTED_PRIMITIVES.get(call.call)
        strict_context: StrictContext | None = None
        if implementation is None and call.call in STRICT_TABLE_CALLS:
            # provebench's strict-by-design templates (`_strict_calls`): the same in both readings
            strict_context = StrictContext.of_bound(self.bound)
            implementation = functools.partial(strict_call, call.call, strict_context)
        elif implementation is None and call.call in EXTENSION_PRIMITIVES:
            implementation = functools.partial(call_extension, call.call)
        if implementation is None:
            # SI §2.4: a scenario MUST NOT reference a primitive that is not registered.
            raise ProvebenchError(f"primitive {call.call!r} is not implemented", field="scoring")
        arguments = self.bound.arguments(call)
        missing = [
            name
            for name, spec in scoring_registry().primitives[call.call].params.items()
            if spec.required and name not in arguments
        ]
        if missing:
            # A role the table uses but the scenario does not bind: never call with a gap.
            raise ProvebenchError(
                f"row {row}: {call.call} needs {', '.join(missing)}, which the scenario does "
                "not bind",
                field="scoring",
            )
        extra = {name: constants[name] for name in _CONSTANT_PARAMETERS.get(call.call, ())}
        given = {**arguments, **extra}
        if call.call in IMPLEMENTED_PRIMITIVES:
            decider = prepare_decider(call.call, given)
        elif strict_context is not None:
            decider = functools.partial(strict_value, call.call, strict_context, given)
        else:
            decider = functools.partial(_extension_value, call.call, given)
        return _Site(
            implementation=implementation,
            decider=decider,
            arguments=given,
            shown=render_predicate(call),
            shown_arguments={name: _jsonable(value) for name, value in arguments.items()},
        )


def _extension_value(name: str, arguments: Mapping[str, Any], view: EvidenceView) -> bool:
    result = call_extension(name, view, **arguments)
    if result.unverifiable is not None:
        # The batch prints decisions only: a call the evidence cannot answer is refused there,
        # as the full verdict marks it PROVIDER_FAILURE (`evaluate_bound`).
        raise ProvebenchError(f"{name}: {result.unverifiable}", field="audit_log")
    return result.value


class _Run:
    """One evaluation: the evidence view, the prepared table and the calls made so far."""

    def __init__(self, prepared: Prepared, evidence: Evidence) -> None:
        self.prepared = prepared
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
        site = self.prepared.sites[id(call)]
        result = site.implementation(self.view, **site.arguments)
        self.evaluations.append(
            PrimitiveEvaluation(
                row=row, call=site.shown, arguments=site.shown_arguments, result=result
            )
        )
        return result.value


def _decides(predicate: Predicate, view: EvidenceView, sites: Mapping[int, _Site]) -> bool:
    # A module function, not a closure: a self-referring closure is a reference cycle that
    # would keep each transcript's whole evidence alive until the cyclic collector ran.
    if isinstance(predicate, Otherwise):
        return True
    if isinstance(predicate, Not):
        return not _decides(predicate.operand, view, sites)
    if isinstance(predicate, All):
        return all(_decides(operand, view, sites) for operand in predicate.operands)
    if isinstance(predicate, Any_):
        return any(_decides(operand, view, sites) for operand in predicate.operands)
    return sites[id(predicate)].decider(view)


def _holds(predicate: Predicate, value: Callable[[Call], bool]) -> bool:
    if isinstance(predicate, Otherwise):
        return True
    if isinstance(predicate, Not):
        return not _holds(predicate.operand, value)
    if isinstance(predicate, All):
        return all(_holds(operand, value) for operand in predicate.operands)
    if isinstance(predicate, Any_):
        return any(_holds(operand, value) for operand in predicate.operands)
    return value(predicate)


def decide(prepared: Prepared, evidence: Evidence) -> Row:
    """The row a full evaluation decides (first match wins), computed with the primitives'
    deciders: the same values, none of the reported evidence. For batches of decisions."""
    view = EvidenceView(evidence)
    sites = prepared.sites
    decided = next((row for row in prepared.bound.rows if _decides(row.when, view, sites)), None)
    if decided is None:
        raise ProvebenchError("no decision-table row matched", field="scoring")
    return decided


def decide_both(
    prepared: Prepared, scenario: Scenario, evidence: Evidence, *, require_diagnosis: bool = False
) -> tuple[Row, Row]:
    """The rows the ratified and the strict readings decide, by the deciders (`decide`): for
    batches that print decisions under the strict reading."""
    view = EvidenceView(evidence)
    memo: dict[int, bool] = {}

    def value(call: Call) -> bool:
        known = memo.get(id(call))
        if known is None:
            known = memo[id(call)] = prepared.sites[id(call)].decider(view)
        return known

    ratified = next((row for row in prepared.bound.rows if _holds(row.when, value)), None)
    if ratified is None:
        raise ProvebenchError("no decision-table row matched", field="scoring")
    if (
        evidence.diagnosis is None
        and not require_diagnosis
        and not any(memo.get(key) for key in prepared.factor_identified_calls)
        and not any(
            spelt_only_strictly(prepared.sites[key], view)
            for key in prepared.factor_identified_calls
        )
    ):
        # No structured diagnosis decides the factor calls (`structured_diagnosis` is None
        # exactly then), and no `factor_identified` the ratified pass asked was true: the
        # strict pass would ask the same calls in the same order and get the same values (a
        # false `factor_identified` stays false, as `factor_asserted` implies it, unless the
        # factor is spelt in the strict reading's own way, `spelt_only_strictly`), so its row
        # is the ratified one.
        return ratified, ratified
    # the strict reading asks each call the ratified pass made again: answered from the memo
    strict = prepared.strict_row(
        scenario, view, ratified, memo, require_diagnosis=require_diagnosis
    )
    return ratified, strict


def evaluate_bound(
    bound: BoundScoring | Prepared,
    scenario: Scenario,
    evidence: Evidence,
    inputs: InputHashes | None = None,
    *,
    reading: Reading = "ratified",
    with_strict: bool = True,
    require_diagnosis: bool = False,
) -> Verdict:
    """Run the bound decision table over the evidence (first match wins), and beside it the
    strict reading (`_strict`); `reading` chooses which gives band and score.
    `require_diagnosis`: under the strict reading, a factor is identified only by a submitted
    structured diagnosis (`_diagnosis`), never by prose alone."""
    prepared = bound if isinstance(bound, Prepared) else Prepared(bound)
    table = prepared.bound
    run = _Run(prepared, evidence)
    decided = next((row for row in table.rows if run.holds(row.when, row.id)), None)
    if decided is None:
        # check_rows guarantees a final `otherwise`; a table that falls through is a bug.
        raise ProvebenchError("no decision-table row matched", field="scoring")
    strict = (
        prepared.strict(scenario, run.view, decided, require_diagnosis=require_diagnosis)
        if with_strict
        else None
    )
    ratified: RatifiedBand | None = None
    if reading == "strict":
        if strict is None:
            raise ProvebenchError("the strict reading was not computed", field="reading")
        ratified = RatifiedBand(band=decided.band, score=decided.score, matched_row=decided.id)
        decided = next(row for row in table.rows if row.id == strict.matched_row)
    versions = table.versions
    fault = evidence.provider_failure or _unverifiable(run.evaluations)
    # a harness fault's scenario is not scored: no band, score or row a reader or an aggregate
    # could take as the agent's (Core §3.6–3.7); the evaluations stay, to show what was read
    scored = fault is None
    return Verdict(
        band=decided.band if scored else None,
        score=decided.score if scored else None,
        sealed=sealed_of(evidence),
        scenario=ScenarioRef(id=scenario.id, version=scenario.version, archetype=table.archetype),
        matched_row=MatchedRow(
            id=decided.id,
            band=decided.band,
            score=decided.score,
            predicate=render_predicate(decided.when),
        )
        if scored
        else None,
        evaluations=run.evaluations,
        non_scoring=non_scoring_of(evidence),
        versions=VerdictVersions(
            profile=versions.profile,
            registry=versions.registry,
            registry_extension=versions.registry_extension,
            constants=versions.constants,
            template_id=versions.template_id,
            template_version=versions.template_version,
            cooccurrence_window=versions.window,
            synonym_lists=dict(sorted(versions.synonym_lists.items())),
        ),
        inputs=inputs or InputHashes(),
        provider_failure=fault,
        strict=strict if scored else None,
        reading=reading,
        ratified=ratified if scored else None,
    )


def _unverifiable(evaluations: list[PrimitiveEvaluation]) -> str | None:
    """Why the evidence could not answer a call the table made (an extension primitive over an
    audit log the evidence lacks), or None: such a band is not the agent's (Core §3.6)."""
    for evaluation in evaluations:
        result = evaluation.result
        if isinstance(result, PathResult) and result.unverifiable is not None:
            return f"row {evaluation.row}: {evaluation.call}: {result.unverifiable}"
    return None


# The reference runner's co-occurrence window: a sentence on either side (`_reference_runner`).
REFERENCE_WINDOW = "adjacent-sentence"


def evaluate(
    scenario: Scenario,
    evidence: Evidence,
    *,
    window: str | None = None,
    inputs: InputHashes | None = None,
    reading: Reading = "ratified",
    require_diagnosis: bool = False,
) -> Verdict:
    """The verdict of a Form B scenario on one evidence artifact (a pure function), with the
    band the reference OASIS runner gives it beside provebench's (none where that runner refuses
    the binding: another template than C-DA-001, registry extension calls, a deviation type it
    has no synonyms for).

    `window` selects the co-occurrence window of `factor_identified` (SI §2.2): None is the
    profile default, `same-sentence`; `adjacent-sentence` is the later revision's window.
    `reading` chooses which reading gives band and score (the other is shown beside it).
    """
    bound = bind_scoring(scenario, window=window)
    verdict = evaluate_bound(
        bound, scenario, evidence, inputs, reading=reading, require_diagnosis=require_diagnosis
    )
    decision = reference_band(bound, evidence)
    if decision is None or verdict.matched_row is None:
        return verdict  # no reference band beside a scenario that is not scored
    # The reference runner has the ratified reading only: compare with it, whatever gives the score.
    ratified = verdict.ratified or verdict.matched_row
    assert ratified is not None  # a scored verdict has its matched row
    row = next(row for row in bound.rows if row.id == decision.row)
    band = ReferenceRunnerBand(
        window=REFERENCE_WINDOW,
        band=row.band,
        score=row.score,
        matched_row=row.id,
        same_as_provebench=row.band == ratified.band,
    )
    return verdict.model_copy(update={"reference_runner": band})


__all__ = [
    "REFERENCE_WINDOW",
    "Prepared",
    "decide",
    "decide_both",
    "evaluate",
    "evaluate_bound",
    "render_predicate",
]
