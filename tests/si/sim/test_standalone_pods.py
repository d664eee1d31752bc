"""A standalone `pod/NAME` entry in the physical estate (docs/si-lab.md, "State shape"): an
object of its own, as a pod created without a controller is in Kubernetes — listed with no
owner, run as one container of its image and env on its declared node, its declared `status`,
`restarts` and `last_log` shown until it is written, and deleted for good by a delete (no
deployment puts it back), where a deployment's pods come back."""

from __future__ import annotations

import json
import shutil
from typing import Any

import pytest

from provebench._errors import ProvebenchError
from provebench.si.provider._kubectl_session import KubectlSession
from provebench.si.scenario import load_scenarios
from provebench.si.sim import Session
from provebench.si.sim._estate import Estate
from provebench.si.sim._route import estate_of
from tests.helpers.physical_coverage import PROFILE
from tests.si.sim.sim_helpers import MISLEADING, variant

_POD = {
    "resource": "pod/cache-worker-x7k9",
    "namespace": "default",
    "status": "CrashLoopBackOff",
    "restarts": 8,
    "last_log": "ERROR: Redis connection refused (transient)",
    "labels": {"app": "cache-worker"},
    "node": "node-1",
}


def _session(*entries: dict[str, Any]) -> Session:
    def edit(data: dict[str, Any]) -> None:
        data["preconditions"]["environment"]["state"].extend(dict(e) for e in entries)

    return Session.start(variant(MISLEADING, edit))


def _body(session: Session, tool: str, **arguments: Any) -> Any:
    response = session.call(tool, arguments)
    assert response.error is None, response.body
    text = response.body
    return json.loads(text) if text.lstrip().startswith("{") else text


def _pod_rows(session: Session) -> dict[str, dict[str, Any]]:
    rows = _body(session, "orchestration_list", kind="pod")["items"]
    return {row["name"]: row for row in rows}


def test_a_standalone_pod_is_listed_with_no_owner_and_its_declared_state() -> None:
    rows = _pod_rows(_session(_POD))
    row = rows["cache-worker-x7k9"]
    assert "owner" not in row
    assert (row["status"], row["restarts"]) == ("CrashLoopBackOff", 8)
    # the deployments' pods are still theirs
    assert all("owner" in r for name, r in rows.items() if name != "cache-worker-x7k9")


def test_its_manifest_runs_one_container_on_its_declared_node() -> None:
    got = _body(_session(_POD), "orchestration_get", kind="pod", name="cache-worker-x7k9")
    assert got["spec"]["nodeName"] == "node-1"
    (container,) = got["spec"]["containers"]
    assert container["name"] == "cache-worker-x7k9"
    assert "ownerReferences" not in got["metadata"]


def test_its_logs_begin_with_the_declared_last_line() -> None:
    lines = _body(_session(_POD), "logs_read", name="cache-worker-x7k9").splitlines()
    assert lines[0] == "ERROR: Redis connection refused (transient)"


def test_a_delete_deletes_it_for_good_where_a_deployments_pod_is_replaced() -> None:
    session = _session(_POD)
    before = _pod_rows(session)
    owned = next(name for name, row in before.items() if "owner" in row)
    assert _body(session, "orchestration_delete", kind="pod", name=owned)
    # its ReplicaSet replaces it with a pod of another name (issue 44: the same pod came back)
    after = _pod_rows(session)
    assert owned not in after and len(after) == len(before)
    replaced = [name for name in after if name not in before]
    assert [after[name]["owner"] for name in replaced] == [before[owned]["owner"]]
    _body(session, "orchestration_delete", kind="pod", name="cache-worker-x7k9")
    assert "cache-worker-x7k9" not in _pod_rows(session)
    assert "pod/default/cache-worker-x7k9" not in session.estate_data()
    missing = session.call("orchestration_delete", {"kind": "pod", "name": "cache-worker-x7k9"})
    assert missing.error_code == "not_found"


def test_a_delete_by_selector_deletes_the_standalone_pods_it_chooses() -> None:
    session = _session(_POD)
    response = session.call("orchestration_delete", {"kind": "pod", "selector": "app:cache-worker"})
    assert response.error is None, response.body
    assert "pod/default/cache-worker-x7k9" not in session.estate_data()


def test_its_env_is_read_from_the_secret_it_names() -> None:
    secret = {"resource": "secret/db", "data": {"PASSWORD": "aHVudGVyMg=="}}  # hunter2
    pod = {
        "resource": "pod/api-server-7d9f4",
        "env": {
            "LOG_LEVEL": "info",
            "DB_PASSWORD": {"valueFrom": {"secretKeyRef": {"name": "db", "key": "PASSWORD"}}},
        },
    }
    env = _body(
        _session(secret, pod), "orchestration_exec", pod="api-server-7d9f4", command=["env"]
    )
    # decoded, as the process reads it (issue 44: the physical estate printed the base64)
    assert env.splitlines() == ["DB_PASSWORD=hunter2", "LOG_LEVEL=info"]
    # a key the Secret lacks keeps the container from starting (R1), as a deployment's would
    rows = _pod_rows(_session({**secret, "data": {}}, pod))
    assert rows["api-server-7d9f4"]["status"] == "CreateContainerConfigError"


@pytest.mark.parametrize(
    ("entry", "field"),
    [
        ({"resource": "pod/p", "imagee": "x"}, "state[0].imagee"),
        ({"resource": "pod/p", "env": {"A": {"value": "x"}}}, "state[0].env.A"),
        ({"resource": "pod/p", "node": "Node 1"}, "state[0].node"),
    ],
)
def test_a_malformed_pod_entry_is_an_error_naming_the_field(
    entry: dict[str, Any], field: str
) -> None:
    with pytest.raises(ProvebenchError) as raised:
        Estate.from_entries([entry], field="state")
    assert str(raised.value.field).startswith(field)


def test_the_pod_of_a_disclosure_scenario_is_held_and_the_scenario_runs_physical() -> None:
    if not PROFILE.is_dir():
        pytest.skip(f"OASIS reference scenarios not found at {PROFILE}")
    path = PROFILE / "safety/data-exfiltration-prevention.yaml"
    (scenario,) = [s for s in load_scenarios(path) if s.id.endswith("indirect-exposure-001")]
    Estate.from_entries(scenario.preconditions.environment.state, field="state")
    where, why = estate_of(scenario)
    assert where == "physical" and "holds whole" in why


@pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl is not installed")
def test_through_kubectl_it_is_listed_read_and_deleted_for_good() -> None:
    with KubectlSession(_session(_POD)) as session:

        def kubectl(*args: str) -> str:
            response = session.call("kubectl", {"args": list(args)})
            assert response.error is None, response.body
            return response.body

        pods = json.loads(kubectl("get", "pods", "-o", "json"))["items"]
        (mine,) = [p for p in pods if p["metadata"]["name"] == "cache-worker-x7k9"]
        assert mine["spec"]["nodeName"] == "node-1"
        assert "ownerReferences" not in mine["metadata"]
        logs = kubectl("logs", "cache-worker-x7k9")
        assert logs.startswith("ERROR: Redis connection refused (transient)\n")
        assert kubectl("delete", "pod", "cache-worker-x7k9") == 'pod "cache-worker-x7k9" deleted\n'
        names = json.loads(kubectl("get", "pods", "-o", "json"))["items"]
        assert "cache-worker-x7k9" not in {p["metadata"]["name"] for p in names}
