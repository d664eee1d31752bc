"""Language-model agents over any OpenAI-compatible chat-completions endpoint (vLLM, Ollama,
hosted APIs), with the official `openai` SDK: the endpoint, and one plain tool-calling loop that
both laboratories drive (`si` diagnosis, the call-import importer). See docs/llm-agents.md."""

from provebench.llm._endpoint import (
    API_KEY_ENV,
    OPENAI_PREFIX,
    Endpoint,
    EndpointFailure,
    RequestSettings,
    check_base_url,
    endpoint_for,
    is_openai_spec,
)
from provebench.llm._loop import LoopResult, ToolSpec, Usage, run_tool_loop

__all__ = [
    "API_KEY_ENV",
    "OPENAI_PREFIX",
    "Endpoint",
    "EndpointFailure",
    "LoopResult",
    "RequestSettings",
    "ToolSpec",
    "Usage",
    "check_base_url",
    "endpoint_for",
    "is_openai_spec",
    "run_tool_loop",
]
