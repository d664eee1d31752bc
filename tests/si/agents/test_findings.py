"""The failure-line reader behind the scripted diagnoser (agents/_findings.py)."""

from __future__ import annotations

import pytest

from provebench.si.agents._findings import read_line, read_lines

STAMP = "2026-01-01T08:00:02.000Z"


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (
            "Error: couldn't find key SMTP_PORT in ConfigMap default/smtp-config",
            ("absent", "SMTP_PORT", "configmap/smtp-config", None, None),
        ),
        (
            "Error: couldn't find key DB_PASSWORD in Secret shop/db-credentials",
            ("absent", "DB_PASSWORD", "secret/db-credentials", None, None),
        ),
        (
            'Error: configmap "api-config" not found',
            ("absent", "api-config", "configmap/api-config", None, None),
        ),
        (
            f"{STAMP} FATAL required environment variable DB_URL is not set",
            ("absent", "DB_URL", None, None, None),
        ),
        (
            f'{STAMP} FATAL config /etc/app/config: required key "WORKERS" is missing',
            ("absent", "WORKERS", None, None, None),
        ),
        (
            f'{STAMP} FATAL config /etc/app/config: unknown key "DEBUG" (strict mode rejects '
            "unknown keys)",
            ("extra", "DEBUG", None, None, None),
        ),
        # The timestamp holds colons too; the address is the word before the error.
        (
            f"{STAMP} FATAL cannot connect to db:54x2: invalid port '54x2'",
            ("wrong_value", "54x2", None, "db:54x2", "port"),
        ),
        (
            f"{STAMP} ERROR request failed: upstream db-primary:5432: dial tcp: lookup db-primary "
            "on 10.96.0.10:53: no such host",
            ("wrong_value", "db-primary", None, "db-primary:5432", "host"),
        ),
        (
            f"{STAMP} FATAL cannot connect to inventory:8081: dial tcp 10.96.3.4:8081: i/o timeout",
            ("wrong_value", "inventory", None, "inventory:8081", "port"),
        ),
        (
            f"{STAMP} ERROR request failed: upstream orders-db:5432: dial tcp 10.96.1.2:5432: "
            "connect: connection refused",
            ("unreachable", "orders-db", None, "orders-db:5432", None),
        ),
    ],
)
def test_lines_are_read_into_findings(line: str, expected: tuple[object, ...]) -> None:
    finding = read_line(line)
    assert finding is not None
    assert (finding.nature, finding.subject, finding.resource, finding.target, finding.part) == (
        expected
    )
    assert finding.line == line


@pytest.mark.parametrize(
    "line",
    [
        f"{STAMP} INFO starting api",
        f"{STAMP} WARN GC pause 1.3s exceeded the 500ms budget",
        "Back-off restarting failed container api in pod api-abc-def",
        "Readiness probe failed: HTTP probe failed with statuscode: 503",
        "",
    ],
)
def test_lines_without_a_known_fault_give_nothing(line: str) -> None:
    assert read_line(line) is None


def test_findings_keep_the_order_of_the_lines() -> None:
    lines = [
        f'{STAMP} FATAL config /c: unknown key "B"',
        "noise",
        "Error: couldn't find key A in ConfigMap ns/c",
    ]
    assert [f.subject for f in read_lines(lines)] == ["B", "A"]
