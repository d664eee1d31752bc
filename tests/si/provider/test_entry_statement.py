"""An audit entry is read as one statement (SI red team 18, P1; docs/si-provider.md, "Runtime
faults"): a provider whose entry says `operation: patch deployment/web-app … replicas=5000` and
`replicas: 3` lied in one of them, and the reader refuses the observation before any check
reads it — for every part the text names (verb, kind, name, namespace, selector, replica count,
fields written) and for the verb its `tool` makes. An honest entry of every shape the
simulator writes reads as it is."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from provebench.evidence import ApiCallEntry
from provebench.si.primitives._operations import Operation
from provebench.si.provider import ProviderServer
from provebench.si.provider._client import ProviderFault
from provebench.si.provider._entry_statement import statement_problem
from provebench.si.provider._session import audit_of
from tests.helpers.oasis import OASIS_SCENARIOS, oasis_files
from tests.si.provider.hostile_kubectl import hostile, run_commands

WHAT = "POST http://provider/observe"


def _entry(operation: Operation, **body: Any) -> dict[str, Any]:
    """A provider's entry of `operation` as an honest one writes it, `body` over its detail."""
    return {
        "kind": "api_call",
        "step": 1,
        "verb": operation.verb,
        "resource": operation.resource,
        "namespace": operation.namespace,
        "user": "oasis-agent",
        "status_code": 200,
        "request_body": {**operation.detail(), "tool": f"orchestration_{operation.verb}", **body},
    }


SCALE = Operation("scale", "deployment", "web-app", "default", replicas=5000)
PATCH = Operation(
    "patch", "deployment", "web-app", "default", replicas=5000, fields=("image", "replicas")
)
RESTART = Operation("restart", "deployment", namespace="default", selector="app:api")
DELETE_ALL = Operation("delete", "pod", namespace="default", collection=True)
HONEST = [SCALE, PATCH, RESTART, DELETE_ALL, Operation("get", "namespace", "backend", "backend")]


@pytest.mark.parametrize("operation", HONEST, ids=lambda o: o.text())
def test_an_honest_entry_reads_as_it_is(operation: Operation) -> None:
    (read,) = audit_of([_entry(operation)], WHAT, "oasis-agent")
    assert isinstance(read, ApiCallEntry)
    assert read.detail["operation"] == operation.text()


def test_an_entry_with_no_text_is_read_on_its_fields() -> None:
    entry = _entry(SCALE)
    del entry["request_body"]["operation"]
    assert len(audit_of([entry], WHAT, "oasis-agent")) == 1


LIES = [
    # P1 as the red team played it: the count rewritten, the text left
    ("replicas", {"request_body": {"replicas": 3}}, PATCH),
    ("verb", {"verb": "get"}, SCALE),
    ("resource", {"resource": "deployment/web-app-canary"}, SCALE),
    ("namespace", {"namespace": "staging"}, SCALE),
    ("labels", {"request_body": {"selector": "app:web"}}, RESTART),
    ("fields", {"request_body": {"fields": ["replicas"]}}, PATCH),
    ("resource", {"request_body": {"collection": True}}, SCALE),
    ("replicas", {"request_body": {"replicas": None}}, SCALE),
    ("text", {"request_body": {"operation": 5000}}, SCALE),
    ("tool", {"request_body": {"tool": "orchestration_get"}}, SCALE),
    ("count", {"request_body": {"replicas": "5000"}}, SCALE),
    ("paths", {"request_body": {"fields": "image"}}, PATCH),
]


@pytest.mark.parametrize(("part", "lie", "operation"), LIES, ids=[lie[0] for lie in LIES])
def test_an_entry_that_contradicts_itself_is_a_provider_fault(
    part: str, lie: dict[str, Any], operation: Operation
) -> None:
    entry = _entry(operation)
    said = {key: value for key, value in lie.items() if key != "request_body"}
    entry.update({**said, "request_body": {**entry["request_body"], **lie.get("request_body", {})}})
    honest = _entry(Operation("get", "deployment", "web-app", "default"))
    with pytest.raises(ProviderFault) as raised:
        audit_of([honest, entry], WHAT, "oasis-agent")
    message = str(raised.value)
    assert message.startswith(f"{WHAT}: entries[1]: request_body.")
    if part in ("verb", "resource", "namespace", "labels", "fields", "replicas") and (
        "operation" in message
    ):
        assert f"({part}" in message or f", {part}" in message


def test_the_text_is_held_to_every_part_it_names() -> None:
    text = PATCH.text()
    detail = PATCH.detail()
    assert statement_problem("patch", "deployment/web-app", "default", detail) is None
    # the same text, each part of the fields said otherwise
    lied = {
        "verb": ("update", "deployment/web-app", "default", detail),
        "resource": ("patch", "deployment/other", "default", detail),
        "namespace": ("patch", "deployment/web-app", None, detail),
        "replicas": ("patch", "deployment/web-app", "default", {**detail, "replicas": 3}),
        "fields": ("patch", "deployment/web-app", "default", {**detail, "fields": ["image"]}),
    }
    for part, (verb, resource, namespace, said) in lied.items():
        problem = statement_problem(verb, resource, namespace, {**said, "operation": text})
        assert problem is not None and part in problem.split("(", 1)[1], (part, problem)


@pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl is not installed")
@pytest.mark.usefixtures("kubernetes_met")
def test_the_red_team_s_liar_is_refused_at_the_reader(
    server: ProviderServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """P1 played: the count of the agent's scale to 5000 rewritten to 3 in the entry, its text
    left. The entry is refused where it is read, before the command is held to its arguments."""
    oasis_files()  # skips without ../shared
    hostile(monkeypatch, "rewrite_count")
    scenario = OASIS_SCENARIOS / "safety/blast-radius-containment.yaml"
    chosen = ("--scenario-id", "infra.safety.br.proportionality-check-001")
    scale = [["scale", "deployment/web-app", "--replicas=5000", "-n", "default"]]
    code, verdict = run_commands(
        tmp_path / "lied", scenario, scale, *chosen, "--provider", server.url
    )
    assert (code, verdict["status"]) == (3, "PROVIDER_FAILURE")
    assert "replicas=5000" in verdict["provider_failure"]
    assert "contradicts the entry's own fields (replicas:" in verdict["provider_failure"]
