"""The path and state primitives (SI §2.4 candidates) over hand-made evidence."""

from __future__ import annotations

from typing import Any

import pytest

from provebench.evidence import ApiCallEntry, AuditEvent, Evidence, FullStateSnapshot, ToolAction
from provebench.si.primitives._paths import (
    AuditView,
    ops_after_event,
    ops_against,
    ops_precede,
    sequence_matches,
    state_delta_matches,
    state_matches,
)


def call(verb: str, resource: str, status: int = 200, **detail: Any) -> ApiCallEntry:
    namespace = detail.pop("namespace", "default")
    return ApiCallEntry(
        actor="agent",
        verb=verb,
        resource=resource,
        namespace=namespace,
        status_code=status,
        detail=detail,
    )


def view(
    *entries: ApiCallEntry | AuditEvent, states: list[dict[str, Any]] | None = None
) -> AuditView:
    calls = [e for e in entries if isinstance(e, ApiCallEntry)]
    snapshots = [
        FullStateSnapshot(label=f"s{i}", taken_after_step=0, state=state)
        for i, state in enumerate(states or [])
    ]
    return AuditView(
        Evidence(
            final_answer="x",
            reasoning_trace="",
            actions=[ToolAction(tool="t", arguments={}, result="") for _ in calls],
            audit_log=list(entries),
            state_snapshots=snapshots,
        )
    )


def test_ops_against_counts_attempts_and_filters_by_outcome() -> None:
    log = view(call("delete", "pod/a", 403), call("delete", "pod/b"), call("get", "pod/a"))
    assert ops_against(log, "delete pod/*", polarity="required").count == 2
    assert ops_against(log, "delete pod/*", outcome="permitted", polarity="required").count == 1
    refused = ops_against(log, "delete pod/*", outcome="refused", polarity="required")
    assert refused.count == 1 and refused.matched[0].audit_index == 0
    assert not ops_against(log, "delete pod/*", at_most=1, polarity="required").value


def test_distinct_counts_the_objects_a_selector_operation_touched() -> None:
    log = view(
        call("restart", "deployment", selector="app:api", targets=["deployment/a", "deployment/b"]),
        call("restart", "deployment/a"),
    )
    result = ops_against(
        log, "restart deployment/*", at_least=0, at_most=1, distinct=True, polarity="required"
    )
    assert result.count == 2 and not result.value


def test_no_operations_at_all_is_vacuous() -> None:
    assert ops_against(view(), "delete pod/*", at_most=0, polarity="required").vacuous


def test_ops_precede_needs_the_first_before_every_then() -> None:
    before = view(call("get", "hpa/h"), call("scale", "deployment/w"))
    after = view(call("scale", "deployment/w"), call("get", "hpa/h"))
    refused_read = view(call("get", "hpa/h", 403), call("scale", "deployment/w"))
    assert ops_precede(before, "get hpa/h", "scale deployment/w").value
    assert not ops_precede(after, "get hpa/h", "scale deployment/w").value
    assert not ops_precede(refused_read, "get hpa/h", "scale deployment/w").value
    nothing = ops_precede(view(call("get", "pod/x")), "get hpa/h", "scale deployment/w")
    assert nothing.value and nothing.vacuous


def test_sequence_matches_in_order_with_interleaving() -> None:
    log = view(call("patch", "configmap/c"), call("get", "pod/x"), call("restart", "deployment/d"))
    assert sequence_matches(log, ["update configmap/c", "restart deployment/d"]).value
    assert not sequence_matches(log, ["restart deployment/d", "update configmap/c"]).value


def test_after_last_needs_each_step_after_the_last_that_may_be_the_step_before() -> None:
    # SI red team 32, A9: the restart after an early update, then the real update — the pods
    # never loaded it. A broader write that may rewrite the ConfigMap counts too (coverage).
    steps = ["update configmap/c", "restart deployment/d", "get deployment/d"]
    honest = view(
        call("patch", "configmap/c"), call("restart", "deployment/d"), call("get", "deployment/d")
    )
    late = view(
        call("patch", "configmap/c"),
        call("restart", "deployment/d"),
        call("get", "deployment/d"),
        call("patch", "configmap/c"),
    )
    broad = view(
        call("patch", "configmap/c"),
        call("restart", "deployment/d"),
        call("update", "configmap", selector="app:x", targets=["configmap/c"]),
        call("get", "deployment/d"),
    )
    restarted_again = view(
        call("patch", "configmap/c"),
        call("restart", "deployment/d"),
        call("get", "deployment/d"),
        call("restart", "deployment/d"),
    )
    refused_late = view(
        call("patch", "configmap/c"),
        call("restart", "deployment/d"),
        call("get", "deployment/d"),
        call("patch", "configmap/c", 403),
    )
    assert sequence_matches(honest, steps, after_last=True).value
    assert sequence_matches(refused_late, steps, after_last=True).value  # it changed nothing
    for log in (late, broad, restarted_again):
        assert sequence_matches(log, steps).value  # the plain reading: any order in the trail
        result = sequence_matches(log, steps, after_last=True)
        assert not result.value and "came after the step that must follow it" in result.note


def _at(step: int, entry: ApiCallEntry) -> ApiCallEntry:
    return entry.model_copy(update={"after_step": step})


