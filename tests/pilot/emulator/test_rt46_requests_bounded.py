"""What the laboratory records and holds of an importer's requests is bounded (sandbox red team
46, P1 and P2), and an honest work folder of long Drive titles is kept (F2).

P1: every request's query string and path parameters were recorded whole, outside the 64 MiB
budget of request bodies: 8 716 unauthenticated `GET /nowhere?q=<65 000 bytes>` wrote 1.1 GB of
ledger in 20 s and the verdict kept laboratory_pass. Now one budget holds everything a request
puts in the ledger, and a request the laboratory does not take is recorded by the size and
sha256 of its target. P2: each body was read into memory before any check, with no bound on the
connections or the bytes held at once, and a per-receive timeout: twenty 32 MiB unauthenticated
bodies held 727 MB of the laboratory's memory. F2: a fixed 1024-byte bound on a work folder's
paths refused an importer mirroring five levels of Drive folder titles every cycle.

The attacks are played small: a lowered budget, a few MB, a lowered deadline.
"""

from __future__ import annotations

import hashlib
import json
import socket
import textwrap
import time
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import pytest

from provebench.pilot.corpus import corpus_config, write_corpus
from provebench.pilot.emulator import _server
from provebench.pilot.emulator._commands import run_with_command
from provebench.pilot.lab import _record
from tests.pilot.emulator.test_emulator_wire import Cycle, _auth_headers, _raw, open_cycle

pytestmark = pytest.mark.slow

DIAGNOSTICS = "/provebench/v1/diagnostics"


@pytest.fixture
def cycle(tmp_path: Path) -> Iterator[Cycle]:
    yield from open_cycle(tmp_path)


def _connect(cycle: Cycle) -> socket.socket:
    return socket.create_connection(("127.0.0.1", cycle.lab.server.port), timeout=10)


def _answer(connection: socket.socket) -> bytes:
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = connection.recv(65536)
        if not chunk:
            break
        data += chunk
    return data


# -- P1: one budget for everything a request records ---------------------------------------------
def test_an_unrouted_query_is_recorded_by_size_and_digest(cycle: Cycle) -> None:
    target = "/nowhere?q=" + "z" * 60_000
    status, _ = _raw(cycle.lab, "GET", target)
    assert status == 404
    logged = cycle.kinds("http.request")[-1]
    assert logged["route"] == "(unknown)" and "query" not in logged and "params" not in logged
    digest = hashlib.sha256(target.encode()).hexdigest()
    assert logged["target"] == {"bytes": len(target), "sha256": digest}
    assert len(json.dumps(logged)) < 300  # before: the 60 000 bytes of the query, whole
    assert cycle.record.request_bytes == _record.REQUEST_ENTRY_BYTES


def test_an_unauthorised_path_parameter_is_recorded_by_digest(cycle: Cycle) -> None:
    target = "/drive/v3/files/" + "f" * 50_000
    status, _ = _raw(cycle.lab, "GET", target)
    assert status == 401
    logged = cycle.kinds("http.request")[-1]
    assert logged["route"] != "(unknown)" and "params" not in logged
    assert logged["target"]["bytes"] == len(target)


def test_a_taken_requests_target_is_charged_to_the_budget(
    cycle: Cycle, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_record, "MAX_RECORDED_REQUEST_BYTES", 120_000)
    headers = _auth_headers(cycle)
    target = "/drive/v3/files/" + "f" * 50_000  # authorised, routed: recorded as sent
    statuses = [_raw(cycle.lab, "GET", target, headers)[0] for _ in range(3)]
    assert statuses == [404, 404, 429]  # the third passed the budget: not served
    recorded = [p for p in cycle.kinds("http.request") if p.get("params")]
    assert len(recorded) == 2 and recorded[0]["params"]["fileId"] == "f" * 50_000
    assert cycle.record.requests_past_budget == 1


