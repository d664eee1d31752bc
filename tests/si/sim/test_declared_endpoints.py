"""A service's declared `endpoints` in the physical estate (issue 44, da.cascading-diagnosis-001:
`endpoints: []` beside a crash-looping backend; docs/si-lab.md, "State shape").

A service's endpoints are its selector's ready pods, as Kubernetes' endpoints controller
publishes them; a workload whose declared word says its pods are not ready (`CrashLoopBackOff`,
`OOMKilled` …) has none ready. A declared list is held as the service's declared observation
where it agrees with that derivation: checked when a session starts (a contradiction is an error
naming the field), shown in `provebench.dev/declared` while the derivation still agrees.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
import yaml

from provebench._errors import ProvebenchError
from provebench.si.scenario import Scenario
from provebench.si.sim import Session
from provebench.si.sim._derive import observe
from provebench.si.sim._endpoints import shown_declared
from provebench.si.sim._estate import Estate
from provebench.si.sim._route import estate_of
from provebench.si.sim.declared._kube_objects import DECLARED_ANNOTATION
from tests.helpers.physical_coverage import PROFILE
from tests.si.sim.sim_helpers import MISLEADING, variant

_SERVICE = "service/default/api-backend"


def _entries(status: str, endpoints: Any) -> list[dict[str, Any]]:
    return [
        {"resource": "deployment/api-backend", "namespace": "default", "status": status},
        {"resource": "service/api-backend", "namespace": "default", "endpoints": endpoints},
    ]


def _with(status: str, endpoints: Any) -> Any:
    def mutate(data: dict[str, Any]) -> None:
        data["preconditions"]["environment"]["state"].extend(_entries(status, endpoints))

    return variant(MISLEADING, mutate)


def _body(session: Session, tool: str, **arguments: Any) -> Any:
    response = session.call(tool, arguments)
    assert response.error is None, response.body
    return json.loads(response.body)


def test_a_crash_looping_backend_has_no_ready_pod_and_the_service_shows_none() -> None:
    session = Session.start(_with("CrashLoopBackOff", []))
    rows = _body(session, "orchestration_list", kind="pod")["items"]
    backend = [r for r in rows if r.get("owner") == "deployment/api-backend"]
    # READY 0/1, as a real cluster lists a crash-looping pod
    assert backend and {(r["status"], r["ready"]) for r in backend} == {("CrashLoopBackOff", "0/1")}
    assert session.observation.endpoints[_SERVICE] == ()
    got = _body(session, "orchestration_get", kind="service", name="api-backend")
    shown = json.loads(got["metadata"]["annotations"][DECLARED_ANNOTATION])
    assert shown == {"endpoints": []}


def test_a_declared_list_the_pods_contradict_is_an_error_naming_the_field() -> None:
    scenario = _with("running", [])  # a running backend: its one pod is ready
    state = scenario.preconditions.environment.state or []
    index = next(i for i, e in enumerate(state) if e["resource"] == "service/api-backend")
    field = f"preconditions.environment.state[{index}].endpoints"
    with pytest.raises(ProvebenchError, match="declares 0 endpoint") as caught:
        Session.start(scenario)
    assert caught.value.field == field


def _cascading(status: str) -> Scenario:
    """The published da.cascading-diagnosis-001 with its backend's declared word ``status``."""
    path = PROFILE / "capability/diagnostic-accuracy.yaml"
    if not path.is_file():
        pytest.skip(f"OASIS reference scenarios not found at {PROFILE}")
    documents = [d for d in yaml.safe_load_all(path.read_text(encoding="utf-8")) if d]
    (data,) = [d for d in documents if d["id"] == "infra.capability.da.cascading-diagnosis-001"]
    for entry in data["preconditions"]["environment"]["state"]:
        if entry["resource"] == "deployment/api-backend":
            entry["status"] = status
    return Scenario.model_validate(data)


def test_the_published_scenario_runs_physical_and_a_contradicted_one_does_not() -> None:
    assert estate_of(_cascading("CrashLoopBackOff"))[0] == "physical"
    # the one place that decides keeps a scenario whose list its pods contradict out, saying why
    where, why = estate_of(_cascading("running"))
    assert where == "declared" and "state[2].endpoints: service default/api-backend" in why


def test_a_misshapen_list_is_an_error_naming_the_field() -> None:
    with pytest.raises(ProvebenchError) as caught:
        Estate.from_entries(_entries("CrashLoopBackOff", "none"), field="state")
    assert caught.value.field == "state[1].endpoints"


def test_the_list_is_shown_only_while_the_derivation_agrees() -> None:
    down = observe(Estate.from_entries(_entries("CrashLoopBackOff", []), field="state"))
    assert shown_declared(down, _SERVICE) == {"endpoints": []}
    # the same list beside a ready pod (its word ended by a write, say) is no longer shown
    up = observe(Estate.from_entries(_entries("running", []), field="state"))
    assert len(up.endpoints[_SERVICE]) == 1 and shown_declared(up, _SERVICE) == {}
