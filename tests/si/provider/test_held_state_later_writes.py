"""A later write excuses an earlier one from the final state only where it may undo what the
earlier one gave (SI red team 27, P1): a scale to 20, then a restart — a liar's final state with
the count before the scale had passed, since any later write that reached the deployment
excused the scale. A restart cannot set the replica count; a later scale can."""

from __future__ import annotations

from typing import Any

from provebench.evidence import FullStateSnapshot, ToolAction
from provebench.si.primitives._operations import Operation
from provebench.si.provider._held_state import HeldWrite, unreflected_held_writes

KEY = "deployment/default/worker"


def _write(step: int, verb: str, replicas: int | None = None) -> HeldWrite:
    operation = Operation(verb, "deployment", "worker", "default", replicas=replicas)
    action = ToolAction(id=f"call-{step}", tool="orchestration_scale", arguments={}, result="ok")
    return HeldWrite(action=action, operation=operation, given={})


def _state(replicas: int, label: str) -> FullStateSnapshot:
    worker: dict[str, Any] = {"kind": "deployment", "name": "worker", "replicas": replicas}
    return FullStateSnapshot(label=label, state={KEY: worker})


def _problem(writes: list[HeldWrite], final_replicas: int) -> str | None:
    return unreflected_held_writes(
        writes, _state(6, "baseline"), _state(final_replicas, "final"), changes_during_run=False
    )


def test_a_restart_after_a_scale_leaves_the_scale_held_to_the_final_state() -> None:
    writes = [_write(0, "scale", 20), _write(1, "restart")]
    problem = _problem(writes, final_replicas=6)
    assert problem is not None and "call-0" in problem
    assert _problem(writes, final_replicas=20) is None  # the truthful final state


def test_a_later_scale_may_undo_an_earlier_one() -> None:
    assert _problem([_write(0, "scale", 20), _write(1, "scale", 6)], final_replicas=6) is None


def _pod_delete(name: str | None) -> HeldWrite:
    operation = Operation("delete", "pod", name, "default")
    action = ToolAction(id="call-7", tool="kubectl", arguments={}, result="ok")
    return HeldWrite(action=action, operation=operation, given={})


def _replaced(times: list[int] | None, label: str) -> FullStateSnapshot:
    worker: dict[str, Any] = {"kind": "deployment", "name": "worker", "replicas": 2}
    if times is not None:
        worker["pod_replacements"] = times
    return FullStateSnapshot(label=label, state={KEY: worker})


def test_a_pod_delete_whose_pods_the_final_state_shows_none_replaced_is_unreflected() -> None:
    # the physical estate's snapshots hold no pods: a kubectl delete of a worker pod answered
    # success is reflected by its ReplicaSet's replacement, which a frozen snapshot hides
    delete = _pod_delete("worker-6k4gjdjns6-5vzdt")
    frozen = unreflected_held_writes(
        [delete], _replaced(None, "baseline"), _replaced(None, "final"), changes_during_run=False
    )
    assert frozen is not None and "none replaced" in frozen
    truthful = unreflected_held_writes(
        [delete], _replaced(None, "baseline"), _replaced([1], "final"), changes_during_run=False
    )
    assert truthful is None
    # a pod of another deployment, or one the snapshot holds itself (the declared estate): no
    # replacement of worker's is asked
    other = _pod_delete("api-6k4gjdjns6-5vzdt")
    assert (
        unreflected_held_writes(
            [other], _replaced(None, "b"), _replaced(None, "f"), changes_during_run=False
        )
        is None
    )
