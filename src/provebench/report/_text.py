"""Text that comes from a verdict, made safe to show: data is data.

File names, tool outputs and metadata in a verdict come from adversarial input. HTML escaping
(Jinja2's autoescape) keeps markup inert, but it leaves characters that still change what a reader
sees: bidirectional overrides (U+202E turns `exe.txt` into `txt.exe`), zero-width characters,
control characters, and lone surrogates that are not even encodable. Those are shown as visible
`\\uXXXX` escapes instead, and very long strings are cut with a note that the JSON holds the rest.
"""

from __future__ import annotations

import json
from typing import Final

from markupsafe import Markup

from provebench._errors import BIDI_CONTROLS_AND_SEPARATORS

MAX_TEXT_CHARS: Final = 400

# Characters kept as they are although they are controls: they only break lines or indent.
_KEPT_CONTROLS: Final = frozenset("\n\t")

# Format and separator characters that reorder, hide or join text without being visible.
_INVISIBLE: Final = frozenset(
    [
        *map(chr, BIDI_CONTROLS_AND_SEPARATORS),  # the ones a terminal line escapes too
        "\u180e",  # mongolian vowel separator
        "\u200b",  # zero width space
        "\u200c",  # zero width non-joiner
        "\u200d",  # zero width joiner
        "\u2060",  # word joiner
        "\ufeff",  # byte order mark / zero width no-break space
    ]
)


def _needs_escape(char: str) -> bool:
    code = ord(char)
    if char in _KEPT_CONTROLS:
        return False
    return (
        code < 0x20
        or 0x7F <= code <= 0x9F
        or 0xD800 <= code <= 0xDFFF
        or char in _INVISIBLE
        or 0xFFF9 <= code <= 0xFFFB  # interlinear annotation controls
        or 0xE0000 <= code <= 0xE007F  # tag characters
    )


def _visible(char: str) -> str:
    code = ord(char)
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def visible_text(text: str, *, limit: int = MAX_TEXT_CHARS) -> str:
    """`text` with every invisible or control character spelled out, cut at `limit` characters."""
    shown = text if len(text) <= limit else text[:limit]
    safe = "".join(_visible(char) if _needs_escape(char) else char for char in shown)
    if len(text) > limit:
        safe += f" … ({len(text) - limit} more characters; the full text is in the JSON)"
    return safe


def show(value: object) -> object:
    """Jinja2 `finalize`: every `{{ value }}` passes here before autoescape escapes it.

    Strings are made visible; other JSON scalars are written as JSON (`true`, `null`, `0.5`) so the
    report shows exactly what the verdict says. Markup produced by the templates themselves (macro
    output) is left alone: it was built from values that went through here.
    """
    if isinstance(value, Markup):
        return value
    if isinstance(value, str):
        return visible_text(value)
    if value is None or isinstance(value, bool | int | float):
        return json.dumps(value)
    return visible_text(str(value))


__all__ = ["MAX_TEXT_CHARS", "show", "visible_text"]
