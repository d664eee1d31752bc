"""The agent of `si run` and `si suite`, from whichever transport the command names
(Execution §1: a class, a program, or an HTTP agent; `si serve` is the MCP transport)."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from provebench._errors import ProvebenchError
from provebench.sandbox._limits import Limits
from provebench.si.agents._protocol import DiagnosisAgent

if TYPE_CHECKING:
    from provebench.llm import RequestSettings
    from provebench.sandbox._model_server import ModelServer


class AgentSource(Protocol):
    """How a run gets a fresh agent per scenario (Execution §1: stateless between them)."""

    @property
    def spec(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def version(self) -> str: ...
    @property
    def isolation(self) -> Mapping[str, str]: ...
    def factory(self) -> DiagnosisAgent: ...


def hidden_from_candidate(
    scenarios: Sequence[Path],
    out: Path,
    *,
    readings: Sequence[Path] = (),
    matrix_folder: Path | None = None,
) -> dict[str, Path]:
    """Everything a sealed SI candidate must not see, by role: the one place that decides it
    for every launch of `si run`, `si suite` and `si matrix` — a `--agent-cmd` program (either
    protocol) and a `--model-cmd` server alike (docs/sandbox.md). The scenario files (their
    ground truth, SI seed §5.1), the output folder (the evidence and verdicts as they are
    written), every `--readings` file (per scenario, the words a right answer holds: an answer
    key like the scenario), and a matrix's folder (the other jobs' verdicts). The profile's own
    readings and shipped scenarios are hidden from every candidate by the sandbox itself
    (`SHIPPED_SECRETS`), whatever a caller names."""
    hidden = _numbered("scenario", scenarios)
    hidden["output-folder"] = out
    hidden.update(_numbered("readings", readings))
    if matrix_folder is not None:
        hidden["matrix-folder"] = matrix_folder
    return hidden


def _numbered(role: str, paths: Sequence[Path]) -> dict[str, Path]:
    if len(paths) == 1:
        return {role: paths[0]}
    return {f"{role}-{index}": path for index, path in enumerate(paths)}


def agent_source(
    *,
    agent: str | None,
    agent_cmd: str | None,
    agent_url: str | None,
    secrets: Mapping[str, Path],
    timeout_sec: float,
    limits: Limits,
    base_url: str | None = None,
    agent_protocol: str = "json-lines",
    model_server: ModelServer | None = None,
    request_settings: RequestSettings | None = None,
    resources: contextlib.ExitStack | None = None,
) -> tuple[AgentSource, dict[str, Any]]:
    """The agent source, and the configuration the agent reported (HTTP agents report one).
    Exactly one of ``agent``, ``agent_cmd`` and ``agent_url`` is given; ``base_url`` goes with
    ``agent`` = ``openai:MODEL`` only, as do ``request_settings``; ``agent_protocol``
    (``json-lines`` or ``mcp``: how the program speaks) with ``agent_cmd`` only;
    ``timeout_sec`` bounds the whole run of every kind of agent."""
    if sum(a is not None for a in (agent, agent_cmd, agent_url)) != 1:
        raise ProvebenchError(
            "give exactly one of --agent, --agent-cmd and --agent-url", field="--agent"
        )
    from provebench.llm import check_base_url, endpoint_for, is_openai_spec
    from provebench.llm._model_cmd import check_model_cmd, served_endpoint
    from provebench.si.agents._loader import load_agent
    from provebench.si.agents._sealed import sealed_command_agent

    check_base_url(agent, base_url)
    if agent_protocol != "json-lines" and agent_cmd is None:
        raise ProvebenchError("goes with --agent-cmd only", field="--agent-protocol")
    check_model_cmd(model_server is not None, agent=agent, base_url=base_url)
    if agent is not None and is_openai_spec(agent):
        from provebench.si.agents._openai import LoadedOpenAIAgent

        endpoint = endpoint_for(agent, base_url, settings=request_settings)
        if model_server is None:
            return LoadedOpenAIAgent(endpoint, timeout_sec=timeout_sec), {}
        on_socket = served_endpoint(endpoint, model_server)
        return (
            LoadedOpenAIAgent(on_socket, served=model_server.isolation, timeout_sec=timeout_sec),
            {},
        )
    if agent is not None:
        loaded_class = load_agent(
            agent, secrets=secrets, timeout_sec=timeout_sec, limits=limits, resources=resources
        )
        return loaded_class, {}
    if agent_cmd is not None and agent_protocol == "mcp":
        from provebench.si.agents._sealed_mcp import sealed_mcp_command_agent

        loaded = sealed_mcp_command_agent(
            agent_cmd, secrets=secrets, timeout_sec=timeout_sec, limits=limits, resources=resources
        )
        return loaded, {}
    if agent_cmd is not None:
        loaded = sealed_command_agent(
            agent_cmd, secrets=secrets, timeout_sec=timeout_sec, limits=limits, resources=resources
        )
        return loaded, {}
    from provebench.si.agents._http import http_agent

    assert agent_url is not None
    remote = http_agent(agent_url, timeout_sec=timeout_sec)
    return remote, dict(remote.configuration)


__all__ = ["AgentSource", "agent_source"]
