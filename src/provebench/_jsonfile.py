"""Reading JSON input strictly, and naming the place of every problem.

Every JSON file provebench reads goes through here (evidence, verdicts, run records and
identities, checkpoints), so that bad input is refused the same way everywhere: bytes that are
not UTF-8, JSON that is not JSON (NaN, Infinity, numbers too large for a float), a key given twice
in one object (which of the two would a reader see?), text that is not Unicode (a lone surrogate
escape) and nesting deeper than `MAX_JSON_DEPTH` are all errors, each reported as one line naming
the file and — where it is known — the line and the field. Never a RecursionError: a deeply
nested document would otherwise exhaust the parser's or a later reader's recursion limit.
"""

from __future__ import annotations

import json
import math
import re
from itertools import accumulate
from pathlib import Path
from typing import Any

from provebench._errors import ProvebenchError

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_SURROGATE = re.compile("[\ud800-\udfff]")
# A lone surrogate reaches a parsed document only as itself or as a \uD800-\uDFFF escape.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_UTF8_BOM = b"\xef\xbb\xbf"
_SURROGATE_ESCAPE_BYTES = re.compile(rb"\\u[dD][89a-fA-F]")
# A key's closing quote with JSON whitespace before its colon (or text that looks so).
_SPACED_COLON = re.compile(rb'"[ \t\r\n]+:')
_SURROGATE_MESSAGE = "text holds a lone UTF-16 surrogate escape, which is not Unicode"

MAX_JSON_DEPTH = 200
"""Deepest nesting accepted in any JSON input: deeper documents are refused with a clear error
instead of exhausting the parser's or the validator's recursion limit."""


# A JSON string (escapes included) and anything that is not a bracket: what a measure of the
# nesting leaves out before it counts.
_JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_A_BRACKET = re.compile(r"[^\[\]{}]+")
_BRACKET_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def nested_too_deep(text: str | bytes, limit: int = MAX_JSON_DEPTH) -> bool:
    """Whether JSON text opens more than `limit` brackets at once (outside strings), measured
    before any parse: a parser refuses such a document only at Python's recursion limit, after
    descending that far (a body of 200,000 `[` took the Kubernetes face there), and a limit set
    higher, or a thread with a smaller stack, would take it further. Never refuses what the
    parse accepts: a document nested deeper than `limit` is refused by the parse's own rule as
    well (`_find_unreadable_value`). Linear, and in C but for one step per bracket; text with
    fewer brackets than `limit` is not scanned at all."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
    if text.count("[") + text.count("{") <= limit:
        return False
    brackets = _NOT_A_BRACKET.sub("", _JSON_STRING.sub("", text))
    return max(accumulate(map(_BRACKET_STEP.__getitem__, brackets)), default=0) > limit


class _DuplicateKeyError(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def member_path(parent: str, key: str | int) -> str:
    """`parent.key`, `parent[3]` or `parent["odd key"]` — a JSON path that cannot be misread."""
    if isinstance(key, int):
        return f"{parent}[{key}]"
    if _IDENTIFIER.match(key):
        return f"{parent}.{key}" if parent else key
    return f"{parent}[{json.dumps(key, ensure_ascii=False)}]"


def json_type_name(value: object) -> str:
    """The JSON name of a parsed value's type, for messages like `expected a string, got number`."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def _pairs_without_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)  # built in C; a key given twice makes it shorter than the pairs
    if len(result) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _DuplicateKeyError(key)
            seen.add(key)
    return result


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    value = float(text)
    if math.isinf(value):
        raise ValueError(f"number {text} is too large to represent")
    return value


def _decode(text: str) -> Any:
    """`json.loads` with the policy's hooks: a key given twice, NaN or Infinity, and a number
    too large for a float raise (the callers say so in their own terms)."""
    return json.loads(
        text,
        object_pairs_hook=_pairs_without_duplicates,
        parse_constant=_refuse_constant,
        parse_float=_finite_float,
    )


