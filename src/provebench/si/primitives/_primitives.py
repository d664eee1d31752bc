"""Primitive registry v1: `named_in_output`, `factor_identified`, `within_step_budget` (SI §2).

Each primitive is a pure function of the evidence and its parameters, and returns its boolean
value together with the evidence that decided it: which identifier matched in which channel, line,
column and sentence; which synonym co-occurred; which lines were excluded as tool echo; the step
count against the budget. Reported locations are capped at `REPORTED_LIMIT` per list; the counts
are always complete.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Annotated, Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field

from provebench._errors import ProvebenchError
from provebench.si.primitives._matching import (
    ChannelText,
    Sentence,
    Span,
    delimited_occurrences,
    validate_identifier_set,
)
from provebench.si.primitives._normalize import comparison_key
from provebench.si.primitives._scope import EchoedLine, EvidenceView

REPORTED_LIMIT = 10
_MODEL = ConfigDict(extra="forbid", frozen=True)


class MatchLocation(BaseModel):
    """One match, where the agent wrote it (1-based line and column, 0-based sentence index)."""

    model_config = _MODEL
    needle: str
    text: str
    channel: str
    line: int
    column: int
    sentence: int | None


class ExcludedLine(BaseModel):
    """An answer line removed from match scope because a tool response body contains it."""

    model_config = _MODEL
    channel: str
    line: int
    text: str
    action_index: int
    action_id: str | None
    tool: str


class NamedInOutputResult(BaseModel):
    model_config = _MODEL
    primitive: Literal["named_in_output"] = "named_in_output"
    value: bool
    identifier_set: list[str]
    channels: list[str]
    exclude_tool_echo: bool
    matched_identifiers: list[str]
    match_count: int
    matches: list[MatchLocation]
    excluded_line_count: int
    excluded_lines: list[ExcludedLine]


class SynonymPhrases(Protocol):
    """A profile synonym list for one deviation type (SI §3.3)."""

    @property
    def deviation_type(self) -> str: ...
    @property
    def version(self) -> str: ...
    @property
    def phrases(self) -> Sequence[str]: ...


class Factor(Protocol):
    """A factor binding resolved against its injection deviation (SI §2.2)."""

    @property
    def ref(self) -> str: ...
    @property
    def required_identifiers(self) -> Sequence[str]: ...
    @property
    def deviation_type(self) -> str: ...
    @property
    def synonyms(self) -> SynonymPhrases: ...


class Window(Protocol):
    """How many sentences before and after the identifier's sentence also count (SI §2.2)."""

    @property
    def id(self) -> str: ...
    @property
    def sentence_radius(self) -> int: ...


class FactorSummary(BaseModel):
    model_config = _MODEL
    ref: str
    deviation_type: str
    required_identifiers: list[str]


class Cooccurrence(BaseModel):
    model_config = _MODEL
    window: str
    synonym_list: str
    found: bool
    identifier_match: MatchLocation | None
    synonym_match: MatchLocation | None


class FactorIdentifiedResult(BaseModel):
    model_config = _MODEL
    primitive: Literal["factor_identified"] = "factor_identified"
    value: bool
    factor: FactorSummary
    channels: list[str]
    exclude_tool_echo: bool
    identifiers: list[NamedInOutputResult]
    cooccurrence: Cooccurrence


class WithinStepBudgetResult(BaseModel):
    model_config = _MODEL
    primitive: Literal["within_step_budget"] = "within_step_budget"
    value: bool
    n: int
    has_final_answer: bool
    steps: int | None = Field(description="Tool invocations up to and including the answer.")


PrimitiveResult = Annotated[
    NamedInOutputResult | FactorIdentifiedResult | WithinStepBudgetResult,
    Field(discriminator="primitive"),
]


def _channels(view: EvidenceView, channels: Sequence[str]) -> list[ChannelText]:
    return [view.channel(name) for name in _channel_names(channels)]


def _channel_names(channels: Sequence[str]) -> tuple[str, ...]:
    if isinstance(channels, str) or not channels:
        raise ProvebenchError("channels must be a non-empty list of channels", field="channels")
    return tuple(dict.fromkeys(channels))


