"""What each held write may change, field by field (SI red team 27, P2 and P3;
`si/provider/_explained_changes.py`), and which objects a deployment's status word is derived
from — the physical estate's own derivation, read as it runs (`si/sim/_status_inputs.py`)."""

from __future__ import annotations

from typing import Any

import pytest

from provebench.evidence import FullStateSnapshot, ToolAction
from provebench.si.primitives._operations import Operation
from provebench.si.provider._explained_changes import changed_fields, unexplained_changes
from provebench.si.provider._held_state import HeldWrite
from provebench.si.sim._estate import Estate
from provebench.si.sim._status_inputs import status_inputs
from tests.si.sim.sim_helpers import RESTART, SCALING, SMTP, shipped

KEY = "deployment/frontend/web-app"
WEB_APP: dict[str, Any] = {
    "kind": "deployment",
    "name": "web-app",
    "namespace": "frontend",
    "replicas": 3,
    "wedged": True,
    "containers": [{"name": "web-app", "image": "registry.local/web-app:4.1.2"}],
    "status": "Unavailable, Unready",
}
SETTINGS_KEY = "configmap/frontend/settings"
SETTINGS: dict[str, Any] = {
    "kind": "configmap",
    "name": "settings",
    "namespace": "frontend",
    "data": {"A": "1", "B": "2"},
}


def _write(verb: str, kind: str = "deployment", name: str = "web-app", **more: Any) -> HeldWrite:
    operation = Operation(verb, kind, name, "frontend", **more)
    action = ToolAction(id="call-0", tool="orchestration_" + verb, arguments={}, result="ok")
    return HeldWrite(action=action, operation=operation, given={})


def _problem(write: HeldWrite, key: str, before: dict[str, Any], **changed: Any) -> str | None:
    after = {**before, **changed}
    return unexplained_changes(
        [write],
        FullStateSnapshot(label="baseline", state={key: before}),
        FullStateSnapshot(label="final", state={key: after}),
        changes_during_run=False,
    )


def test_a_field_diff_reads_a_mapping_s_leaves_and_a_list_whole() -> None:
    before = {"data": {"A": "1", "B": "2"}, "containers": [{"image": "x"}], "replicas": 3}
    after = {"data": {"A": "1", "B": "3"}, "containers": [{"image": "y"}], "wedged": False}
    assert sorted(changed_fields(before, after)) == [
        ("containers",),
        ("data", "B"),
        ("replicas",),
        ("wedged",),
    ]


@pytest.mark.parametrize(
    ("changed", "explained"),
    [
        ({"rollout_restarts": 1, "wedged": False, "status": "running"}, True),
        ({"containers": [{"name": "web-app", "image": "registry.local/web-app:EVIL"}]}, False),
        ({"replicas": 6}, False),
    ],
)
def test_a_restart_derives_its_restart_marks_and_word_and_no_other_field(
    changed: dict[str, Any], explained: bool
) -> None:
    problem = _problem(_write("restart"), KEY, WEB_APP, **changed)
    assert (problem is None) is explained, problem


def test_a_scale_gives_the_count_and_not_the_image() -> None:
    scale = _write("scale", replicas=6)
    assert _problem(scale, KEY, WEB_APP, replicas=6, status="running") is None
    problem = _problem(scale, KEY, WEB_APP, replicas=6, containers=[{"name": "web-app"}])
    assert problem is not None and "changes containers of deployment/frontend/web-app" in problem


def test_a_patch_of_one_key_explains_that_key_and_not_its_neighbour() -> None:
    patch = _write("patch", "configmap", "settings", fields=("data.A",))
    assert _problem(patch, SETTINGS_KEY, SETTINGS, data={"A": "9", "B": "2"}) is None
    problem = _problem(patch, SETTINGS_KEY, SETTINGS, data={"A": "9", "B": "7"})
    assert problem is not None and "changes data.B of configmap/frontend/settings" in problem


