"""`si run --provider` / `si suite --provider`: provebench as an OASIS runner against a provider.

The preflight (08 §3.8), and runs against `si provider` itself (started once per module on
127.0.0.1:0) in both of its conformance states — `environment_type` unmet (refused at
preflight) and met (runs, with the in-process verdicts). Runtime faults:
test_runner_faults.py.
"""

from __future__ import annotations

import hashlib
import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from provebench._errors import ProvebenchError
from provebench.si.provider import (
    SI_PROFILE,
    ProviderClient,
    ProviderServer,
    _conformance,
    preflight,
)
from provebench.si.provider._client import provider_url
from provebench.si.provider._preflight import needs, semver_key
from provebench.si.provider._session import prompt_of
from provebench.si.sim.declared import DeclaredSession
from tests.helpers.fake_provider import fake_provider
from tests.helpers.oasis import OASIS_SCENARIOS, oasis_files, oasis_scenario, oasis_scenarios
from tests.helpers.pilot_lab import run_cli

SAFETY_FILE = "safety/boundary-enforcement.yaml"
SAFETY_ID = "infra.safety.be.zone-violation-001"
NETWORK_POLICY_ID = "infra.capability.ca.state-discovery-001"
ENVIRONMENT_TYPE_UNMET = (
    "environment_type",
    "the agent endpoint is not a Kubernetes API server (the state before it is one)",
)
NETWORK_UNMET = ("network_policy_enforcement", "the simulator models no network traffic")
# The scenario `si provider` cannot run for this runner: it needs NetworkPolicy enforcement,
# which the simulator does not declare. The three with a temporal condition or text injected in
# a workload's logs run through it (docs/si-provider.md, "Stimuli").
NOT_THROUGH_A_PROVIDER = {NETWORK_POLICY_ID}
STIMULATED = (
    "infra.capability.au.provenance-tracking-001",
    "infra.capability.mr.interruption-recovery-001",
    "infra.safety.pi.data-plane-injection-001",
)


@pytest.fixture
def kubernetes_unmet(monkeypatch: pytest.MonkeyPatch) -> None:
    """`si provider` as it declares itself while its agent endpoint is not Kubernetes'."""
    monkeypatch.setattr(_conformance, "UNMET", (ENVIRONMENT_TYPE_UNMET, NETWORK_UNMET))


@pytest.fixture
def kubernetes_met(monkeypatch: pytest.MonkeyPatch) -> None:
    """`si provider` once its agent endpoint is a Kubernetes API: only network policy unmet."""
    monkeypatch.setattr(_conformance, "UNMET", (NETWORK_UNMET,))


def si_run(out: Path, agent: str, *extra: str, scenario_file: str = SAFETY_FILE) -> Any:
    oasis_files()  # skips without ../shared
    return run_cli(
        "si",
        "run",
        str(OASIS_SCENARIOS / scenario_file),
        "--scenario-id",
        extra[0] if extra and extra[0].startswith("infra.") else SAFETY_ID,
        "--out",
        str(out),
        "--agent",
        agent,
        *(e for e in extra if not e.startswith("infra.")),
    )


# -- preflight (08 §3.8) ----------------------------------------------------------------------


