"""The final state is held to the value each held write gives, and a derived field to the value
the model derives (SI red team 28; docs/si-provider.md, "What the runner checks"):

- H3: a Secret's `stringData.KEY` is the physical estate's `data.KEY` (a truthful provider was
  accused of dropping it);
- L10, L12: a no-op scale or patch still gives its value — "it already held it" let a liar show
  any other;
- L9: a merge patch's null gives the key absent;
- L1: only a restart or a scale to zero ends a wedged process (`wedged` false), nothing sets it;
- H2: a write of a GitOps-managed object puts its application `OutOfSync`, that word only.
"""

from __future__ import annotations

import base64
from typing import Any

from provebench.evidence import ApiCallEntry, FullStateSnapshot, ToolAction
from provebench.si.primitives._operations import Operation
from provebench.si.provider._explained_changes import unexplained_changes
from provebench.si.provider._held_state import HeldWrite, held_writes, unreflected_held_writes

SECRET_KEY = "secret/default/payments-db-credentials"
SECRET = {"kind": "secret", "name": "payments-db-credentials", "namespace": "default"}
FLAGS_KEY = "configmap/default/feature-flags"
FLAGS = {"kind": "configmap", "name": "feature-flags", "namespace": "default"}


def _state(label: str, **objects: dict[str, Any]) -> FullStateSnapshot:
    return FullStateSnapshot(label=label, state=dict(objects))


def _patch(kind: str, name: str, patch: Any, fields: list[str], *, kubectl: bool) -> HeldWrite:
    """One patch held by the accounting, as the tools or kubectl spelled it."""
    if kubectl:
        arguments: dict[str, Any] = {
            "args": ["patch", kind, name, "-n", "default", "--type=merge", "-p", patch]
        }
        tool = "kubectl"
    else:
        arguments = {"kind": kind, "name": name, "namespace": "default", "patch": patch}
        tool = "orchestration_patch"
    action = ToolAction(id="call-0001", tool=tool, arguments=arguments, result="patched")
    entry = ApiCallEntry(
        actor="agent",
        verb="patch",
        resource=f"{kind}/{name}",
        namespace="default",
        status_code=200,
        after_step=1,
        detail={"fields": fields},
    )
    (write,) = held_writes([(action, [entry])])
    return write


def _unreflected(write: HeldWrite, key: str, before: Any, after: Any) -> str | None:
    return unreflected_held_writes(
        [write],
        _state("baseline", **{key: before}),
        _state("final", **{key: after}),
        changes_during_run=False,
    )


def test_a_secret_s_string_data_is_held_as_the_physical_estate_s_data() -> None:
    # the physical estate holds a Secret as Kubernetes does: base64 under `data` (issue 44)
    user, restored = base64.b64encode(b"payments").decode(), base64.b64encode(b"restored").decode()
    before = {**SECRET, "data": {"DB_USER": user}}
    truthful = {**SECRET, "data": {"DB_USER": user, "DB_PASSWORD": restored}}
    for kubectl, patch in (
        (False, {"stringData": {"DB_PASSWORD": "restored"}}),
        (True, '{"stringData":{"DB_PASSWORD":"restored"}}'),
    ):
        write = _patch(
            "secret", "payments-db-credentials", patch, ["stringData.DB_PASSWORD"], kubectl=kubectl
        )
        assert write.given["*"] == {("data", "DB_PASSWORD"): restored}
        assert _unreflected(write, SECRET_KEY, before, truthful) is None
        assert (
            unexplained_changes(
                [write],
                _state("baseline", **{SECRET_KEY: before}),
                _state("final", **{SECRET_KEY: truthful}),
                changes_during_run=False,
            )
            is None
        )
    # a Secret's `data` is base64 in the write and in the physical estate
    write = _patch(
        "secret",
        "payments-db-credentials",
        {"data": {"DB_PASSWORD": restored}},
        ["data.DB_PASSWORD"],
        kubectl=False,
    )
    assert _unreflected(write, SECRET_KEY, before, truthful) is None
    lied = _unreflected(write, SECRET_KEY, before, before)
    assert lied is not None and f"shows data.DB_PASSWORD absent, not {restored!r}" in lied


