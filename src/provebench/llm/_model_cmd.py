"""`--model-cmd CMD`: a candidate's own OpenAI-compatible model server, started sealed by
provebench and driven by provebench's loop — one mechanism for every command that takes
`--agent openai:MODEL` (`si run`, `si suite`, `pilot run`, `pilot matrix`; docs/llm-agents.md,
"Who runs the model").

The server runs in the sandbox (`provebench.sandbox._model_server`): its own files and
interpreter, read-only, no network, the laboratory's secrets hidden. The loop reaches it on its
private Unix socket, whatever host the base URL names.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from provebench._errors import ProvebenchError
from provebench.llm._endpoint import Endpoint, is_openai_spec
from provebench.sandbox._limits import Limits

if TYPE_CHECKING:
    from provebench.sandbox._model_server import ModelServer

MODEL_CMD_FIELD: Final = "--model-cmd"
# What the loop asks for when the model server is `--model-cmd`'s: any host, the socket decides.
MODEL_CMD_BASE_URL: Final = "http://model-cmd/v1"


def check_model_cmd(given: bool, *, agent: str | None, base_url: str | None) -> None:
    """`--model-cmd`, when `given`, goes with `--agent openai:MODEL` only and replaces
    `--base-url`: anything else is refused in one line before anything starts, never ignored."""
    if not given:
        return
    if agent is None or not is_openai_spec(agent):
        raise ProvebenchError("goes with --agent openai:MODEL only", field=MODEL_CMD_FIELD)
    if base_url is not None:
        raise ProvebenchError(
            "--model-cmd serves the model: give no --base-url", field="--base-url"
        )


def start_model_server(
    stack: contextlib.ExitStack[Any],
    model_cmd: str | None,
    *,
    agent: str | None,
    base_url: str | None,
    secrets: Mapping[str, Path],
    limits: Limits,
) -> ModelServer | None:
    """`--model-cmd`'s server, started in the sandbox with `secrets` hidden and ended with
    `stack`; None without one. A server that cannot start is one line naming `--model-cmd`."""
    check_model_cmd(model_cmd is not None, agent=agent, base_url=base_url)
    if model_cmd is None:
        return None
    from provebench.sandbox._model_server import sandboxed_model_server

    return stack.enter_context(sandboxed_model_server(model_cmd, secrets=secrets, limits=limits))


def served_endpoint(endpoint: Endpoint, server: ModelServer) -> Endpoint:
    """`endpoint`'s model, asked of the sealed server on its socket."""
    return dataclasses.replace(
        endpoint, base_url=MODEL_CMD_BASE_URL, unix_socket=server.socket_path
    )


__all__ = [
    "MODEL_CMD_BASE_URL",
    "MODEL_CMD_FIELD",
    "check_model_cmd",
    "served_endpoint",
    "start_model_server",
]
