"""securesystemslib, imported without the cloud SDKs its signer package probes for.

`securesystemslib.signer` imports every signer it offers, and its AWS signer imports boto3 and
botocore whenever they are installed (the `inspect_ai` extra brings them): 0.19 s at the start
of every command that signs or verifies, more than the rest of such a command's start-up.
provebench signs with a local Ed25519 key only (docs/attestation.md), so securesystemslib is
imported here, first, while those two packages are marked absent for the length of the import;
securesystemslib then records its AWS signer as unavailable, as it does where they are not
installed, and the marks are taken back so that any other code imports them as usual.
Every other module takes securesystemslib's names from here.
"""

from __future__ import annotations

import sys

_SKIPPED_SDKS = ("boto3", "botocore")


def _import_without_cloud_sdks() -> None:
    if "securesystemslib.signer" in sys.modules:
        return  # imported already, by provebench or by whoever imported provebench
    saved = {name: sys.modules[name] for name in _SKIPPED_SDKS if name in sys.modules}
    for name in _SKIPPED_SDKS:
        sys.modules.setdefault(name, None)  # type: ignore[arg-type]  # None: "absent" to import
    try:
        import securesystemslib.signer  # noqa: F401
    finally:
        for name in _SKIPPED_SDKS:
            if name in saved:
                sys.modules[name] = saved[name]
            elif sys.modules.get(name, ...) is None:
                del sys.modules[name]


_import_without_cloud_sdks()

from securesystemslib.dsse import Envelope  # noqa: E402
from securesystemslib.exceptions import (  # noqa: E402
    UnverifiedSignatureError,
    VerificationError,
)
from securesystemslib.signer import CryptoSigner, Signature, Signer, SSlibKey  # noqa: E402

__all__ = [
    "CryptoSigner",
    "Envelope",
    "SSlibKey",
    "Signature",
    "Signer",
    "UnverifiedSignatureError",
    "VerificationError",
]