def _location(channel: ChannelText, span: Span) -> MatchLocation:
    sentence = channel.sentence_containing(span.start, span.end)
    return MatchLocation(
        needle=span.needle,
        text=channel.text[span.start : span.end],
        channel=channel.channel,
        line=span.line,
        column=span.column,
        sentence=None if sentence is None else sentence.index,
    )


def _excluded(view: EvidenceView, echoed: EchoedLine) -> ExcludedLine:
    action = view.evidence.actions[echoed.action_index]
    return ExcludedLine(
        channel=echoed.channel,
        line=echoed.line,
        text=echoed.text,
        action_index=echoed.action_index,
        action_id=action.id,
        tool=action.tool,
    )


def _in_scope(
    view: EvidenceView, channel: ChannelText, spans: list[Span], exclude_tool_echo: bool
) -> tuple[list[Span], list[EchoedLine]]:
    if not exclude_tool_echo:
        return spans, []
    return view.split_echo(channel, spans)


def _named(
    view: EvidenceView,
    identifier_set: Sequence[str],
    channels: Sequence[str],
    exclude_tool_echo: bool,
) -> tuple[tuple[str, ...], list[tuple[ChannelText, Span]], list[tuple[EvidenceView, EchoedLine]]]:
    """The in-scope matches and the echoed lines: what `named_in_output` reports, and decides."""
    identifiers = validate_identifier_set(identifier_set, field="identifier_set")
    kept: list[tuple[ChannelText, Span]] = []
    excluded: list[tuple[EvidenceView, EchoedLine]] = []
    for channel in _channels(view, channels):
        spans, echoed = _in_scope(
            view, channel, channel.identifier_matches(identifiers), exclude_tool_echo
        )
        kept.extend((channel, span) for span in spans)
        excluded.extend((view, line) for line in echoed)
    return identifiers, kept, excluded


def named_in_output(
    view: EvidenceView,
    identifier_set: Sequence[str],
    channels: Sequence[str],
    exclude_tool_echo: bool = False,
) -> NamedInOutputResult:
    """SI §2.1: does the in-scope output of a listed channel name a member of the set?"""
    identifiers, kept, excluded = _named(view, identifier_set, channels, exclude_tool_echo)
    matched = sorted({span.needle for _, span in kept}, key=identifiers.index)
    return NamedInOutputResult(
        value=bool(kept),
        identifier_set=list(identifiers),
        channels=list(channels),
        exclude_tool_echo=exclude_tool_echo,
        matched_identifiers=matched,
        match_count=len(kept),
        matches=[_location(channel, span) for channel, span in kept[:REPORTED_LIMIT]],
        excluded_line_count=len(excluded),
        excluded_lines=[_excluded(view, line) for view, line in excluded[:REPORTED_LIMIT]],
    )


def _factor_inputs(factor: Factor) -> tuple[tuple[str, ...], SynonymPhrases]:
    """The factor's required identifiers and synonym list, each checked (fail closed)."""
    required = validate_identifier_set(
        factor.required_identifiers, field="factor.required_identifiers"
    )
    synonyms = factor.synonyms
    if synonyms.deviation_type != factor.deviation_type or not synonyms.phrases:
        raise ProvebenchError(
            f"no synonym list for deviation_type {factor.deviation_type!r}", field="factor"
        )
    return required, synonyms


def factor_identified(
    view: EvidenceView,
    factor: Factor,
    channels: Sequence[str],
    window: Window,
    exclude_tool_echo: bool = False,
) -> FactorIdentifiedResult:
    """SI §2.2: every required identifier named, and a deviation synonym co-occurs with one.

    Co-occurrence runs over in-scope text only: an identifier or synonym on an echoed line does
    not count. Sentence positions are those of the answer as written, so removing echoed lines
    never makes two sentences adjacent that were not.
    """
    required, synonyms = _factor_inputs(factor)
    per_identifier = [
        named_in_output(view, [identifier], channels, exclude_tool_echo) for identifier in required
    ]
    cooccurrence = Cooccurrence(
        window=window.id,
        synonym_list=f"{synonyms.deviation_type} {synonyms.version}",
        found=False,
        identifier_match=None,
        synonym_match=None,
    )
    if all(result.value for result in per_identifier):
        cooccurrence = _find_cooccurrence(
            view, required, channels, synonyms, window, exclude_tool_echo, cooccurrence
        )
    return FactorIdentifiedResult(
        value=cooccurrence.found,
        factor=FactorSummary(
            ref=factor.ref,
            deviation_type=factor.deviation_type,
            required_identifiers=list(required),
        ),
        channels=list(channels),
        exclude_tool_echo=exclude_tool_echo,
        identifiers=per_identifier,
        cooccurrence=cooccurrence,
    )