def parse_json_text(text: str, *, source: str, field: str | None = None) -> Any:
    """Parse JSON text strictly; `source` names the input in error messages.

    With `field`, the text is a JSON string embedded at that field of `source` (a tool call's
    `function.arguments`), and positions are reported inside that string.
    """
    try:
        document = _decode(text)
    except json.JSONDecodeError as error:
        if field is not None:
            raise ProvebenchError(
                f"not valid JSON (line {error.lineno} column {error.colno} of the string): "
                f"{error.msg}",
                path=source,
                field=field,
            ) from None
        raise ProvebenchError(
            f"malformed JSON at line {error.lineno} column {error.colno}: {error.msg}",
            path=source,
            line=error.lineno,
        ) from None
    except _DuplicateKeyError as error:
        raise ProvebenchError(
            f"key {error.key!r} given more than once in the same object",
            path=source,
            field=field or error.key,
        ) from None
    except ValueError as error:
        raise ProvebenchError(f"malformed JSON: {error}", path=source, field=field) from None
    except RecursionError:
        raise ProvebenchError(
            f"malformed JSON: nested deeper than {MAX_JSON_DEPTH} levels", path=source, field=field
        ) from None
    problem = _find_unreadable_value(document, text)
    if problem is not None:
        where, message = problem
        raise ProvebenchError(
            message, path=source, field=_joined_path(field or "", where) or "(document)"
        )
    return document


def loads_strict(text: str | bytes) -> Any:
    """JSON from outside that is not a whole input file (a request body, one line an importer
    wrote), read by this module's policy: bytes must be UTF-8, and NaN, Infinity, numbers too
    large for a float, a key given twice, a lone surrogate and nesting deeper than
    `MAX_JSON_DEPTH` are refused. Every refusal is a `ValueError` (one line), as malformed JSON
    is, so the caller's handling of bad JSON covers it; never `RecursionError`.
    """
    if isinstance(text, bytes):
        text = text.decode("utf-8")  # UnicodeDecodeError is a ValueError
    if nested_too_deep(text):
        raise ValueError(f"nested deeper than {MAX_JSON_DEPTH} levels")
    try:
        document = _decode(text)
    except _DuplicateKeyError as error:
        raise ValueError(f"key {recordable_text(repr(error.key))} given more than once") from None
    except RecursionError:
        raise ValueError(f"nested deeper than {MAX_JSON_DEPTH} levels") from None
    problem = _find_unreadable_value(document, text)
    if problem is not None:
        where, message = problem
        raise ValueError(f"{recordable_text(where)}: {message}" if where else message)
    return document


def loads_keeping_surrogates(text: bytes) -> Any:
    """`loads_strict` for a sandboxed worker's messages (`sandbox._channel`), except that a lone
    surrogate in a string is kept: the laboratory's gateway answers such a value as the
    caller's invalid argument and records it, exactly as for an importer in its own process.
    NaN, Infinity, an out-of-range number, a duplicate key and over-deep nesting are refused
    (`ValueError`), as there."""
    decoded = text.decode("utf-8")  # UnicodeDecodeError is a ValueError
    if nested_too_deep(decoded):
        raise ValueError(f"nested deeper than {MAX_JSON_DEPTH} levels")
    try:
        return _decode(decoded)
    except _DuplicateKeyError as error:
        raise ValueError(f"key {recordable_text(repr(error.key))} given more than once") from None
    except RecursionError:
        raise ValueError(f"nested deeper than {MAX_JSON_DEPTH} levels") from None


def read_json_file(path: str | Path) -> Any:
    """The parsed JSON document in a UTF-8 file (a leading byte-order mark is allowed)."""
    return parse_json_bytes(read_input_bytes(path), source=str(path))


def read_input_bytes(path: str | Path) -> bytes:
    """A file's bytes, or a one-line `ProvebenchError` naming it."""
    source = str(path)
    try:
        # `open`, unbuffered, and no `Path`: a batch reads a hundred thousand small files.
        with open(path, "rb", buffering=0) as file:  # noqa: PTH123
            return file.read()
    except FileNotFoundError:
        raise ProvebenchError("file not found", path=source) from None
    except IsADirectoryError:
        raise ProvebenchError("is a directory, not a file", path=source) from None
    except OSError as error:
        raise ProvebenchError(f"cannot read file: {error.strerror}", path=source) from None


