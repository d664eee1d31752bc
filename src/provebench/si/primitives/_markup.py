"""What a reader reads of an answer's Markdown and HTML: the text the strict reading reads.

SI §2.2 matches raw text, so markup a reader never reads as the agent's assertion counts like
prose under the ratified reading (SI §3: normative, unchanged). The strict reading — a
provebench extension (docs/si-scoring.md, "Markup") — first reads the answer as it renders:

* not asserted, dropped: HTML comments (`<!-- … -->`, unclosed: to the end), struck-through
  text (`~~…~~` and `<s>`, `<del>`, `<strike>` within a paragraph), fenced code blocks (three
  or more backticks or tildes, unclosed: to the end) and indented code blocks (after a blank
  line, outside a list), link and footnote definitions (`[id]: …`, `[^1]: …` with their indented
  continuation), footnote references (`[^1]`) and inline link targets and titles (`](url "…")`),
  an image's alt text (`![alt](src)`, `![alt][id]`: shown only where the image is not), HTML a
  reader never sees: a `<template>` and an element with a `hidden` attribute or a style of
  `display: none` or `visibility: hidden`, up to its first closing tag (unclosed: to the end);
* markers, blanked: emphasis (`**`, `__`, `*`, `_`, never an intraword `_` such as
  `SMTP_PORT`; a `~~` left unpaired), heading, list-item and block-quote markers at the start
  of a line — so a full stop before a closing `**` ends its sentence, and a numbered item's
  `1.` is no sentence;
* kept as written: inline code (an identifier in backticks is prose; a deviation phrase inside
  a backtick pair is already reported, not asserted), tables, block quotes' text, other HTML.

The result has the original's length and line breaks (what is dropped or blanked becomes
spaces), so every offset, line and sentence the strict reading reports is the original's. The
work is a constant number of scans, each linear in the text: no pattern backtracks beyond one
line or one run of delimiters.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from provebench._lazy_pattern import lazy_pattern

DroppedKind = Literal[
    "html_comment",
    "struck_through",
    "code_block",
    "definition",
    "footnote_reference",
    "link",
    "image_alt",
    "hidden_html",
]

# what each dropped kind is, in a finding's words
DROPPED_WORDS: dict[str, str] = {
    "html_comment": "inside an HTML comment (not rendered)",
    "struck_through": "struck through",
    "code_block": "inside a code block (an example, not an assertion)",
    "definition": "inside a link or footnote definition",
    "footnote_reference": "a footnote reference",
    "link": "a link's target or title (not read as text)",
    "image_alt": "an image's alt text (not shown beside the image)",
    "hidden_html": "inside HTML that is never shown (hidden or a template)",
}


@dataclass(frozen=True, slots=True)
class ReadText:
    """The text as a reader reads it (same length and line breaks), and what was dropped:
    (kind, start, end) ranges of the original, in the order found."""

    text: str
    dropped: tuple[tuple[DroppedKind, int, int], ...]


_BREAK = r"(?:\r\n|\r|\n)"
_LINE_END = r"(?=\r|\n|\Z)"
# Anything that could be markup; an answer with none is read as it is (the common case). An
# intraword `_` (SMTP_PORT) is no markup. Four patterns, each opening with the characters it
# can start with, so that each search skips to them (one pattern with every alternative tried
# at every position cost most of an answer's reading): a marker character, an `_` not between
# two letters or digits, a list item or indented line at the start of the text or of a line.
_MARKER = lazy_pattern(r"[<~*`\[#>]")
_EDGE_UNDERSCORE = lazy_pattern(r"_(?<![^\W_]_)|_(?![^\W_])")
_LINE_MARKUP = r"[ \t]*(?:[-+]|\d{1,9}[.)])[ \t]|(?: {4}|\t)"
_FIRST_LINE_MARKUP = lazy_pattern(_LINE_MARKUP)
_LATER_LINE_MARKUP = lazy_pattern(rf"\n(?:{_LINE_MARKUP})")


def _may_hold_markup(text: str) -> bool:
    return (
        _MARKER.search(text) is not None
        or _EDGE_UNDERSCORE.search(text) is not None
        or _FIRST_LINE_MARKUP.match(text) is not None
        or _LATER_LINE_MARKUP.search(text) is not None
    )


# A fence and every line up to one that opens with the same fence (unclosed: to the end).
_FENCED = lazy_pattern(
    rf"^ {{0,3}}(`{{3,}}|~{{3,}})[^\r\n]*(?:{_BREAK}(?! {{0,3}}\1)[^\r\n]*)*+"
    rf"(?:{_BREAK} {{0,3}}\1[^\r\n]*)?",
    re.M,
)
# Indented lines (blank lines between them) after a blank line or the start; `_Reading`
# keeps those after a list item (a list item's continuation, not code).
_INDENTED = lazy_pattern(
    rf"(?:\A|(?<=[\r\n])[ \t]*{_BREAK})((?: {{4}}|\t)[^\r\n]*"
    rf"(?:{_BREAK}(?:[ \t]*{_BREAK})*+(?: {{4}}|\t)[^\r\n]*)*+)"
)
# `[id]: url "title"` and `[^1]: text`, with the indented lines that continue it.
_DEFINITION = lazy_pattern(
    rf"^ {{0,3}}\[[^\]\r\n]{{1,200}}\]:[^\r\n]*(?:{_BREAK}(?: {{4}}|\t)[^\r\n]*)*+", re.M
)
_LIST_ITEM = lazy_pattern(r" {0,3}(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)")
_COMMENT = lazy_pattern(r"<!--(?:[^-]++|-(?!->))*+(?:-->|\Z)")
# `<s>`, `<del>`, `<strike>` up to its closing tag, within a paragraph (unclosed: to its end)
_STRIKE_TAG = lazy_pattern(
    rf"<(s|del|strike)(?:\s[^<>\r\n]{{0,200}})?>"
    rf"(?:[^<\r\n]++|<(?!/\1\s*>)|{_BREAK}(?![ \t]*+{_BREAK}|[ \t]*+\Z))*+(?:</\1\s*>)?",
    re.IGNORECASE,
)
# `~~` opening before a non-space, closed by the next `~~` in its paragraph (GFM; unclosed:
# literal).
_STRUCK = lazy_pattern(
    rf"(?<!~)~~(?=[^\s~])(?:[^~\r\n]++|~(?!~)|{_BREAK}(?![ \t]*+{_BREAK}|[ \t]*+\Z))*+"
    r"(?<=\S)~~(?!~)"
)
# `<template …>` or an element whose attributes hide it, up to its first closing tag (a nested
# element of the same name ends it early: what follows is read) or, unclosed, to the end
_HIDDEN_HTML = lazy_pattern(
    r"<(template)(?=[\s>])[^<>]{0,300}>(?:[^<]++|<(?!/template\s*>))*+(?:</template\s*>)?"
    r"|<([a-z][a-z0-9-]{0,30})(?=\s)[^<>]{0,300}?"
    r"(?:(?<=\s)hidden(?=[\s=/>])|display\s*:\s*none|visibility\s*:\s*hidden)[^<>]{0,300}>"
    r"(?:[^<]++|<(?!/\2\s*>))*+(?:</\2\s*>)?",
    re.IGNORECASE,
)
# an image's alt text: `![` … `]` before its `(src)` or `[id]`
_IMAGE_ALT = lazy_pattern(r"!\[([^\[\]\r\n]{1,500})\](?=[(\[])")
_FOOTNOTE_REFERENCE = lazy_pattern(r"\[\^[^\]\s]{1,100}\]")
# `(target "title")` after `]`, one level of parentheses inside
_LINK_TARGET = lazy_pattern(r"(?<=\])\((?:[^()\r\n]++|\([^()\r\n]*+\))*+\)")
# `*` runs; `_` runs not inside a word (tried at a run's start only: linear); a `~~` left
# unpaired (literal for GFM, but no word: "missing.~~ The cause" is two sentences)
_EMPHASIS = lazy_pattern(r"\*++|(?<!\w)_++|(?<!_)(?<=\w)_++(?!\w)|(?<!~)~~(?!~)")
# a heading's, list item's or block quote's marker at the start of a line
_LINE_MARKER = lazy_pattern(
    r"^ {0,3}(?:>[ \t]?)*(?:#{1,6}(?=[ \t]|$)|(?:[-+]|\d{1,9}[.)])(?=[ \t]|$))?", re.M
)
_TEXT_RUN = lazy_pattern(r"[^\r\n]+")


def _blank(text: str) -> str:
    if "\n" not in text and "\r" not in text:
        return " " * len(text)
    return _TEXT_RUN.sub(lambda run: " " * len(run.group()), text)


def read_markup(text: str) -> ReadText:
    """The text a reader reads as the agent's assertion (module docstring): one scan per
    kind, each over the text the scans before it left."""
    if not _may_hold_markup(text):
        return ReadText(text, ())
    dropped: list[tuple[DroppedKind, int, int]] = []

    def dropping(kind: DroppedKind, group: int = 0) -> Callable[[re.Match[str]], str]:
        def replace(found: re.Match[str]) -> str:
            kept = found.group(group)
            if not kept.strip():
                return found.group()  # blank already (inside something dropped before)
            start, end = found.span(group)
            dropped.append((kind, start, end))
            if not group:
                return _blank(kept)
            whole, offset = found.group(), found.start()
            return whole[: start - offset] + _blank(kept) + whole[end - offset :]

        return replace

    def indented(found: re.Match[str]) -> str:
        # after a list item (its previous non-blank line), it continues the item: not code.
        # The blank lines read back over lie between this block and the text before it, so
        # each is read once.
        text = found.string
        at = found.start()
        while at and text[at - 1] in " \t\r\n":
            at -= 1
        line_start = max(text.rfind("\n", 0, at), text.rfind("\r", 0, at)) + 1
        if at and _LIST_ITEM.match(text, line_start, at):
            return found.group()
        return dropping("code_block", 1)(found)

    current = _FENCED.sub(dropping("code_block"), text)
    current = _INDENTED.sub(indented, current)
    current = _DEFINITION.sub(dropping("definition"), current)
    current = _COMMENT.sub(dropping("html_comment"), current)
    current = _HIDDEN_HTML.sub(dropping("hidden_html"), current)
    current = _STRIKE_TAG.sub(dropping("struck_through"), current)
    current = _STRUCK.sub(dropping("struck_through"), current)
    current = _IMAGE_ALT.sub(dropping("image_alt", 1), current)
    current = _FOOTNOTE_REFERENCE.sub(dropping("footnote_reference"), current)
    current = _LINK_TARGET.sub(dropping("link"), current)
    current = _EMPHASIS.sub(lambda run: " " * len(run.group()), current)
    current = _LINE_MARKER.sub(lambda marker: " " * len(marker.group()), current)
    return ReadText(current, tuple(dropped))


__all__ = ["DROPPED_WORDS", "DroppedKind", "ReadText", "read_markup"]