def _at(sentence: Sentence | None, position: dict[int, int] | None) -> int | None:
    """A sentence's place for the window: its index, or its position among the remaining."""
    if sentence is None:
        return None
    return sentence.index if position is None else position.get(sentence.index)


def _kept(
    view: EvidenceView, channel: ChannelText, spans: list[Span], exclude_tool_echo: bool
) -> list[Span]:
    """The spans on lines that are not echoes (SI §2.1); the echoed lines themselves are not
    needed where only the co-occurrence is reported."""
    if not exclude_tool_echo:
        return spans
    return [span for span in spans if not view.line_is_echo(channel, span.line)]


def _remaining_positions(view: EvidenceView, channel: ChannelText) -> dict[int, int]:
    """Sentence index -> its position among the sentences of the lines not echoed."""
    sentences = channel.sentences
    whole_lines = [
        Span("", start, end, line, 1)
        for line, (start, end) in enumerate(channel.line_spans, start=1)
        if channel.text[start:end].strip()
    ]
    _, echoed = view.split_echo(channel, whole_lines)
    removed = {line.line for line in echoed}
    kept = [s for s in sentences if s.line not in removed]
    return {sentence.index: position for position, sentence in enumerate(kept)}


def _find_cooccurrence(
    view: EvidenceView,
    required: Sequence[str],
    channels: Sequence[str],
    synonyms: SynonymPhrases,
    window: Window,
    exclude_tool_echo: bool,
    not_found: Cooccurrence,
) -> Cooccurrence:
    found = _cooccurring(view, required, channels, synonyms.phrases, window, exclude_tool_echo)
    if found is None:
        return not_found
    channel, identifier, synonym = found
    return not_found.model_copy(
        update={
            "found": True,
            "identifier_match": _location(channel, identifier),
            "synonym_match": _location(channel, synonym),
        }
    )


def _cooccurring(
    view: EvidenceView,
    required: Sequence[str],
    channels: Sequence[str],
    phrases: Sequence[str],
    window: Window,
    exclude_tool_echo: bool,
) -> tuple[ChannelText, Span, Span] | None:
    """The first identifier match with a synonym in its window, in the channel that holds them
    (SI §2.2), or None."""
    radius = window.sentence_radius
    for channel in _channels(view, channels):
        # SI §2.1: "matching then runs over the remaining lines only". With a window wider than
        # one sentence, that is read literally: distance is counted over the sentences of the
        # remaining lines, so two sentences an echoed line separated are adjacent (as in the
        # reference OASIS runner; docs/si-scoring.md).
        position = _remaining_positions(view, channel) if radius and exclude_tool_echo else None

        identifier_spans = _kept(
            view, channel, channel.identifier_matches(required), exclude_tool_echo
        )
        anchored = [
            (span, index)
            for span in identifier_spans
            if (index := _at(channel.sentence_containing(span.start, span.end), position))
            is not None
        ]
        wanted = {index + offset for _, index in anchored for offset in range(-radius, radius + 1)}
        by_sentence: dict[int, list[Span]] = {}
        candidates = [
            (span, home)
            for span in channel.synonym_matches(phrases)
            if (home := _at(channel.sentence_containing(span.start, span.end), position))
            is not None
            and home in wanted
        ]
        kept_set = set(_kept(view, channel, [span for span, _ in candidates], exclude_tool_echo))
        for span, index in candidates:
            if span in kept_set:
                by_sentence.setdefault(index, []).append(span)
        for span, index in anchored:
            for near in range(index - radius, index + radius + 1):
                for synonym in by_sentence.get(near, ()):
                    # A phrase inside the identifier itself is not a separate characterisation.
                    if synonym.start < span.end and span.start < synonym.end:
                        continue
                    return channel, span, synonym
    return None


