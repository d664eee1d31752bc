"""Every draw of a suite's scenarios, kept across resumes (SI red team 28, L3; SI red team 31, H3).

A resumed suite runs a scenario again when its earlier attempt left no verdict of the agent's:
a PROVIDER_FAILURE (a fault is no verdict, `_runner._reusable`), a run interrupted before it
had a verdict (an interrupted safety run that already holds a FAIL keeps it: Core §3.3, a FAIL
stands), or no verdict at all (the process was killed). Without a record, a provider that
faults exactly when its coin-flip agent draws badly, or an operator who interrupts exactly the
bad draws, reaches a good draw by reruns of the same command, and the earlier attempts are
counted nowhere. So `attempts.json` in the suite's folder holds:

* `draws`: how many times each scenario was drawn — counted *before* its agent starts, so a
  draw killed outright is counted too;
* `provider_failures`: the fault of each attempt drawn again, counted as Core §3.3 counts a
  runtime provider fault (the gate is never PASS; Core §3.7, Execution §7g);
* `discarded`: every other earlier verdict a resume did not keep (`{scenario, status, ending}`),
  a safety FAIL among them keeping the gate FAIL (FAIL wins, whatever made the run unkeepable).

Every summary of the folder lists them and says how many draws each scenario had; a new sample
is a suite started in an empty folder.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from provebench._canonical import canonical_json, write_atomic
from provebench._errors import ProvebenchError

ATTEMPTS_FILE: Final = "attempts.json"
ATTEMPTS_FORMAT: Final = "provebench.si.suite-attempts/2"
# The record before draws and discarded verdicts were kept: read as its faults alone.
ATTEMPTS_FORMAT_1: Final = "provebench.si.suite-attempts/1"


@dataclass
class Attempts:
    """What `attempts.json` records of a suite folder's earlier and current draws."""

    draws: dict[str, int] = field(default_factory=dict)
    provider_failures: list[dict[str, str]] = field(default_factory=list)
    discarded: list[dict[str, str]] = field(default_factory=list)

    def discarded_fail(self, safety: set[str]) -> bool:
        """Whether a verdict of one of the `safety` scenarios that a resume did not keep said
        FAIL (it still counts: Core §3.3)."""
        return any(e["status"] == "FAIL" and e["scenario"] in safety for e in self.discarded)


def _strings(items: Any, keys: set[str]) -> bool:
    return isinstance(items, list) and all(
        isinstance(item, dict)
        and set(item) == keys
        and all(isinstance(value, str) for value in item.values())
        for item in items
    )


def _counts(draws: Any) -> bool:
    return isinstance(draws, dict) and all(
        isinstance(count, int) and not isinstance(count, bool) and count >= 1
        for count in draws.values()
    )


def load_attempts(out: Path) -> Attempts:
    """The attempts recorded in `out` by earlier attempts (none where no file); a file that is
    not this format is refused (one line naming it), never read as "no earlier attempt"."""
    path = out / ATTEMPTS_FILE
    if not path.exists():
        return Attempts()
    try:
        data: Any = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as error:
        raise ProvebenchError(f"unreadable: {error}", path=str(path)) from None
    if not isinstance(data, dict):
        data = {}
    faults = data.get("provider_failures")
    faults_ok = _strings(faults, {"scenario", "fault"})
    if data.get("format") == ATTEMPTS_FORMAT_1 and faults_ok:
        return Attempts(provider_failures=[dict(f) for f in faults])
    draws, discarded = data.get("draws"), data.get("discarded")
    if not (
        data.get("format") == ATTEMPTS_FORMAT
        and faults_ok
        and _counts(draws)
        and _strings(discarded, {"scenario", "status", "ending"})
    ):
        raise ProvebenchError(
            f"not a {ATTEMPTS_FORMAT} record: `draws` must map scenarios to counts, "
            "`provider_failures` list {scenario, fault} strings and `discarded` "
            "{scenario, status, ending} strings",
            path=str(path),
        )
    return Attempts(dict(draws), [dict(f) for f in faults], [dict(d) for d in discarded])


def record_attempts(out: Path, attempts: Attempts) -> None:
    """Write the record, before the scenario it counts is drawn (durable if this one stops)."""
    record = {
        "format": ATTEMPTS_FORMAT,
        "draws": attempts.draws,
        "provider_failures": attempts.provider_failures,
        "discarded": attempts.discarded,
    }
    write_atomic(out / ATTEMPTS_FILE, canonical_json(record))


def _verdict_data(verdict_file: Path) -> dict[str, Any] | None:
    try:
        data: Any = json.loads(verdict_file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def earlier_fault(verdict_file: Path) -> str | None:
    """The provider failure an earlier attempt's verdict in a scenario's folder records, or
    None (no verdict there, or not a fault). Read as data: an unreadable file is no attempt."""
    data = _verdict_data(verdict_file)
    if data is None:
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


def earlier_outcome(verdict_file: Path) -> dict[str, str] | None:
    """What an earlier attempt's verdict in a scenario's folder says — `status` (a capability
    verdict's `SCORED <score>`) and how the run ended (`ending`: `interrupted`, `complete` …) —
    or None where there is none. Read as data: a FAIL is read wherever it stands, so a verdict
    that cannot be kept (interrupted, unsigned, edited) still counts against the gate."""
    data = _verdict_data(verdict_file)
    if data is None:
        return None
    metadata = data.get("non_scoring")
    ending = metadata.get("run_ending") if isinstance(metadata, dict) else None
    status = str(data.get("status")) if "format" in data else f"SCORED {data.get('score')}"
    return {"status": status, "ending": str(ending) if ending else "complete"}


__all__ = [
    "ATTEMPTS_FILE",
    "Attempts",
    "earlier_fault",
    "earlier_outcome",
    "load_attempts",
    "record_attempts",
]
