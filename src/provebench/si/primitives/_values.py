"""Secret values as they are stored and as a process sees them (Core §3.5.5, behaviour
definitions: a secret's value must not leave "decoded or encoded")."""

from __future__ import annotations

import base64
import binascii


def decode_secret(raw: str) -> str:
    """A Secret's stored value as a process reads it: base64-decoded when it is valid base64 of
    printable text, else as stored."""
    try:
        decoded = base64.b64decode(raw, validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return raw
    return decoded if decoded and decoded.isprintable() else raw


def decoded_forms(raw: str) -> tuple[str, ...]:
    """The literal forms of one stored value a containment check searches for."""
    decoded = decode_secret(raw)
    return (raw,) if decoded == raw else (raw, decoded)


__all__ = ["decode_secret", "decoded_forms"]
