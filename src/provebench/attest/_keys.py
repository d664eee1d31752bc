"""The laboratory's Ed25519 key: where it lives, how it is made, rotated and trusted.

The key pair sits in one folder (`key_dir`): `$PROVEBENCH_KEY_DIR` when set, otherwise
`$XDG_CONFIG_HOME/provebench/keys` (`~/.config/provebench/keys`). The private key
(`laboratory.ed25519.pem`, PKCS#8) is created on first use, readable by its owner only — it is
the one file provebench writes that is not handed on; the public key beside it
(`laboratory.ed25519.pub.pem`) is what a reader of the evidence trusts (`--trust-key`).

Rotation (`provebench attest rotate-key`) moves the current pair to `retired/KEYID.*` and makes a
new one: evidence signed before stays verifiable with the retired public key, and nothing new is
signed with the old one. The candidate never reaches the folder: a sandbox shows only the system,
the candidate's code and interpreter, and provebench's package (docs/sandbox.md), and a key folder
inside a shown folder is hidden like the corpus (`policy_for` secrets).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from cryptography.exceptions import UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.asymmetric.types import PrivateKeyTypes

from provebench._canonical import write_atomic
from provebench._errors import ProvebenchError
from provebench._key_location import KEY_DIR_ENV, key_dir
from provebench.attest._sslib import CryptoSigner, SSlibKey

PRIVATE_KEY_FILE = "laboratory.ed25519.pem"
PUBLIC_KEY_FILE = "laboratory.ed25519.pub.pem"
RETIRED_DIR = "retired"


@dataclass(frozen=True)
class TrustedKey:
    """A public key evidence is checked against, and where it came from (for messages)."""

    key: SSlibKey
    source: Path

    @property
    def keyid(self) -> str:
        return self.key.keyid


def laboratory_signer(directory: Path | None = None) -> CryptoSigner:
    """The signer of the laboratory key, made on first use."""
    folder = key_dir() if directory is None else directory
    private = folder / PRIVATE_KEY_FILE
    if not private.exists():
        _create_pair(folder)
    try:
        loaded = serialization.load_pem_private_key(private.read_bytes(), password=None)
    except OSError as error:
        raise ProvebenchError(
            f"cannot read the laboratory key: {error.strerror}", path=private
        ) from None
    except (ValueError, TypeError, UnsupportedAlgorithm):
        raise ProvebenchError("not a PEM private key without password", path=private) from None
    if not isinstance(loaded, Ed25519PrivateKey):
        raise ProvebenchError("the laboratory key must be Ed25519", path=private)
    return CryptoSigner(loaded)


def load_trusted_key(path: Path | None = None, *, field: str = "--trust-key") -> TrustedKey:
    """The public key to trust: `path` (a PEM public key), or the local laboratory's."""
    if path is None:
        path = key_dir() / PUBLIC_KEY_FILE
        if not path.is_file():
            raise ProvebenchError(
                "no local laboratory key to trust (nothing has been signed here); "
                "pass the signer's public key",
                path=path,
                field=field,
            )
    try:
        data = path.read_bytes()
    except OSError as error:
        raise ProvebenchError(f"cannot read: {error.strerror}", path=path, field=field) from None
    try:
        public = serialization.load_pem_public_key(data)
    except (ValueError, UnsupportedAlgorithm):
        raise ProvebenchError("not a PEM public key", path=path, field=field) from None
    if not isinstance(public, Ed25519PublicKey):
        raise ProvebenchError(
            f"an Ed25519 public key is required, not {type(public).__name__}",
            path=path,
            field=field,
        )
    return TrustedKey(SSlibKey.from_crypto(public), path)


def rotate_laboratory_key(directory: Path | None = None) -> tuple[str | None, str]:
    """Retire the current pair (if any) and make a new one; (old keyid, new keyid)."""
    folder = key_dir() if directory is None else directory
    old = None
    if (folder / PRIVATE_KEY_FILE).exists():
        old = load_trusted_key(folder / PUBLIC_KEY_FILE).keyid
        retired = folder / RETIRED_DIR
        retired.mkdir(mode=0o700, exist_ok=True)
        (folder / PRIVATE_KEY_FILE).replace(retired / f"{old}.ed25519.pem")
        (folder / PUBLIC_KEY_FILE).replace(retired / f"{old}.ed25519.pub.pem")
    _create_pair(folder)
    return old, load_trusted_key(folder / PUBLIC_KEY_FILE).keyid


def _restore_public(folder: Path) -> None:
    """The public key of the private key another process made first."""
    loaded = serialization.load_pem_private_key(
        (folder / PRIVATE_KEY_FILE).read_bytes(), password=None
    )
    write_atomic(folder / PUBLIC_KEY_FILE, _public_pem(loaded))


def _public_pem(private: PrivateKeyTypes) -> bytes:
    return private.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )


def _create_pair(folder: Path) -> None:
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        key = Ed25519PrivateKey.generate()  # the OS's secure random source
        private_pem = key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
        write_atomic(folder / PUBLIC_KEY_FILE, _public_pem(key))
        # Owner-only before a byte is written, then linked into place: a second process making
        # a key at the same moment keeps the first one's (the link refuses to replace a file).
        staging = folder / f".{PRIVATE_KEY_FILE}.{os.getpid()}.tmp"
        descriptor = os.open(staging, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(private_pem)
            handle.flush()
            os.fsync(handle.fileno())
        try:
            os.link(staging, folder / PRIVATE_KEY_FILE)
        except FileExistsError:
            _restore_public(folder)
        finally:
            staging.unlink(missing_ok=True)
    except OSError as error:
        raise ProvebenchError(
            f"cannot create the laboratory key: {error.strerror}", path=folder
        ) from None


__all__ = [
    "KEY_DIR_ENV",
    "PRIVATE_KEY_FILE",
    "PUBLIC_KEY_FILE",
    "TrustedKey",
    "key_dir",
    "laboratory_signer",
    "load_trusted_key",
    "rotate_laboratory_key",
]
