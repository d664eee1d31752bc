"""The run's identity as the log carries it, and where `run.json` says otherwise (pilot §9).

The runner logs the identity of the run (format, agent, corpus, rule versions: `run_identity`)
as the payload of the log's first entry, `run_started` at seq 0, inside the hash chain; when it
publishes, it copies the same values into `run.json` (`_publish.py`). `run.json` is not chained:
whoever has the run folder can name another importer or corpus in it and re-record nothing else.
So the result evidence takes the identity from the verified log, and a `run.json` that differs
from it is a configuration error (fail closed), naming the first field that differs.
"""

from __future__ import annotations

from typing import Any

from provebench._canonical import compact_json
from provebench.ledger import LedgerEntry

# What run.json and the run_started entry both record, compared exactly.
IDENTITY_KEYS = ("format", "agent", "isolation", "corpus", "rule_versions")
RUN_STARTED = "run_started"
_ABSENT = object()
_SAID_MAX = 80


def logged_identity(entries: list[LedgerEntry]) -> dict[str, Any] | None:
    """The identity in the log's `run_started` entry at seq 0, or None when there is none (the
    runner writes it first, in cycle 1's transaction: `_runner.py`)."""
    if not entries or entries[0].seq != 0 or entries[0].kind != RUN_STARTED:
        return None
    payload = entries[0].payload
    identity = payload.get("identity") if isinstance(payload, dict) else None
    return identity if isinstance(identity, dict) else None


def identity_differences(record: dict[str, Any], identity: dict[str, Any]) -> list[tuple[str, str]]:
    """(field, message) for each identity key whose value in run.json differs from the log's:
    the field is the first differing path inside it (`corpus.seed`, `agent.name`)."""
    found = []
    for key in IDENTITY_KEYS:
        difference = _first_difference(record.get(key, _ABSENT), identity.get(key, _ABSENT), key)
        if difference is not None:
            where, ours, logged = difference
            found.append(
                (
                    where,
                    f"run.json says {_said(ours)}, the log's run_started entry (seq 0) says "
                    f"{_said(logged)}",
                )
            )
    return found


Difference = tuple[str, object, object]  # (field, run.json's value, the log's value)


def _first_difference(ours: object, logged: object, where: str) -> Difference | None:
    if isinstance(ours, dict) and isinstance(logged, dict):
        for key in sorted(ours.keys() | logged.keys()):
            found = _first_difference(
                ours.get(key, _ABSENT), logged.get(key, _ABSENT), f"{where}.{key}"
            )
            if found is not None:
                return found
        return None
    # Compared as JSON values: in Python 1 == True == 1.0, in the record they are not the same.
    if _said(ours, cap=False) != _said(logged, cap=False):
        return where, ours, logged
    return None


def _said(value: object, *, cap: bool = True) -> str:
    """A value as the message shows it: compact JSON, capped (it may be anyone's text)."""
    if value is _ABSENT:
        return "nothing"
    try:
        text = compact_json(value)
    except (TypeError, ValueError):  # not JSON (NaN in a payload): still shown, never raised
        text = repr(value)
    if cap and len(text) > _SAID_MAX:
        text = text[: _SAID_MAX - 1] + "…"
    return text


__all__ = ["IDENTITY_KEYS", "identity_differences", "logged_identity"]
