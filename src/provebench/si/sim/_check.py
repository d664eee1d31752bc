"""The counterfactual check of a Form B scenario (SI §5.1): its answer key is proved against the
simulator before the scenario is used.

"Ground truth is the injection manifest": with every deviation injected, the declared symptom is
observable; with every deviation restored, it is not; and each factor's required identifiers occur
in the delta between the healthy baseline and the injected state. The symptom is read from what
the simulator derives (`observe`), never from a declared ``status``. Declared observations (an
alert, a metrics series, a ``cpu_usage``: docs/si-lab.md) are held apart from the resources and
are no part of the proof: the report names them (`unproved_observations`).

Inputs that cannot be simulated (prose baseline, unknown resource or key, a deviation that changes
nothing, an already unhealthy baseline, a symptom naming no simulated resource) are
`ProvebenchError`s naming the scenario field; claims that the simulator refutes are failed checks.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from provebench._canonical import canonical_json
from provebench._errors import ProvebenchError
from provebench.evidence import StateChange
from provebench.si.primitives._matching import delimited_occurrences
from provebench.si.primitives._normalize import comparison_key
from provebench.si.scenario._binding import BoundScoring, bind_scoring
from provebench.si.scenario._scenario import FormBScoring, Scenario
from provebench.si.sim._check_ops import operation_checks
from provebench.si.sim._derive import UNHEALTHY_CONDITIONS, Observation, observe
from provebench.si.sim._estate import (
    DECLARED_KINDS,
    Estate,
    parse_key,
    resource_key,
    split_resource,
)
from provebench.si.sim._inject import (
    BASELINE_FIELD,
    STATE_FIELD,
    Scene,
    build_scene,
    delta,
    is_misleading,
    restore,
)

_CLOSED = ConfigDict(extra="forbid", frozen=True)
# The format of `si check --json` (docs/si-lab.md).
CHECK_FORMAT = "provebench.si.check/1"
SYMPTOM_FIELD = "injection.symptom"
HEALTHY_STATUSES = frozenset({"running", "available", "healthy", "ready"})


class CheckResult(BaseModel):
    model_config = _CLOSED
    name: str
    ok: bool
    detail: str


class CounterfactualReport(BaseModel):
    """The outcome of ``si check`` for one scenario."""

    model_config = _CLOSED
    scenario_id: str
    symptom: str
    delta: tuple[StateChange, ...]
    checks: tuple[CheckResult, ...]
    # What the scenario declares observed and no rule derives (an alert, a metrics series, a
    # `cpu_usage`): held beside the resources, never varied, restored or compared, so no check
    # above proves it. A deployment's declared `status` is none of them: its status is derived,
    # and `declared_status` checks the declared word against it.
    unproved_observations: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return all(check.ok for check in self.checks)

    @property
    def reasons(self) -> list[str]:
        return [f"{c.name}: {c.detail}" for c in self.checks if not c.ok]

    def to_json(self) -> str:
        """`si check --json`: the report, named by its format as provebench's output (its delta
        names the injected deviation, which the sandbox refuses a candidate folder holding;
        sandbox red team 41, SB7)."""
        dumped = self.model_dump(mode="json")
        if not self.unproved_observations:  # the report of a scenario that declares none
            dumped.pop("unproved_observations")
        return canonical_json({"format": CHECK_FORMAT, **dumped, "ok": self.ok}) + "\n"


def unproved_observations(estate: Estate) -> tuple[str, ...]:
    """``KEY`` of each declared-only object and ``KEY.FIELD`` of each declared field of a
    resource: the declared observations, which no check proves."""
    found: list[str] = []
    for key in estate.declared_keys():
        if key.split("/", 1)[0] in DECLARED_KINDS:
            found.append(key)
        else:
            found.extend(f"{key}.{field}" for field in sorted(estate.declared_fields(key)))
    return tuple(found)


def symptom_target(scenario: Scenario) -> tuple[str, str]:
    """(deployment key, condition) of the structured symptom ``{resource, condition}``."""
    assert scenario.injection is not None
    symptom = scenario.injection.symptom
    if not isinstance(symptom, Mapping):
        raise ProvebenchError(
            "the symptom must be structured: {resource: deployment/NAME, condition: "
            f"{'|'.join(UNHEALTHY_CONDITIONS)}}} (namespace optional)",
            field=SYMPTOM_FIELD,
        )
    for name in sorted(set(symptom) - {"resource", "condition", "namespace"}):
        raise ProvebenchError(f"unknown symptom field {name!r}", field=f"{SYMPTOM_FIELD}.{name}")
    resource, condition = symptom.get("resource"), symptom.get("condition")
    if not isinstance(resource, str):
        raise ProvebenchError("must be deployment/NAME", field=f"{SYMPTOM_FIELD}.resource")
    kind, name = split_resource(resource, field=f"{SYMPTOM_FIELD}.resource")
    if kind != "deployment":
        raise ProvebenchError(
            f"symptoms are observed on deployments, not on a {kind}",
            field=f"{SYMPTOM_FIELD}.resource",
        )
    if condition not in UNHEALTHY_CONDITIONS:
        raise ProvebenchError(
            f"condition {condition!r} is not an observable symptom "
            f"(observable: {', '.join(UNHEALTHY_CONDITIONS)})",
            field=f"{SYMPTOM_FIELD}.condition",
        )
    namespace = symptom.get("namespace")
    if namespace is None:
        # Like a deviation, a symptom may leave out the namespace when the name is unique.
        found = [
            k for k in build_scene(scenario).injected.keys("deployment") if k.endswith(f"/{name}")
        ]
        namespace = parse_key(found[0])[1] if len(found) == 1 else "default"
    return resource_key("deployment", str(namespace), name), str(condition)


def _delta_text(changes: list[StateChange]) -> str:
    def shown(value: Any) -> str:
        return value if isinstance(value, str) else canonical_json(value, indent=None)

    return "\n".join(f"{c.path} {shown(c.before)} {shown(c.after)}" for c in changes)


def _identifiers_check(
    scenario: Scenario, changes: list[StateChange], operations: bool
) -> CheckResult:
    factors = bind_scoring(scenario).factors
    if not factors and operations:
        # An operation table (C-OE-002, C-OE-004) grades no prose: its key is proved by acting.
        return CheckResult(
            name="identifiers_in_delta",
            ok=True,
            detail="the table binds operations, not a factor: proved by the checks that act",
        )
    text_key = comparison_key(_delta_text(changes))
    missing = [
        f"{role}: {identifier}"
        for role, factor in sorted(factors.items())
        for identifier in factor.required_identifiers
        if not delimited_occurrences(text_key, comparison_key(identifier))
    ]
    if not factors:
        return CheckResult(name="identifiers_in_delta", ok=False, detail="no factor is bound")
    if missing:
        detail = f"not in the baseline→injected delta: {', '.join(missing)}"
        return CheckResult(name="identifiers_in_delta", ok=False, detail=detail)
    named = ", ".join(i for f in factors.values() for i in f.required_identifiers)
    return CheckResult(name="identifiers_in_delta", ok=True, detail=f"all occur: {named}")


def _status_check(scenario: Scenario, observation: Observation) -> CheckResult:
    """A declared ``status`` (never read by the simulator) must agree with what it derives; a
    bare deployment's, which nothing derives, is a declared observation (listed unproved)."""
    wrong = []
    for index, entry in enumerate(scenario.preconditions.environment.state):
        status, resource = entry.get("status"), entry.get("resource")
        if not isinstance(status, str) or not str(resource).startswith("deployment/"):
            continue
        key = resource_key("deployment", entry.get("namespace", "default"), str(resource)[11:])
        if "status" in observation.estate.declared_fields(key):
            if "containers" in entry:
                # a word no rule derives from containers that declare no behaviour: held as
                # declared in a run (`_estate._derived_word`), never proved by the answer key
                wrong.append(f"{STATE_FIELD}[{index}].status is {status!r}, which no rule derives")
            continue  # a bare deployment's: a declared observation, listed as not proved
        found = observation.conditions(key)
        agrees = status in found if found else status.casefold() in HEALTHY_STATUSES
        if not agrees:
            shown = ", ".join(sorted(found)) or "healthy"
            wrong.append(f"{STATE_FIELD}[{index}].status is {status!r}, derived: {shown}")
    detail = "; ".join(wrong) or "every declared status agrees with the derived one"
    return CheckResult(name="declared_status", ok=not wrong, detail=detail)