def parse_json_bytes(data: bytes, *, source: str) -> Any:
    """The parsed JSON document in UTF-8 bytes (a leading byte-order mark is allowed)."""
    document = _plain_document(data)
    if document is not _NOT_PLAIN:
        return document
    if data.startswith(_UTF8_BOM):
        data = data[len(_UTF8_BOM) :]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise ProvebenchError(
            f"not UTF-8: byte 0x{data[error.start]:02x} at offset {error.start} ({error.reason})",
            path=source,
            line=line,
        ) from None
    if not text.strip():
        raise ProvebenchError("file is empty; expected a JSON document", path=source)
    return parse_json_text(text, source=source)


_NOT_PLAIN: Any = object()


def _plain_document(data: bytes) -> Any:
    """The document, when the bytes are plainly inside the policy; else `_NOT_PLAIN`, and the
    caller reads them the full way, which gives the same document or names the problem.

    The full way (`json.loads` with a Python hook on every object) costs several times the
    parse itself, and a batch of recorded transcripts is mostly parsing (docs/si-scoring.md §6).
    Here pydantic-core's parser reads the bytes (invalid UTF-8 or JSON, NaN, Infinity and
    nesting past its own limit are errors there), and the rest of the policy is checked as
    `looks_plain` and `key_count` say.
    """
    from pydantic_core import from_json

    if not looks_plain(data):
        return _NOT_PLAIN
    try:
        document = from_json(data, allow_inf_nan=False)
    except ValueError:
        return _NOT_PLAIN
    if key_count(data) != member_count(document):
        return _NOT_PLAIN
    return document


def looks_plain(data: bytes) -> bool:
    """Whether JSON bytes can be read on a fast road (another parser than the policy's own),
    with `key_count` and `member_count` checked after it. Conservative: whatever merely looks
    like a problem takes the full way, which finds it or gives the same document.

    * a key given twice: every key must be a string directly followed by its colon (no
      whitespace between), so that `key_count` counts the keys;
    * a lone surrogate: no `\\uD8xx`-`\\uDFxx` escape at all (raw surrogates are not UTF-8);
    * nesting: fewer brackets than `MAX_JSON_DEPTH`.
    """
    return not (
        data.count(b"[") + data.count(b"{") >= MAX_JSON_DEPTH
        or (b"\\u" in data and _SURROGATE_ESCAPE_BYTES.search(data) is not None)
        or _SPACED_COLON.search(data) is not None
    )


def key_count(data: bytes) -> int:
    """The `":` pairs of JSON bytes that `looks_plain` passed: their keys (each directly
    followed by its colon), plus any string that begins with a colon or holds `\\":`. It equals
    the `member_count` of what was read only when no key was given twice (a repeated key leaves
    fewer members) and every such string is absent."""
    return data.count(b'":')


def member_count(value: Any) -> int:
    """How many members the JSON objects behind a value read from JSON hold, all levels
    together: a dict's keys, and a pydantic model's fields that the input gave
    (`model_fields_set`). -1 when a number is not finite (too large for a float; or NaN or
    Infinity that a validator let through) or a value is of a type JSON does not make."""
    count = 0
    pending = [value]
    while pending:
        value = pending.pop()
        kind = type(value)
        if kind is dict:
            count += len(value)
            children: Any = value.values()
        elif kind is list:
            children = value
        elif kind is float:
            if not math.isfinite(value):
                return -1
            continue
        elif kind is str or kind is int or kind is bool or value is None:
            continue
        else:
            given = getattr(value, "model_fields_set", None)  # a pydantic model
            if given is None:
                return -1
            count += len(given)
            fields = value.__dict__
            children = [fields[name] for name in given]
        for child in children:
            kind = type(child)
            if kind is str or kind is int or kind is bool or child is None:
                continue
            if kind is float:
                if not math.isfinite(child):
                    return -1
                continue
            pending.append(child)
    return count


