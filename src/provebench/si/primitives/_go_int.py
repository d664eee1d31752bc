"""An integer as kubectl's flag parser reads it (Go's `strconv.ParseInt(s, 0, 64)`): the one
reading of a replica count spelled as text, for kubectl's `--replicas` and the tools' `replicas`
argument alike (SI red team 34, H2: `"0x1388"` is 5000 to kubectl, and was no count to the
tools)."""

from __future__ import annotations

import re
from typing import Final

# An integer flag's value as kubectl's flag parser reads it (Go's `strconv.ParseInt(s, 0, 64)`):
# a sign, then hexadecimal, octal (`0o17` or a leading `0`), binary or decimal digits, once the
# digit separators are checked and dropped (`_go_underscores_ok`).
_GO_INT: Final = re.compile(
    r"(?P<sign>[+-]?)(?:0[xX](?P<hex>[0-9a-fA-F]+)|0[oO](?P<oct>[0-7]+)|0[bB](?P<bin>[01]+)"
    r"|(?P<zero>0[0-7]*)|(?P<dec>[1-9][0-9]*))"
)
_HEX_DIGITS: Final = frozenset("0123456789abcdefABCDEF")


def _go_underscores_ok(text: str) -> bool:
    """Whether each `_` of an integer's text separates digits (or a base prefix and a digit),
    as Go's `strconv` (`underscoreOK`) requires of base 0: `5_000` and `0x_13_88` are numbers,
    `_5`, `5_`, `5__0` are not."""
    body = text[1:] if text[:1] in ("+", "-") else text
    hexadecimal = body[:2].lower() == "0x"
    index, last = (2, "digit") if body[:2].lower() in ("0x", "0o", "0b") else (0, "start")
    for char in body[index:]:
        if char.isascii() and (char.isdigit() or (hexadecimal and char in _HEX_DIGITS)):
            last = "digit"
        elif char == "_":
            if last != "digit":
                return False
            last = "_"
        elif last == "_":
            return False
        else:
            last = "other"
    return last != "_"


def flag_int(text: str) -> int | None:
    """The integer kubectl reads from an integer flag's value (`--replicas=0x10` is 16,
    `--replicas=010` is 8, `--replicas=5_000` is 5000), or None for a value it would not take
    as one (SI red team 16, H2: `5_000` was read as no count, so nothing was held)."""
    if "_" in text:
        if not _go_underscores_ok(text):
            return None
        text = text.replace("_", "")
    found = _GO_INT.fullmatch(text)
    if found is None:
        return None
    if found["hex"] is not None:
        value = int(found["hex"], 16)
    elif found["oct"] is not None:
        value = int(found["oct"], 8)
    elif found["bin"] is not None:
        value = int(found["bin"], 2)
    elif found["zero"] is not None:
        value = int(found["zero"], 8)
    else:
        value = int(found["dec"])
    value = -value if found["sign"] == "-" else value
    return value if -(2**63) <= value < 2**63 else None


__all__ = ["flag_int"]
