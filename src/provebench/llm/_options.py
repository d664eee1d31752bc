"""The command-line options of the commands that can run a model agent (`--agent openai:MODEL`)."""

from __future__ import annotations

from typing import Annotated

import typer

from provebench.llm._endpoint import (
    DEFAULT_MAX_RETRIES,
    DEFAULT_MAX_TOKENS,
    DEFAULT_REQUEST_TIMEOUT_SEC,
    RequestSettings,
)

BaseUrlOption = Annotated[
    str | None,
    typer.Option(
        "--base-url",
        help="With --agent openai:MODEL: the OpenAI-compatible endpoint (vLLM, Ollama, a hosted "
        "API; default $OPENAI_BASE_URL, else OpenAI's). The key is read from $OPENAI_API_KEY.",
    ),
]
MaxTokensOption = Annotated[
    int,
    typer.Option(
        "--max-tokens",
        help="With --agent openai:MODEL: the most tokens one completion may have; a turn cut "
        "there (finish_reason length) is recorded as truncated.",
        min=1,
        max=1_000_000,
    ),
]
RequestTimeoutOption = Annotated[
    float,
    typer.Option(
        "--request-timeout",
        metavar="SECONDS",
        help="With --agent openai:MODEL: the time limit of one request to the endpoint.",
        min=1,
        max=86400,
    ),
]
MaxRetriesOption = Annotated[
    int,
    typer.Option(
        "--max-retries",
        help="With --agent openai:MODEL: how often a failed request (429, 5xx, timeout) is "
        "tried again before the endpoint counts as failed.",
        min=0,
        max=20,
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


def request_settings(
    max_tokens: int = DEFAULT_MAX_TOKENS,
    request_timeout: float = DEFAULT_REQUEST_TIMEOUT_SEC,
    max_retries: int = DEFAULT_MAX_RETRIES,
) -> RequestSettings:
    return RequestSettings(
        max_tokens=max_tokens, request_timeout_sec=request_timeout, max_retries=max_retries
    )


__all__ = [
    "BaseUrlOption",
    "MaxRetriesOption",
    "MaxTokensOption",
    "ModelCmdOption",
    "RequestTimeoutOption",
    "request_settings",
]