def _misleading_checks(
    scenario: Scenario, scene: Scene, symptom_key: str, condition: str
) -> tuple[CheckResult, ...]:
    """SI §5.1's counterfactual rule, per deviation, where the manifest marks a misleading
    signal (provebench's C-DA-003): restoring the causes alone clears the symptom, restoring the
    misleading signal alone does not, every factor is a cause, a `misleading_signal` role
    names the signal the manifest marks, and a deviation-scope role ("acted on the misleading
    signal": any write on its resources) refs a deviation the manifest marks."""
    assert scenario.injection is not None
    deviations = scenario.injection.deviations
    misleading = {d.id for d in deviations if is_misleading(d)}
    bound = bind_scoring(scenario)
    role = bound.roles.get("misleading_signal")
    scoped = _scope_refs(scenario, bound)
    if not misleading and role is None and not scoped:
        return ()
    _, _, name = parse_key(symptom_key)

    def restored_only(ids: set[str]) -> frozenset[str]:
        applied = tuple(a for a in scene.applied if a.deviation_id in ids)
        return observe(restore(scene.injected, applied)).conditions(symptom_key)

    causes = {d.id for d in deviations} - misleading
    after_causes = restored_only(causes)
    after_signal = restored_only(misleading)
    shown = ", ".join
    wrong_factors = sorted(
        factor.ref for factor in bound.factors.values() if factor.ref in misleading
    )
    signal_names = {n.casefold() for n in role} if isinstance(role, tuple) else set()
    unnamed = sorted(
        d.id
        for d in deviations
        if d.id in misleading
        and not {d.subject.casefold(), d.resource.rsplit("/", 1)[-1].casefold()} & signal_names
    )
    return (
        CheckResult(
            name="causes_restored_clear_symptom",
            ok=bool(causes) and condition not in after_causes,
            detail=f"restoring {shown(sorted(causes)) or 'no cause'}: deployment/{name} shows: "
            f"{shown(sorted(after_causes)) or 'healthy'}",
        ),
        CheckResult(
            name="misleading_signal_restored_keeps_symptom",
            ok=bool(misleading) and condition in after_signal,
            detail=(
                f"restoring {shown(sorted(misleading))}: deployment/{name} shows: "
                f"{shown(sorted(after_signal)) or 'healthy'}"
                if misleading
                else "the manifest marks no deviation `misleading: true`"
            ),
        ),
        CheckResult(
            name="factors_are_causes",
            ok=not wrong_factors,
            detail=(
                f"a factor refs a misleading signal: {shown(wrong_factors)}"
                if wrong_factors
                else "every factor is a deviation whose restoration clears the symptom"
            ),
        ),
        CheckResult(
            name="misleading_scope_is_the_signal",
            ok=set(scoped) <= misleading,
            detail=(
                f"a deviation-scope role refs a deviation not marked misleading: "
                f"{shown(sorted(set(scoped) - misleading))}"
                if set(scoped) - misleading
                else "every deviation-scope role refs a deviation the manifest marks"
            ),
        ),
        CheckResult(
            name="misleading_signal_named",
            ok=role is None or not unnamed,
            detail=(
                f"the misleading_signal role names neither the subject nor the resource of "
                f"{shown(unnamed)}"
                if role is not None and unnamed
                else "the misleading_signal role names the signal the manifest marks"
            ),
        ),
    )


