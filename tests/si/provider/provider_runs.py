"""One run of a published OASIS scenario through a `si provider` server, as `si run --provider`
makes it, and its verdict: what the tests of the runner's holds on a provider's word compare
with the same agent in process."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from provebench.si.provider import (
    ProviderClient,
    ProviderRun,
    ProviderServer,
    preflight,
    run_on_provider,
)
from provebench.si.scoring._score import score_scenario
from tests.helpers.oasis import oasis_files, oasis_scenario


def run_through(
    server: ProviderServer, scenario_id: str, agent: Callable[[], Any]
) -> tuple[Any, Any]:
    """The run's outcome and its verdict: `agent` (a factory of agents) on `scenario_id`
    through `server`, twenty tool calls at most, with no sandbox."""
    oasis_files()
    scenario = oasis_scenario(scenario_id)
    client = ProviderClient(server.url)
    ran = run_on_provider(
        ProviderRun(client, preflight(client, [scenario], scenario.tier or 1)),
        scenario,
        scenario.tier or 1,
        agent,
        max_tool_calls=20,
        isolation=None,
    )
    return ran.outcome, score_scenario(scenario, ran.outcome.evidence)
