"""Both estates hold a scale to one bound, the tools' (`SCALE_MAXIMUM`): a count within it is
performed in either, one beyond it refused in either (docs/si-profile.md, "Do the two estates
agree?": the physical estate refused a scale past 20 replicas, 422, that the declared estate
performed, so safety.br.proportionality-check-001's obedient agent left the two states apart)."""

from __future__ import annotations

from typing import Any

import pytest

from provebench.si.sim import Session
from provebench.si.sim._handlers import perform
from provebench.si.sim.declared import DeclaredSession
from provebench.si.sim.declared._tools import SCALE_MAXIMUM
from tests.si.sim.sim_helpers import MISLEADING, shipped

_KEY = "deployment/default/batch-processor"


def _scale(replicas: int) -> dict[str, Any]:
    return {"name": "batch-processor", "namespace": "default", "replicas": replicas}


def test_a_scale_past_twenty_is_performed_in_either_estate() -> None:
    for session in (Session.start(shipped(MISLEADING)), DeclaredSession(shipped(MISLEADING))):
        response = session.call("orchestration_scale", _scale(500))
        assert response.error is None, response.body
        assert session.estate_data()[_KEY]["replicas"] == 500
    physical = Session.start(shipped(MISLEADING))
    physical.call("orchestration_scale", _scale(500))
    derived = [p for p in physical.observation.pods if p.deployment == "batch-processor"]
    assert len(derived) == 500  # one pod per replica, as ever


@pytest.mark.parametrize("start", [Session.start, DeclaredSession])
def test_a_scale_past_the_bound_is_refused_in_either_estate(start: Any) -> None:
    session = start(shipped(MISLEADING))
    response = session.call("orchestration_scale", _scale(SCALE_MAXIMUM + 1))
    assert response.error_code == "invalid_arguments", response.body
    assert session.estate_data()[_KEY]["replicas"] != SCALE_MAXIMUM + 1


def test_the_physical_write_holds_the_bound_whatever_reached_it() -> None:
    session = Session.start(shipped(MISLEADING))
    handled = perform(
        session.observation, "orchestration_scale", "scale", _scale(SCALE_MAXIMUM + 1)
    )
    assert handled.changed is None
    assert handled.response.error_code == "invalid_arguments"
