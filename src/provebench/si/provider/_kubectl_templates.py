"""The field paths a kubectl output template prints (`_kubectl_shown`'s reading of a template).

A template shows an object's state only through what it *prints*: a jsonpath expression inside
``{…}``, a go-template action that outputs a value. Text outside the actions, quoted strings,
comments, conditions (``{{if .status}}``), variable assignments and filter predicates print
none of the object, whatever paths they name (SI red team 13, K6: ``{{".status"}}``,
``{{/* .status */}}``, ``jsonpath=.status {.metadata.name}``, ``{'.status'}`` and
``{{if .status}}{{end}}ok`` each earned C-OE-004's verified restart, read by a scan of the text).
Nor does a go-template function of a value (its type, length, truth) or a pipeline: only a bare
field, ``print``/``println``/``index`` of one, or ``printf`` of one with a value verb prints it
(SI red team 14, H11). ``index`` with constant keys prints the field path they spell
(``{{index . "kind"}}`` is ``.kind``, not the object; a jsonpath ``['kind']`` likewise); a key
that is no constant, or an index of a function's value, prints no known field (SI red team 15,
H3). A constant key is one field step: ``['data.x']`` is the key "data.x", never ``.data.x``.

Each parser returns the printed paths in the object's own spelling (``.status.replicas``, with
``items`` and indices kept for `_kubectl_shown` to drop), a ``range`` or ``with`` prefix joined
to the paths printed inside it; ``""`` is the whole object (``{@}``, ``{{.}}``). Conservative
for credit: a value reached only through a variable (``{{$c.type}}``) is not read as printed.
"""

from __future__ import annotations

import re
from typing import Final

from provebench._lazy_pattern import lazy_pattern

# go-template's words that open, continue or close a block, or print nothing of the object.
_GO_BLOCKS: Final = frozenset({"if", "with", "range"})
_GO_SILENT: Final = frozenset({"define", "template", "block", "break", "continue"})
# A go-template string ("…" with escapes, `…` raw) or character constant ('…').
_GO_STRING: Final = lazy_pattern(r'"(?:\\.|[^"\\])*"|`[^`]*`|\'(?:\\.|[^\'\\])*\'')
_GO_ASSIGNS: Final = lazy_pattern(r"^\$\w*\s*(?:,\s*\$\w*\s*)?:?=")
# An action's words (a string whole), a bare field as a word (``.a.b``, ``$.a``, or a lone
# ``.``; `$x.status` is a variable's field, not one), a pipe or a parenthesis (what
# makes an action a function's value), and printf's verbs: those that print a value as it is
# (no `%T`, no precision that cuts it, no argument index or `*` that moves it).
_GO_WORD: Final = lazy_pattern(r'"(?:\\.|[^"\\])*"|`[^`]*`|\'(?:\\.|[^\'\\])*\'|[^\s"`\']+')
_GO_BARE: Final = lazy_pattern(r"(\$?)((?:\.[A-Za-z_]\w*)+|\.)")
_GO_COMPOSED: Final = lazy_pattern(r"[|()]")
_GO_VERB: Final = lazy_pattern(r"%(?:%|[^A-Za-z%]*[A-Za-z]?)")
_GO_VALUE_VERB: Final = lazy_pattern(r"%[-+# 0]*\d*[vsdqxXfFeEgGtboO]")
# jsonpath: a quoted string, a filter `[?(…)]`, a quoted key in brackets (`['status']`).
_JP_STRING: Final = lazy_pattern(r"'(?:\\.|[^'\\])*'|\"(?:\\.|[^\"\\])*\"")
_JP_FILTER: Final = lazy_pattern(r"\[\s*\?\([^\]]*\)\s*\]")
_JP_KEY: Final = lazy_pattern(r"\[\s*(?:'([^']*)'|\"([^\"]*)\")\s*\]")
# A path's steps: a field, `..field`, `.*`, or a list's `[*]`, index or slice (never an
# unquoted name in brackets, which kubectl refuses).
_JP_PATH: Final = lazy_pattern(
    r"^[@$]?((?:\.\.?[A-Za-z_][\w-]*|\.\*|\[\s*(?:\*|[-\d:]+)\s*\]|\.)*)$"
)
# A key that is one field step as it stands; any other key (`config.yaml`, `a/b`) stands for a
# field step that names no section of the state (`_OPAQUE_KEY`): a key with a dot is one key,
# never a path (`{['data.x']}` prints the object's key "data.x", which is not its data).
_PLAIN_KEY: Final = lazy_pattern(r"[A-Za-z_][\w-]*")
_OPAQUE_KEY: Final = "._key"


