"""The plain tool-calling loop: the model is offered the tools, each tool call it makes is
answered by the laboratory, until it calls the ending tool, answers without a tool call, uses up
its step budget or its time.

Why a loop of our own and not a framework's agent: the loop is the harness, and the harness
must be small enough to read — every message the model saw is the transcript, and every tool
call went to the laboratory, which recorded it before answering. The model's text is data: it is
recorded and never acted on, except as the arguments of a tool call the laboratory judges.

Every tool invocation the model makes is a step (SI §2.3, §3.4): a call whose arguments are not
a JSON object goes to `refuse`, which records it with its error, and it counts against the
budget like any other; a call to a tool nobody offered goes to the laboratory, which records it
as an unknown tool. Once the budget is spent the model is not asked again: what it would say
next would not be an answer within the budget.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from provebench._jsonfile import loads_strict, recordable_text
from provebench.llm._connections import ConnectionLog
from provebench.llm._endpoint import Endpoint, EndpointFailure

ToolCaller = Callable[[str, dict[str, Any]], str]
"""`call(name, arguments) -> text`: one tool call, answered by the laboratory (errors included,
as the text the model reads)."""

Refuser = Callable[[str, str, str], str]
"""`refuse(name, raw_arguments, problem) -> text`: one tool call whose arguments are not a JSON
object, recorded by the laboratory as a failed step; the text is the error the model reads."""

Ending = Literal["end_tool", "no_tool_call", "step_budget", "truncated", "timeout"]
"""How the loop ended: the ending tool; a text answer; the step budget spent; a text answer the
endpoint cut at `max_tokens` (finish_reason `length`); the run's time limit."""

LENGTH = "length"


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
    # Each completion's finish_reason as the endpoint gave it ("" when it gave none), in order.
    finish_reasons: list[str] = field(default_factory=list)
    # Every TCP connection the client tried, where it went and how it was judged (`_pinned`).
    connections: ConnectionLog = field(default_factory=ConnectionLog)

    @property
    def truncated_turns(self) -> int:
        """How many of the model's turns the endpoint cut at `max_tokens`."""
        return self.finish_reasons.count(LENGTH)


def run_tool_loop(
    endpoint: Endpoint,
    *,
    system: str,
    user: str,
    tools: Sequence[ToolSpec],
    call: ToolCaller,
    end_tool: str,
    max_steps: int,
    refuse: Refuser | None = None,
    deadline: float | None = None,
    check_end: Callable[[dict[str, Any]], str | None] | None = None,
) -> LoopResult:
    """Run the model until it ends; `EndpointFailure` when the endpoint fails (the transcript
    so far is on the exception's `result`). `deadline` is a `time.monotonic()` instant past
    which no request is made or waited for (the run's time limit: ending `timeout`).
    `check_end` says why the end tool's arguments are refused (None: accepted); a refused end
    is a tool error the model reads, counted against `max_steps` but never sent to `call`, and
    the run goes on."""
    offered = [tool.as_openai() for tool in tools]
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": system},
        {"role": "user", "content": user},
    ]
    result = LoopResult("step_budget", "", None, 0, transcript=messages)
    client = endpoint.client(result.connections)
    refuse = refuse or _refused_text
    while True:
        message = _complete(client, endpoint, messages, offered, result, deadline)
        if message is None:
            result.ending = "timeout"
            return result
        text = _text(getattr(message, "content", None))
        calls = list(getattr(message, "tool_calls", None) or [])
        turn: dict[str, Any] = {"role": "assistant", "content": text}
        if calls:
            turn["tool_calls"] = [_call_record(c) for c in calls]
        messages.append(turn)
        if text:
            result.final_text = text
        if not calls:
            result.ending = "truncated" if result.finish_reasons[-1] == LENGTH else "no_tool_call"
            return result
        for record in turn["tool_calls"]:
            name = record["function"]["name"]
            raw = record["function"]["arguments"]
            arguments = _arguments(raw)
            refused = (
                check_end(arguments)
                if name == end_tool and isinstance(arguments, dict) and check_end is not None
                else None
            )
            if refused is not None:
                # Counted against the budget, so that a model cannot retry without end.
                if result.steps >= max_steps:
                    result.ending = "step_budget"
                    return result
                result.steps += 1
                messages.append(_tool_message(record["id"], f"Error: {refused}"))
                continue
            if name == end_tool and isinstance(arguments, dict):
                result.ending, result.end_arguments = "end_tool", arguments
                messages.append(_tool_message(record["id"], "recorded; the run has ended"))
                return result
            if result.steps >= max_steps:
                result.ending = "step_budget"
                return result
            result.steps += 1
            if isinstance(arguments, dict):
                answer = call(name, arguments)
            else:  # still a step: recorded with its error, and the model is told
                answer = refuse(name, raw, arguments)
            messages.append(_tool_message(record["id"], answer))
        if result.steps >= max_steps:
            # The budget is spent: an answer the model gave now would come after it.
            result.ending = "step_budget"
            return result


