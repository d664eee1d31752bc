"""The channel text the strict reading's shape rules scan: its fold, offsets mapped back (SI red
team 20, W2; docs/si-scoring.md §11, "Round 20: one fold for every rule").

The strict reading (a provebench registry extension beside SI §2.2, never a change to it) reads
its cues in the answer's fold (`_assertion.FoldedText`), where a look-alike, a full-width or an
invisible character is the letter it draws. The rules that read the answer's shape — the back
references and tone tags, asides, labels, tails and comments (`_plain_assertion`), what follows
the statement (`_unaccounted`) and the shotgun lists and quantifiers (`_shotguns`) — scanned
the raw text, so "Th\u200bis is wrong", "\u0415very key" or "\uff45\uff56\uff45\uff52\uff59 key"
slipped past words the cue rules would have read. They now scan the fold of each character
(`FoldedText.of_characters`) as a channel of its own: the factor's spans are mapped into it and
what they find is mapped back to the original offsets the findings report. The identifiers and
phrases are still found in the original text (SI §3.3, unchanged); the ratified reading reads
nothing of this.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from provebench.si.primitives._assertion import FoldedText, fold_character
from provebench.si.primitives._matching import ChannelText, Sentence, Span
from provebench.si.primitives._withdrawals import SentenceRange


@dataclass(frozen=True)
class FoldedChannel:
    """A channel's fold as a channel (`channel`), and the map of its offsets to the original's;
    `fold` is None where the fold is the text itself (an ASCII answer without a backtick)."""

    channel: ChannelText
    fold: FoldedText | None
    source: str  # the text folded

    @classmethod
    def of(cls, original: ChannelText) -> FoldedChannel:
        fold = FoldedText.of_characters(original.text)
        if fold.text == original.text and fold.one_to_one:
            return cls(original, None, original.text)
        return cls(ChannelText(original.channel, fold.text), fold, original.text)

    def beside(self, other: str) -> str:
        """`other`, a text with the source's offsets (the answer before its markup was blanked,
        `_markup`), folded onto the fold's offsets: where it holds the source's character, the
        fold's; elsewhere its own character folded, cut or padded with spaces to the place the
        source's character takes in the fold."""
        fold = self.fold
        if fold is None:
            return other
        if len(other) != len(self.source):
            raise ValueError("a text beside the fold must have the source's offsets")
        pieces: list[str] = []
        for index, character in enumerate(other):
            start, end = fold.folded(index), fold.folded(index + 1)
            if character == self.source[index]:
                pieces.append(self.channel.text[start:end])
            else:
                own = character if character.isascii() else fold_character(character)
                pieces.append(own.ljust(end - start)[: end - start])
        return "".join(pieces)

    def offset(self, offset: int) -> int:
        """The fold's offset of an original offset."""
        return offset if self.fold is None else self.fold.folded(offset)

    def span(self, span: Span) -> Span:
        """The span (original offsets) at its place in the fold."""
        if self.fold is None:
            return span
        return dataclasses.replace(span, start=self.offset(span.start), end=self.offset(span.end))

    def sentences(self, where: SentenceRange) -> SentenceRange:
        """A sentence and the two after it (original offsets) at their place in the fold."""
        if self.fold is None:
            return where
        fold = self.fold

        def at(offset: int | None) -> int | None:
            return None if offset is None else fold.folded(offset)

        return SentenceRange(
            fold.folded(where.start),
            fold.folded(where.end),
            at(where.next_start),
            at(where.next_end),
            at(where.later_start),
            at(where.later_end),
        )

    def spans(self, spans: Sequence[Span]) -> list[Span]:
        """The spans (original offsets) at their place in the fold."""
        return [self.span(span) for span in spans]

    def sentence_of(self, span: Span) -> Sentence | None:
        """The fold's sentence holding a span of the fold."""
        return self.channel.sentence_containing(span.start, span.end)

    def in_fold(self, test: Callable[[int], bool]) -> Callable[[int], bool]:
        """A test of original offsets (whether one is in scope, SI §2.1) for the fold's."""
        return lambda offset: test(self.original(offset))

    def original(self, offset: int) -> int:
        """The original offset of an offset of the fold."""
        return offset if self.fold is None else self.fold.original(offset)


__all__ = ["FoldedChannel"]
