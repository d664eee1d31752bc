"""What the laboratory records of an importer's request bodies is bounded (pilot red team 45, H1).

The emulator recorded every request body whole, refused ones too: 24 MiB bodies answered 401 for
40 s wrote 3.6 GB of ledger and the verdict kept laboratory_pass. A body the laboratory does not
take (unauthorised, unrouted) is recorded by size and sha256; the ones it takes are recorded
whole, charged with the rest of each request to `MAX_RECORDED_REQUEST_BYTES` a cycle (sandbox
red team 46, P1), and a cycle past it ends in an `agent_error` naming the limit
(docs/pilot-lab.md, "Limits")."""

from __future__ import annotations

import hashlib
import json
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from provebench.pilot.corpus import corpus_config, write_corpus
from provebench.pilot.emulator._commands import run_with_command
from provebench.pilot.lab import _record
from tests.pilot.emulator.test_emulator_wire import Cycle, _auth_headers, _raw, open_cycle

pytestmark = pytest.mark.slow

PATH = "/provebench/v1/diagnostics"


@pytest.fixture
def cycle(tmp_path: Path) -> Iterator[Cycle]:
    yield from open_cycle(tmp_path)


def _notes(count: int, size: int) -> bytes:
    return json.dumps([{"channel": "note", "message": "z" * size}] * count).encode()


def test_an_unauthorised_body_is_recorded_by_size_and_digest_only(cycle: Cycle) -> None:
    body = _notes(3, 4000)
    status, _ = _raw(cycle.lab, "POST", PATH, {"Content-Type": "application/json"}, body)
    assert status == 401
    logged = cycle.kinds("http.request")[-1]
    assert logged["status"] == 401
    assert logged["body"] == {"bytes": len(body), "sha256": hashlib.sha256(body).hexdigest()}
    # Charged as an entry only: its digest is kept, and its target's.
    assert cycle.record.request_bytes == _record.REQUEST_ENTRY_BYTES
    assert not cycle.record.request_budget_passed


def test_requests_past_the_cycles_budget_are_counted_only(
    cycle: Cycle, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_record, "MAX_RECORDED_REQUEST_BYTES", 30_000)
    body = _notes(2, 6000)  # about 12 kB: two fit, the third does not
    headers = _auth_headers(cycle)
    answers = [_raw(cycle.lab, "POST", PATH, headers, body) for _ in range(3)]
    assert answers[:2] == [(200, {"accepted": 2})] * 2
    assert answers[2][0] == 429 and "MAX_RECORDED_REQUEST_BYTES" in str(answers[2][1])
    bodies = [p["body"] for p in cycle.kinds("http.request") if p["route"] == PATH]
    assert [isinstance(b, list) for b in bodies] == [True, True]  # honest: kept whole
    # The third was not served: nothing of it is recorded, it is counted (sandbox red team 46,
    # P1: past the budget a request adds nothing to the ledger).
    assert cycle.record.requests_past_budget == 1 and cycle.record.request_budget_passed
    assert len(cycle.kinds("diagnostics")) == 4


FLOOD = textwrap.dedent(
    """
    import json, os, urllib.request
    import google.auth.transport.requests
    from google.oauth2 import service_account

    creds = service_account.Credentials.from_service_account_file(
        os.environ["GOOGLE_APPLICATION_CREDENTIALS"],
        scopes=["https://www.googleapis.com/auth/drive.readonly"])
    creds.refresh(google.auth.transport.requests.Request())
    url = os.environ["PROVEBENCH_LAB_ENDPOINT"].rstrip("/") + "/diagnostics"
    body = json.dumps([{"channel": "note", "message": "z" * 6000}] * 2).encode()
    COUNT = int(os.environ.get("FLOOD_COUNT", "0") or "0")
    for token in [None] * 4 + [creds.token] * COUNT:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = "Bearer " + token
        request = urllib.request.Request(url, data=body, headers=headers)
        try:
            urllib.request.urlopen(request, timeout=30).read()
        except Exception:
            pass
    """
)


@pytest.mark.parametrize("count", [1, 4])
def test_a_cycle_past_the_budget_ends_in_an_agent_error_naming_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, count: int
) -> None:
    # Four unauthorised entries, a token, and two of the 12 kB bodies fit; a third does not.
    monkeypatch.setattr(_record, "MAX_RECORDED_REQUEST_BYTES", 40_000)
    corpus = tmp_path / "corpus"
    write_corpus(
        corpus_config(seed=3, profile="public", overrides={"cycles": 4, "file_events": 4}), corpus
    )
    script = tmp_path / "code" / f"flood{count}.py"
    script.parent.mkdir()
    # The count is in the code: the sandbox passes no variable of the test's environment.
    script.write_text(FLOOD.replace('os.environ.get("FLOOD_COUNT", "0")', f'"{count}"'))
    run_dir = tmp_path / "run"
    run_with_command(corpus, f"python {script}", run_dir)
    entries = [json.loads(line) for line in (run_dir / "ledger.jsonl").open()]
    errors = [e["payload"] for e in entries if e["kind"] == "agent_error"]
    bodies = [e["payload"].get("body") for e in entries if e["kind"] == "http.request"]
    unauthorised = [b for b in bodies if isinstance(b, dict) and set(b) == {"bytes", "sha256"}]
    cycles = 4  # the script runs in each; the budget is a cycle's
    if count == 1:  # the honest control: within the budget, no error; its body is kept whole
        assert errors == []
        assert sum(isinstance(b, list) for b in bodies) == 1 * cycles
        assert len(unauthorised) == 4 * cycles
        return
    assert [e["type"] for e in errors] == ["RequestsOverBudget"] * cycles
    assert "passed the 40000 bytes the laboratory records" in errors[0]["message"]
    assert "the 2 requests past it were answered 429" in errors[0]["message"]
    assert sum(isinstance(b, list) for b in bodies) == 2 * cycles
    assert len(unauthorised) == 4 * cycles  # the two past the budget are counted, not recorded
