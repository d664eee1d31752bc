"""The suite's agent, from whichever transport the command names (Execution §1)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from provebench.sandbox._limits import Limits
from provebench.si.suite._runner import AgentSource


def agent_source(
    *,
    agent: str | None,
    agent_cmd: str | None,
    agent_url: str | None,
    secrets: Mapping[str, Path],
    timeout_sec: float,
    limits: Limits,
) -> tuple[AgentSource, dict[str, Any]]:
    """The agent source, and the configuration the agent reported (HTTP agents report one)."""
    from provebench.si.agents._loader import load_agent
    from provebench.si.agents._sealed import sealed_command_agent

    if agent is not None:
        return load_agent(agent, secrets=secrets, timeout_sec=timeout_sec, limits=limits), {}
    if agent_cmd is not None:
        loaded = sealed_command_agent(
            agent_cmd, secrets=secrets, timeout_sec=timeout_sec, limits=limits
        )
        return loaded, {}
    from provebench.si.agents._http import http_agent

    assert agent_url is not None
    remote = http_agent(agent_url, timeout_sec=timeout_sec)
    return remote, dict(remote.configuration)


__all__ = ["agent_source"]