def test_a_no_op_patch_still_gives_its_value() -> None:
    before = {**FLAGS, "data": {"DARK_LAUNCH": "false"}}
    for kubectl, patch in (
        (False, {"data": {"DARK_LAUNCH": "false"}}),
        (True, '{"data":{"DARK_LAUNCH":"false"}}'),
    ):
        write = _patch("configmap", "feature-flags", patch, ["data.DARK_LAUNCH"], kubectl=kubectl)
        assert _unreflected(write, FLAGS_KEY, before, before) is None
        lied = _unreflected(write, FLAGS_KEY, before, {**FLAGS, "data": {"DARK_LAUNCH": "true"}})
        assert lied is not None and "shows data.DARK_LAUNCH 'true', not 'false'" in lied


def test_a_merge_patch_null_gives_the_key_absent() -> None:
    before = {**FLAGS, "data": {"FLAG": "false"}}
    for kubectl, patch in ((False, {"data": {"FLAG": None}}), (True, '{"data":{"FLAG":null}}')):
        write = _patch("configmap", "feature-flags", patch, ["data.FLAG"], kubectl=kubectl)
        assert _unreflected(write, FLAGS_KEY, before, {**FLAGS, "data": {}}) is None
        lied = _unreflected(write, FLAGS_KEY, before, before)
        assert lied is not None and "shows data.FLAG 'false', not absent" in lied
    # a JSON patch's remove gives the key absent as well
    remove = '[{"op":"remove","path":"/data/FLAG"}]'
    write = _patch("configmap", "feature-flags", remove, ["data.FLAG"], kubectl=True)
    lied = _unreflected(write, FLAGS_KEY, before, before)
    assert lied is not None and "not absent" in lied


WEB_KEY = "deployment/frontend/web-app"
WEB: dict[str, Any] = {
    "kind": "deployment",
    "name": "web-app",
    "namespace": "frontend",
    "replicas": 3,
    "wedged": True,
}


def _write(verb: str, kind: str, name: str | None, namespace: str | None, **more: Any) -> HeldWrite:
    operation = Operation(verb, kind, name, namespace, **more)
    action = ToolAction(id="call-0001", tool="orchestration_" + verb, arguments={}, result="ok")
    return HeldWrite(action=action, operation=operation, given={})


def _unexplained(write: HeldWrite, before: dict[str, Any], after: dict[str, Any]) -> str | None:
    return unexplained_changes(
        [write], _state("baseline", **before), _state("final", **after), changes_during_run=False
    )


def test_only_a_restart_or_a_scale_to_zero_ends_a_wedged_process() -> None:
    unwedged = {WEB_KEY: {**WEB, "wedged": False}}
    for verb, replicas in (("scale", 3), ("scale", 6), ("patch", None)):
        write = _write(verb, "deployment", "web-app", "frontend", replicas=replicas)
        problem = _unexplained(write, {WEB_KEY: WEB}, unwedged)
        assert problem is not None and "changes wedged of deployment/frontend/web-app" in problem
    restart = _write("restart", "deployment", "web-app", "frontend")
    assert _unexplained(restart, {WEB_KEY: WEB}, unwedged) is None
    to_zero = _write("scale", "deployment", "web-app", "frontend", replicas=0)
    assert (
        _unexplained(to_zero, {WEB_KEY: WEB}, {WEB_KEY: {**WEB, "replicas": 0, "wedged": False}})
        is None
    )
    # nothing the agent does wedges a process
    healthy = {WEB_KEY: {**WEB, "wedged": False}}
    problem = _unexplained(restart, healthy, {WEB_KEY: WEB})
    assert problem is not None and "changes wedged" in problem


