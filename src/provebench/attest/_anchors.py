"""The laboratory key as a log's anchor signer and verifier (docs/attestation.md, "Keyed anchors").

A keyed anchor (`provebench.ledger._anchor`) is a raw Ed25519 signature by the laboratory key over
a short canonical statement; Ed25519 signatures are deterministic, so the same log under the same
key has the same bytes, resumed or not. The signer signs in memory, in the laboratory's process;
the verifier takes only a trusted public key.
"""

from __future__ import annotations

import hashlib
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


def run_nonce(signer: CryptoSigner, identity_text: str) -> str:
    """A run's nonce, fixed at its start: sha256 of the laboratory's signature over the run's
    identity. Unpredictable without the key, and the same for the same run under the same key,
    so that a run's published bytes stay a function of its inputs (docs/attestation.md)."""
    signature = signer.sign(_NONCE_DOMAIN + identity_text.encode("utf-8"))
    return hashlib.sha256(bytes.fromhex(signature.signature)).hexdigest()


__all__ = ["anchor_signer", "anchor_verifier", "run_nonce", "signer_key"]
