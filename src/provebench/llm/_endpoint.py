"""An OpenAI-compatible endpoint named on the command line: `--agent openai:MODEL --base-url URL`.

The key is read from the environment, never from the command line (which other users of the
machine can see in the process list) and never recorded. A local server (vLLM, Ollama) that
wants no key gets a placeholder: the SDK insists on one.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final
from urllib.parse import urlsplit

from provebench._errors import ProvebenchError

if TYPE_CHECKING:
    from openai import OpenAI

    from provebench.llm._connections import ConnectionLog
    from provebench.llm._loop import LoopResult
    from provebench.sandbox._isolation import EndpointJudgement

OPENAI_PREFIX: Final = "openai:"
API_KEY_ENV: Final = "OPENAI_API_KEY"
# Rate limits (429), timeouts and server errors are retried by the SDK with exponential backoff,
# honouring the server's Retry-After; past these attempts the endpoint has failed (a provider
# failure). The defaults bound one completion to about 3 × 120 s; the run's own time limit
# (`--agent-timeout`, `--cycle-timeout`) bounds the whole loop.
DEFAULT_MAX_RETRIES: Final = 2
DEFAULT_REQUEST_TIMEOUT_SEC: Final = 120.0
# Enough for any tool call or answer the laboratories ask for; a model that rambles past it is
# cut by the server (finish_reason `length`), and the cut is recorded.
DEFAULT_MAX_TOKENS: Final = 2048
# An importer's tool calls carry rows (about 70 tokens each): an append of every row left in
# doubt by two faulted cycles is 30 rows and more, past 2,048 tokens, and a cut call is an
# invalid one. The pilot's default completion limit leaves room for that.
PILOT_MAX_TOKENS: Final = 8192
# One judgement per endpoint, whichever thread asks first (the run's identity, or its client).
_JUDGING = threading.Lock()


class EndpointFailure(Exception):
    """The endpoint did not answer usefully (unreachable, refused the key, kept failing after
    the retries, answered something that is not a chat completion): the harness's fault, not
    the model's answer. `result` is the run so far (its transcript is recorded all the same)."""

    def __init__(self, message: str, result: LoopResult | None = None) -> None:
        super().__init__(message)
        self.result = result


@dataclass(frozen=True)
class RequestSettings:
    """How each completion is asked for: its token limit, and how long and how often to try."""

    max_tokens: int = DEFAULT_MAX_TOKENS
    request_timeout_sec: float = DEFAULT_REQUEST_TIMEOUT_SEC
    max_retries: int = DEFAULT_MAX_RETRIES


def is_openai_spec(spec: str) -> bool:
    return spec.startswith(OPENAI_PREFIX)


@dataclass(frozen=True)
class Endpoint:
    """Where the model is served, and which model."""

    model: str
    base_url: str
    api_key: str
    max_tokens: int = DEFAULT_MAX_TOKENS
    request_timeout_sec: float = DEFAULT_REQUEST_TIMEOUT_SEC
    max_retries: int = DEFAULT_MAX_RETRIES
    # A model server provebench started in the sandbox (`--model-cmd`) is reached on its Unix
    # socket, whatever host `base_url` names.
    unix_socket: str | None = None

    @property
    def spec(self) -> str:
        return f"{OPENAI_PREFIX}{self.model}"

    def judgement(self) -> EndpointJudgement:
        """Where `base_url` (and the environment's proxy for it) resolved, once for this
        endpoint: the run's isolation records the reach judged from these addresses, and the
        client connects to them and to no others (llm/_pinned.py)."""
        from provebench.sandbox._isolation import judge_endpoint

        with _JUDGING:
            judged: EndpointJudgement | None = self.__dict__.get("_judgement")
            if judged is None:
                judged = judge_endpoint(self.base_url)
                object.__setattr__(self, "_judgement", judged)
            return judged

    def client(self, connections: ConnectionLog | None = None) -> OpenAI:
        """The SDK's client of this endpoint; every TCP connection it tries is written in
        `connections` (llm/_pinned.py). A `--model-cmd` server's Unix socket is not pinned,
        and nothing is written of it."""
        from openai import DefaultHttpxClient, OpenAI

        # Never follow a redirect (the SDK's client follows them by default): where the model
        # is, and so whether the run can be sealed, is judged from `base_url` alone, and a
        # "remote" endpoint that answered 307 to a loopback address would have its requests
        # served by whatever listens there — on this machine, as the operator. An
        # OpenAI-compatible API has no use for redirects; one is answered as the endpoint's
        # failure.
        if self.unix_socket is not None:
            # The SDK's own HTTP library (httpx, or its successor httpx2 in newer releases).
            import importlib
            import importlib.util

            name = "httpx2" if importlib.util.find_spec("httpx2") is not None else "httpx"
            transport = importlib.import_module(name).HTTPTransport(uds=self.unix_socket)
            http_client = DefaultHttpxClient(transport=transport, follow_redirects=False)
        else:
            from provebench.llm._pinned import pin_client

            http_client = DefaultHttpxClient(follow_redirects=False)
            pin_client(http_client, self.judgement(), connections)
        return OpenAI(
            api_key=self.api_key,
            base_url=self.base_url,
            max_retries=self.max_retries,
            timeout=self.request_timeout_sec,
            http_client=http_client,
        )


def check_base_url(agent: str | None, base_url: str | None) -> None:
    """`--base-url` names the endpoint of a model agent: with any other agent it is a mistake,
    refused rather than ignored."""
    if base_url is not None and (agent is None or not is_openai_spec(agent)):
        raise ProvebenchError("goes with --agent openai:MODEL only", field="--base-url")


def endpoint_for(
    spec: str,
    base_url: str | None,
    *,
    field: str = "--agent",
    settings: RequestSettings | None = None,
) -> Endpoint:
    """The endpoint of `openai:MODEL`; `base_url` from `--base-url`, else `OPENAI_BASE_URL`,
    else OpenAI's own; `settings` from `--max-tokens`, `--request-timeout`, `--max-retries`."""
    model = spec.removeprefix(OPENAI_PREFIX)
    if not is_openai_spec(spec) or not model.strip():
        raise ProvebenchError("name a model: openai:MODEL", field=field)
    url = base_url or os.environ.get("OPENAI_BASE_URL") or "https://api.openai.com/v1"
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ProvebenchError(f"not an http(s) URL: {url}", field="--base-url")
    require_openai_sdk(field)
    key = os.environ.get(API_KEY_ENV) or "not-needed"
    settings = settings or RequestSettings()
    return Endpoint(
        model=model,
        base_url=url,
        api_key=key,
        max_tokens=settings.max_tokens,
        request_timeout_sec=settings.request_timeout_sec,
        max_retries=settings.max_retries,
    )


def require_openai_sdk(field: str = "--agent") -> None:
    """Before any work: the SDK is an optional extra."""
    import importlib.util

    if importlib.util.find_spec("openai") is None:
        raise ProvebenchError(
            "needs the openai package: pip install 'provebench[openai]'", field=field
        )


__all__ = [
    "API_KEY_ENV",
    "DEFAULT_MAX_RETRIES",
    "DEFAULT_MAX_TOKENS",
    "DEFAULT_REQUEST_TIMEOUT_SEC",
    "OPENAI_PREFIX",
    "PILOT_MAX_TOKENS",
    "Endpoint",
    "EndpointFailure",
    "RequestSettings",
    "check_base_url",
    "endpoint_for",
    "is_openai_spec",
]