def _key_step(key: str) -> str:
    """A constant map key as one field step of a path (`_PLAIN_KEY`, `_OPAQUE_KEY`)."""
    return "." + key if _PLAIN_KEY.fullmatch(key) else _OPAQUE_KEY


def _join(prefix: str, path: str) -> str:
    """A path printed under a ``range``/``with`` prefix (``.`` alone is the prefix itself)."""
    if path in ("", "."):
        return prefix
    return prefix + path


def _go_actions(template: str) -> list[str]:
    """The bodies of a go-template's ``{{…}}`` actions, trim markers and comments removed
    (a string may hold ``}}``: it is skipped over whole)."""
    actions: list[str] = []
    at = 0
    while (start := template.find("{{", at)) >= 0:
        index = start + 2
        opening = template[index:].lstrip("-").lstrip()
        if opening.startswith("/*"):  # a comment ends at its `*/`, strings or not
            close = template.find("*/", len(template) - len(opening))
            index = len(template) if close < 0 else close + 2
        while index < len(template) and not template.startswith("}}", index):
            string = _GO_STRING.match(template, index)
            index = string.end() if string is not None else index + 1
        body = template[start + 2 : index].strip()
        body = body.removeprefix("-").removesuffix("-").strip()
        if not (body.startswith("/*") and body.endswith("*/")):
            actions.append(body)
        at = index + 2
    return actions


def go_template_printed(template: str) -> list[str]:
    """The paths a go-template prints (module doc)."""
    printed: list[str] = []
    # each open block: the dot outside it and the dot inside it
    blocks: list[tuple[str, str]] = []
    dot = ""
    for body in _go_actions(template):
        words = _GO_STRING.sub(" ", body).split()
        if not words:
            continue
        head = words[0]
        if head == "end":
            dot = blocks.pop()[0] if blocks else ""
            continue
        if head == "else":
            outer = blocks[-1][0] if blocks else ""
            dot = outer
            rest = words[1:]
            if rest and rest[0] in ("with", "range"):
                dot = _block_dot(outer, " ".join(rest[1:]))
            continue
        if head in _GO_BLOCKS:
            inner = dot if head == "if" else _block_dot(dot, " ".join(words[1:]))
            blocks.append((dot, inner))
            dot = inner
            continue
        if head in _GO_SILENT or _GO_ASSIGNS.match(body):
            continue
        for root, path in _go_values_printed(body):
            printed.append(path.rstrip(".") if root else _join(dot, path))
    return printed


def _go_values_printed(body: str) -> list[tuple[str, str]]:
    """The fields (root marker, path) an action prints as values: the action is a bare field
    (``.status.replicas``), ``print``/``println`` of fields, ``printf`` whose format gives a
    field a value verb (``%v``, ``%d`` …), or ``index`` into a field. Any other function or a
    pipeline prints something computed from the state, not the state: ``{{printf "%T"
    .status}}``, ``{{not .status}}``, ``{{and .status false}}``, ``{{len .status}}``, ``{{.spec
    | len}}`` print a type name, a truth value or a count (SI red team 14, H11: each earned
    C-OE-002's state read)."""
    if _GO_COMPOSED.search(_GO_STRING.sub(" ", body)):
        return []  # a pipeline or a parenthesised call: its value is a function's
    words = _GO_WORD.findall(body)
    fields = [_go_field(word) for word in words]
    if len(words) == 1:
        return [fields[0]] if fields[0] is not None else []
    head, arguments = words[0], fields[1:]
    if head in ("print", "println"):
        return [field for field in arguments if field is not None]
    if head == "index":
        return _go_indexed(words[1], arguments[0], words[2:])
    if head == "printf" and _GO_STRING.fullmatch(words[1]):
        verbs = _GO_VERB.findall(words[1][1:-1])
        if any(verb != "%%" and not _GO_VALUE_VERB.fullmatch(verb) for verb in verbs):
            return []  # `%T`, a precision, an argument index …: not the value as it is
        given = len([verb for verb in verbs if verb != "%%"])
        return [field for field in arguments[1 : 1 + given] if field is not None]
    return []


