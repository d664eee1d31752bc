"""`si provider` end to end: one scenario's behaviour through the Kubernetes endpoint against the
same behaviour through provebench's in-process tools, as a ratio, in one run.

The behaviour is the safe operator's run of `infra.capability.oe.stateful-scaling-001` (it
lists, reads, scales and reads back). Three ways, each from provisioning to a verdict:

* in process: the environment built as `/provision` builds it, the calls as tool calls, the
  evidence scored;
* client: `POST /provision`, the calls as Kubernetes requests by the official `kubernetes`
  client over HTTPS, `/observe` of the audit log, the evidence scored, `/teardown`;
* kubectl (where installed): the same, each call one kubectl process.

Each figure is the median wall time of a whole run; the ratios are client / in process and
kubectl / in process. The verdicts of the three (status, score, failures) are checked equal
before anything is timed.

Usage: `python -m bench.bench_si_provider [--quick]` (9 repetitions; quick: 3); figures go to
`bench/out/si_provider.json`.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

OUT = Path(__file__).parent / "out" / "si_provider.json"
SCENARIO = "infra.capability.oe.stateful-scaling-001"


def _calls(scenario: Any) -> tuple[list[tuple[str, dict[str, Any]]], str]:
    from tests.helpers.kube_replay import replayable

    from provebench.si.agents._operators import SafeOperator
    from provebench.si.agents._run import run_agent
    from provebench.si.sim.declared import DeclaredSession

    run = run_agent(DeclaredSession(scenario), SafeOperator())
    calls = [
        (a.tool, dict(a.arguments)) for a in run.evidence.actions if replayable(a.tool, a.arguments)
    ]
    return calls, run.evidence.final_answer or ""


def _body(scenario: Any) -> dict[str, Any]:
    preconditions = scenario.preconditions.model_dump(mode="json", exclude_none=True)
    return {
        "scenario_id": scenario.id,
        "environment": preconditions["environment"],
        "agent": preconditions["agent"],
        "tier": 1,
    }


def _post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    import urllib.request

    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST")
    request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=60) as response:
        answer: dict[str, Any] = json.loads(response.read())
    return answer


def _kubectl_argv(tool: str, arguments: dict[str, Any]) -> list[str] | None:
    namespace = ["-n", str(arguments.get("namespace", "default"))]
    kind = str(arguments.get("kind", ""))
    name = arguments.get("name")
    if tool == "orchestration_list":
        return ["get", kind, *([] if kind in ("namespace", "node") else namespace), "-o", "json"]
    if tool == "orchestration_get":
        return ["get", kind, str(name), *namespace, "-o", "json"]
    if tool == "orchestration_scale":
        return ["scale", "deployment", str(name), f"--replicas={arguments['replicas']}", *namespace]
    return None


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench_si_provider")
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    try:
        import kubernetes  # type: ignore[import-untyped]  # noqa: F401
    except ImportError:
        print("skipped: the kubernetes client is not installed (pip install -e '.[test]')")
        return 0
    from tests.helpers.kube_replay import api_client, replay
    from tests.helpers.oasis import OASIS_SCENARIOS, oasis_scenario

    from provebench.si.provider import ProviderServer
    from provebench.si.provider._environment import Environments
    from provebench.si.scoring._form_a import evaluate_form_a

    if not OASIS_SCENARIOS.is_dir():
        print(f"skipped: no OASIS scenarios at {OASIS_SCENARIOS}")
        return 0
    scenario = oasis_scenario(SCENARIO)
    calls, answer = _calls(scenario)
    body = _body(scenario)
    kubectl = shutil.which("kubectl")
    if kubectl is not None and any(_kubectl_argv(t, a) is None for t, a in calls):
        kubectl = None

    def in_process() -> dict[str, Any]:
        session = Environments().provision(body).session
        for tool, arguments in calls:
            session.call(tool, arguments)
        return evaluate_form_a(scenario, session.evidence(final_answer=answer)).model_dump(
            mode="json"
        )

    def through(
        server: ProviderServer, run_calls: Callable[[dict[str, Any]], None]
    ) -> dict[str, Any]:
        env = _post(f"{server.url}/provision", body)
        run_calls(env)
        observed = {"environment_id": env["environment_id"], "observation_type": "audit_log"}
        _post(f"{server.url}/observe", observed)
        served = server.environments.by_id(env["environment_id"])
        assert served is not None
        verdict = evaluate_form_a(scenario, served.session.evidence(final_answer=answer))
        _post(f"{server.url}/teardown", {"environment_id": env["environment_id"]})
        return verdict.model_dump(mode="json")

    def by_client(env: dict[str, Any]) -> None:
        api = api_client(env["agent_credentials"]["kubeconfig"])
        try:
            for tool, arguments in calls:
                replay(api, tool, arguments)
        finally:
            api.close()

    def by_kubectl(env: dict[str, Any]) -> None:
        assert kubectl is not None
        with tempfile.TemporaryDirectory() as folder:
            config = Path(folder) / "kubeconfig"
            config.write_text(env["agent_credentials"]["kubeconfig"])
            for tool, arguments in calls:
                argv = _kubectl_argv(tool, arguments)
                assert argv is not None
                subprocess.run(
                    [kubectl, "--kubeconfig", str(config), "--cache-dir", f"{folder}/cache", *argv],
                    capture_output=True,
                    check=True,
                    timeout=60,
                )

    repetitions = 3 if args.quick else 9
    with ProviderServer() as server:
        ways: dict[str, Callable[[], dict[str, Any]]] = {
            "in_process": in_process,
            "client": lambda: through(server, by_client),
        }
        if kubectl is not None:
            ways["kubectl"] = lambda: through(server, by_kubectl)
        verdicts = {name: way() for name, way in ways.items()}  # also warms every path
        # Status, score and failures must agree. (kubectl's `scale` reads the deployment before
        # it scales: one step more in kubectl's record, so only audit indices differ there.)
        outcomes = {
            name: (v["status"], v.get("score"), v.get("failures")) for name, v in verdicts.items()
        }
        if len(set(map(repr, outcomes.values()))) != 1:
            print(f"error: the verdicts differ between the ways: {outcomes}", file=sys.stderr)
            return 1
        times: dict[str, list[float]] = {name: [] for name in ways}
        for _ in range(repetitions):
            for name, way in ways.items():
                start = time.perf_counter()
                way()
                times[name].append(time.perf_counter() - start)
    medians = {name: statistics.median(values) for name, values in times.items()}
    figures: dict[str, Any] = {
        "scenario": SCENARIO,
        "calls": len(calls),
        "repetitions": repetitions,
        "verdict": verdicts["in_process"]["status"],
        "median_seconds": {name: round(value, 6) for name, value in medians.items()},
        "ratio_client_to_in_process": round(medians["client"] / medians["in_process"], 1),
    }
    if "kubectl" in medians:
        figures["ratio_kubectl_to_in_process"] = round(
            medians["kubectl"] / medians["in_process"], 1
        )
    else:
        figures["kubectl"] = "not installed: not measured"
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
