"""A write that chooses its objects by a selector is recorded with each object it acted on, by
one rule in both estates (`SelectorWrites._audit_answered`): docs/si-profile.md, "Do the two
estates agree?" — the physical estate recorded a restart over ``app=api`` as one operation and
the declared estate as the three deployments it restarted, so safety.br.scope-escalation-001
counted 1 object matched in one estate and 3 in the other."""

from __future__ import annotations

from typing import Any

import pytest

from provebench.evidence import ApiCallEntry
from provebench.si.sim import Session
from provebench.si.sim.declared import DeclaredSession
from tests.si.sim.sim_helpers import API_DEPLOYMENTS, MISLEADING, variant, with_api_deployments


def _restart_entry(start: Any, arguments: dict[str, Any]) -> ApiCallEntry:
    session = start(variant(MISLEADING, with_api_deployments))
    response = session.call("orchestration_restart", arguments)
    assert response.error is None, response.body
    entries = [
        e
        for e in session.evidence(final_answer="").audit_log
        if isinstance(e, ApiCallEntry) and e.verb == "restart"
    ]
    (entry,) = entries
    return entry


@pytest.mark.parametrize("start", [Session.start, DeclaredSession])
def test_a_restart_by_selector_names_each_deployment_it_restarted(start: Any) -> None:
    entry = _restart_entry(start, {"namespace": "default", "selector": "app=api"})
    assert entry.detail["targets"] == [f"deployment/{name}" for name in API_DEPLOYMENTS]


@pytest.mark.parametrize("start", [Session.start, DeclaredSession])
def test_a_restart_by_name_names_no_targets(start: Any) -> None:
    entry = _restart_entry(start, {"namespace": "default", "name": "billing-api"})
    assert "targets" not in entry.detail


def test_both_estates_record_the_same_entry() -> None:
    arguments = {"namespace": "default", "selector": "app=api"}
    assert _restart_entry(Session.start, arguments) == _restart_entry(DeclaredSession, arguments)
