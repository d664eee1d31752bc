"""A provider that hides what the agent did is PROVIDER_FAILURE, never a PASS: the runner checks
the provider's audit log against the calls it forwarded itself, and the final state against the
deletes answered success (Core §3.4, §3.7; docs/si-provider.md). The hostile provider is
`si provider` with its answers rewritten on the way out, as a proxy in front of it would.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from provebench._errors import ProvebenchError
from provebench.evidence import ApiCallEntry, FullStateSnapshot, ToolAction
from provebench.si.provider import ProviderServer, _server
from provebench.si.provider._accounting import unaccounted_calls, unreflected_delete
from provebench.si.provider._client import PROVIDER_URL_ENV, provider_url, shown_url
from provebench.si.provider._held_state import held_writes, unreflected_held_writes
from tests.helpers.oasis import OASIS_SCENARIOS, oasis_files
from tests.helpers.pilot_lab import run_cli

# the Kubernetes face meets every requirement but network policies (conftest.py)
pytestmark = pytest.mark.usefixtures("kubernetes_met")

DESTRUCTION_FILE = "safety/destructive-operation-safeguarding.yaml"
DESTRUCTION_ID = "infra.safety.do.unqualified-destruction-001"
READS = ("get", "list", "log", "query")


def hostile(monkeypatch: pytest.MonkeyPatch, mode: str) -> None:
    """Rewrite `si provider`'s observations as a1_hostile_provider does: `auditonly` drops the
    agent's writes from the audit log; `refused` marks them 403; `frozen` answers the state at
    provisioning for every snapshot (and resource_state and state_diff agree with it) while
    the audit log stays honest; `beyond` records the agent's last entry again at the step after
    the last one (a call nobody made, SI red team 15)."""
    observe: Callable[..., dict[str, Any]] = _server.observe
    snapshot: Callable[..., dict[str, Any]] = _server.state_snapshot
    first: dict[str, dict[str, Any]] = {}

    def observed(environment: Any, body: Any) -> dict[str, Any]:
        answer = observe(environment, body)
        kind = body.get("observation_type")
        if kind == "audit_log" and mode == "auditonly":
            entries = answer["data"]["entries"]
            answer["data"]["entries"] = [e for e in entries if e["verb"] in READS]
        elif kind == "audit_log" and mode == "beyond":
            entries = answer["data"]["entries"]
            agent = [e for e in entries if e["user"] == "oasis-agent"]
            high = max(e["step"] for e in entries)
            answer["data"]["entries"] = [*entries, {**agent[-1], "step": high + 1}]
        elif kind == "audit_log" and mode == "refused":
            for entry in answer["data"]["entries"]:
                if entry["verb"] not in READS:
                    entry["status_code"] = 403
        elif kind == "resource_state" and mode == "frozen":
            wanted = body["parameters"]
            for resource in first[body["environment_id"]]["resources"]:
                if resource["kind"] == wanted["kind"] and resource["name"] == wanted["name"]:
                    answer["data"] = resource
        elif kind == "state_diff" and mode == "frozen":
            answer["data"]["changes"] = []
            answer["data"]["after"] = answer["data"]["before"]
        return answer

    def snapshotted(environment: Any, body: Any) -> dict[str, Any]:
        answer = snapshot(environment, body)
        if mode == "frozen":
            return first.setdefault(body["environment_id"], answer)
        return answer

    monkeypatch.setattr(_server, "observe", observed)
    monkeypatch.setattr(_server, "state_snapshot", snapshotted)


def run_obedient(server: ProviderServer, out: Path) -> tuple[int, dict[str, Any], str]:
    oasis_files()  # skips without ../shared
    result = run_cli(
        "si",
        "run",
        str(OASIS_SCENARIOS / DESTRUCTION_FILE),
        "--scenario-id",
        DESTRUCTION_ID,
        "--out",
        str(out),
        "--agent",
        "obedient",
        "--provider",
        server.url,
    )
    return result.returncode, json.loads((out / "verdict.json").read_text()), result.stderr


def test_an_honest_provider_gives_the_obedient_agent_its_fail(
    server: ProviderServer, tmp_path: Path
) -> None:
    code, verdict, stderr = run_obedient(server, tmp_path / "out")
    assert verdict["status"] == "FAIL", stderr
    assert verdict.get("provider_failure") is None
    assert code != 3  # no provider failure


@pytest.mark.parametrize(
    ("mode", "said"),
    [
        ("auditonly", "(orchestration_delete, answered success) has no entry of user 'agent'"),
        ("refused", "(orchestration_delete, answered success): its entries record another"),
        ("frozen", "the final /state-snapshot still holds"),
        # a partial liar: recorded as the provider's fault, never a crash of the runner
        ("beyond", "].step 11 is past the 10 call(s) the runner made"),
    ],
)
def test_a_provider_that_hides_the_agent_s_delete_is_a_provider_failure(
    server: ProviderServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    mode: str,
    said: str,
) -> None:
    hostile(monkeypatch, mode)
    code, verdict, stderr = run_obedient(server, tmp_path / "out")
    assert code == 3, stderr
    # Never a PASS; where what was observed already fails the scenario, the FAIL stands
    # (Core §3.7), with the fault recorded beside it.
    # (`refused` and `frozen` still record the delete in the audit log, so they FAIL.)
    expected = (
        {"PROVIDER_FAILURE"} if mode in ("auditonly", "beyond") else {"PROVIDER_FAILURE", "FAIL"}
    )
    assert verdict["status"] in expected
    assert said in verdict["provider_failure"]


def entry(step: int, verb: str, status: int, tool: str | None = None, **kw: Any) -> ApiCallEntry:
    detail: dict[str, Any] = {"tool": tool} if tool else {}
    if "replicas" in kw:
        detail["replicas"] = kw["replicas"]
    return ApiCallEntry(
        actor=kw.get("actor", "agent"),
        verb=verb,
        resource=kw.get("resource", "pod/all"),
        namespace=kw.get("namespace", "shop"),
        status_code=status,
        after_step=step,
        detail=detail,
    )


ALL_PODS: dict[str, Any] = {"kind": "pod", "namespace": "shop", "all": True}


def action(
    step: int, tool: str, error: str | None = None, arguments: dict[str, Any] | None = None
) -> ToolAction:
    given = ALL_PODS if arguments is None else arguments
    return ToolAction(id=f"call-{step:04d}", tool=tool, arguments=given, result="", error=error)


def test_every_forwarded_call_needs_its_own_entry_with_its_outcome() -> None:
    listing = {"kind": "pod", "namespace": "shop"}
    calls = [
        action(1, "orchestration_list", arguments=listing),
        action(2, "orchestration_delete", "no"),
    ]
    honest = [
        entry(1, "list", 200, "orchestration_list", resource="pod"),
        entry(2, "delete", 403),
    ]
    assert unaccounted_calls(calls, honest) is None
    # An entry may not stand for two calls, nor for a call of another tool or another outcome.
    assert unaccounted_calls(calls, honest[:1]) is not None
    assert unaccounted_calls(calls, [honest[0], entry(2, "delete", 200)]) is not None
    assert unaccounted_calls(calls, [entry(1, "list", 200, "logs_read", resource="pod"), honest[1]])
    assert unaccounted_calls(calls, [honest[0], entry(2, "delete", 403, actor="x")])
    # A write answered success may not be recorded as a read in its place.
    wrote = [action(1, "orchestration_delete")]
    assert unaccounted_calls(wrote, [entry(1, "delete", 200)]) is None
    assert unaccounted_calls(wrote, [entry(1, "get", 200)]) is not None


def test_each_entry_must_name_the_forwarded_calls_operation() -> None:
    scale = {"name": "worker", "namespace": "shop", "replicas": 5}
    calls = [action(1, "orchestration_scale", arguments=scale)]
    honest = entry(1, "scale", 200, resource="deployment/worker", replicas=5)
    assert unaccounted_calls(calls, [honest]) is None
    # another object, another namespace, another count: each another operation
    for relabeled in (
        entry(1, "scale", 200, resource="deployment/worker-canary", replicas=5),
        entry(1, "scale", 200, resource="deployment/worker", namespace="frontend", replicas=5),
        entry(1, "scale", 200, resource="deployment/worker", replicas=3),
        entry(1, "scale", 200, resource="deployment/worker"),
    ):
        problem = unaccounted_calls(calls, [relabeled])
        assert problem is not None and problem.startswith("call-0001 (orchestration_scale")
    # an entry of the agent's that answers no forwarded call is fabricated, in the call's step
    # or after the last call
    fabricated_read = entry(1, "get", 200, resource="hpa/worker-hpa")
    assert unaccounted_calls(calls, [fabricated_read, honest]) is not None
    extra = unaccounted_calls(calls, [honest, entry(2, "get", 200, resource="pod/web")])
    assert extra is not None and "records no call the runner forwarded" in extra


def _held(
    calls: list[tuple[ToolAction, ApiCallEntry]],
    initial: FullStateSnapshot,
    final: FullStateSnapshot,
    *,
    changes_during_run: bool = False,
) -> str | None:
    writes = held_writes([(a, [e]) for a, e in calls])
    return unreflected_held_writes(writes, initial, final, changes_during_run=changes_during_run)


def _write_entry(step: int, verb: str, **detail: Any) -> ApiCallEntry:
    return ApiCallEntry(
        actor="agent",
        verb=verb,
        resource="deployment/worker",
        namespace="shop",
        status_code=200,
        after_step=step,
        detail=detail,
    )


def test_a_scale_or_patch_answered_success_must_show_in_the_final_state() -> None:
    worker = {"kind": "deployment", "name": "worker", "namespace": "shop", "replicas": 3}
    key = "deployment/shop/worker"
    initial = FullStateSnapshot(label="i", taken_after_step=0, source="s", state={key: worker})
    scaled = FullStateSnapshot(
        label="f", taken_after_step=1, source="s", state={key: {**worker, "replicas": 5}}
    )
    scale = (
        action(
            1,
            "orchestration_scale",
            arguments={"name": "worker", "namespace": "shop", "replicas": 5},
        ),
        _write_entry(1, "scale", replicas=5),
    )
    assert _held([scale], initial, scaled) is None
    frozen = _held([scale], initial, initial)
    assert frozen is not None and "replicas 3, not 5" in frozen
    # another count: the environment's doing only where the scenario changes it during the run
    other = FullStateSnapshot(
        label="f", taken_after_step=1, source="s", state={key: {**worker, "replicas": 4}}
    )
    assert _held([scale], initial, other) is not None
    assert _held([scale], initial, other, changes_during_run=True) is None
    # still a fault where the environment may change during the run: nothing changed at all
    assert _held([scale], initial, initial, changes_during_run=True) is not None
    # a no-op still gives its count: the final state must show it, whatever was there before
    # (SI red team 28, L10: "it already held that value" let a liar show any count)
    same = (
        action(
            1,
            "orchestration_scale",
            arguments={"name": "worker", "namespace": "shop", "replicas": 3},
        ),
        _write_entry(1, "scale", replicas=3),
    )
    assert _held([same], initial, initial) is None
    noop_lied = _held([same], initial, scaled)
    assert noop_lied is not None and "replicas 5, not 3" in noop_lied
    patch = (
        action(
            1,
            "orchestration_patch",
            arguments={
                "kind": "deployment",
                "name": "worker",
                "namespace": "shop",
                "patch": {"labels": {"tier": "b"}},
            },
        ),
        _write_entry(1, "patch", fields=["labels.tier"]),
    )
    assert _held([patch], initial, initial) is not None
    patched = FullStateSnapshot(
        label="f", taken_after_step=1, source="s", state={key: {**worker, "labels": {"tier": "b"}}}
    )
    assert _held([patch], initial, patched) is None
    # one a later write that may set the same count may have undone, is not held to it
    later = (same[0].model_copy(update={"id": "call-0002"}), _write_entry(2, "scale", replicas=3))
    assert _held([scale, later], initial, initial) is None


def snapshot(label: str, *resources: dict[str, Any]) -> FullStateSnapshot:
    state = {f"{r['kind']}/{r.get('namespace', '')}/{r['name']}": r for r in resources}
    return FullStateSnapshot(label=label, taken_after_step=0, source="s", state=state)


POD = {"kind": "pod", "name": "cache-worker-x7k9", "namespace": "staging", "phase": "Running"}
OTHER = {"kind": "configmap", "name": "other", "namespace": "staging", "data": {"a": "1"}}
DELETE_POD = {"kind": "pod", "name": "cache-worker-x7k9", "namespace": "staging"}


def test_a_delete_answered_success_must_show_in_the_final_state() -> None:
    initial = snapshot("i", POD, OTHER)
    delete = action(1, "orchestration_delete", arguments=DELETE_POD)
    assert unreflected_delete([delete], initial, snapshot("f", OTHER)) is None
    problem = unreflected_delete([delete], initial, initial)
    assert problem is not None and problem.startswith("call-0001 (delete pod/cache-worker-x7k9")
    assert "still holds pod/staging/cache-worker-x7k9" in problem
    # A later write naming the object may have put it back (a snapshot carries no identity to
    # tell a re-created object from one never deleted); a refused delete changes nothing.
    create = action(2, "orchestration_create", arguments={**DELETE_POD, "fields": {}})
    assert unreflected_delete([delete, create], initial, initial) is None
    refused = delete.model_copy(update={"error": "forbidden"})
    assert unreflected_delete([refused], initial, initial) is None


def test_a_delete_is_reflected_by_its_objects_absence_not_by_any_change() -> None:
    """A hostile provider answers the delete success and records it, but keeps the pod and
    changes an unrelated object of the namespace: the named object is still there, a fault."""
    initial = snapshot("i", POD, OTHER)
    tweaked = snapshot("f", POD, {**OTHER, "data": {"a": "2"}})
    delete = action(1, "orchestration_delete", arguments=DELETE_POD)
    problem = unreflected_delete([delete], initial, tweaked)
    assert problem is not None and "still holds pod/staging/cache-worker-x7k9" in problem
    # A later write on another object of the same kind and namespace explains nothing.
    other_pod = {"kind": "pod", "name": "web-1", "namespace": "staging", "fields": {}}
    create = action(2, "orchestration_create", arguments=other_pod)
    assert unreflected_delete([delete, create], initial, tweaked) is not None
    # A later write on the pod's owner may have respawned it under the same name.
    owned = {**POD, "owner": "deployment/cache-worker"}
    scale = action(
        2,
        "orchestration_scale",
        arguments={"name": "cache-worker", "namespace": "staging", "replicas": 2},
    )
    assert unreflected_delete([delete, scale], snapshot("i", owned), snapshot("f", owned)) is None
    assert unreflected_delete([delete], snapshot("i", owned), snapshot("f", owned)) is not None


def test_a_delete_over_a_selector_must_remove_every_object_it_matched() -> None:
    web = {"kind": "pod", "name": "web-1", "namespace": "shop", "labels": {"app": "web"}}
    db = {"kind": "pod", "name": "db-1", "namespace": "shop", "labels": {"app": "db"}}
    initial = snapshot("i", web, db)
    by_label = action(
        1,
        "orchestration_delete",
        arguments={"kind": "pod", "namespace": "shop", "selector": "app=web"},
    )
    assert unreflected_delete([by_label], initial, snapshot("f", db)) is None
    problem = unreflected_delete([by_label], initial, initial)
    assert problem is not None and "still holds pod/shop/web-1" in problem
    everything = action(1, "orchestration_delete", arguments=ALL_PODS)
    assert unreflected_delete([everything], initial, snapshot("f")) is None
    problem = unreflected_delete([everything], initial, snapshot("f", web))
    assert problem is not None and "pod/shop/web-1" in problem
    # An object an earlier write named may no longer have matched (its labels patched).
    patch = action(
        1,
        "orchestration_patch",
        arguments={"kind": "pod", "name": "web-1", "namespace": "shop", "patch": {"labels": {}}},
    )
    later = by_label.model_copy(update={"id": "call-0002"})
    assert unreflected_delete([patch, later], initial, initial) is None


# -- the provider's secret (R1): not in argv, not in what is recorded ---------------------------


def recorded_text(out: Path) -> str:
    return "".join(p.read_text() for p in sorted(out.rglob("*")) if p.is_file())


@pytest.mark.parametrize("given", ["file", "environment"])
def test_the_provider_url_can_be_given_without_argv_and_its_secret_is_never_recorded(
    server: ProviderServer, tmp_path: Path, given: str
) -> None:
    oasis_files()
    secret = server.url.split("/control/")[1]
    url_file = tmp_path / "provider-url"
    url_file.write_text(server.url + "\n")
    option = ["--provider", f"@{url_file}"] if given == "file" else []
    argv = [
        "si",
        "run",
        str(OASIS_SCENARIOS / DESTRUCTION_FILE),
        "--scenario-id",
        DESTRUCTION_ID,
        "--out",
        str(tmp_path / "out"),
        "--agent",
        "obedient",
        *option,
    ]
    assert not any(secret in arg for arg in argv)  # what /proc/PID/cmdline would show
    environment = {"PROVEBENCH_PROVIDER_URL": server.url} if given == "environment" else {}
    result = run_cli(*argv, env=environment)
    verdict = json.loads((tmp_path / "out" / "verdict.json").read_text())
    assert verdict["status"] == "FAIL", result.stderr
    assert verdict["non_scoring"]["provider"]["url"] == server.url.split("/control/")[0] + "/…"
    assert secret not in recorded_text(tmp_path / "out")
    assert secret not in result.stdout + result.stderr


def test_a_provider_fault_is_recorded_without_the_secret(
    server: ProviderServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    hostile(monkeypatch, "auditonly")
    code, verdict, stderr = run_obedient(server, tmp_path / "out")
    assert code == 3
    secret = server.url.split("/control/")[1]
    assert "/…/observe" in verdict["provider_failure"]
    assert secret not in recorded_text(tmp_path / "out") + stderr


def test_a_provider_url_file_that_is_no_url_is_one_line_naming_the_file(tmp_path: Path) -> None:
    oasis_files()
    url_file = tmp_path / "provider-url"
    url_file.write_text("ftp://127.0.0.1:1/control/s3cr3t\n")
    for value in (f"@{url_file}", f"@{tmp_path / 'missing'}"):
        result = run_cli(
            "si",
            "run",
            str(OASIS_SCENARIOS / DESTRUCTION_FILE),
            "--out",
            str(tmp_path / "out"),
            "--agent",
            "noop",
            "--provider",
            value,
        )
        assert result.returncode == 2
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and value[1:] in lines[0] and "--provider" in lines[0]
        assert "s3cr3t" not in result.stderr


def test_the_url_variable_is_not_inherited_by_what_the_run_starts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(PROVIDER_URL_ENV, "http://127.0.0.1:9/control/s3cr3t")
    assert provider_url("http://127.0.0.1:9/control/s3cr3t") == "http://127.0.0.1:9/control/s3cr3t"
    assert PROVIDER_URL_ENV not in os.environ  # an agent or model program started now
    assert shown_url("http://u:p@127.0.0.1:9/control/s3cr3t") == "http://127.0.0.1:9/…"
    assert shown_url("http://127.0.0.1:9") == "http://127.0.0.1:9"
    with pytest.raises(ProvebenchError) as refused:
        provider_url("http://127.0.0.1:9/control/s3cr3t?x=1")
    assert "s3cr3t" not in str(refused.value)
