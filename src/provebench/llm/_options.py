"""The command-line option of the commands that can run a model agent (`--agent openai:MODEL`)."""

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

__all__ = ["BaseUrlOption"]
