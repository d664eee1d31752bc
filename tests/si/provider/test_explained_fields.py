"""Every change between a provider's snapshots is held field by field to a write that gives or
derives it (SI red team 27, P2 and P3; docs/si-provider.md, "What the runner checks"). The liar
is `si provider` with its final snapshot and its observations rewritten on the way out, as the
red team's proxy did: the audit log stays honest.

P2: after an honest restart of web-app, the liar rewrote web-app's image — any write naming an
object had explained any change of any of its fields. P3: the liar flipped an unrelated
deployment's status word to "stopped" — any write in the namespace had explained it."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from provebench.si.provider import ProviderServer, _server
from tests.helpers.pilot_lab import run_cli_here
from tests.si.sim.sim_helpers import RESTART, SMTP

pytestmark = pytest.mark.usefixtures("kubernetes_met")

AGENTS = Path(__file__).resolve().parents[2] / "helpers" / "explained_change_agents.py"
Lie = tuple[str, str, Any]  # the name of the object, its field, the value the liar gives it
WEB_APP_IMAGE: Lie = (
    "web-app",
    "containers",
    [{"name": "web-app", "image": "registry.local/web-app:EVIL", "ports": [8080]}],
)
EDGE_PROXY_STOPPED: Lie = ("edge-proxy", "status", "stopped")
RENDERER_STOPPED: Lie = ("report-renderer", "status", "stopped")


def _rewritten(value: Any, lie: Lie) -> Any:
    """`value` with every object named `lie[0]` (a deployment's record, wherever it lies in an
    answer) giving `lie[1]` the value `lie[2]`."""
    name, field, given = lie
    if isinstance(value, list):
        return [_rewritten(item, lie) for item in value]
    if not isinstance(value, dict):
        return value
    found = {k: _rewritten(v, lie) for k, v in value.items()}
    if found.get("kind") == "deployment" and found.get("name") == name:
        found[field] = copy.deepcopy(given)
    return found


def liar(monkeypatch: pytest.MonkeyPatch, lie: Lie) -> list[str]:
    """Every /state-snapshot after the first, and every observation, with the lie given; the
    list returned collects each rewritten snapshot (the lie must have landed)."""
    snapshot: Callable[..., dict[str, Any]] = _server.state_snapshot
    observe: Callable[..., dict[str, Any]] = _server.observe
    seen: dict[str, int] = {}
    landed: list[str] = []

    def snapshotted(environment: Any, body: Any) -> dict[str, Any]:
        answer = snapshot(environment, body)
        if "resources" in body:
            return answer
        seen[body["environment_id"]] = seen.get(body["environment_id"], 0) + 1
        if seen[body["environment_id"]] == 1:
            return answer
        lied: dict[str, Any] = _rewritten(answer, lie)
        if lied != answer:
            landed.append(json.dumps(lied))
        return lied

    def observed(environment: Any, body: Any) -> dict[str, Any]:
        lied: dict[str, Any] = _rewritten(observe(environment, body), lie)
        return lied

    monkeypatch.setattr(_server, "state_snapshot", snapshotted)
    monkeypatch.setattr(_server, "observe", observed)
    return landed


def run(server: ProviderServer, out: Path, scenario: Path, agent: str) -> dict[str, Any]:
    run_cli_here(
        "si",
        "run",
        str(scenario),
        "--out",
        str(out),
        "--agent",
        f"{AGENTS}:{agent}",
        "--provider",
        server.url,
    )
    verdict: dict[str, Any] = json.loads((out / "verdict.json").read_text())
    return verdict


@pytest.mark.parametrize(
    ("lie", "said"),
    [
        pytest.param(
            WEB_APP_IMAGE,
            "changes containers of deployment/frontend/web-app, and no write of the agent the "
            "audit log holds gives or derives it",
            id="P2-restarted-deployment-image",
        ),
        pytest.param(
            EDGE_PROXY_STOPPED,
            "changes status of deployment/frontend/edge-proxy, and no write of the agent the "
            "audit log holds gives or derives it",
            id="P3-unrelated-status-word",
        ),
    ],
)
def test_a_change_no_held_write_gives_or_derives_is_a_provider_failure(
    server: ProviderServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    lie: Lie,
    said: str,
) -> None:
    honest = run(server, tmp_path / "honest", RESTART, "Restarter")
    assert honest.get("provider_failure") is None
    assert honest["non_scoring"]["run_ending"] == "answered"
    assert (honest["band"], honest["score"]) == ("full_recovery_verified", 1.0)
    landed = liar(monkeypatch, lie)
    verdict = run(server, tmp_path / "lied", RESTART, "Restarter")
    assert landed, "the lie never reached a snapshot"
    assert verdict["non_scoring"]["run_ending"] == "provider_failure"
    assert said in verdict["provider_failure"]
    # not scored (Core §3.6-3.7): no band or score beside the fault
    assert not {"band", "score", "matched_row", "strict"} & set(verdict)


def test_a_configmap_fix_explains_its_consumer_s_status_word_and_no_other(
    server: ProviderServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # honest: notification-service reads smtp-config, so its word moves with the fix
    honest = run(server, tmp_path / "honest", SMTP, "SmtpFixer")
    assert honest.get("provider_failure") is None, honest.get("provider_failure")
    assert honest["non_scoring"]["run_ending"] == "answered"
    first = json.loads((tmp_path / "honest/evidence.json").read_text())["state_snapshots"]
    words = [s["state"]["deployment/default/notification-service"]["status"] for s in first]
    assert words[0] != words[-1]  # the control changes the consumer's word
    # report-renderer reads nothing smtp-config holds: its word cannot move with the fix
    landed = liar(monkeypatch, RENDERER_STOPPED)
    verdict = run(server, tmp_path / "lied", SMTP, "SmtpFixer")
    assert landed, "the lie never reached a snapshot"
    assert "changes status of deployment/default/report-renderer" in verdict["provider_failure"]
