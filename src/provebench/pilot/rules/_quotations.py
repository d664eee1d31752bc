"""What the laboratory and the evaluator both read as a quotation of a served text: a stretch of
at least `QUOTED_STRETCH` characters a report shares with a text the laboratory served, around
one of its controls (pilot red team 34, A8: an honest detail naming a file by its name less its
extension). The laboratory records such a stretch escaped (`lab/_report_text.py`); the evaluator
reads it, escaped, as data (`evaluate/_own_report_words.py`). One rule, so the two cannot part."""

from __future__ import annotations

from collections.abc import Iterator

# Long enough that no short run of letters beside a control makes one.
QUOTED_STRETCH = 8


def places_of(text: str, char: str) -> Iterator[int]:
    """Every index of `char` in `text`, in order."""
    at = text.find(char)
    while at >= 0:
        yield at
        at = text.find(char, at + 1)


def shared_stretches(text: str, place: int, served: str) -> Iterator[range]:
    """The stretches of `text` around `text[place]` that `served` holds with that character at
    one of its own places, each at least `QUOTED_STRETCH` characters long, one per such place."""
    for at in places_of(served, text[place]):
        before = 0
        while before < min(place, at) and text[place - before - 1] == served[at - before - 1]:
            before += 1
        after = 0
        room = min(len(text) - place, len(served) - at) - 1
        while after < room and text[place + after + 1] == served[at + after + 1]:
            after += 1
        if before + 1 + after >= QUOTED_STRETCH:
            yield range(place - before, place + after + 1)


__all__ = ["QUOTED_STRETCH", "places_of", "shared_stretches"]
