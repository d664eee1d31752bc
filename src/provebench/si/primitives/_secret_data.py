"""A Secret's values as Kubernetes holds them (core/v1 Secret: ``data`` is the base64 of each
value's bytes; ``stringData`` is write-only plain text the API server merges into ``data``,
encoded, a ``stringData`` key winning over the same ``data`` key).

Both estates keep a Secret as the API shows it: ``data`` base64, once — as the published
profile declares it (``DB_PASSWORD: c3VwZXItc2VjcmV0LXBhc3N3b3Jk``) — and give a process the
decoded text (issue 44: the physical estate took the declared base64 for the plain value, showed
its base64 again and printed ``c3Vw…`` as the variable's value). A value the API server would
refuse (not base64) is refused where it is declared or written, naming the field; a value
whose bytes are not UTF-8 text is refused too, as the estates hand a process text (a limit:
docs/si-profile.md, "Secrets").
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Mapping
from typing import Any


def encoded(text: str) -> str:
    """The ``data`` value of the plain ``text`` (a ``stringData`` value, a literal)."""
    return base64.b64encode(text.encode("utf-8")).decode("ascii")


def data_problem(value: object) -> str | None:
    """Why ``value`` is no Secret ``data`` value the estates hold, or None: it must be a
    string of padded standard base64 (as the API server decodes it) of UTF-8 text."""
    if not isinstance(value, str):
        return "must be a string (the base64 of the value)"
    try:
        base64.b64decode(value, validate=True).decode("utf-8")
    except UnicodeDecodeError:  # a ValueError too: first
        return "is base64 of bytes that are not UTF-8 text, which the estates do not hold"
    except (binascii.Error, ValueError):
        # the value is not repeated: it is a secret, whatever its spelling
        return "is not base64: a Secret's data is the base64 of each value (stringData: plain)"
    return None


def decoded(value: str) -> str:
    """The text a process reads from the ``data`` value ``value`` (checked: `data_problem`)."""
    return base64.b64decode(value, validate=True).decode("utf-8")


def canonical(value: str) -> str:
    """``value`` as the API server shows it after a write: the base64 of its decoded bytes."""
    return encoded(decoded(value))


def secret_problems(fields: Mapping[str, Any]) -> list[tuple[tuple[str, str], str]]:
    """Each field of a Secret's declared ``data`` / ``stringData`` the API server would refuse
    (or the estates cannot hold), as ((field, key), why); ``("data", "")`` for a field that is
    no mapping of names to values."""
    problems: list[tuple[tuple[str, str], str]] = []
    for field in ("data", "stringData"):
        given = fields.get(field)
        if given is None:
            continue
        if not isinstance(given, Mapping):
            problems.append(((field, ""), "must be a mapping of keys to values"))
            continue
        for name, value in given.items():
            if field == "data":
                why = data_problem(value)
            else:
                why = None if isinstance(value, str) else "must be a string (the plain value)"
            if why is not None:
                problems.append(((field, str(name)), why))
    return problems


def stored_secret(fields: Mapping[str, Any]) -> dict[str, Any]:
    """A Secret's declared fields as the API server stores them: ``data`` each value's
    canonical base64, with ``stringData`` merged in encoded (its key wins), and no
    ``stringData``. The fields must have no `secret_problems`."""
    stored = {k: v for k, v in fields.items() if k != "stringData"}
    data = {str(k): canonical(v) for k, v in (fields.get("data") or {}).items()}
    for name, text in (fields.get("stringData") or {}).items():
        data[str(name)] = encoded(text)
    if data or "data" in fields:
        stored["data"] = data
    return stored


def secret_write(given: Mapping[str, Any]) -> tuple[dict[str, Any], str | None]:
    """A create's fields or a merge patch of a Secret as the API server applies it: each
    ``data`` value its canonical base64 (null: the key removed), each ``stringData`` value
    merged into ``data`` encoded (its key winning; null: nothing, as ``stringData`` is never
    stored), no ``stringData`` left; or, with the write unchanged, why it is refused (a
    ``data`` value that is not base64 of text, a ``stringData`` value that is no string)."""
    written = {k: v for k, v in given.items() if k != "stringData"}
    merged: dict[str, Any] = {}
    for field in ("data", "stringData"):
        held = given.get(field)
        if held is None:
            continue
        if not isinstance(held, Mapping):
            return dict(given), f"{field} must be an object"
        for name, value in held.items():
            if value is None:
                if field == "data":
                    merged[str(name)] = None
                continue
            why = data_problem(value) if field == "data" else None
            if field == "stringData" and not isinstance(value, str):
                why = "must be a string (the plain value)"
            if why is not None:
                return dict(given), f"{field}.{name} {why}"
            merged[str(name)] = canonical(value) if field == "data" else encoded(value)
    if merged or isinstance(given.get("data"), Mapping):
        written["data"] = merged
    return written, None


__all__ = [
    "canonical",
    "data_problem",
    "decoded",
    "encoded",
    "secret_problems",
    "secret_write",
    "stored_secret",
]