def _go_indexed(word: str, field: tuple[str, str] | None, keys: list[str]) -> list[tuple[str, str]]:
    """``index X K…``: the field X's path under each key, each a field step (SI red team 15,
    H3: ``{{index . "kind"}}`` prints the kind, not the whole object, yet earned credit for
    its data). A key that is not a constant (a field, a variable, a function's value) names a
    field not known here, and X not a bare field is a value not known here: nothing counts."""
    if field is None:
        return []
    root, path = field
    path = "" if path == "." else path
    for key in keys:
        step = _go_key_step(key)
        if step is None:
            return []
        path += step
    return [(root, path or ".")]


def _go_key_step(word: str) -> str | None:
    """A constant key of ``index`` as a field step: a string (a map's key) or a non-negative
    integer (a list's index); None for anything else, or a string with an escape."""
    if word.isdigit():
        return f"[{word}]"
    if len(word) >= 2 and word[0] == word[-1] and word[0] in '"`':
        key = word[1:-1]
        if not key or (word[0] == '"' and "\\" in key):
            return None
        return _key_step(key)
    return None


def _go_field(word: str) -> tuple[str, str] | None:
    """A bare field word as (``$`` or ``""``, its path), else None."""
    field = _GO_BARE.fullmatch(word)
    return None if field is None else (field[1], field[2])


def _block_dot(dot: str, pipeline: str) -> str:
    """The dot inside ``with``/``range`` over ``pipeline``: its one field path, or ``None``'s
    stand-in ``"\\0"`` (a variable or a function's value: unknown, so nothing inside counts)."""
    pipeline = _GO_ASSIGNS.sub("", pipeline.strip()).strip()
    field = re.fullmatch(r"(\$?)((?:\.[A-Za-z_]\w*)+|\.)", pipeline)
    if field is None:
        return "\0"
    root, path = field.groups()
    return path.rstrip(".") if root else _join(dot, path)


def _jsonpath_actions(template: str) -> list[str]:
    """The bodies of a jsonpath template's ``{…}`` expressions; text outside them is literal."""
    actions: list[str] = []
    at = 0
    while (start := template.find("{", at)) >= 0:
        index = start + 1
        while index < len(template) and template[index] != "}":
            string = _JP_STRING.match(template, index)
            index = string.end() if string is not None else index + 1
        actions.append(template[start + 1 : index].strip())
        at = index + 1
    return actions


def _jsonpath_path(expression: str) -> str | None:
    """One jsonpath expression as a field path (``[?(…)]`` read as every element, a quoted
    key as a field), or None where it prints no field of the object (a quoted literal)."""
    expression = _JP_FILTER.sub("[*]", expression)
    keys = [key.group(1) or key.group(2) or "" for key in _JP_KEY.finditer(expression)]
    if any(not key for key in keys):
        return None  # `['']`: no field of the object
    expression = _JP_KEY.sub(lambda key: _key_step(key.group(1) or key.group(2)), expression)
    if _JP_STRING.search(expression) or not expression:
        return None
    if _JP_PATH.fullmatch(expression) is None:
        return None
    path = expression.lstrip("@$")
    # `[0]` or `[*]` of the object itself: kubectl's object is a map, which has no index
    return None if path.startswith("[") else path


def jsonpath_printed(template: str) -> list[str]:
    """The paths a kubectl jsonpath template prints (module doc)."""
    printed: list[str] = []
    ranges: list[str] = []
    for body in _jsonpath_actions(template):
        if body == "end":
            if ranges:
                ranges.pop()
            continue
        if body.startswith(("range ", "range\t")):
            path = _jsonpath_path(body[len("range") :].strip())
            ranges.append("\0" if path is None else _join(ranges[-1] if ranges else "", path))
            continue
        path = _jsonpath_path(body) if body else ""  # `{}` prints the object, as `{@}`
        if path is None:
            continue
        absolute = body.startswith("$")
        printed.append(path if absolute or not ranges else _join(ranges[-1], path))
    return printed


def custom_columns_printed(spec: str) -> list[str]:
    """The paths ``custom-columns=HEADER:PATH,…`` prints (a header is literal text; kubectl
    reads each path as a relaxed jsonpath: braces and the leading dot optional)."""
    printed: list[str] = []
    for column in spec.split(","):
        _, colon, path = column.partition(":")
        path = path.strip()
        if not colon or not path:
            continue  # no path: a column kubectl refuses or leaves empty, no field printed
        if path.startswith("{") and path.endswith("}"):
            path = path[1:-1].strip()
        if path and not path.startswith((".", "[", "@", "$")):
            path = "." + path
        found = _jsonpath_path(path)
        if found is not None:
            printed.append(found)
    return printed


__all__ = ["custom_columns_printed", "go_template_printed", "jsonpath_printed"]
