"""Whether a signature vouches for the document a report shows (docs/report.md, "Signature").

A verdict is plain JSON: whoever holds it can edit its band, its score or its `sealed` flag, and
a page rendered from it would show the edit as faithfully as the original. The report therefore
says what vouches for the bytes it shows: a DSSE envelope beside the document (the evaluator's
`verdict.dsse.json`, an SI run's `run.dsse.json`, a suite's `summary.dsse.json`, a red team's
`redteam.dsse.json`) that verifies against the trusted key and lists the document, by name, with
the sha256 of the very bytes rendered. Anything less is said in one line at the top of the page,
and a `sealed: true` the signature does not vouch for is not shown as a sealed result.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Final, Literal

from provebench._canonical import sha256_bytes
from provebench._errors import ProvebenchError

SignatureStatus = Literal["verified", "not verified", "not checked", "unsigned"]

# Envelopes that may list a report's document, besides `<stem>.dsse.json` of the document itself.
_OTHER_ENVELOPES: Final = ("run.dsse.json", "redteam.dsse.json")


@dataclass(frozen=True)
class SignatureCheck:
    """What vouches for the rendered bytes: a status and one line saying why.

    `keyid` is the first 16 hex digits of the key that verified (only when `verified`); the
    key's file path is never shown, so that a report does not depend on where the key lives."""

    status: SignatureStatus
    detail: str
    envelope: str | None = None
    keyid: str | None = None

    @property
    def verified(self) -> bool:
        return self.status == "verified"


NO_FILE: Final = SignatureCheck(
    "not checked", "rendered from a verdict in memory, not from a file: no signature was read"
)


def check_signature(document: Path, data: bytes, trust_key: Path | None) -> SignatureCheck:
    """Whether an envelope beside `document` verifies against the trusted key (`trust_key`, or
    this laboratory's public key) and lists `document` with the sha256 of `data`."""
    from provebench.attest import envelope_path_for, load_trusted_key, read_statement

    names = dict.fromkeys([envelope_path_for(document).name, *_OTHER_ENVELOPES])
    envelopes = [document.with_name(name) for name in names if document.with_name(name).is_file()]
    if not envelopes:
        looked_for = ", ".join(names)
        return SignatureCheck("unsigned", f"no signed envelope beside it ({looked_for})")
    try:
        trusted = load_trusted_key(trust_key)
    except ProvebenchError:
        if trust_key is not None:
            raise
        return SignatureCheck(
            "not checked",
            f"{envelopes[0].name} is beside it, but there is no laboratory key here to check it "
            "with (pass --trust-key PUB.pem)",
            envelopes[0].name,
        )
    digest = sha256_bytes(data)
    problems: list[str] = []
    for envelope in envelopes:
        try:
            signed = read_statement(envelope, trusted)
        except ProvebenchError as error:
            problems.append(f"{envelope.name}: {error.message}")
            continue
        listed = signed.subjects.get(document.name)
        if listed is None:
            problems.append(f"{envelope.name} does not list {document.name}")
        elif listed != digest:
            problems.append(
                f"{envelope.name} signed another {document.name} (sha256 {listed[:16]}…, "
                f"these bytes {digest[:16]}…)"
            )
        else:
            return SignatureCheck(
                "verified",
                f"{envelope.name} verifies with key {trusted.keyid[:16]} and lists these bytes",
                envelope.name,
                trusted.keyid[:16],
            )
    return SignatureCheck("not verified", "; ".join(problems), envelopes[0].name)


__all__ = ["NO_FILE", "SignatureCheck", "SignatureStatus", "check_signature"]