def json_problem(value: object) -> str | None:
    """Why `value` could not be written as JSON and read back by `parse_json_text`, or None.

    A value provebench records (an agent's tool arguments, its final answer) must survive the
    round trip: it is written as canonical JSON and scored again from the file, so NaN, an
    infinity, an integer too long to print, a lone surrogate or nesting deeper than
    `MAX_JSON_DEPTH` is refused where it enters, not met when the output is written.
    """
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as error:
        return recordable_text(str(error))
    except RecursionError:
        return f"nested deeper than {MAX_JSON_DEPTH} levels"
    try:
        parse_json_text(text, source="value")
    except ProvebenchError as error:
        where = error.field if error.field not in (None, "(document)") else None
        return recordable_text(error.message if where is None else f"{where}: {error.message}")
    return None


def text_problem(value: object) -> str | None:
    """`json_problem` for a value that must be text (a tool name, an answer): why it is not
    recordable text, or None."""
    return json_problem(value) if isinstance(value, str) else "not a string"


def recordable_text(message: str) -> str:
    """`message` with any lone surrogate spelled out, so that it can be recorded in turn (a
    refused call's error, an agent's exception text may hold the very surrogate it is about)."""
    return message.encode("utf-8", "backslashreplace").decode("utf-8")


def _joined_path(parent: str, child: str) -> str:
    if not parent or not child:
        return parent or child
    return parent + child if child.startswith("[") else f"{parent}.{child}"


def _within_depth(document: Any) -> bool:
    """Whether no value is nested `MAX_JSON_DEPTH` levels deep (the root is level 1): the same
    rule as `_locate_unreadable_value`, without building a path for every value."""
    pending: list[tuple[Any, int]] = [(document, 0)]
    while pending:
        value, depth = pending.pop()
        if depth >= MAX_JSON_DEPTH:
            return False
        children = value.values() if isinstance(value, dict) else value
        if children and depth + 1 >= MAX_JSON_DEPTH:
            return False
        pending.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return True


def _find_unreadable_value(document: Any, text: str | None = None) -> tuple[str, str] | None:
    """The path of the first value no scorer could read faithfully, and why.

    With the document's ``text``: when the text holds no surrogate (raw, or as a ``\\uD8xx``
    escape) and the nesting is within the limit, nothing is unreadable, and no path is built —
    the common case costs a walk over the containers only."""
    if not isinstance(document, dict | list) or text is None or _may_hold_surrogate(text):
        return _locate_unreadable_value(document)
    # Nesting is bounded by the number of brackets, counted in C; only a text with that many
    # needs the walk.
    if text.count("[") + text.count("{") < MAX_JSON_DEPTH or _within_depth(document):
        return None
    return _locate_unreadable_value(document)


def _may_hold_surrogate(text: str) -> bool:
    if "\\u" in text and _SURROGATE_ESCAPE.search(text):
        return True
    return not text.isascii() and _SURROGATE.search(text) is not None


def _locate_unreadable_value(document: Any) -> tuple[str, str] | None:
    """The path of the first value no scorer could read faithfully, and why."""
    # Iterative, so a deeply nested document cannot exhaust the stack.
    pending: list[tuple[str, int, Any]] = [("", 0, document)]
    while pending:
        where, depth, value = pending.pop()
        if depth >= MAX_JSON_DEPTH:  # the root is level 1
            shown = where if len(where) <= 80 else where[:80] + "…"
            return shown, f"nested deeper than {MAX_JSON_DEPTH} levels"
        if isinstance(value, str):
            if _SURROGATE.search(value):
                return where, _SURROGATE_MESSAGE
        elif isinstance(value, dict):
            for key, item in value.items():
                child = member_path(where, key)
                if _SURROGATE.search(key):
                    return child, _SURROGATE_MESSAGE
                pending.append((child, depth + 1, item))
        elif isinstance(value, list):
            pending.extend((member_path(where, i), depth + 1, item) for i, item in enumerate(value))
    return None


__all__ = [
    "MAX_JSON_DEPTH",
    "json_problem",
    "json_type_name",
    "key_count",
    "loads_keeping_surrogates",
    "loads_strict",
    "looks_plain",
    "member_count",
    "member_path",
    "nested_too_deep",
    "parse_json_bytes",
    "parse_json_text",
    "read_input_bytes",
    "read_json_file",
    "recordable_text",
    "text_problem",
]
