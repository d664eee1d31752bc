"""Properties: canonical bytes, determinism, and that any single-byte change is detected."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from provebench._canonical import compact_json
from provebench._errors import ProvebenchError
from provebench.ledger import Ledger, verify_ledger
from provebench.ledger._entry import canonical_payload, hashed_text

json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20)
)
json_values = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
payloads = st.dictionaries(st.text(max_size=8), json_values, max_size=5)
# Printable text: no control, format, surrogate or separator characters (str.isprintable()).
kinds = st.text(alphabet=st.characters(exclude_categories=("C", "Z")), min_size=1, max_size=20)


@given(seq=st.integers(min_value=0, max_value=2**40), kind=kinds, payload=payloads)
def test_hashed_text_is_compact_json_of_the_four_fields(
    seq: int, kind: str, payload: dict[str, Any]
) -> None:
    text, copy = canonical_payload(payload)
    assert text == compact_json(payload)
    assert copy == payload
    document = {"seq": seq, "kind": kind, "payload": payload, "prev_hash": "a" * 64}
    assert hashed_text(seq, kind, text, "a" * 64) == compact_json(document)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(items=st.lists(st.tuples(kinds, payloads), min_size=1, max_size=8))
def test_payloads_round_trip_and_verify(items: list[tuple[str, dict[str, Any]]]) -> None:
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "log.sqlite"
        with Ledger.open(path) as ledger:
            written = ledger.append_many(items)
            assert [(e.kind, e.payload) for e in ledger.entries()] == items
            assert list(ledger.entries()) == written
        assert verify_ledger(path).ok


def _events() -> list[tuple[str, dict[str, Any]]]:
    return [("event", {"i": i, "name": f"call_{i}.mp3", "tz": "Europe/Berlin"}) for i in range(40)]


def test_same_appends_give_byte_identical_exports(tmp_path: Path) -> None:
    """Interrupted-and-resumed, batched differently, or in one go: the same bytes."""
    events = _events()
    one_go = tmp_path / "one.sqlite"
    with Ledger.open(one_go) as ledger:
        for kind, payload in events:
            ledger.append(kind, payload)
        ledger.export_jsonl(tmp_path / "one.jsonl")
    resumed = tmp_path / "resumed.sqlite"
    for start, stop in ((0, 7), (7, 25), (25, 40)):
        with Ledger.open(resumed) as ledger:
            ledger.append_many(events[start:stop])
    with Ledger.open_readonly(resumed) as ledger:
        ledger.export_jsonl(tmp_path / "resumed.jsonl")
    first = (tmp_path / "one.jsonl").read_bytes()
    assert first == (tmp_path / "resumed.jsonl").read_bytes()
    assert len(first.splitlines()) == len(events)


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    path = tmp_path_factory.mktemp("ledger") / "log.sqlite"
    with Ledger.open(path) as ledger:
        ledger.append_many(_events()[:6])
        ledger.export_jsonl(path.with_suffix(".jsonl"))
    return path.with_suffix(".jsonl").read_bytes()


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_any_single_byte_change_of_an_export_is_detected(
    exported: bytes, data: st.DataObject
) -> None:
    offset = data.draw(st.integers(min_value=0, max_value=len(exported) - 1), label="offset")
    new_byte = data.draw(
        st.integers(min_value=0, max_value=255).filter(lambda b: b != exported[offset])
    )
    changed = exported[:offset] + bytes([new_byte]) + exported[offset + 1 :]
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "log.jsonl"
        path.write_bytes(changed)
        try:
            report = verify_ledger(path)
        except ProvebenchError:
            return  # unreadable (exit 2) is not a pass either
        assert not report.ok, f"byte {offset} changed to {new_byte} went unnoticed"


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_any_single_byte_change_of_a_payload_is_named_at_its_seq(
    exported: bytes, data: st.DataObject
) -> None:
    lines = exported.splitlines(keepends=True)
    index = data.draw(st.integers(min_value=1, max_value=len(lines) - 1), label="line")
    line = lines[index]
    start = line.index(b'"payload":') + len(b'"payload":')
    stop = line.index(b',"prev_hash"')
    offset = data.draw(st.integers(min_value=start, max_value=stop - 1), label="offset")
    new_byte = data.draw(
        st.integers(min_value=32, max_value=126).filter(lambda b: b != line[offset])
    )
    lines[index] = line[:offset] + bytes([new_byte]) + line[offset + 1 :]
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "log.jsonl"
        path.write_bytes(b"".join(lines))
        report = verify_ledger(path)
    assert not report.ok
    assert any(p.line == index + 1 for p in report.problems)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(garbage=st.lists(st.binary(max_size=60), min_size=1, max_size=3), where=st.integers(1, 6))
def test_garbage_lines_are_reported_never_a_crash_or_a_pass(
    exported: bytes, garbage: list[bytes], where: int
) -> None:
    lines = exported.splitlines(keepends=True)
    position = min(where, len(lines))
    changed = b"".join(lines[:position] + [g + b"\n" for g in garbage] + lines[position:])
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "log.jsonl"
        path.write_bytes(changed)
        report = verify_ledger(path)  # anything but a ProvebenchError here is a crash
    assert not report.ok
