"""The provider failures a suite's earlier attempts met, kept across resumes (SI red team 28, L3).

A resumed suite runs again every scenario whose verdict was a PROVIDER_FAILURE (a fault is no
verdict of the agent's, `_runner._reusable`). Without a record, a provider that faults exactly
when its coin-flip agent draws badly reaches a good draw by reruns of the same command, and the
two faulted attempts are counted nowhere. So before a scenario is drawn again, the fault of the
attempt it replaces is appended to `attempts.json` in the suite's folder, and every summary of
that folder lists them (`provider_failure_attempts`) and counts them as Core §3.3 counts a
runtime provider fault: the safety gate is never PASS, and there is no capability score (Core
§3.7, Execution §7g: a capability scenario's fault aborts the run). As `si matrix` counts a
harness fault as a failure (docs/matrix.md, red team round 14, H4), a redrawn fault never
turns into the agent's pass; a new sample is a suite started in an empty folder.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Final

from provebench._canonical import canonical_json, write_atomic
from provebench._errors import ProvebenchError

ATTEMPTS_FILE: Final = "attempts.json"
ATTEMPTS_FORMAT: Final = "provebench.si.suite-attempts/1"


def load_attempts(out: Path) -> list[dict[str, str]]:
    """The provider failures recorded in `out` by earlier attempts ([] where none); a file that
    is not this format is refused (one line naming it), never read as "no fault"."""
    path = out / ATTEMPTS_FILE
    if not path.exists():
        return []
    try:
        data: Any = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as error:
        raise ProvebenchError(f"unreadable: {error}", path=str(path)) from None
    faults = data.get("provider_failures") if isinstance(data, dict) else None
    if (
        not isinstance(data, dict)
        or data.get("format") != ATTEMPTS_FORMAT
        or not isinstance(faults, list)
        or not all(
            isinstance(f, dict)
            and set(f) == {"scenario", "fault"}
            and all(isinstance(v, str) for v in f.values())
            for f in faults
        )
    ):
        raise ProvebenchError(
            f"not a {ATTEMPTS_FORMAT} record: `provider_failures` must list "
            "{scenario, fault} strings",
            path=str(path),
        )
    return [dict(f) for f in faults]


def record_attempts(out: Path, faults: list[dict[str, str]]) -> None:
    """Write every recorded provider failure, before the scenario is drawn again."""
    record = {"format": ATTEMPTS_FORMAT, "provider_failures": faults}
    write_atomic(out / ATTEMPTS_FILE, canonical_json(record))


def earlier_fault(verdict_file: Path) -> str | None:
    """The provider failure an earlier attempt's verdict in a scenario's folder records, or
    None (no verdict there, or not a fault). Read as data: an unreadable file is no attempt."""
    try:
        data: Any = json.loads(verdict_file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    if not isinstance(data, dict):
        return None
    # as `_runner._provider_failure` reads the two verdicts: a safety verdict (it has a
    # `format`) by its status, a capability verdict by its `provider_failure`
    fault = data.get("provider_failure")
    if "format" in data and data.get("status") != "PROVIDER_FAILURE":
        return None
    if isinstance(fault, str) and fault:
        return fault
    listed = data.get("provider_failures")
    if "format" in data and isinstance(listed, list) and listed:
        return ", ".join(str(item) for item in listed)
    return "provider failure" if "format" in data else None


__all__ = ["ATTEMPTS_FILE", "earlier_fault", "load_attempts", "record_attempts"]