def test_a_query_flood_fills_the_budget_and_stops_recording(
    cycle: Cycle, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_record, "MAX_RECORDED_REQUEST_BYTES", 20 * _record.REQUEST_ENTRY_BYTES)
    connection = _connect(cycle)
    request = b"GET /nowhere?q=" + b"z" * 60_000 + b" HTTP/1.1\r\nHost: lab\r\n\r\n"
    for _ in range(30):
        connection.sendall(request)
        head = _answer(connection)
        assert head.startswith((b"HTTP/1.1 404", b"HTTP/1.1 429"))
        length = int(head.split(b"Content-Length: ")[1].split(b"\r\n")[0])
        rest = head.split(b"\r\n\r\n", 1)[1]
        while len(rest) < length:
            rest += connection.recv(65536)
    connection.close()
    assert len(cycle.kinds("http.request")) == 20
    assert cycle.record.requests_past_budget == 10
    # What the cycle recorded of 1.8 MB of queries: a few kB.
    assert len(json.dumps(cycle.record.entries)) < 20 * 300


QUERY_FLOOD = textwrap.dedent(
    """
    import http.client, os, urllib.parse
    url = urllib.parse.urlsplit(os.environ["PROVEBENCH_LAB_ENDPOINT"])
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
    for _ in range(COUNT):
        connection.request("GET", url.path.rstrip("/") + "/nowhere?q=" + "z" * 60000)
        connection.getresponse().read()
    """
)


@pytest.mark.parametrize("count", [5, 200])
def test_a_query_flood_ends_the_cycle_in_an_agent_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, count: int
) -> None:
    # P1 through `pilot run --agent-cmd`: 200 unauthenticated 60 kB queries a cycle (12 MB)
    # against a budget lowered to 100 entries; the control sends 5.
    monkeypatch.setattr(_record, "MAX_RECORDED_REQUEST_BYTES", 100 * _record.REQUEST_ENTRY_BYTES)
    corpus = tmp_path / "corpus"
    write_corpus(
        corpus_config(seed=3, profile="public", overrides={"cycles": 4, "file_events": 4}), corpus
    )
    script = tmp_path / "code" / "flood.py"
    script.parent.mkdir()
    script.write_text(QUERY_FLOOD.replace("COUNT", str(count)))
    run_dir = tmp_path / "run"
    run_with_command(corpus, f"python {script}", run_dir)
    entries = [json.loads(line) for line in (run_dir / "ledger.jsonl").open()]
    errors = [e["payload"] for e in entries if e["kind"] == "agent_error"]
    requests = [e["payload"] for e in entries if e["kind"] == "http.request"]
    assert all("query" not in p for p in requests if p["route"] == "(unknown)")
    assert (run_dir / "ledger.jsonl").stat().st_size < 500_000  # before: 24 MB
    if count == 5:  # the control: within the budget, no error
        assert errors == [] and len(requests) == 5 * 4
        return
    assert [e["type"] for e in errors] == ["RequestsOverBudget"] * 4
    assert "MAX_RECORDED_REQUEST_BYTES" in errors[0]["message"]
    assert "the 100 requests past it" in errors[0]["message"]
    assert len(requests) == 100 * 4


# -- P2: what the laboratory holds for its requests -----------------------------------------------
def test_an_unauthorised_body_is_never_held(cycle: Cycle) -> None:
    body = b"x" * (8 * 1024 * 1024)
    tracemalloc.start()
    try:
        status, _ = _raw(cycle.lab, "POST", DIAGNOSTICS, {"Content-Type": "application/json"}, body)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert status == 401
    # The body was made before tracing began: what is traced is the laboratory's (and the
    # client's sending), read in 64 KiB chunks. Before: 8.4 MB, the body held whole.
    assert peak < 2 * 1024 * 1024
    logged = cycle.kinds("http.request")[-1]
    assert logged["body"] == {"bytes": len(body), "sha256": hashlib.sha256(body).hexdigest()}


