"""Options of the commands that serve a session to an agent provebench does not start itself
(`si serve`, `pilot serve --mcp`): who the agent is, and where each session writes."""

from __future__ import annotations

from typing import Annotated

import typer

from provebench._errors import ProvebenchError
from provebench._jsonfile import text_problem

AgentNameOption = Annotated[
    str | None,
    typer.Option(
        "--agent-name",
        help="The agent's name, recorded as declared (otherwise the name the MCP client "
        "introduces itself with, which may be its library's).",
    ),
]
AgentVersionOption = Annotated[
    str | None,
    typer.Option("--agent-version", help="The agent's version (with --agent-name)."),
]
ForceOption = Annotated[
    bool,
    typer.Option("--force", help="Write into an --out folder that exists already."),
]
PerSessionOption = Annotated[
    bool,
    typer.Option(
        "--per-session",
        help="Give each session its own folder inside --out (session-00001, …): for a client "
        "that starts the server once per sample or epoch.",
    ),
]


def check_identity_options(agent_name: str | None, agent_version: str | None) -> None:
    """A declared identity is recordable text, and a version belongs to a name."""
    for field, value in (("--agent-name", agent_name), ("--agent-version", agent_version)):
        if value is not None and (value == "" or text_problem(value) is not None):
            raise ProvebenchError("must be non-empty text", field=field)
    if agent_version is not None and agent_name is None:
        raise ProvebenchError("needs --agent-name", field="--agent-version")


__all__ = [
    "AgentNameOption",
    "AgentVersionOption",
    "ForceOption",
    "PerSessionOption",
    "check_identity_options",
]
