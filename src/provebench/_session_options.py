"""Options of the commands that serve a session to an agent provebench does not start itself
(`si serve`, `pilot serve --mcp`): who the agent is, and where each session writes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal

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


IdentitySource = Literal["declared", "mcp_client_info"]


@dataclass
class AgentIdentity:
    """Who the agent of a served session is, and where that came from: declared by whoever
    started the server (`--agent-name`), or as its MCP client introduced itself (which may name
    the client library). A declared identity is never replaced; only recordable text is taken."""

    name: str
    version: str | None = None
    source: IdentitySource | None = None

    def declare(self, name: str, version: str | None) -> None:
        self.name, self.version, self.source = name, version, "declared"

    def take_client_info(self, name: object, version: object) -> None:
        if self.source == "declared" or not _recordable(name):
            return
        assert isinstance(name, str)
        self.name = name
        self.version = version if isinstance(version, str) and _recordable(version) else None
        self.source = "mcp_client_info"


def _recordable(value: object) -> bool:
    # Non-empty text that can be written and read back (no lone surrogate).
    return isinstance(value, str) and value != "" and text_problem(value) is None


__all__ = [
    "AgentIdentity",
    "AgentNameOption",
    "AgentVersionOption",
    "ForceOption",
    "IdentitySource",
    "PerSessionOption",
    "check_identity_options",
]
