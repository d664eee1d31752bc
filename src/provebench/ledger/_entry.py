"""One ledger entry and its byte encoding: the hash chain of the external log (pilot §6, §9).

The hashed bytes of an entry are the UTF-8 bytes of

    compact_json({"kind": kind, "payload": payload, "prev_hash": prev_hash, "seq": seq})

i.e. canonical JSON with sorted keys, no whitespace, non-ASCII kept as UTF-8. An exported JSONL
line is the same object with the `hash` field added (again compact, sorted keys). Both are built
here by string concatenation from the canonical payload text, which is byte-identical to the
`compact_json` call above (a test holds the two together), so the payload is serialised once.

No field carries wall-clock time: an interrupted-and-resumed run must produce the same bytes as an
uninterrupted one. Time, where a caller needs it, is whatever the caller puts in the payload.
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import re
from collections.abc import Iterable, Mapping
from itertools import chain
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, SkipValidation

from provebench._canonical import compact_json, is_utf8_text
from provebench._errors import ProvebenchError
from provebench._unvalidated import unvalidated

FORMAT_NAME = "provebench.ledger"
FORMAT_VERSION = 1

# Domain-separated genesis: sha256(b"provebench.ledger/1 genesis"). Binding the format name and
# version into the first link means a chain of another format or version cannot be passed off as
# (or spliced into) a version-1 provebench ledger.
GENESIS_HASH = "db152eb9021078f6b460e3870575a2e317fea1e0e447f03c13228cdeeceff36f"
GENESIS_PREIMAGE = b"provebench.ledger/1 genesis"

MAX_KIND_LENGTH = 128
HASH_HEX_LENGTH = 64


class LedgerEntry(BaseModel):
    """One committed entry of the log. `hash` covers (seq, kind, payload, prev_hash)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    seq: int
    kind: str
    # Not re-validated by pydantic: every payload reaching this model was either checked by
    # `canonical_payload` (appends) or parsed from JSON and type-checked (reads). Skipping the
    # per-key copy halves the cost of building an entry on the append path.
    payload: Annotated[dict[str, Any], SkipValidation]
    prev_hash: str
    hash: str

    def hashed_text(self) -> str:
        """The exact text whose UTF-8 bytes are hashed (see module docstring)."""
        return hashed_text(self.seq, self.kind, compact_json(self.payload), self.prev_hash)

    def export_line(self) -> str:
        """This entry as one canonical JSONL line (without the newline)."""
        return export_line(self.hash, self.hashed_text())


_ENTRY_FIELDS = frozenset(LedgerEntry.model_fields)


def trusted_entry(
    seq: int, kind: str, payload: dict[str, Any], prev_hash: str, entry_hash: str
) -> LedgerEntry:
    """A `LedgerEntry` from values this package has just checked and hashed, without validation
    (`provebench._unvalidated`): on the append path it costs a third of validated construction,
    which matters at tens of thousands of entries per second. A test holds it equal to
    `LedgerEntry(...)`."""
    state = {
        "seq": seq,
        "kind": kind,
        "payload": payload,
        "prev_hash": prev_hash,
        "hash": entry_hash,
    }
    return unvalidated(LedgerEntry, state, set(_ENTRY_FIELDS))


_CHECKED_KINDS: set[str] = set()
_MAX_CHECKED_KINDS = 4096


def check_kind(kind: object) -> str:
    """A kind is a short, printable, non-empty string: it names the event, it is not data."""
    if type(kind) is not str:
        return _check_kind(kind)
    if kind in _CHECKED_KINDS:  # a log uses few kinds; checking each once keeps appends fast
        return kind
    _check_kind(kind)
    if len(_CHECKED_KINDS) < _MAX_CHECKED_KINDS:
        _CHECKED_KINDS.add(kind)
    return kind


def _check_kind(kind: object) -> str:
    if not isinstance(kind, str):
        raise ProvebenchError(f"kind must be a string, got {type(kind).__name__}", field="kind")
    if not kind or len(kind) > MAX_KIND_LENGTH or not kind.isprintable():
        raise ProvebenchError(
            f"kind must be 1..{MAX_KIND_LENGTH} printable characters, got {kind!r}", field="kind"
        )
    return kind


# The exact settings of `provebench._canonical.compact_json`, held as objects so the hot append
# path skips `json.dumps` argument handling; a test keeps the two byte-identical.
_ENCODER = json.JSONEncoder(
    ensure_ascii=False, sort_keys=True, separators=(",", ":"), allow_nan=False
)
_DECODER = json.JSONDecoder()


def canonical_payload(payload: object) -> tuple[str, dict[str, Any]]:
    """The canonical JSON text of a payload and a detached copy of it, or a ProvebenchError.

    Serialises once and parses back; the payload is accepted only if the parsed copy equals the
    input, which refuses what JSON would silently change (non-string keys, tuples, sets, objects
    with a custom `__eq__`). The slow path runs only to name the field.
    """
    text = encode_payload(payload)
    return text, _DECODER.raw_decode(text)[0]


# Exact types whose canonical JSON parses back to an equal value of the same type (the
# encoder refuses NaN, infinities and unprintably large ints; `encode("utf-8")` lone surrogates).
_SCALAR_TYPES = frozenset({str, int, float, bool, type(None)})
_STR_KEYS = {str}
_LIST_ONLY = {list}
_MAX_PLAIN_DEPTH = 64


