"""Signed evidence: in-toto Statements in DSSE envelopes, signed with the laboratory's Ed25519 key.

What the laboratory produced (a run), what the evaluator concluded (a verdict), the red team's
report and the fresh-control seal are each described by an in-toto Statement v1 — the files it
covers by sha256 (`subject`) and the facts that matter (`predicate`) — and signed as a DSSE
envelope (securesystemslib) with the laboratory operator's key (`_keys.py`). Whoever holds the
public key checks any of them without rerunning anything: `provebench attest verify`.

The candidate never sees the private key: it lives outside every folder a sandbox shows
(docs/attestation.md), and a run is signed only after its last cycle.

Names are imported on first use (PEP 562): only signing and verifying need the crypto stack.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from provebench._lazy import lazy_exports

if TYPE_CHECKING:
    from provebench.attest._envelope import (
        ENVELOPE_SUFFIX,
        AttestationError,
        Statement,
        envelope_path_for,
        read_statement,
        sign_statement,
        subject_problems,
        write_envelope,
    )
    from provebench.attest._keys import (
        KEY_DIR_ENV,
        TrustedKey,
        key_dir,
        laboratory_signer,
        load_trusted_key,
        rotate_laboratory_key,
    )

_EXPORTS = {
    "ENVELOPE_SUFFIX": "provebench.attest._envelope",
    "AttestationError": "provebench.attest._envelope",
    "KEY_DIR_ENV": "provebench.attest._keys",
    "Statement": "provebench.attest._envelope",
    "TrustedKey": "provebench.attest._keys",
    "envelope_path_for": "provebench.attest._envelope",
    "key_dir": "provebench.attest._keys",
    "laboratory_signer": "provebench.attest._keys",
    "load_trusted_key": "provebench.attest._keys",
    "read_statement": "provebench.attest._envelope",
    "rotate_laboratory_key": "provebench.attest._keys",
    "sign_statement": "provebench.attest._envelope",
    "subject_problems": "provebench.attest._envelope",
    "write_envelope": "provebench.attest._envelope",
}
__all__ = [
    "ENVELOPE_SUFFIX",
    "KEY_DIR_ENV",
    "AttestationError",
    "Statement",
    "TrustedKey",
    "envelope_path_for",
    "key_dir",
    "laboratory_signer",
    "load_trusted_key",
    "read_statement",
    "rotate_laboratory_key",
    "sign_statement",
    "subject_problems",
    "write_envelope",
]

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, __all__)
