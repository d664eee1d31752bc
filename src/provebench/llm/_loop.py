"""The plain tool-calling loop: the model is offered the tools, each tool call it makes is
answered by the laboratory, until it calls the ending tool, answers without a tool call, or
uses up its step budget.

Why a loop of our own and not a framework's agent: the loop is the harness, and the harness
must be small enough to read — every message the model saw is the transcript, and every tool
call went to the laboratory, which recorded it before answering. The model's text is data: it is
recorded and never acted on, except as the arguments of a tool call the laboratory judges.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from provebench._jsonfile import loads_strict
from provebench.llm._endpoint import Endpoint, EndpointFailure

ToolCaller = Callable[[str, dict[str, Any]], str]
"""`call(name, arguments) -> text`: one tool call, answered by the laboratory (errors included,
as the text the model reads)."""

Ending = Literal["end_tool", "no_tool_call", "step_budget"]


@dataclass(frozen=True)
class ToolSpec:
    name: str
    description: str
    parameters: dict[str, Any]

    def as_openai(self) -> dict[str, Any]:
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": self.parameters,
            },
        }


@dataclass
class Usage:
    """Token counts summed over the run's completions, as the endpoint reported them."""

    input: int | None = None
    output: int | None = None
    total: int | None = None

    def add(self, usage: Any) -> None:
        if usage is None:
            return
        for mine, theirs in (
            ("input", "prompt_tokens"),
            ("output", "completion_tokens"),
            ("total", "total_tokens"),
        ):
            value = getattr(usage, theirs, None)
            if isinstance(value, int) and value >= 0:
                setattr(self, mine, (getattr(self, mine) or 0) + value)


@dataclass
class LoopResult:
    ending: Ending
    # The model's last text (its answer when it stopped without the ending tool).
    final_text: str
    # The ending tool's arguments, when the model called it.
    end_arguments: dict[str, Any] | None
    steps: int
    transcript: list[dict[str, Any]] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    completions: int = 0


def run_tool_loop(
    endpoint: Endpoint,
    *,
    system: str,
    user: str,
    tools: Sequence[ToolSpec],
    call: ToolCaller,
    end_tool: str,
    max_steps: int,
) -> LoopResult:
    """Run the model until it ends; `EndpointFailure` when the endpoint fails (the transcript
    so far is on the exception's `result`)."""
    client = endpoint.client()
    offered = [tool.as_openai() for tool in tools]
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": system},
        {"role": "user", "content": user},
    ]
    result = LoopResult("step_budget", "", None, 0, transcript=messages)
    while True:
        message = _complete(client, endpoint, messages, offered, result)
        text = message.content or ""
        calls = list(message.tool_calls or [])
        turn: dict[str, Any] = {"role": "assistant", "content": text}
        if calls:
            turn["tool_calls"] = [
                {
                    "id": c.id,
                    "type": "function",
                    "function": {"name": c.function.name, "arguments": c.function.arguments},
                }
                for c in calls
            ]
        messages.append(turn)
        if text:
            result.final_text = text
        if not calls:
            result.ending = "no_tool_call"
            return result
        for tool_call in calls:
            name = tool_call.function.name
            arguments = _arguments(tool_call.function.arguments)
            if name == end_tool and isinstance(arguments, dict):
                result.ending, result.end_arguments = "end_tool", arguments
                messages.append(_tool_message(tool_call.id, "recorded; the run has ended"))
                return result
            if result.steps >= max_steps:
                result.ending = "step_budget"
                return result
            result.steps += 1
            if isinstance(arguments, dict):
                answer = call(name, arguments)
            else:  # not a call the laboratory can judge: the model is told, nothing is made
                answer = f"Error: the arguments of {name} are not a JSON object: {arguments}"
            messages.append(_tool_message(tool_call.id, answer))


def _complete(
    client: Any,
    endpoint: Endpoint,
    messages: list[dict[str, Any]],
    tools: list[dict[str, Any]],
    result: LoopResult,
) -> Any:
    import openai

    try:
        response = client.chat.completions.create(
            model=endpoint.model,
            messages=messages,
            tools=tools,
            temperature=0,  # the most repeatable the endpoint can be asked to be
        )
    except openai.OpenAIError as error:
        raise EndpointFailure(f"{type(error).__name__}: {error}", result) from None
    result.completions += 1
    result.usage.add(getattr(response, "usage", None))
    choices = getattr(response, "choices", None)
    if not choices:
        raise EndpointFailure("the endpoint answered a completion with no choices", result)
    return choices[0].message


def _arguments(text: str | None) -> dict[str, Any] | str:
    try:
        # The project's JSON policy: NaN, a key given twice or a lone surrogate cannot be
        # recorded as evidence, so such arguments are refused like malformed JSON.
        value = loads_strict(text or "{}")
    except ValueError as error:
        return f"invalid JSON ({error})"
    return value if isinstance(value, dict) else f"a JSON {type(value).__name__}"


def _tool_message(call_id: str, content: str) -> dict[str, Any]:
    return {"role": "tool", "tool_call_id": call_id, "content": content}


__all__ = ["Ending", "LoopResult", "ToolCaller", "ToolSpec", "Usage", "run_tool_loop"]