def _complete(
    client: Any,
    endpoint: Endpoint,
    messages: list[dict[str, Any]],
    tools: list[dict[str, Any]],
    result: LoopResult,
    deadline: float | None,
) -> Any:
    """The next assistant message; None when the run's time is up."""
    import openai

    timeout = endpoint.request_timeout_sec
    if deadline is not None:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return None
        # Each attempt (the first and every retry) shares what is left of the run's time.
        timeout = min(timeout, remaining / (endpoint.max_retries + 1))
    try:
        response = client.chat.completions.create(
            model=endpoint.model,
            messages=messages,
            tools=tools,
            # Explicit: llama-cpp-python reads a missing tool_choice as "none" and leaves the
            # tools out of the prompt; "auto" is every server's way to let the model choose.
            tool_choice="auto",
            max_tokens=endpoint.max_tokens,
            temperature=0,  # the most repeatable the endpoint can be asked to be
            timeout=timeout,
        )
    except openai.APITimeoutError as error:
        if deadline is not None and time.monotonic() >= deadline:
            return None
        raise EndpointFailure(_failure_text(error), result) from None
    except openai.OpenAIError as error:
        raise EndpointFailure(_failure_text(error), result) from None
    except ValueError as error:  # a body that is not JSON (the SDK's json.loads)
        raise EndpointFailure(f"the endpoint's answer is not JSON: {error}", result) from None
    if isinstance(response, str):  # a body the SDK could not read as a completion
        raise EndpointFailure(
            f"the endpoint's answer is not a chat completion: {response[:200]!r}", result
        )
    result.completions += 1
    result.usage.add(getattr(response, "usage", None))
    choices = getattr(response, "choices", None)
    if not choices:
        raise EndpointFailure("the endpoint answered a completion with no choices", result)
    choice = choices[0]
    reason = getattr(choice, "finish_reason", None)
    result.finish_reasons.append(reason if isinstance(reason, str) else "")
    message = getattr(choice, "message", None)
    if message is None:
        raise EndpointFailure("the endpoint answered a choice with no message", result)
    return message


def _failure_text(error: Exception) -> str:
    """The SDK's error with the server's own message, which says what the server wanted (a
    model name it does not serve, a context too long, tools it cannot take)."""
    import openai

    text = f"{type(error).__name__}: {error}"
    if isinstance(error, openai.APIStatusError):
        body = error.body
        detail = body.get("message") if isinstance(body, dict) else None
        if body is None or isinstance(body, str):  # not JSON: the server's own words
            detail = error.response.text.strip()[:_SHOWN_CHARS]
        if isinstance(detail, str) and detail and detail not in text:
            text = f"{text} ({detail})"
    return recordable_text(text)


def _text(content: Any) -> str:
    return content if isinstance(content, str) else ""


def _call_record(tool_call: Any) -> dict[str, Any]:
    """One tool call as the transcript keeps it (and as it is sent back): a call with no
    function name or no arguments text is kept with `""`, and judged as such."""
    function = getattr(tool_call, "function", None)
    name = getattr(function, "name", None)
    arguments = getattr(function, "arguments", None)
    if arguments is not None and not isinstance(arguments, str):
        # The protocol's arguments are JSON text; a server that sends the value itself has it
        # judged as that text (an object is read, anything else refused).
        arguments = json.dumps(arguments, ensure_ascii=False)
    call_id = getattr(tool_call, "id", None)
    return {
        "id": call_id if isinstance(call_id, str) else "",
        "type": "function",
        "function": {"name": name if isinstance(name, str) else "", "arguments": arguments or ""},
    }


def _arguments(text: str) -> dict[str, Any] | str:
    """The arguments as an object, or why they are not one."""
    try:
        # The project's JSON policy: NaN, a key given twice or a lone surrogate cannot be
        # recorded as evidence, so such arguments are refused like malformed JSON.
        value = loads_strict(text or "{}")
    except ValueError as error:
        return f"invalid JSON ({error})"
    if isinstance(value, dict):
        return value
    return f"a JSON {_JSON_TYPES.get(type(value), 'value')}, not an object"


_JSON_TYPES = {list: "array", str: "string", int: "number", float: "number", bool: "boolean"}
_JSON_TYPES[type(None)] = "null"
_SHOWN_CHARS = 300


def _refused_text(name: str, raw: str, problem: str) -> str:
    return f"Error: the arguments of {name} are not a JSON object: {problem}"


def _tool_message(call_id: str, content: str) -> dict[str, Any]:
    return {"role": "tool", "tool_call_id": call_id, "content": content}


__all__ = [
    "Ending",
    "LoopResult",
    "Refuser",
    "ToolCaller",
    "ToolSpec",
    "Usage",
    "run_tool_loop",
]
