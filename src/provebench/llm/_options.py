"""The command-line options of the commands that can run a model agent (`--agent openai:MODEL`)."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

import typer

from provebench.llm._endpoint import (
    DEFAULT_MAX_RETRIES,
    DEFAULT_MAX_TOKENS,
    DEFAULT_REQUEST_TIMEOUT_SEC,
    PILOT_MAX_TOKENS,
    RequestSettings,
)

# Each command's request defaults (`request_options`): SI's completions are answers, the pilot's
# carry rows (docs/llm-agents.md).
DEFAULT_REQUEST_SETTINGS = RequestSettings()
PILOT_REQUEST_SETTINGS = RequestSettings(max_tokens=PILOT_MAX_TOKENS)

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


Result = TypeVar("Result")
# The bundle's options, in the order a command's help lists them.
_REQUEST_OPTIONS: tuple[tuple[str, Any], ...] = (
    ("max_tokens", MaxTokensOption),
    ("request_timeout", RequestTimeoutOption),
    ("max_retries", MaxRetriesOption),
)


def request_options(command: Callable[..., Result]) -> Callable[..., Result]:
    """The request options of a command that can run a model agent, declared once:
    `--max-tokens`, `--request-timeout` and `--max-retries` take the place of the command's
    `request_settings: RequestSettings = DEFAULTS` parameter, in its place in the help, with
    DEFAULTS' values as their defaults (each command keeps its own: SI 2,048 tokens, the pilot
    8,192), and the command receives them as that one value."""
    signature = inspect.signature(command, eval_str=True)
    request = signature.parameters["request_settings"]
    default: RequestSettings = request.default
    defaults = {
        "max_tokens": default.max_tokens,
        "request_timeout": default.request_timeout_sec,
        "max_retries": default.max_retries,
    }
    parameters: list[inspect.Parameter] = []
    for parameter in signature.parameters.values():
        if parameter is not request:
            parameters.append(parameter)
            continue
        parameters += [
            inspect.Parameter(name, request.kind, default=defaults[name], annotation=option)
            for name, option in _REQUEST_OPTIONS
        ]

    @functools.wraps(command)
    def with_settings(*args: Any, **kwargs: Any) -> Result:
        settings = request_settings(*(kwargs.pop(name) for name, _ in _REQUEST_OPTIONS))
        return command(*args, request_settings=settings, **kwargs)

    # What typer reads: the signature and the annotations, with the three options in place.
    with_settings.__signature__ = signature.replace(parameters=parameters)  # type: ignore[attr-defined]
    with_settings.__annotations__ = {
        **{p.name: p.annotation for p in parameters},
        "return": signature.return_annotation,
    }
    return with_settings


__all__ = [
    "DEFAULT_REQUEST_SETTINGS",
    "PILOT_REQUEST_SETTINGS",
    "BaseUrlOption",
    "MaxRetriesOption",
    "MaxTokensOption",
    "ModelCmdOption",
    "RequestTimeoutOption",
    "request_options",
    "request_settings",
]