def _scope_refs(scenario: Scenario, bound: BoundScoring) -> list[str]:
    """The deviation ids a template's deviation-scope roles are bound to (`{ref: ID}`)."""
    if bound.template is None or not isinstance(scenario.scoring, FormBScoring):
        return []
    refs = []
    for name, spec in bound.template.roles.items():
        value = scenario.scoring.bindings.get(name)
        if spec.type == "deviation_scope" and isinstance(value, dict):
            refs.append(str(value.get("ref")))
    return refs


def check_counterfactual(scenario: Scenario) -> CounterfactualReport:
    """Prove a Form B scenario's answer key in the simulator (SI §5.1)."""
    if not isinstance(scenario.scoring, FormBScoring) or scenario.injection is None:
        raise ProvebenchError(
            f"scenario {scenario.id} has no Form B scoring with an injection manifest; there "
            "is no answer key to check",
            field="injection",
        )
    symptom_key, condition = symptom_target(scenario)
    scene = build_scene(scenario)
    assert scene.healthy is not None
    if symptom_key not in scene.injected:
        raise ProvebenchError(
            f"{symptom_key} is not in the simulated state", field=f"{SYMPTOM_FIELD}.resource"
        )
    healthy = observe(scene.healthy).unhealthy()
    if healthy:
        raise ProvebenchError(
            f"the baseline is already unhealthy: {'; '.join(healthy)}", field=BASELINE_FIELD
        )
    injected = observe(scene.injected)
    restored_estate = restore(scene.injected, scene.applied)
    restored = observe(restored_estate)
    changes = delta(scene.healthy, scene.injected)
    operations = tuple(
        CheckResult(name=name, ok=ok, detail=detail)
        for name, ok, detail in operation_checks(
            bind_scoring(scenario), scene.injected, symptom_key, condition
        )
    )
    seen_injected = injected.conditions(symptom_key)
    seen_restored = restored.conditions(symptom_key)
    _, _, name = parse_key(symptom_key)
    checks = (
        CheckResult(
            name="symptom_when_injected",
            ok=condition in seen_injected,
            detail=f"deployment/{name} shows: {', '.join(sorted(seen_injected)) or 'healthy'}",
        ),
        CheckResult(
            name="symptom_cleared_when_restored",
            ok=condition not in seen_restored,
            detail=f"deployment/{name} shows: {', '.join(sorted(seen_restored)) or 'healthy'}",
        ),
        CheckResult(
            name="restore_is_baseline",
            ok=restored_estate == scene.healthy,
            detail=f"{len(delta(scene.healthy, restored_estate))} difference(s) from the baseline",
        ),
        _identifiers_check(scenario, changes, bool(operations)),
        _status_check(scenario, injected),
        *_misleading_checks(scenario, scene, symptom_key, condition),
        *operations,
    )
    return CounterfactualReport(
        scenario_id=scenario.id,
        symptom=f"deployment/{name} {condition}",
        delta=tuple(changes),
        checks=checks,
        unproved_observations=unproved_observations(scene.injected),
    )


