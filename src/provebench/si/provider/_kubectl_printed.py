"""What a kubectl output template prints besides the object's fields: its own text.

`_kubectl_templates` names the fields a template prints; whether a read *showed* the state is
then judged by what kubectl printed (`_kubectl_shown`): the command's standard output with the
template's own text taken out must still hold something (SI red team 16, H4: a field the object
lacks — ``{.spec.nosuchfield}`` — a filter matching nothing, an empty range or a print inside
``{{if false}}`` print nothing of the state, yet earned C-OE-002's and C-OE-004's state read
because the template *named* a state path).

A template's own text is its literal text (outside the actions, a custom-columns header), the
string constants it prints (decoded: ``{"\\x33"}`` prints ``3``) and printf's format text.
Taking it out of the output is only safe where everything else the template prints is a field
this module's caller can account for; so a template with a print that is neither a field nor a
string constant — a number (``{{3}}``), a character (``{{'3'}}``), a variable, any function's
value, a named template (``{{template "x"}}``) — is reported as printing the unknown
(`TemplateText.unknown`), and earns no state read.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass
from typing import Final

from provebench.si.provider._kubectl_templates import (
    _GO_ASSIGNS,
    _GO_BLOCKS,
    _GO_COMPOSED,
    _GO_STRING,
    _GO_VALUE_VERB,
    _GO_VERB,
    _GO_WORD,
    _go_actions,
    _go_field,
    _go_indexed,
    _jsonpath_actions,
    _jsonpath_path,
)

# go-template words that print nothing themselves (a block's head or end, a loop's jump).
_GO_QUIET: Final = frozenset({"end", "else", "break", "continue"})
# A named template prints a body this reading does not follow.
_GO_NAMED: Final = frozenset({"define", "template", "block"})
_JP_CONSTANT: Final = re.compile(r"'(?:\\.|[^'\\])*'|\"(?:\\.|[^\"\\])*\"")


@dataclass(frozen=True)
class TemplateText:
    """A template's own text (`literals`) and whether it prints a value that is neither one of
    its fields nor that text (`unknown`)."""

    literals: tuple[str, ...]
    unknown: bool


def _decoded(quoted: str) -> str:
    """A quoted constant's text as printed (escapes decoded; raw `…` strings as they are)."""
    body = quoted[1:-1]
    if quoted[0] == "`":
        return body
    try:
        return codecs.decode(body, "unicode_escape")
    except UnicodeDecodeError:
        return body


def go_template_text(template: str) -> TemplateText:
    """The text a go-template prints of its own (module doc)."""
    literals = [re.sub(r"\{\{.*?\}\}", " ", template, flags=re.DOTALL)]
    unknown = False
    for body in _go_actions(template):
        words = _GO_STRING.sub(" ", body).split()
        if not words or words[0] in _GO_QUIET or _GO_ASSIGNS.match(body):
            continue
        if words[0] in _GO_NAMED:
            unknown = True
            continue
        if words[0] in _GO_BLOCKS:
            continue  # a condition or a range prints nothing; what it holds is read on its own
        printed, known = _go_action_text(body)
        literals += printed
        unknown = unknown or not known
    # a go-template prints a missing map key as "<no value>", a missing printf operand so
    return TemplateText(tuple(literals), unknown)


def _go_action_text(body: str) -> tuple[list[str], bool]:
    """A printing action's own text, and whether all else it prints is a field."""
    if _GO_COMPOSED.search(_GO_STRING.sub(" ", body)):
        return [], False
    words = _GO_WORD.findall(body)
    if len(words) == 1:
        return _go_operand(words[0])
    head, operands = words[0], words[1:]
    if head in ("print", "println"):
        texts: list[str] = []
        for operand in operands:
            text, known = _go_operand(operand)
            if not known:
                return [], False
            texts += text
        return texts, True
    if head == "index":
        indexed = operands and _go_indexed(operands[0], _go_field(operands[0]), operands[1:])
        return [], bool(indexed)
    quoted = bool(operands) and operands[0][:1] in ('"', "`")
    if head == "printf" and quoted and _GO_STRING.fullmatch(operands[0]):
        form = _decoded(operands[0])
        verbs = [verb for verb in _GO_VERB.findall(form) if verb != "%%"]
        if any(_GO_VALUE_VERB.fullmatch(verb) is None for verb in verbs):
            return [], False
        arguments = operands[1:]
        if len(arguments) != len(verbs) or any(_go_field(a) is None for a in arguments):
            return [], False  # a missing or extra operand prints printf's own complaint
        return [_GO_VERB.sub(" ", form), "%"], True
    return [], False


def _go_operand(word: str) -> tuple[list[str], bool]:
    """An operand printed as it is: a string constant (its text) or a field (no text)."""
    if _go_field(word) is not None:
        return [], True
    if len(word) >= 2 and word[0] == word[-1] and word[0] in '"`':
        return [_decoded(word)], True
    return [], False  # a number, a character (printed as its code), a variable, a function


def jsonpath_text(template: str, as_json: bool = False) -> TemplateText:
    """The text a kubectl jsonpath template prints of its own (module doc). ``as_json``
    (`-o jsonpath-as-json=…`): kubectl prints the results as a JSON list, so its brackets,
    commas and quotes are its own text — ``[]`` is the list of nothing (SI red team 16, H4) —
    and a string constant, printed JSON-escaped, is not taken out by its text: unknown."""
    literals = [re.sub(r"\{(?:'(?:\\.|[^'\\])*'|\"(?:\\.|[^\"\\])*\"|[^}])*\}", " ", template)]
    literals += ["[", "]", ",", '"'] if as_json else []
    unknown = False
    for body in _jsonpath_actions(template):
        if body == "end" or body.startswith(("range ", "range\t")) or not body:
            continue
        if _JP_CONSTANT.fullmatch(body):
            literals.append(_decoded(body))
            unknown = unknown or as_json
        elif _jsonpath_path(body) is None:
            unknown = True  # a number, a bool, a function: printed, not a field
    return TemplateText(tuple(literals), unknown)


def custom_columns_text(spec: str) -> TemplateText:
    """The text ``custom-columns=…`` prints of its own: its headers; a column with no path
    that kubectl reads as a field prints the unknown."""
    literals: list[str] = []
    unknown = False
    for column in spec.split(","):
        header, colon, path = column.partition(":")
        literals.append(header)
        path = path.strip()
        if path.startswith("{") and path.endswith("}"):
            path = path[1:-1].strip()
        if path and not path.startswith((".", "[", "@", "$")):
            path = "." + path
        if not colon or not path or _jsonpath_path(path) is None:
            unknown = True
    return TemplateText(tuple(literals), unknown)


__all__ = ["TemplateText", "custom_columns_text", "go_template_text", "jsonpath_text"]
