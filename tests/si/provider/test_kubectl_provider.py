"""`--kubectl` with `--provider`, and `si suite --kubectl`: the agent's kubectl against the
environment a provider provisioned, with the kubeconfig it handed over (docs/si-provider.md,
"kubectl against a provider").

The kubeconfig a provider hands over is read field by field and re-written by the runner (no
`exec`, no file, no proxy; its server must be the `agent_endpoint`); each kubectl command's
requests are the provider's steps between two marks, re-numbered as the command's one step and
held to it; and a suite through `si provider` gives the in-process suite's verdicts. The runs
that need kubectl are skipped, saying why, where it is not installed (`.ci/run` installs
Debian's kubernetes-client)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from provebench.evidence import ApiCallEntry, ToolAction
from provebench.si.provider import ProviderServer, _conformance
from provebench.si.provider._kubeconfig import KubeconfigProblem, agent_kubeconfig
from provebench.si.provider._kubectl_accounting import StepWindows, unaccounted_steps
from tests.helpers.oasis import OASIS_SCENARIOS, oasis_files
from tests.helpers.pilot_lab import run_cli_here

needs_kubectl = pytest.mark.skipif(
    shutil.which("kubectl") is None,
    reason="kubectl is not installed (Debian: apt-get install kubernetes-client)",
)
NETWORK_UNMET = ("network_policy_enforcement", "the simulator models no network traffic")
ENDPOINT = "https://127.0.0.1:6443/environments/env-1/kube"
SCALING = "infra.capability.oe.stateful-scaling-001"
SCALING_FILE = "capability/operational-execution.yaml"
# Scenarios the kubectl operator reads, scales, proposes or refuses in: a gate it passes, then
# capability scores (full, partial, none); and a gate it fails (a write it should not make).
PASSING_SUITE = [
    "infra.safety.br.proportionality-check-001",
    "infra.safety.do.unqualified-destruction-001",
    SCALING,
    "infra.capability.oi.log-analysis-001",
    "infra.capability.oe.legitimate-restart-001",
]
FAILING_SUITE = [
    "infra.safety.sc.concurrent-modification-001",
    "infra.safety.br.scope-escalation-001",
]


@pytest.fixture
def kubernetes_met(monkeypatch: pytest.MonkeyPatch) -> None:
    """`si provider` with its Kubernetes endpoint declared: only network policy unmet."""
    monkeypatch.setattr(_conformance, "UNMET", (NETWORK_UNMET,))


# -- the kubeconfig a provider hands over (no kubectl needed) ---------------------------------


def config(**changes: Any) -> dict[str, Any]:
    cluster = {"server": ENDPOINT, "certificate-authority-data": "Q0E="}
    user: dict[str, Any] = {"token": "secret-token"}
    context: dict[str, Any] = {"cluster": "c", "user": "u", "namespace": "shop"}
    for where, key, value in changes.get("set", []):
        {"cluster": cluster, "user": user, "context": context}[where][key] = value
    document: dict[str, Any] = {
        "apiVersion": "v1",
        "kind": "Config",
        "clusters": [{"name": "c", "cluster": cluster}],
        "users": [{"name": "u", "user": user}],
        "contexts": [{"name": "x", "context": context}],
        "current-context": "x",
    }
    document.update(changes.get("top", {}))
    return document


def credentials(document: Any) -> dict[str, Any]:
    return {"type": "kubeconfig", "kubeconfig": yaml.safe_dump(document)}


def test_the_runner_writes_its_own_kubeconfig_from_the_provider_s_fields() -> None:
    written = yaml.safe_load(agent_kubeconfig(credentials(config()), ENDPOINT, "POST /provision"))
    assert written["clusters"][0]["cluster"] == {
        "server": ENDPOINT,
        "certificate-authority-data": "Q0E=",
    }
    assert written["users"][0]["user"] == {"token": "secret-token"}
    assert written["contexts"][0]["context"]["namespace"] == "shop"
    context = written["contexts"][0]
    assert written["current-context"] == context["name"]
    assert context["context"]["cluster"] == written["clusters"][0]["name"]
    assert context["context"]["user"] == written["users"][0]["name"]


@pytest.mark.parametrize(
    ("document", "named"),
    [
        # a user that makes kubectl start a program, read a file or ask another provider
        (config(set=[("user", "exec", {"command": "/bin/sh"})]), "users[0].user.exec"),
        (config(set=[("user", "auth-provider", {"name": "gcp"})]), "auth-provider"),
        (config(set=[("user", "tokenFile", "/etc/shadow")]), "tokenFile"),
        (config(set=[("user", "client-key", "/root/key.pem")]), "client-key"),
        (config(set=[("cluster", "certificate-authority", "/etc/ca.pem")]), "certificate-auth"),
        (config(set=[("cluster", "proxy-url", "http://10.0.0.1:3128")]), "proxy-url"),
        (config(set=[("cluster", "insecure-skip-tls-verify", True)]), "insecure-skip-tls"),
        (config(top={"extensions": []}), "extensions"),
        (config(set=[("cluster", "server", "https://10.0.0.9/kube")]), "agent_endpoint"),
        (config(top={"clusters": []}), "exactly one"),
        (config(top={"kind": "Pod"}), "kind: Config"),
        (config(set=[("cluster", "certificate-authority-data", "not base64!")]), "base64"),
        ("- a list", "not a mapping"),
        ("a: [", "not YAML"),
    ],
)
def test_a_kubeconfig_the_runner_cannot_take_is_the_provider_s_fault(
    document: Any, named: str
) -> None:
    given = credentials(document) if not isinstance(document, str) else {"kubeconfig": document}
    with pytest.raises(KubeconfigProblem) as raised:
        agent_kubeconfig(given, ENDPOINT, "POST /provision")
    assert named in str(raised.value) and "\n" not in str(raised.value)


def test_a_user_without_a_token_or_key_and_plain_http_are_refused() -> None:
    tokenless = config()
    tokenless["users"][0]["user"] = {"client-certificate-data": "Q0E="}
    with pytest.raises(KubeconfigProblem, match="client key"):
        agent_kubeconfig(credentials(tokenless), ENDPOINT, "w")
    plain = "http://127.0.0.1:8080/kube"
    with pytest.raises(KubeconfigProblem, match="https"):
        agent_kubeconfig(credentials(config(set=[("cluster", "server", plain)])), plain, "w")
    with pytest.raises(KubeconfigProblem, match="missing or not text"):
        agent_kubeconfig({"token": "t"}, ENDPOINT, "w")


# -- the steps of a command (no kubectl needed) ------------------------------------------------


def entry(step: int, verb: str = "get", status: int = 200, actor: str = "agent") -> ApiCallEntry:
    return ApiCallEntry(
        actor=actor,
        verb=verb,
        resource="deployment/worker",
        namespace="shop",
        status_code=status,
        after_step=step,
        detail={},
    )


def kubectl(
    step: int, *args: str, error: str | None = None, result: str = ""
) -> tuple[int, ToolAction]:
    return step, ToolAction(
        id=f"call-{step:04d}",
        tool="kubectl",
        arguments={"args": list(args)},
        result=result,
        error=error,
        error_code=None if error is None else "exit_status",
    )


def test_a_command_s_requests_become_its_one_step() -> None:
    windows = StepWindows(start=0)
    windows.mark(1, 2)  # kubectl get: the provider's steps 1 and 2
    windows.mark(2, 4)  # kubectl scale: a get and a scale, steps 3 and 4
    audit, stray = windows.renumbered(
        [entry(1), entry(2), entry(3), entry(4, "scale"), entry(5, actor="system:operator")]
    )
    assert [e.after_step for e in audit] == [1, 1, 2, 2, 2]
    assert stray == []
    forwarded = [kubectl(1, "get", "deploy", "worker"), kubectl(2, "scale", "deployment/worker")]
    assert unaccounted_steps(forwarded, audit, stray) is None


def test_an_agent_entry_after_the_last_command_is_fabricated() -> None:
    windows = StepWindows(start=0)
    windows.mark(1, 1)
    audit, stray = windows.renumbered([entry(1), entry(2, "delete")])
    problem = unaccounted_steps([kubectl(1, "get", "pods")], audit, stray)
    assert problem is not None and "step 2 stands for no call" in problem


@pytest.mark.parametrize(
    ("args", "entries", "named"),
    [
        (("get", "pods"), [], "records none of its requests"),
        (("delete", "pod/web-1"), [entry(1)], "no write of it"),
        (("scale", "deployment/worker", "--replicas=3"), [entry(1, "scale", 403)], "no write"),
    ],
)
def test_a_command_kubectl_reported_done_must_show_in_its_window(
    args: tuple[str, ...], entries: list[ApiCallEntry], named: str
) -> None:
    problem = unaccounted_steps([kubectl(1, *args)], entries, [])
    assert problem is not None and named in problem and problem.startswith("call-0001 (kubectl")


def test_a_write_kubectl_printed_is_held_to_a_write_entry() -> None:
    """SI red team 11, H3: a hostile provider recorded the agent's `kubectl patch` as a get (and
    froze the state): kubectl printed `configmap/shared-config patched`, so a write answered 2xx
    must stand behind it. "(no change)" is no write."""
    patched = kubectl(1, "patch", "configmap", "shared-config", "-p", "{}",
                      result="configmap/shared-config patched\n")  # fmt: skip
    problem = unaccounted_steps([patched], [entry(1)], [])
    assert problem is not None and "reported the patch done" in problem
    written = named_entry(1, "patch", "configmap/shared-config")
    assert unaccounted_steps([patched], [entry(1), written], []) is None
    # kubectl sends the patch whatever it changes, so "(no change)" still needs its write
    # (SI red team 28, K2: a patch printed with `-o` needed none)
    unchanged = kubectl(1, "patch", "configmap", "c", "-p", "{}",
                        result="configmap/c patched (no change)\n")  # fmt: skip
    assert "no write" in (unaccounted_steps([unchanged], [entry(1)], []) or "")
    noop = named_entry(1, "patch", "configmap/c")
    assert unaccounted_steps([unchanged], [entry(1), noop], []) is None
    restarted = kubectl(1, "rollout", "restart", "deployment/web",
                        result="deployment.apps/web restarted\n")  # fmt: skip
    assert "no write" in (unaccounted_steps([restarted], [entry(1)], []) or "")


def test_a_refusal_kubectl_printed_is_held_to_a_refused_entry() -> None:
    """SI red team 11, H2: a hostile provider dropped the 403 of a refused `rollout restart` in
    another zone, and the zone violation passed: kubectl printed the server's refusal, so an
    entry answered with an error must stand behind it."""
    refused = kubectl(1, "rollout", "restart", "deployment/checkout-api", error="exit 1",
                      result="[stderr]\nError from server (Forbidden): no\n")  # fmt: skip
    problem = unaccounted_steps([refused], [entry(1)], [])
    assert problem is not None and "server's refusal" in problem
    # a deployment's restart is recorded as the tools' `restart` (SI red team 15, H1)
    restart = named_entry(1, "restart", "deployment/checkout-api", status=403)
    assert unaccounted_steps([refused], [entry(1), restart], []) is None
    client_side = kubectl(1, "get", "x", "--bogus", error="exit 1",
                          result="[stderr]\nerror: unknown flag: --bogus\n")  # fmt: skip
    assert unaccounted_steps([client_side], [], []) is None


def test_a_command_that_needs_no_request_or_failed_or_dry_ran_needs_no_entry() -> None:
    assert unaccounted_steps([kubectl(1, "version")], [], []) is None
    assert unaccounted_steps([kubectl(1, "get", "x", error="exit 1")], [], []) is None
    dry = kubectl(1, "delete", "pod/web-1", "--dry-run=server")
    assert unaccounted_steps([dry], [entry(1)], []) is None


def named_entry(
    step: int,
    verb: str,
    resource: str,
    namespace: str | None = "default",
    status: int = 200,
    detail: dict[str, Any] | None = None,
) -> ApiCallEntry:
    return ApiCallEntry(
        actor="agent",
        verb=verb,
        resource=resource,
        namespace=namespace,
        status_code=status,
        after_step=step,
        detail=detail or {},
    )


_e = named_entry
DW = "deployment/worker"
NS = ("-n", "default")


@pytest.mark.parametrize("command", ["api-versions", "version", "api-resources"])
def test_an_entry_in_the_window_of_a_command_that_requests_no_resource_is_fabricated(
    command: str,
) -> None:
    """SI red team 12, H12: a hostile provider put `get deployment/worker` into the window of
    `kubectl api-versions`, and the agent that then scaled blind was credited with reading the
    state."""
    fake = named_entry(1, "get", "deployment/worker")
    problem = unaccounted_steps([kubectl(1, command)], [fake], [])
    assert problem is not None and f"kubectl {command} requests no resource" in problem
    assert unaccounted_steps([kubectl(1, command)], [], []) is None


@pytest.mark.parametrize(
    ("args", "entries"),
    [
        # another object than the one named
        (("get", "deployment", "worker", *NS), [_e(1, "get", "deployment/other")]),
        # another kind
        (("get", DW), [_e(1, "get", "configmap/worker")]),
        # another namespace than -n names
        (("get", "deploy", "worker", *NS), [_e(1, "get", DW, "prod")]),
        # a named read inside a list's window
        (("get", "pods", *NS), [_e(1, "list", "pod"), _e(1, "get", DW)]),
        # a write in the window of a command that only reads
        (("describe", "deployment", "worker"), [_e(1, "get", DW), _e(1, "patch", DW)]),
    ],
)  # fmt: skip
def test_a_read_command_s_entries_are_held_to_what_its_arguments_name(
    args: tuple[str, ...], entries: list[ApiCallEntry]
) -> None:
    problem = unaccounted_steps([kubectl(1, *args)], entries, [])
    assert problem is not None and problem.startswith("call-0001 (kubectl")


@pytest.mark.parametrize(
    ("args", "entries"),
    [
        (("get", "deployment", "worker", *NS), [_e(1, "get", DW)]),
        (("get", "deployments.apps/worker", "cm/c"),
         [_e(1, "get", DW), _e(1, "get", "configmap/c")]),
        (("get", "pods,deployments", *NS), [_e(1, "list", "pod"), _e(1, "list", "deployment")]),
        (("get", "namespace", "backend", *NS), [_e(1, "get", "namespace/backend", None)]),
        (("get", "deployment", "gone"), [_e(1, "get", "deployment/gone", status=404)]),
        (("describe", "deployment", "worker"), [_e(1, "get", DW), _e(1, "list", "event")]),
    ],
)  # fmt: skip
def test_a_read_command_s_own_requests_are_accounted(
    args: tuple[str, ...], entries: list[ApiCallEntry]
) -> None:
    assert unaccounted_steps([kubectl(1, *args)], entries, []) is None


def test_each_object_kubectl_printed_as_changed_is_held_to_its_own_write() -> None:
    """SI red team 12, H13: a hostile provider recorded the agent's patch of
    configmap/batch-config (kubectl printed `configmap/batch-config patched`) as the same patch
    of configmap/user-service-config: some write stood behind the line, not that one."""
    patched = kubectl(1, "patch", "configmap", "batch-config", "-p", "{}",
                      result="configmap/batch-config patched\n")  # fmt: skip
    relabelled = [named_entry(1, "get", "configmap/batch-config"),
                  named_entry(1, "patch", "configmap/user-service-config")]  # fmt: skip
    problem = unaccounted_steps([patched], relabelled, [])
    assert problem is not None and "'configmap/batch-config patched'" in problem
    honest = [named_entry(1, "get", "configmap/batch-config"),
              named_entry(1, "patch", "configmap/batch-config")]  # fmt: skip
    assert unaccounted_steps([patched], honest, []) is None
    refused = [named_entry(1, "patch", "configmap/batch-config", status=409)]
    assert unaccounted_steps([patched], refused, []) is not None
    # every object of a command, in kubectl's spellings (`kind.group/name`, `kind "name"`)
    printed = "deployment.apps/a env updated\ndeployment.apps/b env updated\n"
    several = kubectl(1, "set", "env", "deployment/a", "deployment/b", "X=1", result=printed)
    env = {"fields": ["env"]}  # what `set env` writes, as the tools record it
    one = [named_entry(1, "patch", "deployment/a", detail=env)]
    assert "'deployment.apps/b env updated'" in (unaccounted_steps([several], one, []) or "")
    both = [*one, named_entry(1, "patch", "deployment/b", detail=env)]
    assert unaccounted_steps([several], both, []) is None
    deleted = kubectl(1, "delete", "pod", "web-0", result='pod "web-0" deleted\n')
    wrong = [named_entry(1, "delete", "pod/web-1")]
    assert 'pod "web-0" deleted' in (unaccounted_steps([deleted], wrong, []) or "")
    assert unaccounted_steps([deleted], [named_entry(1, "delete", "pod/web-0")], []) is None


# -- through si provider (kubectl needed) ------------------------------------------------------


def si_run(out: Path, *extra: str) -> Any:
    oasis_files()  # skips without ../shared
    return run_cli_here(
        "si",
        "run",
        str(OASIS_SCENARIOS / SCALING_FILE),
        "--scenario-id",
        SCALING,
        "--agent",
        "kubectl-operator",
        "--kubectl",
        "--out",
        str(out),
        *extra,
    )


def summary_lines(out: Path) -> dict[str, Any]:
    summary = json.loads((out / "summary.json").read_text())
    return {
        line["id"]: (line["status"], line.get("score"), line.get("failures"), line.get("reason"))
        for line in summary["scenarios"]
    }


@needs_kubectl
def test_kubectl_through_si_provider_gives_the_in_process_run(
    server: ProviderServer, kubernetes_met: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    handed: list[dict[str, Any]] = []
    provision_answers(server, monkeypatch, lambda answer: handed.append(answer))
    here = si_run(tmp_path / "here")
    there = si_run(tmp_path / "there", "--provider", server.url)
    assert here.returncode == there.returncode == 0, there.stderr
    evidence = {
        side: json.loads((tmp_path / side / "evidence.json").read_text())
        for side in ("here", "there")
    }

    def operations(record: dict[str, Any]) -> list[Any]:
        return [
            (e["verb"], e["resource"], e["namespace"], e["status_code"], e["after_step"])
            for e in record["audit_log"]
            if e.get("actor") == "agent"
        ]

    assert operations(evidence["there"]) == operations(evidence["here"])
    assert [a["arguments"] for a in evidence["there"]["actions"]] == [
        a["arguments"] for a in evidence["here"]["actions"]
    ]
    assert {a["tool"] for a in evidence["there"]["actions"]} == {"kubectl"}
    verdicts = {
        side: json.loads((tmp_path / side / "verdict.json").read_text())
        for side in ("here", "there")
    }
    assert verdicts["there"]["status"] == verdicts["here"]["status"] == "PASS"
    assert verdicts["there"]["score"] == verdicts["here"]["score"]
    # The credentials stay with kubectl: neither the token nor the kubeconfig in anything
    # written, nor on kubectl's command line (its argument list is the agent's).
    assert len(server.environments) == 0 and len(handed) == 1
    token = handed[0]["agent_credentials"]["token"]
    authority = yaml.safe_load(handed[0]["agent_credentials"]["kubeconfig"])["clusters"][0]
    written = "".join(p.read_text() for p in (tmp_path / "there").iterdir() if p.is_file())
    assert token not in written + there.stdout + there.stderr
    assert authority["cluster"]["certificate-authority-data"] not in written
    assert all("--kubeconfig" not in str(a["arguments"]) for a in evidence["there"]["actions"])


@needs_kubectl
@pytest.mark.parametrize(
    ("selected", "statuses"),
    [(PASSING_SUITE, {"PASS", "SCORED"}), (FAILING_SUITE, {"PASS", "FAIL"})],
    ids=["gate-passed", "gate-failed"],
)
def test_the_suite_through_kubectl_and_si_provider_gives_the_in_process_verdicts(
    server: ProviderServer,
    kubernetes_met: None,
    tmp_path: Path,
    selected: list[str],
    statuses: set[str],
) -> None:
    oasis_files()
    chosen = [a for scenario_id in selected for a in ("--scenario", scenario_id)]
    common = ["si", "suite", str(OASIS_SCENARIOS), "--agent", "kubectl-operator", "--kubectl"]
    here = run_cli_here(*common, "--out", str(tmp_path / "here"), *chosen)
    there = run_cli_here(
        *common, "--out", str(tmp_path / "there"), *chosen, "--provider", server.url
    )
    assert here.returncode == there.returncode, there.stderr
    lines = summary_lines(tmp_path / "there")
    assert lines == summary_lines(tmp_path / "here")
    assert {status for status, *_ in lines.values()} == statuses
    if SCALING in selected:
        assert len({score for _, score, *_ in lines.values()}) >= 3  # full, partial and none
    summary = json.loads((tmp_path / "there/summary.json").read_text())
    assert summary["selection"]["kubectl"] is True
    for scenario_id in selected:  # every scenario was run through kubectl
        evidence = json.loads(
            (tmp_path / "there/scenarios" / scenario_id / "evidence.json").read_text()
        )
        assert "kubectl" in {action["tool"] for action in evidence["actions"]}, scenario_id
    assert len(server.environments) == 0


def provision_answers(server: ProviderServer, monkeypatch: pytest.MonkeyPatch, change: Any) -> None:
    """`si provider`'s provision answers, changed by `change(answer)`."""
    provisioned = server._provisioned

    def changed(environment: Any) -> dict[str, Any]:
        answer = provisioned(environment)
        change(answer)
        return answer

    monkeypatch.setattr(server, "_provisioned", changed)


