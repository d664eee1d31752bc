"""User-facing errors.

Every problem caused by input (a malformed file, a missing field, an unknown name) is raised as a
`ProvebenchError`. The CLI turns it into exactly one line on stderr that names the file, the line
where known, and the field, and exits with status 2 — never a traceback, never a score.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

EXIT_CONFIG_ERROR = 2
# Control characters in printed text: shown as escapes, so that a terminal never acts on them
# (a file name can hold ESC or a newline) and one printed line stays one line. The bidi
# controls (Unicode's Bidi_Control: marks, embeddings, overrides, isolates) are controls too:
# U+202E would print `exe.txt` as `txt.exe` and reorder the rest of the line, so they are
# spelled out as `\u202e`, as the HTML report does (docs/report.md); so are the line and
# paragraph separators, which end a line as a newline does, and lone surrogates, which are not
# text and cannot even be encoded for the terminal.
BIDI_CONTROLS_AND_SEPARATORS = (
    0x061C,  # arabic letter mark
    0x200E,  # left-to-right mark
    0x200F,  # right-to-left mark
    *range(0x202A, 0x202F),  # bidi embeddings and overrides
    *range(0x2066, 0x206A),  # bidi isolates
    0x2028,  # line separator
    0x2029,  # paragraph separator
)
"""Code points that reorder a line or end it without being seen: escaped wherever provebench
shows text (here for the terminal, `report._text` for the HTML report)."""
TERMINAL_ESCAPES = {
    **{code: f"\\x{code:02x}" for code in (*range(0x20), 0x7F, *range(0x80, 0xA0))},
    **{code: f"\\u{code:04x}" for code in (*BIDI_CONTROLS_AND_SEPARATORS, *range(0xD800, 0xE000))},
    ord("\t"): "\t",
    ord("\r"): "\\r",
    ord("\n"): "\\n",
}
"""What `shown` writes for each character it escapes: the one escape set of every place provebench
prints text the user, the data or a candidate chose (the relay of a candidate's output,
`sandbox._relayed`, writes the same, but keeps its newlines)."""


def shown(text: object) -> str:
    """`text` (a file name, an agent's message) as it may be printed: control characters, bidi
    controls, line separators and lone surrogates as escapes; everything else as it is.

    Every line provebench prints that holds text the user or the data chose goes through here:
    error lines and normal output alike.
    """
    return str(text).translate(TERMINAL_ESCAPES)


class ProvebenchError(Exception):
    """An input or configuration error, reported to the user as one line."""

    def __init__(
        self,
        message: str,
        *,
        path: str | Path | None = None,
        line: int | None = None,
        field: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.path = None if path is None else str(path)
        self.line = line
        self.field = field

    def one_line(self) -> str:
        """`FILE:LINE: FIELD: message`, leaving out the parts that are unknown."""
        location = ""
        if self.path is not None:
            path = self.path or "''"  # an empty file name given: shown, not left out
            location = path if self.line is None else f"{path}:{self.line}"
        parts = [p for p in (location, self.field) if p]
        text = ": ".join([*parts, self.message])
        # One line, whatever the message or the file name carries.
        return text.replace("\r", "\\r").replace("\n", "\\n")

    def __str__(self) -> str:
        return self.one_line()


def validation_failure(
    error: Any,
    *,
    path: str | Path | None = None,
    line: int | None = None,
    field: str | None = None,
) -> ProvebenchError:
    """The one line for a pydantic `ValidationError`: its first problem's message, at the dotted
    location of the field it names (`field` when it names none). Typed loosely so that this
    module never imports pydantic: a command that fails before validating anything should not
    pay for it."""
    first = error.errors()[0]
    where = ".".join(str(part) for part in first["loc"]) or field
    return ProvebenchError(first["msg"], path=path, line=line, field=where)


__all__ = [
    "EXIT_CONFIG_ERROR",
    "TERMINAL_ESCAPES",
    "ProvebenchError",
    "shown",
    "validation_failure",
]
