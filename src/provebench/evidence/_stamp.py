"""Facts a transcript does not carry, given on the command line at import time."""

from __future__ import annotations

from provebench._errors import ProvebenchError
from provebench.evidence._models import Evidence


def with_run_facts(
    evidence: Evidence,
    *,
    source: str,
    scenario_id: str | None = None,
    agent_name: str | None = None,
    agent_version: str | None = None,
) -> Evidence:
    """`evidence` with the scenario id and agent identity filled in.

    A value the evidence already holds is never silently replaced: a different one is an error,
    because evidence filed under the wrong scenario would be scored against the wrong answer key.
    """
    checks = (
        ("scenario_id", evidence.scenario_id, scenario_id),
        ("metadata.agent_name", evidence.metadata.agent_name, agent_name),
        ("metadata.agent_version", evidence.metadata.agent_version, agent_version),
    )
    for field, recorded, given in checks:
        if given is not None and recorded is not None and recorded != given:
            raise ProvebenchError(
                f"the file records {recorded!r} but {given!r} was given", path=source, field=field
            )
    metadata = evidence.metadata.model_copy(
        update={
            "agent_name": agent_name if agent_name is not None else evidence.metadata.agent_name,
            "agent_version": (
                agent_version if agent_version is not None else evidence.metadata.agent_version
            ),
        }
    )
    return evidence.model_copy(
        update={
            "scenario_id": scenario_id if scenario_id is not None else evidence.scenario_id,
            "metadata": metadata,
        }
    )


__all__ = ["with_run_facts"]
