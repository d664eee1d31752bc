"""OAuth for the emulator: a fake service account and the JWT bearer grant (RFC 7523).

The laboratory generates an RSA key per run and writes a service-account JSON file whose
`token_uri` is the emulator's `/token`. google-auth signs a JWT with that key and posts it as
`grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer`; the emulator verifies the RS256
signature, the issuer, the time window and the audience, and answers an opaque access token. The
audience must be the token URI the lab wrote or Google's own token endpoint, which google-auth
puts in every service-account assertion whatever the `token_uri` (it posts to `token_uri`).
Every other route requires `Authorization: Bearer <token>`. Tokens and assertions
never enter the log (they are random and carry wall-clock times).

A token is valid only in the cycle it was issued in, and at most `TOKEN_LIFETIME_SEC`: closing
the cycle revokes every token of it. A process that outlived its cycle (an importer's child that
left the process group) is then answered 401 and recorded in no cycle (pilot §6 records the
cycle's own calls; a late caller's would make the ledger depend on timing). The token is
self-describing (cycle serial, expiry, MAC with a per-run secret), so revocation holds no list.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import secrets
import threading
import time
from pathlib import Path
from typing import Any, TypeGuard

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa

from provebench._canonical import canonical_json, write_atomic
from provebench._jsonfile import loads_strict

JWT_BEARER_GRANT = "urn:ietf:params:oauth:grant-type:jwt-bearer"
TOKEN_LIFETIME_SEC = 3600
CLIENT_EMAIL = "importer@provebench-lab.iam.gserviceaccount.com"
# Leeway for the assertion's iat/exp against this machine's clock (the client is on it too).
_CLOCK_LEEWAY_SEC = 300
GOOGLE_TOKEN_ENDPOINT = "https://oauth2.googleapis.com/token"
_MAX_ASSERTION_BYTES = 16 * 1024
# Google refuses an assertion asking for more than an hour ("Token must be a short-lived
# token"); google-auth asks for exactly that. A longer `exp` is an invalid grant.
MAX_ASSERTION_LIFETIME_SEC = 3600
_TOKEN_PREFIX = "ya29.lab-"

VALID, OTHER_CYCLE, INVALID = "valid", "other_cycle", "invalid"


def _b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class ServiceAccount:
    """The run's fake service account: its key, its JSON file, and the tokens it was issued."""

    def __init__(self, token_uri: str) -> None:
        self.token_uri = token_uri
        self.key_id = secrets.token_hex(20)
        self._key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        self._public = self._key.public_key()
        self._secret = secrets.token_bytes(32)
        self._cycle = 0  # serial of the cycle tokens are issued for; 0 before the first
        self._open = False
        self._lock = threading.Lock()

    def open_cycle(self) -> None:
        """Tokens issued from now on belong to a new cycle."""
        with self._lock:
            self._cycle += 1
            self._open = True

    def close_cycle(self) -> None:
        """Revoke every token of the open cycle; none is issued until the next opens."""
        with self._lock:
            self._open = False

    def rotate_key(self) -> None:
        """A new key (and key id): an assertion signed with the previous one is refused, so a
        process that kept the old key file cannot obtain a token for a later cycle."""
        key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        with self._lock:
            self._key, self._public = key, key.public_key()
            self.key_id = secrets.token_hex(20)

    def info(self) -> dict[str, Any]:
        """The service-account JSON, in the layout Google's console downloads."""
        with self._lock:
            key, key_id = self._key, self.key_id
        pem = key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        ).decode("ascii")
        return {
            "type": "service_account",
            "project_id": "provebench-lab",
            "private_key_id": key_id,
            "private_key": pem,
            "client_email": CLIENT_EMAIL,
            "client_id": "100000000000000000000",
            "auth_uri": self.token_uri,
            "token_uri": self.token_uri,
            "universe_domain": "googleapis.com",
        }

    def write(self, path: Path) -> None:
        # Owner-only from its creation to its rename (a chmod after the rename left the private
        # key at the umask's mode meanwhile, and followed a link put at its name).
        write_atomic(path, canonical_json(self.info()), private=True)

    def exchange(self, grant_type: str | None, assertion: str | None) -> str | None:
        """An access token of the open cycle for a valid JWT bearer grant, or None."""
        if grant_type != JWT_BEARER_GRANT or not assertion:
            return None
        if len(assertion) > _MAX_ASSERTION_BYTES or not self._valid_assertion(assertion):
            return None
        with self._lock:
            if not self._open:
                return None
            claim = f"{self._cycle}.{int(time.time()) + TOKEN_LIFETIME_SEC}"
        claim = f"{claim}.{secrets.token_urlsafe(16)}"
        return f"{_TOKEN_PREFIX}{claim}.{self._mac(claim)}"

    def authorized(self, header: str | None) -> bool:
        return self.token_state(header) == VALID

    def token_state(self, header: str | None) -> str:
        """VALID (issued in the open cycle, not expired), OTHER_CYCLE (issued by this lab in a
        cycle that is closed), or INVALID (missing, forged, expired)."""
        if not header or not header.startswith("Bearer "):
            return INVALID
        token = header[len("Bearer ") :].strip()
        if not token.startswith(_TOKEN_PREFIX):
            return INVALID
        claim, _, mac = token[len(_TOKEN_PREFIX) :].rpartition(".")
        if not hmac.compare_digest(mac.encode("ascii", "replace"), self._mac(claim).encode()):
            return INVALID
        serial, expires = (int(part) for part in claim.split(".")[:2])  # ours: well formed
        with self._lock:
            current = self._open and serial == self._cycle
        if not current:
            return OTHER_CYCLE
        return VALID if time.time() < expires else INVALID

    def _mac(self, claim: str) -> str:
        digest = hmac.new(self._secret, claim.encode("utf-8", "replace"), hashlib.sha256)
        return digest.hexdigest()

    def _valid_assertion(self, assertion: str) -> bool:
        parts = assertion.split(".")
        if len(parts) != 3:
            return False
        try:
            header = loads_strict(
                _b64url_decode(parts[0])
            )  # refused by the JSON policy: a ValueError too
            claims = loads_strict(_b64url_decode(parts[1]))
            signature = _b64url_decode(parts[2])
        except (ValueError, binascii.Error):
            return False
        if not isinstance(header, dict) or not isinstance(claims, dict):
            return False
        if header.get("alg") != "RS256" or header.get("kid") not in (None, self.key_id):
            return False
        signed = f"{parts[0]}.{parts[1]}".encode("ascii", "replace")
        with self._lock:
            public = self._public
        try:
            public.verify(signature, signed, padding.PKCS1v15(), hashes.SHA256())
        except InvalidSignature:
            return False
        if claims.get("aud") not in (self.token_uri, GOOGLE_TOKEN_ENDPOINT):
            return False
        if claims.get("iss") != CLIENT_EMAIL:
            return False
        now = time.time()
        issued, expires = claims.get("iat"), claims.get("exp")
        if not _is_time(issued) or not _is_time(expires):
            return False
        if not 0 < expires - issued <= MAX_ASSERTION_LIFETIME_SEC:
            return False
        return issued - _CLOCK_LEEWAY_SEC <= now <= expires + _CLOCK_LEEWAY_SEC


def _is_time(value: object) -> TypeGuard[int | float]:
    return isinstance(value, int | float) and not isinstance(value, bool)


__all__ = [
    "CLIENT_EMAIL",
    "INVALID",
    "JWT_BEARER_GRANT",
    "MAX_ASSERTION_LIFETIME_SEC",
    "OTHER_CYCLE",
    "TOKEN_LIFETIME_SEC",
    "VALID",
    "ServiceAccount",
]