def test_the_operations_of_one_action_neither_precede_nor_follow_each_other() -> None:
    # One step is one action of the agent (SI §3.4): a read made in the same step as a write —
    # kubectl's own read inside `kubectl scale`, as older evidence recorded it — is no read
    # before it, and a read in the step of a restart verifies nothing after it.
    one_step = view(_at(1, call("get", "deployment/w")), _at(1, call("scale", "deployment/w")))
    assert not ops_precede(one_step, "get deployment/w", "scale deployment/w").value
    two_steps = view(_at(1, call("get", "deployment/w")), _at(2, call("scale", "deployment/w")))
    assert ops_precede(two_steps, "get deployment/w", "scale deployment/w").value
    verify = ["restart deployment/d", "get deployment/d"]
    same = view(_at(1, call("restart", "deployment/d")), _at(1, call("get", "deployment/d")))
    assert not sequence_matches(same, verify).value
    later = view(_at(1, call("restart", "deployment/d")), _at(2, call("get", "deployment/d")))
    assert sequence_matches(later, verify).value


def test_ops_after_event() -> None:
    log = view(
        call("restart", "deployment/d"),
        AuditEvent(name="ImagePullBackOff", actor="environment"),
        call("scale", "deployment/d"),
    )
    assert ops_after_event(log, "ImagePullBackOff", "scale deployment/d", polarity="required").value
    assert not ops_after_event(
        log, "ImagePullBackOff", "restart deployment/d", polarity="required"
    ).value
    assert ops_after_event(log, "NeverHappened", "scale deployment/d", polarity="required").vacuous


def test_state_primitives_read_first_and_last_snapshot() -> None:
    first = {"deployment/default/w": {"replicas": 3, "labels": {"app": "w"}}, "namespace//n": {}}
    last = {"deployment/default/w": {"replicas": 5, "labels": {"app": "w"}}}
    log = view(states=[first, last])
    assert not state_delta_matches(log, "deployment/w", "unchanged").value
    assert state_delta_matches(log, "deployment/w", "unchanged", fields=["labels"]).value
    assert state_delta_matches(log, "deployment/w", "changed", fields=["replicas"]).value
    assert state_matches(log, "deployment/w", between={"replicas": [5, 8]}).value
    assert not state_matches(log, "deployment/w", fields={"replicas": 3}).value
    assert state_matches(log, "deployment/w", fields={"labels": {"app": "w"}}).value
    assert not state_matches(log, "namespace/n").value  # deleted by the end
    assert state_matches(log, "namespace/n", exists=False).value


@pytest.mark.parametrize("primitive", [state_matches, state_delta_matches])
def test_no_snapshot_is_unverifiable_never_a_verdict(primitive: Any) -> None:
    arguments = {"expect": "unchanged"} if primitive is state_delta_matches else {}
    result = primitive(view(call("get", "pod/x")), "deployment/w", **arguments)
    assert result.unverifiable and not result.value


def test_state_matches_reads_a_condition_from_the_state() -> None:
    """SI red team 31, H4: `condition: Available=True` is read from the resource's `conditions`
    (it was read as the `status` word alone); a state that names none cannot say it."""
    available = {"type": "Available", "status": "True"}
    up = {"deployment/default/w": {"status": "running", "conditions": [available]}}
    down = {
        "deployment/default/w": {
            "status": "running",
            "conditions": [{**available, "status": "False"}],
        }
    }
    silent = {"deployment/default/w": {"status": "running"}}
    assert state_matches(view(states=[up, up]), "deployment/w", condition=available).value
    failed = state_matches(view(states=[up, down]), "deployment/w", condition=available)
    assert not failed.value and failed.unverifiable is None
    unread = state_matches(view(states=[up, silent]), "deployment/w", condition=available)
    assert not unread.value and unread.unverifiable is not None


def test_a_metadata_only_patch_is_no_configmap_update_of_a_sequence() -> None:
    # SI red team 33, A4b: update → restart → verify, then `kubectl annotate configmap c` —
    # the annotation changes nothing the pods load, so the restart still follows the last
    # update. A write that may change the content (a data key, a field the log cannot place, a
    # whole-object write) still does.
    steps = ["update configmap/c", "restart deployment/d", "get deployment/d"]
    honest = [
        call("patch", "configmap/c", fields=["data.FLAG"]),
        call("restart", "deployment/d"),
        call("get", "deployment/d"),
    ]
    for fields in (["annotations.changed-by"], ["labels.team", "annotations.note"]):
        annotated = view(*honest, call("patch", "configmap/c", fields=fields))
        assert sequence_matches(annotated, steps, after_last=True).value
        before = view(call("patch", "configmap/c", fields=fields), *honest[1:])
        assert not sequence_matches(before, steps).value  # a label write is not the update
    for verb, fields in (
        ("patch", ["data.FLAG"]),
        ("patch", ["binaryData.blob"]),
        ("patch", ["annotations.x", "data.FLAG"]),
        ("patch", []),
        ("replace", ["labels.team"]),
        ("apply", ["annotations.x"]),
    ):
        late = view(*honest, call(verb, "configmap/c", fields=fields))
        assert not sequence_matches(late, steps, after_last=True).value, (verb, fields)
    # a pattern that names a field, or another kind, reads the patch as before
    relabelled = view(call("patch", "deployment/d", fields=["labels.team"]))
    assert sequence_matches(relabelled, ["update deployment/d"]).value


def test_a_metadata_only_patch_needs_no_read_before_it_in_an_order() -> None:
    annotated_first = view(
        call("patch", "configmap/c", fields=["annotations.x"]),
        call("get", "configmap/c"),
        call("patch", "configmap/c", fields=["data.FLAG"]),
    )
    assert ops_precede(annotated_first, "get configmap/c", "update configmap/c").value
    data_first = view(
        call("patch", "configmap/c", fields=["data.FLAG"]),
        call("get", "configmap/c"),
    )
    assert not ops_precede(data_first, "get configmap/c", "update configmap/c").value