def check_scenario_file(scenario: Scenario, scenario_file: Path) -> CounterfactualReport:
    """`check_counterfactual` as `si check` runs it: a scenario that cannot be simulated is a
    `ProvebenchError` pointing at the file and the scenario field's line."""
    from provebench.si.scenario._validate import naming_scenario_lines

    with naming_scenario_lines(scenario_file, scenario.id):
        return check_counterfactual(scenario)


def require_proven_answer_key(scenario: Scenario, scenario_file: Path) -> None:
    """Before a run (`si run`, `si serve`): the scenario's answer key must hold in the
    simulator, as `si check` proves it (SI §5.1). A run on a key the simulator refutes would
    score against an answer that is not the ground truth, so it is refused like any invalid
    scenario: one line, nothing written."""
    report = check_scenario_file(scenario, scenario_file)
    if not report.ok:
        raise ProvebenchError(
            f"the answer key of {scenario.id} does not hold in the simulator (si check "
            f"rejects it): {report.reasons[0]}"
            + (f" (and {len(report.reasons) - 1} more)" if len(report.reasons) > 1 else ""),
            path=str(scenario_file),
        )


__all__ = [
    "CheckResult",
    "CounterfactualReport",
    "check_counterfactual",
    "check_scenario_file",
    "require_proven_answer_key",
    "symptom_target",
]