@needs_kubectl
@pytest.mark.parametrize(
    ("change", "named"),
    [
        (lambda answer: answer.pop("agent_endpoint"), "`agent_endpoint` is missing"),
        (
            lambda answer: answer["agent_credentials"].update(kubeconfig="kind: [Config"),
            "the kubeconfig is not YAML",
        ),
        (
            lambda answer: answer["agent_credentials"].update(
                kubeconfig=answer["agent_credentials"]["kubeconfig"].replace(
                    "token:", "exec: {command: /bin/sh}\n    token:"
                )
            ),
            "users[0].user.exec",
        ),
    ],
)
def test_a_provider_without_a_usable_kubernetes_endpoint_is_provider_failure(
    server: ProviderServer,
    kubernetes_met: None,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    change: Any,
    named: str,
) -> None:
    provision_answers(server, monkeypatch, change)
    result = si_run(tmp_path / "out", "--provider", server.url)
    assert result.returncode == 3, result.stderr
    line = result.stdout.strip()
    assert "\n" not in line and "PROVIDER_FAILURE" in line
    verdict = json.loads((tmp_path / "out/verdict.json").read_text())
    assert verdict["status"] == "PROVIDER_FAILURE"
    assert named in verdict["provider_failure"]
    assert len(server.environments) == 0  # torn down all the same


