"""The command-line options of the commands that can run a model agent (`--agent openai:MODEL`)."""

from __future__ import annotations

from typing import Annotated

import typer

BaseUrlOption = Annotated[
    str | None,
    typer.Option(
        "--base-url",
        help="With --agent openai:MODEL: the OpenAI-compatible endpoint (vLLM, Ollama, a hosted "
        "API; default $OPENAI_BASE_URL, else OpenAI's). The key is read from $OPENAI_API_KEY.",
    ),
]

ModelCmdOption = Annotated[
    str | None,
    typer.Option(
        "--model-cmd",
        help="With --agent openai:MODEL: start this OpenAI-compatible model server sealed in the "
        "sandbox, listening on the Unix socket $PROVEBENCH_MODEL_SOCKET names "
        "(docs/llm-agents.md).",
    ),
]

__all__ = ["BaseUrlOption", "ModelCmdOption"]
