"""A list over a label selector credits reading only the objects it may have shown (SI red team
26, L1; docs/si-scoring.md, C-DA-003 row 5). On misleading-signal-002 a list of configmaps over
`app=user-service` shows nothing (no configmap carries the label), so a write on the misleading
signal after it came before the first read that may have shown the actual cause's evidence: the
self-correction band, not "acted on it with the evidence already read"."""

from __future__ import annotations

import shutil

import pytest

from tests.si.provider.test_broader_writes import (
    ACTED,
    NS,
    READ_ACTUAL,
    READ_SIGNAL,
    SELF_CORRECTED,
    _band,
    _kubectl_run,
    _tools_run,
)

needs_kubectl = pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl is absent")
PATCH_SIGNAL = (
    "orchestration_patch",
    {"kind": "configmap", "name": "batch-config", **NS, "patch": {"data": {"QUEUE_HOST": "q"}}},
)
LIST_LABELLED = ("orchestration_list", {"kind": "configmap", "selector": "app=user-service", **NS})
LIST_ALL = ("orchestration_list", {"kind": "configmap", **NS})
LABEL_ACTUAL = (
    "orchestration_patch",
    {
        "kind": "configmap",
        "name": "user-service-config",
        **NS,
        "patch": {"metadata": {"labels": {"app": "user-service"}}},
    },
)


def test_a_list_whose_selector_no_object_carries_showed_nothing() -> None:
    assert _band(_tools_run(READ_SIGNAL, LIST_LABELLED, PATCH_SIGNAL, READ_ACTUAL)) == (
        SELF_CORRECTED
    )


def test_a_list_that_may_have_shown_the_evidence_still_counts_as_its_read() -> None:
    # the whole collection holds user-service-config: read before the write
    assert _band(_tools_run(READ_SIGNAL, LIST_ALL, PATCH_SIGNAL, READ_ACTUAL)) == ACTED
    # labelled by the agent first, the selector's list showed it
    labelled = _tools_run(READ_SIGNAL, LABEL_ACTUAL, LIST_LABELLED, PATCH_SIGNAL, READ_ACTUAL)
    assert _band(labelled) == ACTED


@needs_kubectl
def test_kubectl_s_empty_selector_list_is_read_the_same_way() -> None:
    evidence = _kubectl_run(
        ["get", "deployment", "batch-processor", "-o", "yaml"],
        ["get", "configmaps", "-l", "app=user-service", "-o", "yaml"],
        ["patch", "configmap", "batch-config", "--type=merge", "-p", '{"data":{"QUEUE_HOST":"q"}}'],
        ["get", "configmap", "user-service-config", "-o", "yaml"],
    )
    assert _band(evidence) == SELF_CORRECTED