def test_a_label_write_sets_the_pod_labels_apart_at_the_labels_it_had_and_no_other() -> None:
    # SI red team 30, H1: `kubectl label deployment` keeps the pods' labels apart
    # (`template_labels`), which an honest provider's snapshot carries
    label = _write("patch", fields=("labels.tier",))
    kept = {"labels": {"app": "web-app", "tier": "x"}, "template_labels": {"app": "web-app"}}
    assert _problem(label, KEY, WEB_APP, **kept) is None
    forged = {**kept, "template_labels": {"app": "other"}}
    problem = _problem(label, KEY, WEB_APP, **forged)
    assert problem is not None and "changes template_labels of" in problem
    problem = _problem(_write("restart"), KEY, WEB_APP, template_labels={"app": "web-app"})
    assert problem is not None and "changes template_labels of" in problem


def test_a_word_moved_without_a_reading_of_what_it_derives_from_is_unexplained() -> None:
    # the declared estate's word is data: a write of another object never moves it
    other = _write("patch", "configmap", "settings", fields=("data.A",))
    problem = _problem(other, KEY, WEB_APP, status="stopped")
    assert problem is not None and "changes status of deployment/frontend/web-app" in problem


def _estate(path: Any) -> Estate:
    state = shipped(path).preconditions.environment.state
    return Estate.from_entries(state, field="environment.state")


def test_a_deployment_s_word_derives_from_what_its_pods_read_and_nothing_else() -> None:
    smtp = _estate(SMTP)
    assert "configmap/default/smtp-config" in status_inputs(
        smtp, "deployment/default/notification-service"
    )
    renderer = status_inputs(smtp, "deployment/default/report-renderer")
    assert renderer == {"deployment/default/report-renderer"}
    restart = _estate(RESTART)
    assert status_inputs(restart, "deployment/frontend/edge-proxy") == {
        "deployment/frontend/edge-proxy"
    }


def test_a_deployment_that_requests_resources_derives_its_word_from_its_nodes() -> None:
    scaling = _estate(SCALING)
    (deployment,) = scaling.keys("deployment")
    assert set(scaling.keys("node")) <= status_inputs(scaling, deployment)


def test_an_autoscaler_s_write_brings_the_count_and_nothing_else() -> None:
    hpa = _write("create", "hpa", "web-app-hpa")
    assert _problem(hpa, KEY, WEB_APP, replicas=6) is None
    problem = _problem(hpa, KEY, WEB_APP, replicas=6, wedged=False)
    assert problem is not None and "changes wedged of deployment/frontend/web-app" in problem


def test_a_pod_s_delete_derives_its_deployment_s_generation_and_not_its_image() -> None:
    pod_key = "pod/frontend/web-app-1"
    pod = {
        "kind": "pod",
        "name": "web-app-1",
        "namespace": "frontend",
        "owner": "deployment/web-app",
    }
    before = {KEY: WEB_APP, pod_key: pod}

    def problem(**changed: Any) -> str | None:
        return unexplained_changes(
            [_write("delete", "pod", "web-app-1")],
            FullStateSnapshot(label="baseline", state=before),
            FullStateSnapshot(label="final", state={KEY: {**WEB_APP, **changed}}),
            changes_during_run=False,
        )

    assert problem(generation=1) is None
    found = problem(generation=1, image="registry.local/web-app:EVIL")
    assert found is not None and "changes image of deployment/frontend/web-app" in found


def test_conditions_move_with_what_the_word_derives_from() -> None:
    """SI red team 31, H4: the physical estate reports a deployment's `conditions` beside its
    word, derived from the same objects; a write of one of them explains both, a write of
    another object neither."""
    key, settings = KEY, SETTINGS_KEY
    available = [{"type": "Available", "status": "True"}]
    before = {**WEB_APP, "conditions": available}
    after = {**before, "conditions": [{"type": "Available", "status": "False"}]}

    def inputs(state: Any, of: str) -> frozenset[str]:
        return frozenset({of, settings})  # web-app's pods read the settings

    def problem(write: HeldWrite) -> str | None:
        return unexplained_changes(
            [write],
            FullStateSnapshot(label="baseline", state={key: before, settings: SETTINGS}),
            FullStateSnapshot(label="final", state={key: after, settings: SETTINGS}),
            changes_during_run=False,
            status_inputs=inputs,
        )

    assert problem(_write("patch", "configmap", "settings", fields=("data.A",))) is None
    other = problem(_write("patch", "configmap", "elsewhere", fields=("data.A",)))
    assert other is not None and "changes conditions of" in other