def counted_provisions(server: ProviderServer, monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    asked: list[Any] = []
    provision = server.environments.provision

    def counting(body: Any) -> Any:
        asked.append(body)
        return provision(body)

    monkeypatch.setattr(server.environments, "provision", counting)
    return asked


def test_today_s_provider_is_refused_at_preflight_and_nothing_runs(
    server: ProviderServer,
    kubernetes_unmet: None,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    provisions = counted_provisions(server, monkeypatch)
    result = si_run(tmp_path / "out", "safe-operator", "--provider", server.url)
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    # Named without the URL's path, which carries the provider's secret.
    assert server.url.split("/control/")[0] + "/…/v1/conformance" in lines[0]
    assert server.url.split("/control/")[1] not in result.stderr
    assert "environment_type" in lines[0] and f"needed by {SAFETY_ID}" in lines[0]
    assert not (tmp_path / "out").exists()
    assert provisions == []


def test_met_provider_runs_and_gives_the_in_process_verdict(
    server: ProviderServer,
    kubernetes_met: None,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    provisions = counted_provisions(server, monkeypatch)
    agent = "obedient"  # it FAILs: the failures must be the same (the suite test: both)
    here = si_run(tmp_path / f"{agent}-here", agent)
    there = si_run(tmp_path / f"{agent}-there", agent, "--provider", server.url)
    assert here.returncode == there.returncode, there.stderr
    verdict_here = json.loads((tmp_path / f"{agent}-here/verdict.json").read_text())
    verdict_there = json.loads((tmp_path / f"{agent}-there/verdict.json").read_text())
    assert verdict_here["status"] == "FAIL" and verdict_here["failures"]
    assert verdict_there["status"] == verdict_here["status"]
    assert verdict_there["failures"] == verdict_here["failures"]
    assert verdict_here["sealed"] is True
    assert verdict_there["sealed"] is False  # the provider is not provebench's to seal
    evidence = json.loads((tmp_path / f"{agent}-there/evidence.json").read_text())
    record = evidence["metadata"]["provider"]
    with urllib.request.urlopen(f"{server.url}/v1/conformance?profile={SI_PROFILE}") as r:
        assert record["conformance_sha256"] == hashlib.sha256(r.read()).hexdigest()
    # The URL without its path, which carries the provider's secret (docs/si-provider.md).
    assert record["url"] == server.url.split("/control/")[0] + "/…"
    assert "withheld" in record["url_note"]
    assert record["unmet_not_needed"] == ["network_policy_enforcement"]
    assert verdict_there["non_scoring"]["provider"] == record
    assert evidence["audit_log"] and evidence["state_snapshots"]
    assert len(provisions) == 1  # one environment per run ...
    assert len(server.environments) == 0  # ... each torn down


FORM_B = Path(__file__).resolve().parents[3] / "src/provebench/si/scenarios"


@pytest.mark.parametrize("agent", ["diagnoser", "locus-only"])
def test_a_form_b_scenario_with_an_injection_runs_through_si_provider_as_in_process(
    server: ProviderServer,
    kubernetes_met: None,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    agent: str,
) -> None:
    """No refusal: the runner provisions the physical estate (`estate: physical`), whose state
    is the injected one, and the agent's tool calls through the provider give the band and
    score, and the same recorded calls, that the in-process run gives (no kubectl needed)."""
    provisions = counted_provisions(server, monkeypatch)
    path = FORM_B / "single-signal-diagnosis-002.yaml"
    runs = {}
    for where, extra in (("here", ()), ("there", ("--provider", server.url))):
        out = tmp_path / where
        ran = run_cli("si", "run", str(path), "--agent", agent, "--out", str(out), *extra)
        assert ran.returncode == 0, ran.stderr
        verdict = json.loads((out / "verdict.json").read_text())
        evidence = json.loads((out / "evidence.json").read_text())
        calls = [(a["tool"], a["arguments"], a["result"]) for a in evidence["actions"]]
        runs[where] = (verdict["band"], verdict["score"], calls)
    assert runs["there"] == runs["here"]
    assert [p.get("estate") for p in provisions] == ["physical"]
    if agent == "diagnoser":  # not vacuous: the diagnoser reaches the top band, locus-only not
        assert runs["here"][1] == 1.0
    else:
        assert runs["here"][1] < 1.0


def test_a_scenario_that_needs_network_policy_is_refused_with_the_run(
    server: ProviderServer, kubernetes_met: None, tmp_path: Path
) -> None:
    result = si_run(
        tmp_path / "out",
        "noop",
        NETWORK_POLICY_ID,
        "--provider",
        server.url,
        scenario_file="capability/contextual-awareness.yaml",
    )
    assert result.returncode == 2
    line = result.stderr.strip()
    assert "network_policy_enforcement" in line and NETWORK_POLICY_ID in line
    assert "environment_type" not in line


def test_network_policy_is_needed_only_where_a_policy_is_declared() -> None:
    oasis_files()
    needing = {s.id for s in oasis_scenarios() if "network_policy_enforcement" in needs(s)}
    assert needing == {NETWORK_POLICY_ID}
    containment = {s.id for s in oasis_scenarios() if "value_containment_support" in needs(s)}
    assert containment and all(".de." in scenario_id for scenario_id in containment)


@pytest.mark.parametrize(
    ("change", "named"),
    [
        ({"supported": False}, "no unmet requirement is named"),
        ({"profile": "another-profile"}, "profile"),
        ({"profile_version": "0.1.0"}, "profile_version"),
        ({"oasis_core_spec_versions": ["0.4.0"]}, "oasis_core_spec_versions"),
        ({"requirements": {"environment_type": "docker"}}, "environment_type"),
        ({"unmet_requirements": [{"requirement": "gpu", "reason": "none"}]}, "gpu"),
        ({"requirements": {"state_injection": False}}, "state_injection"),
        ({"requirements": {"complexity_tier_supported": 0}}, "complexity_tier_supported"),
        ({"requirements": {"evidence_sources_available": ["resource_state"]}}, "audit_log"),
    ],
)
def test_each_gap_is_one_line_naming_it(change: dict[str, Any], named: str) -> None:
    with fake_provider() as provider:
        requirements = change.pop("requirements", {})
        provider.document.update(change)
        provider.document["requirements"].update(requirements)
        client = ProviderClient(provider.url)
        with pytest.raises(ProvebenchError) as raised:
            preflight(client, [oasis_scenario(SAFETY_ID)], 1)
        assert provider.requests["provision"] == 0
    line = raised.value.one_line()
    assert "\n" not in line and named in line and f"{provider.url}/v1/conformance" in line


@pytest.mark.parametrize("fault", ["timeout", "not_json", "http_503"])
def test_a_conformance_endpoint_that_fails_is_a_preflight_failure(fault: str) -> None:
    with fake_provider(conformance=fault) as provider:
        client = ProviderClient(provider.url, timeout_sec=0.5)
        with pytest.raises(ProvebenchError, match="preflight failed") as raised:
            preflight(client, [oasis_scenario(SAFETY_ID)], 1)
    assert "\n" not in raised.value.one_line()


def test_a_provider_url_is_checked_before_anything(tmp_path: Path) -> None:
    result = si_run(tmp_path / "out", "noop", "--provider", "ftp://example/x")
    assert result.returncode == 2
    assert "--provider" in result.stderr and len(result.stderr.strip().splitlines()) == 1
    for bad in ("http://", "http://h:port", "http://h:1/?q=1", "http://u:p@h:1"):
        with pytest.raises(ProvebenchError):
            provider_url(bad)
    assert provider_url("http://127.0.0.1:8/api/") == "http://127.0.0.1:8/api"


def test_semver_precedence() -> None:
    ordered = ["0.4.0", "1.0.0-rc1", "1.0.0-rc1.5", "1.0.0-rc2", "1.0.0", "1.0.1"]
    keys = [semver_key(v) for v in ordered]
    assert keys == sorted(keys)  # type: ignore[type-var]
    assert len(set(keys)) == len(keys)
    assert semver_key("1.0") is None


def test_the_prompt_is_the_simulator_s() -> None:
    oasis_files()
    for scenario in oasis_scenarios():
        if scenario.id not in NOT_THROUGH_A_PROVIDER:
            assert prompt_of(scenario) == DeclaredSession(scenario).prompt, scenario.id


# -- si suite --provider ------------------------------------------------------------------------


def suite(out: Path, agent: str, *extra: str) -> Any:
    oasis_files()
    chosen = [s.id for s in oasis_scenarios() if s.id not in NOT_THROUGH_A_PROVIDER]
    return run_cli(
        "si",
        "suite",
        str(OASIS_SCENARIOS),
        "--out",
        str(out),
        "--agent",
        agent,
        *(a for scenario_id in chosen for a in ("--scenario", scenario_id)),
        *extra,
        timeout=300,
    )


def lines_of(out: Path) -> dict[str, Any]:
    summary = json.loads((out / "summary.json").read_text())
    return {
        line["id"]: (line["status"], line.get("score"), line.get("failures"), line.get("reason"))
        for line in summary["scenarios"]
    }


@pytest.mark.parametrize("agent", ["safe-operator", "obedient"])
def test_the_suite_through_si_provider_gives_the_in_process_verdicts(
    server: ProviderServer, kubernetes_met: None, tmp_path: Path, agent: str
) -> None:
    here = suite(tmp_path / "here", agent)
    there = suite(tmp_path / "there", agent, "--provider", server.url)
    assert here.returncode == there.returncode, there.stderr
    assert lines_of(tmp_path / "there") == lines_of(tmp_path / "here")
    summary = json.loads((tmp_path / "there/summary.json").read_text())
    assert summary["sealed"] is False
    assert summary["selection"]["provider"] == server.url.split("/control/")[0] + "/…"
    assert len(server.environments) == 0


def test_the_suite_refuses_today_s_provider_before_anything_runs(
    server: ProviderServer, kubernetes_unmet: None, tmp_path: Path
) -> None:
    result = suite(tmp_path / "out", "noop", "--provider", server.url)
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1 and "environment_type" in result.stderr
    assert not (tmp_path / "out").exists()


def test_a_suite_scenario_whose_provider_fails_is_provider_failure(tmp_path: Path) -> None:
    oasis_files()
    with fake_provider(observe="unreachable") as provider:
        result = run_cli(
            "si",
            "suite",
            str(OASIS_SCENARIOS / SAFETY_FILE),
            "--scenario",
            SAFETY_ID,
            "--out",
            str(tmp_path / "out"),
            "--agent",
            "noop",
            "--provider",
            provider.url,
        )
        assert provider.requests["teardown"] == 1
    assert result.returncode == 3  # a runtime provider fault aborts the suite (Core §3.7)
    assert lines_of(tmp_path / "out")[SAFETY_ID][0] == "PROVIDER_FAILURE"


def test_a_provider_that_fails_mid_suite_aborts_it(tmp_path: Path) -> None:
    """Core §3.7, 08 §3.8.4: the scenario is PROVIDER_FAILURE, no further scenario runs (each is
    listed NOT_RUN, never passed), every environment is torn down, the summary records the
    abort, the exit is 3 and the line leads with the fault."""
    oasis_files()
    capability_id = "infra.capability.oe.legitimate-restart-001"
    safety = [s.id for s in oasis_scenarios("safety") if s.id.startswith("infra.safety.be.")]
    assert len(safety) == 3
    with fake_provider(observe="unreachable") as provider:
        provider.healthy["observe"] = 1  # the first scenario's audit log is served
        result = run_cli(
            "si",
            "suite",
            str(OASIS_SCENARIOS),
            *(a for i in [*safety, capability_id] for a in ("--scenario", i)),
            "--out",
            str(tmp_path / "out"),
            "--agent",
            "noop",
            "--provider",
            provider.url,
        )
        assert provider.requests["provision"] == 2  # the third scenario is never provisioned
        assert provider.requests["teardown"] == 2
    assert result.returncode == 3, result.stderr
    summary = json.loads((tmp_path / "out/summary.json").read_text())
    lines = lines_of(tmp_path / "out")
    by_status: dict[str, list[str]] = {}
    for scenario_id in [*safety, capability_id]:
        by_status.setdefault(lines[scenario_id][0], []).append(scenario_id)
    # the safety scenarios run first, in order: the first was scored, the second failed
    ran, failed = safety[:2]
    assert lines[ran][0] in ("PASS", "FAIL")
    assert by_status["PROVIDER_FAILURE"] == [failed]
    never = by_status["NOT_RUN"]
    assert sorted(never) == sorted([safety[2], capability_id])
    assert "PASS" not in by_status or by_status["PASS"] == [ran]
    for scenario_id in never:
        assert lines[scenario_id][0] == "NOT_RUN"
        assert f"aborted at {failed}" in lines[scenario_id][3]
        assert not (tmp_path / "out/scenarios" / scenario_id).exists()
    assert summary["safety_gate"] != "PASS" and summary["capability"] is None
    assert summary["safety"]["provider_failures"] == [failed]
    metadata = summary["metadata"]
    assert metadata["aborted"] is True and metadata["aborted_at"] == failed
    assert "unreachable" in metadata["fault"]
    assert sorted(metadata["not_run"]) == sorted(never)
    assert result.stdout.startswith(f"PROVIDER_FAILURE: aborted at {failed}: "), result.stdout
    assert "unreachable" in result.stdout.splitlines()[0]
    assert "safety gate PASS" not in result.stdout


def test_an_abort_after_a_passed_gate_is_no_gate_pass(tmp_path: Path) -> None:
    """A capability scenario's runtime fault, after every safety scenario passed: the gate reads
    PROVIDER_FAILURE, not PASS, and there is no capability score (Core §3.7)."""
    oasis_files()
    capability = [
        "infra.capability.oe.legitimate-restart-001",
        "infra.capability.oe.stateful-scaling-001",
    ]
    with fake_provider(observe="unreachable") as provider:
        provider.healthy["observe"] = 1  # the first scenario's audit log is served
        result = run_cli(
            "si",
            "suite",
            str(OASIS_SCENARIOS),
            *(a for i in [SAFETY_ID, *capability] for a in ("--scenario", i)),
            "--out",
            str(tmp_path / "out"),
            "--agent",
            "noop",
            "--provider",
            provider.url,
        )
        assert provider.requests["teardown"] == provider.requests["provision"] == 2
    lines = lines_of(tmp_path / "out")
    assert lines[SAFETY_ID][0] == "PASS"  # the gate passed before the fault
    assert result.returncode == 3, result.stderr
    statuses = sorted(lines[i][0] for i in capability)
    assert statuses == ["NOT_RUN", "PROVIDER_FAILURE"]
    summary = json.loads((tmp_path / "out/summary.json").read_text())
    assert summary["safety_gate"] == "PROVIDER_FAILURE" and summary["capability"] is None
    assert summary["metadata"]["aborted"] is True
    assert "safety gate PASS" not in result.stdout
