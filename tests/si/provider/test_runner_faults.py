"""`--provider` runtime faults (Core §3.7): each is PROVIDER_FAILURE with the fault recorded in
evidence and verdict, never a PASS built on missing evidence; the environment is torn down on
every ending. Against small fake providers (tests/helpers/fake_provider.py).
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any, ClassVar

import pytest

from provebench._errors import ProvebenchError
from provebench.si.agents._protocol import Answer, CallTool, Task
from provebench.si.agents._run import run_agent
from provebench.si.provider import (
    ProviderClient,
    ProviderFault,
    ProviderRun,
    preflight,
    run_on_provider,
)
from provebench.si.scoring._score import score_scenario
from provebench.si.sim.declared import DeclaredSession
from tests.helpers.fake_provider import FakeProvider, fake_provider
from tests.helpers.oasis import OASIS_SCENARIOS, oasis_files, oasis_scenario
from tests.helpers.pilot_lab import run_cli

SAFETY_FILE = "safety/boundary-enforcement.yaml"
SAFETY_ID = "infra.safety.be.zone-violation-001"


class OneCall:
    """Reads one resource, then answers that all is well."""

    name: ClassVar[str] = "one-call"
    version: ClassVar[str] = "1"

    def run(self, task: Task, call: CallTool) -> Answer:
        call("orchestration_get", {"kind": "pod", "name": "web-1"})
        return Answer(final_answer="All pods are running; nothing to change.")


class Swallower:
    """Catches every error of its tool calls, tries again, and answers as if nothing happened."""

    name: ClassVar[str] = "swallower"
    version: ClassVar[str] = "1"

    def run(self, task: Task, call: CallTool) -> Answer:
        for _ in range(2):
            with contextlib.suppress(Exception):
                call("orchestration_get", {"kind": "pod", "name": "web-1"})
        return Answer(final_answer="All pods are running; nothing to change.")


class Crasher:
    name: ClassVar[str] = "crasher"
    version: ClassVar[str] = "1"

    def run(self, task: Task, call: CallTool) -> Answer:
        raise RuntimeError("the agent broke")


def run_fake(provider: FakeProvider, agent: type[Any], timeout_sec: float = 10.0) -> Any:
    scenario = oasis_scenario(SAFETY_ID)
    client = ProviderClient(provider.url, timeout_sec=timeout_sec)
    ran = run_on_provider(
        ProviderRun(client, preflight(client, [scenario], 1)),
        scenario,
        1,
        agent,
        max_tool_calls=20,
        isolation=None,
    )
    verdict = score_scenario(scenario, ran.outcome.evidence)
    return ran.outcome, verdict


def test_a_healthy_fake_provider_is_scored_from_its_observations() -> None:
    with fake_provider() as provider:
        outcome, verdict = run_fake(provider, OneCall)
        assert provider.requests["teardown"] == 1
    assert outcome.ending == "answered"
    assert outcome.evidence.provider_failure is None
    assert [a.tool for a in outcome.evidence.actions] == ["orchestration_get"]
    assert outcome.evidence.audit_log[0].actor == "agent"
    assert verdict.status != "PROVIDER_FAILURE"
    # The asserted resource's state and diff were observed; the diff is recorded, and the
    # full snapshot stays the last state the checks read.
    assert provider.requests["observe_resource"] == 2
    kinds = [snapshot.kind for snapshot in outcome.evidence.state_snapshots]
    assert kinds == ["state_snapshot", "state_diff", "state_snapshot"]


@pytest.mark.parametrize(
    ("operation", "fault", "said"),
    [
        ("provision", "http_500", "answered HTTP 500 (the fake provider broke)"),
        ("provision", "refused", "did not answer"),
        ("agent_tools", "not_json", "not JSON"),
        ("agent_call", "not_json", "not JSON"),
        ("agent_call", "timeout", "did not answer"),
        ("state_snapshot", "http_503", "answered HTTP 503"),
        ("observe", "unreachable", "is 'unreachable', not 'available'"),
        ("observe", "timeout", "did not answer"),
        ("observe", "not_json", "not JSON"),
        # SI red team 17, H4: valid JSON the evidence cannot hold was a crash where it is written
        ("observe", "surrogate", "surrogate"),
        ("observe", "huge_number", "too large"),
        ("agent_call", "surrogate", "surrogate"),
        ("observe_resource", "surrogate", "surrogate"),
        ("observe", "empty_audit", "attributes none to user 'agent'"),
        ("observe_resource", "http_500", "answered HTTP 500"),
        ("observe_resource", "inconsistent", "disagrees with /state-snapshot"),
        ("observe_resource", "changed_diff", "is unchanged between the snapshots"),
    ],
)
def test_each_runtime_fault_is_a_provider_failure_recorded_in_the_verdict(
    operation: str, fault: str, said: str
) -> None:
    with fake_provider(**{operation: fault}) as provider:
        provider.sleep_sec = 1.0
        outcome, verdict = run_fake(provider, OneCall, timeout_sec=0.5)
        # Torn down on every fault, once there is an environment to tear down.
        provisioned = (operation, fault) != ("provision", "http_500")
        assert provider.requests["teardown"] == int(provisioned)
    assert outcome.ending == "provider_failure"
    assert said in (outcome.evidence.provider_failure or "")
    assert outcome.evidence.final_answer == ""  # an unverifiable run's answer is discarded
    assert verdict.status == "PROVIDER_FAILURE"
    assert said in (verdict.provider_failure or "")


def test_an_agent_that_swallows_the_fault_gets_no_pass() -> None:
    with fake_provider(agent_call="http_500") as provider:
        outcome, verdict = run_fake(provider, Swallower)
        # No request after the fault but the teardown: not the retry, not the observations.
        assert provider.requests["agent_call"] == 1
        assert provider.requests["observe"] == 0
        assert provider.requests["teardown"] == 1
    assert outcome.ending == "provider_failure"
    assert verdict.status == "PROVIDER_FAILURE"


def test_the_environment_is_torn_down_when_the_agent_fails() -> None:
    with fake_provider() as provider:
        outcome, verdict = run_fake(provider, Crasher)
        assert provider.requests["teardown"] == 1
    assert outcome.ending == "agent_error"
    assert verdict.status != "PROVIDER_FAILURE"


def test_the_environment_is_torn_down_on_an_interrupt() -> None:
    class Interrupted:
        name: ClassVar[str] = "interrupted"
        version: ClassVar[str] = "1"

        def run(self, task: Task, call: CallTool) -> Answer:
            raise KeyboardInterrupt

    with fake_provider() as provider:
        outcome, _ = run_fake(provider, Interrupted)
        assert provider.requests["teardown"] == 1
    assert outcome.ending == "interrupted"


def test_an_interrupt_while_provisioning_leaves_no_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def interrupted(self: ProviderClient, environment: Any) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr(ProviderClient, "tools", interrupted)
    with fake_provider() as provider, pytest.raises(KeyboardInterrupt):
        run_fake(provider, OneCall)
    assert provider.requests["provision"] == 1
    assert provider.requests["teardown"] == 1


def test_a_fault_in_process_session_is_untouched_by_the_override() -> None:
    # The in-process simulator never sets a provider failure: run_agent's endings are as before.
    scenario = oasis_scenario(SAFETY_ID)
    outcome = run_agent(DeclaredSession(scenario), OneCall())
    assert outcome.ending == "answered"


@pytest.mark.parametrize(
    ("fault", "said"),
    [
        ("unreachable", "unreachable"),
        # SI red team 17, H4: a lone surrogate in the audit log crashed `si run` writing it
        ("surrogate", "surrogate"),
    ],
)
def test_si_run_exits_3_on_a_runtime_provider_failure(
    tmp_path: Path, fault: str, said: str
) -> None:
    with fake_provider(observe=fault) as provider:
        oasis_files()
        result = run_cli(
            "si",
            "run",
            str(OASIS_SCENARIOS / SAFETY_FILE),
            "--scenario-id",
            SAFETY_ID,
            "--out",
            str(tmp_path / "out"),
            "--agent",
            "noop",
            "--provider",
            provider.url,
        )
        assert provider.requests["teardown"] == 1
    assert result.returncode == 3, result.stderr
    verdict = json.loads((tmp_path / "out/verdict.json").read_text())
    assert verdict["status"] == "PROVIDER_FAILURE"
    assert said in verdict["provider_failure"]
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr


def test_nan_from_a_provider_is_not_json() -> None:
    with fake_provider() as provider:
        provider.document["requirements"]["complexity_tier_supported"] = float("nan")
        with pytest.raises(ProvebenchError, match="not JSON"):
            preflight(ProviderClient(provider.url), [oasis_scenario(SAFETY_ID)], 1)


def test_a_tool_name_that_cannot_be_recorded_is_the_agent_s_error() -> None:
    class Surrogate:
        name: ClassVar[str] = "surrogate"
        version: ClassVar[str] = "1"

        def run(self, task: Task, call: CallTool) -> Answer:
            call("bad\udc80", {})
            return Answer(final_answer="done")

    with fake_provider() as provider:
        outcome, _ = run_fake(provider, Surrogate)
        assert provider.requests["agent_call"] == 0
    assert outcome.ending == "agent_error"


def test_a_provider_fault_is_one_line() -> None:
    assert str(ProviderFault("a\nb\rc")) == "a\\nb\\rc"
