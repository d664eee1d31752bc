"""The `fields` partial-response mask of Google APIs: `nextPageToken,files(id,name,size)`.

Grammar: a comma-separated list of selectors; a selector is a `/`-separated path, optionally
followed by a parenthesised sub-list that applies to the last element (`files(id,name)` equals
`files/id,files/name`); `*` selects everything at its level. A mask is applied to lists element by
element, as Google does.
"""

from __future__ import annotations

import re
from typing import Any

from provebench.pilot.emulator._errors import GoogleApiError, bad_request

Mask = dict[str, Any]  # name -> sub-mask; an empty dict selects the whole value
_NAME = re.compile(r"[A-Za-z_*][A-Za-z0-9_]*")
# Deepest `a(b(c(...)))` nesting accepted: the parser recurses per level, and 600 levels gave a
# RecursionError answered 500 (which Google clients retry). Drive's resources nest a few levels.
MAX_FIELDS_DEPTH = 20


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text.replace(" ", "")
        self.pos = 0
        self.depth = 0

    def error(self) -> GoogleApiError:
        return bad_request(f"Invalid field selection {self.text}", reason="invalidParameter")

    def parse_list(self, into: Mask, closing: str | None) -> None:
        while True:
            self.parse_selector(into)
            if self.pos >= len(self.text):
                if closing is not None:
                    raise self.error()
                return
            char = self.text[self.pos]
            if char == ",":
                self.pos += 1
                continue
            if closing is not None and char == closing:
                self.pos += 1
                return
            raise self.error()

    def parse_selector(self, into: Mask) -> None:
        node = into
        while True:
            match = _NAME.match(self.text, self.pos)
            if match is None:
                raise self.error()
            self.pos = match.end()
            name = match.group()
            child = node.setdefault(name, {})
            if self.text.startswith("/", self.pos):
                self.pos += 1
                node = child
                continue
            if self.text.startswith("(", self.pos):
                self.pos += 1
                self.depth += 1
                if self.depth > MAX_FIELDS_DEPTH:
                    raise bad_request(
                        f"Invalid field selection: nested deeper than {MAX_FIELDS_DEPTH} levels",
                        reason="invalidParameter",
                    )
                self.parse_list(child, ")")
                self.depth -= 1
            return


def parse_fields(text: str) -> Mask:
    mask: Mask = {}
    parser = _Parser(text)
    if not parser.text:
        raise parser.error()
    parser.parse_list(mask, None)
    return mask


def apply_mask(value: Any, mask: Mask) -> Any:
    """`value` with only the masked members (lists are masked element-wise)."""
    if not mask or ("*" in mask and len(mask) == 1 and not mask["*"]):
        return value
    if isinstance(value, list):
        if "*" not in mask and not any(mask.values()):  # flat mask: one pass per item
            return [
                {k: v for k, v in item.items() if k in mask} if isinstance(item, dict) else item
                for item in value
            ]
        return [apply_mask(item, mask) for item in value]
    if not isinstance(value, dict):
        return value
    selected: dict[str, Any] = {}
    for key, item in value.items():
        if key in mask:
            selected[key] = apply_mask(item, mask[key])
        elif "*" in mask:
            selected[key] = apply_mask(item, mask["*"])
    return selected


__all__ = ["MAX_FIELDS_DEPTH", "Mask", "apply_mask", "parse_fields"]