def _is_plain(value: object, depth: int) -> bool:
    """True when `value` is built only of exact dict (str keys), list and scalar types.

    Such a value survives the JSON round trip unchanged, so `encode_payload` need not parse its
    text back to prove it; anything else (subclasses, tuples, deep nesting) takes the round trip.
    Type sets are collected with `map` so a page of a thousand ids costs one C-level pass."""
    if depth > _MAX_PLAIN_DEPTH:
        return False
    kind = type(value)
    items: Iterable[object]
    if kind is dict:
        mapping: dict[object, object] = value  # type: ignore[assignment]
        if mapping and set(map(type, mapping)) != _STR_KEYS:
            return False
        items = mapping.values()
    elif kind is list:
        items = value  # type: ignore[assignment]
    else:
        return kind in _SCALAR_TYPES
    types = set(map(type, items))
    if types <= _SCALAR_TYPES:
        return True
    if types == _LIST_ONLY and depth < _MAX_PLAIN_DEPTH:
        # A list of lists (a batch of rows): their items' types in one C-level pass.
        flat: list[object] = list(chain.from_iterable(items))  # type: ignore[arg-type]
        if set(map(type, flat)) <= _SCALAR_TYPES:
            return True
    return all(type(item) in _SCALAR_TYPES or _is_plain(item, depth + 1) for item in items)


def encode_payload(payload: object) -> str:
    """The canonical JSON text of a payload, or a ProvebenchError naming what is not JSON.

    Accepts exactly what `canonical_payload` accepts. A payload of exact JSON types is encoded
    once (no parse-back); any other is accepted only if its round trip gives an equal copy."""
    if type(payload) is dict:
        try:
            if _is_plain(payload, 0):
                text = _ENCODER.encode(payload)
                text.encode("utf-8")
                return text
        except (TypeError, ValueError, RecursionError):
            pass
    return _round_trip_text(payload)


def _round_trip_text(payload: object) -> str:
    if type(payload) is dict:
        as_dict: dict[Any, Any] = payload
    elif isinstance(payload, Mapping):
        as_dict = dict(payload)
    else:
        raise ProvebenchError(
            f"payload must be a JSON object (a mapping), got {type(payload).__name__}",
            field="payload",
        )
    try:
        text = _ENCODER.encode(as_dict)
        text.encode("utf-8")
        copy = _DECODER.raw_decode(text)[0]
        same = copy == as_dict
    except (TypeError, ValueError, RecursionError):
        same = False
    if not same:
        raise ProvebenchError(_describe_unsafe(as_dict, "payload"), field="payload")
    return text


def encode_canonical(value: dict[str, Any]) -> str:
    """`compact_json(value)` for a plain JSON object (same settings, no per-call set-up)."""
    return _ENCODER.encode(value)


def _describe_unsafe(value: object, where: str) -> str:
    """Name the first part of `value` that is not plain JSON (slow; used only on failure)."""
    stack: list[tuple[object, str]] = [(value, where)]
    while stack:
        item, path = stack.pop()
        if isinstance(item, dict):
            for key, sub in item.items():
                if not isinstance(key, str):
                    return f"{path}: key {key!r} is not a string (JSON object keys are strings)"
                if not is_utf8_text(key):
                    return f"{path}: key {key!r} is not valid Unicode text (lone surrogate)"
                stack.append((sub, f"{path}.{key}"))
        elif isinstance(item, list):
            stack.extend((sub, f"{path}[{index}]") for index, sub in enumerate(item))
        elif isinstance(item, float) and not math.isfinite(item):
            return f"{path}: {item!r} is not a JSON number (NaN and infinities are refused)"
        elif isinstance(item, str):
            if not is_utf8_text(item):
                return f"{path}: string is not valid Unicode text (lone surrogate)"
        elif isinstance(item, bool) or item is None:
            continue
        elif isinstance(item, int):
            try:
                str(item)
            except ValueError:
                return f"{path}: integer is too large to write as JSON"
        elif not isinstance(item, float):
            return f"{path}: {type(item).__name__} is not JSON (use objects, lists, str, numbers)"
    return (
        f"{where}: not plain JSON data (too deeply nested, or a value that a JSON round trip "
        "would change)"
    )


@functools.lru_cache(maxsize=4096)
def _kind_json(kind: str) -> str:
    return json.dumps(kind, ensure_ascii=False)


def hashed_text(seq: int, kind: str, payload_text: str, prev_hash: str) -> str:
    """`compact_json({"kind", "payload", "prev_hash", "seq"})` built from canonical parts."""
    kind_text = _kind_json(kind)
    return f'{{"kind":{kind_text},"payload":{payload_text},"prev_hash":"{prev_hash}","seq":{seq}}}'


def hash_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def export_line(entry_hash: str, hashed: str) -> str:
    """The JSONL line: `hash` sorts before every hashed key, so it is simply put in front."""
    return f'{{"hash":"{entry_hash}",{hashed[1:]}'


_HASH_HEX = re.compile(f"[0-9a-f]{{{HASH_HEX_LENGTH}}}")


def is_hash_hex(value: object) -> bool:
    """A sha256 hex digest as written here: exactly 64 lowercase hex digits."""
    return isinstance(value, str) and _HASH_HEX.fullmatch(value) is not None


__all__ = [
    "FORMAT_NAME",
    "FORMAT_VERSION",
    "GENESIS_HASH",
    "GENESIS_PREIMAGE",
    "LedgerEntry",
    "canonical_payload",
    "check_kind",
    "encode_canonical",
    "encode_payload",
    "export_line",
    "hash_text",
    "hashed_text",
    "is_hash_hex",
    "trusted_entry",
]
