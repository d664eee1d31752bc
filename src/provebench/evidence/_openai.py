"""Importing an OpenAI chat-completions transcript as evidence.

The rules (each one is documented in docs/evidence.md, with the reason):
- The transcript is a JSON array of messages, or an object with `messages` (plus optional `usage`
  and `model`). An empty message list is an error: it records no run at all, and reading it as
  "the agent did nothing" would let every containment check pass on a missing transcript.
- `system`, `developer` and `user` messages are inputs to the agent, not its output: they feed no
  channel. Legacy `function` messages and `function_call` are refused (no call ids to pair on).
- Each entry of an assistant message's `tool_calls` is one action (one step, SI §3.4), in order.
  `function.arguments` is a JSON string parsed to an object (`""` means no arguments).
- A `tool` message answers the pending call named by its `tool_call_id`; its content is the result,
  verbatim. A call no tool message answers gets `result: ""` and an `error`.
- The final answer (the `agent_response` channel) is the text of the last assistant message that
  has no tool calls and whose text is not blank. `final_answer_after_step` is the number of
  actions invoked before it, so later tool calls fall outside the step count (SI §2.3).
- Every other assistant text — `reasoning_content` / `reasoning`, narration next to tool calls,
  and earlier answers the last one replaced — goes to the reasoning trace, in message order, joined
  by newlines. Nothing the agent wrote is dropped, and none of it is credited as the answer
  (SI §2.5: diagnosis reads `agent_response` only).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from pydantic import JsonValue, ValidationError

from provebench._errors import ProvebenchError
from provebench.evidence._json_input import (
    json_type_name,
    member_path,
    parse_json_text,
    read_json_file,
    validation_problem,
)
from provebench.evidence._models import Evidence

NO_RESPONSE_ERROR: Final = "no tool response was recorded for this call"
_INPUT_ROLES: Final = frozenset({"system", "developer", "user"})
_TEXT_PART_TYPES: Final = frozenset({"text", "output_text"})
_CONSUMED_TOP_LEVEL: Final = frozenset({"messages", "usage", "model"})
_TOKEN_FIELDS: Final = (
    ("input", ("prompt_tokens", "input_tokens")),
    ("output", ("completion_tokens", "output_tokens")),
    ("total", ("total_tokens",)),
)


@dataclass
class _Segment:
    """A piece of assistant text, in transcript order."""

    text: str
    answer_candidate: bool
    actions_before: int


@dataclass
class _Transcript:
    source: str
    actions: list[dict[str, Any]] = field(default_factory=list)
    pending: dict[str, int] = field(default_factory=dict)  # call id → index in actions
    answered: set[str] = field(default_factory=set)
    segments: list[_Segment] = field(default_factory=list)
    usage_blocks: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    model: str | None = None

    def fail(self, where: str, message: str) -> ProvebenchError:
        return ProvebenchError(message, path=self.source, field=where)


def import_openai(path: str | Path) -> Evidence:
    """Evidence from an OpenAI chat-completions transcript file."""
    return evidence_from_openai(read_json_file(path), source=str(path))


def evidence_from_openai(document: Any, *, source: str) -> Evidence:
    """Evidence from a parsed OpenAI chat-completions transcript; `source` names it in errors."""
    transcript = _Transcript(source=source)
    top: dict[str, Any] = {}
    if isinstance(document, list):
        messages: Any = document
        prefix = ""
    elif isinstance(document, dict) and "messages" in document:
        top, messages, prefix = document, document["messages"], "messages"
        if not isinstance(messages, list):
            raise transcript.fail("messages", f"expected an array, got {json_type_name(messages)}")
    else:
        raise ProvebenchError(
            "expected an OpenAI chat transcript: a JSON array of messages or an object with "
            f"`messages`, got {_describe_document(document)}",
            path=source,
        )
    if not messages:
        raise transcript.fail(prefix or "(document)", "the transcript has no messages")
    for index, message in enumerate(messages):
        _read_message(transcript, message, member_path(prefix, index))
    for call_id, action_index in transcript.pending.items():
        if call_id not in transcript.answered:
            transcript.actions[action_index]["error"] = NO_RESPONSE_ERROR
    if "usage" in top and top["usage"] is not None:
        transcript.usage_blocks = [("usage", top["usage"])]
    if "model" in top and top["model"] is not None:
        transcript.model = _string(transcript, top["model"], "model")
    return _evidence(transcript, top)


def _read_message(transcript: _Transcript, message: Any, where: str) -> None:
    if not isinstance(message, dict):
        raise transcript.fail(where, f"expected a message object, got {json_type_name(message)}")
    role = message.get("role")
    if role in _INPUT_ROLES:
        return
    if role == "assistant":
        _read_assistant(transcript, message, where)
    elif role == "tool":
        _read_tool_response(transcript, message, where)
    elif role == "function":
        raise transcript.fail(
            member_path(where, "role"),
            "legacy `function` messages are not supported; use `tool_calls` and `tool` messages",
        )
    elif "role" not in message:
        raise transcript.fail(member_path(where, "role"), "required field is missing")
    else:
        raise transcript.fail(
            member_path(where, "role"),
            f"unknown role {_shown(role)}; expected system, developer, user, assistant or tool",
        )


def _read_assistant(transcript: _Transcript, message: dict[str, Any], where: str) -> None:
    if message.get("function_call") is not None:
        raise transcript.fail(
            member_path(where, "function_call"),
            "legacy `function_call` is not supported; use `tool_calls`",
        )
    reasoning: list[str] = []
    for key in ("reasoning_content", "reasoning"):
        value = message.get(key)
        if value is not None:
            text = _string(transcript, value, member_path(where, key))
            if text and text not in reasoning:
                reasoning.append(text)
    actions_before = len(transcript.actions)
    transcript.segments.extend(_Segment(text, False, actions_before) for text in reasoning)
    text = _assistant_text(transcript, message, where)
    tool_calls = message.get("tool_calls")
    if tool_calls is None:
        tool_calls = []
    if not isinstance(tool_calls, list):
        raise transcript.fail(
            member_path(where, "tool_calls"), f"expected an array, got {json_type_name(tool_calls)}"
        )
    if text.strip():
        transcript.segments.append(_Segment(text, not tool_calls, actions_before))
    for call_index, call in enumerate(tool_calls):
        _read_tool_call(transcript, call, member_path(member_path(where, "tool_calls"), call_index))
    if message.get("usage") is not None:
        transcript.usage_blocks.append((member_path(where, "usage"), message["usage"]))
    if message.get("model") is not None:
        transcript.model = _string(transcript, message["model"], member_path(where, "model"))


def _assistant_text(transcript: _Transcript, message: dict[str, Any], where: str) -> str:
    """Content text, then the refusal, joined by a newline (a refusal is what the agent said)."""
    pieces: list[str] = []
    content = message.get("content")
    content_where = member_path(where, "content")
    if isinstance(content, list):
        for part_index, part in enumerate(content):
            pieces.append(_part_text(transcript, part, member_path(content_where, part_index)))
    elif content is not None:
        pieces.append(_string(transcript, content, content_where))
    refusal = message.get("refusal")
    if refusal is not None:
        pieces.append(_string(transcript, refusal, member_path(where, "refusal")))
    return "\n".join(piece for piece in pieces if piece)


def _part_text(transcript: _Transcript, part: Any, where: str) -> str:
    if not isinstance(part, dict):
        raise transcript.fail(where, f"expected a content part object, got {json_type_name(part)}")
    part_type = part.get("type")
    if part_type in _TEXT_PART_TYPES:
        return _string(transcript, part.get("text"), member_path(where, "text"))
    if part_type == "refusal":
        return _string(transcript, part.get("refusal"), member_path(where, "refusal"))
    raise transcript.fail(
        member_path(where, "type"),
        f"content part type {_shown(part_type)} is not text; only text and refusal parts "
        "can be recorded as agent output",
    )


def _read_tool_call(transcript: _Transcript, call: Any, where: str) -> None:
    if not isinstance(call, dict):
        raise transcript.fail(where, f"expected a tool call object, got {json_type_name(call)}")
    call_type = call.get("type", "function")
    if call_type != "function":
        raise transcript.fail(
            member_path(where, "type"), f"tool call type {_shown(call_type)} is not supported"
        )
    call_id = _string(transcript, call.get("id"), member_path(where, "id"))
    if not call_id:
        raise transcript.fail(member_path(where, "id"), "a tool call needs a non-empty id")
    if call_id in transcript.pending:
        raise transcript.fail(member_path(where, "id"), f"tool call id {call_id!r} is used twice")
    function_where = member_path(where, "function")
    function = call.get("function")
    if not isinstance(function, dict):
        raise transcript.fail(function_where, f"expected an object, got {json_type_name(function)}")
    name = _string(transcript, function.get("name"), member_path(function_where, "name"))
    arguments = _arguments(transcript, function.get("arguments"), function_where)
    transcript.pending[call_id] = len(transcript.actions)
    transcript.actions.append(
        {"id": call_id, "tool": name, "arguments": arguments, "result": "", "error": None}
    )


def _arguments(transcript: _Transcript, raw: Any, function_where: str) -> Any:
    where = member_path(function_where, "arguments")
    if isinstance(raw, dict):
        return raw  # already an object: some exporters decode it for us
    text = _string(transcript, raw, where)
    if not text.strip():
        return {}  # a call without parameters
    parsed = parse_json_text(text, source=transcript.source, field=where)
    if not isinstance(parsed, dict):
        raise transcript.fail(
            where, f"must encode a JSON object, but encodes {json_type_name(parsed)}"
        )
    return parsed


def _read_tool_response(transcript: _Transcript, message: dict[str, Any], where: str) -> None:
    id_where = member_path(where, "tool_call_id")
    call_id = _string(transcript, message.get("tool_call_id"), id_where)
    if call_id not in transcript.pending:
        raise transcript.fail(id_where, f"answers {call_id!r}, which no earlier tool call made")
    if call_id in transcript.answered:
        raise transcript.fail(id_where, f"answers {call_id!r} a second time")
    transcript.answered.add(call_id)
    content = message.get("content")
    content_where = member_path(where, "content")
    if content is None:
        body = ""  # no body recorded: the "absent" case of the three-way distinction
    elif isinstance(content, list):
        # One body sent in parts: concatenated as sent, so the body stays byte for byte.
        body = "".join(
            _tool_part_text(transcript, part, member_path(content_where, part_index))
            for part_index, part in enumerate(content)
        )
    else:
        body = _string(transcript, content, content_where)
    transcript.actions[transcript.pending[call_id]]["result"] = body


def _tool_part_text(transcript: _Transcript, part: Any, where: str) -> str:
    if not isinstance(part, dict) or part.get("type") not in _TEXT_PART_TYPES:
        raise transcript.fail(where, "a tool response part must be a text part")
    return _string(transcript, part.get("text"), member_path(where, "text"))


def _tokens(transcript: _Transcript) -> dict[str, int | None]:
    """Token counts summed over the usage blocks; a count any block lacks is unknown (None)."""
    if not transcript.usage_blocks:
        return {}
    tokens: dict[str, int | None] = {}
    for name, aliases in _TOKEN_FIELDS:
        total: int | None = 0
        for where, block in transcript.usage_blocks:
            if not isinstance(block, dict):
                raise transcript.fail(where, f"expected an object, got {json_type_name(block)}")
            count = _count(transcript, block, aliases, where)
            total = None if count is None or total is None else total + count
        tokens[name] = total
    if tokens["total"] is None and tokens["input"] is not None and tokens["output"] is not None:
        tokens["total"] = tokens["input"] + tokens["output"]
    return tokens


def _count(
    transcript: _Transcript, block: dict[str, Any], aliases: tuple[str, ...], where: str
) -> int | None:
    for alias in aliases:
        value = block.get(alias)
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise transcript.fail(member_path(where, alias), "expected a non-negative integer")
        return value
    return None


def _evidence(transcript: _Transcript, top: dict[str, Any]) -> Evidence:
    candidates = [segment for segment in transcript.segments if segment.answer_candidate]
    final = candidates[-1] if candidates else None
    reasoning = "\n".join(segment.text for segment in transcript.segments if segment is not final)
    extra_fields: dict[str, JsonValue] = {
        member_path("", key): value for key, value in top.items() if key not in _CONSUMED_TOP_LEVEL
    }
    candidate = {
        "final_answer": final.text if final else "",
        "reasoning_trace": reasoning,
        "actions": transcript.actions,
        "final_answer_after_step": final.actions_before if final else None,
        "metadata": {
            "source_format": "openai",
            "model": transcript.model,
            "tokens": _tokens(transcript),
            "source_extra_fields": extra_fields,
        },
    }
    try:
        return Evidence.model_validate(candidate)
    except ValidationError as error:  # only reachable through a malformed value we passed along
        raise validation_problem(error, source=transcript.source) from None


def _string(transcript: _Transcript, value: Any, where: str) -> str:
    if isinstance(value, str):
        return value
    if value is None:
        raise transcript.fail(where, "expected a string, but it is missing or null")
    raise transcript.fail(where, f"expected a string, got {json_type_name(value)}")


def _describe_document(document: Any) -> str:
    if isinstance(document, dict):
        return "an object without `messages`"
    return json_type_name(document)


def _shown(value: Any) -> str:
    text = repr(value) if isinstance(value, str) else json_type_name(value)
    return text if len(text) <= 60 else text[:57] + "..."


__all__ = ["NO_RESPONSE_ERROR", "evidence_from_openai", "import_openai"]
