"""Keyed anchors: a signature inside an entry over the whole log up to it (pilot §6, §15).

The hash chain has no key: whoever holds a log can edit an entry and re-chain every entry after
it, and the result verifies. An anchor is what such a holder cannot redo. An anchored entry
carries, under the payload key `anchor`, a signature made when it was committed — in the same
transaction, so a crash cannot separate the two — over this statement (canonical JSON):

    {"format": "provebench.ledger.anchor/1",
     "run": hash of the log's first entry (seq 0; null for that entry itself),
     "length": the number of entries before it (its seq),
     "prev_hash": the log's head before it,
     "kind": its kind,
     "payload_sha256": sha256 of its canonical payload without `anchor`}

`prev_hash` chains every entry before it and `payload_sha256` the entry itself, so a verified
anchor vouches for the whole log up to and including its entry; `run` names the log it belongs
to (a laboratory's first entry holds the run's identity and nonce, docs/pilot-lab.md). The
ledger does not sign or verify by itself: the caller brings a `Sign` (the laboratory key's) and
a `Verify` (a trusted public key's) — docs/ledger.md, "Keyed anchors".
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from provebench.ledger._entry import GENESIS_HASH, encode_canonical, hash_text, hashed_text

ANCHOR_FORMAT = "provebench.ledger.anchor/1"
ANCHOR_KEY = "anchor"
# In canonical JSON these bytes occur only as an object key (a quote inside a string is escaped),
# so a payload without them holds no anchor and is not parsed.
_ANCHOR_BYTES = f'"{ANCHOR_KEY}":'

# message -> the anchor's signature fields ({"keyid": ..., "sig": ...})
Sign = Callable[[bytes], dict[str, str]]
# (message, anchor) -> whether the anchor is a good signature by the trusted key
Verify = Callable[[bytes, Mapping[str, Any]], bool]


def anchor_message(
    *, run: str | None, length: int, prev_hash: str, kind: str, payload_text: str
) -> bytes:
    """The signed statement of an anchor (module docstring); `payload_text` is the canonical
    payload without `anchor`."""
    statement = {
        "format": ANCHOR_FORMAT,
        "kind": kind,
        "length": length,
        "payload_sha256": hashlib.sha256(payload_text.encode("utf-8")).hexdigest(),
        "prev_hash": prev_hash,
        "run": run,
    }
    return encode_canonical(statement).encode("utf-8")


def anchored_payload(
    sign: Sign, *, run: str | None, length: int, prev_hash: str, kind: str, payload_text: str
) -> dict[str, Any]:
    """The payload of `payload_text` with its anchor added."""
    payload: dict[str, Any] = json.loads(payload_text)
    if ANCHOR_KEY in payload:
        raise ValueError(f"the payload already has an {ANCHOR_KEY!r} key")
    message = anchor_message(
        run=run, length=length, prev_hash=prev_hash, kind=kind, payload_text=payload_text
    )
    payload[ANCHOR_KEY] = {"format": ANCHOR_FORMAT, **sign(message)}
    return payload


@dataclass
class AnchorCheck:
    """What `check_anchors` found: how many anchors verified, where the last one is, and each
    problem as (seq, one line)."""

    verified: int = 0
    last_anchored_seq: int | None = None
    head_seq: int | None = None
    problems: list[tuple[int, str]] = field(default_factory=list)

    @property
    def head_anchored(self) -> bool:
        """The log's last entry is a verified anchor (so every entry is vouched for)."""
        return self.head_seq is not None and self.last_anchored_seq == self.head_seq


def check_anchors(rows: Iterable[tuple[int, str, str, str, str]], verify: Verify) -> AnchorCheck:
    """Verify every anchor of a log. `rows`: (seq, kind, canonical payload text, prev_hash,
    hash) in seq order, from seq 0.

    The hashes an anchor is checked against are recomputed here from each row's content and
    the hash computed for the row before, never taken from the `prev_hash`/`hash` columns: a
    log whose payloads were edited in place with those columns kept would otherwise keep every
    anchor's inputs, and verify (red team round 12, A2). A row that does not hash or link is a
    problem, and every anchor after it is checked against the recomputed chain, so it fails."""
    check = AnchorCheck()
    first: str | None = None
    computed_prev = GENESIS_HASH
    for seq, kind, text, stored_prev, entry_hash in rows:
        check.head_seq = seq
        recomputed = hash_text(hashed_text(seq, kind, text, computed_prev))
        if recomputed != entry_hash or stored_prev != computed_prev:
            check.problems.append(
                (seq, f"{kind}: the entry does not hash to its stored hash or does not link")
            )
        if seq == 0:
            first = recomputed
        prev_hash, computed_prev = computed_prev, recomputed
        if _ANCHOR_BYTES not in text:
            continue
        payload = json.loads(text)
        if not isinstance(payload, dict) or ANCHOR_KEY not in payload:
            continue  # the key was nested deeper: no anchor of this entry
        run = None if seq == 0 else first
        problem = _anchor_problem(payload, seq, kind, prev_hash, run, verify)
        if problem is None:
            check.verified += 1
            check.last_anchored_seq = seq
        else:
            check.problems.append((seq, f"{kind}: {problem}"))
    return check


def _anchor_problem(
    payload: dict[str, Any],
    seq: int,
    kind: str,
    prev_hash: str,
    run: str | None,
    verify: Verify,
) -> str | None:
    anchor = payload.pop(ANCHOR_KEY)
    if not isinstance(anchor, dict) or anchor.get("format") != ANCHOR_FORMAT:
        return f"the anchor is not a {ANCHOR_FORMAT} anchor"
    message = anchor_message(
        run=run, length=seq, prev_hash=prev_hash, kind=kind, payload_text=encode_canonical(payload)
    )
    if not verify(message, anchor):
        return "the anchor is not a signature by the trusted key over the log up to this entry"
    return None


__all__ = [
    "ANCHOR_FORMAT",
    "ANCHOR_KEY",
    "AnchorCheck",
    "Sign",
    "Verify",
    "anchor_message",
    "anchored_payload",
    "check_anchors",
]
