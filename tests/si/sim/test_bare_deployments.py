"""A deployment without `containers` in the physical estate (docs/si-lab.md, "A bare
deployment"): the published profile's Form A shape — `image`, `replicas`, `status`.

It runs one container of its image with no behaviour (the estate derives nothing it was not
told), and its declared `status` is what an operator sees until the object is written: a
declared observation bound to the deployment's generation, which a write that changes the
deployment ends — but a declared failure (`CrashLoopBackOff`, `OOMKilled` …) is the workload's:
a restart or a scale to another count keeps it, as fresh pods of the same template meet the
same cause; a scale to zero, a template write or a delete ends it. A deployment with
`containers` keeps its status derived, as before.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from provebench._errors import ProvebenchError
from provebench.si.sim import Session
from provebench.si.sim._check import check_counterfactual
from provebench.si.sim._derive import observe
from provebench.si.sim._estate import Estate
from provebench.si.sim._status_word import listed_pod_word
from provebench.si.sim.declared._kube_objects import DECLARED_ANNOTATION
from tests.si.sim.sim_helpers import MISLEADING, shipped, variant

_BARE = {
    "resource": "deployment/api-gateway",
    "namespace": "default",
    "replicas": 2,
    "image": "api-gateway:v2.1.0",
    "status": "CrashLoopBackOff",
}
_KEY = "deployment/default/api-gateway"


def _estate(*entries: dict[str, Any]) -> Estate:
    return Estate.from_entries([dict(e) for e in entries], field="state")


def _with_bare(data: dict[str, Any]) -> None:
    data["preconditions"]["environment"]["state"].append(dict(_BARE))


def _body(session: Any, tool: str, **arguments: Any) -> Any:
    response = session.call(tool, arguments)
    assert response.error is None, response.body
    return json.loads(response.body)


def _listed_status(session: Any) -> str:
    rows = _body(session, "orchestration_list", kind="deployment")["items"]
    return str(next(r for r in rows if r["name"] == "api-gateway")["status"])


def _declared_of(session: Any) -> dict[str, Any]:
    got = _body(session, "orchestration_get", kind="deployment", name="api-gateway")
    annotations = got["metadata"].get("annotations", {})
    return dict(json.loads(annotations.get(DECLARED_ANNOTATION, "{}")))


def test_a_bare_deployment_runs_one_container_of_its_image_with_no_behaviour() -> None:
    estate = _estate(_BARE)
    # the data stays as declared: no container is written into it
    assert estate.raw(_KEY) == {"replicas": 2, "image": "api-gateway:v2.1.0"}
    (container,) = estate.deployment(_KEY).containers
    assert (container.name, container.image) == ("api-gateway", "api-gateway:v2.1.0")
    observation = observe(estate)
    pods = observation.pods_of(_KEY)
    assert len(pods) == 2 and {p.status for p in pods} == {"Running"}
    assert observation.conditions(_KEY) == frozenset()  # nothing derives its CrashLoopBackOff
    without_image = _estate({"resource": "deployment/worker", "replicas": 3})
    (default,) = observe(without_image).pods_of("deployment/default/worker")[0].containers
    assert default.image == "registry.local/worker/worker:1.0.0"


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"containers": []}, "at least one container"),
        ({"containers": [{"name": "a", "image": "a:1"}], "image": "a:1"}, "not both"),
        ({"image": 3}, "string"),
    ],
)
def test_a_pod_template_is_containers_or_a_bare_image(fields: Any, message: str) -> None:
    with pytest.raises(ProvebenchError, match=message) as caught:
        _estate({"resource": "deployment/api", **fields})
    assert caught.value.field is not None and caught.value.field.startswith("state[0]")


def test_its_declared_status_is_what_an_operator_sees_until_it_is_written() -> None:
    session = Session.start(variant(MISLEADING, _with_bare))
    assert _listed_status(session) == "CrashLoopBackOff"
    assert _declared_of(session) == {"status": "CrashLoopBackOff"}
    # a write of another object leaves it, and so does a scale that changes nothing
    patched = session.call(
        "orchestration_patch",
        {"kind": "configmap", "name": "batch-config", "patch": {"data": {"X": "1"}}},
    )
    assert patched.error is None, patched.body
    assert session.call("orchestration_scale", {"name": "api-gateway", "replicas": 2}).error is None
    assert _listed_status(session) == "CrashLoopBackOff"
    # a declared failure is the workload's: more pods of the same template meet it too
    assert session.call("orchestration_scale", {"name": "api-gateway", "replicas": 3}).error is None
    assert _listed_status(session) == "CrashLoopBackOff"
    # a scale to zero ends it (no pod is left to fail): the derived status takes over
    assert session.call("orchestration_scale", {"name": "api-gateway", "replicas": 0}).error is None
    assert _declared_of(session) == {}
    # and it never comes back, though the deployment is scaled back to what was declared
    assert session.call("orchestration_scale", {"name": "api-gateway", "replicas": 2}).error is None
    assert _listed_status(session) == "Available"


def _with_word(word: str) -> Callable[[dict[str, Any]], None]:
    def mutate(data: dict[str, Any]) -> None:
        data["preconditions"]["environment"]["state"].append({**_BARE, "status": word})

    return mutate


@pytest.mark.parametrize(("word", "after"), [("OOMKilled", "OOMKilled"), ("degraded", "Available")])
def test_a_restart_keeps_a_declared_failure_and_ends_any_other_word(word: str, after: str) -> None:
    # a declared failure outlives a rollout restart, as in the declared estate (issue 44,
    # da.misleading-signal-001); a word no restart need keep (a degraded rollout) ends
    session = Session.start(variant(MISLEADING, _with_word(word)))
    restarted = session.call("orchestration_restart", {"name": "api-gateway"})
    assert restarted.error is None, restarted.body
    assert _listed_status(session) == after
    assert _declared_of(session) == ({"status": word} if after == word else {})


def test_a_delete_removes_it() -> None:
    other = Session.start(variant(MISLEADING, _with_bare))
    deleted = other.call("orchestration_delete", {"kind": "deployment", "name": "api-gateway"})
    assert deleted.error is None, deleted.body
    rows = _body(other, "orchestration_list", kind="deployment")["items"]
    assert "api-gateway" not in {r["name"] for r in rows}


def test_other_declared_observations_of_it_outlive_a_write() -> None:
    estate = _estate({**_BARE, "cpu_usage": "91%"})
    data = estate.copy_data()
    data[_KEY]["replicas"] = 0  # a write that ends its declared word
    assert estate.written(data).declared_fields(_KEY) == {"cpu_usage": "91%"}
    assert estate.with_resources(data).declared_fields(_KEY) == {
        "cpu_usage": "91%",
        "status": "CrashLoopBackOff",
    }


def test_a_deployment_with_containers_keeps_its_status_derived() -> None:
    scenario = shipped(MISLEADING)
    estate = Estate.from_entries(scenario.preconditions.environment.state, field="state")
    assert "status" not in estate.declared_fields("deployment/default/user-service")


def test_si_check_names_the_bare_status_as_unproved_and_proves_the_rest() -> None:
    plain = check_counterfactual(shipped(MISLEADING))
    report = check_counterfactual(variant(MISLEADING, _with_bare))
    assert report.ok, report.reasons
    assert [c.name for c in report.checks] == [c.name for c in plain.checks]
    assert report.unproved_observations == (f"{_KEY}.status",)
    status = next(c for c in report.checks if c.name == "declared_status")
    assert status.detail == "every declared status agrees with the derived one"


def test_si_check_still_refuses_a_form_b_status_that_disagrees() -> None:
    def mutate(data: dict[str, Any]) -> None:
        state = data["preconditions"]["environment"]["state"]
        next(e for e in state if e["resource"] == "deployment/session-store")["status"] = "Error"

    report = check_counterfactual(variant(MISLEADING, mutate))
    status = next(c for c in report.checks if c.name == "declared_status")
    assert not status.ok and "'Error'" in status.detail


def _pod_words(session: Any) -> dict[str, Any]:
    """Each api-gateway pod's listed status and the status in its read's annotation."""
    rows = _body(session, "orchestration_list", kind="pod")["items"]
    words = {}
    for row in rows:
        if row["owner"] != "deployment/api-gateway":
            continue
        got = _body(session, "orchestration_get", kind="pod", name=row["name"])
        shown = json.loads(got["metadata"].get("annotations", {}).get(DECLARED_ANNOTATION, "{}"))
        words[row["name"]] = (row["status"], shown.get("status"))
    return words


def test_its_pods_show_the_declared_status_until_the_deployment_is_written() -> None:
    # as the declared estate shows each pod of a deployment with the deployment's word
    session = Session.start(variant(MISLEADING, _with_bare))
    before = _pod_words(session)
    assert len(before) == 2
    assert set(before.values()) == {("CrashLoopBackOff", "CrashLoopBackOff")}
    # a pod of a deployment with containers keeps its derived status, and no declared word
    derived = {p.name: p.status for p in session.observation.pods}
    others = [
        r
        for r in _body(session, "orchestration_list", kind="pod")["items"]
        if r["owner"] != "deployment/api-gateway"
    ]
    # (the scenarios' word for a pod whose containers run: `listed_pod_word`)
    assert others and all(r["status"] == listed_pod_word(derived[r["name"]]) for r in others)
    session.call("orchestration_restart", {"name": "api-gateway"})
    # the fresh pods meet the same failure: they show the word
    assert set(_pod_words(session).values()) == {("CrashLoopBackOff", "CrashLoopBackOff")}
    session.call("orchestration_scale", {"name": "api-gateway", "replicas": 0})
    session.call("orchestration_scale", {"name": "api-gateway", "replicas": 2})
    after = _pod_words(session)
    assert len(after) == 2 and set(after.values()) == {("running", None)}
