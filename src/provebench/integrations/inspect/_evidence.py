"""An Inspect AI log (`.eval` or `.json`, read with `inspect_ai.log.read_eval_log`) as provebench
evidence: one artifact per sample and epoch.

The mapping (docs/inspect.md, with the reasons):
- Each tool call of an assistant message is one action, in order, answered by the tool message
  that names its id; the result is that message's text, verbatim; an Inspect tool error is the
  action's error. A call no tool message answers has an empty result and an error.
- A call of the submit tool (`submit_answer`, provebench's, or `submit`, react's default) is the
  final answer, not an action: its `final_answer` (or `answer`) is the `agent_response` channel,
  and `final_answer_after_step` is the number of actions before it. Without one, the sample's
  output completion is the final answer, after every action. This is the step that a conversion
  to OpenAI messages loses (the submit call is not a chat answer), turning a correct run into
  "no final answer".
- Assistant text is the reasoning trace, with the submission's own `reasoning_trace`.
- Token counts are the sample's model usage, summed over models; the model is the log's.
- When the sample's store holds the evidence provebench's own Inspect solver recorded (tasks
  `si_suite`), the audit log and state snapshots of the simulated estate are taken from it — but
  only when its actions are the messages' actions, call for call (tool, arguments, result); a
  log whose two accounts disagree is refused.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

from provebench._errors import ProvebenchError
from provebench.evidence import Evidence, NonScoringMetadata, TokenUsage, ToolAction

SUBMIT_TOOLS: Final = ("submit_answer", "submit")
EVIDENCE_KEY: Final = "provebench_evidence"
NO_RESPONSE_ERROR: Final = "no tool response was recorded for this call"


def read_inspect_log(path: Path) -> Iterator[tuple[str, Evidence]]:
    """(a file name for it, the evidence) for every sample of the log."""
    try:
        from inspect_ai.log import read_eval_log
    except ImportError:
        raise ProvebenchError(
            "needs the inspect_ai package: pip install 'provebench[inspect]'", field="--format"
        ) from None
    try:
        log = read_eval_log(str(path))
    except Exception as error:  # the library's errors are many; each is one line here
        raise ProvebenchError(
            f"not a readable Inspect log: {type(error).__name__}: {error}", path=path
        ) from None
    if not log.samples:
        raise ProvebenchError("the log holds no samples", path=path, field="samples")
    model = log.eval.model
    names: set[str] = set()
    for sample in log.samples:
        name = _file_name(str(sample.id), sample.epoch, names)
        yield name, sample_evidence(sample, model, path)


def assistant_text(message: Any) -> list[str]:
    """Everything an assistant message says besides its tool calls: every string of every
    content part, in order — text and its citations, reasoning blocks (a redacted one's too: a
    provider that does not encrypt it leaves it plain), a provider-side tool use's query and
    result, data parts (SI red team 20, S4a/S4c; 23, H3: a reasoning block, a message's text
    beside a tool call, a web search's query and a citation were never searched). A part's
    `type` and `signature` are the provider's, and an inline `data:` payload (an image) is no
    text. Read by shape, as the rest of this reader."""
    if getattr(message, "role", None) != "assistant":
        return []
    content = message.content
    if isinstance(content, str):
        return [content] if content else []
    said: list[str] = []
    for part in content:
        dump = getattr(part, "model_dump", None)
        value = dump(mode="json") if callable(dump) else getattr(part, "__dict__", {})
        said += [text for text in _part_strings(value) if text]
    return said


def _part_strings(value: Any, key: str = "") -> list[str]:
    if key in ("type", "signature"):
        return []
    if isinstance(value, str):
        return [] if value.startswith("data:") else [value]
    if isinstance(value, dict):
        return [s for k, item in value.items() for s in _part_strings(item, str(k))]
    if isinstance(value, list):
        return [s for item in value for s in _part_strings(item)]
    return []


def sample_evidence(sample: Any, model: str | None, path: Path) -> Evidence:
    where = f"sample {sample.id} epoch {sample.epoch}"
    calls: list[Any] = []
    answers: dict[str, Any] = {}
    texts: list[str] = []
    for message in sample.messages:
        if message.role == "tool" and message.tool_call_id:
            answers[message.tool_call_id] = message
        if message.role == "assistant":
            texts += assistant_text(message)  # its text and reasoning blocks, as the live run
            calls += list(message.tool_calls or [])
    actions: list[ToolAction] = []
    final_answer: str | None = None
    after_step: int | None = None
    given_trace = ""
    for call in calls:
        reply = answers.get(call.id)
        error = None if reply is None else getattr(reply, "error", None)
        refused = error is not None
        if call.function in SUBMIT_TOOLS and final_answer is None and not refused:
            arguments = call.arguments or {}
            answer = arguments.get("final_answer", arguments.get("answer"))
            final_answer = answer if isinstance(answer, str) else ""
            trace = arguments.get("reasoning_trace")
            given_trace = trace if isinstance(trace, str) else ""
            after_step = len(actions)
            continue
        # A call after the submission is outside the run's answer (SI §2.3:
        # `final_answer_after_step` says where it stood) but it ran, so it is an action: what it
        # carried is searched and what it did is judged, as the live run records it (SI red
        # team 20, S4b). A refused submission is a call like any other.
        actions.append(
            ToolAction(
                id=call.id,
                tool=call.function,
                arguments=dict(call.arguments or {}),
                result="" if reply is None else reply.text,
                error=NO_RESPONSE_ERROR
                if reply is None
                else (None if error is None else str(error.message)),
            )
        )
    if final_answer is None:
        final_answer = sample.output.completion if sample.output is not None else ""
        after_step = None
    trace = "\n\n".join(t for t in [*texts, given_trace] if t)
    recorded = _recorded(sample, actions, where, path)
    return Evidence(
        scenario_id=_scenario_id(sample),
        final_answer=final_answer or "",
        reasoning_trace=trace,
        actions=actions if recorded is None else recorded.actions,
        final_answer_after_step=after_step if final_answer else None,
        audit_log=[] if recorded is None else recorded.audit_log,
        state_snapshots=[] if recorded is None else recorded.state_snapshots,
        metadata=NonScoringMetadata(
            model=model,
            source_format="inspect",
            tokens=_tokens(sample),
        ),
    )


def _recorded(sample: Any, actions: list[ToolAction], where: str, path: Path) -> Evidence | None:
    data = (sample.store or {}).get(EVIDENCE_KEY)
    if data is None:
        return None
    try:
        recorded = Evidence.model_validate(data)
    except ValueError:
        raise ProvebenchError(
            f"{where}: the store's {EVIDENCE_KEY} is not provebench evidence", path=path
        ) from None
    # A call Inspect refused never ran: the live run recorded the simulator's own refusal of
    # it, so its answer is not the tool message's; the call itself (tool, arguments) must agree.
    # A submission after the answer ran as the submit tool, recorded as the simulator's
    # unknown-tool step: its call agrees, not its answer.
    ours = [(a.tool, a.arguments, None if _unanswered(a) else a.result) for a in actions]
    theirs = [
        (b.tool, b.arguments, None if _unanswered(a) else b.result)
        for a, b in zip(actions, recorded.actions, strict=False)
    ] + [(b.tool, b.arguments, b.result) for b in recorded.actions[len(actions) :]]
    if ours != theirs:
        at = next(
            (i for i, (a, b) in enumerate(zip(ours, theirs, strict=False)) if a != b),
            min(len(ours), len(theirs)),
        )
        raise ProvebenchError(
            f"{where}: the messages and the recorded evidence disagree at action {at + 1}",
            path=path,
        )
    return recorded


def _unanswered(action: ToolAction) -> bool:
    """Whether the live run recorded this call's answer otherwise than the log shows it: a call
    Inspect refused, or a submission after the answer."""
    return bool(action.error) or action.tool in SUBMIT_TOOLS


def _scenario_id(sample: Any) -> str:
    metadata = sample.metadata or {}
    value = metadata.get("scenario_id")
    return value if isinstance(value, str) and value else str(sample.id)


def _tokens(sample: Any) -> TokenUsage:
    usage = list((sample.model_usage or {}).values())
    if not usage:
        return TokenUsage()

    def total(field: str) -> int | None:
        values = [getattr(u, field, None) for u in usage]
        numbers = [v for v in values if isinstance(v, int)]
        return sum(numbers) if numbers else None

    return TokenUsage(
        input=total("input_tokens"), output=total("output_tokens"), total=total("total_tokens")
    )


_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def _file_name(sample_id: str, epoch: int, taken: set[str]) -> str:
    """A file name of the sample's id (only safe characters), unique within the log."""
    stem = _UNSAFE.sub("_", sample_id).strip("._") or "sample"
    name = f"{stem}.epoch-{epoch}.evidence.json"
    number = 2
    while name in taken:
        name = f"{stem}-{number}.epoch-{epoch}.evidence.json"
        number += 1
    taken.add(name)
    return name


__all__ = ["EVIDENCE_KEY", "SUBMIT_TOOLS", "assistant_text", "read_inspect_log", "sample_evidence"]
