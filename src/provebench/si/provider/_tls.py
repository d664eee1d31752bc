"""The TLS of the Kubernetes endpoint: a certificate authority made per provider run, in memory.

kubectl (client-go) never sends a bearer token over plain HTTP, so an endpoint that checks the
environment's token must speak HTTPS. Each `ProviderServer` makes its own certificate authority
and a server certificate for 127.0.0.1 (EC P-256, by the `cryptography` library), serves the
Kubernetes endpoints with it, and hands the authority's certificate to the agent inside the
kubeconfig (``certificate-authority-data``), so clients verify the server and need no
``--insecure-skip-tls-verify``. The keys live only in this process (a private temporary file
exists for the instant `ssl` needs to load it).
"""

from __future__ import annotations

import datetime
import ipaddress
import os
import ssl
import tempfile
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

_VALID_FOR = datetime.timedelta(days=7)


@dataclass(frozen=True)
class ServerTLS:
    """A server context for 127.0.0.1 and the PEM of the authority that signed it."""

    context: ssl.SSLContext
    authority_pem: bytes


def _name(common: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common)])


def make_server_tls(host: str = "127.0.0.1") -> ServerTLS:
    """A fresh authority and a server certificate for ``host`` (an IP address)."""
    now = datetime.datetime.now(datetime.UTC) - datetime.timedelta(minutes=5)
    authority_key = ec.generate_private_key(ec.SECP256R1())
    authority_name = _name("provebench si provider CA")
    authority = (
        x509.CertificateBuilder()
        .subject_name(authority_name)
        .issuer_name(authority_name)
        .public_key(authority_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now)
        .not_valid_after(now + _VALID_FOR)
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                key_cert_sign=True,
                crl_sign=True,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .sign(authority_key, hashes.SHA256())
    )
    server_key = ec.generate_private_key(ec.SECP256R1())
    server = (
        x509.CertificateBuilder()
        .subject_name(_name(host))
        .issuer_name(authority_name)
        .public_key(server_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now)
        .not_valid_after(now + _VALID_FOR)
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address(host))]),
            critical=False,
        )
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .sign(authority_key, hashes.SHA256())
    )
    chain = server.public_bytes(serialization.Encoding.PEM)
    key = server_key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    descriptor, path = tempfile.mkstemp(prefix="provebench-tls-", suffix=".pem")
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(chain + key)
        context.load_cert_chain(path)
    finally:
        Path(path).unlink()
    return ServerTLS(context, authority.public_bytes(serialization.Encoding.PEM))


__all__ = ["ServerTLS", "make_server_tls"]
