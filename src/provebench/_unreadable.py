"""The characters no reader reads as stored: the one rule for report text and work file names.

A terminal hides a whole escape sequence, moves its cursor back over what was written
(backspace, carriage return), and a bidi control shows text in another order than it is stored
(U+202E; UAX #9). So the reading a person makes and the reading the evaluator makes differ
wherever one stands (pilot red team 32, A1, A2, A4, A7). The laboratory refuses them where the
candidate's text enters the record: a report's text (`pilot.lab._report_text`, tab and newline
allowed there, as plain text holds them) and a name the importer leaves in its work directory
(`sandbox._workdir`, pilot red team 37, H3: a name is one line, so tab and newline are refused
there too, and the line and paragraph separators with them).
"""

from __future__ import annotations

import re

from provebench._errors import BIDI_CONTROLS_AND_SEPARATORS

_LINE_SEPARATORS = frozenset({0x2028, 0x2029})
# C0 but tab and newline, DELETE, C1, and Unicode's Bidi_Control characters.
UNREADABLE = frozenset(
    {
        *(code for code in range(0x20) if code not in (0x09, 0x0A)),
        0x7F,
        *range(0x80, 0xA0),
        *(code for code in BIDI_CONTROLS_AND_SEPARATORS if code not in _LINE_SEPARATORS),
    }
)
# A name is one line: besides the above, tab, newline and the line and paragraph separators.
UNREADABLE_IN_NAME = UNREADABLE | {0x09, 0x0A} | _LINE_SEPARATORS


def _class(codes: frozenset[int]) -> re.Pattern[str]:
    # One character class: a text is searched at C speed (every listed file's texts are,
    # `Gateway._note_served`).
    return re.compile("[" + "".join(re.escape(chr(code)) for code in sorted(codes)) + "]")


UNREADABLE_CLASS = _class(UNREADABLE)
_UNREADABLE_IN_NAME_CLASS = _class(UNREADABLE_IN_NAME)


def unreadable_character(text: str) -> str | None:
    """The first control of `text` the rule refuses, as `U+XXXX`, or None."""
    found = UNREADABLE_CLASS.search(text)
    return None if found is None else f"U+{ord(found.group()):04X}"


def unreadable_name_character(name: str) -> str | None:
    """The first character of a file `name` the rule refuses (a name is one line), as
    `U+XXXX`, or None."""
    found = _UNREADABLE_IN_NAME_CLASS.search(name)
    return None if found is None else f"U+{ord(found.group()):04X}"


__all__ = [
    "UNREADABLE",
    "UNREADABLE_CLASS",
    "UNREADABLE_IN_NAME",
    "unreadable_character",
    "unreadable_name_character",
]
