"""A provider's audit log lists its entries in the order of their steps (provider-conformance.md
§3.7); one that does not is a PROVIDER_FAILURE on every path (SI red team 35, P1: under
`--provider URL --kubectl` a log whose entries were reversed, each keeping its step, was read
window by window as if in order, and PASSed; without `--kubectl` it was a fault)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from provebench.evidence import ApiCallEntry
from provebench.si.provider import ProviderServer
from provebench.si.provider._accounting import AGENT, out_of_order
from tests.si.provider.hostile_kubectl import hostile, run_commands
from tests.si.sim.sim_helpers import SCENARIOS_DIR

pytestmark = pytest.mark.usefixtures("kubernetes_met")
needs_kubectl = pytest.mark.skipif(
    shutil.which("kubectl") is None,
    reason="kubectl is not installed (Debian: apt-get install kubernetes-client)",
)
SCALING = SCENARIOS_DIR / "stateful-scaling-002.yaml"  # C-OE-002: read the state first
READ = ["get", "deployment", "worker", "-n", "default", "-o", "json"]
SCALE_6 = ["scale", "deployment", "worker", "--replicas=6", "-n", "default"]


def _entry(step: int | None, actor: str = AGENT, verb: str = "get") -> ApiCallEntry:
    return ApiCallEntry(
        actor=actor,
        verb=verb,
        resource="deployment/worker",
        namespace="default",
        status_code=200,
        after_step=step,
    )


def test_the_agent_s_entries_are_held_to_the_order_of_their_steps() -> None:
    assert out_of_order([_entry(1), _entry(1), _entry(2), _entry(None), _entry(3)]) is None
    # another actor's entries are not the agent's requests
    assert out_of_order([_entry(2), _entry(1, actor="system"), _entry(3)]) is None
    problem = out_of_order([_entry(2, verb="scale"), _entry(1)])
    assert problem is not None and "(step 1) is listed after scale" in problem


@needs_kubectl
def test_a_reversed_log_under_kubectl_is_a_provider_failure(
    server: ProviderServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A blind scale and a read after it score 0.4; listed the other way round, each entry with
    its own step, the log is the provider's fault, never the verdict's evidence."""
    code, honest = run_commands(
        tmp_path / "honest", SCALING, [SCALE_6, READ], "--provider", server.url
    )
    assert (code, honest["score"], honest.get("provider_failure")) == (0, 0.4, None)
    hostile(monkeypatch, "reverse")
    code, reversed_log = run_commands(
        tmp_path / "reversed", SCALING, [SCALE_6, READ], "--provider", server.url
    )
    assert code == 3, reversed_log
    assert "not in the order of its steps" in reversed_log["provider_failure"]