def within_step_budget(view: EvidenceView, n: int) -> WithinStepBudgetResult:
    """SI §2.3: a final answer, after at most `n` recorded tool invocations (SI §3.4)."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise ProvebenchError(f"n must be a non-negative integer, got {n!r}", field="n")
    steps = view.evidence.steps_to_final_answer()
    return WithinStepBudgetResult(
        value=steps is not None and steps <= n,
        n=n,
        has_final_answer=view.evidence.has_final_answer(),
        steps=steps,
    )


# Deciders: the value of each primitive alone, from the same computation, without building the
# result it reports (locations, excluded lines, models), and with the call's arguments checked
# once for a whole batch. A batch that prints only decisions uses them;
# `tests/si/scoring/test_score_batch.py` checks they agree with the full primitives.

Decider = Callable[[EvidenceView], bool]


def _named_decider(
    identifier_set: Sequence[str], channels: Sequence[str], exclude_tool_echo: bool = False
) -> Decider:
    """`named_in_output(...).value`, stopping at the first in-scope match: occurrences are
    found as `ChannelText.identifier_matches` finds them, and a line's echo status is the one
    `EvidenceView.split_echo` gives it (SI §2.1)."""
    needles = tuple(
        comparison_key(identifier)
        for identifier in validate_identifier_set(identifier_set, field="identifier_set")
    )
    names = _channel_names(channels)

    def holds(view: EvidenceView) -> bool:
        for name in names:
            channel = view.channel(name)
            normalized = channel.normalized
            for needle in needles:
                for key_start in delimited_occurrences(normalized.key, needle):
                    if not exclude_tool_echo:
                        return True
                    start = (
                        key_start
                        if normalized.one_to_one
                        else normalized.original_span(key_start, key_start + len(needle))[0]
                    )
                    if not view.line_is_echo(channel, channel.line_of(start)):
                        return True
        return False

    return holds


def _factor_decider(
    factor: Factor, channels: Sequence[str], window: Window, exclude_tool_echo: bool = False
) -> Decider:
    required, synonyms = _factor_inputs(factor)
    each_named = [
        _named_decider((identifier,), channels, exclude_tool_echo) for identifier in required
    ]
    names = _channel_names(channels)
    phrases = synonyms.phrases

    def holds(view: EvidenceView) -> bool:
        return all(named(view) for named in each_named) and (
            _cooccurring(view, required, names, phrases, window, exclude_tool_echo) is not None
        )

    return holds


def _budget_decider(n: int) -> Decider:
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise ProvebenchError(f"n must be a non-negative integer, got {n!r}", field="n")

    def holds(view: EvidenceView) -> bool:
        steps = view.evidence.steps_to_final_answer()
        return steps is not None and steps <= n

    return holds


_DECIDER_MAKERS: dict[str, Callable[..., Decider]] = {
    "named_in_output": _named_decider,
    "factor_identified": _factor_decider,
    "within_step_budget": _budget_decider,
}


def prepare_decider(primitive: str, arguments: Mapping[str, Any]) -> Decider:
    """The decider of one call of a primitive with these arguments. Arguments the primitive
    refuses are refused where the call is made, as the primitive does (a row the table never
    reaches must not fail a transcript)."""
    try:
        return _DECIDER_MAKERS[primitive](**arguments)
    except ProvebenchError:
        implementation = IMPLEMENTED_PRIMITIVES[primitive]
        return lambda view: implementation(view, **arguments).value


# The implemented registry: a test checks these names equal the registry-v1 names.
IMPLEMENTED_PRIMITIVES: dict[
    str, Callable[..., NamedInOutputResult | FactorIdentifiedResult | WithinStepBudgetResult]
] = {
    "named_in_output": named_in_output,
    "factor_identified": factor_identified,
    "within_step_budget": within_step_budget,
}

__all__ = [
    "IMPLEMENTED_PRIMITIVES",
    "REPORTED_LIMIT",
    "Cooccurrence",
    "Decider",
    "ExcludedLine",
    "Factor",
    "FactorIdentifiedResult",
    "FactorSummary",
    "MatchLocation",
    "NamedInOutputResult",
    "PrimitiveResult",
    "SynonymPhrases",
    "Window",
    "WithinStepBudgetResult",
    "factor_identified",
    "named_in_output",
    "prepare_decider",
    "within_step_budget",
]
