"""Pseudonymisation rule `pseudonym/1`: production identifiers never leave the capture (pilot §2,
§16 "production identifiers and personal data are not published").

Every identifier is replaced by a keyed pseudonym, HMAC-SHA-256 under an operator-held key of at
least 32 bytes, with a domain label per kind of value (so a phone number and a file id that
happen to be equal get unrelated pseudonyms). The same value under the same key always gets the
same pseudonym, which is what lets consecutive snapshots be compared; without the key nobody can
tell which real value a pseudonym stands for, nor test a guess.

Where the published grammar (`call-name-grammar/1`) needs a shape, the pseudonym keeps it, so a
name admissible before is admissible after, with the same row shape, and a refused name is
refused for the same reason:

| value | pseudonym |
|---|---|
| file id | `p` + 24 base32 characters: a valid id under `admissibility/1` |
| folder id | `d` + 24 base32 characters |
| phone (7–15 digits, first not 0) | as many digits, the first not 0: still phone-shaped |
| manager code `M` + 3 digits | a listed code: a keyed permutation of the table; else unlisted |
| the name's free-text tag | `t` + 12 hex digits |
| a name of the grammar's shape | direction, timestamp, extension kept; the rest as above |
| a name too long | the same length, keyed letters: still too long |
| a name with a forbidden character | a keyed token followed by that character |
| any other name | a keyed token ending `.bin`: still not conforming |
| metadata direction, phone, code | `in`/`out` and shaped values as above; other text a token |

Kept as captured: the call's timestamp (the register's ordering and time rule need it), mime
type, size, duration and creation time. docs/pilot-shadow.md lists what they may still reveal.

The key itself never enters a snapshot, a corpus, a run or a bundle: only `key_check`, a keyed
digest of a fixed label, which tells a later capture made with another key (refused) without
revealing the key.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
from pathlib import Path

from provebench._errors import ProvebenchError
from provebench.pilot.corpus import CallMetadata, DriveFile
from provebench.pilot.rules import (
    forbidden_character,
    manager_mapping,
    name_shape,
    parse_name_fields,
)
from provebench.pilot.rules._grammar import NameRejection

PSEUDONYM_VERSION = "pseudonym/1"
MIN_KEY_BYTES = 32
_PHONE = re.compile(r"[1-9][0-9]{6,14}", re.ASCII)
_CODE = re.compile(r"M[0-9]{3}", re.ASCII)
_KEY_TEXT = re.compile(r"[0-9a-f]+")
_KEPT_DIRECTIONS = frozenset({"in", "out"})


def new_key_text() -> str:
    """A fresh key as the key file holds it: 64 lowercase hex digits and a newline."""
    return secrets.token_hex(MIN_KEY_BYTES) + "\n"


def read_key(path: Path) -> bytes:
    """The key in `path` (hex text, at least 32 bytes); one-line error otherwise. The key's
    bytes are never echoed."""
    try:
        text = path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        raise ProvebenchError("no such key file", path=path, field="--key-file") from None
    except (OSError, UnicodeDecodeError) as error:
        raise ProvebenchError(
            f"cannot read the key file ({type(error).__name__})", path=path, field="--key-file"
        ) from None
    if not _KEY_TEXT.fullmatch(text) or len(text) % 2:
        raise ProvebenchError(
            "a key file holds lowercase hex digits (make one with `provebench pilot shadow-key`)",
            path=path,
            field="--key-file",
        )
    key = bytes.fromhex(text)
    if len(key) < MIN_KEY_BYTES:
        raise ProvebenchError(
            f"the key has {len(key)} bytes, at least {MIN_KEY_BYTES} are needed",
            path=path,
            field="--key-file",
        )
    return key


class Pseudonymiser:
    """`pseudonym/1` under one key."""

    def __init__(self, key: bytes) -> None:
        if len(key) < MIN_KEY_BYTES:
            raise ValueError(f"a pseudonymisation key has at least {MIN_KEY_BYTES} bytes")
        self._key = key
        self._permutation: dict[str, str] | None = None

    def _digest(self, domain: str, value: str) -> bytes:
        message = domain.encode("ascii") + b"\x00" + value.encode("utf-8", "surrogatepass")
        return hmac.new(self._key, message, hashlib.sha256).digest()

    def _number(self, domain: str, value: str) -> int:
        return int.from_bytes(self._digest(domain, value), "big")

    @property
    def key_check(self) -> str:
        """Identifies the key without revealing it (recorded with every capture)."""
        return self._digest("key-check", PSEUDONYM_VERSION).hex()[:32]

    def file_id(self, value: str) -> str:
        return "p" + _base32(self._digest("file-id", value))

    def folder_id(self, value: str) -> str:
        return "d" + _base32(self._digest("folder-id", value))

    def phone(self, digits: str) -> str:
        """As many digits as `digits`, the first not 0 (the grammar's phone stays a phone)."""
        number, length = self._number("phone", digits), len(digits)
        rest = number % 10 ** (length - 1)
        first = 1 + (number // 10 ** (length - 1)) % 9
        return f"{first}{rest:0{length - 1}d}"

    def manager_code(self, code: str) -> str:
        """A code the mapping table lists goes to a listed code by a keyed permutation of the
        table (one manager, one pseudonym); any other code to a keyed code the table does not
        list: the row's manager name keeps its standing, mapped or `(unmapped)`."""
        listed = self._listed_codes()
        if code in listed:
            return listed[code]
        counter = 0
        while True:
            candidate = f"M{self._number('manager', f'{code}/{counter}') % 1000:03d}"
            if candidate not in listed:
                return candidate
            counter += 1

    def _listed_codes(self) -> dict[str, str]:
        if self._permutation is None:
            codes = sorted(manager_mapping())
            shuffled = sorted(codes, key=lambda c: self._digest("manager-table", c))
            self._permutation = dict(zip(codes, shuffled, strict=True))
        return self._permutation

    def tag(self, text: str) -> str:
        return "t" + self._digest("tag", text).hex()[:12]

    def token(self, domain: str, text: str) -> str:
        return "x" + self._digest(domain, text).hex()[:16]

    def name(self, name: str) -> str:
        """A name with the same standing under the grammar (admissible, or refused for the same
        reason), carrying no identifier of the original."""
        shape = name_shape(name)
        if shape is not None:
            tag = shape.get("tag")
            rewritten = (
                f"{shape['direction']}_{self.phone(shape['phone'])}_{shape['date']}T"
                f"{shape['time']}{shape['offset']}_{self.manager_code(shape['manager'])}"
                + ("" if tag is None else f"_{self.tag(tag)}")
                + f".{shape['ext']}"
            )
        else:
            token = self.token("name", name)
            forbidden = forbidden_character(name)
            if len(name) > 255:
                rewritten = token + "x" * (len(name) - len(token))
            elif forbidden is not None:
                rewritten = token + forbidden
            else:
                rewritten = token + ".bin"
        if _standing(rewritten) != _standing(name):  # a defect of this rule, never data
            raise AssertionError("pseudonym/1 changed a name's standing under the grammar")
        return rewritten

    def metadata(self, metadata: CallMetadata | None) -> CallMetadata | None:
        if metadata is None:
            return None
        direction, phone, code = metadata.direction, metadata.phone, metadata.manager_code
        return CallMetadata(
            direction=None
            if direction is None
            else direction
            if direction in _KEPT_DIRECTIONS
            else self.token("metadata-direction", direction),
            phone=None
            if phone is None
            else self.phone(phone)
            if _PHONE.fullmatch(phone)
            else self.token("metadata-phone", phone),
            manager_code=None
            if code is None
            else self.manager_code(code)
            if _CODE.fullmatch(code)
            else self.token("metadata-manager", code),
        )

    def file(self, file: DriveFile) -> DriveFile:
        """A captured file with every identifier replaced (times, sizes, types kept)."""
        return file.model_copy(
            update={
                "file_id": self.file_id(file.file_id),
                "name": self.name(file.name),
                "folder_id": self.folder_id(file.folder_id),
                "metadata": self.metadata(file.metadata),
            }
        )


def _base32(digest: bytes) -> str:
    return base64.b32encode(digest[:15]).decode("ascii").lower()


def _standing(name: str) -> str:
    parsed = parse_name_fields(name)
    return parsed.reason_code if isinstance(parsed, NameRejection) else "admissible"


__all__ = ["MIN_KEY_BYTES", "PSEUDONYM_VERSION", "Pseudonymiser", "new_key_text", "read_key"]
