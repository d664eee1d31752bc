"""Opaque Drive page tokens over the HTTP face (red team 28, F1).

The laboratory's own page token names the last file id served (`lab/_gateway.py`: "k" and the
id in hex), which keeps the Drive replay exact from the log. Handed to an importer as it is, the
token *is* the id: an answer masked to `fields=nextPageToken,files(name)` shows no id, and its
entry's `shown_ids` says so, while the importer reads each page's id from its token — "what the
answer showed" would under-count what it learnt. So the HTTP face hands out an opaque token, an
HMAC of the laboratory's token under the run's key, and reads back only tokens it handed out; the
log keeps the laboratory's token (`readable`), so it stays replayable.

The key is the run's secret and deterministic (same inputs, same answers): derived from the
sha256 of the run's corpus manifest, which covers the hidden answer key and which the sandboxed
importer cannot read (`run_key`). Limit: an importer that holds the corpus (a public one, or one
regenerated from a public seed) can compute the key — and then holds its ids anyway.
"""

from __future__ import annotations

import hashlib
import hmac
import threading

_OPAQUE_PREFIX = "p"
# What the gateway is given for a token this face never handed out: never a well-formed lab
# token, so the listing is refused (`InvalidArgument`, 400) and logged with what was sent.
_UNKNOWN_PREFIX = "unknown:"


# The key where no corpus names one (a lab built by hand, as the tests do): fixed, so answers
# stay deterministic; every run of an importer (`pilot run --agent-cmd`, `pilot serve`) is
# given its corpus's key.
_NO_CORPUS_KEY = hashlib.sha256(b"provebench page tokens: no corpus").digest()


def run_key(manifest_sha256: str) -> bytes:
    """The page-token key of a run over the corpus whose manifest has this sha256 (hex)."""
    return hmac.new(
        bytes.fromhex(manifest_sha256), b"provebench page tokens", hashlib.sha256
    ).digest()


class PageTokens:
    """One run's opaque page tokens: `opaque` for an answer, `lab_token` for a request."""

    __slots__ = ("_issued", "_lock", "_secret")

    def __init__(self, key: bytes | None = None) -> None:
        self._secret = key if key is not None else _NO_CORPUS_KEY
        self._issued: dict[str, str] = {}  # opaque -> the laboratory's token
        self._lock = threading.Lock()

    def opaque(self, lab_token: str) -> str:
        mac = hmac.new(self._secret, lab_token.encode("utf-8", "surrogatepass"), hashlib.sha256)
        token = _OPAQUE_PREFIX + mac.hexdigest()[:40]
        with self._lock:
            self._issued[token] = lab_token
        return token

    def lab_token(self, sent: str | None) -> str | None:
        """The laboratory's token for a `pageToken` sent (None: none sent). A token this face
        did not hand out (forged, or the laboratory's own form) names no position."""
        if sent is None:
            return None
        with self._lock:
            known = self._issued.get(sent)
        return known if known is not None else _UNKNOWN_PREFIX + sent

    def readable(self, sent: list[str]) -> list[str]:
        """`pageToken` values as the log records them: the laboratory's tokens, never the
        run's opaque ones (whose bytes depend on the run's secret)."""
        with self._lock:
            return [self._issued.get(value, value) for value in sent]


__all__ = ["PageTokens", "run_key"]
