"""What the primitives read from one evidence artifact: channel texts and tool-echo status.

`EvidenceView` computes each channel's comparison text, lines and sentences once, and the echo
status of each answer line at most once, in batches (SI §2.1), so that evaluating several
primitives over the same evidence stays linear in its size.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from provebench.evidence import Evidence, channel_text, tool_response_bodies
from provebench.si.primitives._echo import EchoSource, echo_sources
from provebench.si.primitives._matching import ChannelText, Span


@dataclass(frozen=True, slots=True)
class EchoedLine:
    channel: str
    line: int
    text: str
    action_index: int


class EvidenceView:
    """Read-only access to one evidence artifact for the primitives; caches derived data."""

    def __init__(self, evidence: Evidence) -> None:
        self.evidence = evidence
        self._channels: dict[str, ChannelText] = {}
        self._bodies: list[str] | None = None
        self._echo: dict[str, EchoSource | None] = {}
        self._echo_lines: dict[str, bool] = {}
        self._echo_line_numbers: dict[tuple[str, int], bool] = {}
        # Views of the same evidence that other primitives' modules build once (`_paths`).
        self.derived: dict[str, object] = {}

    def channel(self, name: str) -> ChannelText:
        if name not in self._channels:
            self._channels[name] = ChannelText(name, channel_text(self.evidence, name))
        return self._channels[name]

    @property
    def bodies(self) -> list[str]:
        if self._bodies is None:
            self._bodies = tool_response_bodies(self.evidence)
        return self._bodies

    def line_is_echo(self, channel: ChannelText, line: int) -> bool:
        """Whether a line of the channel, stripped, is contained in some tool response body:
        the rule `split_echo` applies, for one line (blank lines are never echoes)."""
        # Keyed by line number first: stripping and hashing a long line again for each match
        # on it would make a one-line answer with many matches quadratic in its length.
        by_number = self._echo_line_numbers.get((channel.channel, line))
        if by_number is not None:
            return by_number
        stripped = channel.line_text(line).strip()
        if not stripped:
            return False
        known = self._echo_lines.get(stripped)
        if known is None:
            known = any(stripped in body for body in self.bodies)
            self._echo_lines[stripped] = known
        self._echo_line_numbers[(channel.channel, line)] = known
        return known

    def split_echo(
        self, channel: ChannelText, spans: Iterable[Span]
    ) -> tuple[list[Span], list[EchoedLine]]:
        """Spans outside echoed lines, and the echoed lines that held spans (SI §2.1)."""
        spans = list(spans)
        stripped_lines = {span.line: channel.line_text(span.line).strip() for span in spans}
        self._resolve(channel, spans, stripped_lines)
        kept: list[Span] = []
        echoed: dict[int, EchoedLine] = {}
        for span in spans:
            stripped = stripped_lines[span.line]
            source = self._echo[stripped]
            if source is None:
                kept.append(span)
            elif span.line not in echoed:
                echoed[span.line] = EchoedLine(
                    channel.channel, span.line, stripped, source.action_index
                )
        return kept, [echoed[line] for line in sorted(echoed)]

    def _resolve(
        self, channel: ChannelText, spans: list[Span], stripped_lines: dict[int, str]
    ) -> None:
        candidates: dict[str, str] = {}
        for span in spans:
            stripped = stripped_lines[span.line]
            if stripped in self._echo or stripped in candidates:
                continue
            anchor = channel.text[span.start : span.end].strip()
            # The anchor must be a substring of the stripped line; the whole line always is.
            candidates[stripped] = anchor if anchor and anchor in stripped else stripped
        if not candidates:
            return
        found = echo_sources(candidates, self.bodies)
        for stripped in candidates:
            self._echo[stripped] = found.get(stripped)


__all__ = ["EchoedLine", "EvidenceView"]