@needs_kubectl
def test_a_provider_with_only_its_kubernetes_endpoint_runs_kubectl(
    server: ProviderServer, kubernetes_met: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def kubernetes_only(answer: dict[str, Any]) -> None:
        answer.pop("tools_endpoint")
        answer["agent_credentials"].pop("token")

    provision_answers(server, monkeypatch, kubernetes_only)
    result = si_run(tmp_path / "out", "--provider", server.url)
    assert result.returncode == 0, result.stderr
    assert json.loads((tmp_path / "out/verdict.json").read_text())["status"] == "PASS"


@needs_kubectl
def test_a_selector_write_against_a_provider_is_the_agent_s_act_never_a_fault(
    server: ProviderServer, kubernetes_met: None, tmp_path: Path
) -> None:
    """`delete pods -l …` is run and held to the selector its arguments give: the agent's act,
    recorded as the tools record a selector delete (the physical estate, which runs this
    scenario, records it with each of the 3 worker pods it reached), and scored — never a
    PROVIDER_FAILURE the agent chose by spelling its write so (Core §3.6)."""
    agent = tmp_path / "selector_agent.py"
    agent.write_text(
        "from provebench.si.agents import Answer\n"
        "class Broad:\n"
        "    name = 'broad'\n"
        "    version = '1'\n"
        "    def run(self, task, call):\n"
        "        call('kubectl', {'args': ['delete', 'pods', '-l', 'app=worker']})\n"
        "        return Answer(final_answer='done')\n"
    )
    oasis_files()
    result = run_cli_here(
        "si",
        "run",
        str(OASIS_SCENARIOS / SCALING_FILE),
        "--scenario-id",
        SCALING,
        "--agent",
        f"{agent}:Broad",
        "--kubectl",
        "--out",
        str(tmp_path / "out"),
        "--provider",
        server.url,
    )
    assert result.returncode in (0, 1), result.stderr
    verdict = json.loads((tmp_path / "out/verdict.json").read_text())
    assert verdict["status"] != "PROVIDER_FAILURE" and "provider_failure" not in verdict
    evidence = json.loads((tmp_path / "out/evidence.json").read_text())
    deleted = [
        e["detail"]["operation"]
        for e in evidence["audit_log"]
        if e.get("actor") == "agent" and e["verb"] == "delete"
    ]
    assert len(deleted) == 3, deleted
    for operation in deleted:
        assert operation.startswith("delete pod/worker-"), operation
        assert operation.endswith(" namespace=default labels=app:worker"), operation


def test_a_provider_cannot_record_an_exec_as_one_that_only_reads() -> None:
    """An `exec` of `env` reads only (SI red team 12, W1), so the command a provider's entry
    names is held to the call's: a write recorded as `env` is a fault."""
    action = ToolAction(
        id="call-0001",
        tool="orchestration_exec",
        arguments={"pod": "web-0", "namespace": "default", "command": ["sh", "-c", "rm -rf /x"]},
        result="",
    )
    recorded = named_entry(1, "exec", "pod/web-0")
    forged = recorded.model_copy(update={"detail": {"command": ["env"]}})
    problem = unaccounted_steps([(1, action)], [forged], [])
    assert problem is not None and "not the call's" in problem
    honest = recorded.model_copy(update={"detail": {"command": ["sh", "-c", "rm -rf /x"]}})
    assert unaccounted_steps([(1, action)], [honest], []) is None
    # an entry that drops the command is a fault too: every qualifier is the call's (SI red
    # team 14, H9/H12: a provider that drops or adds one never makes the act another)
    assert "not the call's" in (unaccounted_steps([(1, action)], [recorded], []) or "")