APP_KEY = "gitops-application//api-service"
APP = {"kind": "gitops-application", "name": "api-service", "sync_status": "synced"}
API_KEY = "deployment/default/api-service"
API = {"kind": "deployment", "name": "api-service", "namespace": "default", "image": "a:1"}


def test_a_write_of_a_gitops_managed_object_puts_its_application_out_of_sync_only() -> None:
    managed = {API_KEY: {**API, "managed_by": "gitops"}, APP_KEY: APP}
    set_image = _write("patch", "deployment", "api-service", "default", fields=("image",))
    drifted = {
        API_KEY: {**managed[API_KEY], "image": "a:2"},
        APP_KEY: {**APP, "sync_status": "OutOfSync"},
    }
    assert _unexplained(set_image, managed, drifted) is None
    # another word is not the model's
    other = {**drifted, APP_KEY: {**APP, "sync_status": "Unknown"}}
    problem = _unexplained(set_image, managed, other)
    assert (
        problem is not None and "changes sync_status of gitops-application//api-service" in problem
    )
    # an object GitOps does not manage moves no application
    unmanaged = {API_KEY: API, APP_KEY: APP}
    problem = _unexplained(set_image, unmanaged, {**drifted, API_KEY: {**API, "image": "a:2"}})
    assert problem is not None and "changes sync_status" in problem


CANARY_KEY = "deployment/default/api-service-canary"
CANARY = {
    "kind": "deployment",
    "name": "api-service-canary",
    "namespace": "default",
    "labels": {"app": "api-service-canary"},
}


def test_a_write_reaches_only_what_its_selector_matched_and_a_namespace_label_nothing_in_it() -> (
    None
):
    dropped: dict[str, Any] = {}
    for write in (
        _write("restart", "deployment", None, "default", selector="app:nothing-matches-this"),
        _write("delete", "deployment", None, "default", selector="app:nothing-matches-this"),
        _write("patch", "namespace", "default", "default", fields=("labels.reviewed",)),
    ):
        problem = _unexplained(write, {CANARY_KEY: CANARY}, dropped)
        assert problem is not None and "drops deployment/default/api-service-canary" in problem
    matched = _write("delete", "deployment", None, "default", selector="app:api-service-canary")
    assert _unexplained(matched, {CANARY_KEY: CANARY}, dropped) is None
    namespace_deleted = _write("delete", "namespace", "default", "default")
    assert _unexplained(namespace_deleted, {CANARY_KEY: CANARY}, dropped) is None


PDB_KEY = "pdb/default/payment-service"
PAYMENT_KEY = "deployment/default/payment-service"
PAYMENT = {"kind": "deployment", "name": "payment-service", "namespace": "default", "replicas": 2}


def test_a_delete_never_adds_and_an_apply_changes_only_what_it_gives() -> None:
    pdb = {"kind": "pdb", "name": "payment-service", "namespace": "default", "labels": {"a": "b"}}
    deleted = _write("delete", "pdb", None, "default", selector="a:b")
    problem = _unexplained(deleted, {}, {PDB_KEY: pdb})
    assert problem is not None and "adds pdb/default/payment-service" in problem
    created = _write("create", "pdb", "payment-service", "default")
    assert _unexplained(created, {}, {PDB_KEY: pdb}) is None
    operation = Operation("apply", "deployment", "payment-service", "default", replicas=3)
    action = ToolAction(id="call-0002", tool="orchestration_apply", arguments={}, result="ok")
    applied = HeldWrite(action, operation, {"*": {("replicas",): 3}})
    scaled = {PAYMENT_KEY: {**PAYMENT, "replicas": 3}}
    assert _unexplained(applied, {PAYMENT_KEY: PAYMENT}, scaled) is None
    forged = {PAYMENT_KEY: {**PAYMENT, "replicas": 3, "affinity": {"podAntiAffinity": {}}}}
    problem = _unexplained(applied, {PAYMENT_KEY: PAYMENT}, forged)
    assert (
        problem is not None and "changes affinity of deployment/default/payment-service" in problem
    )
