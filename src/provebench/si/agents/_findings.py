"""Reading failure lines the way an operator does: what went wrong, with which key or resource.

These are generic rules over the messages a Kubernetes-like estate shows (kubelet events,
process log lines, connection errors). They read only text the tools returned; they know nothing
of any scenario's answer key. Each rule turns one observed line into a `Finding`: the nature of
the fault, its subject (a key, a variable, a host) and, where the line says it, the resource.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

Nature = Literal["absent", "extra", "wrong_value", "unreachable"]


@dataclass(frozen=True)
class Finding:
    """One fault read from one line."""

    nature: Nature
    subject: str  # a configuration key, an environment variable or a host name
    resource: str | None  # `configmap/NAME`, `secret/NAME` when the line names it
    line: str  # the line the finding was read from
    target: str | None = None  # `host:port` of a failed connection
    part: Literal["host", "port"] | None = None  # which half of `target` is wrong


# `host:port` as a word of its own (a log line's timestamp also holds colons), then an optional
# colon and a space: `cannot connect to db:5432: …`, `upstream db:5432: …`.
_TARGET = r"(?<!\S)(?P<target>[^\s:]+:[^\s:]+?):? "

_RULES: tuple[tuple[re.Pattern[str], Nature, Literal["host", "port"] | None], ...] = (
    # kubelet: an env var's configMapKeyRef / secretKeyRef names a key the object lacks
    (
        re.compile(
            r"couldn't find key (?P<subject>\S+) in (?P<kind>ConfigMap|Secret) "
            r"[^/\s]+/(?P<name>[^\s\"]+)"
        ),
        "absent",
        None,
    ),
    # kubelet: the referenced or mounted object itself does not exist
    (re.compile(r"(?P<kind>configmap|secret) \"(?P<subject>[^\"]+)\" not found"), "absent", None),
    # the process: a required variable or config key is missing
    (re.compile(r"required environment variable (?P<subject>\S+) is not set"), "absent", None),
    (re.compile(r"required key \"(?P<subject>[^\"]+)\" is missing"), "absent", None),
    # the process: a strict config loader meets a key it does not know
    (re.compile(r"unknown key \"(?P<subject>[^\"]+)\""), "extra", None),
    # a connection whose address is wrong: bad port text, no such host, wrong port (timeout)
    (
        re.compile(rf"{_TARGET}.*invalid port '(?P<subject>[^']*)'"),
        "wrong_value",
        "port",
    ),
    (re.compile(rf"{_TARGET}.*no such host"), "wrong_value", "host"),
    (re.compile(rf"{_TARGET}.*i/o timeout"), "wrong_value", "port"),
    # a connection to a service nobody answers for
    (re.compile(rf"{_TARGET}.*connection refused"), "unreachable", None),
)


def read_line(line: str) -> Finding | None:
    """The finding a line states, or None when it states no fault this reader knows."""
    for pattern, nature, part in _RULES:
        match = pattern.search(line)
        if match is None:
            continue
        groups = {k: v for k, v in match.groupdict().items() if v is not None}
        target = groups.get("target")
        subject = groups.get("subject") or (target.rsplit(":", 1)[0] if target else "")
        resource = None
        if "kind" in groups and "name" in groups:
            resource = f"{groups['kind'].lower()}/{groups['name']}"
        elif "kind" in groups:
            resource = f"{groups['kind'].lower()}/{subject}"
        return Finding(nature, subject, resource, line.strip(), target, part)
    return None


def read_lines(lines: list[str]) -> list[Finding]:
    """Every finding, in the order the lines came."""
    return [finding for line in lines if (finding := read_line(line)) is not None]


__all__ = ["Finding", "Nature", "read_line", "read_lines"]
