"""The laboratory key as a log's anchor signer and verifier (docs/attestation.md, "Keyed anchors").

A keyed anchor (`provebench.ledger._anchor`) is a raw Ed25519 signature by the laboratory key over
a short canonical statement; Ed25519 signatures are deterministic, so the same log under the same
key has the same bytes. The signer signs in memory, in the laboratory's process;
the verifier takes only a trusted public key.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from typing import Any

from provebench.attest._keys import TrustedKey
from provebench.attest._sslib import (
    CryptoSigner,
    Signature,
    UnverifiedSignatureError,
    VerificationError,
)

_NONCE_DOMAIN = b"provebench.pilot.run-nonce/1\n"


def anchor_signer(signer: CryptoSigner) -> Callable[[bytes], dict[str, str]]:
    """message -> {"keyid", "sig"} (hex), signed with `signer`."""

    def sign(message: bytes) -> dict[str, str]:
        signature = signer.sign(message)
        return {"keyid": signature.keyid, "sig": signature.signature}

    return sign


def anchor_verifier(trusted: TrustedKey) -> Callable[[bytes, Mapping[str, Any]], bool]:
    """(message, anchor) -> whether the anchor is `trusted`'s signature of the message."""
    key = trusted.key

    def verify(message: bytes, anchor: Mapping[str, Any]) -> bool:
        keyid, sig = anchor.get("keyid"), anchor.get("sig")
        if keyid != key.keyid or not isinstance(sig, str):
            return False
        try:
            key.verify_signature(Signature(keyid, sig), message)
        except (UnverifiedSignatureError, VerificationError, ValueError):
            return False
        return True

    return verify


def signer_key(signer: CryptoSigner, source: Any) -> TrustedKey:
    """The public half of `signer`, to verify what it signed (a resume checks its own anchors
    with the key it will sign with, not with a public key file read from disk)."""
    return TrustedKey(signer.public_key, source)


def run_nonce() -> str:
    """A new run's nonce: 32 random bytes from the operating system's secure source, drawn by
    the process that starts the run and recorded in the log's first entry, which every anchor
    of the run names (`run`: that entry's hash). Two runs, even of the same candidate on the
    same corpus under the same key, never share a first entry, so an anchor made in one never
    verifies in the other (red team round 10, A1: with a nonce derived from the identity, a
    second run's anchors verified over the first run's log; docs/attestation.md)."""
    return secrets.token_hex(32)


__all__ = ["anchor_signer", "anchor_verifier", "run_nonce", "signer_key"]