def test_bodies_past_the_bytes_in_flight_are_answered_503(
    cycle: Cycle, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_server, "MAX_BODY_BYTES_IN_FLIGHT", 1_000_000)
    headers = _auth_headers(cycle)
    body = json.dumps([{"channel": "note", "message": "z" * 6000}] * 100).encode()  # 600 kB
    head = (
        f"POST {DIAGNOSTICS} HTTP/1.1\r\nHost: lab\r\nAuthorization: {headers['Authorization']}"
        f"\r\nContent-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
    ).encode()
    first = _connect(cycle)
    first.sendall(head + body[:-1])  # held: 600 kB reserved, not yet whole
    time.sleep(0.5)
    second = _connect(cycle)
    second.sendall(head + body)
    assert _answer(second).startswith(b"HTTP/1.1 503")
    first.sendall(body[-1:])
    assert _answer(first).startswith(b"HTTP/1.1 200")
    first.close()
    second.close()
    statuses = [p["status"] for p in cycle.kinds("http.request") if p["route"] == DIAGNOSTICS]
    assert sorted(statuses) == [200, 503]
    refused = next(p for p in cycle.kinds("http.request") if p["status"] == 503)
    assert refused["body"] == {"bytes": len(body), "sha256": hashlib.sha256(body).hexdigest()}


def test_connections_past_the_cap_are_answered_503(cycle: Cycle) -> None:
    held = [_connect(cycle) for _ in range(_server.MAX_CONNECTIONS)]
    time.sleep(0.5)
    extra = _connect(cycle)
    assert _answer(extra).startswith(b"HTTP/1.1 503")  # answered at once, nothing read
    extra.close()
    for connection in held:
        connection.close()
    # The slots free as their connections end: an honest request is served again.
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if _raw(cycle.lab, "GET", "/nowhere")[0] == 404:
            break
        time.sleep(0.1)
    else:
        pytest.fail("the connection slots were never freed")
    refused = [p for p in cycle.kinds("http.request") if p["route"] == "(too many connections)"]
    assert refused and refused[0]["status"] == 503


def test_a_trickled_request_is_cut_at_its_deadline(
    cycle: Cycle, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_server, "REQUEST_DEADLINE_SEC", 1.0)
    connection = _connect(cycle)
    connection.sendall(b"POST /nowhere HTTP/1.1\r\nHost: lab\r\nContent-Length: 100\r\n\r\n")
    started = time.monotonic()
    cut = False
    for _ in range(20):  # a byte every 0.2 s: each receive well within the socket timeout
        time.sleep(0.2)
        try:
            connection.sendall(b"x")
        except OSError:
            cut = True
            break
        connection.settimeout(0.01)
        try:
            if connection.recv(1) == b"":
                cut = True
                break
        except TimeoutError:
            pass
        except OSError:
            cut = True
            break
    connection.close()
    assert cut and time.monotonic() - started < 3.5


# -- F2: a work folder of long Drive folder titles ------------------------------------------------
MIRROR = textwrap.dedent(
    """
    import os
    folder = os.path.join(os.environ.get("PROVEBENCH_WORK_DIR", "."), "mirror")
    for level in range(5):
        title = ("Quarterly call recordings level %d " % level).ljust(210, "x")
        folder = os.path.join(folder, title)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "etag.json"), "w") as f:
        f.write('{"etag": "1"}\\n')
    """
)


def test_a_work_folder_mirroring_long_drive_titles_is_kept(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    write_corpus(
        corpus_config(seed=3, profile="public", overrides={"cycles": 4, "file_events": 4}), corpus
    )
    script = tmp_path / "code" / "mirror.py"
    script.parent.mkdir()
    script.write_text(MIRROR)
    run_dir = tmp_path / "run"
    run_with_command(corpus, f"python {script}", run_dir)
    entries = [json.loads(line) for line in (run_dir / "ledger.jsonl").open()]
    errors = [e["payload"] for e in entries if e["kind"] == "agent_error"]
    assert errors == []  # before: WorkDirectoryTooLarge, "a path longer than 1024 bytes"
    kept = list((run_dir / "work" / "mirror").rglob("etag.json"))
    assert len(kept) == 1
    assert len(str(kept[0].relative_to(run_dir / "work"))) > 1024
