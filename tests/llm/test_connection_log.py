"""Issue 40 (pilot red team 25, round 2): the pinned model client's connections were in no log.
Each connection it tries — the address it connected to, how the endpoint was judged and what
was checked, or why it was refused — is written in the loop's `ConnectionLog`, which the pilot's
run puts in each cycle's transcript note (tests/llm/test_openai_agents.py holds the run's).
No clock is in it: the same connections make the same record."""

from __future__ import annotations

import socket
from typing import Any

import httpcore
import pytest

from provebench.llm._connections import (
    MAX_RECORDED_CONNECTIONS,
    PINNED,
    PINNED_AND_PEER,
    ConnectionLog,
)
from provebench.llm._pinned import PinnedBackend

pytestmark = pytest.mark.timeout(60)

HOST = "model.example"


def _entry(address: str | None, outcome: str, *, port: int, remote: bool,
           reason: str | None = None) -> dict[str, Any]:  # fmt: skip
    return {
        "host": HOST,
        "port": port,
        "judged": "remote" if remote else "local",
        "checked": PINNED_AND_PEER if remote else PINNED,
        "address": address,
        "outcome": outcome,
        "reason": reason,
    }


def _connections(remote: bool, port: int) -> list[dict[str, object]]:
    """One client's tries: an unjudged host (refused), a closed then a listening address (an
    endpoint judged local connects; one judged remote is refused, the peer being here)."""
    log = ConnectionLog()
    closed = socket.socket()
    closed.bind(("127.0.0.2", 0))  # bound, never listening: refused at once
    judged = {HOST: ("127.0.0.2", "127.0.0.1")}
    pinned = PinnedBackend(
        httpcore.SyncBackend(), judged, httpcore.ConnectError, remote=remote, log=log
    )
    with pytest.raises(httpcore.ConnectError):
        pinned.connect_tcp("elsewhere.example", port, timeout=5)
    try:
        pinned.connect_tcp(HOST, port, timeout=5).close()
    except httpcore.ConnectError:
        assert remote
    closed.close()
    return log.entries


def test_each_connection_is_recorded_with_its_judgement_and_refusal(listening: int) -> None:
    unjudged = {
        "host": "elsewhere.example",
        "port": listening,
        "address": None,
        "outcome": "refused",
        "reason": "not an address the endpoint's reach was judged by",
    }
    local = _connections(remote=False, port=listening)
    assert local == [
        {**unjudged, "judged": "local", "checked": PINNED},
        _entry("127.0.0.2", "unreachable", port=listening, remote=False),
        _entry("127.0.0.1", "connected", port=listening, remote=False),
    ]
    remote = _connections(remote=True, port=listening)
    assert remote == [
        {**unjudged, "judged": "remote", "checked": PINNED_AND_PEER},
        _entry("127.0.0.2", "unreachable", port=listening, remote=True),
        _entry(
            "127.0.0.1",
            "refused",
            port=listening,
            remote=True,
            reason="judged remote, but the connection ends on this machine",
        ),
    ]
    assert _connections(remote=True, port=listening) == remote  # no clock, no counter


def test_the_record_is_bounded_and_counts_the_rest() -> None:
    log = ConnectionLog()
    for index in range(MAX_RECORDED_CONNECTIONS + 3):
        log.add({"n": index})
    assert len(log.entries) == MAX_RECORDED_CONNECTIONS and log.omitted == 3
    assert log.entries[-1] == {"n": MAX_RECORDED_CONNECTIONS - 1}
