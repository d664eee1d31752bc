"""OAuth for the emulator: a fake service account and the JWT bearer grant (RFC 7523).

The laboratory generates an RSA key per run and writes a service-account JSON file whose
`token_uri` is the emulator's `/token`. google-auth signs a JWT with that key and posts it as
`grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer`; the emulator verifies the RS256
signature, the issuer, the time window and the audience, and answers an opaque access token. The
audience must be the token URI the lab wrote or Google's own token endpoint, which google-auth
puts in every service-account assertion whatever the `token_uri` (it posts to `token_uri`).
Every other route requires `Authorization: Bearer <token>`. Tokens and assertions
never enter the log (they are random and carry wall-clock times).
"""

from __future__ import annotations

import base64
import binascii
import secrets
import threading
import time
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa

from provebench._canonical import canonical_json, write_atomic
from provebench._jsonfile import loads_bounded

JWT_BEARER_GRANT = "urn:ietf:params:oauth:grant-type:jwt-bearer"
TOKEN_LIFETIME_SEC = 3600
CLIENT_EMAIL = "importer@provebench-lab.iam.gserviceaccount.com"
# Leeway for the assertion's iat/exp against this machine's clock (the client is on it too).
_CLOCK_LEEWAY_SEC = 300
GOOGLE_TOKEN_ENDPOINT = "https://oauth2.googleapis.com/token"
_MAX_ASSERTION_BYTES = 16 * 1024


def _b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class ServiceAccount:
    """The run's fake service account: its key, its JSON file, and the tokens it was issued."""

    def __init__(self, token_uri: str) -> None:
        self.token_uri = token_uri
        self.key_id = secrets.token_hex(20)
        self._key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        self._public = self._key.public_key()
        self._tokens: set[str] = set()
        self._lock = threading.Lock()

    def info(self) -> dict[str, Any]:
        """The service-account JSON, in the layout Google's console downloads."""
        pem = self._key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        ).decode("ascii")
        return {
            "type": "service_account",
            "project_id": "provebench-lab",
            "private_key_id": self.key_id,
            "private_key": pem,
            "client_email": CLIENT_EMAIL,
            "client_id": "100000000000000000000",
            "auth_uri": self.token_uri,
            "token_uri": self.token_uri,
            "universe_domain": "googleapis.com",
        }

    def write(self, path: Path) -> None:
        write_atomic(path, canonical_json(self.info()))
        path.chmod(0o600)

    def exchange(self, grant_type: str | None, assertion: str | None) -> str | None:
        """An access token for a valid JWT bearer grant, or None."""
        if grant_type != JWT_BEARER_GRANT or not assertion:
            return None
        if len(assertion) > _MAX_ASSERTION_BYTES or not self._valid_assertion(assertion):
            return None
        token = "ya29.lab-" + secrets.token_urlsafe(32)
        with self._lock:
            self._tokens.add(token)
        return token

    def authorized(self, header: str | None) -> bool:
        if not header or not header.startswith("Bearer "):
            return False
        with self._lock:
            return header[len("Bearer ") :].strip() in self._tokens

    def _valid_assertion(self, assertion: str) -> bool:
        parts = assertion.split(".")
        if len(parts) != 3:
            return False
        try:
            header = loads_bounded(_b64url_decode(parts[0]))  # too deep: a ValueError too
            claims = loads_bounded(_b64url_decode(parts[1]))
            signature = _b64url_decode(parts[2])
        except (ValueError, binascii.Error):
            return False
        if not isinstance(header, dict) or not isinstance(claims, dict):
            return False
        if header.get("alg") != "RS256" or header.get("kid") not in (None, self.key_id):
            return False
        signed = f"{parts[0]}.{parts[1]}".encode("ascii")
        try:
            self._public.verify(signature, signed, padding.PKCS1v15(), hashes.SHA256())
        except InvalidSignature:
            return False
        if claims.get("aud") not in (self.token_uri, GOOGLE_TOKEN_ENDPOINT):
            return False
        if claims.get("iss") != CLIENT_EMAIL:
            return False
        now = time.time()
        issued, expires = claims.get("iat"), claims.get("exp")
        if not isinstance(issued, int | float) or not isinstance(expires, int | float):
            return False
        return issued - _CLOCK_LEEWAY_SEC <= now <= expires + _CLOCK_LEEWAY_SEC


__all__ = ["CLIENT_EMAIL", "JWT_BEARER_GRANT", "TOKEN_LIFETIME_SEC", "ServiceAccount"]
