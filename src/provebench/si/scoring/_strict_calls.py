"""Strict primitives a provebench template calls itself (registry extension, docs/si-scoring.md).

The ratified C-DA-001 keeps SI §2.2's `factor_identified` and reads it strictly only beside the
ratified verdict (`_strict`). provebench's own templates are strict by design: their tables call
`factor_asserted` (the strict reading of `factor_identified`: the pair asserted, the answer
committed) and `signal_dismissed` (a misleading signal set aside in an asserted statement, never
endorsed as the cause) directly, so both readings give the same band. Both need what
`bind_scoring` resolved about the scenario (its identifiers, its symptom), held by the
`StrictContext` made from the binding.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final

from provebench._errors import ProvebenchError
from provebench.si.primitives._paths import PathResult
from provebench.si.primitives._primitives import Window
from provebench.si.primitives._scope import EvidenceView
from provebench.si.primitives._signal import signal_dismissed, signal_sentences
from provebench.si.primitives._strict_factor import ChannelReader, factor_asserted
from provebench.si.scenario._binding import BoundFactor
from provebench.si.scoring._strict import StrictContext, injected_fault

_SHOWN_FINDINGS = 3


def _signal_sentences(
    context: StrictContext,
) -> Callable[[ChannelReader, frozenset[str]], list[tuple[int, int]]]:
    def ranges(reader: ChannelReader, objects: frozenset[str]) -> list[tuple[int, int]]:
        return signal_sentences(reader, context.signal, context.cues.compiled, objects)

    return ranges


def _factor_asserted(
    context: StrictContext,
    view: EvidenceView,
    factor: object,
    channels: Sequence[str],
    window: Window,
    exclude_tool_echo: bool = False,
) -> PathResult:
    if not isinstance(factor, BoundFactor):
        raise ProvebenchError("factor_asserted needs a bound factor", field="factor")
    result = factor_asserted(
        view,
        factor,
        channels,
        window,
        cues=context.cues.compiled,
        other_type_phrases=context.other_type_phrases(factor),
        other_identifiers=context.other_identifiers(factor),
        scenario_names=context.scenario_names,
        symptom=context.symptom,
        exclude_tool_echo=exclude_tool_echo,
        fault=injected_fault(factor, context.workloads),
        # SI red team 46, F1: a sentence that only dismisses the misleading signal, or calls it
        # harmless, is no input of the factor's plain-assertion readers
        signal=_signal_sentences(context) if context.signal else None,
    )
    shown = [
        f"{f.rule} (line {f.line}, sentence {f.sentence}): {f.detail}"
        for f in result.findings[:_SHOWN_FINDINGS]
    ]
    more = result.finding_count - len(shown)
    note = "; ".join(shown) + (f"; and {more} more" if more > 0 else "")
    if not note:
        note = "asserted and committed" if result.value else "no co-occurrence in scope"
    return PathResult(
        primitive="factor_asserted", value=result.value, count=result.finding_count, note=note
    )


def _signal_dismissed(
    context: StrictContext,
    view: EvidenceView,
    identifier_set: Sequence[str],
    channels: Sequence[str],
    exclude_tool_echo: bool = True,
) -> PathResult:
    return signal_dismissed(
        view, identifier_set, channels, context.cues.compiled, exclude_tool_echo
    )


STRICT_TABLE_CALLS: Final[dict[str, Callable[..., PathResult]]] = {
    "factor_asserted": _factor_asserted,
    "signal_dismissed": _signal_dismissed,
}


def strict_call(
    name: str, context: StrictContext, view: EvidenceView, **arguments: Any
) -> PathResult:
    return STRICT_TABLE_CALLS[name](context, view, **arguments)


def strict_value(
    name: str, context: StrictContext, arguments: dict[str, Any], view: EvidenceView
) -> bool:
    """The call's value only (the batch's decider)."""
    return strict_call(name, context, view, **arguments).value


__all__ = ["STRICT_TABLE_CALLS", "strict_call", "strict_value"]
